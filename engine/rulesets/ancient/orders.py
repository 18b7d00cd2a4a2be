"""Typed orders of the ancient-world game: parsed from a player's row, echoed back as text.

`parse(row, ...)` turns raw cells into one of the order classes or raises InvalidOrder with
a message that quotes the input; `order.describe(lang)` is the normalised echo written back
to the row («понято как»); `order.cells()` prints it back as the cells a player would type,
which `parse` reads to an equal order — together they are `ORDER_TYPE`, the game's parse/print
pair (engine/core/ordertypes.py, tests/core/test_order_types.py). Legality (money, ownership,
prerequisites) is judged later by the phase that executes the order, because it depends on what
happened earlier in the turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from engine.core import i18n
from engine.core.errors import InvalidOrder
from engine.core.i18n import N_
from engine.core.names import NameIndex
from engine.core.orders import OrderRow
from engine.core.ordertypes import OrderType
from engine.core.tables import Cell, Formula, is_blank, shorten

from . import naming
from .forces import RETURNS_TO
from .messages import _
from .model import Campaign
from .rules import Rules
from .speech import Name
from .vocab import ACTIONS, ALL_WORDS, STRATA, STRATA_ABBREVIATIONS, STRATA_NAMES, UNIT_ABBREVIATIONS

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

    def describe(self) -> str:  # pragma: no cover - overridden
        """The order as understood, in the current language (i18n.using), for «Понято как»."""
        raise NotImplementedError

    def cells(self) -> dict[str, Cell]:  # pragma: no cover - overridden
        """The row cells a player types for this order, in the current language: `parse` reads them
        back to an equal order (the print half of `ORDER_TYPE`)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Build(Order):
    """Build one building in a province (ANC-BLD, ANC-CRAFT, ANC-AGRI)."""

    building: str
    province: str

    def describe(self) -> str:
        return _("Построить «{b}» в провинции {p}").format(b=self.building, p=self.province)

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("build"), "object": self.building, "where": self.province}


@dataclass(frozen=True)
class InvestStability(Order):
    """Buy +1 stability for its price (ANC-STAB-12, -13)."""

    def describe(self) -> str:
        return _("Вложить в стабильность: +1 Ст")

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("stability")}


@dataclass(frozen=True)
class NoActions(Order):
    """An explicit «no actions this turn» (ANC-TURN-03): counts as orders sent."""

    def describe(self) -> str:
        return _("Нет действий в этот ход")

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("none")}


@dataclass(frozen=True)
class Research(Order):
    """Buy a technology with accumulated science points (ANC-SCI-01)."""

    tech: str

    def describe(self) -> str:
        return _("Изучить технологию «{t}»").format(t=self.tech)

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("research"), "object": self.tech}


@dataclass(frozen=True)
class Convert(Order):
    """Move people between strata in a province (ANC-STRATA-04, -12..16)."""

    src: str
    dst: str
    province: str
    count: int

    def describe(self) -> str:
        return _("Перевести {n} {a} → {b} в провинции {p}").format(
            n=self.count, a=self.src, b=self.dst, p=self.province
        )

    def cells(self) -> dict[str, Cell]:
        return {
            "action": action_word("convert"),
            "object": f"{self.src} → {self.dst}",
            "where": self.province,
            "qty": self.count,
        }


@dataclass(frozen=True)
class Move(Order):
    """Resettle people between own provinces (ANC-POP-01)."""

    stratum: str
    src: str
    dst: str
    count: int

    def describe(self) -> str:
        return _("Переселить {n} {s} из провинции {a} в провинцию {b}").format(
            n=self.count, s=self.stratum, a=self.src, b=self.dst
        )

    def cells(self) -> dict[str, Cell]:
        return {
            "action": action_word("move"),
            "object": self.stratum,
            "where": self.src,
            "to": self.dst,
            "qty": self.count,
        }


