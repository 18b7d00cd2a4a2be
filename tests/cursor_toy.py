"""A toy ruleset with stages, only to drive the cursor plumbing of the bridge (issue 17, point 2):
resolve by stage, history keyed by cursor, rollback to «1:города», verify of «1:бой:2».

A turn is a state stage, a battle of two rounds and a cities stage. Each window adds one die to
the score tab; the meta tab holds the open cursor (engine/core/meta.py's rows), the commitment of
its seed and the seed the last resolve revealed. Registered by the tests that use it
(``rulesets.RULESETS["cursor-toy"] = "cursor_toy:RULESET"``); no game of the project.  Of the
`Ruleset` interface it implements what the cursor plumbing calls; the rest says it is not there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import history, meta
from engine.core.cursor import Calendar, Cursor, Stage
from engine.core.dice import Dice, commitment, cursor_seed
from engine.core.errors import CampaignError
from engine.core.tables import Changeset, Grid, ReplaceTab, Tables, TabSpec, WorkbookSpec, WriteBlock

NAME = "cursor-toy"
CALENDAR = Calendar((
    Stage("state", "государство", "state"),
    Stage("battle", "бой", "battle", rounds=2, counts_missed=False),
    Stage("cities", "города", "cities"),
))
SCORE = "Счёт"


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
        history.HISTORY_TAB: [history.header()],
    }


def workbook(secret: str, campaign_id: str) -> WorkbookSpec:
    tables = new_tables(secret, campaign_id)
    return WorkbookSpec("toy", [TabSpec(n, g) for n, g in tables.items()], secret=secret, campaign_id=campaign_id)


def resolve(tables: Tables, expect_turn: int | None = None, seed: str | None = None, secret: str | None = None,
            **_ignored: Any) -> Result:
    at = meta.open_cursor(tables, CALENDAR)
    if expect_turn is not None and expect_turn != at.turn:
        raise CampaignError(f"open {at}, asked {expect_turn}")
    seed = seed or cursor_seed(secret or "", at)
    roll = Dice(seed).roll("score", 6)
    nxt = CALENDAR.next(at)
    changes = Changeset()
    changes.replace.append(ReplaceTab(SCORE, [*tables[SCORE], [at.key(), roll]]))
    hist = tables.get(history.HISTORY_TAB) or [history.header()]
    changes.blocks.append(WriteBlock(history.HISTORY_TAB, len(hist) + 1, 1, [history.row_for(at, tables)]))
    grid = meta_grid(nxt, secret or "", meta.text(tables, meta.CAMPAIGN_ID), seed)
    height = len(tables["Кампания"])
    grid += [[None, None] for _ in range(max(0, height - len(grid)))]
    changes.marker.append(WriteBlock("Кампания", 1, 1, grid))
    return Result("resolve", at.turn, changes, {"turn": at.turn, "cursor": at.key(), "roll": roll})


def chronicle_seed(tables: Tables, cursor: Cursor) -> str | None:
    """The toy has no chronicle: every seed is in the meta's cell."""
    return None


class ToyRuleset:
    """The toy as a `Ruleset`: resolve, its calendar and the seed lookup; nothing else is used."""

    name = NAME
    aliases: tuple[str, ...] = ()
    resources: tuple[Any, ...] = ()
    phases: tuple[str, ...] = ()
    calendar = CALENDAR
    hidden_information = False

    def resolve(self, tables: Tables, expect_turn: int | None = None, seed: str | None = None,
                secret: str | None = None, **_ignored: Any) -> Any:
        return resolve(tables, expect_turn=expect_turn, seed=seed, secret=secret)

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

    new_workbook = check = demo_changes = last_resolved = report_sides = _absent
    forum_post = player_report = chart_png = run_scenario = _absent


RULESET = ToyRuleset()
