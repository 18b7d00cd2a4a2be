"""«Дуэт» as a `Ruleset` (engine/core/ruleset.py): the whole interface, each member real.

check and resolve work on one order window (a cursor: «1:сбор», «1:торг»): they read both sides'
order tabs, rule the rows of the open window (rows of a later stage wait), post every change of a
stock through the ledger, and hand back one changeset: the order tabs, each side's stock tab (its
audience that side alone), the public ranking and chronicle, the GM's ledger and archive, the
history snapshot and, last, the meta marker that opens the next window."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core import history, meta
from engine.core import summary as summaries
from engine.core.audience import GM, PUBLIC, Audience, player
from engine.core.cursor import Cursor
from engine.core.dice import new_secret
from engine.core.errors import CampaignError
from engine.core.ledger import movements
from engine.core.orders import OrderRow
from engine.core.ordertab import OrderTab
from engine.core.ruleset import DEFAULT_POST_LIMIT, BaseRuleset, Ruleset, SyncResult, Victory
from engine.core.runner import Judged, Log, OrderLayout, WindowGame
from engine.core.scenario import Readback
from engine.core.tables import Cell, Changeset, Grid, ReplaceTab, Tables, TabSpec, WorkbookSpec, WriteBlock
from engine.core.turn import Phase, TurnReport

from . import reporter, rules, tabs, world
from . import scenario as hooks
from .words import (
    ARCHIVE,
    ARCHIVE_HEADER,
    CALENDAR,
    CHRONICLE,
    CHRONICLE_HEADER,
    COLS,
    GOLD,
    LEDGER,
    LEDGER_HEADER,
    NAME,
    ORDER_FIELDS,
    PHASES,
    RANKING,
    RESOURCES,
    SIDES,
    STAMP,
    TRADE,
    orders_tab,
    report_tab,
    stock_tab,
)

LANG = "ru"


class Duo(WindowGame[world.Stocks, None]):
    """What the core's window runner asks of «Дуэт» (engine/core/runner.py): no loop of its own."""

    calendar = CALENDAR
    layout = OrderLayout(ORDER_FIELDS, STAMP)
    resources = RESOURCES

    def lang(self, tables: Tables) -> str:
        return LANG

    def rules(self, tables: Tables) -> None:
        return None

    def decode(self, tables: Tables, at: Cursor, rules: None) -> world.Stocks:
        return world.read(tables)

    def sides(self, stocks: world.Stocks) -> tuple[str, ...]:
        return SIDES

    def new_report(self, at: Cursor, lang: str, stocks: world.Stocks) -> rules.Report:
        return TurnReport(at, LANG, facts=rules.Facts(at))

    def order_tab(self, tables: Tables, side: str, lang: str) -> OrderTab | None:
        tab = orders_tab(side)
        return OrderTab(tab, side, dict(COLS), tables.get(tab, []))

    def begin(self, j: Judged[world.Stocks, None]) -> None:
        rules.begin(j.at, j.dice, j.report)

    def prepare(self, row: OrderRow, j: Judged[world.Stocks, None]) -> OrderRow:
        return rules.staged(row)

    def past(self, was: Cursor, j: Judged[world.Stocks, None]) -> str:
        return f"этап «{CALENDAR.format(was)}» уже разрешён"

    def unknown(self, row: OrderRow, j: Judged[world.Stocks, None]) -> str:
        return f"нет этапа «{row.cells.get('stage')}»; этапы хода: {CALENDAR.listed('ru')}"

    def waits(self, when: Cursor, lang: str) -> str:
        return f"ждёт этапа «{CALENDAR.format(when)}»"

    def parse(self, row: OrderRow, j: Judged[world.Stocks, None]) -> rules.Order:
        return rules.parse(row, j.at)

    def stand_ins(self, j: Judged[world.Stocks, None], side: str) -> list[OrderRow]:
        return rules.default_orders(side, j.at)

    def stood_in(self, j: Judged[world.Stocks, None], side: str) -> None:
        j.report.warn(f"{side} не прислал приказов на «{CALENDAR.format(j.at)}»: работники собирают зерно")

    def phases(self, at: Cursor) -> tuple[Phase[world.Stocks], ...]:
        return Phase(PHASES[0], rules.work), Phase(PHASES[1], rules.eat)

    def tabs(self, tables: Tables, j: Judged[world.Stocks, None]) -> list[ReplaceTab]:
        out = [ReplaceTab(stock_tab(side), world.stock_grid(j.world, side), audience=player(side)) for side in SIDES]
        return [*out, ReplaceTab(RANKING, world.ranking_grid(j.world), audience=PUBLIC)]

    def log(self, tables: Tables, kind: str, lang: str) -> Log | None:
        return {"chronicle": Log(CHRONICLE, list(CHRONICLE_HEADER)), "ledger": Log(LEDGER, list(LEDGER_HEADER)),
                "archive": Log(ARCHIVE, list(ARCHIVE_HEADER))}.get(kind)

    def chronicle(self, tables: Tables, j: Judged[world.Stocks, None], lines: list[str]) -> list[str]:
        if j.at.stage == TRADE:
            return [f"цена зерна — {j.report.facts.price} золота", *lines]
        return lines

    def ledger_rows(self, j: Judged[world.Stocks, None], stamp: Cell) -> Grid:
        return [[str(stamp), e.side, e.resource, CALENDAR.stage(e.phase).ru, e.category, int(e.amount), e.reason,
                 e.order_ref] for e in j.report.ledger.entries]

    def won(self, tables: Tables, j: Judged[world.Stocks, None]) -> Victory | None:
        return verdict(j.world) if j.at.stage == TRADE else None  # a whole turn closed: the GOAL ends the campaign

    def meta_grid(self, tables: Tables, j: Judged[world.Stocks, None], nxt: Cursor, seed: str,
                  secret: str | None) -> Grid:
        return tabs.meta_grid(nxt, secret, meta.text(tables, meta.CAMPAIGN_ID), seed)

    def summary(self, mode: str, j: Judged[world.Stocks, None]) -> dict[str, Any]:
        """What the CLI prints and --json shows (engine/core/summary.py): the orders by status, each
        side's movement of both resources, the window and the rows that wait for the next stage."""
        moved = movements(j.report.ledger.entries, j.world, SIDES, RESOURCES, j.opening)
        waiting = sum(len(w) for w in j.waiting.values())
        return summaries.build(mode, NAME, j.report, RESOURCES,
                               [summaries.SideLine(side, moved[side]) for side in SIDES], turn=j.at.turn,
                               cursor=CALENDAR.format(j.at), waiting=waiting, side_title="Сторона",
                               open_tabs="листы запасов, рейтинга, летописи, книги и приказов")