@dataclass(frozen=True)
class Colonise(Order):
    """Colonise a neutral (grey) province next to an own one (ANC-MISC-04)."""

    province: str
    stratum: str  # settlers' stratum, "" = free citizens if any, else slaves

    def describe(self) -> str:
        if self.stratum:
            return _("Колонизировать провинцию {p} ({s})").format(p=self.province, s=self.stratum)
        return _("Колонизировать провинцию {p}").format(p=self.province)

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("colonise"), "object": self.stratum or None, "where": self.province}


@dataclass(frozen=True)
class ChangeGovernment(Order):
    """A voluntary step of government (ANC-GOV-02)."""

    target: str  # government key
    target_name: str

    def describe(self) -> str:
        return _("Сменить форму правления на «{g}»").format(g=self.target_name)

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("government"), "object": self.target_name}


@dataclass(frozen=True)
class Pay(Order):
    """Tribute or another payment to a state (ANC-MONEY-06)."""

    to: str
    amount: int

    def describe(self) -> str:
        return _("Заплатить {n} Д государству {s}").format(n=self.amount, s=self.to)

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("pay"), "to": self.to, "qty": self.amount}


@dataclass(frozen=True)
class Recruit(Order):
    """Form units or build ships in a province (ANC-ARMY-11, ANC-NAVY-11)."""

    unit: str
    province: str
    count: int

    def describe(self) -> str:
        return _("Набрать {n} {u} в провинции {p}").format(n=self.count, u=self.unit, p=self.province)

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("recruit"), "object": self.unit, "where": self.province, "qty": self.count}


@dataclass(frozen=True)
class March(Order):
    """Move an army (or land the troops a fleet carries) to a province (ANC-MOVE-01..10)."""

    force: str  # an army, or a fleet whose troops land
    to: str
    by_sea: bool = False

    def describe(self) -> str:
        if self.by_sea:
            return _("Высадить войска флота «{f}» в провинции {p}").format(f=self.force, p=self.to)
        return _("Двинуть «{f}» в провинцию {p}").format(f=self.force, p=self.to)

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("march"), "object": self.force, "to": self.to}


@dataclass(frozen=True)
class Sail(Order):
    """Move a fleet to a sea zone (ANC-MOVE-11, ANC-NAVY-09/10)."""

    fleet: str
    zone: int

    def describe(self) -> str:
        return _("Флот «{f}» — в морскую зону {z}").format(f=self.fleet, z=self.zone)

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("sail"), "object": self.fleet, "to": self.zone}


@dataclass(frozen=True)
class Embark(Order):
    """Put an army aboard a fleet in a port (ANC-MOVE-09/10)."""

    army: str
    fleet: str

    def describe(self) -> str:
        return _("Погрузить «{a}» на флот «{f}»").format(a=self.army, f=self.fleet)

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("embark"), "object": self.army, "to": self.fleet}


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

    def describe(self) -> str:
        fields = {"n": self.count, "u": self.unit, "s": self.into, "f": self.force, "p": self.province}
        if self.into:
            if self.force:
                return _("Перевести {n} {u} → {s} из «{f}»").format(**fields)
            return _("Перевести {n} {u} → {s} в провинции {p}").format(**fields)
        if self.force:
            return _("Распустить {n} {u} из «{f}»").format(**fields)
        return _("Распустить {n} {u} в провинции {p}").format(**fields)

    def cells(self) -> dict[str, Cell]:
        where = self.force or self.province
        if self.into:  # written as a conversion back to the stratum
            return {
                "action": action_word("convert"),
                "object": f"{self.unit} → {self.into}",
                "where": where,
                "qty": self.count,
            }
        return {"action": action_word("disband"), "object": self.unit, "where": where, "qty": self.count}


