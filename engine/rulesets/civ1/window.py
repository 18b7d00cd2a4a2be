"""One window of a civ1 campaign («1:государство», «1:города») as the core's window runner asks it.

The runner (engine/core/runner.py) drives check and resolve; `Civ1` only answers: the world and
rules the codec reads, each nation's «Приказы — <нация>», a row with a blank «Фаза» that waits for
the cities stage (spec §2: a player fills both stages at once), the stand-ins of an absent nation
(absent.py), the stage's phases in the seed's order (stages.py), and what a resolve writes besides
the core's logs: every state tab, «Порядок хода», each nation's «Держава» (its state and its own
ledger lines), the «Бои» log and the meta.  What a nation alone learns (spies, villages,
transfers) the phases tell it (`report.tell(text, to=nation)`); the runner appends it to the
nation's «Донесения — <нация>», which keeps every window, in that nation's book alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from engine.core import absence, meta, session, stagerows
from engine.core import summary as summaries
from engine.core.audience import GM, PUBLIC, player
from engine.core.cursor import Cursor
from engine.core.ending import Victory
from engine.core.errors import CampaignError, InvalidOrder, Problem
from engine.core.ledger import LedgerEntry, Movement, movements
from engine.core.orders import OrderResult, OrderRow, Status
from engine.core.ordertab import OrderTab
from engine.core.runner import Given, Judged, Log, OrderLayout, WindowGame
from engine.core.tables import Cell, Grid, ReplaceTab, Tables, WriteBlock, is_blank
from engine.core.turn import Phase

from . import absent, codec, reporter, score, stages
from .calendar import CALENDAR
from .facts import Facts, Report, new_report
from .messages import _, category
from .model import World
from .orders import describe, parse
from .ordertypes import STATE, Pass
from .phases import combat
from .phases.state import order_of_play
from .resources import HAMMERS, NATIONAL, RESOURCES
from .rules import Rules
from .vocab import (
    ARCHIVE,
    BATTLES,
    CHRONICLE,
    DISPATCHES,
    GM_LAYOUTS,
    LEDGER,
    NAME,
    ORDER_FIELDS,
    ORDERS,
    STAMP,
    TURN,
    dispatches_tab,
    orders_tab,
    realm_tab,
)

J = Judged[World, Rules]
MISSED_LIMIT = 10**6  # the seed hands no nation over (CIV-AFK-01: the GM orders for it): misses are only counted


class Civ1(WindowGame[World, Rules]):
    """What the core's window runner asks of «Civilization 1.0»: no loop of its own."""

    calendar = CALENDAR
    layout = OrderLayout(ORDER_FIELDS, STAMP, notes=("comment",))
    resources = RESOURCES
    audited = NATIONAL  # a city's hammers are an account of their own («nation/city»)

    # ---------------------------------------------------------------- reading

    def rules(self, tables: Tables) -> Rules:
        return codec.read_rules(tables)

    def decode(self, tables: Tables, at: Cursor, rules: Rules) -> World:
        return codec.decode(tables, at, rules)

    def sides(self, world: World) -> list[str]:
        return world.seats()

    def new_report(self, at: Cursor, lang: str, world: World) -> Report:
        return new_report(at, lang)

    def order_tab(self, tables: Tables, side: str, lang: str) -> OrderTab | None:
        title = next((t for t in (orders_tab(side, lang), orders_tab(side, "ru"), orders_tab(side, "en"))
                      if t in tables), None)
        if title is None:
            return None
        problems: list[Problem] = []
        grid = tables[title]
        cols = ORDERS.locate(title, grid[0] if grid else [], problems)
        if problems:
            raise CampaignError(problems)
        return OrderTab(title, side, cols, grid)

    def missing_tab(self, j: J, side: str, resolving: bool) -> None:
        j.report.warn(_("нет листа «{tab}»: у нации {nation} нет приказов")
                      .format(tab=orders_tab(side, j.lang), nation=side))

    def begin(self, j: J) -> None:
        """At the state stage each city's status of the last turn is cleared (founded, transferred,
        conquered: it skipped that turn's activation); every stage knows the turn's order of play
        (CIV-TURN-05: the state stage's step 1 says it, the cities stage runs its nations in it)."""
        if j.at.stage == STATE:
            for city in j.world.cities.values():
                city.status = ""
        j.report.facts.order = order_of_play(j.world.seats(), j.at.turn)

    def later(self, row: OrderRow, j: J) -> Cursor | None:
        """A row with a blank «Фаза» whose order is of a later stage of the turn («Активировать»
        typed during the state stage) waits for it, as if the cell named it.  Each row's parse at
        this stage is kept for `parse` (the order, or the InvalidOrder it raised): none is parsed twice."""
        later = [s.key for s in CALENDAR.stages if CALENDAR.cursor(j.at.turn, s.key) > j.at]
        if not is_blank(row.cells.get(stagerows.STAGE_FIELD)) and later:
            return None
        parsed: dict[str, Any] = j.extra.setdefault("parsed", {})
        try:
            parsed[row.ref] = parse(row, j.at.stage, j.rules, j.world)
            return None
        except InvalidOrder as e:
            parsed[row.ref] = e
        for stage in later:
            try:
                parse(row, stage, j.rules, j.world)
            except InvalidOrder:
                continue
            del parsed[row.ref]
            return CALENDAR.cursor(j.at.turn, stage)
        return None

    def past(self, was: Cursor, j: J) -> str:
        return _("фаза «{window}» уже разрешена").format(window=CALENDAR.format(was, j.lang))

    def unknown(self, row: OrderRow, j: J) -> str:
        return _("нет фазы «{stage}»; фазы хода: {stages}").format(stage=row.cells.get("stage"),
                                                                  stages=CALENDAR.listed(j.lang))

    def waits(self, when: Cursor, lang: str) -> str:
        return _("ждёт фазы «{window}»").format(window=CALENDAR.format(when, lang))

    def parse(self, row: OrderRow, j: J) -> Any:
        found = j.extra.get("parsed", {}).pop(row.ref, None)
        if found is None:
            return parse(row, j.at.stage, j.rules, j.world)
        if isinstance(found, InvalidOrder):
            raise found
        return found

    def describe(self, order: Any, j: J) -> str:
        return describe(order, j.lang, j.rules)

    def stand_ins(self, j: J, side: str) -> list[OrderRow]:
        """An absent nation's orders (CIV-AFK-01), drawn with this window's own dice."""
        return [g.row for g in absent.stand_ins(j.world, j.rules, side, j.at.stage, j.dice, j.at.key())]

    def stood_in(self, j: J, side: str) -> None:
        j.report.warn(_("{nation} не прислал приказов на «{window}»: играют приказы по умолчанию")
                      .format(nation=side, window=CALENDAR.format(j.at, j.lang)))

    def phases(self, at: Cursor) -> Sequence[Phase[Any]]:
        return stages.phases_of(at.stage)

    def unanswered(self, given: Given[Any], j: J) -> OrderResult:
        if isinstance(given.order, Pass):
            return OrderResult(Status.ACCEPTED if j.dice.blind else Status.DONE, "")
        return OrderResult(Status.REJECTED, _("приказ «{action}» пока не исполняется: нет его шага в программе")
                           .format(action=given.row.cells.get("action")))

    # ---------------------------------------------------------------- resolve

    def close(self, tables: Tables, j: J) -> None:
        """The NMR ladder at the turn's close; the state stage's letters were read (the mail
        interception): the GM fills the next."""
        ladder(tables, j)
        if j.at.stage == STATE:
            j.world.letters = []

    def tabs(self, tables: Tables, j: J) -> list[ReplaceTab]:
        """Every state tab (the GM's or public), «Порядок хода», and each nation's «Держава»: its
        state, its own ledger lines of the window and the balance of each resource."""
        lang, world = j.lang, j.world
        gm = {layout.tab_name(lang) for layout in GM_LAYOUTS}
        out = [ReplaceTab(title, grid, audience=GM if title in gm else PUBLIC)
               for title, grid in codec.encode(world, lang, j.rules).items()]
        out.append(ReplaceTab(TURN.tab_name(lang), codec.turn_grid(world, j.report.facts.order, lang),
                              audience=PUBLIC))
        own = entries_by_nation(j)
        for nation in world.seats():
            mine = own.get(nation, [])
            grid = codec.realm_grid(world, nation, j.rules, ledger_lines(j, mine), lang)
            grid += reporter.balance_rows(reporter.flows(j.opening, world, nation, mine), lang)
            out.append(ReplaceTab(realm_tab(nation, lang), grid, audience=player(nation)))
        return out

    def log(self, tables: Tables, kind: str, lang: str) -> Log | None:
        layout = {"chronicle": CHRONICLE, "ledger": LEDGER, "archive": ARCHIVE}.get(kind)
        return Log(layout.tab_name(lang), layout.header(lang)) if layout is not None else None

    def side_log(self, side: str, lang: str) -> Log:
        return Log(dispatches_tab(side, lang), DISPATCHES.header(lang))

    def quiet(self, lang: str) -> str:
        return _("окно прошло без событий")

    def logs(self, tables: Tables, j: J, stamp: Cell) -> list[WriteBlock]:
        header, fought = battle_table(j.report.facts, j.lang, j.rules, stamp)
        return session.append_rows(tables, BATTLES.tab_name(j.lang), [header], fought)

    def won(self, tables: Tables, j: J) -> Victory | None:
        """The turn that ends the game (CIV-TURN-01: the cities stage's last step found the turn ≥
        `last_turn` and a top-level technology known, `Facts.ended`) ends the campaign: the verdict."""
        if not j.report.facts.ended:
            return None
        return score.victory(j.world, j.rules, j.at.turn) or Victory(
            (), _("Игра окончена после хода {turn}.").format(turn=j.at.turn))

    def meta_grid(self, tables: Tables, j: J, nxt: Cursor, seed: str, secret: str | None) -> Grid:
        from .workbook import meta_grid

        scenario = meta.text(tables, ("Сценарий", "Scenario")) or "demo"
        return meta_grid(nxt, j.lang, secret, meta.text(tables, meta.CAMPAIGN_ID), seed, j.world.title, scenario)

    def summary(self, mode: str, j: J) -> dict[str, Any]:
        """What the CLI prints and --json shows (engine/core/summary.py): orders by status, each
        nation's movement of its resources, the window, the rows waiting for a later stage."""
        moved = movements(j.report.ledger.entries, j.world, j.world.seats(), NATIONAL, j.opening)
        sides = [summaries.SideLine(n, {**moved[n], HAMMERS.code: _hammers(j, n)}, j.world.nations[n].ai)
                 for n in j.world.seats()]
        return summaries.build(mode, NAME, j.report, RESOURCES, sides, turn=j.at.turn,
                               cursor=CALENDAR.format(j.at, j.lang), waiting=sum(len(w) for w in j.waiting.values()),
                               side_title=_("Нация"),
                               open_tabs=_("листы держав, городов, карты, боёв и журнала"))


