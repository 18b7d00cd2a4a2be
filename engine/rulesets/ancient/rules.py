"""The rules of one campaign, read from its rules tabs (the GM's editable copy of templates/)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.core.cells import Bound, UndeclaredBound
from engine.core.errors import Problem
from engine.core.layout import Layout, find_tab, norm, records
from engine.core.money import amount
from engine.core.tables import Cell, Tables, column_letter, is_blank

from . import conditions
from .bounds import BOUNDS, param_bound
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
        return " или ".join(w.text() for w in self.workers)


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
        """Find a government by key, Russian or English name."""
        n = norm(text)
        for g in self.governments.values():
            if n in (norm(g.key), norm(g.name_ru), norm(g.name_en)):
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
            raise ValueError(f"непонятные работники {part!r}: ожидается «2 раб» или «3+ раб+СГ»")
        strata = tuple(s.strip() for s in m.group(3).split("+") if s.strip())
        known = {norm(s): s for s in STRATA}
        fixed = []
        for s in strata:
            if norm(s) not in known:
                raise ValueError(f"неизвестная страта {s!r} (есть: {', '.join(STRATA)})")
            fixed.append(known[norm(s)])
        out.append(WorkerOption(int(m.group(1)), tuple(fixed), bool(m.group(2))))
    return tuple(out)


def parse_effects(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in re.split(r"[;\n]", text or ""):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip().lstrip("+")
    return out


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
        if not self.tab:
            problems.append(Problem(layout.ru, 0, "", f"нет листа правил «{layout.ru}» ({layout.en})"))
            return
        grid = tables[self.tab]
        if not grid:
            problems.append(Problem(self.tab, 0, "", "лист пуст"))
            return
        self.cols = layout.locate(self.tab, grid[0], problems)
        self.rows = records(grid, self.cols)

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
            self._bad(row, key, "пустая ячейка, нужно число")
            return Fraction(0)
        try:
            num = amount(value)
        except (ValueError, TypeError, ZeroDivisionError, OverflowError):
            self._bad(row, key, f"не число: {value!r}")
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


def opt_int(rd: _Reader, row: int, rec: dict[str, Cell], key: str) -> int | None:
    """The whole number in column ``key``, or None when the cell is blank."""
    return None if is_blank(rec.get(key)) else int(rd.num(row, rec, key))


def path_of(rd: _Reader, row: int, rec: dict[str, Cell]) -> str:
    """The path (western, eastern or any) in column ``path`` of a transition or degradation row."""
    text = rd.text(rec, "path")
    if norm(text) in ("any", "любой", ""):
        return "any"
    if norm(text) not in {norm(k) for k in PATHS}:
        rd.bad(row, "path", f"путь должен быть «западный», «восточный» или «любой», а не «{text}»")
    return PATHS.get(text.lower(), "any")


@dataclass
class _Loaded:
    """The rules tabs read so far: a later tab looks names up in an earlier one (a building's
    technologies, a transition's forms of government, a conversion's goods)."""

    governments: dict[str, Government] = field(default_factory=dict)
    techs: dict[str, Technology] = field(default_factory=dict)
    goods: dict[str, Good] = field(default_factory=dict)

    def gov_key(self, rd: _Reader, row: int, rec: dict[str, Cell], key: str) -> str:
        """The key of the form of government named in column ``key`` (its key, Russian or English name)."""
        text = rd.text(rec, key)
        for g in self.governments.values():
            if norm(text) in (norm(g.key), norm(g.name_ru), norm(g.name_en)):
                return g.key
        if self.governments:
            rd.bad(row, key, f"неизвестная форма правления «{text}»")
        return text


def _load_governments(r: _Reader, got: _Loaded) -> dict[str, Government]:
    """The forms of government, by key."""
    governments: dict[str, Government] = {}
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if not key:
            r.bad(row, "key", "пустой ключ формы правления")
            continue
        opt = {
            k: (None if is_blank(rec.get(k)) else r.num(row, rec, k))
            for k in ("slave_to_citizen", "citizen_to_aristocrat")
        }
        governments[key] = Government(
            key=key,
            name_ru=r.text(rec, "name_ru") or key,
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
    return governments


def _load_stability(r: _Reader, got: _Loaded) -> dict[int, Fraction]:
    """The tax percentage at each stability."""
    tax_percent: dict[int, Fraction] = {}
    for row, rec in r.rows:
        tax_percent[int(r.num(row, rec, "stability"))] = r.num(row, rec, "tax_percent")
    return tax_percent


def _load_techs(r: _Reader, got: _Loaded) -> dict[str, Technology]:
    """The technologies, by Russian name; a prerequisite must be one of them."""
    problems = r.problems
    techs: dict[str, Technology] = {}
    for row, rec in r.rows:
        name = r.text(rec, "name_ru")
        if not name:
            continue
        techs[name] = Technology(
            name,
            r.text(rec, "name_en") or name,
            r.num(row, rec, "cost"),
            _split_list(rec.get("prerequisites")),
            parse_effects(r.text(rec, "effects")),
        )
    for t in techs.values():
        for pre in t.prerequisites:
            if pre not in techs:
                problems.append(Problem(RULES_TECHS.ru, 0, "", f"«{t.name_ru}» требует неизвестную технологию «{pre}»"))
    return techs


def _load_buildings(r: _Reader, got: _Loaded) -> dict[str, Building]:
    """The buildings, by Russian name (their technologies must be known ones)."""
    techs = got.techs
    buildings: dict[str, Building] = {}
    for row, rec in r.rows:
        name = r.text(rec, "name_ru")
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
                r.bad(row, "tech", f"неизвестная технология «{t}»")
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
            effects=parse_effects(r.text(rec, "effects")),
            rule_ids=_split_list(rec.get("rule_ids")),
        )
    return buildings


def _load_params(r: _Reader, got: _Loaded) -> dict[str, Fraction]:
    """The numeric parameters; the required ones must be there, the rest have defaults."""
    problems = r.problems
    params: dict[str, Fraction] = {}
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if key:
            params[key] = r.num(row, rec, "value", bound=param_bound(key))
    for key in REQUIRED_PARAMS:
        if r.tab and key not in params:
            problems.append(Problem(r.tab, 0, "", f"нет параметра «{key}»"))
    for key, value in PARAM_DEFAULTS.items():
        params.setdefault(key, value)
    return params


def _load_transitions(r: _Reader, got: _Loaded) -> tuple[Transition, ...]:
    """The ways one form of government turns into another."""
    gov_key = got.gov_key
    transitions: list[Transition] = []
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
    return tuple(transitions)


def _load_degradation(r: _Reader, got: _Loaded) -> tuple[Degradation, ...]:
    """The ways a form of government degrades."""
    gov_key = got.gov_key
    degradation: list[Degradation] = []
    for row, rec in r.rows:
        cond = r.text(rec, "condition")
        if cond and not re.fullmatch(r"\s*\w+\s*(>=|<=|>|<|==|=)\s*\w+\s*", cond):
            r.bad(row, "condition", f"непонятное условие «{cond}»: ожидается, например, «provinces>=3»")
        degradation.append(
            Degradation(gov_key(r, row, rec, "from"), path_of(r, row, rec), gov_key(r, row, rec, "to"), cond)
        )
    return tuple(degradation)


def _load_goods(r: _Reader, got: _Loaded) -> dict[str, Good]:
    """The goods, by Russian name."""
    goods: dict[str, Good] = {}
    for _row, rec in r.rows:
        name = r.text(rec, "name_ru")
        if name:
            goods[name] = Good(
                name, r.text(rec, "name_en") or name, r.text(rec, "specialisation"), norm(r.text(rec, "food")) in YES
            )
    return goods


def _load_conversions(r: _Reader, got: _Loaded) -> tuple[Conversion, ...]:
    """The conversions of one stratum into another (their goods must be known ones)."""
    gov_key, goods = got.gov_key, got.goods
    conversions: list[Conversion] = []
    known = {norm(s): s for s in STRATA}
    for row, rec in r.rows:
        src, dst = r.text(rec, "from"), r.text(rec, "to")
        for key, value in (("from", src), ("to", dst)):
            if norm(value) not in known:
                r.bad(row, key, f"неизвестная страта «{value}» (есть: {', '.join(STRATA)})")
        cost = r.text(rec, "cost")
        if not cost.startswith("gov:"):
            r.num(row, rec, "cost")
        goods_list = tuple(g.strip() for g in r.text(rec, "goods").split("|") if g.strip())
        for g in goods_list:
            if goods and g not in goods:
                r.bad(row, "goods", f"неизвестный товар «{g}»")
        conversions.append(
            Conversion(
                known.get(norm(src), src),
                known.get(norm(dst), dst),
                cost,
                goods_list,
                opt_int(r, row, rec, "per_turn_max"),
                tuple(
                    gov_key(r, row, {"g": g}, "g") for g in re.split(r"[;,]", r.text(rec, "governments")) if g.strip()
                ),
                r.text(rec, "discount_effect"),
            )
        )
    return tuple(conversions)


def _load_events(r: _Reader, got: _Loaded) -> dict[str, EventCard]:
    """The event cards, by key."""
    events: dict[str, EventCard] = {}
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if not key:
            continue
        target = r.text(rec, "target")
        if target not in ("state", "province", "capital", "sea"):
            r.bad(row, "target", f"цель события должна быть state, province, capital или sea, а не «{target}»")
        events[key] = EventCard(
            key,
            r.text(rec, "name_ru") or key,
            r.text(rec, "name_en") or key,
            r.text(rec, "kind") or "bad",
            r.num(row, rec, "weight", Fraction(1)),
            target,
            r.text(rec, "condition"),
            parse_effects(r.text(rec, "effects")),
            r.text(rec, "text_ru"),
        )
    return events


def _load_event_odds(r: _Reader, got: _Loaded) -> dict[int, tuple[Fraction, Fraction]]:
    """The weights of bad and good events at each stability."""
    odds: dict[int, tuple[Fraction, Fraction]] = {}
    for row, rec in r.rows:
        odds[int(r.num(row, rec, "stability"))] = (r.num(row, rec, "bad_weight"), r.num(row, rec, "good_weight"))
    return odds


def _load_units(r: _Reader, got: _Loaded) -> dict[str, UnitType]:
    """The unit types, by type."""
    known = {norm(s): s for s in STRATA}
    units: dict[str, UnitType] = {}
    for row, rec in r.rows:
        t = r.text(rec, "type")
        if not t:
            continue
        terrain: dict[str, int] = {}
        for part in re.split(r"[;,]", r.text(rec, "terrain")):
            if ":" in part:
                k, v = part.split(":", 1)
                try:
                    terrain[k.strip().lower()] = int(v.strip())
                except ValueError:
                    r.bad(row, "terrain", f"непонятный модификатор «{part.strip()}»: ожидается «горы:+1»")
        try:
            where = conditions.parse(r.text(rec, "where"))
        except conditions.ConditionSyntaxError as exc:
            r.bad(row, "where", str(exc))
            where = None
        strata = tuple(known.get(norm(x), x) for x in r.text(rec, "strata").split("|") if x.strip())
        for x in strata:
            if x not in STRATA:
                r.bad(row, "strata", f"неизвестная страта «{x}»")
        kind = "sea" if norm(r.text(rec, "kind")) in ("sea", "море", "флот") else "land"
        units[t] = UnitType(
            type=t,
            name_ru=r.text(rec, "name_ru") or t,
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
    return units


def _load_combat(r: _Reader, got: _Loaded) -> tuple[CombatBand, ...]:
    """The bands of the combat table."""
    combat: list[CombatBand] = []
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
                row, "result", f"итог должен быть «атакующий», «защитник» или «ничья», а не «{r.text(rec, 'result')}»"
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
    return tuple(combat)


def _load_trade(r: _Reader, got: _Loaded) -> dict[str, tuple[Fraction | None, ...]]:
    """The seller's income of each good by distance (1 to 10 steps)."""
    goods = got.goods
    trade: dict[str, tuple[Fraction | None, ...]] = {}
    for row, rec in r.rows:
        good = r.text(rec, "good")
        if not good:
            continue
        if goods and good not in goods:
            r.bad(row, "good", f"неизвестный товар «{good}»")
        trade[good] = tuple(None if is_blank(rec.get(f"d{i}")) else r.num(row, rec, f"d{i}") for i in range(1, 11))
    return trade


