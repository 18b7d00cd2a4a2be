"""Phase 5, taxes and duties (ANC-TAX-01..04) and money emission by the mint (ANC-CRAFT-10).

Tax = free citizens × the government's base rate × the share collected at the stability the
state had at the START of the turn. Amounts are kept exactly (fractions of Д).
"""

from __future__ import annotations

from fractions import Fraction

from engine.core.dice import Dice
from engine.core.money import fmt
from engine.core.turn import TurnReport

from .. import conditions
from ..model import Campaign
from ..rules import Rules
from ..staffing import allocate
from ..turnorders import TurnOrders

PHASE = "налоги"


def run(world: Campaign, orders: TurnOrders, dice: Dice, rules: Rules, report: TurnReport) -> Campaign:
    start_stability: dict[str, int] = report.notes.get("start_stability", {})
    by_owner = world.by_owner()
    mint_rate = rules.param("mint_per_province")
    for name in sorted(world.states):
        state = world.states[name]
        provinces = by_owner.get(name, [])
        gov = rules.governments.get(state.government)
        if gov is None:
            continue
        stability = start_stability.get(name, state.stability)
        percent = rules.tax_percent.get(stability, Fraction(0))
        citizens = sum(p.population.get("СГ", 0) for p in provinces)
        tax = citizens * gov.tax * percent / 100
        if citizens and gov.tax and percent:
            state.treasury += tax
            report.money(name, PHASE, "налоги", tax,
                         f"{citizens} СГ × {fmt(gov.tax)} Д ({gov.name_ru}) × {fmt(percent)} % (Ст {stability:+d})")
        report.notes.setdefault("taxes", {})[name] = (citizens, gov.tax, percent, tax)
        _mint(world, name, provinces, rules, mint_rate, report)
    return world


def _mint(world: Campaign, name: str, provinces: list, rules: Rules, rate: Fraction,
          report: TurnReport) -> None:
    """ANC-CRAFT-09/10: a staffed mint with its gold or silver coins 2 Д per province."""
    state = world.states[name]
    for p in provinces:
        for b_name in p.buildings:
            b = rules.buildings.get(b_name)
            if b is None or not b.effect("mint"):
                continue
            if not allocate(p, rules)[b_name]:
                report.tell(f"{name}: «{b_name}» в провинции {p.name} простаивает — нет работников "
                            f"({b.workers_text()}).")
                continue
            if not conditions.holds(b.where, conditions.Context(world, state, p)):
                report.tell(f"{name}: «{b_name}» простаивает — нет сырья ("
                            f"{conditions.describe(b.where)}).")
                continue
            income = rate * len(provinces)
            state.treasury += income
            report.money(name, PHASE, "монетный двор", income,
                         f"«{b_name}»: {fmt(rate)} Д × {len(provinces)} провинц.")
