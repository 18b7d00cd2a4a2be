"""Armies and fleets: where units join, what they weigh, what they cost to keep, where they go home."""

from __future__ import annotations

from fractions import Fraction

from . import naming
from .model import Army, Campaign, Fleet, Province, State
from .naming import Code
from .rules import Rules

# Units whose men go back to their stratum, for free, when the state lets them go. The seed's one such
# rule: «Обратная конвертация ТК в аристократа осуществляется бесплатно» (4.1, ANC-STRATA-17); every
# other warrior «перестает быть представителем своей страты» and a disbanded unit of them is gone.
RETURNS_TO: dict[str, str] = {Code("ТК", "unit"): Code("АР", "stratum")}


def army_at(world: Campaign, state: str, province: str) -> Army:
    """The state's army in a province (created when there is none)."""
    for a in world.armies.values():
        if a.state == state and a.province == province:
            return a
    word = naming.translator(world.lang).name("армия")  # a name: in the campaign's language
    name = f"{state}: {word} ({province})"
    n = 2
    while name in world.armies:
        name = f"{state}: {word} ({province}) {n}"
        n += 1
    world.armies[name] = Army(name, state, province, {})
    return world.armies[name]


def fleet_at(world: Campaign, state: str, zone: int) -> Fleet:
    for f in world.fleets.values():
        if f.state == state and f.zone == zone:
            return f
    word = naming.translator(world.lang).name("флот")
    name = f"{state}: {word} ({zone})"
    n = 2
    while name in world.fleets:
        name = f"{state}: {word} ({zone}) {n}"
        n += 1
    world.fleets[name] = Fleet(name, state, zone, {}, {})
    return world.fleets[name]


def weight(units: dict[str, int], rules: Rules) -> int | None:
    """Tons aboard (ANC-MOVE-09); None if a unit cannot embark at all (elephants)."""
    total = 0
    for t, n in units.items():
        if n <= 0:
            continue
        u = rules.units.get(t)
        if u is None or u.weight is None:
            return None
        total += u.weight * n
    return total


def capacity(fleet: Fleet, rules: Rules) -> int:
    return sum(rules.units[t].capacity * n for t, n in fleet.ships.items() if t in rules.units)


def upkeep(units: dict[str, int], rules: Rules) -> Fraction:
    return sum((rules.units[t].upkeep * n for t, n in units.items() if t in rules.units), Fraction(0))


def moves(units: dict[str, int], rules: Rules) -> int:
    """The slowest unit sets the pace (ANC-MOVE-04, ANC-NAVY-10)."""
    speeds = [rules.units[t].moves for t, n in units.items() if n > 0 and t in rules.units]
    return min(speeds) if speeds else 0


def government_modifier(world: Campaign, states: list[str], rules: Rules) -> list[tuple[str, int]]:
    """ANC-ARMY-10: tyranny +1, democracy −1, anarchy −2, once per state on the side."""
    out = []
    for s in dict.fromkeys(states):
        st = world.states.get(s)
        gov = rules.governments.get(st.government) if st else None
        if gov is not None and gov.army:
            out.append((gov.name_ru, gov.army))
    return out


def home_province(world: Campaign, state: State, province: str) -> Province | None:
    """Where men leaving an army in `province` go back to their stratum (ANC-STRATA-17): that province
    if the state owns it, else the capital, else the state's most populous province; None if it has none."""
    for name in (province, state.capital):
        p = world.provinces.get(name)
        if p is not None and p.owner == state.name:
            return p
    own = sorted((p for p in world.provinces.values() if p.owner == state.name), key=lambda p: p.name)
    return max(own, key=lambda p: p.people()) if own else None