@dataclass(frozen=True)
class Raze(Order):
    """Destroy buildings of a captured province (ANC-BLD-01, ANC-MOVE-07)."""

    province: str
    building: str  # "" = every building

    def describe(self) -> str:
        if self.building:
            return _("Разрушить «{b}» в провинции {p}").format(b=self.building, p=self.province)
        return _("Разрушить все постройки в провинции {p}").format(p=self.province)

    def cells(self) -> dict[str, Cell]:
        every = "all" if i18n.current() == "en" else "всё"  # a word of ALL_WORDS: every building
        return {"action": action_word("raze"), "object": self.building or every, "where": self.province}


@dataclass(frozen=True)
class Diplomacy(Order):
    """Declare war, make peace or an alliance, become or accept a vassal, break vassalage."""

    kind: str  # war | peace | alliance | vassal | accept_vassal | break_vassal
    other: str

    # the other state's name in the case the Russian words take («войну Карфагену»)
    WORDS: ClassVar[dict[str, str]] = {
        "war": N_("Объявить войну {s:datv}"),
        "peace": N_("Заключить мир с {s:ablt}"),
        "alliance": N_("Заключить союз с {s:ablt}"),
        "vassal": N_("Стать вассалом {s:gent}"),
        "accept_vassal": N_("Принять в вассалы {s:accs}"),
        "break_vassal": N_("Разорвать вассалитет с {s:ablt}"),
    }

    def describe(self) -> str:
        return _(self.WORDS[self.kind]).format(s=Name(self.other))

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word(self.kind), "to": self.other}


@dataclass(frozen=True)
class Trade(Order):
    """Open a standing trade route: a good from an own province to another province (ANC-TRADE-02)."""

    good: str
    src: str
    dst: str

    def describe(self) -> str:
        return _("Торговый маршрут: {g} {a:откуда} {b:куда}").format(g=self.good, a=Name(self.src), b=Name(self.dst))

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("trade"), "object": self.good, "where": self.src, "to": self.dst}


@dataclass(frozen=True)
class CancelRoute(Order):
    """Close a route the state sells or buys on (breaking a treaty, ANC-STAB-04)."""

    src: str
    dst: str
    good: str = ""

    def describe(self) -> str:
        if self.good:
            return _("Отменить маршрут {a} → {b} ({g})").format(a=self.src, b=self.dst, g=self.good)
        return _("Отменить маршрут {a} → {b}").format(a=self.src, b=self.dst)

    def cells(self) -> dict[str, Cell]:
        return {
            "action": action_word("cancel_route"),
            "object": self.good or None,
            "where": self.src,
            "to": self.dst,
        }


@dataclass(frozen=True)
class AllowTransit(Order):
    """Let another state's caravans cross own provinces (ANC-TRADE-07)."""

    other: str

    def describe(self) -> str:
        return _("Разрешить транзит: {s}").format(s=self.other)

    def cells(self) -> dict[str, Cell]:
        return {"action": action_word("transit"), "to": self.other}


