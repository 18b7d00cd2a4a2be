"""The default orders of a nation whose leader sent no rows when a stage closes (CIV-AFK-01).

The seed: «Если лидер пропускает дедлайн (не делает своевременно заявку), заявку за него делает
Ведущий по указанным ниже правилам: в фазу государства: за монеты - восстановление уничтоженных
войск (начиная с самых современных), апгрейд войск, изучение случайной технологии максимально
доступного уровня (при наличии ресурса); в фазу городов: активация городов, сбор науки, молотков и
строительство лучших войск (упор на производство молотков, науки; монеты копятся)».

The orders are `Given` rows: a stand-in `OrderRow` (engine.core.absence.stand_in: row −1, −2, …, on no
sheet) whose cells say what a player would have written, with the typed order beside it, so the
stage's phases judge them like a player's rows.  Budgets are simulated here only to choose: the
phases charge and may still refuse.  The one random pick (the technology) is a named die,
«afk:research» with the nation as subject.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections import Counter
from collections.abc import Mapping

from engine.core import absence
from engine.core.cursor import Cursor
from engine.core.dice import Dice
from engine.core.orders import OrderRow
from engine.core.tables import Cell, Tables

from . import hexes
from .model import DESTROYED, City, World
from .ordertypes import CITIES, STATE, Activate, BuildUnit, Given, Order, Research, Restore, Upgrade, Work
from .phases.cities import SKIPS
from .rules import Rules
from .yields import HAMMERS, SCIENCE, buildable_units, building_yield, hex_yield, workable_hexes

RESEARCH_DIE = "afk:research"
# what a player would write, by the campaign's language (the order words of orders.py)
WORDS = {
    "ru": {STATE: "государство", CITIES: "города", HAMMERS: "молоток", SCIENCE: "наука", "restore": "Восстановить",
           "upgrade": "Улучшить", "research": "Изучить", "activate": "Активировать", "work": "Обработка",
           "unit": "Войско", "comment": "за лидера (AFK)", "tab": "Приказы — {nation}"},
    "en": {STATE: "state", CITIES: "cities", HAMMERS: "hammers", SCIENCE: "science", "restore": "Restore",
           "upgrade": "Upgrade", "research": "Research", "activate": "Activate", "work": "Work",
           "unit": "Unit", "comment": "for the leader (AFK)", "tab": "Orders — {nation}"},
}


def order_tab(nation: str, lang: str = "ru") -> str:
    """A nation's order tab, where its stand-ins are said to stand."""
    return WORDS.get(lang, WORDS["ru"])["tab"].format(nation=nation)


class _Rows:
    """The stand-ins being made for one nation at one window, numbered −1, −2, …"""

    def __init__(self, nation: str, stage: str, cursor: str, lang: str, rules: Rules) -> None:
        self.nation, self.stage, self.cursor, self.lang, self.rules = nation, stage, cursor, lang, rules
        self.words = WORDS.get(lang, WORDS["ru"])
        self.out: list[Given] = []

    def name(self, key: str) -> str:
        """A unit's or technology's name in the campaign's language."""
        item = self.rules.units.get(key) or self.rules.techs.get(key)
        return item.name_en if item is not None and self.lang == "en" else key

    def add(self, order: Order, action: str, **cells: Cell) -> None:
        w = self.words
        full: dict[str, Cell] = {"stage": w[self.stage], "action": w[action], **cells, "comment": w["comment"]}
        row = absence.stand_in(order_tab(self.nation, self.lang), self.nation, len(self.out) + 1, full)
        if self.cursor:
            row = dataclasses.replace(row, cursor=self.cursor)
        self.out.append(Given(row, order))


def default_orders(tables: Tables, side: str, cursor: Cursor) -> list[OrderRow]:
    """`Ruleset.default_orders`: the stand-in rows of an absent nation at window `cursor`, read from
    the campaign (the codec's world and rules) -- a forecast drawn with blind dice: the resolve
    draws the random technology with the window's own dice (seeded by the GM's secret), so nobody
    can predict it from what the sheet shows."""
    codec = importlib.import_module(f"{__package__}.codec")
    rules: Rules = codec.read_rules(tables)
    world: World = codec.decode(tables, cursor, rules)
    dice = Dice.blind_dice()
    return [g.row for g in stand_ins(world, rules, side, cursor.stage, dice, cursor.key())]


def stand_ins(world: World, rules: Rules, nation: str, stage: str, dice: Dice, cursor: str = "") -> list[Given]:
    """The orders the GM gives for an absent `nation` at the `stage` window («state» | «cities»),
    as rows with their typed orders."""
    rows = _Rows(nation, stage, cursor, world.lang, rules)
    if stage == STATE:
        _state(world, rules, nation, dice, rows)
    elif stage == CITIES:
        _cities(world, rules, nation, rows)
    return rows.out


# --- the state stage -----------------------------------------------------------------------------


