"""Absent players: the NMR ladder ("no moves received") per cursor, and the stand-in orders an
absent side gets.

Why in the core: every game counts missed turns the same way (a side that sends nothing is warned,
then passes to the GM or the program), and some games also play default orders for a side with no
rows. Only what follows a verdict is the game's own: chronicle lines, handing a side to an AI.

The ladder, decided for staged games (issue 17, point 2):
- only windows whose stage the calendar marks ``counts_missed`` count (engine/core/cursor.py);
  rows sent at another window (a battle round) are neither presence nor absence;
- a turn is judged once, when its last counting window closes (`closes_turn`): a side that sent
  rows at any counting window of the turn was present; one that sent nothing in every counting
  window of the turn has missed that turn. Until then presence is remembered in
  `Standing.present` (the ruleset keeps it with the side, like the count);
- a miss the GM excused spends the excuse and leaves the count; sending orders sets the count to 0
  and keeps an excuse for the miss it is meant for;
- a one-stage game's every window is its turn's last counting window: exactly the old rule.

Stand-ins: a side with no rows of its own at a window gets the ruleset's default orders
(`Ruleset.default_orders`), read and judged like a player's rows (`attendance`). They are not
presence: the ladder still counts the side absent.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Generic, TypeVar

from .cursor import Calendar, Cursor
from .orders import OrderRow
from .tables import Cell


@dataclass(frozen=True)
class Standing:
    """One side on the ladder: turns missed in a row, whether the GM excused the next miss, and
    whether it sent rows at an earlier counting window of the open turn (staged games only)."""

    missed: int = 0
    excused: bool = False
    present: bool = False


class Verdict(str, Enum):
    """What the ladder made of a side at one window."""

    SENT = "sent"  # present this turn: the count is back to 0
    EXCUSED = "excused"  # absent, but the GM excused it: the excuse is spent, the count kept
    WARNED = "warned"  # absent: one more miss, still below the limit
    REACHED = "reached"  # absent: the limit is reached (the ruleset hands the side over)
    PENDING = "pending"  # not judged at this window: it does not count, or the turn goes on


@dataclass(frozen=True)
class Ladder:
    """The ladder after one window: each side's new standing and verdict, and the limit."""

    standings: dict[str, Standing]
    verdicts: dict[str, Verdict]
    limit: int

    def with_verdict(self, verdict: Verdict) -> list[str]:
        """The sides given `verdict`, in the order they were given."""
        return [side for side, v in self.verdicts.items() if v is verdict]

    @property
    def reached(self) -> list[str]:
        """The sides that reached the limit at this window."""
        return self.with_verdict(Verdict.REACHED)


def closes_turn(calendar: Calendar, cursor: Cursor) -> bool:
    """Whether the ladder judges the turn at `cursor`: every window of a one-stage game; in a staged
    game the last round (or the only window) of the turn's last counting stage. A ruleset that ends
    that stage before its last round says so with ``step(..., closing=True)``."""
    if not calendar.staged:
        return True
    counting = [s for s in calendar.stages if s.counts_missed]
    if not counting or cursor.stage != counting[-1].key:
        return False
    last = counting[-1]
    if last.open_ended:
        return False  # only the game knows its last round: it says so with `closing`
    return not last.rounds or cursor.round >= last.rounds


def step(
    calendar: Calendar,
    cursor: Cursor,
    standings: Mapping[str, Standing],
    sent: Collection[str],
    limit: int,
    closing: bool | None = None,
) -> Ladder:
    """The ladder after the window `cursor` of `calendar`, for the sides of `standings` (those the
    ladder watches: a side already handed over is left out by the caller) of which `sent` sent rows
    of their own here. `limit`: the misses in a row that hand a side over (≥ 1). `closing`
    overrides `closes_turn` (a stage ended early). Pure: nothing is changed in place."""
    if limit < 1:
        raise ValueError(f"a missed-turns limit must be ≥ 1, not {limit}")
    counts = calendar.counts_missed(cursor)
    closes = counts and (closes_turn(calendar, cursor) if closing is None else closing)
    out: dict[str, Standing] = {}
    verdicts: dict[str, Verdict] = {}
    for side, st in standings.items():
        here = side in sent
        if not counts:
            out[side], verdicts[side] = st, Verdict.PENDING
        elif not closes:
            out[side], verdicts[side] = replace(st, present=st.present or here), Verdict.PENDING
        elif st.present or here:
            out[side], verdicts[side] = Standing(0, st.excused), Verdict.SENT
        elif st.excused:
            out[side], verdicts[side] = Standing(st.missed, False), Verdict.EXCUSED
        else:
            missed = st.missed + 1
            out[side] = Standing(missed, False)
            verdicts[side] = Verdict.REACHED if missed >= limit else Verdict.WARNED
    return Ladder(out, verdicts, limit)


# ------------------------------------------------------------------ stand-in orders

R = TypeVar("R")


@dataclass(frozen=True)
class Attendance(Generic[R]):
    """The rows a window's resolve runs, per side: a side's own rows, or the ruleset's stand-ins
    when it sent none; `present` are the sides that sent rows of their own (the ladder's `sent`),
    `stood_in` those that got stand-ins."""

    rows: dict[str, list[R]]
    present: frozenset[str]
    stood_in: frozenset[str]


def attendance(
    rows: Mapping[str, Sequence[R]], sides: Iterable[str], supply: Callable[[str], Sequence[R]]
) -> Attendance[R]:
    """Every side of `sides` with its rows for this window: its own in `rows`, or else what
    `supply(side)` gives (the ruleset's default orders; nothing for a game without them). A side
    with stand-ins is still absent for the ladder."""
    out: dict[str, list[R]] = {}
    present: set[str] = set()
    stood_in: set[str] = set()
    for side in sides:
        own = list(rows.get(side, ()))
        if own:
            out[side] = own
            present.add(side)
            continue
        given = list(supply(side))
        out[side] = given
        if given:
            stood_in.add(side)
    return Attendance(out, frozenset(present), frozenset(stood_in))


def stand_in(tab: str, side: str, index: int, cells: Mapping[str, Cell]) -> OrderRow:
    """A default order as an order row the ruleset reads like a player's: cells by field name, as a
    player would write them in `side`'s order tab `tab`. Its row number is ``-index`` (index ≥ 1):
    on no sheet, so no status strip or cleared input ever lands on it, and its ref («tab!-1») is
    unique beside the tab's real rows."""
    if index < 1:
        raise ValueError(f"a stand-in's index must be ≥ 1, not {index}")
    return OrderRow(tab, -index, side, dict(cells))


def is_stand_in(row: OrderRow) -> bool:
    """Whether an order row is a stand-in (`stand_in`), not a row of the sheet."""
    return row.row <= 0
