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

from engine.core import draw, history, meta, ordertab, session, window
from engine.core import summary as summaries
from engine.core.audience import GM, PUBLIC, Audience, player
from engine.core.cursor import Cursor
from engine.core.dice import Dice, cursor_seed, new_secret
from engine.core.errors import CampaignError, TurnMismatch
from engine.core.ledger import Resource, movements
from engine.core.orders import OrderResult, OrderRow, Status
from engine.core.ordertab import OrderTab
from engine.core.ruleset import DEFAULT_POST_LIMIT, OnPhase, Ruleset, SyncResult, Victory
from engine.core.scenario import Readback
from engine.core.tables import (
    Changeset,
    Grid,
    ReplaceTab,
    Tables,
    TabSpec,
    WorkbookSpec,
    WriteBlock,
)
from engine.core.turn import TurnReport

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
    META,
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


def open_window(tables: Tables, expect_turn: int | None = None) -> Cursor:
    """The open window; TurnMismatch (nothing changed) when a turn was asked that is not open."""
    at = meta.open_cursor(tables, CALENDAR)
    if expect_turn is not None and expect_turn != at.turn:
        raise TurnMismatch(f"Открыт ход «{CALENDAR.format(at)}», а просили разрешить ход {expect_turn}. "
                           f"Ничего не изменено.")
    return at


def _summary(mode: str, at: Cursor, report: rules.Report, opening: world.Stocks,
             closing: world.Stocks) -> dict[str, Any]:
    """What the CLI prints and --json shows (engine/core/summary.py): the orders by status, each
    side's movement of both resources, the window and the rows that wait for the next stage."""
    moved = movements(report.ledger.entries, closing, SIDES, RESOURCES, opening)
    return summaries.build(mode, NAME, report, RESOURCES, [summaries.SideLine(side, moved[side]) for side in SIDES],
                           turn=at.turn, cursor=CALENDAR.format(at), waiting=len(report.facts.waiting),
                           side_title="Сторона", open_tabs="листы запасов, рейтинга, летописи, книги и приказов")


def _judge(tables: Tables, at: Cursor, dice: Dice) -> tuple[rules.Report, world.Stocks, world.Stocks]:
    stocks = world.read(tables)
    opening = stocks.copy()
    report: rules.Report = TurnReport(at, LANG, facts=rules.Facts(at))
    if (recount := draw.chronicle_line(tables)) is not None:  # the window a rollback reopened
        report.tell(recount)
    rules.judge(tables, at, dice, stocks, report)
    return report, opening, stocks


def _waiting(report: rules.Report) -> dict[str, dict[int, tuple[OrderRow, OrderResult]]]:
    """tab -> sheet row -> (the row, its word: it waits for a later stage of the turn)."""
    out: dict[str, dict[int, tuple[OrderRow, OrderResult]]] = {}
    for row, when in report.facts.waiting:
        word = OrderResult(Status.HISTORY, f"ждёт этапа «{CALENDAR.format(when)}»")
        out.setdefault(row.tab, {})[row.row] = (row, word)
    return out


def check(tables: Tables, on_phase: OnPhase | None = None, expect: Cursor | None = None) -> SyncResult:
    """Rule the open window's rows with blind dice; write only their status columns (a row that
    waits for a later stage says so). ``expect``: the window the GM asked to check (TurnMismatch
    unless it is the open one)."""
    window.expect(tables, CALENDAR, expect)  # the core's refusal, in the core's words
    at = open_window(tables)
    report, opening, stocks = _judge(tables, at, Dice.blind_dice())
    changes = Changeset()
    waiting = _waiting(report)
    for tab, ot in report.facts.tabs.items():
        later = waiting.get(tab, {})
        shown = OrderTab(ot.tab, ot.side, ot.cols, ot.grid,
                         rows=sorted([*ot.rows, *(row for row, _w in later.values())], key=lambda r: r.row))
        words = {**report.results, **{row.ref: w for row, w in later.values()}}
        changes.blocks += ordertab.status_strips(shown, words, LANG, STAMP)
    for name in PHASES:
        if on_phase is not None:
            on_phase(name)
    return SyncResult("check", at.turn, changes, report, stocks, _summary("check", at, report, opening, stocks))


