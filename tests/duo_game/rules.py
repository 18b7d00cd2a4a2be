"""The rulings of one order window: which rows belong to it, what each order means, and what it does.

«сбор»: each «добыть N <ресурс>» sends N of the side's workers (at most `WORKERS` a window) out;
a worker brings the side's harvest die (d3) of grain or its vein die (d2) of gold. «торг»: each
«продать N зерна» sells grain at the window's price (d3 gold a grain); then every side eats
`UPKEEP` grain. Every change of a stock is a ledger posting (engine/core/ledger.py). A check
judges the same rows with blind dice: it rolls nothing, so it tells nothing the dice would.
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
from engine.core.ledger import Resource
from engine.core.orders import OrderResult, OrderRow, Status
from engine.core.runner import Given
from engine.core.tables import is_blank
from engine.core.turn import TurnReport

from .words import (
    ACTION_STAGE,
    BY_WORD,
    CALENDAR,
    GATHER,
    GET,
    GOLD,
    GRAIN,
    SELL,
    SIDES,
    TRADE,
    UPKEEP,
    WORKERS,
    orders_tab,
)
from .world import Stocks

OF = {GOLD.code: "золота", GRAIN.code: "зерна"}  # a resource's name after a verb («добыть зерна»)


@dataclass(frozen=True)
class Order:
    """One order as the game understands it."""

    row: OrderRow
    action: str
    resource: Resource
    amount: int

    def text(self) -> str:
        """The order as understood: «добыть зерна: 6»."""
        return f"{self.action} {OF[self.resource.code]}: {self.amount}"


@dataclass
class Facts:
    """What a window found besides the postings: its dice and the market price."""

    cursor: Cursor
    harvest: dict[str, int] = field(default_factory=dict)  # side -> grain a worker brings
    vein: dict[str, int] = field(default_factory=dict)  # side -> gold a worker brings
    price: int = 0  # gold a grain, at «торг» (0: not drawn, a check)
    dice: list[str] = field(default_factory=list)  # the window's rolls


Report = TurnReport[Facts]


def staged(row: OrderRow) -> OrderRow:
    """A row whose stage cell is blank belongs to its order's stage («продать» waits for «торг»)."""
    stage = ACTION_STAGE.get(str(row.cells.get("action") or "").strip().lower())
    if not is_blank(row.cells.get("stage")) or stage is None:
        return row
    return dataclasses.replace(row, cells={**row.cells, "stage": CALENDAR.stage(stage).ru})


def parse(row: OrderRow, at: Cursor) -> Order:
    """The order a row holds at window `at`: InvalidOrder, in words, when it holds none."""
    found = _parse(row, at)
    if isinstance(found, str):
        raise InvalidOrder(found)
    return found


def _parse(row: OrderRow, at: Cursor) -> Order | str:
    if row.formulas:
        return f"в ячейке {row.where(sorted(row.formulas)[0])} формула: приказ пишут словами и числом"
    action = str(row.cells.get("action") or "").strip().lower()
    if action not in ACTION_STAGE:
        return f"нет приказа «{row.cells.get('action') or ''}»: есть «{GET}» и «{SELL}»"
    if ACTION_STAGE[action] != at.stage:
        return f"«{action}» — приказ этапа «{CALENDAR.stage(ACTION_STAGE[action]).ru}»"
    resource = BY_WORD.get(str(row.cells.get("resource") or "").strip().lower())
    if resource is None:
        return f"нет ресурса «{row.cells.get('resource') or ''}»: есть «{GOLD.name_ru}» и «{GRAIN.name_ru}»"
    raw = row.cells.get("amount")
    wrong = f"количество — целое больше нуля, а там «{raw}»"
    try:
        amount = float(raw) if isinstance(raw, (int, float)) else float(str(raw).replace(",", "."))
    except ValueError:
        return wrong
    if not amount.is_integer() or amount < 1:
        return wrong
    if action == SELL and resource is not GRAIN:
        return "на торгу продают только зерно"
    return Order(row, action, resource, int(amount))


