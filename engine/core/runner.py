"""The window runner: one pass of `check` or `resolve` of the open window, for every game.

Like godip's judge, the core drives every window and a game only answers questions about its
world. One pass:

1. bind the game to the campaign (`WindowGame.bind`: a game that decodes its campaign once per
   pass, its tabs followed by their ids on Google), read its rules and world at the open window
   (`rules`, `decode`) and who may act in it (`Window.participants`, the meta's «Ходят» row;
   every side when it has none);
2. read each participant's order tab (the core's order-tab reader, engine/core/ordertab.py), leave
   out the rows an older campaign left as history (`settled`) and split the rest by window
   (engine/core/stagerows.py): rows of a later window wait, untouched; a non-participant's rows
   wait too: a check tells that side why, a resolve does not write its tab;
3. stand-in orders for a participant that sent none (`WindowGame.stand_ins`: the game's default
   orders, played like a player's, no presence for the NMR ladder);
4. parse every row (`parse`, `describe`; `refused` words a row that does not parse), look across
   the rows read (`ready`), then run the window's phases in order (`phases`; the progress bar
   hears each) and answer every row no phase answered (`unanswered`);
5. audit: per side and per resource, opening + postings = closing, or a loud error; on resolve,
   the NMR ladder of a game that keeps one (`WindowGame.missed_limit`), watching the participants;
6. a check writes only the status strips -- a game whose order of play is drawn (`lot_probe`) is
   judged once more with that order reversed, and a row whose result differs says so (`by_lot`);
   a resolve writes the order tabs (stamped, archived),
   the world's tabs (`tabs`), the chronicle (public lines), each side's own log (its lines),
   the ledger, the archive, the game's other logs (`logs`), the history snapshot and, last, the
   meta marker of the window the game opens next (`next_window`), or of the game's end (`won`).

A game subclasses `WindowGame` and writes only what differs from its defaults: it holds no
loop of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

from . import absence, draw, ending, meta, ordertab, session, stagerows
from . import window as windows
from .audience import GM, PUBLIC, Audience, player
from .cursor import Calendar, Cursor
from .dice import Dice, cursor_seed
from .ending import Victory
from .errors import CampaignError, InvalidOrder, Problem
from .ledger import Accounts, Resource
from .messages import _
from .orders import OrderResult, OrderRow, Status
from .ordertab import OrderTab
from .tables import Cell, Changeset, Grid, ReplaceTab, Tables, WriteBlock
from .turn import Phase, TurnReport

W = TypeVar("W")  # the game's world
R = TypeVar("R")  # the game's rules
O = TypeVar("O")  # noqa: E741  # one parsed order

OnPhase = Callable[[str], None]
PARTICIPANTS = ("Ходят", "To move")  # the meta row: who may act in the open window
MOVER = ("Ходит", "To move")  # the same row when one side alone may act («Ходит: Афины»)


@dataclass(frozen=True)
class Window:
    """One order window: its cursor and the sides that may act in it, in the order they act."""

    cursor: Cursor
    participants: tuple[str, ...]

    @property
    def kind(self) -> str:
        """What sort of window it is: its stage's key ('' in a one-stage game)."""
        return self.cursor.stage

    def takes(self, side: str) -> bool:
        return side in self.participants


@dataclass(frozen=True)
class OrderLayout:
    """How a game's order rows are read: the fields a player writes (`fields`; a row with any of
    them filled, except `notes`, is an order), the column resolve stamps (`stamp`), the inputs the
    archive keeps (`archived`, default `fields`) and the field that names a row's stage."""

    fields: tuple[str, ...]
    stamp: str = ordertab.STAMP_KEY
    notes: tuple[str, ...] = ()
    archived: tuple[str, ...] | None = None
    stage: str = stagerows.STAGE_FIELD


@dataclass(frozen=True)
class Log:
    """An append-only tab a resolve writes to: its title and header in the campaign's language."""

    tab: str
    header: list[Cell]


@dataclass
class Given(Generic[O]):
    """An order row and the order the game read in it."""

    row: OrderRow
    order: O


