"""The game's words: tab titles, columns, stages, orders and the messages of its rulings.

Russian only: the toy has no catalogue (engine/core/messages.py serves the core alone)."""

from __future__ import annotations

from engine.core.cursor import Calendar, Stage
from engine.core.ledger import Resource

NAME = "duo"
SIDES = ("A", "B")
GATHER, TRADE = "gather", "trade"
CALENDAR = Calendar((Stage(GATHER, "сбор", "gathering"), Stage(TRADE, "торг", "trade")))

GOLD = Resource("gold", "золото", "gold", "з", 0)
GRAIN = Resource("grain", "зерно", "grain", "зр", 0)
RESOURCES = (GOLD, GRAIN)
BY_WORD = {r.name_ru: r for r in RESOURCES}

# the orders: word -> the stage it belongs to
GET, SELL = "добыть", "продать"
ACTION_STAGE = {GET: GATHER, SELL: TRADE}

WORKERS = 10  # workers a side sends out per «сбор»
UPKEEP = 1  # grain a side eats at the end of a turn
START = {"A": {"gold": 5, "grain": 1207}, "B": {"gold": 5, "grain": 350}}

META = "Кампания"
RANKING = "Рейтинг"  # public: the gold of each side
CHRONICLE = "Летопись"  # public: the market and the sales in gold
LEDGER = "Книга"  # the GM's: every posting of both resources
ARCHIVE = "Архив приказов"  # the GM's: every judged order row
PHASES = ("приказы", "итоги")


def orders_tab(side: str) -> str:
    return f"Приказы {side}"


def stock_tab(side: str) -> str:
    """A side's own stocks: its grain is the fact the other side may never see."""
    return f"Запасы {side}"


def report_tab(side: str) -> str:
    return f"Отчёт {side}"


# the order tab's columns (0-based) by field; the first four are what a player writes
ORDER_FIELDS = ("stage", "action", "resource", "amount")
ORDER_HEADER = ["Этап", "Приказ", "Ресурс", "Количество", "Окно", "Статус", "Причина", "Понято"]
COLS = {"stage": 0, "action": 1, "resource": 2, "amount": 3, "window": 4, "status": 5, "reason": 6, "understood": 7}
STAMP = "window"  # the column resolve stamps an executed row with
ORDER_ROWS = 20  # blank rows a new order tab offers
LEDGER_HEADER = ["Окно", "Сторона", "Ресурс", "Этап", "Статья", "Сумма", "Основание", "Приказ"]
ARCHIVE_HEADER = ["Окно", "Сторона", "Строка", "Этап", "Приказ", "Ресурс", "Количество", "Статус", "Причина",
                  "Понято"]
CHRONICLE_HEADER = ["Окно", "Запись"]
RANKING_HEADER = ["Место", "Сторона", "Золото"]
STOCK_HEADER = ["Ресурс", "Количество"]
