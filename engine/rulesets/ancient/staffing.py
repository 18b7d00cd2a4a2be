"""Who works where, and what the staffed buildings produce (ANC-AGRI-01, ANC-CRAFT-02).

The seed lists workers per building but not how they are assigned; buildings take workers
from their own province in the order they were built, each using the first worker option
that the remaining people allow (docs/rules-decisions.md, ANC-AGRI-01). A building without
its workers produces nothing. A building whose option reads «3+ …» (the mine) also takes
every remaining person of those strata (ANC-AGRI-16/17: more workers, more silver).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .model import Campaign, Province
from .rules import Building, Rules


@dataclass(frozen=True)
class Staffing:
    """The result of assigning a province's people: who is staffed, how many work, who is left."""

    staffed: dict[str, bool]
    workers: dict[str, int]
    free: dict[str, int]


def staff(province: Province, rules: Rules, extra: Building | None = None) -> Staffing:
    """Assign the province's people to its buildings (plus `extra`, a building about to be built)."""
    free = dict(province.population)
    staffed: dict[str, bool] = {}
    workers: dict[str, int] = {}
    names = list(province.buildings) + ([extra.name_ru] if extra else [])
    open_ended: list[tuple[str, tuple[str, ...]]] = []
    for name in names:
        b = rules.buildings.get(name)
        if b is None or not b.workers:
            staffed[name] = True
            workers[name] = 0
            continue
        staffed[name] = False
        workers[name] = 0
        for option in b.workers:
            if sum(free.get(s, 0) for s in option.strata) >= option.count:
                need = option.count
                for s in option.strata:  # in the option's order: slaves first where listed first
                    take = min(need, free.get(s, 0))
                    free[s] = free.get(s, 0) - take
                    need -= take
                staffed[name] = True
                workers[name] = option.count
                if option.minimum:
                    open_ended.append((name, option.strata))
                break
    for name, strata in open_ended:  # extra hands go where more hands pay
        extra_hands = sum(free.get(s, 0) for s in strata)
        workers[name] += extra_hands
        for s in strata:
            free[s] = 0
    return Staffing(staffed, workers, free)


def allocate(province: Province, rules: Rules, extra: Building | None = None) -> dict[str, bool]:
    """building name -> staffed?"""
    return staff(province, rules, extra).staffed


def garrisons(world: Campaign) -> frozenset[tuple[str, str]]:
    """(province, state) pairs where the state has troops: computed once, looked up per province."""
    return frozenset((a.province, a.state) for a in world.armies.values() if a.size())


def province_output(
    province: Province,
    rules: Rules,
    world: Campaign | None = None,
    garrisoned_at: frozenset[tuple[str, str]] | None = None,
) -> Counter[str]:
    """Goods a province yields this turn from its staffed buildings (ANC-AGRI-01, -04); a slave market
    works only with a garrison of its owner in the province (ANC-AGRI-12). Pass `garrisoned_at`
    (from `garrisons`) when asking about many provinces."""
    out: Counter[str] = Counter()
    s = staff(province, rules)
    if garrisoned_at is None and world is not None:
        garrisoned_at = garrisons(world)
    garrisoned = garrisoned_at is None or (province.name, province.owner) in garrisoned_at
    multiplier = 1
    for name in province.buildings:
        b = rules.buildings.get(name)
        if b is not None and s.staffed.get(name) and b.effect("output"):
            multiplier = max(multiplier, int(b.effect("output")))
    for name in province.buildings:
        b = rules.buildings.get(name)
        if b is None or not b.produces or not s.staffed.get(name):
            continue
        if b.effect("garrison") and not garrisoned:
            continue
        if b.produces == "spec":
            out[rules.good_of(province.specialisation)] += multiplier if b.group == "agri" else 1
        else:
            out[b.produces] += 1
    return out


def production(world: Campaign, rules: Rules) -> dict[str, Counter[str]]:
    """state -> goods its provinces produce this turn."""
    out: dict[str, Counter[str]] = {name: Counter() for name in world.states}
    held = garrisons(world)
    for p in world.provinces.values():
        if p.owner in out:
            out[p.owner] += province_output(p, rules, garrisoned_at=held)
    return out
