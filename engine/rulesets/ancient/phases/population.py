"""Phase 2, population (ANC-POP-02..05, -07..09, ANC-GOV-18, ANC-BLD-09).

Growth: each province of a state without famine gets a newborn with the seed's 25 % chance
(a seeded roll per province), plus +1 guaranteed with a hospital; the newborn joins the
majority stratum, ties to the lower one. A province that has outgrown its aqueduct, sewer or
baths does not grow (ANC-POP-09, the catalogue's proposal; a GM option). Tyranny represses one
person a turn; an arena consumes a slave a turn.
"""

from __future__ import annotations

from engine.core.dice import Dice

from ..economy import civilians, describe_people, lose_people, majority_stratum
from ..facts import Report
from ..messages import _
from ..model import Campaign, Province
from ..rules import Rules
from ..speech import Name
from ..turnorders import Orders
from .lot import reach_all


def needs(rules: Rules) -> list[tuple[int, str]]:
    """(people above which it is needed, building) from the buildings' `housing` effect (ANC-POP-09:
    an aqueduct above 5, a sewer above 8, baths above 10), smallest first."""
    return sorted((int(b.effect("housing")), b.name_ru) for b in rules.buildings.values() if b.effect("housing"))


def missing_need(p: Province, rules: Rules) -> str | None:
    """The building a province's size demands and lacks (ANC-POP-09)."""
    people = civilians(p)
    for above, building in needs(rules):
        if people > above and building not in p.buildings:
            return building
    return None


def run(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    chance = int(rules.param("growth_chance_percent"))
    blocked_by_needs = bool(rules.param("growth_blocked_above_needs"))
    by_owner = world.by_owner()
    for name in sorted(world.states):
        state = world.states[name]
        provinces = sorted(by_owner.get(name, []), key=lambda p: p.name)
        if not provinces:
            continue
        if state.famine > 0:
            report.tell(_("{state}: голод — населения не прибавилось.").format(state=name))
        else:
            grown: list[str] = []
            stalled: dict[str, list[str]] = {}  # building -> provinces waiting for it
            for p in provinces:
                need = missing_need(p, rules) if blocked_by_needs else None
                if need:
                    stalled.setdefault(need, []).append(p.name)
                    continue
                if dice.blind:  # a check: the birth is not drawn; the forecast says growth may change it
                    born = 0
                    if chance > 0:
                        dice.withhold("прирост", subject=p.name)
                        reach_all(report, [name], _("прирост населения"))
                else:
                    born = 1 if dice.roll("прирост", 100, subject=p.name) <= chance else 0
                born += sum(int(rules.buildings[b].effect("growth")) for b in p.buildings if b in rules.buildings)
                if born:
                    s = majority_stratum(p)
                    p.population[s] += born
                    grown.append(f"{p.name} +{born} {s}")
            for need, names in stalled.items():
                text = (
                    _("{state}: провинция {provinces} не растёт — нужна постройка «{building}».")
                    if len(names) == 1
                    else _("{state}: провинции {provinces} не растут — нужна постройка «{building}».")
                )
                report.tell(text.format(state=name, provinces=", ".join(names), building=need))
            if grown:
                report.tell(
                    _("{state}: прирост населения — {provinces}.").format(state=name, provinces=", ".join(grown))
                )
        gov = rules.governments.get(state.government)
        if gov is not None and gov.people_per_turn < 0:  # tyranny's repressions (ANC-GOV-18)
            victims = -gov.people_per_turn
            target = max(provinces, key=lambda p: (civilians(p), p.name))
            lost = lose_people(target, victims)
            if lost:
                report.tell(
                    _("{state}: репрессии ({government}) — в провинции {province} погибли: {people}.").format(
                        state=name, government=gov.name_ru, province=target.name, people=describe_people(lost)
                    )
                )
        for p in provinces:
            for b in p.buildings:
                rule = rules.buildings.get(b)
                need = int(rule.effect("slaves_per_turn")) if rule else 0
                if need:
                    capital = world.provinces.get(state.capital, p)
                    source = p if p.population.get("раб", 0) >= need else capital
                    if source.population.get("раб", 0) >= need:
                        source.population["раб"] -= need
                        report.tell(
                            _("{state}: «{building}» {building:поглотил} {slaves} раб. ({province}).").format(
                                state=name, building=Name(b), slaves=need, province=source.name
                            )
                        )
                    else:
                        report.tell(
                            _(
                                "{state}: для постройки «{building}» нет рабов — {building:он} {building:простаивает}."
                            ).format(state=name, building=Name(b))
                        )
    return world
