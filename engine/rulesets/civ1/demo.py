"""The sample orders of the «Civilization 1.0» demo (`strategos demo --ruleset civ1 --turns 5`):
for whichever window is open, the rows each nation would type, chosen from the world itself with
the engine's own rules (reach.py, the prices), so the demo stays meaningful if the map changes.

What five turns show, by seat (the demo scenario's nations):

- 1 Вавилон, 2 Египет, 3 Греция explore the villages in reach, one a turn (1к10 each: riches,
  technologies, people or barbarians who attack the nearest city at once, their dice in «Бои»);
- 4 Рим founds a second city on the hex from which another nation's city is within an army's
  reach (turn 1), then attacks that city from it once (turn 3: the deck draw and every die in «Бои»);
- 2 Египет sets a counter-spy in its capital in the first cities stage; 5 Китай sends a spy there
  in the next state stage and the operation is foiled (Китай's private book says so, Египет's that
  a spy was caught);
- every nation activates its cities and works a hex next to each: Египет and Греция for science,
  so they research a technology as soon as they have its price (Рим for coins, the others for
  growth or hammers).

Spies need a spy technology (Валюта), which nobody holds at the start: the first window's changes
grant Валюта to Египет and Китай in the GM's «Технологии» (`grant`), as a GM preparing a
demonstration would; the scenario file stays as the seed has it.  Dice come from the campaign's
own secret: which village holds barbarians and who wins a battle differ from campaign to campaign.
"""

from __future__ import annotations

from engine.core.cursor import Cursor
from engine.core.tables import Cell

from . import hexes, reach
from .model import Nation, World
from .phases.state import founding_refusal, research_price
from .rules import Rules

SPY_TECH = "Валюта"
EXPLORERS = (1, 2, 3)  # seats; not Китай, whose garrison must meet Рим's attack (barbarians could destroy it)
FOUNDER, GUARD, SPY = 4, 2, 5
ATTACK_TURN, SPY_TURN = 3, 2  # the founder attacks once; the spy goes once, after the guard is set
SCHOLARS = {2: "science", 3: "science", 4: "coins"}  # seat -> the choice of its worked hexes

WORDS = {  # the order words as a player types them, by language
    "ru": {"state": "государство", "cities": "города", "explore": "Разведка", "found": "Основать город",
           "attack": "Атака", "spy": "Шпионаж", "mission": "узнать технологии", "research": "Изучить",
           "activate": "Активировать", "work": "Обработка", "counter_spy": "Контршпион", "pass": "Нет действий",
           "science": "наука", "coins": "монеты", "hammers": "молотки", "growth": "рост", "city": "Застава"},
    "en": {"state": "state", "cities": "cities", "explore": "Explore", "found": "Found a city",
           "attack": "Attack", "spy": "Spy", "mission": "learn the technologies", "research": "Research",
           "activate": "Activate", "work": "Work", "counter_spy": "Counter-spy", "pass": "No actions",
           "science": "science", "coins": "coins", "hammers": "hammers", "growth": "growth", "city": "Outpost"},
}


def grant(world: World) -> World:
    """The demo's head start: Валюта (a spy) for the guard and the spy, as the GM gives it."""
    for n in world.nations.values():
        if n.seat in (GUARD, SPY):
            n.techs.setdefault(SPY_TECH, 0)
    return world


def _hex(h: hexes.Hex) -> str:
    return f"{h[0]},{h[1]}"


def _site(world: World, n: Nation, rules: Rules) -> tuple[hexes.Hex, str] | None:
    """The hex to found on and the foreign city an army sent from it reaches (the nearest pair)."""
    own = {c.hex for c in world.cities.values()}
    found = reach.reached(world, n, rules, reach.FOUND)
    best: tuple[int, hexes.Hex, str] | None = None
    for h in sorted(found):
        if h in own or founding_refusal(world, n, h, rules):
            continue
        army = reach.reached(world, n, rules, reach.ARMY, [h])
        for c in sorted(world.cities.values(), key=lambda c: c.name):
            if c.nation != n.name and c.hex in army and (best is None or army[c.hex][0] < best[0]):
                best = (army[c.hex][0], h, c.name)
    return (best[1], best[2]) if best else None


