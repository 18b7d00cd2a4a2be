"""Logs that do not grow the campaign: a log keeps its last windows, the older rows ride in the history.

Why: a log (chronicle, ledger, order archive, battles: the tabs `session.append_rows` writes) grows
every window, and every check and resolve reads and rewrites the whole campaign; at window 300 a
command would carry three hundred windows of rows it never looks at (issue 24, point 5).  So a
resolve moves the rows older than the last :data:`KEEP` windows of each log it appends to out of
the log (``Changeset.drop_rows``) and into the history row it writes for the same window (under
``history.MOVED``), in the same atomic write.  The history is where the ordinary read does not go
(engine/core/history.py), so what check and resolve read and write stays the same from window to
window.

A window's rows of a log are the run of rows whose first cell is the window's label (as
`session.append_rows` writes them; a row with a blank first cell belongs to the run above).

History, rollback, verify and report see the logs whole (:func:`expanded`): the rows moved out put
back between each log's header and the rows still in it.  A snapshot is the campaign as it was
(its logs as the campaign held them then), so the campaign as it was when window W was open is W's
snapshot with the rows moved out by the windows before W; a rollback to W cuts the history before
W, and with it the rows the windows undone moved out -- the logs come back exactly as they were.
"""

from __future__ import annotations

from .cursor import Cursor
from .history import Entry, entries, is_history, with_moved
from .tables import Changeset, Grid, Tables, WriteBlock, is_blank

#: windows of rows each log keeps in the campaign (older ones ride in the history)
KEEP = 10


def excess(grid: Grid, keep: int | None = None) -> int:
    """How many rows below the header of a log are older than its last `keep` windows (KEEP)."""
    keep = KEEP if keep is None else keep
    starts: list[int] = []
    label: object = object()
    for r, row in enumerate(grid[1:]):
        first = row[0] if row else None
        if is_blank(first):
            if not starts:
                starts.append(r)
            continue
        if first != label:
            starts.append(r)
            label = first
    return starts[len(starts) - keep] if len(starts) > keep else 0


def _after(grid: Grid, blocks: list[WriteBlock]) -> Grid:
    """A log's rows once `blocks` are written (only the rows they touch are copied)."""
    out = list(grid)
    for block in blocks:
        for dr, line in enumerate(block.values):
            r = block.row - 1 + dr
            while len(out) <= r:
                out.append([])
            row = list(out[r])
            for dc, v in enumerate(line):
                c = block.col - 1 + dc
                row.extend([None] * (c + 1 - len(row)))
                row[c] = v
            out[r] = row
    while out and all(is_blank(v) for v in out[-1]):
        out.pop()
    return out


def trim(tables: Tables, changes: Changeset, keep: int | None = None) -> None:
    """Add to a resolve's `changes` the moving out of every row a log it appends to holds beyond its
    last `keep` windows: the rows deleted from the log (``Changeset.drop_rows``) and packed into the
    history row the same changes append for the window.  Nothing without a history row (not a
    resolve) or with nothing to move."""
    at = next((i for i, b in enumerate(changes.blocks) if is_history(b.tab) and b.col == 1 and len(b.values) >= 1
               and len(b.values[0]) > 3 and isinstance(b.values[0][2], int)), None)
    if at is None:
        return
    moved: Tables = {}
    for tab in dict.fromkeys(b.tab for b in changes.blocks if b.log and not is_history(b.tab)):
        grid = _after(tables.get(tab, []), [b for b in changes.blocks if b.tab == tab])
        n = excess(grid, keep)
        if n:
            moved[tab] = [list(r) for r in grid[1 : 1 + n]]
            changes.drop_rows.append((tab, n))
    if moved:
        block = changes.blocks[at]
        values = [with_moved(list(block.values[0]), moved), *block.values[1:]]
        changes.blocks[at] = WriteBlock(block.tab, block.row, block.col, values, block.audience, block.log)


def _before(tables: Tables, at: Cursor | None) -> list[Entry]:
    """The snapshots of the windows resolved before `at` (every one when None), in order."""
    kept = entries(tables)
    if at is None:
        return kept
    order = [e.cursor for e in kept]
    return kept[: order.index(at)] if at in order else kept


def expanded(tables: Tables, view: Tables | None = None, at: Cursor | None = None) -> Tables:
    """`view` (a snapshot of `tables`'s history, or `tables` itself when None) with the logs whole:
    the rows the windows before `at` (every window when None) moved out, put back between each
    log's header and its rows.  `tables` must hold the history's chunks (``Backend.stored``); a
    campaign whose logs never moved a row is given back as it is."""
    base = tables if view is None else view
    back: dict[str, Grid] = {}
    for e in _before(tables, at):
        for tab, rows in e.moved().items():
            back.setdefault(tab, []).extend(rows)
    if not back:
        return base
    out = dict(base)
    for tab, rows in back.items():
        grid = out.get(tab, [])
        out[tab] = [grid[0] if grid else [], *rows, *grid[1:]]
    return out


__all__ = ["KEEP", "excess", "expanded", "trim"]