@dataclass
class Judged(Generic[W, R]):
    """One window judged: the world before and after, the rules, the report, the dice, each order
    tab read (its `rows` the rows judged now), the rows that wait (a later window of theirs, by tab)
    and the rows of sides that are not participants (by tab), and the parsed orders by side."""

    window: Window
    lang: str
    rules: R
    opening: W
    world: W
    report: TurnReport[Any]
    dice: Dice
    tabs: dict[str, OrderTab] = field(default_factory=dict)
    waiting: dict[str, dict[int, tuple[OrderRow, Cursor]]] = field(default_factory=dict)
    idle: dict[str, list[OrderRow]] = field(default_factory=dict)
    orders: dict[str, list[Given[Any]]] = field(default_factory=dict)
    present: set[str] = field(default_factory=set)  # participants that sent rows of their own
    stood_in: set[str] = field(default_factory=set)  # participants played by stand-ins
    ladder: absence.Ladder | None = None  # the NMR ladder after this window (a resolve, `missed_limit` set)
    extra: dict[str, Any] = field(default_factory=dict)  # the game's own notes of the window
    probe: Judged[W, R] | None = None  # a check's second run with the order of play reversed (`lot_probe`)
    lot: set[str] = field(default_factory=set)  # refs whose result the order of play changes (`lot_probe`)

    @property
    def at(self) -> Cursor:
        return self.window.cursor