def last_resolved(tables: Tables) -> int:
    """The last turn a window of which is resolved (0 before any)."""
    kept = history.entries(tables)
    return kept[-1].turn if kept else 0


def private_tabs(tables: Tables, order_tabs: Collection[str] | None = None) -> list[ReplaceTab]:
    """Each side's report of the last resolved turn, a tab of its own book beside its order tab."""
    turn = last_resolved(tables) or None
    out = []
    for side in SIDES:
        if order_tabs is not None and orders_tab(side) not in order_tabs:
            continue
        name = report_tab(side)
        out.append(ReplaceTab(name, reporter.report_grid(tables, side, turn), TabSpec(name, [], kind="report"),
                              beside=orders_tab(side), audience=player(side)))
    return out


DEMO_ORDERS = {
    "A": [["сбор", "добыть", "зерно", 6], ["сбор", "добыть", "золото", 4], [None, "продать", "зерно", 30]],
    "B": [["сбор", "добыть", "золото", 7], ["сбор", "добыть", "зерно", 5], ["торг", "продать", "зерно", 20]],
}


def order_blocks(tables: Tables, orders: Mapping[str, Grid]) -> list[WriteBlock]:
    """`orders` (side -> rows of stage, order, resource, amount) written below each tab's last input."""
    out = []
    for side, rows in orders.items():
        tab = orders_tab(side)
        grid = tables.get(tab, [])
        used = [i for i, r in enumerate(grid) if i and any(v not in (None, "") for v in r[: len(ORDER_FIELDS)])]
        first = (max(used) + 2) if used else 2
        out.append(WriteBlock(tab, first, 1, [list(r) for r in rows]))
    return out


GOAL = 100  # gold that wins the game


def victory(tables: Tables) -> Victory | None:
    """The sides with `GOAL` gold or more after a whole turn (a «торг» resolved) have won, together."""
    if meta.open_cursor(tables, CALENDAR).stage != CALENDAR.stages[0].key or not history.entries(tables):
        return None
    return verdict(world.read(tables))