#: One loader per rules tab, in the order the tabs are read (a loader may use what an earlier one
#: read): the tab, the field of :class:`Rules` it fills, and the loader.
TAB_LOADERS: tuple[tuple[Layout, str, Callable[[_Reader, _Loaded], Any]], ...] = (
    (RULES_GOVERNMENTS, "governments", _load_governments),
    (RULES_STABILITY, "tax_percent", _load_stability),
    (RULES_TECHS, "techs", _load_techs),
    (RULES_BUILDINGS, "buildings", _load_buildings),
    (RULES_PARAMS, "params", _load_params),
    (RULES_TRANSITIONS, "transitions", _load_transitions),
    (RULES_DEGRADATION, "degradation", _load_degradation),
    (RULES_GOODS, "goods", _load_goods),
    (RULES_CONVERSIONS, "conversions", _load_conversions),
    (RULES_EVENTS, "events", _load_events),
    (RULES_EVENT_ODDS, "event_odds", _load_event_odds),
    (RULES_UNITS, "units", _load_units),
    (RULES_COMBAT, "combat", _load_combat),
    (RULES_TRADE, "trade", _load_trade),
)


def load_rules(tables: Tables, problems: list[Problem]) -> Rules:
    """Build the rules from the campaign's rules tabs; every problem is appended to `problems`."""
    got = _Loaded()
    read: dict[str, Any] = {}
    for layout, name, loader in TAB_LOADERS:
        read[name] = loader(_Reader(tables, layout, problems), got)
        if hasattr(got, name):  # what later tabs look names up in
            setattr(got, name, read[name])
    return Rules(**read)
