"""Phase 4, state expenditures (ANC-TURN-12): construction and the stability investment.

States act in the lot's order, each state's orders in row order. Only the money of the
previous balance may be spent (ANC-MONEY-02): the budget is the opening treasury.
"""

from __future__ import annotations

from fractions import Fraction

from engine.core.dice import Dice
from engine.core.money import fmt
from engine.core.orders import Status
from engine.core.turn import TurnReport

from .. import conditions
from ..model import Campaign, Province, State
from ..orders import Build, InvestStability, NoActions, Order
from ..rules import Building, Rules
from ..staffing import allocate
from ..turnorders import TurnOrders

PHASE = "расходы"


class _Refused(Exception):
    """An order breaks a rule; the message is the reason shown in the row."""


class Budget:
    """What a state may still spend this turn: its opening treasury minus what it spent."""

    def __init__(self, world: Campaign) -> None:
        self.left = {name: max(s.treasury, Fraction(0)) for name, s in world.states.items()}

    def take(self, state: str, cost: Fraction, what: str) -> None:
        left = self.left[state]
        if cost > left:
            raise _Refused(f"не хватает {fmt(cost - left)} Д на {what}: нужно {fmt(cost)} Д, "
                           f"доступно {fmt(left)} Д (тратить можно только казну прошлого хода)")
        self.left[state] = left - cost


def stability_price(world: Campaign, state: State, rules: Rules) -> Fraction:
    """ANC-STAB-13: base price, government and buildings' modifiers, never below the minimum."""
    price = rules.param("stability_price")
    gov = rules.governments.get(state.government)
    if gov is not None:
        price += gov.stability_price
    for p in world.provinces.values():
        if p.owner == state.name:
            for b in p.buildings:
                rule = rules.buildings.get(b)
                if rule is not None:
                    price += rule.effect("stability_price")
    return max(price, rules.param("stability_price_min"))


def clamp_stability(value: int, rules: Rules) -> int:
    return int(max(rules.param("stability_min"), min(rules.param("stability_max"), value)))


def why_not(world: Campaign, state: State, province: Province, b: Building, rules: Rules) -> str | None:
    """Why `state` may not build `b` in `province` now (money aside), or None if it may."""
    if province.owner != state.name:
        owner = f"принадлежит государству {province.owner}" if province.owner else "ничья (не колонизирована)"
        return f"провинция {province.name} {owner}, а не {state.name}"
    if b.unique == "world":
        for p in world.provinces.values():
            if b.name_ru in p.buildings:
                return f"«{b.name_ru}» уже построено в провинции {p.name} — чудо света одно на весь мир"
    elif b.name_ru in province.buildings:
        return f"в провинции {province.name} уже есть «{b.name_ru}»"
    missing = [t for t in b.techs if t not in state.techs]
    if missing:
        return "нужна технология " + ", ".join(f"«{t}»" for t in missing)
    unmet = conditions.failures(b.where, conditions.Context(world, state, province))
    if unmet:
        return f"«{b.name_ru}» нельзя строить в провинции {province.name}: нужно " + "; ".join(unmet)
    if b.workshop and state.capital != province.name:
        limit = int(rules.param("workshops_per_province"))
        have = [x for x in province.buildings if (r := rules.buildings.get(x)) is not None and r.workshop]
        if len(have) >= limit:
            return (f"в провинции {province.name} уже есть мастерская «{have[0]}»; "
                    f"несколько мастерских можно держать только в столице")
    slaves = province.population.get("раб", 0)
    if b.cost_slaves > slaves:
        return f"нужно {b.cost_slaves} раб. в провинции {province.name}, есть {slaves}"
    return None


def _build(world: Campaign, order: Build, rules: Rules, budget: Budget, report: TurnReport) -> str:
    state = world.states[order.state]
    province = world.provinces[order.province]
    b = rules.buildings[order.building]
    refusal = why_not(world, state, province, b, rules)
    if refusal:
        raise _Refused(refusal)
    slaves = province.population.get("раб", 0)
    cost = b.cost_in(province.specialisation)
    budget.take(state.name, cost, f"«{b.name_ru}»")
    # everything checked: apply
    state.treasury -= cost
    if b.cost_slaves:
        province.population["раб"] = slaves - b.cost_slaves
    province.buildings.append(b.name_ru)
    slaves_txt = f" и {b.cost_slaves} раб." if b.cost_slaves else ""
    report.money(state.name, PHASE, "строительство", -cost,
                 f"«{b.name_ru}» в провинции {province.name}", order.row.ref)
    report.tell(f"{state.name}: построено «{b.name_ru}» в провинции {province.name} "
                f"(−{fmt(cost)} Д{slaves_txt}).")
    note = ""
    once = int(b.effect("stability_once"))
    if once:
        before = state.stability
        state.stability = clamp_stability(before + once, rules)
        report.tell(f"{state.name}: чудо света «{b.name_ru}» — стабильность {before:+d} → {state.stability:+d}.")
        note += f"; Ст {before:+d} → {state.stability:+d}"
    if b.workers and not allocate(province, rules)[b.name_ru]:
        note += (f"; но работать некому: нужно {b.workers_text()} свободных людей в провинции — "
                 f"пока не производит")
    return f"построено за {fmt(cost)} Д{slaves_txt}{note}"


def _stability(world: Campaign, order: InvestStability, rules: Rules, budget: Budget,
               report: TurnReport, bought: dict[str, int]) -> str:
    state = world.states[order.state]
    limit = int(rules.param("stability_per_turn_max"))
    if bought.get(state.name, 0) >= limit:
        raise _Refused("стабильность можно покупать только раз за ход — это уже второй приказ")
    top = int(rules.param("stability_max"))
    if state.stability >= top:
        raise _Refused(f"стабильность уже максимальная ({state.stability:+d})")
    price = stability_price(world, state, rules)
    budget.take(state.name, price, "+1 Ст")
    bought[state.name] = bought.get(state.name, 0) + 1
    before = state.stability
    state.treasury -= price
    state.stability = clamp_stability(before + 1, rules)
    report.money(state.name, PHASE, "стабильность", -price, f"+1 Ст (Ст {before:+d} → {state.stability:+d})",
                 order.row.ref)
    report.tell(f"{state.name}: вложено {fmt(price)} Д в стабильность, Ст {before:+d} → {state.stability:+d}.")
    return f"+1 Ст за {fmt(price)} Д (Ст {before:+d} → {state.stability:+d})"


HANDLED = (Build, InvestStability, NoActions)


def run(world: Campaign, orders: TurnOrders, dice: Dice, rules: Rules, report: TurnReport) -> Campaign:
    budget = Budget(world)
    bought: dict[str, int] = {}
    for name in report.lot or sorted(world.states):
        for row, order in orders.of(name):
            if not isinstance(order, HANDLED):
                continue  # unreadable rows were answered when parsed; other kinds belong to other phases
            try:
                reason = _execute(world, order, rules, budget, report, bought)
            except _Refused as exc:
                report.result(row.ref, Status.REJECTED, str(exc))
            else:
                report.result(row.ref, Status.DONE, reason)
    return world


def _execute(world: Campaign, order: Order, rules: Rules, budget: Budget, report: TurnReport,
             bought: dict[str, int]) -> str:
    if isinstance(order, Build):
        return _build(world, order, rules, budget, report)
    if isinstance(order, InvestStability):
        return _stability(world, order, rules, budget, report, bought)
    return "нет действий — приказ засчитан"