def default_orders(side: str, at: Cursor) -> list[OrderRow]:
    """What a side that sent no rows at window `at` does: at «сбор» it sends every worker for
    grain (a side that sends nobody out would starve); at «торг» nothing (it sells nothing unbidden)."""
    if at.stage != GATHER:
        return []
    cells = {"stage": CALENDAR.stage(GATHER).ru, "action": GET, "resource": GRAIN.name_ru, "amount": WORKERS}
    return [dataclasses.replace(absence.stand_in(orders_tab(side), side, 1, cells), cursor=at.key())]


def begin(at: Cursor, dice: Dice, report: Report) -> None:
    """The window's own dice: each side's harvest and vein at «сбор», the market price at «торг»
    (a check's blind dice roll nothing: they withhold)."""
    if at.stage == GATHER and not dice.blind:
        for side in SIDES:
            report.facts.harvest[side] = dice.roll("урожай", 3, side)
            report.facts.vein[side] = dice.roll("жила", 2, side)
    elif at.stage != GATHER:
        if dice.blind:
            dice.withhold("цена")
        else:
            report.facts.price = dice.roll("цена", 3)


def work(stocks: Stocks, orders: Mapping[str, Sequence[Given[Order]]], dice: Dice, _rules: object,
         report: Report) -> Stocks:
    """The phase «приказы»: each side's orders in row order (its workers are shared by its rows)."""
    for side in SIDES:
        workers = WORKERS
        for given in orders.get(side, []):
            order = given.order
            if order.action == GET:
                report.results[order.row.ref], workers = _gather(order, side, workers, dice, report)
            else:
                report.results[order.row.ref] = _sell(order, side, dice, stocks, report)
    return stocks


def eat(stocks: Stocks, orders: Mapping[str, Sequence[Given[Order]]], dice: Dice, _rules: object,
        report: Report) -> Stocks:
    """The phase «итоги»: at «торг» every side eats `UPKEEP` grain (what it has, at most)."""
    at = report.facts.cursor
    if at.stage == GATHER:
        return stocks
    for side in SIDES:
        eaten = min(Fraction(UPKEEP), stocks.balance(side, GRAIN.code))
        if eaten:
            report.post(GRAIN, side, at.stage, "пропитание", -eaten, "сторона съедает зерно хода")
    return stocks


def _gather(order: Order, side: str, workers: int, dice: Dice, report: Report) -> tuple[OrderResult, int]:
    """Send out the order's workers (as many as are left); what they bring is the side's die."""
    sent = min(order.amount, workers)
    if not sent:
        return OrderResult(Status.REJECTED, f"все {WORKERS} работников уже заняты", order.text()), workers
    short = f"работников осталось {sent} из {order.amount}" if sent < order.amount else ""
    if dice.blind:
        dice.withhold("урожай" if order.resource is GRAIN else "жила", side)
        return OrderResult(Status.ACCEPTED, short, f"{order.text()}: добыча по жребию"), workers - sent
    per = report.facts.harvest[side] if order.resource is GRAIN else report.facts.vein[side]
    report.post(order.resource, side, GATHER, "добыча", Fraction(sent * per), f"{sent} работн. × {per}",
                order.row.ref)
    if order.resource is GOLD:
        report.tell(f"{side} добывает {sent * per} золота")
    status = Status.PARTIAL if short else Status.DONE
    return OrderResult(status, short, f"добыто {OF[order.resource.code]}: {sent * per}"), workers - sent


def _sell(order: Order, side: str, dice: Dice, stocks: Stocks, report: Report) -> OrderResult:
    """Sell as much of the grain as the side has at the window's price."""
    have = int(stocks.balance(side, GRAIN.code))
    sold = min(order.amount, have)
    if not sold:
        return OrderResult(Status.REJECTED, "зерна нет", order.text())
    short = f"продано только {sold}: больше зерна нет" if sold < order.amount else ""
    report.post(GRAIN, side, TRADE, "продажа", Fraction(-sold), f"продано {sold}", order.row.ref)
    if dice.blind:
        return OrderResult(Status.ACCEPTED, short, f"{order.text()}: цена по жребию")
    price = report.facts.price
    report.post(GOLD, side, TRADE, "выручка", Fraction(sold * price), f"{sold} × {price}", order.row.ref)
    report.tell(f"{side} выручает на торгу {sold * price} золота")
    return OrderResult(Status.PARTIAL if short else Status.DONE, short, f"выручено золота: {sold * price}")
