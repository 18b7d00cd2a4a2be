"""The books of a .xlsx campaign with hidden information: one workbook per player and a public one.

The GM's workbook holds every tab.  For a game that hides facts from players
(``WorkbookSpec.hidden_information``), every save of it also writes, beside it, the books the GM
sends out (engine/core/audience.py says which tabs each holds):

* ``<campaign>.public.xlsx`` — the public tabs only;
* ``<campaign>.players/<side>.xlsx`` — that side's own tabs only (its order tab, its report).

Each is written atomically (a temporary file, then a rename), from the GM's workbook as just saved,
with every other tab removed — not hidden: a hidden sheet is one click away in Excel.

Which tab belongs to whom is recorded in the GM's workbook as custom document properties
(``strategos:audience:<n>`` = ``[tab, audience]``, each short enough for Excel's 255-character
limit), never in a cell the rulesets would read; a campaign without the record (a game without
hidden information) gets no extra books.  A tab the record does not name (made by hand, renamed in Excel) is the GM's.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

import openpyxl
from openpyxl.packaging.custom import CustomPropertyList, StringProperty
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.formula import ArrayFormula

from engine.core import audience
from engine.core.audience import GM, PUBLIC, Audience
from engine.core.messages import _

from .faults import backend_error

PROPERTY_PREFIX = "strategos:audience:"
UNSAFE_IN_FILE_NAME = re.compile(r'[\\/:*?"<>|\x00-\x1f]')

Save = Callable[..., str]  # xlsx.atomic_save(wb, path, keep_backup=..., prefix=...)


def record_of(wb: Workbook) -> dict[str, Audience] | None:
    """Tab -> audience as the workbook records it; None when it records none (no extra books)."""
    found: dict[str, Audience] = {}
    seen = False
    for prop in wb.custom_doc_props.props:
        if not str(prop.name).startswith(PROPERTY_PREFIX):
            continue
        seen = True
        try:
            tab, key = json.loads(str(prop.value))
        except (ValueError, TypeError):
            continue  # a property mangled by hand: its tab falls to the GM
        found[str(tab)] = Audience.parse(str(key))
    return found if seen else None


def set_record(wb: Workbook, tab_audiences: Mapping[str, Audience]) -> None:
    """Record ``tab_audiences`` in ``wb``'s custom properties (replacing an earlier record)."""
    kept = [p for p in wb.custom_doc_props.props if not str(p.name).startswith(PROPERTY_PREFIX)]
    props = CustomPropertyList()
    for p in kept:
        props.append(p)
    for n, (tab, who) in enumerate(tab_audiences.items(), start=1):
        props.append(StringProperty(name=f"{PROPERTY_PREFIX}{n}", value=json.dumps([tab, who.key], ensure_ascii=False)))
    wb.custom_doc_props = props


def book_path(campaign: Path, reader: Audience) -> Path:
    """Where ``reader``'s book lies beside the GM's workbook ``campaign``."""
    if reader == PUBLIC:
        return campaign.with_name(f"{campaign.stem}.public.xlsx")
    side = UNSAFE_IN_FILE_NAME.sub("_", reader.side).strip(" .") or "_"
    return campaign.with_name(f"{campaign.stem}.players") / f"{side}.xlsx"


def write_books(campaign: Path, record: Mapping[str, Audience], save: Save) -> dict[Audience, Path]:
    """Write every book but the GM's from ``campaign`` as saved; returns where each went.  A fault
    of the file system is a BackendError naming the book."""
    try:
        data = campaign.read_bytes()
    except OSError as exc:
        raise backend_error(exc, campaign, prefix=_("книги игроков не записаны — ")) from exc
    names = openpyxl.load_workbook(io.BytesIO(data), read_only=True).sheetnames
    cached: Workbook | None = None  # the values a spreadsheet program last computed, read only if needed
    written: dict[Audience, Path] = {}
    for reader, tabs in audience.books(names, record).items():
        if reader == GM or not tabs:
            continue
        wb = openpyxl.load_workbook(io.BytesIO(data))
        if cached is None and _reads_away(wb, tabs):
            cached = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
        _keep_only(wb, tabs, cached, audience.readable(names, record, reader))
        target = book_path(campaign, reader)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise backend_error(exc, target.parent, prefix=_("книги игроков не записаны — ")) from exc
        save(wb, target, keep_backup=False, prefix=_("книга «{path}» не записана — ").format(path=target))
        written[reader] = target
    return written


def _read_sheets(formula: object, sheets: list[str]) -> set[str]:
    """Which of ``sheets`` a formula's text reads (``'Карта'!A1``, ``Карта!A1``).  A near miss (a
    sheet whose name ends like another's) only costs a formula its life."""
    text = _formula_text(formula)
    if "!" not in text:
        return set()
    return {t for t in sheets if f"'{t.replace(chr(39), chr(39) * 2)}'!" in text or f"{t}!" in text}


def _is_formula(value: object) -> bool:
    return isinstance(value, ArrayFormula) or (isinstance(value, str) and value.startswith("="))


def _formula_text(value: object) -> str:
    return str(value.text if isinstance(value, ArrayFormula) else value or "")


def _reads_away(wb: Workbook, tabs: list[str]) -> bool:
    """Whether a cell of ``tabs`` holds a formula reading a sheet that is not among them."""
    away = [ws.title for ws in wb.worksheets if ws.title not in tabs]
    return any(_is_formula(c.value) and _read_sheets(c.value, away) for t in tabs for c in wb[t]._cells.values())


def _keep_only(wb: Workbook, tabs: list[str], cached: Workbook | None = None,
               readable: Collection[str] = ()) -> None:
    """Remove every sheet but ``tabs`` (and whatever points into a removed one: dropdowns drawing
    on it, defined names), drop the audience record, and leave a visible sheet active.

    A formula that reads a removed sheet would show an error in the book (#REF!): it becomes the
    value a spreadsheet program last computed for it in the GM's workbook (``cached``) when every
    removed sheet it reads is one the book's reader may see elsewhere (``readable``: a player's
    formula over a public tab, the public book's over nothing), else a blank — as it is when no
    value was ever computed (the program itself writes formulas unevaluated)."""
    removed = [ws.title for ws in wb.worksheets if ws.title not in tabs]
    for ws in wb.worksheets:
        if ws.title not in tabs:
            continue
        values = cached[ws.title] if cached is not None and ws.title in cached.sheetnames else None
        for (r, c), cell in list(ws._cells.items()):
            read = _read_sheets(cell.value, removed) if _is_formula(cell.value) else set()
            if read:
                shown = values is not None and read <= set(readable)
                cell.value = values.cell(row=r, column=c).value if shown and values is not None else None

    def points_away(formula: object) -> bool:
        return bool(_read_sheets(formula, removed))

    for title in removed:
        wb.remove(wb[title])

    for ws in wb.worksheets:
        validations = ws.data_validations.dataValidation
        ws.data_validations.dataValidation = [
            dv for dv in validations if not (points_away(dv.formula1) or points_away(dv.formula2))
        ]
    for name in [n for n, dn in wb.defined_names.items() if points_away(dn.attr_text)]:
        del wb.defined_names[name]
    wb.custom_doc_props = CustomPropertyList()
    visible = [i for i, ws in enumerate(wb.worksheets) if ws.sheet_state == "visible"]
    if not visible:
        wb.worksheets[0].sheet_state = "visible"
        visible = [0]
    wb.active = visible[0]