class WindowGame(Generic[W, R]):
    """What a game gives the runner. Subclass it and override what differs; the abstract members
    raise NotImplementedError. Every member takes what it needs and returns values: none writes."""

    calendar: Calendar
    layout: OrderLayout
    resources: tuple[Resource, ...] = ()
    audited: tuple[Resource, ...] | None = None  # the resources the runner audits per side (default: all)
    lot_probe: bool = False  # a check runs the window again with the order of play reversed (see `by_lot`)

    def bind(self, tables: Tables, tab_ids: dict[str, str] | None) -> WindowGame[W, R]:
        """The game for one pass over `tables` (the runner binds before every pass): itself by
        default. A game that reads its whole campaign at once (its world, rules and order tabs in
        one decode; tabs followed by their stable ids `tab_ids` on Google) returns a new instance
        that holds what it read, so its other members answer from it."""
        return self

    # ---------------------------------------------------------------- reading

    def lang(self, tables: Tables) -> str:
        return meta.lang(tables) or "ru"

    def rules(self, tables: Tables) -> R:
        raise NotImplementedError

    def decode(self, tables: Tables, at: Cursor, rules: R) -> W:
        """The world as the campaign holds it while `at` is open."""
        raise NotImplementedError

    def copy(self, world: W) -> W:
        return world.copy()  # type: ignore[attr-defined, no-any-return]

    def sides(self, world: W) -> Sequence[str]:
        """Every side that plays, in the game's order."""
        raise NotImplementedError

    def new_report(self, at: Cursor, lang: str, world: W) -> TurnReport[Any]:
        raise NotImplementedError

    def order_tab(self, tables: Tables, side: str, lang: str) -> OrderTab | None:
        """`side`'s order tab as read (None: it has none)."""
        raise NotImplementedError

    def missing_tab(self, j: Judged[W, R], side: str, resolving: bool) -> None:
        """A participant without an order tab: a warning by default (a game may refuse the resolve)."""
        j.report.warn(_("у стороны {side} нет листа приказов: её приказы не прочитаны").format(side=side))

    def begin(self, j: Judged[W, R]) -> None:
        """What the window does before any row is read (the order of play, the window's own rolls)."""

    def prepare(self, row: OrderRow, j: Judged[W, R]) -> OrderRow:
        """A row as the stage split sees it (a game may fill a blank stage cell from the order's word)."""
        return row

    def settled(self, row: OrderRow, stamp: Cell, j: Judged[W, R]) -> bool:
        """Whether a row with input is history, not an order: a row an older campaign left filled
        after its window was resolved (`stamp` is the window written in it). It is not judged nor
        archived: a check leaves it as it is, a resolve clears it like every row it did not
        execute. False by default."""
        return False

    def later(self, row: OrderRow, j: Judged[W, R]) -> Cursor | None:
        """A later window of the turn a row with a blank stage cell belongs to, when it is not this
        window's order (e.g. it parses only at a later stage); None: it is this window's."""
        return None

    def past(self, was: Cursor, j: Judged[W, R]) -> str:
        """Why a row naming an earlier window of the turn is refused."""
        return _("фаза «{window}» уже разрешена").format(window=self.calendar.format(was, j.lang))

    def unknown(self, row: OrderRow, j: Judged[W, R]) -> str:
        """Why a row naming no stage of the calendar is refused."""
        return _("нет фазы «{stage}»; фазы хода: {stages}").format(stage=row.cells.get(self.layout.stage),
                                                                  stages=self.calendar.listed(j.lang))

    def waits(self, when: Cursor, lang: str) -> str:
        """What a check says of a row that waits for the later window `when`."""
        return _("ждёт фазы «{window}»").format(window=self.calendar.format(when, lang))

    def parse(self, row: OrderRow, j: Judged[W, R]) -> Any:
        """The order a row holds at this window: InvalidOrder in words otherwise."""
        raise NotImplementedError

    def describe(self, order: Any, j: Judged[W, R]) -> str:
        """The order as understood, for the row's echo."""
        return ""

    def refused(self, row: OrderRow, error: InvalidOrder, j: Judged[W, R]) -> OrderResult:
        """The result of a row `parse` refused: rejected with the error's words (a game may add an
        echo of what was typed)."""
        return OrderResult(Status.REJECTED, str(error))

    def stand_ins(self, j: Judged[W, R], side: str) -> list[OrderRow]:
        """The orders a participant that sent none plays (`absence.stand_in` rows); [] by default."""
        return []

    def stood_in(self, j: Judged[W, R], side: str) -> None:
        """Tell the GM that `side` is played by stand-ins."""
        j.report.warn(_("{side} не прислал приказов на «{window}»: играют приказы по умолчанию")
                      .format(side=side, window=self.calendar.format(j.at, j.lang)))

    # ---------------------------------------------------------------- the NMR ladder (opt-in)

    missed_limit: int | None = None  # misses in a row that hand a side over; None: the game keeps no ladder

    def standings(self, j: Judged[W, R]) -> dict[str, absence.Standing]:
        """Every side's place on the ladder as the world holds it (asked when `missed_limit` is set);
        leave out a side the ladder no longer watches (handed over)."""
        raise NotImplementedError

    def closes_ladder(self, j: Judged[W, R]) -> bool | None:
        """Whether the ladder judges at this window: None, the calendar's rule (`absence.closes_turn`);
        a game of one-player windows says True (each window is its mover's turn)."""
        return None

    def keep_standings(self, j: Judged[W, R], ladder: absence.Ladder) -> None:
        """Keep the ladder's new standings (of this window's participants alone) in the world, and say
        what a side's verdict means (a side that reached the limit is the game's to hand over)."""
        raise NotImplementedError

    def ready(self, j: Judged[W, R]) -> None:
        """What the window does once every row is read, before its phases (checks across a side's
        rows, facts the phases need: who sent orders)."""

    def phases(self, at: Cursor) -> Sequence[Phase[Any]]:
        """The window's phases, in order: `run(world, orders, dice, rules, report) -> world`."""
        raise NotImplementedError

    def unanswered(self, given: Given[Any], j: Judged[W, R]) -> OrderResult:
        """The result of an order no phase answered."""
        return OrderResult(Status.REJECTED, _("приказ не исполнен: ни один шаг хода до него не дошёл"))

    def after(self, j: Judged[W, R]) -> None:
        """What the window does after its phases (both in check and in resolve)."""

    # ---------------------------------------------------------------- check

    def checked(self, j: Judged[W, R], tables: Tables) -> None:
        """A check's last word on its results: by default a row that would be done shows as
        accepted, and a row whose result the order of play changes (`lot_probe`) says so (`by_lot`)."""
        j.report.results.update({ref: self.by_lot(res, j) if ref in j.lot else ordertab.as_checked(res)
                                 for ref, res in j.report.results.items()})

    def by_lot(self, result: OrderResult, j: Judged[W, R]) -> OrderResult:
        """What a check shows for a row whose result differs when the order of play is reversed:
        accepted, its result left to the resolve's lot."""
        return OrderResult(Status.ACCEPTED, _("исход зависит от очерёдности хода"), result.understood)

    # ---------------------------------------------------------------- resolve

    def close(self, tables: Tables, j: Judged[W, R]) -> None:
        """What a resolve does before it writes (the NMR ladder, spent letters)."""

    def tabs(self, tables: Tables, j: Judged[W, R]) -> list[ReplaceTab]:
        """The world's tabs after the window, each with its audience."""
        raise NotImplementedError

    def log(self, tables: Tables, kind: str, lang: str) -> Log | None:
        """The log tab of `kind` ("chronicle", "ledger", "archive"): None when the game keeps none."""
        return None

    def side_log(self, side: str, lang: str) -> Log:
        """`side`'s own log: every line told to that side, window after window, in its own book."""
        if lang == "en":
            return Log(f"Dispatches — {side}", ["Window", "Entry"])
        return Log(f"Донесения — {side}", ["Окно", "Запись"])

    def gm_log(self, lang: str) -> Log:
        """The GM's own log: every line told to the GM alone (`tell(text, to=GM)`), in the GM's book only."""
        if lang == "en":
            return Log("GM notes", ["Window", "Entry"])
        return Log("Записки ведущего", ["Окно", "Запись"])

    def chronicle(self, tables: Tables, j: Judged[W, R], lines: list[str]) -> list[str]:
        """The window's public chronicle lines (empty: the runner writes that nothing happened)."""
        return lines

    def quiet(self, lang: str) -> str:
        return "nothing happened in this window" if lang == "en" else _("окно прошло без событий")

    def ledger_rows(self, j: Judged[W, R], stamp: Cell) -> Grid:
        """The window's ledger lines, each led by the window's stamp."""
        return [[stamp, e.side, e.resource, e.phase, e.category, int(e.amount), e.reason, e.order_ref or None]
                for e in j.report.ledger.entries]

    def logs(self, tables: Tables, j: Judged[W, R], stamp: Cell) -> list[WriteBlock]:
        """The game's other log appends (a battle log)."""
        return []

    def extra_writes(self, tables: Tables, j: Judged[W, R], changes: Changeset) -> None:
        """Anything else a resolve writes (a registry of tabs), added to `changes`."""

    def next_window(self, tables: Tables, j: Judged[W, R]) -> Window:
        """The window that opens after this one. Default: the calendar's next cursor, open to every side."""
        return Window(session.advance(self.calendar, j.at), tuple(self.sides(j.world)))

    def won(self, tables: Tables, j: Judged[W, R]) -> Victory | None:
        """Whether this window ends the game, and how (engine/core/ending.py): None while it goes on.
        The resolve then writes the finished meta, and further check/resolve are refused."""
        return None

    def meta_grid(self, tables: Tables, j: Judged[W, R], nxt: Cursor, seed: str, secret: str | None) -> Grid:
        """The meta tab with `nxt` open (a game over keeps its last cursor)."""
        raise NotImplementedError

    def summary(self, mode: str, j: Judged[W, R]) -> dict[str, Any]:
        raise NotImplementedError


