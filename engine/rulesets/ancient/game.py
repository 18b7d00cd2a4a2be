"""The ancient-world game as one `engine.core.ruleset.Ruleset`: the registry's entry for it.

A `BaseRuleset` (engine/core/ruleset.py): check and resolve are the core's window runner driving
window.py's `Ancient`; the rest delegates to the game's modules (ruleset.py: creation; report.py:
the forum post, the players' reports, the chart; scenario.py: the conformance hooks) and adds no
rule of its own.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.audience import Audience
from engine.core.cursor import Cursor, turn_of
from engine.core.orders import OrderRow
from engine.core.ruleset import DEFAULT_POST_LIMIT, BaseRuleset, Ruleset, SyncResult, Victory
from engine.core.scenario import Readback
from engine.core.tables import Changeset, ReplaceTab, Tables, WorkbookSpec

from . import codec, ruleset, views
from .calendar import chronicle_seed
from .window import Ancient


class AncientReporter:
    """What `strategos report` reads of the game: its posts, reports and chart."""

    def last_resolved(self, tables: Tables) -> int:
        return codec.decode(tables).campaign.last_resolved

    def sides(self, tables: Tables) -> list[str]:
        return sorted(name for name, st in codec.decode(tables).campaign.states.items() if not st.ai)

    def forum_post(self, tables: Tables, turn: int | Cursor, fmt: str = "bbcode",
                   limit: int = DEFAULT_POST_LIMIT) -> list[str]:
        from .report import forum_post

        return forum_post(tables, turn_of(turn), fmt, limit)  # one stage a turn: a cursor is its turn

    def player_report(self, tables: Tables, side: str, turn: int | Cursor | None = None) -> str:
        from .report import private_report

        return private_report(tables, side, None if turn is None else turn_of(turn))

    def chart_png(self, tables: Tables, path: Path) -> Path:
        from .report import chart_png

        return chart_png(tables, path)


class AncientScenarios:
    """The scenario hooks: engine/core/scenario.py plays the game's scenarios with them."""

    def tables(self, setup: Mapping[str, Any]) -> Tables:
        from .scenario import build_tables

        return build_tables(dict(setup))

    def orders(self, tables: Tables, orders: Mapping[str, Sequence[Any]]) -> Tables:
        from .scenario import put_orders

        put_orders(tables, {side: list(rows) for side, rows in orders.items()})
        return tables

    def readback(self, tables: Tables, result: SyncResult) -> Readback:
        from .scenario import readback

        return readback(tables, result)

    def expect(self, expect: Mapping[str, Any], tables: Tables, result: SyncResult) -> list[str]:
        from .scenario import expect_game

        return expect_game(expect, tables, result)


class AncientRuleset(BaseRuleset):
    """The ancient-world ruleset (seed 000): the runner drives `Ancient`; only what differs is here."""

    reporter = AncientReporter()
    scenario = AncientScenarios()

    name = ruleset.NAME
    aliases: tuple[str, ...] = ("antiquity", "античность")
    hidden_information = False  # every player sees the whole map; order tabs are private only on request
    game = Ancient()

    def new_workbook(
        self,
        scenario: str = "demo",
        lang: str = "ru",
        title: str | None = None,
        secret: str | None = None,
        data: dict[str, Any] | None = None,
        campaign_id: str | None = None,
    ) -> WorkbookSpec:
        return ruleset.new_workbook(scenario, lang, title, secret, data, campaign_id)

    def chronicle_seed(self, tables: Tables, cursor: Cursor) -> str | None:
        return chronicle_seed(tables, cursor)

    def later_inputs(self, tables: Tables) -> dict[str, list[int]]:
        return ruleset.later_inputs(tables)

    def private_tabs(self, tables: Tables, order_tabs: Collection[str] | None = None) -> list[ReplaceTab]:
        return ruleset.private_tabs(tables, order_tabs=order_tabs)

    def demo_changes(self, tables: Tables) -> Changeset:
        return ruleset.demo_changes(tables)

    # views per audience (issue 17 p3, H5)
    def tab_audiences(self, tables: Tables) -> dict[str, Audience]:
        """The tabs by title (views.py): the game tells no side a line of its own, so it has no
        side's log to look for (and needs no decode of the campaign to list its sides)."""
        return views.tab_audiences(tables)


    # ------------------------------------------------------------ absent players and victory (issue 17, H4 absence)

    def default_orders(self, tables: Tables, side: str, cursor: Cursor) -> list[OrderRow]:
        """None: the seed gives an absent player nothing to do for them (ANC-TURN-03/04, the «Правила
        игры» opening of seed 000: a state without orders only counts a miss, and after two in a row
        passes to the GM as an AI state; docs/rules-decisions.md)."""
        return []

    def victory(self, tables: Tables) -> Victory | None:
        """None: seed 000 names no victory and no end of the game (docs/rules-decisions.md, «No
        victory»); the campaign goes on while the GM runs it."""
        return None


RULESET: Ruleset = AncientRuleset()
