"""What a player typed in their own .xlsx book, read back into the GM's workbook (issue 23 p1, p2).

A campaign with books (xlsx_books) sends each player ``<campaign>.players/<side>.xlsx``: that
side's order tab and report, nothing else.  The player types orders there and sends the book back
(a shared folder is the usual way).  Every command reads those books inside its one read, under
the GM's workbook lock, before the ruleset sees the campaign:

* only the input block of the side's own order tabs is read (the columns ``TabSpec.editable_columns``
  of rows 2 on, as on Google, where only that block is the player's to edit) -- recorded in the GM's
  workbook as ``strategos:input:<n>`` = ``[tab, first column, last column]``;
* each book carries, as ``strategos:written:<n>`` = ``[tab, input digest, rest digest]``, what the
  program wrote into each of its tabs; so a read tells who changed what since: the player's block
  changed -> the player's book wins (and the GM is told when the GM's copy changed too, with the
  GM's values); the player's block unchanged -> the GM's copy stands (orders the GM typed for them);
* a tab the record does not give this side (a sheet the player added, one titled as another side's
  order tab) and any cell typed outside the input block is never read: the GM is told its name, and
  the book's old file is kept beside it (``<side>.xlsx.bak``) when the command rewrites it;
* a book that cannot be read is not rewritten (nothing in it is lost), and one the player saved
  again after the read is not replaced (``digests``: the write compares them).
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.packaging.custom import CustomPropertyList, StringProperty
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.formula import ArrayFormula

from engine.core import audience
from engine.core.audience import Audience
from engine.core.messages import _
from engine.core.tables import Cell, column_letter

INPUT_PREFIX = "strategos:input:"
WRITTEN_PREFIX = "strategos:written:"
SHOWN = 5  # cells or rows a warning names before «и ещё N»

Say = Callable[[], str]  # a warning, worded in the language current when it is called
Block = tuple[int, int]  # the 1-based first and last column players type in (rows 2 on)
Cells = dict[tuple[int, int], Cell]  # (row, column) -> a non-blank value, as compared


def _props(wb: Workbook, prefix: str) -> list[list[Any]]:
    """The JSON lists of ``wb``'s custom properties named ``prefix<n>`` (a mangled one is skipped)."""
    out: list[list[Any]] = []
    for prop in wb.custom_doc_props.props:
        if str(prop.name).startswith(prefix):
            try:
                value = json.loads(str(prop.value))
            except ValueError:
                continue
            if isinstance(value, list):
                out.append(value)
    return out


def input_record(wb: Workbook) -> dict[str, Block]:
    """Order tab -> its input block, as the GM's workbook records it."""
    out: dict[str, Block] = {}
    for line in _props(wb, INPUT_PREFIX):
        if len(line) == 3 and all(isinstance(v, int) for v in line[1:]):
            out[str(line[0])] = (int(line[1]), int(line[2]))
    return out


def set_input_record(wb: Workbook, blocks: Mapping[str, Block]) -> None:
    """Record ``blocks`` in the GM's workbook (replacing an earlier record)."""
    props = CustomPropertyList()
    for p in wb.custom_doc_props.props:
        if not str(p.name).startswith(INPUT_PREFIX):
            props.append(p)
    for n, (tab, (first, last)) in enumerate(blocks.items(), start=1):
        value = json.dumps([tab, first, last], ensure_ascii=False)
        props.append(StringProperty(name=f"{INPUT_PREFIX}{n}", value=value))
    wb.custom_doc_props = props


def _value(cell: Any) -> Cell:
    """A cell's value as compared: blanks are None, a whole float an int, a formula its text."""
    v = cell.value
    if isinstance(v, ArrayFormula):
        v = str(v.text)
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v if type(v) in (str, int, float, bool) else str(v)


def cells_of(ws: Any) -> Cells:
    """Every non-blank cell of a sheet (from openpyxl's cell store: no empty cell is made)."""
    out: Cells = {}
    for (r, c), cell in ws._cells.items():
        v = _value(cell)
        if v is not None:
            out[(r, c)] = v
    return out


