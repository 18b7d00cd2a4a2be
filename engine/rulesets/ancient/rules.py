"""The rules of one campaign, read from its rules tabs (the GM's editable copy of templates/)."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources

from engine.core import i18n
from engine.core.cells import Bound, UndeclaredBound
from engine.core.errors import Problem
from engine.core.layout import Layout, find_tab, norm, records
from engine.core.money import amount
from engine.core.names import fold
from engine.core.tables import Cell, Tables, column_letter, is_blank

from . import conditions, naming
from .bounds import BOUNDS, param_bound
from .messages import _
from .vocab import (
    PATHS,
    RULES_BUILDINGS,
    RULES_COMBAT,
    RULES_CONVERSIONS,
    RULES_DEGRADATION,
    RULES_EVENT_ODDS,
    RULES_EVENTS,
    RULES_GOODS,
    RULES_GOVERNMENTS,
    RULES_PARAMS,
    RULES_STABILITY,
    RULES_TECHS,
    RULES_TRADE,
    RULES_TRANSITIONS,
    RULES_UNITS,
    STRATA,
    YES,
)


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
    governments: dict[str, Government]
    tax_percent: dict[int, Fraction]
    buildings: dict[str, Building]
    techs: dict[str, Technology]
    params: dict[str, Fraction]
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


def parse_workers(text: str) -> tuple[WorkerOption, ...]:
    """'2 раб | 1 СГ' -> two options; '3+ раб+СГ' -> at least three of slaves or citizens."""
    out: list[WorkerOption] = []
    for part in (text or "").split("|"):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(\d+)(\+?)\s+(.+)", part)
        if not m:
            raise ValueError(_("непонятные работники {part!r}: ожидается «2 раб» или «3+ раб+СГ»").format(part=part))
        strata = tuple(s.strip() for s in m.group(3).split("+") if s.strip())
        fixed = []
        for s in strata:
            code = naming.code("stratum", s)
            if code is None:
                raise ValueError(_("неизвестная страта {s!r} (есть: {known})").format(s=s, known=", ".join(STRATA)))
            fixed.append(code)
        out.append(WorkerOption(int(m.group(1)), tuple(fixed), bool(m.group(2))))
    return tuple(out)


def parse_effects(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in re.split(r"[;\n]", text or ""):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip().lstrip("+")
    return out


# effects that say what a template thing is (a port, a forum, weapons); a campaign created before
# they were in the rules data gets them from the template, by the thing's name in either language
ROLE_EFFECTS = frozenset(
    (
        *("port", "shipyard", "forum", "temple", "housing", "road", "lighthouse"),  # buildings
        "caravans",  # technologies
        *("precious", "arms", "slave_route"),  # goods
    )
)


@cache
def _template_roles(filename: str) -> dict[str, dict[str, str]]:
    """{folded name (Russian and English): its role effects} from a shipped rules table."""
    out: dict[str, dict[str, str]] = {}
    with (resources.files("templates") / "ancient" / filename).open(encoding="utf-8") as fh:
        for rec in csv.DictReader(fh):
            roles = {k: v for k, v in parse_effects(rec.get("effects") or "").items() if k in ROLE_EFFECTS}
            if roles:
                for name in (rec.get("name_ru"), rec.get("name_en")):
                    if name:
                        out[fold(name)] = roles
    return out


def _with_roles(filename: str, name: str, effects: dict[str, str]) -> dict[str, str]:
    """The row's effects, with the template's role effects it lacks (``port=0`` turns one off)."""
    roles = _template_roles(filename).get(fold(name), {})
    return {**roles, **effects} if roles else effects


def _split_list(cell: Cell) -> tuple[str, ...]:
    return tuple(x.strip() for x in re.split(r"[;\n]", str(cell or "")) if x.strip())


class _Reader:
    """Reads one rules tab, collecting problems with their cell; every number is checked against
    its column's bound declared in :mod:`.bounds` (issue 15, point 12)."""

    def __init__(self, tables: Tables, layout: Layout, problems: list[Problem]) -> None:
        self.problems = problems
        self.bounds = BOUNDS.get(layout, {})
        self.tab = find_tab(tables, layout) or ""
        self.rows: list[tuple[int, dict[str, Cell]]] = []
        self.cols: dict[str, int] = {}
        self.lang = "ru"
        if not self.tab:
            problems.append(
                Problem(layout.ru, 0, "", _("нет листа правил «{tab}»").format(tab=layout.tab_name(i18n.current())))
            )
            return
        grid = tables[self.tab]
        if not grid:
            problems.append(Problem(self.tab, 0, "", _("лист пуст")))
            return
        self.cols = layout.locate(self.tab, grid[0], problems)
        self.rows = records(grid, self.cols)
        # the campaign's own names are in its language's column; the other column holds aliases
        self.lang = "en" if norm(self.tab) == norm(layout.en) and norm(layout.en) != norm(layout.ru) else "ru"

    def name(self, rec: dict[str, Cell]) -> str:
        """The row's name in the campaign's language (the other language's when that is empty)."""
        ru, en = self.text(rec, "name_ru"), self.text(rec, "name_en")
        return (en or ru) if self.lang == "en" else (ru or en)

    def num(
        self, row: int, rec: dict[str, Cell], key: str, default: Fraction | None = None, bound: Bound | None = None
    ) -> Fraction:
        """The number in column ``key``, within ``bound`` (default: the column's declared one)."""
        if bound is None:
            if key not in self.bounds:
                raise UndeclaredBound(f"{self.tab}: no declared bound for the numeric column {key!r}")
            bound = self.bounds[key]
        value = rec.get(key)
        if is_blank(value):
            if default is not None:
                return default
            self._bad(row, key, _("пустая ячейка, нужно число"))
            return Fraction(0)
        try:
            num = amount(value)
        except (ValueError, TypeError, ZeroDivisionError, OverflowError):
            self._bad(row, key, _("не число: {value!r}").format(value=value))
            return Fraction(0)
        why = bound.problem(num)
        if why:
            self._bad(row, key, why)
            return default if default is not None else Fraction(0)
        return num

    def text(self, rec: dict[str, Cell], key: str) -> str:
        value = rec.get(key)
        return "" if is_blank(value) else str(value).strip()

    def _bad(self, row: int, key: str, message: str) -> None:
        col = column_letter(self.cols[key] + 1) if key in self.cols else ""
        self.problems.append(Problem(self.tab, row, col, message))

    bad = _bad


