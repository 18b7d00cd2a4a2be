"""Typed orders of the ancient-world game: parsed from a player's row, echoed back as text.

`parse(row, ...)` turns raw cells into one of the order classes or raises InvalidOrder with
a message that quotes the input; `order.describe(lang)` is the normalised echo written back
to the row («понято как»). Legality (money, ownership, prerequisites) is judged later by the
phase that executes the order, because it depends on what happened earlier in the turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from engine.core import i18n
from engine.core.errors import InvalidOrder
from engine.core.names import NameIndex
from engine.core.orders import OrderRow
from engine.core.tables import Cell, Formula, is_blank, shorten

from .forces import RETURNS_TO
from .model import Campaign
from .rules import Rules
from .speech import Name
from .vocab import ACTIONS, STRATA, STRATA_NAMES

MAX_QTY = 1_000_000
# an order cell longer than this is refused (issue 15, point 13): orders are a few words, and no
# quote of the cell in a reason or an echo may come near Google's 50,000-character cell limit
MAX_INPUT_CHARS = 1_000


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
        return (
            f"Change government to {self.target_name}"
            if lang == "en"
            else f"Сменить форму правления на «{self.target_name}»"
        )


@dataclass(frozen=True)
class Pay(Order):
    """Tribute or another payment to a state (ANC-MONEY-06)."""

    to: str
    amount: int

    def describe(self, lang: str = "ru") -> str:
        return (
            f"Pay {self.amount} Д to {self.to}" if lang == "en" else f"Заплатить {self.amount} Д государству {self.to}"
        )


@dataclass(frozen=True)
class Recruit(Order):
    """Form units or build ships in a province (ANC-ARMY-11, ANC-NAVY-11)."""

    unit: str
    province: str
    count: int

    def describe(self, lang: str = "ru") -> str:
        if lang == "en":
            return f"Recruit {self.count} {self.unit} in {self.province}"
        return f"Набрать {self.count} {self.unit} в провинции {self.province}"


@dataclass(frozen=True)
class March(Order):
    """Move an army (or land the troops a fleet carries) to a province (ANC-MOVE-01..10)."""

    force: str  # an army, or a fleet whose troops land
    to: str
    by_sea: bool = False

    def describe(self, lang: str = "ru") -> str:
        if self.by_sea:
            return (
                f"Land the troops of «{self.force}» in {self.to}"
                if lang == "en"
                else f"Высадить войска флота «{self.force}» в провинции {self.to}"
            )
        return f"March «{self.force}» to {self.to}" if lang == "en" else f"Двинуть «{self.force}» в провинцию {self.to}"


@dataclass(frozen=True)
class Sail(Order):
    """Move a fleet to a sea zone (ANC-MOVE-11, ANC-NAVY-09/10)."""

    fleet: str
    zone: int

    def describe(self, lang: str = "ru") -> str:
        return (
            f"Sail «{self.fleet}» to sea zone {self.zone}"
            if lang == "en"
            else f"Флот «{self.fleet}» — в морскую зону {self.zone}"
        )


@dataclass(frozen=True)
class Embark(Order):
    """Put an army aboard a fleet in a port (ANC-MOVE-09/10)."""

    army: str
    fleet: str

    def describe(self, lang: str = "ru") -> str:
        return (
            f"Embark «{self.army}» on «{self.fleet}»"
            if lang == "en"
            else f"Погрузить «{self.army}» на флот «{self.fleet}»"
        )


@dataclass(frozen=True)
class Disband(Order):
    """Disband units of an army or ships of a fleet (ANC-UPKEEP-03: the player names deserters).
    Heavy cavalry go back to the aristocracy, free (ANC-STRATA-17); «Перевести ТК → АР» is this order
    too, written as a conversion (`into` = the stratum), naming the army or the province it stands in."""

    force: str  # the army or fleet; "" when `province` names where the state's armies stand
    unit: str
    count: int
    into: str = ""  # the stratum, when written as «Перевести ТК → АР»
    province: str = ""

    def describe(self, lang: str = "ru") -> str:
        what = f"{self.count} {self.unit}" + (f" → {self.into}" if self.into else "")
        if lang == "en":
            where = f"of «{self.force}»" if self.force else f"in {self.province}"
            return f"{'Convert' if self.into else 'Disband'} {what} {where}"
        where = f"из «{self.force}»" if self.force else f"в провинции {self.province}"
        return f"{'Перевести' if self.into else 'Распустить'} {what} {where}"


@dataclass(frozen=True)
class Raze(Order):
    """Destroy buildings of a captured province (ANC-BLD-01, ANC-MOVE-07)."""

    province: str
    building: str  # "" = every building

    def describe(self, lang: str = "ru") -> str:
        what = f"«{self.building}»" if self.building else ("all buildings" if lang == "en" else "все постройки")
        return f"Raze {what} in {self.province}" if lang == "en" else f"Разрушить {what} в провинции {self.province}"


@dataclass(frozen=True)
class Diplomacy(Order):
    """Declare war, make peace or an alliance, become or accept a vassal, break vassalage."""

    kind: str  # war | peace | alliance | vassal | accept_vassal | break_vassal
    other: str

    # Russian words with the case the other state's name takes after them («войну Карфагену»).
    WORDS: ClassVar[dict[str, tuple[str, str, str]]] = {
        "war": ("Объявить войну", "datv", "Declare war on"),
        "peace": ("Заключить мир с", "ablt", "Make peace with"),
        "alliance": ("Заключить союз с", "ablt", "Ally with"),
        "vassal": ("Стать вассалом", "gent", "Become a vassal of"),
        "accept_vassal": ("Принять в вассалы", "accs", "Accept as vassal"),
        "break_vassal": ("Разорвать вассалитет с", "ablt", "Break vassalage with"),
    }

    def describe(self, lang: str = "ru") -> str:
        ru, case, en = self.WORDS[self.kind]
        return f"{en} {self.other}" if lang == "en" else f"{ru} {format(Name(self.other), case)}"


@dataclass(frozen=True)
class Trade(Order):
    """Open a standing trade route: a good from an own province to another province (ANC-TRADE-02)."""

    good: str
    src: str
    dst: str

    def describe(self, lang: str = "ru") -> str:
        return (
            f"Trade route: {self.good} from {self.src} to {self.dst}"
            if lang == "en"
            else f"Торговый маршрут: {self.good} {Name(self.src):откуда} {Name(self.dst):куда}"
        )


@dataclass(frozen=True)
class CancelRoute(Order):
    """Close a route the state sells or buys on (breaking a treaty, ANC-STAB-04)."""

    src: str
    dst: str
    good: str = ""

    def describe(self, lang: str = "ru") -> str:
        what = f" ({self.good})" if self.good else ""
        return (
            f"Cancel the route {self.src} → {self.dst}{what}"
            if lang == "en"
            else f"Отменить маршрут {self.src} → {self.dst}{what}"
        )


@dataclass(frozen=True)
class AllowTransit(Order):
    """Let another state's caravans cross own provinces (ANC-TRADE-07)."""

    other: str

    def describe(self, lang: str = "ru") -> str:
        return f"Allow transit to {self.other}" if lang == "en" else f"Разрешить транзит: {self.other}"