def _book_cells(ws: Any) -> Cells:
    """Every non-blank cell of a sheet of a book loaded read-only (a player's: read, never saved)."""
    out: Cells = {}
    for line in ws.iter_rows():
        for cell in line:
            v = _value(cell) if getattr(cell, "value", None) is not None else None
            if v is not None:
                out[(cell.row, cell.column)] = v
    return out


def _split(cells: Cells, block: Block | None) -> tuple[Cells, Cells]:
    """The cells inside the input block and those outside it."""
    inside: Cells = {}
    rest: Cells = {}
    for (r, c), v in cells.items():
        if block is not None and r >= 2 and block[0] <= c <= block[1]:
            inside[(r, c)] = v
        else:
            rest[(r, c)] = v
    return inside, rest


def _digest(cells: Cells) -> str:
    text = json.dumps(sorted(([r, c], repr(v)) for (r, c), v in cells.items()), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def written_props(wb: Workbook, tabs: list[str], blocks: Mapping[str, Block]) -> CustomPropertyList:
    """A book's record of what the program wrote into each of its ``tabs`` (``wb`` narrowed to them),
    after the properties it already has (the book's mark) but an earlier record."""
    props = CustomPropertyList()
    for p in wb.custom_doc_props.props:
        if not str(p.name).startswith(WRITTEN_PREFIX):
            props.append(p)
    for n, tab in enumerate(tabs, start=1):
        inside, rest = _split(cells_of(wb[tab]), blocks.get(tab))
        value = json.dumps([tab, _digest(inside), _digest(rest)], ensure_ascii=False)
        props.append(StringProperty(name=f"{WRITTEN_PREFIX}{n}", value=value))
    return props


@dataclass
class Reading:
    """What the players' books add to one read of the GM's workbook."""

    cells: list[tuple[str, int, int, Cell]] = field(default_factory=list)  # tab, row, column, value to put
    # the GM's warnings, each worded when shown: the read comes before the campaign's language is known
    warnings: list[Say] = field(default_factory=list)
    keep: set[Audience] = field(default_factory=set)  # books holding what was not read: old file kept as .bak
    skip: set[Audience] = field(default_factory=set)  # books that could not be read: not rewritten
    digests: dict[Audience, str] = field(default_factory=dict)  # sha256 of each book's file as read


BookPath = Callable[[Path, Audience], Path]


def read_books(campaign: Path, wb: Workbook, record: Mapping[str, Audience], book_path: BookPath) -> Reading:
    """Read every player's book beside ``campaign`` against the GM's workbook ``wb`` (see the module)."""
    blocks = input_record(wb)
    sheets = {ws.title: ws for ws in wb.worksheets}
    out = Reading()
    for reader, tabs in audience.books(list(sheets), record).items():
        if reader.kind != "player" or not tabs:
            continue
        path = book_path(campaign, reader)
        if not path.exists():
            continue  # not sent back yet: the GM's copy stands
        try:
            data = path.read_bytes()
            found = _read_book(reader, path, data, tabs, sheets, blocks)
        except Exception as exc:  # a broken file in many ways: its text stays out, the book stays as it is
            out.skip.add(reader)
            kind = type(exc).__name__
            out.warnings.append(lambda path=path, why=kind: _(
                "Книга игрока {path} не читается ({why}): приказы из неё не прочитаны, и программа её не "
                "перезаписывает. Пусть игрок сохранит её как «Книга Excel (.xlsx)» и пришлёт снова (или удалите "
                "её — тогда будет записана новая).").format(path=path, why=why))
            continue
        out.cells += found.cells
        out.warnings += found.warnings
        out.keep |= found.keep
        out.digests[reader] = hashlib.sha256(data).hexdigest()
    return out


def _read_book(reader: Audience, path: Path, data: bytes, tabs: list[str], sheets: Mapping[str, Any],
               blocks: Mapping[str, Block]) -> Reading:
    """One player's book (``data``, the bytes of ``path``) against the GM's ``sheets``."""
    out = Reading()
    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True)  # a third faster than a full load
    try:
        written = {str(line[0]): (str(line[1]), str(line[2]))
                   for line in _props(book, WRITTEN_PREFIX) if len(line) == 3}
        bak = path.with_name(path.name + ".bak")
        for ws in book.worksheets:
            if ws.title not in tabs:
                out.keep.add(reader)
                out.warnings.append(lambda tab=ws.title: _(
                    "В книге игрока «{side}» ({path}) лист «{tab}» не создан программой для этой стороны: он не "
                    "читается — ни как приказы, ни как данные. Прежняя книга сохранится рядом: {bak}."
                ).format(side=reader.side, path=path, tab=tab, bak=bak))
                continue
            _read_tab(out, reader, path, ws.title, _book_cells(ws), cells_of(sheets[ws.title]), blocks.get(ws.title),
                      written.get(ws.title))
    finally:
        book.close()
    return out