def _target(world: World, n: Nation, rules: Rules) -> tuple[str, str] | None:
    """(own city, foreign city) for an attack: a city of `n` other than its capital that reaches one."""
    for mine in sorted(world.cities_of(n.name), key=lambda c: c.name):
        if mine.name == n.capital:
            continue
        army = reach.reached(world, n, rules, reach.ARMY, [mine.hex])
        for c in sorted(world.cities.values(), key=lambda c: c.name):
            if c.nation != n.name and c.hex in army:
                return mine.name, c.name
    return None


def _village(world: World, n: Nation, rules: Rules) -> hexes.Hex | None:
    found = reach.reached(world, n, rules, reach.EXPLORE)
    villages = sorted((steps, h) for h, (steps, _src) in found.items() if world.tiles[h].village)
    return villages[0][1] if villages else None


def _research(world: World, n: Nation, rules: Rules) -> str | None:
    """The cheapest technology of level 1 the nation can pay for now (science), by name."""
    for key, tech in sorted(rules.techs.items(), key=lambda kv: (kv[1].level, kv[0])):
        if tech.level != 1 or key in n.techs:
            continue
        price, _half = research_price(world, n, key, tech, rules)
        if price <= n.science:
            return key
        return None
    return None


def state_rows(world: World, n: Nation, rules: Rules, w: dict[str, str]) -> list[list[Cell]]:
    rows: list[list[Cell]] = []
    power = n.power + 2  # the palace's Power arrives first in the stage (CIV-POWER-01)
    if n.seat == FOUNDER:
        target = _target(world, n, rules)
        if target is None and len(world.cities_of(n.name)) == 1:
            site = _site(world, n, rules)
            if site is not None:
                rows.append([w["state"], w["found"], w["city"], _hex(site[0])])
                power -= 1
        elif target is not None and world.turn == ATTACK_TURN:
            rows.append([w["state"], w["attack"], None, target[0], target[1]])
            power -= 1
    if n.seat == SPY and world.turn == SPY_TURN:
        guard = next((m for m in world.nations.values() if m.seat == GUARD), None)
        if guard is not None and guard.capital:
            rows.append([w["state"], w["spy"], w["mission"], None, guard.capital])
            power -= 1
    if n.seat in EXPLORERS and power > 1:
        village = _village(world, n, rules)
        if village is not None:
            rows.append([w["state"], w["explore"], None, _hex(village)])
    tech = _research(world, n, rules)
    if tech is not None:
        rows.append([w["state"], w["research"], tech])
    return rows or [[w["state"], w["pass"]]]


def cities_rows(world: World, n: Nation, rules: Rules, w: dict[str, str]) -> list[list[Cell]]:
    rows: list[list[Cell]] = []
    choice = w[SCHOLARS.get(n.seat, "hammers")]
    power = n.power
    for city in sorted(world.cities_of(n.name), key=lambda c: (c.name != n.capital, c.name)):
        if power < 1:
            break
        rows.append([w["cities"], w["activate"], None, city.name])
        power -= 1
        near = sorted(h for h in world.tiles if hexes.distance(h, city.hex) == 1
                      and world.tiles[h].terrain not in ("море", "океан", "горы"))
        if near:
            rows.append([w["cities"], w["work"], _hex(near[0]), city.name, choice])
    if n.seat == GUARD and world.turn == 1 and n.capital:
        rows.append([w["cities"], w["counter_spy"], None, n.capital])
    return rows or [[w["cities"], w["pass"]]]


def sample_orders(world: World, rules: Rules, at: Cursor, lang: str = "ru") -> dict[str, list[list[Cell]]]:
    """nation -> the rows (stage, action, object, where, to) of the open window `at`."""
    w = WORDS["en" if lang == "en" else "ru"]
    make = state_rows if at.stage == "state" else cities_rows
    return {n.name: make(world, n, rules, w) for n in world.nations.values()}
