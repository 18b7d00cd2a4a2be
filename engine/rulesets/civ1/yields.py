"""What a city's worked hex and its buildings yield, and what a nation may build (CIV-MAP-02..05,
CIV-CITY-02/03, CIV-UNIT-03): arithmetic on the rules tabs, shared by the cities stage and the
default orders of an absent nation.

A worked hex gives its terrain's own yield, plus the technologies' «клетка» modifiers, plus — when
the player chooses a yield (молоток / монета / наука) — the +1 of choice (`worked_hex_extra`,
CIV-MAP-03) and the technologies' «выбор» modifiers of that yield.  Choosing «рост» gives no +1:
the hex is «не используется для получения ресурса» and lets the city grow if its terrain grows.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .hexes import Hex, distance
from .model import City, World
from .rules import Building, Rules, Terrain, UnitType, _find

HAMMERS, COINS, SCIENCE, GROWTH = "hammers", "coins", "science", "growth"  # a worked hex's choice
YIELDS = (HAMMERS, COINS, SCIENCE)


@dataclass(frozen=True)
class Yield:
    """What one worked hex (or a city's buildings) gives; ``growth`` when it lets the city grow."""

    hammers: int = 0
    coins: int = 0
    science: int = 0
    growth: bool = False

    def __add__(self, other: Yield) -> Yield:
        return Yield(self.hammers + other.hammers, self.coins + other.coins, self.science + other.science,
                     self.growth or other.growth)

    def of(self, key: str) -> int:
        return {HAMMERS: self.hammers, COINS: self.coins, SCIENCE: self.science}.get(key, 0)


def terrain_of(rules: Rules, name: str) -> Terrain | None:
    key = _find(rules.terrain, name)
    return rules.terrain[key] if key is not None else None


def knows(known: Collection[str], tech: str | None, rules: Rules) -> bool:
    """Whether a nation knowing ``known`` has ``tech`` (None or "": from the start)."""
    if not tech:
        return True
    key = _find(rules.techs, tech)
    return key is not None and key in known


def workable(rules: Rules, terrain: str, known: Collection[str]) -> bool:
    """Whether a city may work a hex of ``terrain`` (sea with Навигация, mountains with Химия)."""
    t = terrain_of(rules, terrain)
    return t is not None and knows(known, t.workable_tech, rules)


def hex_yield(rules: Rules, terrain: str, known: Collection[str], choice: str) -> Yield:
    """The yield of a worked hex of ``terrain`` for a nation knowing ``known`` when the player
    chooses ``choice`` (CIV-MAP-02..05)."""
    t = terrain_of(rules, terrain)
    if t is None:
        return Yield()
    amounts = {HAMMERS: t.hammers, COINS: t.coins, SCIENCE: t.science}
    growth = t.growth
    if choice in YIELDS:
        amounts[choice] += rules.param("worked_hex_extra")
    for m in rules.terrain_modifiers:
        if t.name_ru not in m.terrains or not knows(known, m.tech, rules):
            continue
        if m.applies == "choice" and m.yield_key != choice:
            continue
        if m.yield_key == GROWTH:
            growth = growth or m.amount > 0
        else:
            amounts[m.yield_key] += m.amount
    return Yield(amounts[HAMMERS], amounts[COINS], amounts[SCIENCE], growth and choice == GROWTH)


def building_yield(rules: Rules, city: City) -> Yield:
    """What a city's buildings give each time it is activated (CIV-CITY-03)."""
    out = Yield()
    for name in city.buildings:
        key = _find(rules.buildings, name)
        if key is not None:
            b = rules.buildings[key]
            out = out + Yield(b.hammers, b.coins, b.science)
    return out


def workable_hexes(world: World, rules: Rules, city: City) -> list[Hex]:
    """The map's hexes around ``city`` it may work («прилегающих к городу гексов»: distance 1)."""
    known = world.nations[city.nation].techs
    return sorted(h for h, tile in world.tiles.items()
                  if distance(h, city.hex) == 1 and workable(rules, tile.terrain, known))


def growth_per_turn(rules: Rules, known: Collection[str]) -> int:
    """A city's growth a turn: the limit, or more with a technology (Универсализация 2)."""
    return max([rules.limit("growth_per_turn"), *(rules.techs[t].growth_per_turn for t in known if t in rules.techs)])


def free_buildings(rules: Rules, known: Collection[str]) -> int:
    """Buildings a city raises in a turn without extra Power: 1, Инженерное дело 2 (CIV-CITY-02)."""
    return max([1, *(rules.techs[t].free_buildings for t in known if t in rules.techs)])


def unit_obsolete(rules: Rules, unit: UnitType, known: Collection[str]) -> bool:
    """«Устаревшие войска строить нельзя»: a newer unit of the same class is open to the nation."""
    return any(u.unit_class == unit.unit_class and u.era > unit.era and knows(known, u.tech, rules)
               for u in rules.units.values())


def building_obsolete(rules: Rules, building: Building, known: Collection[str]) -> bool:
    """«Устаревшие постройки строить нельзя»: a building that replaces it is open to the nation."""
    return any(b.replaces and _find({building.name_ru: building}, b.replaces) and knows(known, b.tech, rules)
               for b in rules.buildings.values())


def buildable_units(rules: Rules, known: Collection[str]) -> list[UnitType]:
    """The units a nation may build, best first (the latest era, then the most dice or support)."""
    units = [u for u in rules.units.values()
             if knows(known, u.tech, rules) and not unit_obsolete(rules, u, known)
             and rules.eras[u.era].unit_cost is not None]
    return sorted(units, key=lambda u: (-u.era, rules.classes[u.unit_class].support if u.unit_class in rules.classes
                                        else False, -(u.dice or 0), -u.support))
