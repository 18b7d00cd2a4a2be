"""The game's words: sides, the calendar, resources, orders, tab titles and columns.

Russian only: the toy has no catalogue (engine/core/messages.py serves the core alone)."""

from __future__ import annotations

from engine.core.cursor import Calendar, Stage
from engine.core.ledger import Resource

NAME = "relay"
SIDES = ("Афины", "Спарта", "Фивы")
MOVE, BATTLE, COUNCIL = "move", "battle", "council"
CALENDAR = Calendar((
    Stage(MOVE, "ход", "move", open_ended=True),  # one mover a window, until every side passed in a row
    Stage(BATTLE, "бой", "battle", counts_missed=False, between=MOVE),  # after a move that attacked
    Stage(COUNCIL, "совет", "council", counts_missed=False),  # the sides behind the leader
))

SILVER = Resource("silver", "серебро", "silver", "ср", 0)  # hidden: each side's own tab
GLORY = Resource("glory", "слава", "glory", "сл", 0)  # public: the ranking
RESOURCES = (SILVER, GLORY)

# the orders: word -> the stage it belongs to
BUILD, ATTACK, PASS, SEND, ASK = "строить", "напасть", "пас", "послать", "просить"
ACTION_STAGE = {BUILD: MOVE, ATTACK: MOVE, PASS: MOVE, SEND: BATTLE, ASK: COUNCIL}

START_SILVER = {"Афины": 917, "Спарта": 733, "Фивы": 541}
ALMS = 3  # silver the council gives a side at most
WIN_GLORY = 2  # glory a battle's winner gains
MISSED_LIMIT = 3  # move windows missed in a row before the GM is told to play the side

META = "Кампания"
RANKING = "Рейтинг"  # public: glory and missed windows of every side
ROUND = "Круг"  # public: the state of the round of moves
CHRONICLE = "Летопись"
LEDGER = "Книга"  # the GM's
ARCHIVE = "Архив приказов"  # the GM's
PHASES = {MOVE: "действие", BATTLE: "сражение", COUNCIL: "раздача"}


def orders_tab(side: str) -> str:
    return f"Приказы {side}"


def treasury_tab(side: str) -> str:
    """A side's own silver: the fact no other side may see."""
    return f"Казна {side}"


ORDER_FIELDS = ("stage", "action", "target", "amount")
ORDER_HEADER = ["Этап", "Приказ", "Цель", "Количество", "Окно", "Статус", "Причина", "Понято"]
COLS = {"stage": 0, "action": 1, "target": 2, "amount": 3, "window": 4, "status": 5, "reason": 6, "understood": 7}
STAMP = "window"
ORDER_ROWS = 20
LEDGER_HEADER = ["Окно", "Сторона", "Ресурс", "Этап", "Статья", "Сумма", "Основание", "Приказ"]
ARCHIVE_HEADER = ["Окно", "Сторона", "Строка", "Этап", "Приказ", "Цель", "Количество", "Статус", "Причина",
                  "Понято"]
CHRONICLE_HEADER = ["Окно", "Запись"]
RANKING_HEADER = ["Место", "Сторона", "Слава", "Пропущено подряд"]
TREASURY_HEADER = ["Ресурс", "Количество"]
ROUND_HEADER = ["Параметр", "Значение"]
PASSES, LAST, ATTACKER, DEFENDER = "Пасов подряд", "Последним ходил", "Нападает", "Защищается"