# -------------------------------------------------------------------- helpers of the window


def battle_table(facts: Facts, lang: str, rules: Rules | None, stamp: Cell) -> tuple[list[Cell], Grid]:
    """The «Бои» log's header and the window's rows, each led by the window's stamp: phases/combat.py's
    `battle_rows(facts, lang, rules)` (a header and one row per duel, every die)."""
    grid: Grid = combat.battle_rows(facts, lang, rules)
    window = BATTLES.columns[0].header(lang)
    return [window, *grid[0]], [[stamp, *r] for r in grid[1:]]


def entries_by_nation(j: J) -> dict[str, list[LedgerEntry]]:
    """The window's postings grouped by nation (a city's «nation/city» account under its nation),
    once: looking each nation's up in the whole ledger made a resolve quadratic in the nations."""
    out: dict[str, list[LedgerEntry]] = {}
    for e in j.report.ledger.entries:
        out.setdefault(e.state.partition("/")[0], []).append(e)
    return out


def ledger_lines(j: J, entries: list[LedgerEntry]) -> list[str]:
    """A nation's own ledger lines of the window, for its «Держава» (its postings, in order)."""
    names = {r.code: r.name(j.lang) for r in RESOURCES}
    lines = []
    for e in entries:
        where = f" ({e.state.split('/', 1)[1]})" if "/" in e.state else ""
        lines.append(f"{names.get(e.resource, e.resource)}{where} {int(e.amount):+d}: {category(e.category)} — "
                     f"{e.reason}")
    return lines


