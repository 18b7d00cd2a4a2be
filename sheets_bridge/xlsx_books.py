"""The books of a .xlsx campaign with hidden information: one workbook per player and a public one.

The GM's workbook holds every tab.  For a game that hides facts from players
(``WorkbookSpec.hidden_information``), every save of it also writes, beside it, the books the GM
sends out (engine/core/audience.py says which tabs each holds):

* ``<campaign>.public.xlsx`` — the public tabs only;
* ``<campaign>.players/<side>.xlsx`` — that side's own tabs only (its order tab, its report).

Each is written atomically (a temporary file, then a rename), from the GM's workbook as just saved,
with every other tab removed — not hidden: a hidden sheet is one click away in Excel.  The books are
saved from the GM's workbook in memory, narrowed to each book's tabs for its save and restored
after: loading the file again for every book cost (nations + 2) loads, each dearer than a save.

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
from typing import Any

import openpyxl
from openpyxl.packaging.custom import CustomPropertyList, StringProperty
from openpyxl.workbook.defined_name import DefinedNameDict
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.formula import ArrayFormula

from engine.core import audience, meta
from engine.core.audience import GM, PUBLIC, Audience
from engine.core.messages import _

from . import book_mark, xlsx_inputs
from .faults import backend_error

PROPERTY_PREFIX = "strategos:audience:"
#: The custom property naming the window (the GM's write) a workbook reflects: the GM's workbook
#: and every book written from it carry the same value (sheets_bridge/xlsx_window.py)
MARKER_PROPERTY = "strategos:window"
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


def mark_of(wb: Workbook) -> book_mark.BookMark | None:
    """The mark of a book written by `write_books` (whose book it is, the GM's workbook's file name,
    the language); None for the GM's workbook and any other one."""
    for prop in wb.custom_doc_props.props:
        if str(prop.name) == book_mark.PROPERTY:
            return book_mark.BookMark.decode(prop.value)
    return None


def _marked(props_now: CustomPropertyList, reader: Audience, campaign: Path, lang: str) -> CustomPropertyList:
    """A book's custom properties: those it is given (none but what another part of the bridge may
    add: the audience record stays in the GM's workbook) and its mark."""
    props = CustomPropertyList()
    for p in props_now.props:
        if str(p.name) != book_mark.PROPERTY:
            props.append(p)
    mark = book_mark.BookMark(reader, campaign.name, lang)
    props.append(StringProperty(name=book_mark.PROPERTY, value=mark.encode()))
    return props


def _lang_of(wb: Workbook) -> str:
    """The campaign's language as its meta tab says it ("" when it says none): a player's book has
    no meta tab, so its mark carries it for the messages a command gives on that book."""
    title = meta.meta_tab({title: [] for title in wb.sheetnames})
    if title is None:
        return ""
    rows = [list(r) for r in wb[title].iter_rows(min_col=1, max_col=2, values_only=True)]
    return meta.lang({title: rows}) or ""


def book_path(campaign: Path, reader: Audience) -> Path:
    """Where ``reader``'s book lies beside the GM's workbook ``campaign``."""
    if reader == PUBLIC:
        return campaign.with_name(f"{campaign.stem}.public.xlsx")
    side = UNSAFE_IN_FILE_NAME.sub("_", reader.side).strip(" .") or "_"
    return campaign.with_name(f"{campaign.stem}.players") / f"{side}.xlsx"


