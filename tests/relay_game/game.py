"""«Эстафета» on the core's window runner: `Relay` answers the runner's questions, `RelayRuleset`
is the registry's entry (defaults from `BaseRuleset`). No loop of its own: the runner judges,
strips, stamps, snapshots and marks; the game says which window opens next and for whom."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core import absence, history, meta, runner
from engine.core import summary as summaries
from engine.core.audience import GM, PUBLIC, Audience, player
from engine.core.cursor import Cursor
from engine.core.dice import new_secret
from engine.core.errors import CampaignError
from engine.core.ledger import movements
from engine.core.orders import OrderResult, OrderRow
from engine.core.ordertab import OrderTab
from engine.core.ruleset import DEFAULT_POST_LIMIT, BaseRuleset, Ruleset, SyncResult
from engine.core.runner import Given, Judged, Log, OrderLayout, Window, WindowGame
from engine.core.scenario import Readback
from engine.core.tables import Cell, Changeset, Grid, ReplaceTab, Tables
from engine.core.turn import Phase, TurnReport

from . import reporter, rules, tabs, world
from . import scenario as hooks
from .words import (
    ARCHIVE,
    ARCHIVE_HEADER,
    ASK,
    ATTACK,
    BATTLE,
    BUILD,
    CALENDAR,
    CHRONICLE,
    CHRONICLE_HEADER,
    COLS,
    COUNCIL,
    LEDGER,
    LEDGER_HEADER,
    MISSED_LIMIT,
    MOVE,
    NAME,
    ORDER_FIELDS,
    PASS,
    PHASES,
    RANKING,
    RESOURCES,
    ROUND,
    SEND,
    SIDES,
    STAMP,
    orders_tab,
    treasury_tab,
)

LANG = "ru"
World = world.World


class Relay(WindowGame[World, None]):
    """What the core's window runner asks of «Эстафета» (engine/core/runner.py)."""

    calendar = CALENDAR
    layout = OrderLayout(ORDER_FIELDS, STAMP)
    resources = RESOURCES
    missed_limit = MISSED_LIMIT

    def lang(self, tables: Tables) -> str:
        return LANG

    def rules(self, tables: Tables) -> None:
        return None

    def decode(self, tables: Tables, at: Cursor, rules_: None) -> World:
        return world.read(tables)

    def sides(self, w: World) -> tuple[str, ...]:
        return SIDES

    def new_report(self, at: Cursor, lang: str, w: World) -> rules.Report:
        return TurnReport(at, LANG, facts=rules.Facts(at))

    def order_tab(self, tables: Tables, side: str, lang: str) -> OrderTab | None:
        tab = orders_tab(side)
        return OrderTab(tab, side, dict(COLS), tables.get(tab, []))

    def begin(self, j: Judged[World, None]) -> None:
        j.report.facts.movers = j.window.participants
        if j.at.stage == BATTLE and not (j.world.attacker and j.world.defender):
            raise CampaignError(f"окно «{CALENDAR.format(j.at)}» — бой, но на листе «Круг» не названы стороны боя")

    def prepare(self, row: OrderRow, j: Judged[World, None]) -> OrderRow:
        return rules.staged(row)

    def later(self, row: OrderRow, j: Judged[World, None]) -> Cursor | None:
        """A mover's second move row waits for its next window (one action a «ход» window)."""
        if j.at.stage != MOVE:
            return None
        seen = j.extra.setdefault("moved", set())
        if row.state in seen:
            return CALENDAR.next(j.at)
        seen.add(row.state)
        return None

    def past(self, was: Cursor, j: Judged[World, None]) -> str:
        return f"окно «{CALENDAR.format(was)}» уже разрешено"

    def unknown(self, row: OrderRow, j: Judged[World, None]) -> str:
        return f"нет этапа «{row.cells.get('stage')}»; этапы хода: {CALENDAR.listed('ru')}"

    def waits(self, when: Cursor, lang: str) -> str:
        if when.stage == MOVE:
            return "ждёт следующего окна хода этой стороны"
        return f"ждёт окна «{CALENDAR.format(when)}»"

    def parse(self, row: OrderRow, j: Judged[World, None]) -> rules.Order:
        return rules.parse(row, j.at)

    def describe(self, order: rules.Order, j: Judged[World, None]) -> str:
        return order.text()

    def stand_ins(self, j: Judged[World, None], side: str) -> list[OrderRow]:
        return rules.default_orders(side, j.at)

    def stood_in(self, j: Judged[World, None], side: str) -> None:
        j.report.warn(f"{side} не прислал приказа на «{CALENDAR.format(j.at)}»: пас")

    def phases(self, at: Cursor) -> tuple[Phase[World], ...]:
        run = {MOVE: rules.act, BATTLE: rules.fight, COUNCIL: rules.council}[at.stage]
        return (Phase(PHASES[at.stage], run),)

    def unanswered(self, given: Given[Any], j: Judged[World, None]) -> OrderResult:
        return rules.unanswered(given)

    def after(self, j: Judged[World, None]) -> None:
        j.extra["next"] = rules.next_window(j.world, j.at)

    # the NMR ladder: each «ход» window is its mover's turn; battles and councils do not count

    def standings(self, j: Judged[World, None]) -> dict[str, absence.Standing]:
        return {side: absence.Standing(j.world.missed.get(side, 0)) for side in SIDES}

    def closes_ladder(self, j: Judged[World, None]) -> bool | None:
        return True if j.at.stage == MOVE else None

    def keep_standings(self, j: Judged[World, None], ladder: absence.Ladder) -> None:
        for side, st in ladder.standings.items():
            j.world.missed[side] = st.missed
        for side in ladder.with_verdict(absence.Verdict.WARNED):
            j.report.warn(f"{side} пропускает окно «{CALENDAR.format(j.at)}» (подряд: {ladder.standings[side].missed})")
        for side in ladder.reached:
            j.report.warn(f"{side} пропустил {ladder.limit} окон хода подряд: ведущий решает, кто за него ходит")

    # resolve

    def tabs(self, tables: Tables, j: Judged[World, None]) -> list[ReplaceTab]:
        own = [ReplaceTab(treasury_tab(s), world.treasury_grid(j.world, s), audience=player(s)) for s in SIDES]
        return [*own, ReplaceTab(RANKING, world.ranking_grid(j.world), audience=PUBLIC),
                ReplaceTab(ROUND, world.round_grid(j.world), audience=PUBLIC)]

    def log(self, tables: Tables, kind: str, lang: str) -> Log | None:
        return {"chronicle": Log(CHRONICLE, list(CHRONICLE_HEADER)), "ledger": Log(LEDGER, list(LEDGER_HEADER)),
                "archive": Log(ARCHIVE, list(ARCHIVE_HEADER))}.get(kind)

    def ledger_rows(self, j: Judged[World, None], stamp: Cell) -> Grid:
        return [[str(stamp), e.state, e.resource, CALENDAR.stage(e.phase).ru, e.category, int(e.amount), e.reason,
                 e.order_ref or None] for e in j.report.ledger.entries]

    def next_window(self, tables: Tables, j: Judged[World, None]) -> Window:
        nxt: Window = j.extra["next"]
        return nxt

    def meta_grid(self, tables: Tables, j: Judged[World, None], nxt: Cursor, seed: str,
                  secret: str | None) -> Grid:
        return tabs.meta_grid(nxt, secret, meta.text(tables, meta.CAMPAIGN_ID), seed)

    def summary(self, mode: str, j: Judged[World, None]) -> dict[str, Any]:
        moved = movements(j.report.ledger.entries, j.world, SIDES, RESOURCES, j.opening)
        out = summaries.build(mode, NAME, j.report, RESOURCES, [summaries.SideLine(s, moved[s]) for s in SIDES],
                              turn=j.at.turn, cursor=CALENDAR.format(j.at),
                              waiting=sum(len(w) for w in j.waiting.values()), side_title="Сторона",
                              open_tabs="листы казны, рейтинга, круга, летописи, книги и приказов")
        out["movers"] = list(j.window.participants)
        nxt: Window | None = j.extra.get("next")
        if nxt is not None:
            out["next"] = {"cursor": CALENDAR.format(nxt.cursor), "movers": list(nxt.participants)}
        return out


