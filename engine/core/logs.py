"""Logs that do not grow the campaign: a log keeps its last windows, the older rows are archived.

Why: a log (chronicle, ledger, order archive, battles: the tabs `session.append_rows` writes) grows
every window, and every check and resolve reads and rewrites the whole campaign; at window 300 a
command would carry three hundred windows of rows it never looks at (issue 24, point 5).  So a
resolve moves the rows older than the last :data:`KEEP` windows of each log it appends to out of
the log, into a record of the hidden tab «_Архив журналов» (one row per window, packed as a
history snapshot is, engine/core/history.py), in the same atomic write.  A backend keeps those
records' chunks where its ordinary read does not go, so what check and resolve read and write
stays the same from window to window.

A window's rows of a log are the run of rows whose first cell is the window's label (as
`session.append_rows` writes them; a row with a blank first cell belongs to the run above).

History, rollback, verify and report see the logs whole (:func:`expanded`): the archived rows put
back between each log's header and the rows still in it.  A snapshot is taken of the campaign as it
is (its logs as the campaign held them then), so the campaign as it was when window W was open is
that snapshot with the records of the windows before W put back; a rollback to W keeps exactly
those records (:func:`kept_before`).
"""

from __future__ import annotations

from .audience import GM
from .cursor import Cursor
from .history import LOG_ARCHIVE, Entry, entries, header_of, is_store, pack_data, rows_of, unpack_data
from .meta import lang as campaign_lang
from .tables import Cell, Changeset, Grid, ReplaceTab, Tables, TabSpec, WriteBlock, is_blank

#: windows of rows each log keeps in the campaign (older ones are in «_Архив журналов»)
KEEP = 10


def archive_tab(tables: Tables) -> str:
    """The campaign's log archive tab: the one it has, else the title in the campaign's language."""
    return LOG_ARCHIVE.found_in(tables) or LOG_ARCHIVE.title(campaign_lang(tables) or "ru")


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
    """A log's rows once `blocks` are written (only the cells they touch are copied)."""
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
    last `keep` windows: the rows deleted from the log (``Changeset.drop_rows``) and kept in one
    record of «_Архив журналов» keyed by the window resolved (the key of the history row the same
    changes append).  Nothing without a history row (not a resolve) or with nothing to move."""
    key = next((b.values[0][0] for b in changes.blocks if is_store(b.tab) and b.values and b.values[0]
                and not LOG_ARCHIVE.owns(b.tab)), None)
    if key is None:
        return
    moved: dict[str, Grid] = {}
    for tab in dict.fromkeys(b.tab for b in changes.blocks if b.log and not is_store(b.tab)):
        grid = _after(tables.get(tab, []), [b for b in changes.blocks if b.tab == tab])
        n = excess(grid, keep)
        if n:
            moved[tab] = [list(r) for r in grid[1 : 1 + n]]
            changes.drop_rows.append((tab, n))
    if not moved:
        return
    digest, chunks = pack_data({tab: [[_plain(c) for c in row] for row in rows] for tab, rows in moved.items()})
    row: list[Cell] = [key, digest, len(chunks), *chunks]
    tab = archive_tab(tables)
    grid = tables.get(tab)
    if not grid:
        title = header_of(tab)
        spec = TabSpec(tab, [title], hidden=True, kind="meta", audience=GM)
        changes.replace.append(ReplaceTab(tab, [title, row], spec=spec, audience=GM))
        return
    last = len(grid)
    while last > 1 and (not grid[last - 1] or is_blank(grid[last - 1][0])):
        last -= 1
    if last > 1 and grid[last - 1][0] == key:
        last -= 1  # an attempt whose marker never landed wrote this window's record: written over
    changes.blocks.append(WriteBlock(tab, last + 1, 1, [row], audience=GM))


def _plain(v: Cell) -> object:
    """A cell as JSON (a formula as {"f": text}, as a snapshot keeps it)."""
    from .history import _encode_cell

    return _encode_cell(v)


def records(tables: Tables) -> list[Entry]:
    """The archive's records, oldest first."""
    return rows_of(tables, LOG_ARCHIVE.found_in(tables) or "")


def _moved(record: Entry) -> dict[str, Grid]:
    from .history import _decode_cell

    data = unpack_data(record.payload(), record.digest, record.where)
    return {str(tab): [[_decode_cell(c) for c in row] for row in rows] for tab, rows in data.items()}


def _before(tables: Tables, at: Cursor | None) -> list[Entry]:
    """The records of the windows resolved before `at` (every one when None), in order: a record is
    keyed by a window of the history, and the history lists the windows in the calendar's order."""
    kept = records(tables)
    if at is None:
        return kept
    order = [e.cursor for e in entries(tables)]
    if at not in order:
        return kept
    earlier = set(order[: order.index(at)])
    return [r for r in kept if r.cursor in earlier]


def expanded(tables: Tables, view: Tables | None = None, at: Cursor | None = None) -> Tables:
    """`view` (a snapshot of `tables`'s history, or `tables` itself when None) with the logs whole:
    the rows the records of the windows before `at` (every record when None) moved out, put back
    between each log's header and its rows.  `tables` must hold the archive's chunks
    (``Backend.stored``); a campaign that never archived a row is given back as it is."""
    base = tables if view is None else view
    kept = _before(tables, at)
    if not kept:
        return base
    out = dict(base)
    back: dict[str, Grid] = {}
    for record in kept:
        for tab, rows in _moved(record).items():
            back.setdefault(tab, []).extend(rows)
    for tab, rows in back.items():
        grid = out.get(tab, [])
        out[tab] = [grid[0] if grid else [], *rows, *grid[1:]]
    return out


def kept_before(tables: Tables, at: Cursor | int) -> Grid | None:
    """The archive as a rollback to `at` leaves it: the records of the windows before `at` (None for
    a campaign without an archive)."""
    tab = LOG_ARCHIVE.found_in(tables)
    if tab is None:
        return None
    at = at if isinstance(at, Cursor) else Cursor(at)
    keep = {r.row for r in _before(tables, at)}
    grid = tables[tab]
    return [list(grid[0]) if grid else header_of(tab), *(list(grid[r - 1]) for r in sorted(keep))]


__all__ = ["KEEP", "archive_tab", "excess", "expanded", "kept_before", "records", "trim"]
