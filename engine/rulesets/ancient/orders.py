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
from .vocab import ACTIONS, STRATA, STRATA_NAMES

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


@dataclass(frozen=True)
class Research(Order):
    """Buy a technology with accumulated science points (ANC-SCI-01)."""

    tech: str

    def describe(self, lang: str = "ru") -> str:
        return f"Research «{self.tech}»" if lang == "en" else f"Изучить технологию «{self.tech}»"


@dataclass(frozen=True)
class Convert(Order):
    """Move people between strata in a province (ANC-STRATA-04, -12..16)."""

    src: str
    dst: str
    province: str
    count: int

    def describe(self, lang: str = "ru") -> str:
        if lang == "en":
            return f"Convert {self.count} {self.src} → {self.dst} in {self.province}"
        return f"Перевести {self.count} {self.src} → {self.dst} в провинции {self.province}"


@dataclass(frozen=True)
class Move(Order):
    """Resettle people between own provinces (ANC-POP-01)."""

    stratum: str
    src: str
    dst: str
    count: int

    def describe(self, lang: str = "ru") -> str:
        if lang == "en":
            return f"Move {self.count} {self.stratum} from {self.src} to {self.dst}"
        return f"Переселить {self.count} {self.stratum} из провинции {self.src} в провинцию {self.dst}"


@dataclass(frozen=True)
class Colonise(Order):
    """Colonise a neutral (grey) province next to an own one (ANC-MISC-04)."""

    province: str
    stratum: str  # settlers' stratum, "" = free citizens if any, else slaves

    def describe(self, lang: str = "ru") -> str:
        who = f" ({self.stratum})" if self.stratum else ""
        return f"Colonise {self.province}{who}" if lang == "en" else f"Колонизировать провинцию {self.province}{who}"


@dataclass(frozen=True)
class ChangeGovernment(Order):
    """A voluntary step of government (ANC-GOV-02)."""

    target: str  # government key
    target_name: str

    def describe(self, lang: str = "ru") -> str:
        return (f"Change government to {self.target_name}" if lang == "en"
                else f"Сменить форму правления на «{self.target_name}»")


@dataclass(frozen=True)
class Pay(Order):
    """Tribute or another payment to a state (ANC-MONEY-06)."""

    to: str
    amount: int

    def describe(self, lang: str = "ru") -> str:
        return f"Pay {self.amount} Д to {self.to}" if lang == "en" else f"Заплатить {self.amount} Д государству {self.to}"


class Vocabulary:
    """Name indexes a parser needs; built once per turn."""

    def __init__(self, campaign: Campaign, rules: Rules) -> None:
        self.actions = NameIndex((ru, (key, en, *more)) for key, (ru, en, more) in ACTIONS.items())
        self.action_keys = {ru: key for key, (ru, _en, _more) in ACTIONS.items()}
        self.buildings = NameIndex((b.name_ru, (b.name_en,)) for b in rules.buildings.values())
        self.provinces = NameIndex((p, ()) for p in campaign.provinces)
        self.states = NameIndex((s, ()) for s in campaign.states)
        self.techs = NameIndex((t.name_ru, (t.name_en,)) for t in rules.techs.values())
        self.governments = NameIndex((g.key, (g.name_ru, g.name_en)) for g in rules.governments.values())
        self.gov_names = {g.key: g.name_ru for g in rules.governments.values()}
        self.strata = NameIndex((s, (STRATA_NAMES[s][0], STRATA_NAMES[s][1], s + ".")) for s in STRATA)
        self.action_words = {key: (ru, en) for key, (ru, en, _m) in ACTIONS.items()}


def _text(cell: Cell) -> str:
    return "" if is_blank(cell) else str(cell).strip()


# what -> (message when blank, adjective+noun when unknown)
_WORDS = {
    "tech": ("не указана технология", "неизвестная технология"),
    "state": ("не указано государство", "неизвестное государство"),
    "government": ("не указана форма правления", "неизвестная форма правления"),
    "stratum": ("не указана страта", "неизвестная страта"),
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
    if action == "research":
        return Research(row, _lookup(vocab.techs, row.cells.get("object"), "tech", row.where("object")))
    if action == "convert":
        src, dst = _strata_pair(row, vocab)
        province = _lookup(vocab.provinces, row.cells.get("where"), "province", row.where("where"))
        return Convert(row, src, dst, province, qty or 1)
    if action == "move":
        stratum = _lookup(vocab.strata, row.cells.get("object"), "stratum", row.where("object"))
        src = _lookup(vocab.provinces, row.cells.get("where"), "province", row.where("where"))
        dst = _lookup(vocab.provinces, row.cells.get("to"), "province", row.where("to"))
        if src == dst:
            raise InvalidOrder(f"{row.where('to')}: переселять некуда — «Где» и «Куда» совпадают")
        return Move(row, stratum, src, dst, qty or 1)
    if action == "colonise":
        province = _lookup(vocab.provinces, row.cells.get("where"), "province", row.where("where"))
        stratum = ""
        if not is_blank(row.cells.get("object")):
            stratum = _lookup(vocab.strata, row.cells.get("object"), "stratum", row.where("object"))
        return Colonise(row, province, stratum)
    if action == "government":
        key = _lookup(vocab.governments, row.cells.get("object"), "government", row.where("object"))
        return ChangeGovernment(row, key, vocab.gov_names.get(key, key))
    if action == "pay":
        to = _lookup(vocab.states, row.cells.get("to") if not is_blank(row.cells.get("to")) else row.cells.get("where"),
                     "state", row.where("to"))
        if qty is None:
            raise InvalidOrder(f"{row.where('qty')}: укажите сумму в Д")
        return Pay(row, to, qty)
    return NoActions(row)


_ARROWS = ("→", "->", "=>", ">", " в ", " to ", " into ", "—", "–", " - ")


def _strata_pair(row: OrderRow, vocab: Vocabulary) -> tuple[str, str]:
    """«раб → СГ», «рабы в свободные граждане», «slaves -> citizens»."""
    text = _text(row.cells.get("object"))
    where = row.where("object")
    if not text:
        raise InvalidOrder(f"{where}: укажите перевод, например «раб → СГ»")
    for arrow in _ARROWS:
        if arrow in f" {text} ":
            left, right = f" {text} ".split(arrow, 1)
            src = _lookup(vocab.strata, left.strip(), "stratum", where)
            dst = _lookup(vocab.strata, right.strip(), "stratum", where)
            if src == dst:
                raise InvalidOrder(f"{where}: перевод из страты в ту же страту «{text}»")
            return src, dst
    raise InvalidOrder(f"{where}: непонятный перевод «{text}» — пишите «раб → СГ»")