def _read_tab(out: Reading, reader: Audience, path: Path, tab: str, theirs: Cells, ours: Cells,
              block: Block | None, written: tuple[str, str] | None) -> None:
    """One tab of a player's book: its input block taken when the player changed it, anything else
    typed in it named to the GM."""
    their_in, their_rest = _split(theirs, block)
    our_in, our_rest = _split(ours, block)
    if written is not None and _digest(their_rest) != written[1]:
        out.keep.add(reader)
        typed = sorted(k for k in set(their_rest) | set(our_rest) if their_rest.get(k) != our_rest.get(k))

        def outside() -> str:
            where = _(" (приказы — столбцы {first}–{last} со второй строки)").format(
                first=column_letter(block[0]), last=column_letter(block[1])) if block else ""
            return _(
                "В книге игрока «{side}» ({path}) на листе «{tab}» изменены ячейки, которые программа не читает"
                "{where}: {cells}. Прежняя книга сохранится рядом: {bak}."
            ).format(side=reader.side, path=path, tab=tab, cells=_refs(typed) or "—", where=where,
                     bak=path.with_name(path.name + ".bak"))

        out.warnings.append(outside)
    if block is None or their_in == our_in:
        return
    if written is not None and _digest(their_in) == written[0]:
        return  # the player changed nothing there: the GM's copy stands (orders the GM typed for them)
    for key in sorted(set(their_in) | set(our_in)):
        value = their_in.get(key)
        out.cells.append((tab, key[0], key[1], str(value) if isinstance(value, str) else value))
    if written is None or _digest(our_in) != written[0]:  # the GM's copy changed too: a real disagreement
        rows = sorted({r for (r, c) in set(their_in) | set(our_in) if their_in.get((r, c)) != our_in.get((r, c))})
        first, last = block

        def disagree() -> str:
            gm = [_("строка {row}: {values}").format(row=r, values=" | ".join(
                str(our_in.get((r, c), "")) for c in range(first, last + 1)).rstrip(" |") or "—")
                for r in rows[:SHOWN]]
            more = _(" и ещё {n}").format(n=len(rows) - SHOWN) if len(rows) > SHOWN else ""
            return _(
                "Лист «{tab}» в книге ведущего и в книге игрока {path} различается (строки {rows}): прочитаны "
                "приказы из книги игрока. В книге ведущего было: {gm}."
            ).format(tab=tab, path=path, rows=", ".join(str(r) for r in rows[:SHOWN]) + more, gm="; ".join(gm))

        out.warnings.append(disagree)


def _refs(keys: list[tuple[int, int]]) -> str:
    """Cell references («B3, C4 и ещё 2»)."""
    shown = ", ".join(f"{column_letter(c)}{r}" for r, c in keys[:SHOWN])
    return shown + (_(" и ещё {n}").format(n=len(keys) - SHOWN) if len(keys) > SHOWN else "")
