"""The window runner's hooks a one-stage game with a drawn order of play needs (issue 24 point 1; the
ancient game is the first to use them): the lot probe of a check, rows an older campaign left as
history, a refused row's own words, a look across the rows before the phases, a comment that
resolve keeps, and order refs without a window in a game without stages.

The toy here: two sides, one gold coin on the table; «взять» takes it if it is still there, so
whoever plays first gets it, and the order of play is the lot (`Dice.shuffle`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest

from engine.core import runner
from engine.core.cursor import Calendar, Cursor
from engine.core.dice import Dice
from engine.core.errors import InvalidOrder
from engine.core.ledger import Resource
from engine.core.orders import OrderResult, OrderRow, Status
from engine.core.ordertab import OrderTab
from engine.core.runner import Given, Judged, Log, OrderLayout, WindowGame
from engine.core.tables import Cell, Grid, ReplaceTab, Tables, apply_changes
from engine.core.turn import Phase, TurnReport

GOLD = Resource("gold", "золото", "gold", "з")
SIDES = ("A", "B")
COLS = {"action": 0, "comment": 1, "turn": 2, "status": 3, "reason": 4, "understood": 5}
HEADER = ["Приказ", "Комментарий", "Ход", "Статус", "Причина", "Понято"]


@dataclass
class Purses:
    """Each side's gold and the coin still on the table (the ledger's accounts)."""

    gold: dict[str, Fraction] = field(default_factory=lambda: dict.fromkeys(SIDES, Fraction(0)))
    on_table: int = 1

    def balance(self, side: str, resource: str) -> Fraction:
        return self.gold[side]

    def set_balance(self, side: str, resource: str, value: Fraction) -> None:
        self.gold[side] = value

    def copy(self) -> Purses:
        return Purses(dict(self.gold), self.on_table)


def take(world: Purses, orders: dict[str, list[Given[str]]], dice: Dice, rules: None,
         report: TurnReport[Any]) -> Purses:
    for side in dice.shuffle("lot", list(SIDES)):
        for g in orders.get(side, []):
            if world.on_table:
                world.on_table -= 1
                report.post(GOLD, side, "взять", "монета", Fraction(1), "монета со стола", g.row.ref)
                report.result(g.row.ref, Status.DONE, "монета взята")
            else:
                report.result(g.row.ref, Status.REJECTED, "монеты уже нет")
    return world


class Coin(WindowGame[Purses, None]):
    calendar = Calendar()
    layout = OrderLayout(("action", "comment"), notes=("comment",))
    resources = (GOLD,)

    def __init__(self, lot_probe: bool = False) -> None:
        self.lot_probe = lot_probe
        self.seen_before_phases: list[str] = []

    def rules(self, tables: Tables) -> None:
        return None

    def decode(self, tables: Tables, at: Cursor, rules: None) -> Purses:
        return Purses()

    def sides(self, world: Purses) -> tuple[str, ...]:
        return SIDES

    def new_report(self, at: Cursor, lang: str, world: Purses) -> TurnReport[Any]:
        return TurnReport(at.turn, lang, facts=None)

    def order_tab(self, tables: Tables, side: str, lang: str) -> OrderTab | None:
        return OrderTab(f"Приказы — {side}", side, dict(COLS), tables[f"Приказы — {side}"])

    def settled(self, row: OrderRow, stamp: Cell, j: Judged[Purses, None]) -> bool:
        return row.cells.get("action") == "старое"  # what an older campaign left: history

    def parse(self, row: OrderRow, j: Judged[Purses, None]) -> str:
        if row.cells.get("action") != "взять":
            raise InvalidOrder(f"{row.tab}!{row.row}: непонятный приказ")
        return "взять"

    def refused(self, row: OrderRow, error: InvalidOrder, j: Judged[Purses, None]) -> OrderResult:
        return OrderResult(Status.REJECTED, str(error).replace(f"{row.tab}!", ""), f"«{row.cells['action']}»")

    def ready(self, j: Judged[Purses, None]) -> None:
        self.seen_before_phases = sorted(g.row.ref for rows in j.orders.values() for g in rows)

    def phases(self, at: Cursor) -> tuple[Phase[Purses], ...]:
        return (Phase("взять", take),)

    def tabs(self, tables: Tables, j: Judged[Purses, None]) -> list[ReplaceTab]:
        return []

    def log(self, tables: Tables, kind: str, lang: str) -> Log | None:
        return Log("Книга", ["Ход", "Сторона", "Ресурс", "Фаза", "Статья", "Сумма", "Причина", "Приказ"]) \
            if kind == "ledger" else None

    def meta_grid(self, tables: Tables, j: Judged[Purses, None], nxt: Cursor, seed: str,
                  secret: str | None) -> Grid:
        return [["Параметр", "Значение"], ["Открытый ход", nxt.turn]]

    def summary(self, mode: str, j: Judged[Purses, None]) -> dict[str, Any]:
        return {}


def campaign(b_rows: list[list[Cell]] | None = None) -> Tables:
    return {
        "Кампания": [["Параметр", "Значение"], ["Открытый ход", 2], ["Язык", "ru"]],
        "Приказы — A": [HEADER, ["взять", "мне первым", None, None, None, None]],
        "Приказы — B": [HEADER, *(b_rows or [["взять", None, None, None, None, None]])],
    }


def test_a_check_with_the_lot_probe_says_which_rows_the_order_of_play_decides() -> None:
    tables = campaign()
    blind, _changes = runner.check(Coin(lot_probe=False), tables)
    assert [blind.report.results[f"Приказы — {s}!2"].status for s in SIDES] == [Status.ACCEPTED, Status.REJECTED]
    assert blind.probe is None and not blind.lot
    probed, changes = runner.check(Coin(lot_probe=True), tables)
    assert probed.probe is not None and probed.lot == {"Приказы — A!2", "Приказы — B!2"}
    for side in SIDES:
        assert probed.report.results[f"Приказы — {side}!2"] == OrderResult(
            Status.ACCEPTED, "исход зависит от очерёдности хода", "")
    after = apply_changes(tables, changes)
    assert after["Приказы — B"][1][3:5] == ["принят", "исход зависит от очерёдности хода"]


def test_a_row_one_side_alone_decides_is_not_the_lots() -> None:
    tables = campaign([["шить", None, None, None, None, None]])  # B sends nothing to take
    j, _changes = runner.check(Coin(lot_probe=True), tables)
    assert j.lot == set()
    assert j.report.results["Приказы — A!2"].status is Status.ACCEPTED


def test_settled_rows_refused_words_ready_and_a_kept_comment() -> None:
    tables = campaign([["старое", None, 1, "выполнен", None, None], ["взять", "тоже", None, None, None, None],
                       ["плясать", None, None, None, None, None]])
    game = Coin()
    j, changes = runner.resolve(game, tables, expect=Cursor(2), seed="s")
    assert game.seen_before_phases == ["Приказы — A!2", "Приказы — B!3"]  # refs without «@2»: no stages
    assert j.tabs["Приказы — B"].history == [2]  # an older campaign's row: not read, not judged
    assert j.report.results["Приказы — B!4"] == OrderResult(Status.REJECTED, "4: непонятный приказ", "«плясать»")
    after = apply_changes(tables, changes)
    b = after["Приказы — B"]
    assert b[1] == []  # history: not judged, not archived, and cleared like every row not executed
    assert [r.row for r in j.tabs["Приказы — B"].rows] == [3, 4]
    assert b[2][:3] == [None, "тоже", 2] and b[3][:3] == [None, None, 2]  # inputs cleared, the comment kept
    assert after["Приказы — A"][1][:3] == [None, "мне первым", 2]
    assert sum(r[5] for r in after["Книга"][1:]) == 1  # one coin: the ledger says who got it
    with pytest.raises(Exception, match="просили разрешить «1» — он уже разрешён"):
        runner.resolve(game, tables, expect=Cursor(1), seed="s")