# -------------------------------------------------------------------- the window


def participants(tables: Tables, sides: Sequence[str]) -> tuple[str, ...]:
    """Who may act in the open window: the meta's «Ходят» row («Ходит» for one side; names of
    `sides`, by commas), else every side. A name there that is no side is a CampaignError naming the cell."""
    written = meta.text(tables, (*PARTICIPANTS, MOVER[0]))
    if not written:
        return tuple(sides)
    named = [n.strip() for n in written.split(",") if n.strip()]
    unknown = [n for n in named if n not in sides]
    if unknown:
        raise CampaignError(_("на листе «{tab}» в строке «{label}» нет такой стороны: {names}; стороны: {sides}")
                            .format(tab=meta.meta_tab(tables) or meta.META_TABS[0], label=PARTICIPANTS[0],
                                    names=", ".join(unknown), sides=", ".join(sides)))
    return tuple(n for n in sides if n in named)


def _idle_word(j: Judged[Any, Any], game: WindowGame[Any, Any]) -> OrderResult:
    """What a check tells a side that may not act in the open window: whose window it is, and that its row waits."""
    movers = ", ".join(j.window.participants) or "—"
    text = (_("не ваше окно: в «{window}» ходит {movers} — строка ждёт вашего окна")
            if len(j.window.participants) == 1 else
            _("не ваше окно: в «{window}» ходят {movers} — строка ждёт вашего окна"))
    return OrderResult(Status.HISTORY, text.format(window=game.calendar.format(j.at, j.lang), movers=movers))