class Vocabulary:
    """Name indexes a parser needs; built once per turn."""

    def __init__(self, campaign: Campaign, rules: Rules) -> None:
        # the words of both languages first, then the other accepted words, then the keys: «Move» is
        # the English word of «Двинуть» although "move" is the key of «Переселить»
        en = i18n.current() == "en"
        self.actions = NameIndex(
            [(ru, (en_word,)) for ru, en_word, _more in ACTIONS.values()]
            + [(ru, more) for ru, _en, more in ACTIONS.values()]
            + [(ru, (key,)) for key, (ru, _en, _more) in ACTIONS.items()],
            {ru: en_word for ru, en_word, _m in ACTIONS.values()} if en else None,
        )
        self.action_keys = {ru: key for key, (ru, _en, _more) in ACTIONS.items()}
        # every name is also understood in the other language (naming.aliases: «Carthage» ↔ «Карфаген»)
        al = naming.aliases
        self.buildings = NameIndex((b.name_ru, (b.name_en, *al(b.name_ru))) for b in rules.buildings.values())
        self.provinces = NameIndex(naming.with_aliases(campaign.provinces))
        self.states = NameIndex(naming.with_aliases(campaign.states))
        self.techs = NameIndex((t.name_ru, (t.name_en, *al(t.name_ru))) for t in rules.techs.values())
        self.governments = NameIndex(
            ((g.key, (g.name_ru, g.name_en, *al(g.name_ru))) for g in rules.governments.values()),
            {g.key: g.name_en if en else g.name_ru for g in rules.governments.values()},
        )
        self.gov_names = {g.key: g.name_ru for g in rules.governments.values()}
        self.strata = NameIndex(
            (
                (s, (*STRATA_NAMES[s], s + ".", naming.shown("stratum", s, "en"), *STRATA_ABBREVIATIONS.get(s, ())))
                for s in STRATA
            ),
            {s: STRATA_NAMES[s][1] for s in STRATA} if en else None,
        )
        self.action_words = {key: (ru, en) for key, (ru, en, _m) in ACTIONS.items()}
        self.units = NameIndex(
            (
                u.type,
                (u.name_ru, u.name_en, u.type.rstrip("."), naming.shown("unit", u.type, "en"), *al(u.name_ru),
                 *UNIT_ABBREVIATIONS.get(u.type, ())),
            )
            for u in rules.units.values()
        )
        self.armies = NameIndex(naming.with_aliases(campaign.armies))
        self.fleets = NameIndex(naming.with_aliases(campaign.fleets))
        self.forces = NameIndex(naming.with_aliases([*campaign.armies, *campaign.fleets]))
        self.goods = NameIndex(
            (g.name_ru, (g.name_en, g.specialisation, *al(g.name_ru), *al(g.specialisation)))
            for g in rules.goods.values()
        )

    def action_shown(self, ru: str) -> str:
        """An action's word (given by its Russian canonical name) in the current language."""
        return action_word(self.action_keys[ru]) if ru in self.action_keys else ru


def action_word(key: str) -> str:
    """The order word of action `key` in the current language («Набрать», "Recruit")."""
    ru, en, _more = ACTIONS[key]
    return en if i18n.current() == "en" else ru


def _text(cell: Cell) -> str:
    return "" if is_blank(cell) else str(cell).strip()


# what -> (message when blank, adjective+noun when unknown); translated where used
_WORDS = {
    "tech": (N_("не указана технология"), N_("неизвестная технология")),
    "state": (N_("не указано государство"), N_("неизвестное государство")),
    "government": (N_("не указана форма правления"), N_("неизвестная форма правления")),
    "stratum": (N_("не указана страта"), N_("неизвестная страта")),
    "unit": (N_("не указан род войск"), N_("неизвестный род войск")),
    "good": (N_("не указан товар"), N_("неизвестный товар")),
    "army": (N_("не указана армия"), N_("неизвестная армия")),
    "fleet": (N_("не указан флот"), N_("неизвестный флот")),
    "force": (N_("не указаны армия или флот"), N_("нет армии или флота")),
    "army_or_province": (N_("не указаны армия или провинция"), N_("нет армии или провинции")),
    "action": (N_("не указано действие"), N_("неизвестное действие")),
    "building": (N_("не указана постройка"), N_("неизвестная постройка")),
    "province": (N_("не указана провинция"), N_("неизвестная провинция")),
}


def _lookup(index: NameIndex, cell: Cell, what: str, where: str, shown: Callable[[str], str] = str) -> str:
    """The canonical name `cell` means, or InvalidOrder saying what is missing or unknown, with the
    closest known name (as `shown` writes it: an action in the campaign's language)."""
    missing, unknown = _WORDS[what]
    text = _text(cell)
    if not text:
        raise InvalidOrder(_("{where}: {missing}").format(where=where, missing=_(missing)))
    found = index.get(text)
    if found:
        return found
    unknown_text = _("{where}: {unknown} «{text}»").format(where=where, unknown=_(unknown), text=text[:60])
    raise InvalidOrder(unknown_text + index.suggest(text))