def _hammer_postings(j: J) -> dict[str, list[LedgerEntry]]:
    """nation -> the window's postings to the hammers of its cities («nation/city»), grouped once
    (and again only if the ledger grew): a scan of the whole ledger per nation was quadratic."""
    entries = j.report.ledger.entries
    kept = j.extra.get("hammer_postings")
    if kept is None or kept[0] != len(entries):
        out: dict[str, list[LedgerEntry]] = {}
        for e in entries:
            if e.resource == HAMMERS.code:  # under every «nation/» the account's name starts with
                for nation in {e.state[:i] for i, ch in enumerate(e.state) if ch == "/"}:
                    out.setdefault(nation, []).append(e)
        kept = j.extra["hammer_postings"] = (len(entries), out)
    found: dict[str, list[LedgerEntry]] = kept[1]
    return found


def _hammers(j: J, nation: str) -> Movement:
    """A nation's hammers, summed over its cities (each city's store is an account of its own)."""
    mine = _hammer_postings(j).get(nation, [])
    return Movement(Fraction(sum(c.hammers for c in j.opening.cities_of(nation))),
                    sum((e.amount for e in mine if e.amount > 0), Fraction(0)),
                    -sum((e.amount for e in mine if e.amount < 0), Fraction(0)),
                    Fraction(sum(c.hammers for c in j.world.cities_of(nation))))


