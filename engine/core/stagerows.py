"""Which order rows belong to the open stage, and which wait for a later one.

A player may fill the rows of a whole day at once (Тлокенауаке: «Можно будет оставить указания
сразу на весь день»; Civilization 1.0: the cities stage's rows beside the state stage's). How a
ruleset marks a row's stage: its order-tab layout has a column with the key ``stage`` (headed
«Этап»/«Stage», or «Фаза» where the game calls stages so); the core's order-tab reader keeps it as
an ordinary cell of `OrderRow.cells`, like any other column. `split` then sorts the rows:

- a blank stage cell is the open stage (a one-stage game has no such column: every row is now);
- the open stage's name (either language, or its key; «бой:2» names a round) is now;
- a stage with rounds named without one is its first window not before the open one: the open
  round of the open stage, round 1 of another, and in a run of open-ended rounds the next window
  of that stage («ход» while «3:бой:2» is open: «3:ход:3»; «бой» while «3:ход:2» is: «3:бой:2»);
- a later window of the same turn waits: the row is not judged, executed or cleared, and is
  read again when that window opens -- the check shows it as waiting, nothing more;
- an earlier window of this turn, or a word that is no stage, is the ruleset's to report
  (`past` and `unknown`), in its own words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cursor import Calendar, Cursor, CursorError
from .orders import OrderRow
from .tables import is_blank

STAGE_FIELD = "stage"


@dataclass
class StageSplit:
    """The rows of one order tab, sorted by the window they name (see the module docstring)."""

    now: list[OrderRow] = field(default_factory=list)
    waiting: list[tuple[OrderRow, Cursor]] = field(default_factory=list)
    past: list[tuple[OrderRow, Cursor]] = field(default_factory=list)
    unknown: list[OrderRow] = field(default_factory=list)


def row_cursor(row: OrderRow, calendar: Calendar, open_: Cursor, key: str = STAGE_FIELD) -> Cursor | None:
    """The window a row names: the open one when its stage cell is blank (or the game has no
    stages), else the stage it names in the open turn -- with the open round when the stage has
    rounds and the cell names none. None when the cell names no stage of the calendar."""
    value = row.cells.get(key)
    if is_blank(value) or not calendar.staged:
        return open_
    text = str(value).strip()
    stage, _sep, round_text = text.partition(":")
    try:
        found = calendar.cursor(open_.turn, stage, 0 if not round_text else int(round_text))
    except (CursorError, ValueError):
        try:  # a stage with rounds named without one: the open round if that stage is open, else round 1
            bare = calendar.cursor(open_.turn, stage, 1)
        except CursorError:
            return None
        if round_text:
            return None
        if bare.stage == open_.stage:
            return open_
        if calendar.shares_rounds(bare, open_):  # «ход» while «3:бой:2» is open: its next window, «3:ход:3»
            same = calendar.cursor(open_.turn, bare.stage, open_.round)
            return same if same > open_ else calendar.cursor(open_.turn, bare.stage, open_.round + 1)
        return bare
    return found


def split(rows: Sequence[OrderRow], calendar: Calendar, open_: Cursor, key: str = STAGE_FIELD) -> StageSplit:
    """The rows of the open window, the rows that wait for a later one of the same turn, and the rows
    the ruleset must report (an earlier window, or no stage at all); each list in sheet order."""
    out = StageSplit()
    for row in rows:
        at = row_cursor(row, calendar, open_, key)
        if at is None:
            out.unknown.append(row)
        elif at == open_:
            out.now.append(row)
        elif at > open_:
            out.waiting.append((row, at))
        else:
            out.past.append((row, at))
    return out
