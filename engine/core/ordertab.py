"""An order tab as the core reads and writes it, for any game.

Why in the core: every game has tabs where players type orders, one row each, beside columns the
program fills (a stamp of the window the row was resolved in, its status, a reason, an echo of
what was understood). Reading those rows, writing the check's status strips, and clearing the
executed rows into an archive are the same in every game; only the field names differ, so they
are parameters here (a game passes its own input fields, stamp column and archived inputs).

The rules every game shares (docs/orders.md, «Which turn a row belongs to»):
- a row with any input (fields in `notes`, a comment, do not count) is an order of the open window;
- resolve stamps each executed row, keeps its results, clears its inputs (kept in the archive)
  and blanks the results of every other row;
- a check writes only the status, reason and echo columns, and blanks what an earlier check left
  in rows that have no input any more.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from .cursor import Calendar, Cursor
from .layout import norm, records
from .orders import STATUS_TEXT, OrderResult, OrderRow, Status
from .session import stamp_cursor
from .tables import Cell, Formula, Grid, WriteBlock, as_text, column_letter, is_blank, shorten

STAMP_KEY = "turn"  # the default stamp column's key: the window a row was resolved in
RESULT_KEYS: tuple[str, str, str] = ("status", "reason", "understood")  # the program's result columns
ECHO_PART = 100  # characters of each input quoted in the echo of a row that could not be read


@dataclass
class OrderTab:
    """One order tab as read: its name, the side that owns it (a nation, a player), its located
    columns (field key -> 0-based index) and its grid.

    Players type into this tab, so its grid holds data only: a formula found in it is kept as its
    text (``formula_cells`` remembers where, so that such a row is refused) and is written back,
    to this tab or to any other, as a string -- never as a live formula (issue 15, point 11)."""

    tab: str
    side: str
    cols: dict[str, int]
    grid: Grid
    rows: list[OrderRow] = field(default_factory=list)  # the open window's rows, set by the ruleset
    history: list[int] = field(default_factory=list)  # sheet rows of earlier windows, unchanged
    formula_cells: set[tuple[int, int]] = field(default_factory=set)  # (sheet row, 0-based column)

    def __post_init__(self) -> None:
        grid: Grid = []
        for r, line in enumerate(self.grid, start=1):
            for c, v in enumerate(line):
                if isinstance(v, Formula):
                    self.formula_cells.add((r, c))
            grid.append([as_text(v) for v in line])
        self.grid = grid

    @property
    def state(self) -> str:
        """The side, by the name the first game gave it."""
        return self.side

    def formulas_in(self, row: int) -> frozenset[str]:
        """The fields of a sheet row whose cell held a formula."""
        return frozenset(k for k, i in self.cols.items() if (row, i) in self.formula_cells)

    def cell(self, row: int, key: str) -> Cell:
        """The value of field `key` in sheet row `row` (None: no such column or row)."""
        i = self.cols.get(key)
        if i is None or row - 1 >= len(self.grid):
            return None
        line = self.grid[row - 1]
        return line[i] if i < len(line) else None


# ---------------------------------------------------------------- reading


def candidate_rows(
    ot: OrderTab,
    input_fields: Sequence[str],
    stamp_key: str = STAMP_KEY,
    *,
    notes: Sequence[str] = (),
    cursor: str = "",
) -> list[tuple[OrderRow, Cell]]:
    """Every row with any input (a field of `notes` alone does not make an order), with the stamp
    cell an earlier resolve left in it (None: none). Each row's cells are its `input_fields`; its
    `cursor` (a staged game's open window, by key) goes into the row's ref."""
    letters = {k: column_letter(i + 1) for k, i in ot.cols.items()}
    skipped = set(notes)
    out: list[tuple[OrderRow, Cell]] = []
    for r, line in enumerate(ot.grid[1:], start=2):
        cells = {k: (line[i] if i < len(line) else None) for k, i in ot.cols.items()}
        if all(is_blank(cells.get(k)) for k in input_fields if k not in skipped):
            continue
        row = OrderRow(ot.tab, r, ot.side, {k: cells.get(k) for k in input_fields}, letters, ot.formulas_in(r), cursor)
        out.append((row, cells.get(stamp_key)))
    return out


def stamped_rows(
    ot: OrderTab,
    input_fields: Sequence[str],
    calendar: Calendar,
    stamp_key: str = STAMP_KEY,
    *,
    notes: Sequence[str] = (),
    cursor: str = "",
) -> list[tuple[OrderRow, Cursor | None]]:
    """`candidate_rows` with each stamp read as the window it names (session.stamp_cursor: a turn
    number in a one-stage game, «3:города» or "3:cities" in a staged one; None: no stamp, or one
    that names no window of `calendar`)."""
    rows = candidate_rows(ot, input_fields, stamp_key, notes=notes, cursor=cursor)
    return [(row, stamp_cursor(stamp, calendar)) for row, stamp in rows]


def input_key(values: Sequence[Cell]) -> tuple[str, ...]:
    """Inputs as compared with the archive: each as its stripped text, a blank as ''."""
    return tuple("" if is_blank(v) else str(v).strip() for v in values)


def row_inputs(row: OrderRow, archived: Sequence[str]) -> tuple[str, ...]:
    """A row's `archived` inputs as the archive keeps them (compare with `archived_inputs`)."""
    return input_key([row.cells.get(k) for k in archived])


def stamp_value(stamp: Cell) -> int | str | None:
    """A stamp cell as a key: a number is its integer (a one-stage game's turn), a text its
    stripped text (a staged game's «3:города»), a blank or a truth value None."""
    if isinstance(stamp, bool) or is_blank(stamp):
        return None
    if isinstance(stamp, (int, float)):
        return int(stamp)
    return str(stamp).strip() or None


def archived_inputs(
    grid: Grid,
    cols: Mapping[str, int],
    archived: Sequence[str],
    stamp_key: str = STAMP_KEY,
    side_key: str = "side",
    row_key: str = "row",
    calendar: Calendar | None = None,
) -> dict[tuple[int | str | Cursor, str, int], tuple[str, ...]]:
    """(stamp, side, row) -> the inputs an archive tab keeps for that order row (its `grid` with
    located `cols`; {} when a column is missing). Written only by resolve (and the GM's alone), it
    tells an untouched row of an older campaign from a rewritten one. The stamp is `stamp_value`'s
    key, or with a `calendar` the window it names (as `stamped_rows` reads an order tab's stamps)."""
    if not grid or any(k not in cols for k in (stamp_key, side_key, row_key, *archived)):
        return {}
    out: dict[tuple[int | str | Cursor, str, int], tuple[str, ...]] = {}
    for _r, rec in records(grid, dict(cols)):
        cell, row = rec.get(stamp_key), rec.get(row_key)
        stamp = stamp_value(cell) if calendar is None else stamp_cursor(cell, calendar)
        if stamp is None or not isinstance(row, (int, float)):
            continue
        out[(stamp, str(rec.get(side_key) or ""), int(row))] = input_key([rec.get(k) for k in archived])
    return out


def raw_echo(row: OrderRow, fields: Sequence[str], part: int = ECHO_PART) -> str:
    """The echo of a row that could not be parsed: its `fields` as typed (each shortened), « | »."""
    return " | ".join(
        shorten(str(row.cells.get(k)).strip(), part) for k in fields if not is_blank(row.cells.get(k))
    )


# ---------------------------------------------------------------- results


def status_text(result: OrderResult, lang: str) -> str:
    """A status in the campaign's language («выполнен», "done")."""
    return STATUS_TEXT["en" if lang == "en" else "ru"][result.status]


def result_cells(result: OrderResult | None, lang: str) -> tuple[Cell, Cell, Cell]:
    """The status, reason and echo cells of a result (three blanks for none)."""
    if result is None:
        return None, None, None
    return status_text(result, lang), result.reason, result.understood


def status_of(text: Cell) -> Status | None:
    """The status a status cell names, in either language (None: no status word)."""
    n = norm(text)
    for table in STATUS_TEXT.values():
        for status, word in table.items():
            if word and norm(word) == n:
                return status
    return None


def as_checked(result: OrderResult, reword: Callable[[str], str] | None = None) -> OrderResult:
    """What a check shows for a row that resolve would rule ``result``: a check executes nothing,
    so an order that would be done («выполнен») is shown as accepted («принят»); every other status
    is shown as it is.  ``reword`` rewrites an accepted row's reason (a game that says the reason is
    a forecast of the resolve); a blank reason stays blank."""
    if result.status is not Status.DONE:
        return result
    reason = reword(result.reason) if reword is not None and result.reason else result.reason
    return replace(result, status=Status.ACCEPTED, reason=reason)


def status_strips(
    ot: OrderTab,
    results: Mapping[str, OrderResult],
    lang: str,
    stamp_key: str = STAMP_KEY,
    result_keys: Sequence[str] = RESULT_KEYS,
) -> list[WriteBlock]:
    """What a check writes into an order tab: vertical strips of the result columns for the open
    window's rows (`ot.rows`, results by ref); rows with no input left that still show a check's
    result (no stamp) are blanked, and so is the old stamp of a row rewritten for this window.
    The stamp strip is sent only when it has a stamp to blank."""
    by_row: dict[int, tuple[Cell, ...]] = {r.row: (None, *result_cells(results.get(r.ref), lang)) for r in ot.rows}
    orders = set(by_row)
    for r in range(2, len(ot.grid) + 1):
        if (
            r not in by_row
            and is_blank(ot.cell(r, stamp_key))
            and any(not is_blank(ot.cell(r, k)) for k in result_keys)
        ):
            by_row[r] = (None, None, None, None)
    if not by_row:
        return []
    first, last = min(by_row), max(by_row)
    keys = [stamp_key, *result_keys]
    sent = keys if any(not is_blank(ot.cell(r, stamp_key)) for r in orders) else keys[1:]
    blocks = []
    for key in sent:
        i = keys.index(key)
        values: Grid = [[by_row[r][i]] if r in by_row else [ot.cell(r, key)] for r in range(first, last + 1)]
        blocks.append(WriteBlock(ot.tab, first, ot.cols[key] + 1, values))
    return blocks


def _plain(value: Cell) -> Cell:
    return None if is_blank(value) else value


def resolved_grid(
    ot: OrderTab,
    results: Mapping[str, OrderResult],
    stamp: Cell,
    lang: str,
    cleared: Sequence[str],
    stamp_key: str = STAMP_KEY,
    result_keys: Sequence[str] = RESULT_KEYS,
    archived: Sequence[str] | None = None,
    waiting: Collection[int] = (),
) -> tuple[Grid, Grid]:
    """The order tab after resolve, and its archive rows ``[stamp, side, row, *archived, status,
    reason, echo]`` (`archived` defaults to `cleared`). The open window's rows (`ot.rows`) get the
    `stamp` (session.stamp) and their results and lose their `cleared` inputs (a comment, not
    cleared, stays): a row with input is always an order of the open window. The sheet rows in
    `waiting` (a staged game's rows for a later window of the turn, engine/core/stagerows.py) stay
    exactly as they are. Every other row loses its `cleared` inputs and results too (it has none
    left, or is the history of an older campaign)."""
    width = max([len(r) for r in ot.grid] + [max(ot.cols.values()) + 1])
    grid: Grid = [list(r) + [None] * (width - len(r)) for r in ot.grid]
    executed = {row.row for row in ot.rows}
    outputs = (stamp_key, *result_keys)
    for r in range(2, len(grid) + 1):
        if r in executed or r in waiting:
            continue
        for key in (*cleared, *outputs):
            if key in ot.cols:
                grid[r - 1][ot.cols[key]] = None
    kept = tuple(cleared if archived is None else archived)
    archive: Grid = []
    for row in ot.rows:
        cells = result_cells(results[row.ref], lang)
        line = grid[row.row - 1]
        for key, value in zip(outputs, (stamp, *cells)):
            line[ot.cols[key]] = value
        for key in cleared:
            if key in ot.cols:
                line[ot.cols[key]] = None
        archive.append([stamp, ot.side, row.row, *[_plain(row.cells.get(k)) for k in kept], *cells])
    return grid, archive
