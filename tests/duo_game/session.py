"""The session plumbing the game needs and the core does not offer yet: reading its order tabs,
their status strips, the resolved order tab, log appends, the history snapshot and the meta marker.

Issue 17, point 5 moves this kind of code into the core (engine/core/ordertab.py and session.py,
helper H1); until the game calls those, these are its own small versions, kept apart so they can
be dropped in one place."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core import history
from engine.core.audience import Audience
from engine.core.cursor import Cursor
from engine.core.orders import STATUS_TEXT, OrderResult, OrderRow, Status
from engine.core.tables import Cell, Formula, Grid, Tables, WriteBlock, as_text, column_letter, is_blank

from .words import COLS, ORDER_FIELDS

EXECUTED = (Status.DONE, Status.PARTIAL)


def _cell(row: Sequence[Cell], col: int) -> Cell:
    return row[col] if col < len(row) else None


def order_rows(tables: Tables, tab: str, side: str) -> list[OrderRow]:
    """Every row of an order tab that holds any input, as an `OrderRow` (formulas as their text,
    marked so the game can refuse them)."""
    out: list[OrderRow] = []
    letters = {f: column_letter(COLS[f] + 1) for f in ORDER_FIELDS}
    for r, row in enumerate(tables.get(tab, [])[1:], start=2):
        raw = {f: _cell(row, COLS[f]) for f in ORDER_FIELDS}
        if all(is_blank(v) for v in raw.values()):
            continue
        formulas = frozenset(f for f, v in raw.items() if isinstance(v, Formula))
        out.append(OrderRow(tab, r, side, {f: as_text(v) for f, v in raw.items()}, letters, formulas))
    return out


def _words(result: OrderResult, lang: str) -> list[Cell]:
    return [STATUS_TEXT.get(lang, STATUS_TEXT["ru"])[result.status], result.reason, result.understood]


def status_blocks(tab: str, results: Mapping[int, OrderResult], lang: str) -> list[WriteBlock]:
    """A check's writes: the status, reason and echo of each judged row, nothing else."""
    return [WriteBlock(tab, row, COLS["status"] + 1, [_words(res, lang)]) for row, res in sorted(results.items())]


def resolved_grid(grid: Grid, results: Mapping[int, OrderResult], stamp: str, lang: str) -> Grid:
    """The order tab after a resolve: an executed row has its inputs cleared and is stamped with the
    window; a refused one keeps its inputs (the player may mend them); a waiting one is left alone."""
    out = [list(r) + [None] * max(0, len(COLS) - len(r)) for r in grid]
    for row, res in results.items():
        line = out[row - 1]
        executed = res.status in EXECUTED
        if executed:
            for f in ORDER_FIELDS:
                line[COLS[f]] = None
        line[COLS["window"]] = stamp if executed else None
        line[COLS["status"]:COLS["echo"] + 1] = _words(res, lang)
    return out


def append_rows(tables: Tables, tab: str, header: Sequence[Cell], rows: Grid,
                audience: Audience | None = None) -> list[WriteBlock]:
    """Rows appended to a log tab (the header first when the tab is new or empty)."""
    if not rows:
        return []
    have = tables.get(tab) or []
    if not have:
        return [WriteBlock(tab, 1, 1, [list(header), *rows], audience)]
    return [WriteBlock(tab, len(have) + 1, 1, rows, audience)]


def history_block(tables: Tables, cursor: Cursor) -> WriteBlock:
    """The snapshot of the campaign as read, appended to the history tab (one row per window)."""
    tab = history.tab_of(tables)
    have = tables.get(tab) or [history.header()]
    return WriteBlock(tab, len(have) + 1, 1, [history.row_for(cursor, tables)])


def meta_marker(tables: Tables, meta_tab: str, grid: Grid) -> WriteBlock:
    """The new meta grid, padded to the old one's height and width: the turn marker, written last."""
    old = tables.get(meta_tab, [])
    width = max([len(r) for r in [*old, *grid]] or [2])
    rows = [list(r) + [None] * (width - len(r)) for r in grid]
    rows += [[None] * width for _ in range(max(0, len(old) - len(rows)))]
    return WriteBlock(meta_tab, 1, 1, rows)