def quantity(row: OrderRow) -> int | None:
    """The row's quantity: None when blank; a whole positive number otherwise."""
    cell = row.cells.get("qty")
    where = row.where("qty")
    if is_blank(cell):
        return None
    if isinstance(cell, bool):
        raise InvalidOrder(
            _("{where}: количество должно быть целым числом, а не {v}").format(where=where, v=repr(cell))
        )
    value: Fraction
    try:
        if isinstance(cell, (int, float)):
            value = Fraction(cell).limit_denominator(1000)
        else:
            value = Fraction(str(cell).strip().replace(",", ".").replace("\u2212", "-"))
    except (ValueError, ZeroDivisionError, OverflowError, TypeError):
        raise InvalidOrder(_("{where}: количество «{v}» — не число").format(where=where, v=shorten(cell, 40))) from None
    if value.denominator != 1:
        raise InvalidOrder(_("{where}: количество {v} — дробное, нужно целое").format(where=where, v=shorten(cell, 40)))
    if value <= 0:
        raise InvalidOrder(
            _("{where}: количество {v} — должно быть больше нуля").format(where=where, v=shorten(cell, 40))
        )
    if value > MAX_QTY:
        raise InvalidOrder(_("{where}: количество {v} — слишком большое").format(where=where, v=shorten(cell, 40)))
    return int(value)


def parse(row: OrderRow, vocab: Vocabulary) -> Order:
    """Read one order row; raise InvalidOrder when it cannot be understood."""
    for key, cell in row.cells.items():
        if key in row.formulas or isinstance(cell, Formula):
            # the same words as before the cells became plain text: a replayed old turn reads the same
            raise InvalidOrder(
                _("{where}: в ячейке формула {f} — впишите значение").format(
                    where=row.where(key), f=repr(str(cell)[:40])
                )
            )
        if isinstance(cell, str) and len(cell) > MAX_INPUT_CHARS:
            raise InvalidOrder(
                _("{where}: слишком длинный текст: {n} знаков, не больше {max}").format(
                    where=row.where(key), n=len(cell), max=MAX_INPUT_CHARS
                )
            )
    action = vocab.action_keys[
        _lookup(vocab.actions, row.cells.get("action"), "action", row.where("action"), vocab.action_shown)
    ]
    if (
        action == "march"
        and vocab.strata.get(row.cells.get("object"))
        and not vocab.forces.get(row.cells.get("object"))
    ):
        action = "move"  # «Move | free citizens | A | B»: the English word moves people as well as armies
    qty = quantity(row)
    if action == "build":
        building = _lookup(vocab.buildings, row.cells.get("object"), "building", row.where("object"))
        province = _lookup(vocab.provinces, row.cells.get("where"), "province", row.where("where"))
        if qty not in (None, 1):
            raise InvalidOrder(
                _("{where}: одна постройка на приказ (указано {n})").format(where=row.where("qty"), n=qty)
            )
        return Build(row, building, province)
    if action == "stability":
        if qty not in (None, 1):
            raise InvalidOrder(
                _("{where}: +1 Ст за ход, не больше (указано {n})").format(where=row.where("qty"), n=qty)
            )
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
            raise InvalidOrder(_("{where}: переселять некуда — «Где» и «Куда» совпадают").format(where=row.where("to")))
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
            raise InvalidOrder(_("{where}: укажите сумму в Д").format(where=row.where("qty")))
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
            raise InvalidOrder(
                _("{where}: укажите номер морской зоны, а не «{v}»").format(
                    where=row.where("to"), v=shorten(target, 40)
                )
            ) from None
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
        building = "" if obj.lower() in ALL_WORDS else _lookup(vocab.buildings, obj, "building", row.where("object"))
        return Raze(row, province, building)
    if action in ("trade", "cancel_route"):
        src = _lookup(vocab.provinces, row.cells.get("where"), "province", row.where("where"))
        dst = _lookup(vocab.provinces, row.cells.get("to"), "province", row.where("to"))
        if src == dst:
            raise InvalidOrder(_("{where}: маршрут из провинции в неё же").format(where=row.where("to")))
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
            raise InvalidOrder(_("{where}: своим караванам разрешение не нужно").format(where=row.where("to")))
        return AllowTransit(row, other)
    if action in ("war", "peace", "alliance", "vassal", "accept_vassal", "break_vassal"):
        other_cell = row.cells.get("to") if not is_blank(row.cells.get("to")) else row.cells.get("object")
        other = _lookup(vocab.states, other_cell, "state", row.where("to"))
        if other == row.state:
            raise InvalidOrder(_("{where}: нельзя с самим собой").format(where=row.where("to")))
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
                raise InvalidOrder(
                    _("{where}: отряды набирают приказом «{recruit}» (Объект: {u}, Где: провинция)").format(
                        where=where, recruit=action_word("recruit"), u=back
                    )
                )
            if not unit or vocab.strata.get(left):
                return "", ""
            stratum = _lookup(vocab.strata, right, "stratum", where)
            home = RETURNS_TO.get(unit)
            if home != stratum:
                back_to = (
                    _("{u} возвращаются только в {s}").format(u=unit, s=home)
                    if home
                    else _("{u} не возвращаются в страту").format(u=unit)
                )
                raise InvalidOrder(
                    _(
                        "{where}: перевод {u} → {s} не предусмотрен — {back_to}; обратно в страту переводится "
                        "только {pairs} (ANC-STRATA-17); отряд можно «{disband}»"
                    ).format(
                        where=where,
                        u=unit,
                        s=stratum,
                        back_to=back_to,
                        disband=action_word("disband"),
                        pairs=", ".join(f"{u} → {s}" for u, s in RETURNS_TO.items()),
                    )
                )
            return unit, stratum
    return "", ""