def climb(game: WindowGame[Any, Any], j: Judged[Any, Any]) -> None:
    """The NMR ladder after a resolved window (a game with `missed_limit`): only this window's
    participants are watched -- a side that may not act here neither sends nor misses -- and a
    stand-in is no presence (`Judged.present`)."""
    if game.missed_limit is None:
        return
    watched = {side: st for side, st in game.standings(j).items() if j.window.takes(side)}
    j.ladder = absence.step(game.calendar, j.at, watched, j.present, game.missed_limit,
                            closing=game.closes_ladder(j))
    game.keep_standings(j, j.ladder)


def _waiting_word(game: WindowGame[Any, Any], when: Cursor, lang: str) -> OrderResult:
    return OrderResult(Status.HISTORY, game.waits(when, lang))


def judge(game: WindowGame[W, R], tables: Tables, dice: Dice, on_phase: OnPhase | None = None,
          resolving: bool = False) -> Judged[W, R]:
    """Rule every row of every participant's order tab at the open window, running its phases."""
    lang = game.lang(tables)
    rules = game.rules(tables)
    at = meta.open_cursor(tables, game.calendar)
    world = game.decode(tables, at, rules)
    win = Window(at, participants(tables, list(game.sides(world))))
    report = game.new_report(at, lang, world)
    report.bind(world)  # type: ignore[arg-type]
    j: Judged[W, R] = Judged(win, lang, rules, game.copy(world), world, report, dice)
    if (recount := draw.chronicle_line(tables)) is not None:  # the window a rollback reopened
        report.tell(recount)
    game.begin(j)
    layout = game.layout
    placeholders: dict[str, OrderResult] = {}
    for side in game.sides(j.world):
        ot = game.order_tab(tables, side, lang)
        if ot is None:
            if win.takes(side):
                game.missing_tab(j, side, resolving)
            continue
        read = []
        for r, stamp in ordertab.candidate_rows(ot, layout.fields, layout.stamp, notes=layout.notes,
                                                cursor=at.key() if game.calendar.staged else ""):
            if game.settled(r, stamp, j):
                ot.history.append(r.row)
            else:
                read.append(game.prepare(r, j))
        j.tabs[ot.tab] = ot
        if not win.takes(side):
            j.idle[ot.tab] = read
            ot.rows = []
            continue
        split = stagerows.split(read, game.calendar, at, layout.stage)
        for row in list(split.now):
            if (when := game.later(row, j)) is not None:
                split.now.remove(row)
                split.waiting.append((row, when))
        for row, was in split.past:
            report.result(row.ref, Status.REJECTED, game.past(was, j))
        for row in split.unknown:
            report.result(row.ref, Status.REJECTED, game.unknown(row, j))
        j.waiting[ot.tab] = {row.row: (row, when) for row, when in split.waiting}
        ot.rows = sorted([*split.now, *(r for r, _w in split.past), *split.unknown], key=lambda r: r.row)
        came = absence.attendance({side: split.now}, (side,), lambda s: game.stand_ins(j, s))
        if side in came.present:
            j.present.add(side)
        if side in came.stood_in:
            j.stood_in.add(side)
            game.stood_in(j, side)
        given: list[Given[Any]] = []
        for row in came.rows[side]:
            try:
                order = game.parse(row, j)
            except InvalidOrder as e:
                report.results[row.ref] = game.refused(row, e, j)
                continue
            given.append(Given(row, order))
            placeholders[row.ref] = OrderResult(Status.ACCEPTED, "", game.describe(order, j))
            report.results[row.ref] = placeholders[row.ref]  # the echo, kept by a phase's result
        j.orders[side] = given
    game.ready(j)
    for phase in game.phases(at):
        j.world = phase.run(j.world, j.orders, dice, rules, report)
        report.bind(j.world)  # type: ignore[arg-type]
        if on_phase is not None:
            on_phase(phase.name)
    for given in (g for rows in j.orders.values() for g in rows):
        if report.results.get(given.row.ref) is placeholders.get(given.row.ref):
            report.results[given.row.ref] = _with_echo(game.unanswered(given, j), placeholders[given.row.ref])
    game.after(j)
    if hasattr(report.facts, "dice"):
        report.facts.dice = list(dice.log)
    audit(game, j)
    return j


def _with_echo(result: OrderResult, placeholder: OrderResult) -> OrderResult:
    return result if result.understood else OrderResult(result.status, result.reason, placeholder.understood)


