"""A toy ruleset with stages, only to drive the cursor plumbing of the bridge (issue 17, point 2):
resolve by stage, history keyed by cursor, rollback to «1:города», verify of «1:бой:2».

A turn is a state stage, a battle of two rounds and a cities stage. Each window adds one die to
the score tab; the meta tab holds the open cursor (engine/core/meta.py's rows), the commitment of
its seed and the seed the last resolve revealed. Two sides write rows for a window in «Приказы»
(side, window, order); a side with none gets the toy's default order (engine/core/absence.py's
`attendance`), «Сыграно» logs what each window played, and «Стороны» keeps each side on the NMR
ladder (`absence.step`: the battle does not count; two missed turns and the side is the AI's).
Registered by the tests that use it (``rulesets.RULESETS["cursor-toy"] = "cursor_toy:RULESET"``);
no game of the project.  Of the `Ruleset` interface it implements what the cursor plumbing calls;
the rest says it is not there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import absence, history, meta, window
from engine.core.cursor import Calendar, Cursor, Stage
from engine.core.dice import Dice, commitment, cursor_seed
from engine.core.orders import OrderRow
from engine.core.ruleset import Victory
from engine.core.tables import Changeset, Grid, ReplaceTab, Tables, TabSpec, WorkbookSpec, WriteBlock

NAME = "cursor-toy"
CALENDAR = Calendar((
    Stage("state", "государство", "state"),
    Stage("battle", "бой", "battle", rounds=2, counts_missed=False),
    Stage("cities", "города", "cities"),
))
SCORE = "Счёт"
ORDERS = "Приказы"  # side, window («1:state»), order
PLAYED = "Сыграно"  # window, side, order, whose («игрок» or «по умолчанию»)
SIDES = "Стороны"  # side, missed turns, present this turn, AI
SIDE_NAMES = ("Альфа", "Бета")
MISSED_LIMIT = 2


@dataclass
class Result:
    mode: str
    turn: int
    changes: Changeset
    summary: dict[str, Any] = field(default_factory=dict)


def meta_grid(at: Cursor, secret: str, campaign_id: str, seed: str | None) -> Grid:
    rows: Grid = [["Параметр", "Значение"], ["Правила", NAME], *meta.cursor_rows(at, CALENDAR, "ru")]
    rows += [[meta.COMMITMENT[0], commitment(cursor_seed(secret, at)) if secret else None],
             [meta.CAMPAIGN_ID[0], campaign_id]]
    if seed:
        rows.append([meta.REVEALED_SEED[0], seed])
    return rows


def new_tables(secret: str, campaign_id: str) -> Tables:
    return {
        "Кампания": meta_grid(CALENDAR.first(), secret, campaign_id, None),
        SCORE: [["Окно", "Очки"]],
        ORDERS: [["Сторона", "Окно", "Приказ"]],
        PLAYED: [["Окно", "Сторона", "Приказ", "Чей"]],
        SIDES: [["Сторона", "Пропущено ходов", "Был в этом ходу", "ИИ"], *[[n, 0, None, None] for n in SIDE_NAMES]],
        history.HISTORY_TAB: [history.header()],
    }


def _yes(value: object) -> bool:
    return str(value or "").strip() == "да"


def attend(tables: Tables, at: Cursor) -> tuple[list[list[Any]], list[list[Any]]]:
    """What window `at` plays and the ladder after it: the «Сыграно» rows of the window and the new
    «Стороны» grid (through the core's `absence.attendance` and `absence.step`)."""
    sides = {str(r[0]): r for r in tables[SIDES][1:] if r and r[0]}
    watched = [n for n, r in sides.items() if not (len(r) > 3 and _yes(r[3]))]
    rows: dict[str, list[OrderRow]] = {}
    for i, r in enumerate(tables[ORDERS][1:], start=2):
        if len(r) > 2 and r[0] and str(r[1]).strip() == at.key():
            rows.setdefault(str(r[0]), []).append(OrderRow(ORDERS, i, str(r[0]), {"action": r[2]}))
    att = absence.attendance(rows, watched, lambda side: default_orders(tables, side, at))
    played = [[at.key(), side, row.cells["action"], "по умолчанию" if absence.is_stand_in(row) else "игрок"]
              for side in watched for row in att.rows[side]]
    standings = {n: absence.Standing(int(sides[n][1] or 0), False, len(sides[n]) > 2 and _yes(sides[n][2]))
                 for n in watched}
    ladder = absence.step(CALENDAR, at, standings, att.present, MISSED_LIMIT)
    grid: list[list[Any]] = [list(tables[SIDES][0])]
    for n, r in sides.items():
        st = ladder.standings.get(n)
        if st is None:
            grid.append(list(r))
        else:
            ai = "да" if n in ladder.reached else None
            grid.append([n, st.missed, "да" if st.present else None, ai])
    return played, grid


def workbook(secret: str, campaign_id: str) -> WorkbookSpec:
    tables = new_tables(secret, campaign_id)
    return WorkbookSpec("toy", [TabSpec(n, g) for n, g in tables.items()], secret=secret, campaign_id=campaign_id)


def resolve(tables: Tables, expect: Cursor | None = None, seed: str | None = None, secret: str | None = None,
            **_ignored: Any) -> Result:
    window.expect(tables, CALENDAR, expect, resolving=True)
    at = meta.open_cursor(tables, CALENDAR)
    seed = seed or cursor_seed(secret or "", at)
    roll = Dice(seed).roll("score", 6)
    nxt = CALENDAR.next(at)
    changes = Changeset()
    changes.replace.append(ReplaceTab(SCORE, [*tables[SCORE], [at.key(), roll]]))
    played, sides = attend(tables, at)
    changes.replace += [ReplaceTab(PLAYED, [*tables[PLAYED], *played]), ReplaceTab(SIDES, sides)]
    hist = tables.get(history.HISTORY_TAB) or [history.header()]
    changes.blocks.append(WriteBlock(history.HISTORY_TAB, len(hist) + 1, 1, [history.row_for(at, tables)]))
    grid = meta_grid(nxt, secret or "", meta.text(tables, meta.CAMPAIGN_ID), seed)
    height = len(tables["Кампания"])
    grid += [[None, None] for _ in range(max(0, height - len(grid)))]
    changes.marker.append(WriteBlock("Кампания", 1, 1, grid))
    return Result("resolve", at.turn, changes, {"mode": "resolve", "turn": at.turn, "cursor": at.key(), "roll": roll,
                                                "orders": {}, "sides": []})


def check(tables: Tables, expect: Cursor | None = None, **_ignored: Any) -> Result:
    """A check of the open window (refused, as every ruleset told the window refuses, when `expect`
    is another): the toy has no orders to judge, so it writes nothing."""
    window.expect(tables, CALENDAR, expect)
    at = meta.open_cursor(tables, CALENDAR)
    return Result("check", at.turn, Changeset(), {"mode": "check", "turn": at.turn, "cursor": at.key(),
                                                  "orders": {}, "sides": []})


WINNING_WINDOWS = 5  # the toy is won once this many windows are resolved


def victory(tables: Tables) -> Victory | None:
    """The toy's victory: the side «Альфа» wins when the score tab holds `WINNING_WINDOWS` windows."""
    played = len(tables[SCORE]) - 1
    return Victory(("Альфа",), f"сыграно окон: {played}") if played >= WINNING_WINDOWS else None


def default_orders(tables: Tables, side: str, cursor: Cursor) -> list[OrderRow]:
    """An absent side «копит» (saves) at every counting window; nothing at a battle round."""
    if not CALENDAR.counts_missed(cursor):
        return []
    return [absence.stand_in(ORDERS, side, 1, {"action": "копить", "window": cursor.key()})]


def chronicle_seed(tables: Tables, cursor: Cursor) -> str | None:
    """The toy has no chronicle: every seed is in the meta's cell."""
    return None


class ToyRuleset:
    """The toy as a `Ruleset`: check, resolve, its calendar, the seed lookup, victory and default
    orders; nothing else is used."""

    name = NAME
    aliases: tuple[str, ...] = ()
    resources: tuple[Any, ...] = ()
    phases: tuple[str, ...] = ()
    calendar = CALENDAR
    hidden_information = False

    def resolve(self, tables: Tables, expect: Cursor | None = None, seed: str | None = None,
                secret: str | None = None, **_ignored: Any) -> Any:
        return resolve(tables, expect=expect, seed=seed, secret=secret)

    def window_phases(self, tables: Tables) -> tuple[str, ...]:
        return self.phases

    def check(self, tables: Tables, expect: Cursor | None = None, **_ignored: Any) -> Any:
        return check(tables, expect=expect)

    def victory(self, tables: Tables) -> Victory | None:
        return victory(tables)

    def default_orders(self, tables: Tables, side: str, cursor: Cursor) -> list[OrderRow]:
        return default_orders(tables, side, cursor)

    def chronicle_seed(self, tables: Tables, cursor: Cursor) -> str | None:
        return chronicle_seed(tables, cursor)

    def later_inputs(self, tables: Tables) -> dict[str, list[int]]:
        return {}

    def private_tabs(self, tables: Tables, order_tabs: Any = None) -> list[ReplaceTab]:
        return []

    def tab_audiences(self, tables: Tables) -> dict[str, Any]:
        return {}  # nothing hidden, no view of its own: every tab keeps the audience it was given

    def _absent(self, *_args: Any, **_kwargs: Any) -> Any:
        raise NotImplementedError("the cursor toy has no such part")

    new_workbook = demo_changes = _absent
    reporter: Any = None  # the toy has no reporter and no scenarios
    scenario: Any = None


RULESET = ToyRuleset()