def ladder(tables: Tables, j: J) -> None:
    """The NMR ladder (engine/core/absence.py) at the close of a turn (its cities stage): a nation
    that sent no rows of its own in either stage has missed the turn (a stand-in is no presence);
    its «Пропущено ходов» grows, an excuse («Пропуск прощён») is spent; one that sent rows is at 0.
    Presence at the state stage is read from «Архив приказов» (the rows that stage executed)."""
    if not absence.closes_turn(CALENDAR, j.at):
        return
    state = CALENDAR.cursor(j.at.turn, STATE)
    archive = tables.get(ARCHIVE.tab_name(j.lang), [])
    earlier = {str(r[1]) for r in archive[1:] if len(r) > 2 and session.stamp_cursor(r[0], CALENDAR) == state
               and isinstance(r[2], (int, float)) and r[2] > 0}
    watched = {n: absence.Standing(x.missed, x.excused, n in earlier) for n, x in j.world.nations.items() if not x.ai}
    moved = absence.step(CALENDAR, j.at, watched, j.present, MISSED_LIMIT)
    for n, st in moved.standings.items():
        j.world.nations[n].missed, j.world.nations[n].excused = st.missed, st.excused
    for n in moved.with_verdict(absence.Verdict.WARNED):
        j.report.warn(_("{nation} пропустил ход {turn} (пропущено подряд: {missed})")
                      .format(nation=n, turn=j.at.turn, missed=moved.standings[n].missed))


__all__ = ["Civ1", "battle_table", "entries_by_nation", "ladder", "ledger_lines"]
