"""Phase 5, taxes and duties (ANC-TAX-01..04), with the other income of the turn: the mint
(ANC-CRAFT-10), gold and silver mines (ANC-AGRI-17) and the government's bonuses
(aristocracy +3 Д per aristocrat, monarchy +1 Д per trade route, empire +3 Д per province).

Tax = free citizens × the government's base rate × the share collected at the stability the
state had at the START of the turn. A province in revolt pays nothing this turn.
Amounts are kept exactly (fractions of Д).
"""

from __future__ import annotations

from fractions import Fraction

from engine.core.dice import Dice
from engine.core.money import fmt

from .. import conditions
from ..economy import count_people
from ..facts import Report
from ..messages import _
from ..model import Campaign, Province
from ..resources import MONEY
from ..rules import Rules
from ..speech import Name, count
from ..staffing import staff, workers_text
from ..turnorders import Orders

PHASE = "налоги"


def run(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    start_stability = report.facts.start_stability
    start_government = report.facts.start_government
    revolts = report.facts.revolts
    routes = report.facts.routes
    by_owner = world.by_owner()
    mint_rate = rules.param("mint_per_province")
    for name in sorted(world.states):
        state = world.states[name]
        provinces = by_owner.get(name, [])
        gov = rules.governments.get(start_government.get(name, state.government))
        if gov is None:
            continue
        stability = start_stability.get(name, state.stability)
        percent = rules.tax_percent.get(stability, Fraction(0))
        paying = [p for p in provinces if p.name not in revolts]
        citizens = sum(p.population.get("СГ", 0) for p in paying)
        tax = citizens * gov.tax * percent / 100
        if tax:
            report.post(
                MONEY,
                name,
                PHASE,
                "налоги",
                tax,
                _.ngettext(
                    "{citizens} СГ × {rate} Д ({government}) × {percent} % (Ст {stability:+d})",
                    "{citizens} СГ × {rate} Д ({government}) × {percent} % (Ст {stability:+d})",
                    citizens,
                ).format(
                    citizens=citizens,
                    rate=fmt(gov.tax),
                    government=gov.name_ru,
                    percent=fmt(percent),
                    stability=stability,
                ),
            )
        report.facts.taxes[name] = (citizens, gov.tax, percent, tax)
        aristocrats = count_people(provinces, "АР")
        for amount, reason in (
            (
                gov.money_per_aristocrat * aristocrats,
                _.ngettext("{government}: {rate} Д × {n} АР", "{government}: {rate} Д × {n} АР", aristocrats).format(
                    government=gov.name_ru, rate=fmt(gov.money_per_aristocrat), n=aristocrats
                ),
            ),
            (
                gov.money_per_province * len(provinces),
                _("{government}: {rate} Д × {provinces}").format(
                    government=gov.name_ru,
                    rate=fmt(gov.money_per_province),
                    provinces=count(len(provinces), "провинция"),
                ),
            ),
            (
                gov.money_per_route * routes.get(name, 0),
                _("{government}: {rate} Д × {routes}").format(
                    government=gov.name_ru, rate=fmt(gov.money_per_route), routes=count(routes.get(name, 0), "маршрут")
                ),
            ),
            (
                gov.money_per_turn,
                _("{government}: {rate} Д за ход").format(government=gov.name_ru, rate=fmt(gov.money_per_turn)),
            ),
        ):
            if amount > 0:
                report.post(MONEY, name, PHASE, "правление", amount, reason)
        _mint(world, name, provinces, rules, mint_rate, report)
        _mines(world, name, provinces, rules, report)
    return world


def _mint(
    world: Campaign, name: str, provinces: list[Province], rules: Rules, rate: Fraction, report: Report
) -> None:
    """ANC-CRAFT-09/10: a staffed mint with its gold or silver coins 2 Д per province."""
    state = world.states[name]
    for p in provinces:
        for b_name in p.buildings:
            b = rules.buildings.get(b_name)
            if b is None or not b.effect("mint"):
                continue
            if not staff(p, rules).staffed[b_name]:
                report.tell(
                    _(
                        "{state}: «{building}» в провинции {province} {building:простаивает} — "
                        "нет работников ({workers})."
                    ).format(state=name, building=Name(b_name), province=p.name, workers=workers_text(b))
                )
                continue
            if not conditions.holds(b.where, conditions.Context(world, state, p)):
                report.tell(
                    _("{state}: «{building}» {building:простаивает} — нет сырья ({needs}).").format(
                        state=name, building=Name(b_name), needs=conditions.describe(b.where)
                    )
                )
                continue
            income = rate * len(provinces)
            report.post(
                MONEY,
                name,
                PHASE,
                "монетный двор",
                income,
                _("«{building}»: {rate} Д × {provinces}").format(
                    building=b_name, rate=fmt(rate), provinces=count(len(provinces), "провинция")
                ),
            )


def _mines(world: Campaign, name: str, provinces: list[Province], rules: Rules, report: Report) -> None:
    """ANC-AGRI-17: a staffed gold or silver mine pays 1 Д per worker (3 workers: +3 Д)."""
    for p in provinces:
        if not rules.good_has(rules.good_of(p.specialisation), "precious"):  # gold and silver
            continue
        s = staff(p, rules)
        for b_name in p.buildings:
            b = rules.buildings.get(b_name)
            if b is None or not b.effect("mine_income") or not s.staffed.get(b_name):
                continue
            workers = s.workers[b_name]
            income = b.effect("mine_income") * workers
            report.post(
                MONEY,
                name,
                PHASE,
                "рудники",
                income,
                _("«{building}» ({specialisation}, {province}): {workers}").format(
                    building=b_name,
                    specialisation=p.specialisation,
                    province=p.name,
                    workers=count(workers, "работник"),
                ),
            )