def load_rules(tables: Tables, problems: list[Problem]) -> Rules:
    """Build the rules from the campaign's rules tabs; every problem is appended to `problems`."""
    governments: dict[str, Government] = {}
    r = _Reader(tables, RULES_GOVERNMENTS, problems)
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if not key:
            r.bad(row, "key", _("пустой ключ формы правления"))
            continue
        opt = {
            k: (None if is_blank(rec.get(k)) else r.num(row, rec, k))
            for k in ("slave_to_citizen", "citizen_to_aristocrat")
        }
        governments[key] = Government(
            key=key,
            name_ru=r.name(rec) or key,
            name_en=r.text(rec, "name_en") or key,
            tax=r.num(row, rec, "tax"),
            science=r.num(row, rec, "science", Fraction(0)),
            army=int(r.num(row, rec, "army", Fraction(0))),
            stability_price=r.num(row, rec, "stability_price", Fraction(0)),
            money_per_turn=r.num(row, rec, "money_per_turn", Fraction(0)),
            money_per_aristocrat=r.num(row, rec, "money_per_aristocrat", Fraction(0)),
            money_per_province=r.num(row, rec, "money_per_province", Fraction(0)),
            money_per_route=r.num(row, rec, "money_per_route", Fraction(0)),
            stability_per_turn=int(r.num(row, rec, "stability_per_turn", Fraction(0))),
            slave_to_citizen=opt["slave_to_citizen"],
            citizen_to_aristocrat=opt["citizen_to_aristocrat"],
            people_per_turn=int(r.num(row, rec, "people_per_turn", Fraction(0))),
            colonise=norm(r.text(rec, "colonise") or "да") in YES,
            annex=norm(r.text(rec, "annex")) in YES,
            peace_bonus=int(r.num(row, rec, "peace_bonus", Fraction(0))),
        )

    tax_percent: dict[int, Fraction] = {}
    r = _Reader(tables, RULES_STABILITY, problems)
    for row, rec in r.rows:
        tax_percent[int(r.num(row, rec, "stability"))] = r.num(row, rec, "tax_percent")

    techs: dict[str, Technology] = {}
    r = _Reader(tables, RULES_TECHS, problems)
    for row, rec in r.rows:
        name = r.name(rec)
        if not name:
            continue
        techs[name] = Technology(
            name,
            r.text(rec, "name_en") or name,
            r.num(row, rec, "cost"),
            _split_list(rec.get("prerequisites")),
            _with_roles("technologies.csv", name, parse_effects(r.text(rec, "effects"))),
        )
    for t in techs.values():
        for pre in t.prerequisites:
            if pre not in techs:
                problems.append(
                    Problem(
                        RULES_TECHS.ru,
                        0,
                        "",
                        _("«{name_ru}» требует неизвестную технологию «{pre}»").format(name_ru=t.name_ru, pre=pre),
                    )
                )

    buildings: dict[str, Building] = {}
    r = _Reader(tables, RULES_BUILDINGS, problems)
    for row, rec in r.rows:
        name = r.name(rec)
        if not name:
            continue
        try:
            where = conditions.parse(r.text(rec, "where"))
        except conditions.ConditionSyntaxError as exc:
            r.bad(row, "where", str(exc))
            where = None
        try:
            workers = parse_workers(r.text(rec, "workers"))
        except ValueError as exc:
            r.bad(row, "workers", str(exc))
            workers = ()
        tech_list = _split_list(rec.get("tech"))
        for t in tech_list:
            if techs and t not in techs:
                r.bad(row, "tech", _("неизвестная технология «{t}»").format(t=t))
        buildings[name] = Building(
            name_ru=name,
            name_en=r.text(rec, "name_en") or name,
            group=r.text(rec, "group"),
            cost=r.num(row, rec, "cost"),
            cost_slaves=int(r.num(row, rec, "cost_slaves", Fraction(0))),
            techs=tech_list,
            where_text=r.text(rec, "where"),
            where=where,
            workers=workers,
            workshop=norm(r.text(rec, "workshop")) in YES,
            unique=r.text(rec, "unique") or "province",
            produces=r.text(rec, "produces"),
            effects=_with_roles("buildings.csv", name, parse_effects(r.text(rec, "effects"))),
            rule_ids=_split_list(rec.get("rule_ids")),
        )

    params: dict[str, Fraction] = {}
    r = _Reader(tables, RULES_PARAMS, problems)
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if key:
            params[key] = r.num(row, rec, "value", bound=param_bound(key))
    for key in REQUIRED_PARAMS:
        if r.tab and key not in params:
            problems.append(Problem(r.tab, 0, "", _("нет параметра «{key}»").format(key=key)))
    for key, value in PARAM_DEFAULTS.items():
        params.setdefault(key, value)

    def opt_int(rd: _Reader, row: int, rec: dict[str, Cell], key: str) -> int | None:
        return None if is_blank(rec.get(key)) else int(rd.num(row, rec, key))

    def gov_key(rd: _Reader, row: int, rec: dict[str, Cell], key: str) -> str:
        text = rd.text(rec, key)
        for g in governments.values():
            if norm(text) in (norm(g.key), norm(g.name_ru), norm(g.name_en)):
                return g.key
        if governments:
            rd.bad(row, key, _("неизвестная форма правления «{text}»").format(text=text))
        return text

    def path_of(rd: _Reader, row: int, rec: dict[str, Cell]) -> str:
        text = rd.text(rec, "path")
        if norm(text) in ("any", "любой", ""):
            return "any"
        if norm(text) not in {norm(k) for k in PATHS}:
            rd.bad(
                row, "path", _("путь должен быть «западный», «восточный» или «любой», а не «{text}»").format(text=text)
            )
        return PATHS.get(text.lower(), "any")

    transitions: list[Transition] = []
    r = _Reader(tables, RULES_TRANSITIONS, problems)
    for row, rec in r.rows:
        transitions.append(
            Transition(
                src=gov_key(r, row, rec, "from"),
                dst=gov_key(r, row, rec, "to"),
                path=path_of(r, row, rec),
                stability_min=opt_int(r, row, rec, "stability_min"),
                stability_max=opt_int(r, row, rec, "stability_max"),
                peace=norm(r.text(rec, "peace")) in YES,
                war=norm(r.text(rec, "war")) in YES,
                aristocrats_min=opt_int(r, row, rec, "aristocrats_min"),
                aristocrats_max=opt_int(r, row, rec, "aristocrats_max"),
                temples_min=opt_int(r, row, rec, "temples_min"),
                forums_min=opt_int(r, row, rec, "forums_min"),
                provinces_min=opt_int(r, row, rec, "provinces_min"),
                treasury_min=None if is_blank(rec.get("treasury_min")) else r.num(row, rec, "treasury_min"),
                tech=r.text(rec, "tech"),
            )
        )

    degradation: list[Degradation] = []
    r = _Reader(tables, RULES_DEGRADATION, problems)
    for row, rec in r.rows:
        cond = r.text(rec, "condition")
        if cond and not re.fullmatch(r"\s*\w+\s*(>=|<=|>|<|==|=)\s*\w+\s*", cond):
            r.bad(
                row,
                "condition",
                _("непонятное условие «{cond}»: ожидается, например, «provinces>=3»").format(cond=cond),
            )
        degradation.append(
            Degradation(gov_key(r, row, rec, "from"), path_of(r, row, rec), gov_key(r, row, rec, "to"), cond)
        )

    goods: dict[str, Good] = {}
    r = _Reader(tables, RULES_GOODS, problems)
    for _row, rec in r.rows:
        name = r.name(rec)
        if name:
            goods[name] = Good(
                name,
                r.text(rec, "name_en") or name,
                r.text(rec, "specialisation"),
                norm(r.text(rec, "food")) in YES,
                _with_roles("goods.csv", name, parse_effects(r.text(rec, "effects"))),
            )

    conversions: list[Conversion] = []
    r = _Reader(tables, RULES_CONVERSIONS, problems)
    for row, rec in r.rows:
        src, dst = r.text(rec, "from"), r.text(rec, "to")
        for key, value in (("from", src), ("to", dst)):
            if naming.code("stratum", value) is None:
                r.bad(
                    row,
                    key,
                    _("неизвестная страта «{value}» (есть: {known})").format(value=value, known=", ".join(STRATA)),
                )
        cost = r.text(rec, "cost")
        if not cost.startswith("gov:"):
            r.num(row, rec, "cost")
        goods_list = tuple(g.strip() for g in r.text(rec, "goods").split("|") if g.strip())
        for g in goods_list:
            if goods and g not in goods:
                r.bad(row, "goods", _("неизвестный товар «{g}»").format(g=g))
        conversions.append(
            Conversion(
                naming.code("stratum", src) or src,
                naming.code("stratum", dst) or dst,
                cost,
                goods_list,
                opt_int(r, row, rec, "per_turn_max"),
                tuple(
                    gov_key(r, row, {"g": g}, "g") for g in re.split(r"[;,]", r.text(rec, "governments")) if g.strip()
                ),
                r.text(rec, "discount_effect"),
            )
        )

    events: dict[str, EventCard] = {}
    r = _Reader(tables, RULES_EVENTS, problems)
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if not key:
            continue
        target = r.text(rec, "target")
        if target not in ("state", "province", "capital", "sea"):
            r.bad(
                row,
                "target",
                _("цель события должна быть state, province, capital или sea, а не «{target}»").format(target=target),
            )
        events[key] = EventCard(
            key,
            r.name(rec) or key,
            r.text(rec, "name_en") or key,
            r.text(rec, "kind") or "bad",
            r.num(row, rec, "weight", Fraction(1)),
            target,
            r.text(rec, "condition"),
            parse_effects(r.text(rec, "effects")),
            r.text(rec, "text_ru"),
        )

    odds: dict[int, tuple[Fraction, Fraction]] = {}
    r = _Reader(tables, RULES_EVENT_ODDS, problems)
    for row, rec in r.rows:
        odds[int(r.num(row, rec, "stability"))] = (r.num(row, rec, "bad_weight"), r.num(row, rec, "good_weight"))
    units: dict[str, UnitType] = {}
    r = _Reader(tables, RULES_UNITS, problems)
    for row, rec in r.rows:
        t = r.text(rec, "type")
        if not t:
            continue
        t = naming.code("unit", t) or t  # a unit type is a code: «LI» in English is «ЛП»
        terrain: dict[str, int] = {}
        for part in re.split(r"[;,]", r.text(rec, "terrain")):
            if ":" in part:
                k, v = part.split(":", 1)
                try:
                    terrain[k.strip().lower()] = int(v.strip())
                except ValueError:
                    r.bad(row, "terrain", _("непонятный модификатор «{v}»: ожидается «горы:+1»").format(v=part.strip()))
        try:
            where = conditions.parse(r.text(rec, "where"))
        except conditions.ConditionSyntaxError as exc:
            r.bad(row, "where", str(exc))
            where = None
        strata = tuple(naming.code("stratum", x) or x for x in r.text(rec, "strata").split("|") if x.strip())
        for x in strata:
            if x not in STRATA:
                r.bad(row, "strata", _("неизвестная страта «{x}»").format(x=x))
        kind = "sea" if norm(r.text(rec, "kind")) in ("sea", "море", "флот") else "land"
        units[t] = UnitType(
            type=t,
            name_ru=r.name(rec) or t,
            name_en=r.text(rec, "name_en") or t,
            kind=kind,
            recruits=int(r.num(row, rec, "recruits", Fraction(1))),
            strata=strata,
            cost=r.num(row, rec, "cost"),
            goods=tuple(g.strip() for g in r.text(rec, "goods").split("+") if g.strip()),
            upkeep=r.num(row, rec, "upkeep", Fraction(0)),
            strength=int(r.num(row, rec, "strength")),
            moves=int(r.num(row, rec, "moves", Fraction(1))),
            terrain=terrain,
            weight=None if is_blank(rec.get("weight")) else int(r.num(row, rec, "weight")),
            capacity=int(r.num(row, rec, "capacity", Fraction(0))),
            value=int(r.num(row, rec, "value", Fraction(0))),
            where_text=r.text(rec, "where"),
            where=where,
            tech=r.text(rec, "tech"),
        )

    combat: list[CombatBand] = []
    r = _Reader(tables, RULES_COMBAT, problems)
    results = {
        "атакующий": "attacker",
        "attacker": "attacker",
        "победа атакующего": "attacker",
        "защитник": "defender",
        "defender": "defender",
        "победа защитника": "defender",
        "ничья": "draw",
        "draw": "draw",
    }
    for row, rec in r.rows:
        result = results.get(norm(r.text(rec, "result")), "")
        if not result:
            r.bad(
                row,
                "result",
                _("итог должен быть «атакующий», «защитник» или «ничья», а не «{v}»").format(v=r.text(rec, "result")),
            )
        kind = "море" if norm(r.text(rec, "kind")) in ("море", "sea", "морской") else "суша"
        combat.append(
            CombatBand(
                kind,
                r.num(row, rec, "ratio_min"),
                None if is_blank(rec.get("ratio_max")) else r.num(row, rec, "ratio_max"),
                result,
                r.num(row, rec, "attacker_loss"),
                r.num(row, rec, "defender_loss"),
                row,
            )
        )
    trade: dict[str, tuple[Fraction | None, ...]] = {}
    r = _Reader(tables, RULES_TRADE, problems)
    for row, rec in r.rows:
        good = r.text(rec, "good")
        if not good:
            continue
        if goods and good not in goods:
            r.bad(row, "good", _("неизвестный товар «{good}»").format(good=good))
        trade[good] = tuple(None if is_blank(rec.get(f"d{i}")) else r.num(row, rec, f"d{i}") for i in range(1, 11))
    return Rules(
        governments,
        tax_percent,
        buildings,
        techs,
        params,
        tuple(transitions),
        tuple(degradation),
        tuple(conversions),
        goods,
        events,
        odds,
        units,
        tuple(combat),
        trade,
    )