def last_resolved(tables: Tables) -> int:
    kept = history.entries(tables)
    return kept[-1].turn if kept else 0


def demo_orders(tables: Tables) -> dict[str, Grid]:
    """Sample rows for the open window's sides: build, then attack, then pass; send and ask."""
    at = meta.open_cursor(tables, CALENDAR)
    movers = runner.participants(tables, SIDES)
    if at.stage == MOVE:
        side = movers[0]
        row = ([None, BUILD, None, 5] if at.round <= len(SIDES) else
               [None, ATTACK, SIDES[(SIDES.index(side) + 1) % len(SIDES)], None] if at.round <= 2 * len(SIDES)
               else [None, PASS, None, None])
        return {side: [row]}
    if at.stage == BATTLE:
        return {side: [[None, SEND, None, 3]] for side in movers}
    return {side: [[None, ASK, None, 3]] for side in movers}


def tab_audiences(tables: Tables) -> dict[str, Audience]:
    """A side's orders and treasury are that side's; the ledger, the archive and the history the GM's;
    every other tab public (the core adds each side's log)."""
    own = {name(side): player(side) for side in SIDES for name in (orders_tab, treasury_tab)}
    gm = {LEDGER: GM, ARCHIVE: GM, history.tab_of(tables): GM}
    return {tab: own.get(tab) or gm.get(tab) or PUBLIC for tab in tables}


