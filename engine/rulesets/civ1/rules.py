"""The rules of «Civilization 1.0» as typed, frozen records: one record type per «Правила — …» tab.

Every number of the seed lives in a tab the GM may edit (templates/civ1/*.csv is what a new
campaign gets); :mod:`.rules_loaders` reads the tabs into a :class:`Rules`.  The few rules that are
arithmetic on the tables (the technology pyramid, the level-5 rule, research, upgrade and restore
prices, army and city sizes, Power from technologies) are methods here, so the numbers they use
always come from the tables and never from the code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from engine.core.layout import norm

RuleIds = tuple[str, ...]


@dataclass(frozen=True)
class Setting:
    """One row of «Правила — Параметры» or «Правила — Пределы»: a number, whether the seed states
    it (``seed``) or it is a proposal filling a gap (``proposal``), and the rules it serves."""

    key: str
    value: Fraction
    source: str  # "seed" | "proposal"
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class Era:
    """«Правила — Эпохи»: an era (= a technology level) and its prices; None where the seed gives
    no price for that era (the future has no units, buildings or wonders)."""

    level: int
    name_ru: str
    name_en: str
    tech_cost: int
    unit_cost: int | None
    building_cost: int | None
    wonder_cost: int | None
    wonder_discounted_cost: int | None
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class Technology:
    """«Правила — Технологии»: a technology, its level and era, and its effects as data."""

    name_ru: str
    name_en: str
    level: int
    era: int
    prerequisites: tuple[str, ...] = ()  # the seed names none: the pyramid (CIV-TECH-01) decides
    power: int = 0  # Власть a turn (only the best counts, and ``cancels_power`` says so)
    cancels_power: tuple[str, ...] = ()
    land_range: int | None = None  # movement distance over land, when this tech sets it
    water_range: int | None = None
    army_size: int = 0  # added to the army and garrison size
    city_size: int = 0  # added to a city's population limit
    spies: int = 0
    vp: int = 0
    explore_coast: bool = False
    cross_sea: bool = False
    cross_mountains: bool = False
    straight_line: bool = False
    free_buildings: int = 0  # buildings a city may raise in a turn without extra Power
    growth_per_turn: int = 0  # a city's growth a turn, when this tech raises it
    convert_coins: int = 0  # hammers per coin (Банки: 1)
    convert_science: int = 0  # hammers per science (Компьютеры: 2)
    wmd: bool = False  # one of the technologies WMD needs (all of them are needed)
    treaties: bool = False
    transfers: tuple[str, ...] = ()  # what may be transferred: cities, coins, resources, power
    repeatable: bool = False
    description_ru: str = ""
    description_en: str = ""
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class Terrain:
    """«Правила — Местность»: a terrain's own yield, growth, passability and the tech to work it."""

    name_ru: str
    name_en: str
    hammers: int
    coins: int
    science: int
    growth: bool
    passable: bool
    workable_tech: str | None
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class TerrainModifier:
    """«Правила — Местность и технологии»: with ``tech``, each of ``terrains`` yields ``amount`` more
    of ``yield_key``: on the hex itself (``hex``) or when the player chooses that yield (``choice``)."""

    tech: str
    terrains: tuple[str, ...]
    yield_key: str  # hammers | coins | science | growth
    amount: int
    applies: str  # hex | choice
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class UnitClass:
    """«Правила — Классы войск»: a class, the classes it has an advantage over, whether it captures."""

    name_ru: str
    name_en: str
    advantage_over: tuple[str, ...]
    captures: bool
    support: bool
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class UnitType:
    """«Правила — Войска»: a unit, its class and era, the technology that opens it (None: from the
    start), its dice (None for support) and its support bonus."""

    name_ru: str
    name_en: str
    unit_class: str
    era: int
    tech: str | None
    dice: int | None
    support: int
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class Building:
    """«Правила — Постройки»: a building, the tech that opens it, its era (the price), its kind (the
    «similar kind» of the discount) and yields, units protected, defence bonus, what it replaces."""

    name_ru: str
    name_en: str
    tech: str
    era: int
    kind: str
    hammers: int
    coins: int
    science: int
    protects: int
    defence: int
    replaces: str | None
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class Government:
    """«Правила — Правления»: a government, the tech that opens it, its Power a turn."""

    key: str
    name_ru: str
    name_en: str
    tech: str
    power: int
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class VillageOutcome:
    """«Правила — Деревни»: what the village die (1к10) gives from ``roll_min`` to ``roll_max``.

    ``amount`` is the main gain; ``alt_amount`` the other one the seed names (science when every
    ancient tech is known, hammers when every city is full, barbarians once medieval); ``era`` the
    era of the units or technology drawn, ``to_era`` the era of the better arms."""

    roll_min: int
    roll_max: int
    effect: str  # resource | coins | unit | arms | tech | people | barbarians
    amount: int
    alt_amount: int | None
    era: int | None
    to_era: int | None
    text_ru: str
    text_en: str
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class SpyMission:
    """«Правила — Шпионаж»: a spy's mission and whether it can only target a capital."""

    key: str
    name_ru: str
    name_en: str
    capital_only: bool
    description_ru: str
    description_en: str
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class Wonder:
    """«Правила — Чудеса»: a wonder the GM adds (the seed names none); its era sets its price."""

    name_ru: str
    name_en: str
    era: int
    effects: str
    description_ru: str
    description_en: str
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class Resource:
    """«Правила — Ресурсы»: a special resource the GM adds (the seed names none); whether it gives
    the wonder discount."""

    name_ru: str
    name_en: str
    wonder_discount: bool
    effects: str
    description_ru: str
    description_en: str
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class Price:
    """«Правила — Цены»: an action's price, ``amount`` of ``resource`` ``per`` something."""

    key: str
    name_ru: str
    name_en: str
    resource: str  # power | coins | science | hammers
    amount: int
    per: str  # once | per_city | per_hammer_difference | per_hammer_cost | per_extra_tech | per_era
    rule_ids: RuleIds = ()


