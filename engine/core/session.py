"""The writes of a session that every game makes the same way: log appends, the history snapshot,
the meta marker, the next window (or the end of the game), and the stamp of a resolved row.

Why in the core: a resolve of any game appends to its logs (chronicle, ledger, order archive),
keeps a snapshot of the campaign as it was in «_История» (history, rollback and verify read it),
and ends with the meta tab written last, as the marker that the window is resolved
(`Changeset.marker`). How these are laid out is the core's, not a game's; the game gives only its
tab names, headers and rows.
"""

from __future__ import annotations

from collections.abc import Callable

from . import ending, history
from .cursor import Calendar, Cursor, CursorError
from .ending import Victory
from .tables import Cell, Grid, Tables, WriteBlock, is_blank


def append_rows(tables: Tables, tab: str, header: Grid, rows: Grid) -> list[WriteBlock]:
    """Rows appended below the last non-blank row of a log tab (with its `header` when the tab is
    new or empty). Rows of this very window already at the end (their first cell is the new rows'
    first cell) were left by an attempt whose marker never landed -- a GM-only spreadsheet is
    written before the campaign -- and are written over, not twice; stale rows beyond the new
    ones are blanked. The blocks are marked `log`: `verify` holds the campaign to them for good."""
    if not rows:
        return []
    grid = tables.get(tab)
    if not grid:
        return [WriteBlock(tab, 1, 1, [*header, *rows], log=True)]
    last = len(grid)
    while last > 0 and all(is_blank(v) for v in grid[last - 1]):
        last -= 1
    end, key = last, (rows[0][0] if rows[0] else None)
    while key is not None and last > 1 and grid[last - 1] and grid[last - 1][0] == key:
        last -= 1
    width = max(len(r) for r in [*rows, *grid[last:end]])
    blanks = [[None] * width for _ in range(end - last - len(rows))]
    return [WriteBlock(tab, last + 1, 1, [*rows, *blanks], log=True)]


def history_blocks(tables: Tables, cursor: Cursor | int) -> list[WriteBlock]:
    """The snapshot of the campaign as it was while `cursor` was open, appended to «_История»."""
    return append_rows(tables, history.tab_of(tables), [history.header()], [history.row_for(cursor, tables)])


def meta_marker(tables: Tables, meta_tab: str, grid: Grid) -> WriteBlock:
    """The new meta tab as the resolve's marker, padded with blank rows to the tab's old height:
    rows below the new ones (an old campaign's secret row, a stage row of a window gone) go."""
    height = len(tables.get(meta_tab, []))
    width = max((len(r) for r in grid), default=2)
    padded = [list(r) for r in grid] + [[None] * width for _ in range(max(0, height - len(grid)))]
    return WriteBlock(meta_tab, 1, 1, padded)


def finished_marker(tables: Tables, meta_tab: str, grid: Grid, won: Victory, lang: str) -> WriteBlock:
    """The marker of the window that ends the game (`won`: the game's verdict): the meta grid the
    resolve would open its next window with, made the meta of a finished campaign -- «Игра окончена»
    and why, no commitment (engine/core/ending.py) -- and written as `meta_marker` writes any, in
    the same atomic write. What a window runner calls when the game says it is over."""
    return meta_marker(tables, meta_tab, ending.finished_grid(grid, won, lang))


def advance(calendar: Calendar, cursor: Cursor, skip: Callable[[Cursor], bool] | None = None) -> Cursor:
    """The next open window after `cursor`; windows `skip` refuses (no battle today) are passed
    over, at most a whole turn's worth at a time (so a `skip` that refuses all cannot loop)."""
    nxt = calendar.next(cursor)
    limit = sum(max(1, s.rounds) for s in calendar.stages) + 1
    while skip is not None and skip(nxt) and limit > 0:
        nxt, limit = calendar.next(nxt), limit - 1
    return nxt


def stamp(cursor: Cursor, calendar: Calendar, lang: str) -> Cell:
    """What resolve writes in a row's stamp cell: the turn number in a one-stage game (as always),
    the cursor in the campaign's words in a staged one («3:города», "3:cities")."""
    return calendar.format(cursor, lang) if cursor.staged else cursor.turn


def stamp_cursor(value: Cell, calendar: Calendar) -> Cursor | None:
    """The window a stamp cell names (`stamp`'s inverse; any language, or the key): None for a
    blank, a truth value or a text that is no cursor of this calendar."""
    if isinstance(value, bool) or is_blank(value):
        return None
    if isinstance(value, (int, float)):
        if calendar.staged or int(value) < calendar.first_turn:
            return None
        return Cursor(int(value))
    try:
        return calendar.parse(str(value))
    except CursorError:
        return None
