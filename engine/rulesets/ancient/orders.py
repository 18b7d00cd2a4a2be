"""Typed orders of the ancient-world game: parsed from a player's row, echoed back as text.

`parse(row, ...)` turns raw cells into one of the order classes or raises InvalidOrder with
a message that quotes the input; `order.describe(lang)` is the normalised echo written back
to the row («понято как»). Legality (money, ownership, prerequisites) is judged later by the
phase that executes the order, because it depends on what happened earlier in the turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.core.errors import InvalidOrder
from engine.core.names import NameIndex
from engine.core.orders import OrderRow
from engine.core.tables import Cell, Formula, is_blank

from .model import Campaign
from .rules import Rules
from .vocab import ACTIONS

MAX_QTY = 1_000_000


@dataclass(frozen=True)
class Order:
    """Base of all orders: where the order came from."""

    row: OrderRow

    @property
    def state(self) -> str:
        return self.row.state

    def describe(self, lang: str = "ru") -> str:  # pragma: no cover - overridden
        raise NotImplementedError


@dataclass(frozen=True)
class Build(Order):
    """Build one building in a province (ANC-BLD, ANC-CRAFT, ANC-AGRI)."""

    building: str
    province: str

    def describe(self, lang: str = "ru") -> str:
        if lang == "en":
            return f"Build «{self.building}» in {self.province}"
        return f"Построить «{self.building}» в провинции {self.province}"


@dataclass(frozen=True)
class InvestStability(Order):
    """Buy +1 stability for its price (ANC-STAB-12, -13)."""

    def describe(self, lang: str = "ru") -> str:
        return "Buy +1 stability" if lang == "en" else "Вложить в стабильность: +1 Ст"


@dataclass(frozen=True)
class NoActions(Order):
    """An explicit «no actions this turn» (ANC-TURN-03): counts as orders sent."""

    def describe(self, lang: str = "ru") -> str:
        return "No actions this turn" if lang == "en" else "Нет действий в этот ход"


class Vocabulary:
    """Name indexes a parser needs; built once per turn."""

    def __init__(self, campaign: Campaign, rules: Rules) -> None:
        self.actions = NameIndex((ru, (key, en, *more)) for key, (ru, en, more) in ACTIONS.items())
        self.action_keys = {ru: key for key, (ru, _en, _more) in ACTIONS.items()}
        self.buildings = NameIndex((b.name_ru, (b.name_en,)) for b in rules.buildings.values())
        self.provinces = NameIndex((p, ()) for p in campaign.provinces)
        self.action_words = {key: (ru, en) for key, (ru, en, _m) in ACTIONS.items()}


def _text(cell: Cell) -> str:
    return "" if is_blank(cell) else str(cell).strip()


# what -> (message when blank, adjective+noun when unknown)
_WORDS = {
    "action": ("не указано действие", "неизвестное действие"),
    "building": ("не указана постройка", "неизвестная постройка"),
    "province": ("не указана провинция", "неизвестная провинция"),
}


def _lookup(index: NameIndex, cell: Cell, what: str, where: str) -> str:
    missing, unknown = _WORDS[what]
    text = _text(cell)
    if not text:
        raise InvalidOrder(f"{where}: {missing}")
    found = index.get(text)
    if found:
        return found
    close = index.closest(text)
    hint = f" (может быть, «{close[0]}»?)" if close else ""
    raise InvalidOrder(f"{where}: {unknown} «{text[:60]}»{hint}")


def quantity(row: OrderRow) -> int | None:
    """The row's quantity: None when blank; a whole positive number otherwise."""
    cell = row.cells.get("qty")
    where = row.where("qty")
    if is_blank(cell):
        return None
    if isinstance(cell, bool):
        raise InvalidOrder(f"{where}: количество должно быть целым числом, а не {cell!r}")
    value: Fraction
    try:
        if isinstance(cell, (int, float)):
            value = Fraction(cell).limit_denominator(1000)
        else:
            value = Fraction(str(cell).strip().replace(",", ".").replace("\u2212", "-"))
    except (ValueError, ZeroDivisionError):
        raise InvalidOrder(f"{where}: количество «{cell}» — не число") from None
    if value.denominator != 1:
        raise InvalidOrder(f"{where}: количество {cell} — дробное, нужно целое")
    if value <= 0:
        raise InvalidOrder(f"{where}: количество {cell} — должно быть больше нуля")
    if value > MAX_QTY:
        raise InvalidOrder(f"{where}: количество {cell} — слишком большое")
    return int(value)


def parse(row: OrderRow, vocab: Vocabulary) -> Order:
    """Read one order row; raise InvalidOrder when it cannot be understood."""
    for key, cell in row.cells.items():
        if isinstance(cell, Formula):
            raise InvalidOrder(f"{row.where(key)}: в ячейке формула {str(cell)[:40]!r} — впишите значение")
    action = vocab.action_keys[_lookup(vocab.actions, row.cells.get("action"), "action", row.where("action"))]
    qty = quantity(row)
    if action == "build":
        building = _lookup(vocab.buildings, row.cells.get("object"), "building", row.where("object"))
        province = _lookup(vocab.provinces, row.cells.get("where"), "province", row.where("where"))
        if qty not in (None, 1):
            raise InvalidOrder(f"{row.where('qty')}: одна постройка на приказ (указано {qty})")
        return Build(row, building, province)
    if action == "stability":
        if qty not in (None, 1):
            raise InvalidOrder(f"{row.where('qty')}: +1 Ст за ход, не больше (указано {qty})")
        return InvestStability(row)
    return NoActions(row)