def _state(world: World, rules: Rules, nation: str, dice: Dice, rows: _Rows) -> None:
    """Restore the destroyed units most modern first, upgrade, research — all while the coins and
    the science last."""
    n = world.nations[nation]
    coins = n.coins
    deck = world.decks.get(nation)
    cards = list(deck.cards) if deck else []
    era = {k: u.era for k, u in rules.units.items()}
    restored: Counter[str] = Counter()
    for card in sorted((c for c in cards if c.state == DESTROYED), key=lambda c: -era.get(c.unit, 0)):
        if card.unit not in rules.units:
            continue
        price = rules.restore_price(card.unit)
        if price <= coins:
            coins -= price
            restored[card.unit] += 1
    for unit, qty in sorted(restored.items(), key=lambda kv: -era[kv[0]]):
        rows.add(Restore(unit, qty), "restore", object=rows.name(unit), qty=qty)
    alive = [c.unit for c in cards if c.state != DESTROYED and c.unit in rules.units] + list(restored.elements())
    best = {}
    for u in buildable_units(rules, n.techs):
        best.setdefault(u.unit_class, u)
    upgrades: Counter[tuple[str, str]] = Counter()
    for unit in sorted(alive, key=lambda k: -era[k]):
        to = best.get(rules.units[unit].unit_class)
        if to is None or to.era <= era[unit]:
            continue
        price = rules.upgrade_price(unit, to.name_ru)
        if price <= coins:
            coins -= price
            upgrades[unit, to.name_ru] += 1
    for (unit, to_), qty in upgrades.items():
        rows.add(Upgrade(unit, to_, qty), "upgrade", object=f"{rows.name(unit)} → {rows.name(to_)}", qty=qty)
    tech = _research(world, rules, nation, dice)
    if tech:
        rows.add(Research(tech), "research", object=rows.name(tech))


def _research(world: World, rules: Rules, nation: str, dice: Dice) -> str:
    """A random technology of the highest level the pyramid allows and the science pays; '' if none."""
    n = world.nations[nation]
    counts: Counter[int] = Counter(rules.techs[t].level for t in n.techs if t in rules.techs)
    for level in sorted({t.level for t in rules.techs.values()}, reverse=True):
        if not rules.may_research(counts, level):
            continue
        choices = [t.name_ru for t in rules.techs.values()
                   if t.level == level and (t.name_ru not in n.techs or t.repeatable)
                   and rules.eras[t.era].tech_cost <= n.science]
        if not choices:
            continue
        if dice.blind:
            dice.withhold(RESEARCH_DIE, nation)
            return choices[0]
        return choices[dice.roll(RESEARCH_DIE, len(choices), nation) - 1]
    return ""


# --- the cities stage ----------------------------------------------------------------------------


def _cities(world: World, rules: Rules, nation: str, rows: _Rows) -> None:
    """Activate every city while Власть lasts (the capital first, then the largest); each works its
    hexes for hammers until the best unit is paid, the rest for science, and builds that unit."""
    n = world.nations[nation]
    power = n.power
    price = rules.prices["activate"].amount
    cities = sorted((c for c in world.cities_of(nation) if c.status not in SKIPS),
                    key=lambda c: (c.name != n.capital, -c.population, c.name))
    units = buildable_units(rules, n.techs)
    best = units[0] if units else None
    for city in cities:
        if power < price:
            break
        power -= price
        rows.add(Activate(city.name), "activate", where=city.name)
        hammers = city.hammers + building_yield(rules, city).hammers
        cost = rules.eras[best.era].unit_cost if best else None
        for h, choice in _work_plan(world, rules, city, cost, hammers):
            rows.add(Work(city.name, h, choice), "work", where=city.name, object=hexes.text(h),
                     to=rows.words[choice])
            hammers += hex_yield(rules, world.tiles[h].terrain, n.techs, choice).hammers
        if best is not None and cost is not None and hammers >= cost:
            rows.add(BuildUnit(best.name_ru, city.name), "unit", object=rows.name(best.name_ru), where=city.name)


def _work_plan(world: World, rules: Rules, city: City, cost: int | None,
               hammers: int) -> list[tuple[hexes.Hex, str]]:
    """The hexes a city works (as many as its population) and what each gives: hammers on the best
    hammer hexes until the unit is paid, then science."""
    known = world.nations[city.nation].techs

    def value(h: hexes.Hex, choice: str) -> tuple[int, int]:
        y = hex_yield(rules, world.tiles[h].terrain, known, choice)
        return (y.hammers, y.science) if choice == HAMMERS else (y.science, y.hammers)

    free = workable_hexes(world, rules, city)
    taken = {c.hex for c in world.cities.values()}
    free = [h for h in free if h not in taken]
    plan: list[tuple[hexes.Hex, str]] = []
    need = (cost - hammers) if cost is not None else 0
    for _ in range(min(city.population, len(free))):
        choice = HAMMERS if need > 0 else SCIENCE
        h = max(free, key=lambda x: (*value(x, choice), -x[0], -x[1]))
        free.remove(h)
        plan.append((h, choice))
        if choice == HAMMERS:
            need -= hex_yield(rules, world.tiles[h].terrain, known, HAMMERS).hammers
    return plan


def absent_nations(world: World, rows: Mapping[str, list[Given]]) -> list[str]:
    """The nations with no rows of their own at this window (excused or AI ones are the caller's)."""
    return [n for n in world.seats() if not rows.get(n)]
