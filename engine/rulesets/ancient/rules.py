"""The rules of one campaign, typed: one frozen dataclass per kind of rules row and :class:`Rules`
holding them all.  They are read from the campaign's rules tabs (the GM's editable copy of
templates/) by :mod:`.rules_loaders`, one loader per tab."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from engine.core.layout import norm
from engine.core.money import amount

from . import conditions, naming
from .messages import _


@dataclass(frozen=True)
class Government:
    key: str
    name_ru: str
    name_en: str
    tax: Fraction
    science: Fraction = Fraction(0)
    army: int = 0
    stability_price: Fraction = Fraction(0)
    money_per_turn: Fraction = Fraction(0)
    money_per_aristocrat: Fraction = Fraction(0)
    money_per_province: Fraction = Fraction(0)
    money_per_route: Fraction = Fraction(0)
    stability_per_turn: int = 0
    slave_to_citizen: Fraction | None = None
    citizen_to_aristocrat: Fraction | None = None
    people_per_turn: int = 0
    colonise: bool = True
    annex: bool = False
    peace_bonus: int = 0

    def name(self, lang: str) -> str:
        return self.name_en if lang == "en" else self.name_ru


@dataclass(frozen=True)
class WorkerOption:
    """One way to staff a building: `count` people from any of `strata` (at least, if `minimum`)."""

    count: int
    strata: tuple[str, ...]
    minimum: bool = False

    def text(self) -> str:
        return f"{self.count}{'+' if self.minimum else ''} {'+'.join(self.strata)}"


@dataclass(frozen=True)
class Building:
    name_ru: str
    name_en: str
    group: str
    cost: Fraction
    cost_slaves: int
    techs: tuple[str, ...]
    where_text: str
    where: conditions.Expr
    workers: tuple[WorkerOption, ...]
    workshop: bool
    unique: str  # province | world
    produces: str
    effects: dict[str, str] = field(default_factory=dict)
    rule_ids: tuple[str, ...] = ()

    def name(self, lang: str) -> str:
        return self.name_en if lang == "en" else self.name_ru

    def effect(self, key: str, default: Fraction = Fraction(0)) -> Fraction:
        raw = self.effects.get(key)
        return amount(raw) if raw not in (None, "") else default

    def cost_in(self, specialisation: str) -> Fraction:
        """The cost in a province of the given specialisation (a Port costs half in a fishing one)."""
        for key, value in self.effects.items():
            m = re.fullmatch(r"cost_in_spec\((.+)\)", key)
            if m and norm(m.group(1)) == norm(specialisation):
                return amount(value)
        return self.cost

    def workers_text(self) -> str:
        return (" " + _("или") + " ").join(w.text() for w in self.workers)


@dataclass(frozen=True)
class Technology:
    name_ru: str
    name_en: str
    cost: Fraction
    prerequisites: tuple[str, ...] = ()
    effects: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Transition:
    """A voluntary step of government along a path, with its conditions (ANC-GOV-05..13)."""

    src: str
    dst: str
    path: str
    stability_min: int | None = None
    stability_max: int | None = None
    peace: bool = False
    war: bool = False
    aristocrats_min: int | None = None
    aristocrats_max: int | None = None
    temples_min: int | None = None
    forums_min: int | None = None
    provinces_min: int | None = None
    treasury_min: Fraction | None = None
    tech: str = ""


@dataclass(frozen=True)
class Degradation:
    """Where a government falls at −3 (ANC-GOV-14..16): first matching row wins."""

    src: str
    path: str  # any | western | eastern
    dst: str
    condition: str = ""


@dataclass(frozen=True)
class Conversion:
    """Moving people between strata (ANC-STRATA-12..16): cost, goods, limits."""

    src: str
    dst: str
    cost: str  # a number, or "gov:<column>" for the government's own price (blank there = not allowed)
    goods: tuple[str, ...] = ()
    per_turn_max: int | None = None
    governments: tuple[str, ...] = ()
    discount_effect: str = ""


@dataclass(frozen=True)
class Good:
    name_ru: str
    name_en: str
    specialisation: str = ""
    food: bool = False
    effects: dict[str, str] = field(default_factory=dict)  # roles: precious, arms, slave_route


@dataclass(frozen=True)
class EventCard:
    """One card of the random-events deck (ANC-EVENT-01..03)."""

    key: str
    name_ru: str
    name_en: str
    kind: str  # good | bad
    weight: Fraction
    target: str  # state | province | capital | sea
    condition: str
    effects: dict[str, str]
    text_ru: str = ""


@dataclass(frozen=True)
class UnitType:
    """A land unit or a ship (ANC-ARMY-02..07, ANC-NAVY-02..07)."""

    type: str
    name_ru: str
    name_en: str
    kind: str  # land | sea
    recruits: int
    strata: tuple[str, ...]
    cost: Fraction
    goods: tuple[str, ...]  # all needed, one unit each
    upkeep: Fraction
    strength: int
    moves: int
    terrain: dict[str, int]
    weight: int | None  # tons aboard a ship; None = cannot embark
    capacity: int
    value: int
    where_text: str = ""
    where: conditions.Expr = None
    tech: str = ""


@dataclass(frozen=True)
class CombatBand:
    """One row of the combat table: a band of the БО ratio and its result (ANC-COMBAT-03)."""

    kind: str  # суша | море
    ratio_min: Fraction
    ratio_max: Fraction | None
    result: str  # attacker | defender | draw
    attacker_loss: Fraction  # share of the defender's БО
    defender_loss: Fraction  # share of the attacker's БО
    row: int = 0


@dataclass(frozen=True)
class Rules:
    """Every rules table of a campaign, typed; empty by default (the loaders fill it tab by tab)."""

    governments: dict[str, Government] = field(default_factory=dict)
    tax_percent: dict[int, Fraction] = field(default_factory=dict)
    buildings: dict[str, Building] = field(default_factory=dict)
    techs: dict[str, Technology] = field(default_factory=dict)
    params: dict[str, Fraction] = field(default_factory=dict)
    transitions: tuple[Transition, ...] = ()
    degradation: tuple[Degradation, ...] = ()
    conversions: tuple[Conversion, ...] = ()
    goods: dict[str, Good] = field(default_factory=dict)
    events: dict[str, EventCard] = field(default_factory=dict)
    event_odds: dict[int, tuple[Fraction, Fraction]] = field(default_factory=dict)
    units: dict[str, UnitType] = field(default_factory=dict)
    combat: tuple[CombatBand, ...] = ()
    trade: dict[str, tuple[Fraction | None, ...]] = field(default_factory=dict)

    def tech_effect(self, techs: list[str], key: str) -> int:
        """The sum of an effect over the technologies a state knows (e.g. «Астрономия»: ship_range=1)."""
        total = 0
        for t in techs:
            tech = self.techs.get(t)
            if tech is not None and tech.effects.get(key):
                total += int(amount(tech.effects[key]))
        return total

    def trade_income(self, good: str, distance: int) -> Fraction | None:
        """The seller's income for a good carried `distance` steps; None if it cannot go that far."""
        row = self.trade.get(good)
        if row is None or distance < 1 or distance > len(row):
            return None
        return row[distance - 1]

    def trade_reach(self, good: str) -> int | None:
        """The farthest a good can be carried for sale (ANC-TRADE-09); None when the table has no row."""
        row = self.trade.get(good)
        if row is None:
            return None
        return max((i + 1 for i, v in enumerate(row) if v is not None), default=0)

    # what a thing does is an effect in the rules data, never its name in code: a port is any
    # building with `port`, whatever a campaign calls it («Порт», «Port» or the GM's own name)

    def building_effect(self, buildings: Iterable[str], key: str) -> Fraction:
        """The sum of an effect over buildings (each copy counts): lighthouses' `lighthouse`, …"""
        total = Fraction(0)
        for name in buildings:
            b = self.buildings.get(name)
            if b is not None:
                total += b.effect(key)
        return total

    def has_effect(self, buildings: Iterable[str], key: str) -> bool:
        """Whether one of the buildings has the effect (a province with a `port`, a `road`)."""
        return self.building_effect(buildings, key) > 0

    def buildings_with(self, key: str) -> list[str]:
        """The names of the buildings with an effect, for messages («второй даёт Рынок»)."""
        return [b.name_ru for b in self.buildings.values() if b.effect(key)]

    def techs_with(self, key: str) -> list[str]:
        """The names of the technologies with an effect («Караванная торговля»: `caravans`)."""
        return [t.name_ru for t in self.techs.values() if t.effects.get(key)]

    def goods_with(self, key: str) -> list[str]:
        """The names of the goods with an effect (`precious`: gold and silver; `arms`: weapons)."""
        return [g.name_ru for g in self.goods.values() if g.effects.get(key)]

    def good_has(self, good: str, key: str) -> bool:
        g = self.goods.get(good)
        return bool(g and g.effects.get(key))

    def built_at(self, unit: UnitType, key: str) -> str | None:
        """The building with the effect that a unit's «where» asks for (a ship: the shipyard)."""
        return next((n for n in self.buildings_with(key) if n in (unit.where_text or "")), None)

    def good_of(self, specialisation: str) -> str:
        """The good a specialisation yields («скот» → «мясо»); the name itself when not listed."""
        n = norm(specialisation)
        for g in self.goods.values():
            if g.specialisation and norm(g.specialisation) == n:
                return g.name_ru
        return specialisation

    def is_food(self, good: str) -> bool:
        g = self.goods.get(good)
        return bool(g and g.food)

    def param(self, key: str) -> Fraction:
        return self.params[key]

    def government(self, text: str) -> Government | None:
        """Find a government by key, Russian or English name (the template's other-language name too)."""
        n = norm(text)
        for g in self.governments.values():
            if n in (norm(g.key), norm(g.name_ru), norm(g.name_en), *(norm(a) for a in naming.aliases(g.name_ru))):
                return g
        return None