def audit(game: WindowGame[Any, Any], j: Judged[Any, Any]) -> None:
    """Per side and per audited resource, opening + postings = closing; a CampaignError otherwise:
    a phase moved a balance without a ledger posting (a program error, never written)."""
    resources = game.audited if game.audited is not None else game.resources
    if not resources:
        return
    opening: Accounts = j.opening
    closing: Accounts = j.world
    posted: dict[tuple[str, str], Fraction] = {}
    for e in j.report.ledger.entries:
        posted[e.side, e.resource] = posted.get((e.side, e.resource), Fraction(0)) + e.amount
    wrong = []
    for side in game.sides(j.world):
        for r in resources:
            before, after = opening.balance(side, r.code), closing.balance(side, r.code)
            if before + posted.get((side, r.code), Fraction(0)) != after:
                wrong.append(f"{side}/{r.code}: {before} + {posted.get((side, r.code), 0)} ≠ {after}")
    if wrong:
        raise CampaignError(_("ошибка программы: балансы окна «{window}» не сходятся с книгой ({wrong}); ничего не "
                              "записано").format(window=game.calendar.format(j.at, j.lang), wrong="; ".join(wrong)))


# -------------------------------------------------------------------- check and resolve


def check(game: WindowGame[W, R], tables: Tables, on_phase: OnPhase | None = None,
          expect: Cursor | None = None, tab_ids: dict[str, str] | None = None) -> tuple[Judged[W, R], Changeset]:
    """The open window judged with blind dice; the changes write only the status strips (a row that
    waits for a later window, or a non-participant's row, says why). A game with `lot_probe` is
    judged once more with the order of play reversed: the rows whose result differs are `j.lot`."""
    windows.expect(tables, game.calendar, expect)
    ending.refuse(tables, game.calendar, "check")
    bound = game.bind(tables, tab_ids)
    j = judge(bound, tables, Dice.blind_dice(), on_phase)
    if game.lot_probe:  # a pass of its own: the first one's world and rows are the first one's
        j.probe = judge(game.bind(tables, tab_ids), tables, Dice.blind_dice(reverse=True))
        j.lot = by_the_lot(j, j.probe)
    game = bound
    game.checked(j, tables)
    changes = Changeset()
    for tab, ot in j.tabs.items():
        later = {row.row: (row, _waiting_word(game, when, j.lang)) for row, when in j.waiting.get(tab, {}).values()}
        later |= {row.row: (row, _idle_word(j, game)) for row in j.idle.get(tab, [])}
        if not later:  # the tab as read, the results as judged: no copy of either per tab
            changes.blocks += ordertab.status_strips(ot, j.report.results, j.lang, game.layout.stamp)
            continue
        shown = OrderTab(ot.tab, ot.side, ot.cols, ot.grid,
                         rows=sorted([*ot.rows, *(row for row, _w in later.values())], key=lambda r: r.row))
        words = {**j.report.results, **{row.ref: w for row, w in later.values()}}
        changes.blocks += ordertab.status_strips(shown, words, j.lang, game.layout.stamp)
    return j, changes


def by_the_lot(j: Judged[Any, Any], probe: Judged[Any, Any]) -> set[str]:
    """The refs of the rows read as orders whose status or reason differs between `j` and `probe`
    (the same window with the order of play reversed): their result depends on the lot."""
    out = set()
    for given in (g for rows in j.orders.values() for g in rows):
        ref, mine = given.row.ref, j.report.results[given.row.ref]
        other = probe.report.results.get(ref)
        if other is None or (other.status, other.reason) != (mine.status, mine.reason):
            out.add(ref)
    return out