def _strata_pair(row: OrderRow, vocab: Vocabulary) -> tuple[str, str]:
    """«раб → СГ», «рабы в свободные граждане», «slaves -> citizens»."""
    text = _text(row.cells.get("object"))
    where = row.where("object")
    if not text:
        raise InvalidOrder(_("{where}: укажите перевод, например «раб → СГ»").format(where=where))
    for arrow in _ARROWS:
        if arrow in f" {text} ":
            left, right = f" {text} ".split(arrow, 1)
            src = _lookup(vocab.strata, left.strip(), "stratum", where)
            dst = _lookup(vocab.strata, right.strip(), "stratum", where)
            if src == dst:
                raise InvalidOrder(
                    _("{where}: перевод из страты в ту же страту «{v}»").format(where=where, v=shorten(text))
                )
            return src, dst
    raise InvalidOrder(_("{where}: непонятный перевод «{v}» — пишите «раб → СГ»").format(where=where, v=shorten(text)))


class AncientOrderType:
    """The ancient orders as one parse/print pair (engine/core/ordertypes.py): `parse` reads a row
    with a turn's `Vocabulary`, `print` writes an order's cells back (`Order.cells`)."""

    kinds: tuple[type, ...] = (
        Build,
        InvestStability,
        NoActions,
        Research,
        Convert,
        Move,
        Colonise,
        ChangeGovernment,
        Pay,
        Recruit,
        March,
        Sail,
        Embark,
        Disband,
        Raze,
        Diplomacy,
        Trade,
        CancelRoute,
        AllowTransit,
    )

    def parse(self, row: OrderRow, context: Vocabulary) -> Order:
        return parse(row, context)

    def print(self, order: Order) -> dict[str, Cell]:
        return {k: v for k, v in order.cells().items() if v is not None}


ORDER_TYPE: OrderType[Vocabulary] = AncientOrderType()
