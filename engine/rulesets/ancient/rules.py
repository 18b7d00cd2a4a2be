"""The rules of one campaign, read from its rules tabs (the GM's editable copy of templates/)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from engine.core.errors import Problem
from engine.core.layout import Layout, find_tab, norm, records
from engine.core.money import amount
from engine.core.tables import Cell, Tables, column_letter, is_blank

from . import conditions
from .vocab import (
    RULES_BUILDINGS,
    RULES_GOVERNMENTS,
    RULES_PARAMS,
    RULES_STABILITY,
    RULES_TECHS,
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


@dataclass(frozen=True)
class Rules:
    governments: dict[str, Government]
    tax_percent: dict[int, Fraction]
    buildings: dict[str, Building]
    techs: dict[str, Technology]
    params: dict[str, Fraction]

    def param(self, key: str) -> Fraction:
        return self.params[key]

    def government(self, text: str) -> Government | None:
        """Find a government by key, Russian or English name."""
        n = norm(text)
        for g in self.governments.values():
            if n in (norm(g.key), norm(g.name_ru), norm(g.name_en)):
                return g
        return None


REQUIRED_PARAMS = ("stability_min", "stability_max", "stability_price", "stability_price_min",
                   "stability_per_turn_max", "mint_per_province", "workshops_per_province")


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
    """Reads one rules tab, collecting problems with their cell."""

    def __init__(self, tables: Tables, layout: Layout, problems: list[Problem]) -> None:
        self.problems = problems
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

    def num(self, row: int, rec: dict[str, Cell], key: str, default: Fraction | None = None) -> Fraction:
        value = rec.get(key)
        if is_blank(value):
            if default is not None:
                return default
            self._bad(row, key, "пустая ячейка, нужно число")
            return Fraction(0)
        try:
            return amount(value)
        except (ValueError, TypeError, ZeroDivisionError):
            self._bad(row, key, f"не число: {value!r}")
            return Fraction(0)

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
            r.bad(row, "key", "пустой ключ формы правления")
            continue
        opt = {k: (None if is_blank(rec.get(k)) else r.num(row, rec, k))
               for k in ("slave_to_citizen", "citizen_to_aristocrat")}
        governments[key] = Government(
            key=key, name_ru=r.text(rec, "name_ru") or key, name_en=r.text(rec, "name_en") or key,
            tax=r.num(row, rec, "tax"), science=r.num(row, rec, "science", Fraction(0)),
            army=int(r.num(row, rec, "army", Fraction(0))),
            stability_price=r.num(row, rec, "stability_price", Fraction(0)),
            money_per_turn=r.num(row, rec, "money_per_turn", Fraction(0)),
            money_per_aristocrat=r.num(row, rec, "money_per_aristocrat", Fraction(0)),
            money_per_province=r.num(row, rec, "money_per_province", Fraction(0)),
            money_per_route=r.num(row, rec, "money_per_route", Fraction(0)),
            stability_per_turn=int(r.num(row, rec, "stability_per_turn", Fraction(0))),
            slave_to_citizen=opt["slave_to_citizen"], citizen_to_aristocrat=opt["citizen_to_aristocrat"],
        )

    tax_percent: dict[int, Fraction] = {}
    r = _Reader(tables, RULES_STABILITY, problems)
    for row, rec in r.rows:
        tax_percent[int(r.num(row, rec, "stability"))] = r.num(row, rec, "tax_percent")

    techs: dict[str, Technology] = {}
    r = _Reader(tables, RULES_TECHS, problems)
    for row, rec in r.rows:
        name = r.text(rec, "name_ru")
        if not name:
            continue
        techs[name] = Technology(name, r.text(rec, "name_en") or name, r.num(row, rec, "cost"),
                                 _split_list(rec.get("prerequisites")))
    for t in techs.values():
        for pre in t.prerequisites:
            if pre not in techs:
                problems.append(Problem(RULES_TECHS.ru, 0, "", f"«{t.name_ru}» требует неизвестную технологию «{pre}»"))

    buildings: dict[str, Building] = {}
    r = _Reader(tables, RULES_BUILDINGS, problems)
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
            name_ru=name, name_en=r.text(rec, "name_en") or name, group=r.text(rec, "group"),
            cost=r.num(row, rec, "cost"), cost_slaves=int(r.num(row, rec, "cost_slaves", Fraction(0))),
            techs=tech_list, where_text=r.text(rec, "where"), where=where, workers=workers,
            workshop=norm(r.text(rec, "workshop")) in YES, unique=r.text(rec, "unique") or "province",
            produces=r.text(rec, "produces"), effects=parse_effects(r.text(rec, "effects")),
            rule_ids=_split_list(rec.get("rule_ids")),
        )

    params: dict[str, Fraction] = {}
    r = _Reader(tables, RULES_PARAMS, problems)
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if key:
            params[key] = r.num(row, rec, "value")
    for key in REQUIRED_PARAMS:
        if r.tab and key not in params:
            problems.append(Problem(r.tab, 0, "", f"нет параметра «{key}»"))
    return Rules(governments, tax_percent, buildings, techs, params)