class RelayReporter:
    """What `strategos report` reads of the game: its posts, reports and chart."""

    def last_resolved(self, tables: Tables) -> int:
        return last_resolved(tables)

    def sides(self, tables: Tables) -> list[str]:
        return list(SIDES)

    def forum_post(self, tables: Tables, turn: int | Cursor, fmt: str = "bbcode",
                   limit: int = DEFAULT_POST_LIMIT) -> list[str]:
        return reporter.forum_post(tables, turn, fmt, limit)

    def player_report(self, tables: Tables, side: str, turn: int | Cursor | None = None) -> str:
        at = turn if turn is not None else (last_resolved(tables) or None)
        return "\n".join(reporter.report_lines(Relay(), tables, side, at))

    def chart_png(self, tables: Tables, path: Path) -> Path:
        return reporter.chart_png(tables, path)


class RelayScenarios:
    """The scenario hooks: engine/core/scenario.py plays the game's scenarios with them."""

    def tables(self, setup: Mapping[str, Any]) -> Tables:
        return hooks.build_tables(setup)

    def orders(self, tables: Tables, orders: Mapping[str, Sequence[Any]]) -> Tables:
        return hooks.put_orders(tables, orders)

    def readback(self, tables: Tables, result: SyncResult) -> Readback:
        return hooks.readback(tables, result)

    def expect(self, expect: Mapping[str, Any], tables: Tables, result: SyncResult) -> list[str]:
        return hooks.expect_game(expect, tables)


class RelayRuleset(BaseRuleset):
    """The game as the registry holds it: the runner drives `Relay`; only what differs is here."""

    reporter = RelayReporter()
    scenario = RelayScenarios()

    name = NAME
    aliases: tuple[str, ...] = ("эстафета",)
    hidden_information = True
    game = Relay()

    def new_workbook(self, scenario: str = "demo", lang: str = "ru", title: str | None = None,
                     secret: str | None = None, data: dict[str, Any] | None = None,
                     campaign_id: str | None = None) -> Any:
        if lang != LANG:
            raise CampaignError(f"«Эстафета» — игра только на русском, а просили язык «{lang}»")
        if scenario != "demo" or data:
            raise CampaignError(f"у «Эстафеты» один сценарий, demo, а просили «{scenario}»")
        return tabs.new_workbook(secret or new_secret(), campaign_id or meta.new_campaign_id(), title)

    def later_inputs(self, tables: Tables) -> dict[str, list[int]]:
        return {orders_tab(s): [COLS[f] for f in ORDER_FIELDS] for s in SIDES}

    def demo_changes(self, tables: Tables) -> Changeset:
        return Changeset(blocks=hooks.order_blocks(tables, demo_orders(tables)))

    def private_tabs(self, tables: Tables, order_tabs: Collection[str] | None = None) -> list[ReplaceTab]:
        return []

    def default_orders(self, tables: Tables, side: str, cursor: Cursor) -> list[OrderRow]:
        return rules.default_orders(side, cursor)

    def audiences(self, tables: Tables) -> dict[str, Audience]:
        return tab_audiences(tables)


RULESET: Ruleset = RelayRuleset()