def write_books(campaign: Path, record: Mapping[str, Audience], save: Save,
                wb: Workbook | None = None, reading: xlsx_inputs.Reading | None = None, *,
                marker: str | None = None, only: Collection[Audience] | None = None,
                kept: Mapping[Audience, Mapping[tuple[str, int, int], object]] | None = None,
                ) -> dict[Audience, Path]:
    """Write every book but the GM's from ``campaign`` as saved; returns where each went.  A fault
    of the file system is a BackendError naming the book.

    ``marker`` is the GM's window marker (xlsx_window): each book carries it, so a book a killed
    run left behind is known by the next command.  ``only`` limits the write to those readers'
    books; ``kept`` gives, per reader, cells (tab, row, column) that keep the value the reader
    typed in their own book instead of the GM's (a stale book rewritten by xlsx_window).

    ``wb`` is the GM's workbook as just saved to ``campaign`` by openpyxl (the bridge's own saves):
    every book is then saved from it, narrowed to that book's tabs for the save and restored after,
    instead of loading the file again per book — a load costs several times a save.  openpyxl
    writes a formula without a computed value, so such a file holds none to keep.  Without ``wb``
    the file is loaded once (and its computed values read once, only when a book needs some).

    ``reading`` is what the read found in the players' books (xlsx_inputs): a book that could not
    be read is left as it is, one holding what was not read keeps its old file as ``.bak``, and one
    saved again since the read is not replaced.  Each book records what was written into it."""
    data: bytes | None = None
    if wb is None:
        try:
            data = campaign.read_bytes()
        except OSError as exc:
            raise backend_error(exc, campaign, prefix=_("книги игроков не записаны — ")) from exc
        wb = openpyxl.load_workbook(io.BytesIO(data))
    computed = _Computed(data)
    names = wb.sheetnames
    lang = _lang_of(wb)
    blocks = xlsx_inputs.input_record(wb)
    found = reading or xlsx_inputs.Reading()
    written: dict[Audience, Path] = {}
    for reader, tabs in audience.books(names, record).items():
        if reader == GM or not tabs or reader in found.skip:
            continue
        target = book_path(campaign, reader)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise backend_error(exc, target.parent, prefix=_("книги игроков не записаны — ")) from exc
        if only is not None and reader not in only:
            continue
        restore = _narrow(wb, tabs, computed.value, audience.readable(names, record, reader))
        try:
            wb.custom_doc_props = _marked(wb.custom_doc_props, reader, campaign, lang)  # put back by `restore`
            if marker is not None:  # the window it reflects (xlsx_window)
                wb.custom_doc_props.append(StringProperty(name=MARKER_PROPERTY, value=marker))
            if reader.kind == "player":  # what was written, so the next read tells what the player typed
                wb.custom_doc_props = xlsx_inputs.written_props(wb, tabs, blocks)
            keep = _overlay(wb, (kept or {}).get(reader, {}))
            try:
                save(wb, target, keep_backup=reader in found.keep, expect=found.digests.get(reader),
                     prefix=_("книга «{path}» не записана — ").format(path=target))
            finally:
                keep()
        finally:
            restore()
        written[reader] = target
    return written


def _overlay(wb: Workbook, cells: Mapping[tuple[str, int, int], object]) -> Callable[[], None]:
    """Put ``cells`` into ``wb`` for one save (as text where a string: player text is data, never
    a formula); returns what puts the old values back."""
    was: list[tuple[Any, object, str]] = []
    for (tab, row, col), value in cells.items():
        if tab not in wb.sheetnames:
            continue
        cell = wb[tab].cell(row=row, column=col)
        was.append((cell, cell._value, cell.data_type))
        cell.value = value
        if isinstance(value, str):
            cell.data_type = "s"

    def restore() -> None:
        for cell, value, data_type in reversed(was):
            _put_back(cell, value, data_type)

    return restore


Lookup = Callable[[str, int, int], object]  # (tab, row, column) -> the value last computed there


class _Computed:
    """The values a spreadsheet program last computed for the formulas of a saved workbook, read
    from its bytes on first need, one tab at a time (a read-only pass over that tab alone);
    without bytes (a workbook openpyxl saved, which writes none) every value is a blank."""

    def __init__(self, data: bytes | None) -> None:
        self._data = data
        self._book: Any = None
        self._tabs: dict[str, dict[tuple[int, int], object]] = {}

    def value(self, tab: str, row: int, col: int) -> object:
        if self._data is None:
            return None
        if tab not in self._tabs:
            if self._book is None:
                self._book = openpyxl.load_workbook(io.BytesIO(self._data), read_only=True, data_only=True)
            cells: dict[tuple[int, int], object] = {}
            if tab in self._book.sheetnames:
                for line in self._book[tab].iter_rows():
                    for cell in line:
                        if getattr(cell, "value", None) is not None:
                            cells[(cell.row, cell.column)] = cell.value
            self._tabs[tab] = cells
        return self._tabs[tab].get((row, col))


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