@dataclass(frozen=True)
class CombatOutcome:
    """«Правила — Исход боя»: a duel whose roll difference is ``diff_min``..``diff_max`` (None: no
    upper end) leaves the ``loser`` (the attacking unit on a tie) ``result``."""

    diff_min: int
    diff_max: int | None
    result: str  # retreated | routed | destroyed
    loser: str  # attacker | loser
    rule_ids: RuleIds = ()


def _find(items: Mapping[str, object], name: str) -> str | None:
    """The key of ``items`` named ``name`` (case, ё and punctuation ignored)."""
    n = norm(name)
    for key, item in items.items():
        if n in (norm(key), norm(getattr(item, "name_ru", key)), norm(getattr(item, "name_en", key))):
            return key
    return None


@dataclass(frozen=True)
class Rules:
    """All the rules tabs of one campaign, read; every mapping is keyed by the Russian name."""

    params: Mapping[str, Setting] = field(default_factory=dict)
    limits: Mapping[str, Setting] = field(default_factory=dict)
    prices: Mapping[str, Price] = field(default_factory=dict)
    eras: Mapping[int, Era] = field(default_factory=dict)
    techs: Mapping[str, Technology] = field(default_factory=dict)
    terrain: Mapping[str, Terrain] = field(default_factory=dict)
    terrain_modifiers: tuple[TerrainModifier, ...] = ()
    classes: Mapping[str, UnitClass] = field(default_factory=dict)
    units: Mapping[str, UnitType] = field(default_factory=dict)
    buildings: Mapping[str, Building] = field(default_factory=dict)
    governments: Mapping[str, Government] = field(default_factory=dict)
    villages: tuple[VillageOutcome, ...] = ()
    combat: tuple[CombatOutcome, ...] = ()
    spy_missions: Mapping[str, SpyMission] = field(default_factory=dict)
    wonders: Mapping[str, Wonder] = field(default_factory=dict)
    resources: Mapping[str, Resource] = field(default_factory=dict)

    # --- look-ups -------------------------------------------------------------------------------

    def param(self, key: str) -> int:
        """A whole-number parameter of «Правила — Параметры»."""
        return int(self.params[key].value)

    def limit(self, key: str) -> int:
        """A whole-number limit of «Правила — Пределы»."""
        return int(self.limits[key].value)

    def tech(self, name: str) -> Technology:
        key = _find(self.techs, name)
        if key is None:
            raise KeyError(name)
        return self.techs[key]

    def unit(self, name: str) -> UnitType:
        key = _find(self.units, name)
        if key is None:
            raise KeyError(name)
        return self.units[key]

    def village(self, roll: int) -> VillageOutcome:
        """The village table's row for a roll of the village die."""
        for v in self.villages:
            if v.roll_min <= roll <= v.roll_max:
                return v
        raise KeyError(roll)

    def outcome(self, diff: int) -> CombatOutcome:
        """The duel's outcome for a roll difference (winner's total minus loser's, ≥ 0)."""
        for o in self.combat:
            if diff >= o.diff_min and (o.diff_max is None or diff <= o.diff_max):
                return o
        raise KeyError(diff)

    # --- arithmetic on the tables ---------------------------------------------------------------

    def unit_cost(self, unit: str) -> int:
        """A unit's price in hammers: its era's (CIV-TURN-04, CIV-UNIT-03)."""
        cost = self.eras[self.unit(unit).era].unit_cost
        if cost is None:
            raise KeyError(unit)
        return cost

    def upgrade_price(self, old: str, new: str) -> int:
        """Coins to upgrade ``old`` to ``new``: the factor × the hammer difference (CIV-TURN-03)."""
        return self.prices["upgrade"].amount * (self.unit_cost(new) - self.unit_cost(old))

    def restore_price(self, unit: str) -> int:
        """Coins to restore a destroyed unit: the factor × its hammer cost (CIV-TURN-03)."""
        return self.prices["restore"].amount * self.unit_cost(unit)

    def research_power(self, k: int) -> int:
        """Extra Власть for the ``k``-th technology researched in one turn (CIV-TURN-03): the price
        × (k − 1), so the 1st is free, the 2nd 2, the 3rd 4."""
        return self.prices["research_extra"].amount * (k - 1)

    def army_size(self, known: Iterable[str]) -> int:
        """Units in an army or garrison for a nation knowing ``known`` (CIV-UNIT-01)."""
        return self.limit("army_start") + sum(self.tech(t).army_size for t in known)

    def city_limit(self, known: Iterable[str]) -> int:
        """A city's population limit for a nation knowing ``known`` (CIV-MAP-05)."""
        return self.limit("city_size_base") + sum(self.tech(t).city_size for t in known)

    def tech_power(self, known: Iterable[str]) -> int:
        """Власть a turn from technologies (CIV-POWER-01): the techs another known one cancels give
        nothing; of the rest the best counts."""
        techs = [self.tech(t) for t in known]
        cancelled = {norm(c) for t in techs for c in t.cancels_power}
        return max((t.power for t in techs if norm(t.name_ru) not in cancelled), default=0)

    def may_research(self, counts: Mapping[int, int], level: int) -> bool:
        """Whether a nation with ``counts`` techs per level may research one more of ``level``.

        Up to ``pyramid_last_level`` a level must stay below the level under it (CIV-TECH-01); above
        it each tech needs ``level5_per_level4`` techs of the level below (CIV-TECH-02)."""
        after = {**counts, level: counts.get(level, 0) + 1}
        if level <= 1:
            return True
        below = after.get(level - 1, 0)
        if level <= self.param("pyramid_last_level"):
            return after[level] < below
        return after[level] * self.param("level5_per_level4") <= below