class Vocabulary:
    """Name indexes a parser needs; built once per turn."""

    def __init__(self, campaign: Campaign, rules: Rules) -> None:
        self.actions = NameIndex(
            ((ru, (key, en, *more)) for key, (ru, en, more) in ACTIONS.items()),
            {ru: en for ru, en, _m in ACTIONS.values()} if i18n.current() == "en" else None,
        )
        self.action_keys = {ru: key for key, (ru, _en, _more) in ACTIONS.items()}
        self.buildings = NameIndex((b.name_ru, (b.name_en,)) for b in rules.buildings.values())
        self.provinces = NameIndex((p, ()) for p in campaign.provinces)
        self.states = NameIndex((s, ()) for s in campaign.states)
        self.techs = NameIndex((t.name_ru, (t.name_en,)) for t in rules.techs.values())
        en = i18n.current() == "en"
        self.governments = NameIndex(
            ((g.key, (g.name_ru, g.name_en)) for g in rules.governments.values()),
            {g.key: g.name_en if en else g.name_ru for g in rules.governments.values()},
        )
        self.gov_names = {g.key: g.name_ru for g in rules.governments.values()}
        self.strata = NameIndex(
            ((s, (STRATA_NAMES[s][0], STRATA_NAMES[s][1], s + ".")) for s in STRATA),
            {s: STRATA_NAMES[s][1] for s in STRATA} if i18n.current() == "en" else None,
        )
        self.action_words = {key: (ru, en) for key, (ru, en, _m) in ACTIONS.items()}
        self.units = NameIndex((u.type, (u.name_ru, u.name_en, u.type.rstrip("."))) for u in rules.units.values())
        self.armies = NameIndex((a, ()) for a in campaign.armies)
        self.fleets = NameIndex((f, ()) for f in campaign.fleets)
        self.forces = NameIndex([(a, ()) for a in campaign.armies] + [(f, ()) for f in campaign.fleets])
        self.goods = NameIndex((g.name_ru, (g.name_en, g.specialisation)) for g in rules.goods.values())