def _ledger_rows(report: rules.Report, shown: str) -> Grid:
    return [[shown, e.state, e.resource, CALENDAR.stage(e.phase).ru, e.category, int(e.amount), e.reason,
             e.order_ref] for e in report.ledger.entries]


def resolve(tables: Tables, expect_turn: int | None = None, seed: str | None = None, secret: str | None = None,
            on_phase: OnPhase | None = None) -> SyncResult:
    """Resolve the open window with the dice of `secret` (or the revealed `seed`: verify's re-run)."""
    at = open_window(tables, expect_turn)
    if seed is None:
        if not secret:
            raise CampaignError("без секрета ведущего не бросить кости окна: ход не разрешён")
        seed = cursor_seed(secret, at)
    report, opening, stocks = _judge(tables, at, Dice(seed))
    if on_phase is not None:
        on_phase(PHASES[0])
    stamp = session.stamp(at, CALENDAR, LANG)
    changes = Changeset()
    waiting = _waiting(report)
    archived: Grid = []
    for side in SIDES:
        ot = report.facts.tabs[orders_tab(side)]
        later = waiting.get(ot.tab, {})  # a later stage's rows stay as written (and as the last check marked them)
        grid, archive = ordertab.resolved_grid(ot, report.results, stamp, LANG, ORDER_FIELDS, STAMP, waiting=later)
        archived += archive
        changes.replace.append(ReplaceTab(ot.tab, grid))
        changes.replace.append(ReplaceTab(stock_tab(side), world.stock_grid(stocks, side), audience=player(side)))
    changes.replace.append(ReplaceTab(RANKING, world.ranking_grid(stocks), audience=PUBLIC))
    told = list(report.chronicle)
    if at.stage == TRADE:
        told.insert(0, f"цена зерна — {report.facts.price} золота")
    lines = [[stamp, line] for line in told or ["окно прошло без событий"]]
    changes.blocks += session.append_rows(tables, CHRONICLE, [list(CHRONICLE_HEADER)], lines)
    changes.blocks += session.append_rows(tables, LEDGER, [list(LEDGER_HEADER)], _ledger_rows(report, str(stamp)))
    changes.blocks += session.append_rows(tables, ARCHIVE, [list(ARCHIVE_HEADER)], archived)
    changes.blocks += session.history_blocks(tables, at)
    grid = tabs.meta_grid(session.advance(CALENDAR, at), secret, meta.text(tables, meta.CAMPAIGN_ID), seed)
    changes.marker.append(session.meta_marker(tables, meta.meta_tab(tables) or META, grid))
    if on_phase is not None:
        on_phase(PHASES[1])
    summary = _summary("resolve", at, report, opening, stocks)
    return SyncResult("resolve", at.turn, changes, report, stocks, summary)


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
    stocks = world.read(tables)
    rich = tuple(s for s in SIDES if stocks.of(s, GOLD.code) >= GOAL)
    return Victory(rich, f"{', '.join(rich)}: золота не меньше {GOAL}") if rich else None


def tab_audiences(tables: Tables) -> dict[str, Audience]:
    """Who may see each tab, by title: a side's orders, stocks and report are that side's; the
    ledger, the archive and the history the GM's; every other tab public."""
    own = {name(side): player(side) for side in SIDES for name in (orders_tab, stock_tab, report_tab)}
    gm = {LEDGER: GM, ARCHIVE: GM, history.tab_of(tables): GM}
    return {tab: own.get(tab) or gm.get(tab) or PUBLIC for tab in tables}


