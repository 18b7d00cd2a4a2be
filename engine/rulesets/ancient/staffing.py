"""Who works where, and what the staffed buildings produce (ANC-AGRI-01, ANC-CRAFT-02).

The seed lists workers per building but not how they are assigned; buildings take workers
from their own province in the order they were built, each using the first worker option
that the remaining people allow (docs/rules-decisions.md, ANC-AGRI-01). A building without
its workers produces nothing. A building whose option reads «3+ …» (the mine) also takes
every remaining person of those strata (ANC-AGRI-16/17: more workers, more silver).

A building with a `crew=N` effect (the irrigation system, ANC-AGRI-04) has no crew of its own:
it multiplies the crew of the province's farm by N, and the farm yields the `output=M` units of
such a building only when worked by that whole crew («одновременно в три раза увеличивается
численность с/х работников, обрабатывающих такую ферму»: 6 раб or 3 СГ in all, not 2 + 6).
Short of it, the farm works with its own crew and yields its usual one unit.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .messages import _
from .model import Campaign, Province
from .rules import Building, Rules


@dataclass(frozen=True)
class Staffing:
    """The result of assigning a province's people: who is staffed, how many work, who is left."""

    staffed: dict[str, bool]
    workers: dict[str, int]
    free: dict[str, int]
    raised: dict[str, bool] = field(default_factory=dict)  # worked by the crew `crew=N` asks for (ANC-AGRI-04)


def improved(b: Building) -> bool:
    """A building whose output and crew an irrigation system raises: a farm yielding the province's
    specialisation (ANC-AGRI-04)."""
    return b.group == "agri" and b.produces == "spec"


def crew_factor(names: list[str], rules: Rules) -> int:
    """How many times a farm's crew the province's buildings ask for (`crew=N`, at least 1)."""
    factors = [int(b.effect("crew")) for n in names if (b := rules.buildings.get(n)) is not None and b.effect("crew")]
    return max([1, *factors])


def staff(province: Province, rules: Rules, extra: Building | None = None) -> Staffing:
    """Assign the province's people to its buildings (plus `extra`, a building about to be built)."""
    free = dict(province.population)
    staffed: dict[str, bool] = {}
    workers: dict[str, int] = {}
    raised: dict[str, bool] = {}
    names = list(province.buildings) + ([extra.name_ru] if extra else [])
    factor = crew_factor(names, rules)
    open_ended: list[tuple[str, tuple[str, ...]]] = []
    for name in names:
        b = rules.buildings.get(name)
        if b is None or not b.workers:
            staffed[name] = True
            workers[name] = 0
            raised[name] = True
            continue
        staffed[name] = False
        workers[name] = 0
        raised[name] = False
        times = factor if improved(b) else 1
        # the raised crew first (every option × N), else the farm's own crew (× 1)
        tries = [(o, times) for o in b.workers] + ([(o, 1) for o in b.workers] if times > 1 else [])
        for option, k in tries:
            count = option.count * k
            if sum(free.get(s, 0) for s in option.strata) >= count:
                need = count
                for s in option.strata:  # in the option's order: slaves first where listed first
                    take = min(need, free.get(s, 0))
                    free[s] = free.get(s, 0) - take
                    need -= take
                staffed[name] = True
                workers[name] = count
                raised[name] = k == times
                if option.minimum:
                    open_ended.append((name, option.strata))
                break
    for name, strata in open_ended:  # extra hands go where more hands pay
        extra_hands = sum(free.get(s, 0) for s in strata)
        workers[name] += extra_hands
        for s in strata:
            free[s] = 0
    return Staffing(staffed, workers, free, raised)


def workers_text(b: Building) -> str:
    """The crews that may work `b`, in the reader's language: «2 раб или 1 СГ»."""
    return _(" или ").join(w.text() for w in b.workers)


def short_crews(province: Province, rules: Rules, s: Staffing | None = None) -> list[str]:
    """Why an irrigation system of the province raises nothing this turn, in Russian (ANC-AGRI-04):
    its farm lacks the raised crew, or there is no farm to irrigate. Empty when it works."""
    factor = crew_factor(list(province.buildings), rules)
    if factor <= 1:
        return []
    s = s or staff(province, rules)
    farms = [b for n in province.buildings if (b := rules.buildings.get(n)) is not None and improved(b)]
    if not farms:
        return [_("в провинции нет фермы, которую можно орошать")]
    out = []
    for b in farms:
        if not s.raised.get(b.name_ru):
            crew = _(" или ").join(f"{o.count * factor} {'+'.join(o.strata)}" for o in b.workers)
            text = (
                _(
                    "для постройки «{building}» с орошением нужно {crew} в провинции {province}, "
                    "пока работает только обычный состав, и урожай — 1 единица, как без орошения"
                )
                if s.staffed.get(b.name_ru)
                else _(
                    "для постройки «{building}» с орошением нужно {crew} в провинции {province}, пока работников нет"
                )
            )
            out.append(text.format(building=b.name_ru, crew=crew, province=province.name))
    return out


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
            multiplier = max(multiplier, int(b.effect("output")))  # the irrigation system (ANC-AGRI-04)
    for name in province.buildings:
        b = rules.buildings.get(name)
        if b is None or not b.produces or not s.staffed.get(name):
            continue
        if b.effect("garrison") and not garrisoned:
            continue
        if b.produces == "spec":
            raised = improved(b) and s.raised.get(name, False)  # only with the whole raised crew
            out[rules.good_of(province.specialisation)] += multiplier if raised else 1
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