def _text(cell: Cell) -> str:
    return "" if is_blank(cell) else str(cell).strip()


# what -> (message when blank, adjective+noun when unknown)
_WORDS = {
    "tech": ("не указана технология", "неизвестная технология"),
    "state": ("не указано государство", "неизвестное государство"),
    "government": ("не указана форма правления", "неизвестная форма правления"),
    "stratum": ("не указана страта", "неизвестная страта"),
    "unit": ("не указан род войск", "неизвестный род войск"),
    "good": ("не указан товар", "неизвестный товар"),
    "army": ("не указана армия", "неизвестная армия"),
    "fleet": ("не указан флот", "неизвестный флот"),
    "force": ("не указаны армия или флот", "нет армии или флота"),
    "army_or_province": ("не указаны армия или провинция", "нет армии или провинции"),
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
    raise InvalidOrder(f"{where}: {unknown} «{text[:60]}»{index.suggest(text)}")


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
    except (ValueError, ZeroDivisionError, OverflowError, TypeError):
        raise InvalidOrder(f"{where}: количество «{shorten(cell, 40)}» — не число") from None
    if value.denominator != 1:
        raise InvalidOrder(f"{where}: количество {shorten(cell, 40)} — дробное, нужно целое")
    if value <= 0:
        raise InvalidOrder(f"{where}: количество {shorten(cell, 40)} — должно быть больше нуля")
    if value > MAX_QTY:
        raise InvalidOrder(f"{where}: количество {shorten(cell, 40)} — слишком большое")
    return int(value)


def parse(row: OrderRow, vocab: Vocabulary) -> Order:
    """Read one order row; raise InvalidOrder when it cannot be understood."""
    for key, cell in row.cells.items():
        if key in row.formulas or isinstance(cell, Formula):
            # the same words as before the cells became plain text: a replayed old turn reads the same
            raise InvalidOrder(f"{row.where(key)}: в ячейке формула {str(cell)[:40]!r} — впишите значение")
        if isinstance(cell, str) and len(cell) > MAX_INPUT_CHARS:
            raise InvalidOrder(
                f"{row.where(key)}: слишком длинный текст: {len(cell)} знаков, не больше {MAX_INPUT_CHARS}"
            )
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
        unit, into = _unit_to_stratum(row, vocab)
        if unit:  # «Перевести ТК → АР»: heavy cavalry back to the aristocracy (ANC-STRATA-17)
            where_cell = row.cells.get("where")
            army = vocab.armies.get(where_cell)
            if army:
                return Disband(row, army, unit, qty or 1, into)
            province = _lookup(vocab.provinces, where_cell, "army_or_province", row.where("where"))
            return Disband(row, "", unit, qty or 1, into, province)
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
        to = _lookup(
            vocab.states,
            row.cells.get("to") if not is_blank(row.cells.get("to")) else row.cells.get("where"),
            "state",
            row.where("to"),
        )
        if qty is None:
            raise InvalidOrder(f"{row.where('qty')}: укажите сумму в Д")
        return Pay(row, to, qty)
    if action == "recruit":
        unit = _lookup(vocab.units, row.cells.get("object"), "unit", row.where("object"))
        province = _lookup(vocab.provinces, row.cells.get("where"), "province", row.where("where"))
        return Recruit(row, unit, province, qty or 1)
    if action == "march":
        force_cell = row.cells.get("object")
        to = _lookup(
            vocab.provinces,
            row.cells.get("to") if not is_blank(row.cells.get("to")) else row.cells.get("where"),
            "province",
            row.where("to"),
        )
        if vocab.fleets.get(force_cell) and not vocab.armies.get(force_cell):
            return March(row, vocab.fleets.get(force_cell) or "", to, by_sea=True)
        return March(row, _lookup(vocab.armies, force_cell, "army", row.where("object")), to)
    if action == "sail":
        fleet = _lookup(vocab.fleets, row.cells.get("object"), "fleet", row.where("object"))
        target = row.cells.get("to") if not is_blank(row.cells.get("to")) else row.cells.get("where")
        try:
            zone = int(str(target).strip())
        except ValueError:
            raise InvalidOrder(f"{row.where('to')}: укажите номер морской зоны, а не «{target}»") from None
        return Sail(row, fleet, zone)
    if action == "embark":
        army = _lookup(vocab.armies, row.cells.get("object"), "army", row.where("object"))
        fleet = _lookup(
            vocab.fleets,
            row.cells.get("to") if not is_blank(row.cells.get("to")) else row.cells.get("where"),
            "fleet",
            row.where("to"),
        )
        return Embark(row, army, fleet)
    if action == "disband":
        unit = _lookup(vocab.units, row.cells.get("object"), "unit", row.where("object"))
        where_cell = row.cells.get("where")
        if not vocab.forces.get(where_cell) and vocab.provinces.get(where_cell):  # the armies standing there
            return Disband(row, "", unit, qty or 1, province=vocab.provinces.get(where_cell) or "")
        force = _lookup(vocab.forces, where_cell, "force", row.where("where"))
        return Disband(row, force, unit, qty or 1)
    if action == "raze":
        province = _lookup(vocab.provinces, row.cells.get("where"), "province", row.where("where"))
        obj = _text(row.cells.get("object"))
        building = (
            ""
            if obj.lower() in ("", "всё", "все", "all")
            else _lookup(vocab.buildings, obj, "building", row.where("object"))
        )
        return Raze(row, province, building)
    if action in ("trade", "cancel_route"):
        src = _lookup(vocab.provinces, row.cells.get("where"), "province", row.where("where"))
        dst = _lookup(vocab.provinces, row.cells.get("to"), "province", row.where("to"))
        if src == dst:
            raise InvalidOrder(f"{row.where('to')}: маршрут из провинции в неё же")
        if action == "cancel_route":
            good = (
                ""
                if is_blank(row.cells.get("object"))
                else _lookup(vocab.goods, row.cells.get("object"), "good", row.where("object"))
            )
            return CancelRoute(row, src, dst, good)
        return Trade(row, _lookup(vocab.goods, row.cells.get("object"), "good", row.where("object")), src, dst)
    if action == "transit":
        other_cell = row.cells.get("to") if not is_blank(row.cells.get("to")) else row.cells.get("object")
        other = _lookup(vocab.states, other_cell, "state", row.where("to"))
        if other == row.state:
            raise InvalidOrder(f"{row.where('to')}: своим караванам разрешение не нужно")
        return AllowTransit(row, other)
    if action in ("war", "peace", "alliance", "vassal", "accept_vassal", "break_vassal"):
        other_cell = row.cells.get("to") if not is_blank(row.cells.get("to")) else row.cells.get("object")
        other = _lookup(vocab.states, other_cell, "state", row.where("to"))
        if other == row.state:
            raise InvalidOrder(f"{row.where('to')}: нельзя с самим собой")
        return Diplomacy(row, action, other)
    return NoActions(row)


_ARROWS = ("→", "->", "=>", ">", " в ", " to ", " into ", "—", "–", " - ")


def _unit_to_stratum(row: OrderRow, vocab: Vocabulary) -> tuple[str, str]:
    """(«ТК», «АР») when Object reads a unit → its stratum, as the seed's «Обратная конвертация ТК в
    аристократа» (ANC-STRATA-17); ("", "") when it is a conversion between strata."""
    text = _text(row.cells.get("object"))
    where = row.where("object")
    for arrow in _ARROWS:
        if arrow in f" {text} ":
            left, right = (x.strip() for x in f" {text} ".split(arrow, 1))
            unit, back = vocab.units.get(left), vocab.units.get(right)
            if back and not vocab.strata.get(right):
                raise InvalidOrder(f"{where}: отряды набирают приказом «Набрать» (Объект: {back}, Где: провинция)")
            if not unit or vocab.strata.get(left):
                return "", ""
            stratum = _lookup(vocab.strata, right, "stratum", where)
            home = RETURNS_TO.get(unit)
            if home != stratum:
                back_to = f"{unit} возвращаются только в {home}" if home else f"{unit} не возвращаются в страту"
                raise InvalidOrder(
                    f"{where}: перевод {unit} → {stratum} не предусмотрен — {back_to}; "
                    f"обратно в страту переводится только {', '.join(f'{u} → {s}' for u, s in RETURNS_TO.items())}"
                    " (ANC-STRATA-17); отряд можно «Распустить»"
                )
            return unit, stratum
    return "", ""


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
                raise InvalidOrder(f"{where}: перевод из страты в ту же страту «{shorten(text)}»")
            return src, dst
    raise InvalidOrder(f"{where}: непонятный перевод «{shorten(text)}» — пишите «раб → СГ»")