def verdict(stocks: world.Stocks) -> Victory | None:
    """The sides with `GOAL` gold or more in `stocks` (at the close of a turn), together; None if none."""
    rich = tuple(s for s in SIDES if stocks.of(s, GOLD.code) >= GOAL)
    return Victory(rich, f"{', '.join(rich)}: золота не меньше {GOAL}") if rich else None


def tab_audiences(tables: Tables) -> dict[str, Audience]:
    """Who may see each tab, by title: a side's orders, stocks and report are that side's; the
    ledger, the archive and the history the GM's; every other tab public."""
    own = {name(side): player(side) for side in SIDES for name in (orders_tab, stock_tab, report_tab)}
    gm = {LEDGER: GM, ARCHIVE: GM, history.tab_of(tables): GM}
    return {tab: own.get(tab) or gm.get(tab) or PUBLIC for tab in tables}


class DuoReporter:
    """What `strategos report` reads of the game: its posts, reports and chart."""

    def last_resolved(self, tables: Tables) -> int:
        return last_resolved(tables)

    def sides(self, tables: Tables) -> list[str]:
        return sorted(SIDES)

    def forum_post(self, tables: Tables, turn: int | Cursor, fmt: str = "bbcode",
                   limit: int = DEFAULT_POST_LIMIT) -> list[str]:
        return reporter.forum_post(tables, turn, fmt, limit)

    def player_report(self, tables: Tables, side: str, turn: int | Cursor | None = None) -> str:
        return "\n".join(reporter.report_lines(tables, side, turn if turn is not None else last_resolved(tables)))

    def chart_png(self, tables: Tables, path: Path) -> Path:
        return reporter.chart_png(tables, path)


class DuoScenarios:
    """The scenario hooks: engine/core/scenario.py plays the game's scenarios with them."""

    def tables(self, setup: Mapping[str, Any]) -> Tables:
        return hooks.build_tables(setup)

    def orders(self, tables: Tables, orders: Mapping[str, Sequence[Any]]) -> Tables:
        return hooks.put_orders(tables, orders)

    def readback(self, tables: Tables, result: SyncResult) -> Readback:
        return hooks.readback(tables, result)

    def expect(self, expect: Mapping[str, Any], tables: Tables, result: SyncResult) -> list[str]:
        return hooks.expect_game(expect, tables)


class DuoRuleset(BaseRuleset):
    """The game as the registry holds it: the runner drives `Duo`; only what differs is here."""

    reporter = DuoReporter()
    scenario = DuoScenarios()

    name = NAME
    aliases: tuple[str, ...] = ("дуэт",)
    hidden_information = True
    game = Duo()

    def new_workbook(self, scenario: str = "demo", lang: str = "ru", title: str | None = None,
                     secret: str | None = None, data: dict[str, Any] | None = None,
                     campaign_id: str | None = None) -> WorkbookSpec:
        if lang != LANG:
            raise CampaignError(f"«Дуэт» — игра только на русском, а просили язык «{lang}»")
        if scenario != "demo" or data:
            raise CampaignError(f"у «Дуэта» один сценарий, demo, а просили «{scenario}»")
        return tabs.new_workbook(secret or new_secret(), campaign_id or meta.new_campaign_id(), title)

    def later_inputs(self, tables: Tables) -> dict[str, list[int]]:
        return {orders_tab(s): [COLS[f] for f in ORDER_FIELDS] for s in SIDES}

    def private_tabs(self, tables: Tables, order_tabs: Collection[str] | None = None) -> list[ReplaceTab]:
        return private_tabs(tables, order_tabs)

    def demo_changes(self, tables: Tables) -> Changeset:
        return Changeset(blocks=order_blocks(tables, DEMO_ORDERS))

    # members other helpers of issue 17 add to the Protocol (check's ``expect`` above, H4; H5; H3)

    def default_orders(self, tables: Tables, side: str, cursor: Cursor) -> list[OrderRow]:
        return rules.default_orders(side, cursor)

    def victory(self, tables: Tables) -> Victory | None:
        return victory(tables)

    def audiences(self, tables: Tables) -> dict[str, Audience]:
        return tab_audiences(tables)


RULESET: Ruleset = DuoRuleset()