REQUIRED_PARAMS = (
    "stability_min",
    "stability_max",
    "stability_price",
    "stability_price_min",
    "stability_per_turn_max",
    "mint_per_province",
    "workshops_per_province",
)

# parameters later added to the rules tab; a campaign created before them uses these values
PARAM_DEFAULTS: dict[str, Fraction] = {
    "events_per_turn": Fraction(5),
    "growth_chance_percent": Fraction(25),
    "growth_blocked_above_needs": Fraction(1),
    "move_cost_per_step": Fraction(1),
    "colonise_cost": Fraction(30),
    "colonise_settlers": Fraction(1),
    "food_provinces_per_unit": Fraction(3),
    "famine_stability_mode": Fraction(2),
    "famine_stability_delta": Fraction(-1),
    "empire_peace_turns": Fraction(2),
    "government_change_stability": Fraction(-2),
    "science_base": Fraction(1),
    "science_government_mode": Fraction(1),
    "science_per_scholar": Fraction(5),
    "aristocrats_per_turn_max": Fraction(1),
    "priest_cost": Fraction(15),
    "arena_slaves_per_turn": Fraction(1),
    "missed_turns_to_ai": Fraction(2),
    "ai_stability": Fraction(0),
    "mine_min_workers": Fraction(3),
    "forest_defence": Fraction(1),
    "river_attack": Fraction(-1),
    "landing_attack": Fraction(-2),
    "road_bonus": Fraction(1),
    "war_move_cost": Fraction(1),
    "plunder_mode": Fraction(1),
    "enslave_share_percent": Fraction(50),
    "barbarian_slaves": Fraction(1),
    "declare_war_stability": Fraction(-1),
    "declare_war_on_vassal_stability": Fraction(-2),
    "break_vassal_stability": Fraction(-3),
    "become_vassal_stability": Fraction(1),
    "capital_lost_stability": Fraction(-1),
    "ship_range_max": Fraction(10),
    "fair_share_percent": Fraction(50),
    "internal_share_percent": Fraction(50),
    "outgoing_routes": Fraction(1),
    "ai_routes_in": Fraction(1),
    "ai_routes_out": Fraction(1),
    "break_treaty_stability": Fraction(-1),
    "balance_sort": Fraction(1),
}
