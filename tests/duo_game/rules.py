"""The rulings of one order window: which rows belong to it, what each order means, and what it does.

«сбор»: each «добыть N <ресурс>» sends N of the side's workers (at most `WORKERS` a window) out;
a worker brings the side's harvest die (d3) of grain or its vein die (d2) of gold. «торг»: each
«продать N зерна» sells grain at the window's price (d3 gold a grain); then every side eats
`UPKEEP` grain. Every change of a stock is a ledger posting (engine/core/ledger.py). A check
judges the same rows with blind dice: it rolls nothing, so it tells nothing the dice would.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction

from engine.core import absence, stagerows
from engine.core.cursor import Cursor
from engine.core.dice import Dice
from engine.core.ledger import Resource
from engine.core.orders import OrderResult, OrderRow, Status
from engine.core.ordertab import OrderTab, candidate_rows
from engine.core.tables import Tables, is_blank
from engine.core.turn import TurnReport

from .words import (
    ACTION_STAGE,
    BY_WORD,
    CALENDAR,
    COLS,
    GATHER,
    GET,
    GOLD,
    GRAIN,
    ORDER_FIELDS,
    SELL,
    SIDES,
    STAMP,
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
    """What a window found besides the postings: its dice, the rows that wait, each tab's rulings."""

    cursor: Cursor
    harvest: dict[str, int] = field(default_factory=dict)  # side -> grain a worker brings
    vein: dict[str, int] = field(default_factory=dict)  # side -> gold a worker brings
    price: int = 0  # gold a grain, at «торг» (0: not drawn, a check)
    waiting: list[tuple[OrderRow, Cursor]] = field(default_factory=list)  # rows of a later stage
    tabs: dict[str, OrderTab] = field(default_factory=dict)  # each side's order tab, its `rows` the judged ones


Report = TurnReport[Facts]


def staged(row: OrderRow) -> OrderRow:
    """A row whose stage cell is blank belongs to its order's stage («продать» waits for «торг»)."""
    stage = ACTION_STAGE.get(str(row.cells.get("action") or "").strip().lower())
    if not is_blank(row.cells.get("stage")) or stage is None:
        return row
    return dataclasses.replace(row, cells={**row.cells, "stage": CALENDAR.stage(stage).ru})


def parse(row: OrderRow, at: Cursor) -> Order | str:
    """The order a row holds at window `at`, or why it holds none (in words)."""
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


def judge(tables: Tables, at: Cursor, dice: Dice, stocks: Stocks, report: Report) -> None:
    """Rule every row of both sides' order tabs at window `at`, posting what the executed ones do."""
    report.bind(stocks)
    if at.stage == GATHER and not dice.blind:
        for side in SIDES:
            report.facts.harvest[side] = dice.roll("урожай", 3, side)
            report.facts.vein[side] = dice.roll("жила", 2, side)
    elif at.stage != GATHER:
        if dice.blind:
            dice.withhold("цена")
        else:
            report.facts.price = dice.roll("цена", 3)
    for side in SIDES:
        tab = orders_tab(side)
        ot = OrderTab(tab, side, dict(COLS), tables.get(tab, []))
        read = [staged(r) for r, _stamp in candidate_rows(ot, ORDER_FIELDS, STAMP, cursor=at.key())]
        rows = stagerows.split(read, CALENDAR, at)
        for row, was in rows.past:
            report.result(row.ref, Status.REJECTED, f"этап «{CALENDAR.format(was)}» уже разрешён")
        for row in rows.unknown:
            report.result(row.ref, Status.REJECTED, f"нет этапа «{row.cells.get('stage')}»; этапы хода: "
                                                    f"{CALENDAR.listed('ru')}")
        report.facts.waiting += rows.waiting
        judged = [*rows.now, *(r for r, _was in rows.past), *rows.unknown]  # the side's own rows of this window
        came = absence.attendance({side: judged}, (side,), lambda s: default_orders(s, at))
        if side in came.stood_in:
            report.warn(f"{side} не прислал приказов на «{CALENDAR.format(at)}»: работники собирают зерно")
        workers = WORKERS
        for row in rows.now if side in came.present else came.rows[side]:
            order = parse(row, at)
            if isinstance(order, str):
                report.results[row.ref] = OrderResult(Status.REJECTED, order)
            elif order.action == GET:
                report.results[row.ref], workers = _gather(order, side, workers, dice, report)
            else:
                report.results[row.ref] = _sell(order, side, dice, stocks, report)
        if at.stage != GATHER:
            eaten = min(Fraction(UPKEEP), stocks.balance(side, GRAIN.code))
            if eaten:
                report.post(GRAIN, side, at.stage, "пропитание", -eaten, "сторона съедает зерно хода")
        waiting = {row.row for row, _when in rows.waiting}
        ot.rows = [row for row in read if row.row not in waiting]
        report.facts.tabs[tab] = ot


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