def resolve(game: WindowGame[W, R], tables: Tables, expect: Cursor | None = None, seed: str | None = None,
            secret: str | None = None, on_phase: OnPhase | None = None,
            tab_ids: dict[str, str] | None = None) -> tuple[Judged[W, R], Changeset]:
    """Resolve the open window with the dice of `secret` (or the revealed `seed`: verify's re-run):
    the one atomic write, the meta marker last."""
    windows.expect(tables, game.calendar, expect, resolving=True)
    ending.refuse(tables, game.calendar, "resolve")
    at = meta.open_cursor(tables, game.calendar)
    if seed is None:
        if not secret:
            raise CampaignError(_("без секрета ведущего не бросить кости окна: фаза не разрешена"))
        seed = cursor_seed(secret, at)
    game = game.bind(tables, tab_ids)
    j = judge(game, tables, Dice(seed), on_phase, resolving=True)
    climb(game, j)
    game.close(tables, j)
    lang, report = j.lang, j.report
    stamp = session.stamp(at, game.calendar, lang)
    changes = Changeset()
    archived: Grid = []
    cleared = tuple(f for f in game.layout.fields if f not in game.layout.notes)  # a note (a comment) stays
    for tab, ot in j.tabs.items():
        if tab in j.idle:
            continue  # a side that may not act here: its tab is not written at all (rows, stamps, results)
        keep = set(j.waiting.get(tab, {}))
        grid, archive = ordertab.resolved_grid(ot, report.results, stamp, lang, cleared, game.layout.stamp,
                                               archived=game.layout.archived, waiting=keep)
        archived += archive
        changes.replace.append(ReplaceTab(ot.tab, grid, audience=player(ot.side)))
    changes.replace += game.tabs(tables, j)
    told = game.chronicle(tables, j, list(report.chronicle)) or [game.quiet(lang)]
    if (log := game.log(tables, "chronicle", lang)) is not None:
        changes.blocks += session.append_rows(tables, log.tab, [log.header], [[stamp, line] for line in told])
    for side, lines in private_lines(report).items():
        own = game.side_log(side, lang)
        changes.blocks += session.append_rows(tables, own.tab, [own.header], [[stamp, line] for line in lines])
        changes.audiences[own.tab] = player(side)
    if report.gm:
        own = game.gm_log(lang)
        changes.blocks += session.append_rows(tables, own.tab, [own.header], [[stamp, line] for line in report.gm])
        changes.audiences[own.tab] = GM
    changes.blocks += game.logs(tables, j, stamp)
    if (log := game.log(tables, "ledger", lang)) is not None:
        changes.blocks += session.append_rows(tables, log.tab, [log.header], game.ledger_rows(j, stamp))
    if (log := game.log(tables, "archive", lang)) is not None:
        changes.blocks += session.append_rows(tables, log.tab, [log.header], archived)
    game.extra_writes(tables, j, changes)
    changes.blocks += session.history_blocks(tables, at)
    nxt = game.next_window(tables, j)
    grid = game.meta_grid(tables, j, nxt.cursor, seed, secret)
    grid = put_participants(grid, nxt, tuple(game.sides(j.world)), lang)
    tab = meta.meta_tab(tables) or meta.META_TABS[1 if lang == "en" else 0]
    won = game.won(tables, j)
    changes.marker.append(session.meta_marker(tables, tab, grid) if won is None
                          else session.finished_marker(tables, tab, grid, won, lang))
    return j, changes


def put_participants(grid: Grid, nxt: Window | None, everyone: tuple[str, ...], lang: str) -> Grid:
    """The meta grid with who may act in `nxt`: «Ходит: Афины» for one side, «Ходят: A, B» for some,
    no row when every side may (or the game is over)."""
    grid = meta.put(grid, (*PARTICIPANTS, MOVER[0]), None, lang)
    if nxt is None or nxt.participants == everyone:
        return grid
    label = MOVER if len(nxt.participants) == 1 else PARTICIPANTS
    return meta.put(grid, label, ", ".join(nxt.participants) or "—", lang)


def private_lines(report: TurnReport[Any]) -> dict[str, list[str]]:
    """side -> the window's lines told to that side alone (`TurnReport.tell(text, to=…)`)."""
    return {side: list(lines) for side, lines in report.private.items() if lines}


def side_log_audiences(game: WindowGame[Any, Any], tables: Tables, sides: Sequence[str],
                       lang: str) -> dict[str, Audience]:
    """Each side's own log tab that the campaign has: that side's alone (and the GM's log: the GM's)."""
    out: dict[str, Audience] = {game.gm_log(code).tab: GM for code in ("ru", "en") if game.gm_log(code).tab in tables}
    for side in sides:
        for code in ("ru", "en"):
            tab = game.side_log(side, code).tab
            if tab in tables:
                out[tab] = player(side)
    return out


__all__ = [
    "GM",
    "MOVER",
    "PARTICIPANTS",
    "PUBLIC",
    "Given",
    "Judged",
    "Log",
    "OrderLayout",
    "Problem",
    "Window",
    "WindowGame",
    "check",
    "climb",
    "judge",
    "resolve",
]