def _keep_only(wb: Workbook, tabs: list[str], cached: Workbook | None = None,
               readable: Collection[str] = ()) -> None:
    """Narrow ``wb`` to ``tabs`` for good (see ``_narrow``), a formula over a removed sheet taking
    its value from ``cached`` (a workbook as a spreadsheet program saved it, loaded with its values)."""

    def value(tab: str, row: int, col: int) -> object:
        if cached is None or tab not in cached.sheetnames:
            return None
        return cached[tab].cell(row=row, column=col).value

    _narrow(wb, tabs, value, readable)


def _narrow(wb: Workbook, tabs: Collection[str], computed: Lookup,
            readable: Collection[str] = ()) -> Callable[[], None]:
    """Make ``wb`` hold only ``tabs`` for a save, and return what puts it back as it was.

    Every other sheet is left out of the workbook's list of sheets — not hidden: a hidden sheet is
    one click away in Excel — and so is whatever points into one (dropdowns drawing on it, defined
    names), the audience record, and the pivot tables openpyxl remembers from earlier saves; a
    visible sheet is made active.  A formula that reads a left-out sheet would show an error in the
    book (#REF!): it becomes the value a spreadsheet program last computed for it in the GM's
    workbook (``computed``) when every left-out sheet it reads is one the book's reader may see
    elsewhere (``readable``: a player's formula over a public tab, the public book's over nothing),
    else a blank — as it is when no value was ever computed (the program itself writes formulas
    unevaluated).  Nothing is copied: the book shares the GM's sheets, changed in place for the
    save and restored by the returned function (which the caller must run, as in a ``finally``)."""
    keep = set(tabs)
    removed = [ws.title for ws in wb._sheets if ws.title not in keep]
    kept_sheets = [ws for ws in wb.worksheets if ws.title in keep]
    undo: list[Callable[[], None]] = []

    def restore() -> None:
        while undo:
            undo.pop()()

    def points_away(formula: object) -> bool:
        return bool(_read_sheets(formula, removed))

    try:
        if removed:
            see = set(readable)
            changed: list[tuple[Any, object, str]] = []
            undo.append(lambda: [_put_back(cell, v, t) for cell, v, t in changed])
            for ws in kept_sheets:
                for (r, c), cell in ws._cells.items():
                    if not _is_formula(cell._value):
                        continue
                    read = _read_sheets(cell._value, removed)
                    if read:
                        changed.append((cell, cell._value, cell.data_type))
                        cell.value = computed(ws.title, r, c) if read <= see else None
        sheets, active = wb._sheets, wb._active_sheet_index
        undo.append(lambda: (setattr(wb, "_sheets", sheets), setattr(wb, "_active_sheet_index", active)))
        wb._sheets = [ws for ws in sheets if ws.title in keep]
        for ws in kept_sheets:
            validations = ws.data_validations.dataValidation
            undo.append(lambda ws=ws, v=validations: setattr(ws.data_validations, "dataValidation", v))
            ws.data_validations.dataValidation = [
                dv for dv in validations if not (points_away(dv.formula1) or points_away(dv.formula2))
            ]
        names, props, pivots = wb.defined_names, wb.custom_doc_props, wb._pivots
        undo.append(lambda: (setattr(wb, "defined_names", names), setattr(wb, "custom_doc_props", props),
                             setattr(wb, "_pivots", pivots)))
        narrowed = DefinedNameDict()
        for name, dn in names.items():
            if not points_away(dn.attr_text):
                narrowed[name] = dn
        wb.defined_names = narrowed
        wb.custom_doc_props = CustomPropertyList()
        wb._pivots = []
        visible = [i for i, ws in enumerate(wb.worksheets) if ws.sheet_state == "visible"]
        if not visible:
            first = wb.worksheets[0]
            undo.append(lambda state=first.sheet_state: setattr(first, "sheet_state", state))
            first.sheet_state = "visible"
            visible = [0]
        wb.active = visible[0]
    except BaseException:
        restore()
        raise
    return restore


def _put_back(cell: Any, value: object, data_type: str) -> None:
    """A cell's value as it was, with its type (a formula stays a formula, not a string)."""
    cell._value, cell.data_type = value, data_type