class DuoRuleset:
    """The game as the registry holds it."""

    name = NAME
    aliases: tuple[str, ...] = ("дуэт",)
    resources: tuple[Resource, ...] = RESOURCES
    phases: tuple[str, ...] = PHASES
    calendar = CALENDAR
    hidden_information = True

    def new_workbook(self, scenario: str = "demo", lang: str = "ru", title: str | None = None,
                     secret: str | None = None, data: dict[str, Any] | None = None,
                     campaign_id: str | None = None) -> WorkbookSpec:
        if lang != LANG:
            raise CampaignError(f"«Дуэт» — игра только на русском, а просили язык «{lang}»")
        if scenario != "demo" or data:
            raise CampaignError(f"у «Дуэта» один сценарий, demo, а просили «{scenario}»")
        return tabs.new_workbook(secret or new_secret(), campaign_id or meta.new_campaign_id(), title)

    def check(self, tables: Tables, secret: str | None = None, on_phase: OnPhase | None = None,
              tab_ids: dict[str, str] | None = None, expect: Cursor | None = None) -> SyncResult:
        return check(tables, on_phase, expect)

    def resolve(self, tables: Tables, expect_turn: int | None = None, seed: str | None = None,
                secret: str | None = None, on_phase: OnPhase | None = None,
                tab_ids: dict[str, str] | None = None) -> SyncResult:
        return resolve(tables, expect_turn, seed, secret, on_phase)

    def chronicle_seed(self, tables: Tables, cursor: Cursor) -> str | None:
        return None  # every seed is in the meta's own cell since the first window

    def later_inputs(self, tables: Tables) -> dict[str, list[int]]:
        return {orders_tab(s): [COLS[f] for f in ORDER_FIELDS] for s in SIDES}

    def private_tabs(self, tables: Tables, order_tabs: Collection[str] | None = None) -> list[ReplaceTab]:
        return private_tabs(tables, order_tabs)

    def demo_changes(self, tables: Tables) -> Changeset:
        return Changeset(blocks=order_blocks(tables, DEMO_ORDERS))

    def last_resolved(self, tables: Tables) -> int:
        return last_resolved(tables)

    def report_sides(self, tables: Tables) -> list[str]:
        return sorted(SIDES)

    def forum_post(self, tables: Tables, turn: int | Cursor, fmt: str = "bbcode",
                   limit: int = DEFAULT_POST_LIMIT) -> list[str]:
        return reporter.forum_post(tables, turn, fmt, limit)

    def player_report(self, tables: Tables, side: str, turn: int | Cursor | None = None) -> str:
        return "\n".join(reporter.report_lines(tables, side, turn if turn is not None else last_resolved(tables)))

    def chart_png(self, tables: Tables, path: Path) -> Path:
        return reporter.chart_png(tables, path)

    # members other helpers of issue 17 add to the Protocol (check's ``expect`` above, H4; H5; H3)

    def default_orders(self, tables: Tables, side: str, cursor: Cursor) -> list[OrderRow]:
        return rules.default_orders(side, cursor)

    def victory(self, tables: Tables) -> Victory | None:
        return victory(tables)

    def tab_audiences(self, tables: Tables) -> dict[str, Audience]:
        return tab_audiences(tables)

    # scenario hooks: engine/core/scenario.py plays tests/duo_game/scenarios/*.yaml with them

    def scenario_tables(self, setup: Mapping[str, Any]) -> Tables:
        return hooks.build_tables(setup)

    def scenario_orders(self, tables: Tables, orders: Mapping[str, Sequence[Any]]) -> Tables:
        return hooks.put_orders(tables, orders)

    def scenario_readback(self, tables: Tables, result: SyncResult) -> Readback:
        return hooks.readback(tables, result)

    def scenario_expect(self, expect: Mapping[str, Any], tables: Tables, result: SyncResult) -> list[str]:
        return hooks.expect_game(expect, tables)


RULESET: Ruleset = DuoRuleset()
