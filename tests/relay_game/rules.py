"""The rulings of one window: what each order means, what each stage's phase does, and which
window the world opens next.

«ход» (one mover): «строить N» turns N silver into N glory, «напасть <сторона>» opens a battle
right after this move, «пас» passes (so does a mover with no order: the stand-in). When every side
has passed in a row the round of moves ends. «бой» (the attacker and the defender): each
«послать N» silver; strength is what was sent plus a d6; the attacker wins only when stronger, and
the winner gains glory. «совет» (the sides behind the leader in glory): «просить N» gives up to
`ALMS` silver. Every change of a balance is a ledger posting; a check rolls nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from engine.core import absence
from engine.core.cursor import Cursor
from engine.core.dice import Dice
from engine.core.errors import InvalidOrder
from engine.core.orders import OrderResult, OrderRow, Status
from engine.core.runner import Given, Window
from engine.core.tables import is_blank
from engine.core.turn import TurnReport

from .words import (
    ACTION_STAGE,
    ALMS,
    ATTACK,
    BATTLE,
    BUILD,
    CALENDAR,
    GLORY,
    MOVE,
    PASS,
    SIDES,
    SILVER,
    WIN_GLORY,
    orders_tab,
)
from .world import World


@dataclass(frozen=True)
class Order:
    """One order as the game understands it."""

    row: OrderRow
    action: str
    target: str = ""
    amount: int = 0

    def text(self) -> str:
        """The order as understood: «строить на 5 серебра», «напасть на Спарта», «пас»."""
        if self.action == ATTACK:
            return f"напасть на {self.target}"
        if self.action == PASS:
            return PASS
        return f"{self.action} {self.amount} серебра"


@dataclass
class Facts:
    """What a window found besides the postings: who acted, the battle's dice and strengths."""

    cursor: Cursor
    movers: tuple[str, ...] = ()
    strength: dict[str, int] = field(default_factory=dict)
    dice: list[str] = field(default_factory=list)


Report = TurnReport[Facts]


def staged(row: OrderRow) -> OrderRow:
    """A row whose stage cell is blank belongs to its order's stage («послать» waits for a battle)."""
    stage = ACTION_STAGE.get(str(row.cells.get("action") or "").strip().lower())
    if not is_blank(row.cells.get("stage")) or stage is None:
        return row
    return dataclasses.replace(row, cells={**row.cells, "stage": CALENDAR.stage(stage).ru})


def parse(row: OrderRow, at: Cursor) -> Order:
    """The order a row holds at window `at`: InvalidOrder, in words, when it holds none."""
    if row.formulas:
        raise InvalidOrder(f"в ячейке {row.where(sorted(row.formulas)[0])} формула: приказ пишут словами и числом")
    action = str(row.cells.get("action") or "").strip().lower()
    if action not in ACTION_STAGE:
        raise InvalidOrder(f"нет приказа «{row.cells.get('action') or ''}»: есть {', '.join(ACTION_STAGE)}")
    if ACTION_STAGE[action] != at.stage:
        raise InvalidOrder(f"«{action}» — приказ этапа «{CALENDAR.stage(ACTION_STAGE[action]).ru}»")
    if action == PASS:
        return Order(row, action)
    if action == ATTACK:
        target = str(row.cells.get("target") or "").strip()
        others = [s for s in SIDES if s != row.state]
        if target not in others:
            raise InvalidOrder(f"напасть можно на {' или '.join(others)}, а не на «{target}»")
        return Order(row, action, target)
    raw = row.cells.get("amount")
    try:
        amount = float(raw) if isinstance(raw, (int, float)) else float(str(raw).replace(",", "."))
    except ValueError:
        amount = 0.5
    if isinstance(raw, bool) or not amount.is_integer() or amount < 1:
        raise InvalidOrder(f"количество — целое больше нуля, а там «{raw}»")
    return Order(row, action, amount=int(amount))


def default_orders(side: str, at: Cursor) -> list[OrderRow]:
    """What a mover that sent no row does: it passes (a battle or a council without its row: nothing)."""
    if at.stage != MOVE:
        return []
    cells = {"stage": CALENDAR.stage(MOVE).ru, "action": PASS}
    return [dataclasses.replace(absence.stand_in(orders_tab(side), side, 1, cells), cursor=at.key())]


def _one(given: Sequence[Given[Order]], report: Report, why: str) -> Given[Order] | None:
    """The first order of a side's window; the others are refused with `why`."""
    for extra in given[1:]:
        report.result(extra.row.ref, Status.REJECTED, why, extra.order.text())
    return given[0] if given else None


