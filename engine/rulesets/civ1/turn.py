"""Check and resolve of the open window of a civ1 campaign («1:государство», «1:города»).

Both read every nation's «Приказы — <нация>» with the core's order-tab reader; the rows of the open
stage are parsed (orders.py's `parse`) into `Given` orders, the rows of the cities
stage written during the state stage wait (engine/core/stagerows.py), and the stage's phases run
in the seed's order (stages.phases_of) on the decoded world with the report bound to it, so every
change of a balance is a ledger posting.  A check uses blind dice and writes only the orders'
status columns; a resolve draws the window's own dice (engine.core.dice.cursor_seed) and writes the
order tabs (stamped and archived), every state tab, each nation's «Держава», the battles, the
chronicle, the ledger, the history snapshot and, last, the meta marker that opens the next window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.core import absence, draw, history, meta, ordertab, session, stagerows, window
from engine.core import summary as summaries
from engine.core.audience import GM, PUBLIC, player
from engine.core.cursor import Cursor
from engine.core.dice import Dice, cursor_seed
from engine.core.errors import CampaignError, InvalidOrder, Problem, TurnMismatch
from engine.core.ledger import LedgerEntry, Movement, movements
from engine.core.orders import OrderResult, OrderRow, Status
from engine.core.ordertab import OrderTab
from engine.core.ruleset import SyncResult, Victory
from engine.core.tables import Cell, Changeset, Grid, ReplaceTab, Tables, is_blank

from . import absent, codec, reporter, score, stages
from .calendar import CALENDAR
from .facts import Facts, Report, new_report
from .messages import _, category
from .model import World
from .orders import describe, parse
from .ordertypes import STATE, Given, Pass
from .phases import combat
from .phases.state import order_of_play
from .resources import HAMMERS, NATIONAL, RESOURCES
from .rules import Rules
from .vocab import (
    ARCHIVE,
    BATTLES,
    CHRONICLE,
    GM_LAYOUTS,
    LEDGER,
    META,
    NAME,
    ORDER_FIELDS,
    ORDERS,
    STAMP,
    TURN,
    orders_tab,
    realm_tab,
)

OnPhase = Callable[[str], None]


@dataclass
class Judged:
    """One window judged: the world before and after, the rules, the report, each nation's order
    tab (its `rows` the rows judged now) and the rows that wait for a later stage, by tab."""

    at: Cursor
    lang: str
    rules: Rules
    opening: World
    world: World
    report: Report
    tabs: dict[str, OrderTab] = field(default_factory=dict)
    waiting: dict[str, dict[int, tuple[OrderRow, Cursor]]] = field(default_factory=dict)
    present: set[str] = field(default_factory=set)  # the nations that sent rows of their own here


def open_window(tables: Tables, expect_turn: int | None = None) -> Cursor:
    """The open window; TurnMismatch (nothing changed) when a turn was asked that is not open."""
    at = meta.open_cursor(tables, CALENDAR)
    if expect_turn is not None and expect_turn != at.turn:
        raise TurnMismatch(_("Открыт ход «{window}», а просили разрешить ход {turn}. Ничего не изменено.")
                           .format(window=CALENDAR.format(at, meta.lang(tables) or "ru"), turn=expect_turn))
    return at


def _order_tab(tables: Tables, nation: str, lang: str) -> OrderTab | None:
    title = next((t for t in (orders_tab(nation, lang), orders_tab(nation, "ru"), orders_tab(nation, "en"))
                  if t in tables), None)
    if title is None:
        return None
    problems: list[Problem] = []
    grid = tables[title]
    cols = ORDERS.locate(title, grid[0] if grid else [], problems)
    if problems:
        raise CampaignError(problems)
    return OrderTab(title, nation, cols, grid)


def _start_of_stage(world: World, at: Cursor) -> None:
    """What a new window clears: at the state stage, each city's status of the last turn
    (founded / transferred / conquered: it skipped that turn's activation)."""
    if at.stage == STATE:
        for city in world.cities.values():
            city.status = ""


def _later_by_action(split: stagerows.StageSplit, at: Cursor,
                     parse: Callable[[OrderRow, str], Any]) -> dict[str, Any]:
    """Rows with a blank «Фаза» cell whose order is of a later stage of the turn («Активировать»
    typed during the state stage) wait for it, as if the cell named it (spec §2: a player fills
    both stages at once); `split` is changed so.  Returns each open-stage row's parse (the order, or
    the InvalidOrder it raised), so that no row is parsed twice."""
    out: dict[str, Any] = {}
    later = [s.key for s in CALENDAR.stages if CALENDAR.cursor(at.turn, s.key) > at]
    for row in list(split.now):
        if not is_blank(row.cells.get(stagerows.STAGE_FIELD)) and later:
            continue
        try:
            out[row.ref] = parse(row, at.stage)
            continue
        except InvalidOrder as e:
            out[row.ref] = e
        for stage in later:
            try:
                parse(row, stage)
            except InvalidOrder:
                continue
            split.now.remove(row)
            split.waiting.append((row, CALENDAR.cursor(at.turn, stage)))
            del out[row.ref]
            break
    return out


def judge(tables: Tables, at: Cursor, dice: Dice, on_phase: OnPhase | None = None) -> Judged:
    """Rule every row of every nation's order tab at window `at`, running the stage's phases."""
    lang = meta.lang(tables) or "ru"
    rules = codec.read_rules(tables)
    world = codec.decode(tables, at, rules)
    opening = world.copy()
    _start_of_stage(world, at)
    report = new_report(at, lang)
    report.bind(world)
    if (recount := draw.chronicle_line(tables)) is not None:  # the window a rollback reopened
        report.tell(recount)
    # the turn's order of play in every stage (CIV-TURN-05): the state stage's step 1 says it again,
    # the cities stage runs its nations in it (CIV-TURN-04; G2: the first of them gets a contested wonder)
    report.facts.order = order_of_play(world.seats(), at.turn)
    out = Judged(at, lang, rules, opening, world, report)
    placeholders: dict[str, OrderResult] = {}  # each parsed row's echo, until a phase answers it
    orders: dict[str, list[Given]] = {}
    for nation in world.seats():
        ot = _order_tab(tables, nation, lang)
        if ot is None:
            report.warn(_("нет листа «{tab}»: у нации {nation} нет приказов")
                        .format(tab=orders_tab(nation, lang), nation=nation))
            continue
        read = [r for r, _stamp in ordertab.candidate_rows(ot, ORDER_FIELDS, STAMP, notes=("comment",),
                                                            cursor=at.key())]
        split = stagerows.split(read, CALENDAR, at)
        parsed = _later_by_action(split, at, lambda row, stage: parse(row, stage, rules, world))
        for row, was in split.past:
            report.result(row.ref, Status.REJECTED,
                          _("фаза «{window}» уже разрешена").format(window=CALENDAR.format(was, lang)))
        for row in split.unknown:
            report.result(row.ref, Status.REJECTED, _("нет фазы «{stage}»; фазы хода: {stages}")
                          .format(stage=row.cells.get("stage"), stages=CALENDAR.listed(lang)))
        out.waiting[ot.tab] = {row.row: (row, when) for row, when in split.waiting}
        ot.rows = [*split.now, *(r for r, _w in split.past), *split.unknown]
        ot.rows.sort(key=lambda r: r.row)
        out.tabs[ot.tab] = ot
        def stand_ins(side: str) -> list[OrderRow]:  # drawn with this window's own dice
            return [g.row for g in absent.stand_ins(world, rules, side, at.stage, dice, at.key())]

        came = absence.attendance({nation: split.now}, (nation,), stand_ins)
        if nation in came.present:
            out.present.add(nation)
        if nation in came.stood_in:
            report.warn(_("{nation} не прислал приказов на «{window}»: играют приказы по умолчанию")
                        .format(nation=nation, window=CALENDAR.format(at, lang)))
        given: list[Given] = []
        for row in came.rows[nation]:
            try:
                order = parsed[row.ref] if row.ref in parsed else parse(row, at.stage, rules, world)
                if isinstance(order, InvalidOrder):
                    raise order
                given.append(Given(row, order))
                placeholders[row.ref] = OrderResult(Status.ACCEPTED, "", describe(order, lang, rules))
                report.results[row.ref] = placeholders[row.ref]  # the echo, kept by a phase's result
            except InvalidOrder as e:
                report.result(row.ref, Status.REJECTED, str(e))
        orders[nation] = given
    for phase in stages.phases_of(at.stage):
        world = phase.run(world, orders, dice, rules, report)
        report.bind(world)
        if on_phase is not None:
            on_phase(phase.name)
    for given in (g for rows in orders.values() for g in rows):
        if report.results.get(given.row.ref) is not placeholders.get(given.row.ref):
            continue  # a phase answered it
        if isinstance(given.order, Pass):
            report.result(given.row.ref, Status.ACCEPTED if dice.blind else Status.DONE, "")
        else:
            report.result(given.row.ref, Status.REJECTED, _("приказ «{action}» пока не исполняется: нет его шага "
                                                            "в программе").format(action=given.row.cells.get("action")))
    report.facts.dice = list(dice.log)  # the window's rolls, for the reports and the scenarios' `expect.rolls`
    out.world = world
    return out


def _waiting_words(j: Judged, tab: str) -> dict[int, tuple[OrderRow, OrderResult]]:
    word = _("ждёт фазы «{window}»")
    return {r: (row, OrderResult(Status.HISTORY, word.format(window=CALENDAR.format(when, j.lang))))
            for r, (row, when) in j.waiting.get(tab, {}).items()}


def _hammer_postings(j: Judged) -> dict[str, list[LedgerEntry]]:
    """nation -> the window's postings to the hammers of its cities («nation/city»), grouped once
    (and again only if the ledger grew): a scan of the whole ledger per nation was quadratic."""
    entries = j.report.ledger.entries
    kept = j.__dict__.get("_hammer_postings")
    if kept is None or kept[0] != len(entries):
        out: dict[str, list[LedgerEntry]] = {}
        for e in entries:
            if e.resource == HAMMERS.code:  # under every «nation/» the account's name starts with
                for nation in {e.state[:i] for i, ch in enumerate(e.state) if ch == "/"}:
                    out.setdefault(nation, []).append(e)
        kept = j.__dict__["_hammer_postings"] = (len(entries), out)
    return kept[1]


def _hammers(j: Judged, nation: str) -> Movement:
    """A nation's hammers, summed over its cities (each city's store is an account of its own)."""
    mine = _hammer_postings(j).get(nation, [])
    return Movement(Fraction(sum(c.hammers for c in j.opening.cities_of(nation))),
                    sum((e.amount for e in mine if e.amount > 0), Fraction(0)),
                    -sum((e.amount for e in mine if e.amount < 0), Fraction(0)),
                    Fraction(sum(c.hammers for c in j.world.cities_of(nation))))


def summary(mode: str, j: Judged) -> dict[str, Any]:
    """What the CLI prints and --json shows (engine/core/summary.py): orders by status, each
    nation's movement of its resources, the window, the rows waiting for a later stage."""
    moved = movements(j.report.ledger.entries, j.world, j.world.seats(), NATIONAL, j.opening)
    sides = [summaries.SideLine(n, {**moved[n], HAMMERS.code: _hammers(j, n)}, j.world.nations[n].ai)
             for n in j.world.seats()]
    return summaries.build(mode, NAME, j.report, RESOURCES, sides, turn=j.at.turn,
                           cursor=CALENDAR.format(j.at, j.lang), waiting=sum(len(w) for w in j.waiting.values()),
                           side_title=_("Нация"),
                           open_tabs=_("листы держав, городов, карты, боёв и журнала"))


def check(tables: Tables, on_phase: OnPhase | None = None, expect: Cursor | None = None) -> SyncResult:
    """Rule the open window's rows with blind dice; write only their status columns (a row of a
    later stage says it waits)."""
    window.expect(tables, CALENDAR, expect)
    at = open_window(tables)
    j = judge(tables, at, Dice.blind_dice(), on_phase)
    j.report.results.update({ref: ordertab.as_checked(res) for ref, res in j.report.results.items()})
    changes = Changeset()
    for tab, ot in j.tabs.items():
        later = _waiting_words(j, tab)
        shown = OrderTab(ot.tab, ot.side, ot.cols, ot.grid,
                         rows=sorted([*ot.rows, *(row for row, _w in later.values())], key=lambda r: r.row))
        words = {**j.report.results, **{row.ref: w for row, w in later.values()}}
        changes.blocks += ordertab.status_strips(shown, words, j.lang, STAMP)
    return SyncResult("check", at.turn, changes, j.report, j.world, summary("check", j))


def battle_table(facts: Facts, lang: str, rules: Rules | None, stamp: Cell) -> tuple[list[Cell], Grid]:
    """The «Бои» log's header and the window's rows, each led by the window's stamp: phases/combat.py's
    `battle_rows(facts, lang, rules)` (a header and one row per duel, every die)."""
    grid: Grid = combat.battle_rows(facts, lang, rules)
    window = BATTLES.columns[0].header(lang)
    return [window, *grid[0]], [[stamp, *r] for r in grid[1:]]


def _own_lines(j: Judged, nation: str, entries: list[LedgerEntry] | None = None) -> list[str]:
    """A nation's private lines of the window: what only it learned, then its own ledger lines
    (`entries`: the nation's own postings when the caller grouped them, else looked up here)."""
    lines = list(j.report.facts.private.get(nation, []))
    names = {r.code: r.name(j.lang) for r in RESOURCES}
    if entries is None:
        entries = [e for e in j.report.ledger.entries if e.state.partition("/")[0] == nation]
    for e in entries:
        where = f" ({e.state.split('/', 1)[1]})" if "/" in e.state else ""
        lines.append(f"{names.get(e.resource, e.resource)}{where} {int(e.amount):+d}: {category(e.category)} — "
                     f"{e.reason}")
    return lines


def entries_by_nation(j: Judged) -> dict[str, list[LedgerEntry]]:
    """The window's postings grouped by nation (a city's «nation/city» account under its nation),
    once: looking each nation's up in the whole ledger made a resolve quadratic in the nations."""
    out: dict[str, list[LedgerEntry]] = {}
    for e in j.report.ledger.entries:
        out.setdefault(e.state.partition("/")[0], []).append(e)
    return out


MISSED_LIMIT = 10**6  # the seed hands no nation over (CIV-AFK-01: the GM orders for it): misses are only counted


def ladder(tables: Tables, j: Judged) -> None:
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


def resolve(tables: Tables, expect_turn: int | None = None, seed: str | None = None, secret: str | None = None,
            on_phase: OnPhase | None = None) -> SyncResult:
    """Resolve the open window with the dice of `secret` (or the revealed `seed`: verify's re-run)."""
    at = open_window(tables, expect_turn)
    if seed is None:
        if not secret:
            raise CampaignError(_("без секрета ведущего не бросить кости окна: фаза не разрешена"))
        seed = cursor_seed(secret, at)
    j = judge(tables, at, Dice(seed), on_phase)
    lang, world, report = j.lang, j.world, j.report
    ladder(tables, j)
    if at.stage == STATE:
        world.letters = []  # the state stage's letters were read (the mail interception); the GM fills the next
    stamp = session.stamp(at, CALENDAR, lang)
    changes = Changeset()
    archived: Grid = []
    for tab, ot in j.tabs.items():
        grid, archive = ordertab.resolved_grid(ot, report.results, stamp, lang, ORDER_FIELDS, STAMP,
                                               waiting=set(j.waiting.get(tab, {})))
        archived += archive
        changes.replace.append(ReplaceTab(ot.tab, grid, audience=player(ot.side)))
    gm = {layout.tab_name(lang) for layout in GM_LAYOUTS}
    for title, grid in codec.encode(world, lang, j.rules).items():
        changes.replace.append(ReplaceTab(title, grid, audience=GM if title in gm else PUBLIC))
    changes.replace.append(ReplaceTab(TURN.tab_name(lang), codec.turn_grid(world, report.facts.order, lang),
                                      audience=PUBLIC))
    own = entries_by_nation(j)
    for nation in world.seats():
        grid = codec.realm_grid(world, nation, j.rules, _own_lines(j, nation, own.get(nation, [])), lang)
        grid += reporter.balance_rows(reporter.flows(j.opening, world, nation, own.get(nation, [])), lang)
        changes.replace.append(ReplaceTab(realm_tab(nation, lang), grid, audience=player(nation)))
    told = list(report.chronicle) or [_("окно прошло без событий")]
    header, fought = battle_table(report.facts, lang, j.rules, stamp)
    changes.blocks += session.append_rows(tables, BATTLES.tab_name(lang), [header], fought)
    changes.blocks += session.append_rows(tables, CHRONICLE.tab_name(lang), [CHRONICLE.header(lang)],
                                          [[stamp, line] for line in told])
    ledger = [[stamp, e.state, e.resource, e.phase, e.category, int(e.amount), e.reason, e.order_ref or None]
              for e in report.ledger.entries]
    changes.blocks += session.append_rows(tables, LEDGER.tab_name(lang), [LEDGER.header(lang)], ledger)
    changes.blocks += session.append_rows(tables, ARCHIVE.tab_name(lang), [ARCHIVE.header(lang)], archived)
    changes.blocks += session.history_blocks(tables, at)
    from .workbook import meta_grid

    scenario = meta.text(tables, ("Сценарий", "Scenario")) or "demo"
    grid = meta_grid(session.advance(CALENDAR, at), lang, secret, meta.text(tables, meta.CAMPAIGN_ID), seed,
                     world.title, scenario)
    tab = meta.meta_tab(tables) or META.tab_name(lang)
    won = ending(j)  # the turn that ends the game (CIV-TURN-01) ends the campaign instead of opening a window
    changes.marker.append(session.meta_marker(tables, tab, grid) if won is None
                          else session.finished_marker(tables, tab, grid, won, lang))
    return SyncResult("resolve", at.turn, changes, report, world, summary("resolve", j))


def ending(j: Judged) -> Victory | None:
    """The verdict when this window ends the game (the cities stage's last step found the turn ≥
    `last_turn` and a top-level technology known: `Facts.ended`), else None."""
    if not j.report.facts.ended:
        return None
    return score.victory(j.world, j.rules, j.at.turn) or Victory(
        (), _("Игра окончена после хода {turn}.").format(turn=j.at.turn))


def last_resolved(tables: Tables) -> int:
    """The last turn a window of which is resolved (0 before any)."""
    kept = history.entries(tables)
    return kept[-1].turn if kept else 0