def act(world: World, orders: Mapping[str, Sequence[Given[Order]]], dice: Dice, _rules: object,
        report: Report) -> World:
    """The phase of a «ход» window: its one mover builds, attacks or passes."""
    at = report.facts.cursor
    mover = report.facts.movers[0]
    first = _one(orders.get(mover, []), report, "одно действие за окно хода: сыграна первая строка")
    world.last = mover
    order = first.order if first is not None else None
    if order is not None and order.action == BUILD:
        have = world.of(mover, SILVER.code)
        if order.amount > have:
            report.result(order.row.ref, Status.REJECTED, f"в казне {have} серебра, а строить просили на "
                          f"{order.amount}: ход считается пасом", order.text())
            order = None
        else:
            report.post(SILVER, mover, at.stage, "стройка", Fraction(-order.amount), "строительство", order.row.ref)
            report.post(GLORY, mover, at.stage, "стройка", Fraction(order.amount), "строительство", order.row.ref)
            report.tell(f"{mover} строит: слава +{order.amount}")
            report.result(order.row.ref, Status.DONE, "", order.text())
            world.passes = 0
            return world
    if order is not None and order.action == ATTACK:
        world.attacker, world.defender, world.passes = mover, order.target, 0
        report.tell(f"{mover} нападает на {order.target}")
        report.result(order.row.ref, Status.DONE, "", f"{order.text()}: бой в следующем окне")
        return world
    world.passes += 1
    report.tell(f"{mover} пасует")
    if order is not None and order.action == PASS:
        report.result(order.row.ref, Status.DONE, "", order.text())
    return world


def fight(world: World, orders: Mapping[str, Sequence[Given[Order]]], dice: Dice, _rules: object,
          report: Report) -> World:
    """The phase of a «бой» window: both sides' silver plus a die; the attacker wins only when stronger."""
    at = report.facts.cursor
    a, d = world.attacker, world.defender
    sent: dict[str, int] = {}
    for side in (a, d):
        first = _one(orders.get(side, []), report, "в бой посылают один раз: сыграна первая строка")
        sent[side] = 0
        if first is None:
            continue
        order = first.order
        have = world.of(side, SILVER.code)
        sent[side] = min(order.amount, have)
        short = f"послано только {sent[side]}: больше серебра нет" if sent[side] < order.amount else ""
        if sent[side]:
            report.post(SILVER, side, at.stage, "бой", Fraction(-sent[side]), f"в бой против "
                        f"{d if side == a else a}", order.row.ref)
        if dice.blind:
            report.result(order.row.ref, Status.ACCEPTED, short, f"{order.text()}: исход боя по жребию")
        else:
            report.result(order.row.ref, Status.PARTIAL if short else Status.DONE, short, order.text())
    world.attacker = world.defender = ""
    if dice.blind:
        for side in (a, d):
            dice.withhold("отвага", side)
        return world
    for side in (a, d):
        die = dice.roll("отвага", 6, side)
        report.facts.strength[side] = sent[side] + die
        report.tell(f"в бою {a} — {d}: послано {sent[side]} серебра, кость {die}, сила {sent[side] + die}", to=side)
    winner = a if report.facts.strength[a] > report.facts.strength[d] else d
    report.post(GLORY, winner, at.stage, "победа", Fraction(WIN_GLORY), f"бой {a} — {d}")
    report.tell(f"бой {a} — {d}: побеждает {winner}")
    return world


def council(world: World, orders: Mapping[str, Sequence[Given[Order]]], dice: Dice, _rules: object,
            report: Report) -> World:
    """The phase of a «совет» window: each side behind the leader may ask for silver (up to `ALMS`)."""
    at = report.facts.cursor
    asked = []
    for side in report.facts.movers:
        first = _one(orders.get(side, []), report, "на совете просят один раз: сыграна первая строка")
        if first is None:
            continue
        order = first.order
        got = min(order.amount, ALMS)
        short = f"совет даёт не больше {ALMS}" if got < order.amount else ""
        report.post(SILVER, side, at.stage, "помощь", Fraction(got), "помощь совета", order.row.ref)
        report.tell(f"совет дал {got} серебра", to=side)
        report.result(order.row.ref, Status.PARTIAL if short else Status.DONE, short, f"получено серебра: {got}")
        asked.append(side)
    report.tell(f"совет: помощи просили {', '.join(asked)}" if asked else "совет: помощи не просил никто")
    return world


def unanswered(given: Given[Order]) -> OrderResult:
    return OrderResult(Status.REJECTED, "приказ не сыгран", given.order.text())


# ------------------------------------------------------------------ the next window


def first_of(turn: int) -> Window:
    """A turn's first window: «ход:1», its mover the next side in the order of turns."""
    return Window(CALENDAR.cursor(turn, MOVE, 1), (SIDES[(turn - 1) % len(SIDES)],))


def next_window(world: World, at: Cursor) -> Window:
    """What the world opens after `at`: after a move, the battle it declared, or the next mover's
    move, or -- every side passed in a row -- the end of the round: the council of the sides behind
    the leader (skipped when nobody is behind) and then the next turn. The round's state is reset
    in `world` when the round ends."""
    if at.stage == MOVE and world.attacker:
        return Window(CALENDAR.cursor(at.turn, BATTLE, at.round),
                      tuple(s for s in SIDES if s in (world.attacker, world.defender)))
    if at.stage == MOVE and world.passes >= len(SIDES):
        world.passes, world.last = 0, ""
        top = max(world.of(s, GLORY.code) for s in SIDES)
        behind = tuple(s for s in SIDES if world.of(s, GLORY.code) < top)
        return Window(CALENDAR.next_stage(at), behind) if behind else first_of(at.turn + 1)
    if at.stage in (MOVE, BATTLE):
        return Window(CALENDAR.next(at), (world.after(world.last),))
    return first_of(at.turn + 1)

