"""Phase 4, state expenditures (ANC-TURN-12): construction, «qualification» (strata
conversions), resettlement, the stability investment, government change, research,
payments between states, and the government's fixed charges.

States act in the lot's order, each state's orders in row order. Only the money of the
previous balance may be spent (ANC-MONEY-02).
"""

from __future__ import annotations

from collections import Counter, deque
from fractions import Fraction

from engine.core.dice import Dice
from engine.core.money import fmt
from engine.core.orders import Status

from .. import conditions
from ..economy import Budget, Refused, budget, count_people, shift_stability, stability_change
from ..facts import Report
from ..forces import RETURNS_TO, army_at, fleet_at, home_province, upkeep
from ..messages import _
from ..model import Campaign, Province, State
from ..naming import Code
from ..orders import (
    Build,
    ChangeGovernment,
    Convert,
    Disband,
    InvestStability,
    March,
    Move,
    NoActions,
    Order,
    Pay,
    Recruit,
    Research,
    Sail,
)
from ..resources import MONEY, SCIENCE
from ..rules import Building, Rules
from ..speech import Name, count
from ..staffing import allocate, improved, production, short_crews, staff, workers_text
from ..turnorders import Orders, of

PHASE = "расходы"
HANDLED = (Build, InvestStability, NoActions, Convert, Move, ChangeGovernment, Research, Pay, Recruit)

_Refused = Refused  # kept for callers of the first slice


class Partial(Exception):
    """The order ran in part; the message says which part."""


def clamp_stability(value: int, rules: Rules) -> int:
    return int(max(rules.param("stability_min"), min(rules.param("stability_max"), value)))


def stability_price(world: Campaign, state: State, rules: Rules, provinces: list[Province] | None = None) -> Fraction:
    """ANC-STAB-13: base price, government and buildings' modifiers, never below the minimum."""
    price = rules.param("stability_price")
    gov = rules.governments.get(state.government)
    if gov is not None:
        price += gov.stability_price
    own = provinces if provinces is not None else [p for p in world.provinces.values() if p.owner == state.name]
    for p in own:
        if p.owner == state.name:
            for b in p.buildings:
                rule = rules.buildings.get(b)
                if rule is not None:
                    price += rule.effect("stability_price")
    return max(price, rules.param("stability_price_min"))


def why_not(world: Campaign, state: State, province: Province, b: Building, rules: Rules) -> str | None:
    """Why `state` may not build `b` in `province` now (money aside), or None if it may."""
    if province.owner != state.name:
        return not_yours(province)
    if b.unique == "world":
        for p in world.provinces.values():
            if b.name_ru in p.buildings:
                return _(
                    "«{building}» уже {building:построен} в провинции {province} — чудо света одно на весь мир"
                ).format(building=Name(b.name_ru), province=p.name)
    elif b.name_ru in province.buildings:
        return _("в провинции {province} уже есть «{building}»").format(province=province.name, building=b.name_ru)
    missing = [t for t in b.techs if t not in state.techs]
    if missing:
        techs = ", ".join(f"«{t}»" for t in missing)
        return (_("нужна технология {techs}") if len(missing) == 1 else _("нужны технологии {techs}")).format(
            techs=techs
        )
    unmet = conditions.failures(b.where, conditions.Context(world, state, province))
    if unmet:
        text = (
            _("«{building}» нельзя строить в провинции {province} — условие: {needs}")
            if len(unmet) == 1
            else _("«{building}» нельзя строить в провинции {province} — условия: {needs}")
        )
        return text.format(building=b.name_ru, province=province.name, needs="; ".join(unmet))
    if b.workshop and state.capital != province.name:
        limit = int(rules.param("workshops_per_province"))
        have = [x for x in province.buildings if (r := rules.buildings.get(x)) is not None and r.workshop]
        if len(have) >= limit:
            return _(
                "в провинции {province} уже есть мастерская «{workshop}»; "
                "несколько мастерских можно держать только в столице"
            ).format(province=province.name, workshop=have[0])
    slaves = province.population.get("раб", 0)
    if b.cost_slaves > slaves:
        return _.ngettext(
            "нужно {need} раб. в провинции {province}, есть {have}",
            "нужно {need} раб. в провинции {province}, есть {have}",
            b.cost_slaves,
        ).format(need=b.cost_slaves, province=province.name, have=slaves)
    return None


def not_yours(province: Province) -> str:
    """Why a province that is not the state's refuses its order: whose it is."""
    if province.owner:
        return _("провинция {province} принадлежит государству {owner}, а не вам").format(
            province=province.name, owner=province.owner
        )
    return _("провинция {province} ничья, а не ваша").format(province=province.name)


class Expenses:
    """The working state of the phase: budget, per-turn counters, goods at hand."""

    def __init__(self, world: Campaign, rules: Rules, report: Report) -> None:
        self.world = world
        self.rules = rules
        self.report = report
        self.budget: Budget = budget(world, report)
        self.bought: Counter[str] = Counter()
        self.converted: Counter[tuple[str, str, str]] = Counter()
        self.changed_government: set[str] = set()
        self.launched: Counter[str] = Counter()
        self.by_owner = world.by_owner()  # ownership does not change during the expenditures
        goods = report.facts.goods
        if goods is None:
            goods = report.facts.goods = production(world, rules)
        self.goods: dict[str, Counter[str]] = goods

    def own(self, state: State, name: str) -> Province:
        p = self.world.provinces[name]
        if p.owner != state.name:
            raise Refused(not_yours(p))
        return p

    # ---------------------------------------------------------------- orders

    def build(self, state: State, order: Build) -> str:
        province = self.world.provinces[order.province]
        b = self.rules.buildings[order.building]
        refusal = why_not(self.world, state, province, b, self.rules)
        if refusal:
            raise Refused(refusal)
        cost = b.cost_in(province.specialisation)
        self.budget.take(state.name, cost, f"«{b.name_ru}»")
        if b.cost_slaves:
            province.population["раб"] -= b.cost_slaves
        province.buildings.append(b.name_ru)
        price = (
            _.ngettext("{cost} Д и {slaves} раб.", "{cost} Д и {slaves} раб.", b.cost_slaves).format(
                cost=fmt(cost), slaves=b.cost_slaves
            )
            if b.cost_slaves
            else _("{cost} Д").format(cost=fmt(cost))
        )
        self.report.post(
            MONEY,
            state.name,
            PHASE,
            "строительство",
            -cost,
            _("«{building}» в провинции {province}").format(building=b.name_ru, province=province.name),
            order.row.ref,
        )
        self.report.tell(
            _("{state}: {building:построен} «{building}» в провинции {province} (−{price}).").format(
                state=state.name, building=Name(b.name_ru), province=province.name, price=price
            )
        )
        note = ""
        once = int(b.effect("stability_once"))
        if once:
            before, after = shift_stability(state, once, self.rules)
            change = stability_change(before, after)
            self.report.tell(
                _("{state}: чудо света «{building}» — {change}.").format(
                    state=state.name, building=b.name_ru, change=change
                )
            )
            note += f"; {change}"
        if b.workers and not allocate(province, self.rules)[b.name_ru]:
            note += _("; но работать некому: в провинции нет работников ({workers}) — пока не производит").format(
                workers=workers_text(b)
            )
        elif b.effect("crew") or improved(b):
            short = short_crews(province, self.rules)  # irrigation without its whole crew (ANC-AGRI-04)
            if short:
                note += _("; но орошение пока не действует: {why}").format(why="; ".join(short))
        return _("построено за {price}{note}").format(price=price, note=note)

    def stability(self, state: State, order: InvestStability) -> str:
        limit = int(self.rules.param("stability_per_turn_max"))
        if self.bought[state.name] >= limit:
            raise Refused(_("стабильность можно покупать только раз за ход — это уже второй приказ"))
        if state.stability >= int(self.rules.param("stability_max")):
            raise Refused(_("стабильность уже максимальная ({stability:+d})").format(stability=state.stability))
        price = stability_price(self.world, state, self.rules, self.by_owner.get(state.name, []))
        self.budget.take(state.name, price, _("+1 Ст"))
        self.bought[state.name] += 1
        before, after = shift_stability(state, 1, self.rules)
        change = stability_change(before, after)
        self.report.post(
            MONEY,
            state.name, PHASE, "стабильность", -price, _("+1 Ст ({change})").format(change=change), order.row.ref
        )
        self.report.tell(
            _("{state}: вложено {price} Д в стабильность, {change}.").format(
                state=state.name, price=fmt(price), change=change
            )
        )
        return _("+1 Ст за {price} Д ({change})").format(price=fmt(price), change=change)

    def convert(self, state: State, order: Convert) -> str:
        """ANC-STRATA-04, -12, -15, -16: move people between strata for money and goods."""
        rules = self.rules
        province = self.own(state, order.province)
        rule = next((c for c in rules.conversions if c.src == order.src and c.dst == order.dst), None)
        if rule is None:
            allowed = ", ".join(f"{c.src} → {c.dst}" for c in rules.conversions)
            raise Refused(
                _("перевода {src} → {dst} нет в правилах (есть: {allowed})").format(
                    src=order.src, dst=order.dst, allowed=allowed
                )
            )
        gov = rules.governments.get(state.government)
        gov_name = gov.name_ru if gov else state.government
        if rule.governments and state.government not in rule.governments:
            names = ", ".join(rules.governments[g].name_ru for g in rule.governments if g in rules.governments)
            raise Refused(
                _("перевод {src} → {dst} возможен только при форме правления: {governments}").format(
                    src=order.src, dst=order.dst, governments=names
                )
            )
        if rule.cost.startswith("gov:"):
            price = getattr(gov, rule.cost[4:], None) if gov else None
            if price is None:
                raise Refused(
                    _("при форме правления «{government}» перевод {src} → {dst} не разрешён").format(
                        government=gov_name, src=order.src, dst=order.dst
                    )
                )
        else:
            price = Fraction(rule.cost)
        discount = Fraction(0)
        if rule.discount_effect:
            for p in self.world.provinces.values():
                if p.owner == state.name:
                    for b in p.buildings:
                        if (br := rules.buildings.get(b)) is not None:
                            discount += br.effect(rule.discount_effect)
        price = max(Fraction(0), price - discount)
        want = order.count
        limits: list[str] = []
        n = want
        if rule.per_turn_max is not None:
            left = rule.per_turn_max - self.converted[(state.name, rule.src, rule.dst)]
            if left < n:
                n = max(0, left)
                limits.append(_("не больше {n} за ход").format(n=rule.per_turn_max))
        have = province.population.get(order.src, 0)
        if have < n:
            n = have
            limits.append(
                _("в провинции {province} только {have} {stratum}").format(
                    province=province.name, have=have, stratum=order.src
                )
            )
        goods_used: Counter[str] = Counter()
        if rule.goods:
            pool = self.goods.setdefault(state.name, Counter())
            available = sum(pool[g] for g in rule.goods)
            if available < n:
                n = available
                limits.append(
                    _("нужен товар: {goods} (в этот ход есть {available})").format(
                        goods=_(" или ").join(rule.goods), available=available
                    )
                )
        if price:
            affordable = int(self.budget.can(state.name) // price)
            if affordable < n:
                n = affordable
                limits.append(_("денег хватает на {n}").format(n=affordable))
        if n <= 0:
            raise Refused(
                _("перевод {src} → {dst} невозможен: {why}").format(src=order.src, dst=order.dst, why="; ".join(limits))
            )
        if rule.goods:
            pool = self.goods[state.name]
            need = n
            for g in rule.goods:
                take = min(need, pool[g])
                pool[g] -= take
                goods_used[g] += take
                need -= take
        cost = price * n
        if cost:
            self.budget.take(state.name, cost, _("перевод"))
            self.report.post(
                MONEY,
                state.name,
                PHASE,
                "страты",
                -cost,
                _("{n} {src} → {dst} в провинции {province} по {price} Д").format(
                    n=n, src=order.src, dst=order.dst, province=province.name, price=fmt(price)
                ),
                order.row.ref,
            )
        province.population[order.src] -= n
        province.population[order.dst] = province.population.get(order.dst, 0) + n
        if order.dst == "АР":
            state.armed += n  # aristocrats gained in play come armed for heavy cavalry (ANC-STRATA-17)
        self.converted[(state.name, rule.src, rule.dst)] += n
        spent = [f"{k} {v}" for k, v in goods_used.items() if v]
        used = _(", израсходовано: {goods}").format(goods=", ".join(spent)) if spent else ""
        told = dict(n=n, src=order.src, dst=order.dst, cost=fmt(cost), used=used)
        self.report.tell(
            _("{state}: {n} {src} → {dst} в провинции {province} (−{cost} Д{used}).").format(
                state=state.name, province=province.name, **told
            )
        )
        text = _("переведено {n} {src} → {dst} за {cost} Д{used}").format(**told)
        if n < want:
            raise Partial(_("{done}; из {want} — {why}").format(done=text, want=want, why="; ".join(limits)))
        return text

    def move(self, state: State, order: Move) -> str:
        """ANC-POP-01: 1 Д per person per province of the way, through own provinces."""
        src = self.own(state, order.src)
        dst = self.own(state, order.dst)
        steps = _own_path(self.world, state.name, src.name, dst.name)
        if steps is None:
            raise Refused(
                _("нет пути {src:откуда} {dst:куда} через свои провинции").format(
                    src=Name(src.name), dst=Name(dst.name)
                )
            )
        have = src.population.get(order.stratum, 0)
        n = min(order.count, have)
        if n <= 0:
            raise Refused(_("в провинции {province} нет {stratum}").format(province=src.name, stratum=order.stratum))
        price = self.rules.param("move_cost_per_step") * steps
        if price:
            n = min(n, int(self.budget.can(state.name) // price))
            if n <= 0:
                self.budget.take(state.name, price, _("переселение"))
        cost = price * n
        if cost:
            self.budget.take(state.name, cost, _("переселение"))
            self.report.post(
                MONEY,
                state.name,
                PHASE,
                "переселение",
                -cost,
                _("{n} {stratum}: {src} → {dst}, {steps} × {price} Д").format(
                    n=n,
                    stratum=order.stratum,
                    src=src.name,
                    dst=dst.name,
                    steps=count(steps, "провинция"),
                    price=fmt(price / steps),
                ),
                order.row.ref,
            )
        src.population[order.stratum] -= n
        dst.population[order.stratum] = dst.population.get(order.stratum, 0) + n
        self.report.tell(
            _("{state}: переселено {n} {stratum} {src:откуда} {dst:куда} (−{cost} Д).").format(
                state=state.name, n=n, stratum=order.stratum, src=Name(src.name), dst=Name(dst.name), cost=fmt(cost)
            )
        )
        text = _("переселено {n} {stratum} за {cost} Д (путь — {steps})").format(
            n=n, stratum=order.stratum, cost=fmt(cost), steps=count(steps, "провинция")
        )
        if n < order.count:
            raise Partial(_("{done}; из {want} — людей или денег не хватило").format(done=text, want=order.count))
        return text

    def government(self, state: State, order: ChangeGovernment) -> str:
        """ANC-GOV-02..13: one voluntary step a turn along the state's path; −2 Ст (ANC-STAB-08)."""
        rules = self.rules
        if state.name in self.changed_government:
            raise Refused(_("форму правления можно менять не больше одного шага за ход"))
        if order.target == state.government:
            raise Refused(_("форма правления уже «{government}»").format(government=order.target_name))
        steps = [
            t
            for t in rules.transitions
            if t.src == state.government and t.dst == order.target and t.path in (state.path, "any")
        ]
        if not steps:
            options = sorted(
                {
                    rules.governments[t.dst].name_ru
                    for t in rules.transitions
                    if t.src == state.government and t.path in (state.path, "any") and t.dst in rules.governments
                }
            )
            western = state.path == "western"
            if options:
                hint = (
                    _("; по западному пути отсюда можно перейти в: {governments}")
                    if western
                    else _("; по восточному пути отсюда можно перейти в: {governments}")
                ).format(governments=", ".join(options))
            else:
                hint = (
                    _("; по западному пути из этой формы правления шагов нет")
                    if western
                    else _("; по восточному пути из этой формы правления шагов нет")
                )
            gov = rules.governments.get(state.government)
            raise Refused(
                _("переход «{src}» → «{dst}» не предусмотрен{hint}").format(
                    src=gov.name_ru if gov else state.government, dst=order.target_name, hint=hint
                )
            )
        problems = [p for t in steps for p in [_transition_problems(self.world, state, t, rules)]]
        best = min(problems, key=len)
        if best:
            raise Refused(_("условия не выполнены: {why}").format(why="; ".join(best)))
        before_gov = rules.governments.get(state.government)
        state.government = order.target
        state.peace = 0  # the empire's clock counts from the change (ANC-STAB-14)
        self.changed_government.add(state.name)
        before, after = shift_stability(state, int(rules.param("government_change_stability")), rules)
        change = stability_change(before, after)
        self.report.tell(
            _("{state}: смена формы правления «{src}» → «{dst}», {change}.").format(
                state=state.name, src=before_gov.name_ru if before_gov else "", dst=order.target_name, change=change
            )
        )
        return _("теперь «{government}»; {change}").format(government=order.target_name, change=change)

    def research(self, state: State, order: Research) -> str:
        """ANC-SCI-01: buy a technology with the points accumulated in earlier turns."""
        tech = self.rules.techs[order.tech]
        if tech.name_ru in state.techs:
            raise Refused(_("технология «{tech}» уже изучена").format(tech=tech.name_ru))
        missing = [p for p in tech.prerequisites if p not in state.techs]
        if missing:
            raise Refused(_("сначала нужно изучить: {techs}").format(techs=", ".join(f"«{m}»" for m in missing)))
        if state.science < tech.cost:
            short = tech.cost - state.science
            raise Refused(
                _("не хватает {points} науки: нужно {cost}, накоплено {have}").format(
                    points=count(short, "очко", fmt(short), "gent"), cost=fmt(tech.cost), have=fmt(state.science)
                )
            )
        state.techs.append(tech.name_ru)
        self.report.post(
            SCIENCE,
            state.name,
            "наука",
            "наука",
            -tech.cost,
            _("изучена технология «{tech}»").format(tech=tech.name_ru),
            order.row.ref,
        )
        points = count(tech.cost, "очко", fmt(tech.cost))
        self.report.tell(
            _("{state}: изучена технология «{tech}» (−{points} науки).").format(
                state=state.name, tech=tech.name_ru, points=points
            )
        )
        return _("изучена за {points} науки, осталось {left}").format(points=points, left=fmt(state.science))

    def recruit(self, state: State, order: Recruit) -> str:
        """ANC-ARMY-11, ANC-STRATA-13/14/17/18, ANC-NAVY-02..12: recruits, money and goods, in phase 4."""
        rules = self.rules
        unit = rules.units[order.unit]
        province = self.own(state, order.province)
        if unit.tech and unit.tech not in state.techs:
            raise Refused(_("для отряда «{unit}» нужна технология «{tech}»").format(unit=unit.name_ru, tech=unit.tech))
        if unit.where is not None:
            unmet = conditions.failures(unit.where, conditions.Context(self.world, state, province))
            if unmet:
                text = (
                    _("«{unit}» здесь не набрать — условие: {needs}")
                    if len(unmet) == 1
                    else _("«{unit}» здесь не набрать — условия: {needs}")
                )
                raise Refused(text.format(unit=unit.name_ru, needs="; ".join(unmet)))
        if unit.kind == "sea" and not province.sea_zones:
            raise Refused(_("провинция {province} не выходит к морю").format(province=province.name))
        want = order.count
        n = want
        limits: list[str] = []
        yard_name = rules.built_at(unit, "shipyard") if unit.kind == "sea" else None
        if yard_name:
            staffed = staff(province, rules).staffed.get(yard_name, False)  # an idle shipyard launches nothing
            yards = 1 if yard_name in province.buildings and staffed else 0
            left = yards - self.launched[province.name]
            if left < n:
                n = max(0, left)
                yard = rules.buildings.get(yard_name)
                if yard_name in province.buildings and not staffed and yard is not None:
                    limits.append(
                        _("«{building}» простаивает: нет работников ({workers})").format(
                            building=yard_name, workers=workers_text(yard)
                        )
                    )
                else:
                    limits.append(_("верфь спускает 1 корабль за ход (ANC-NAVY-11)"))
        pool = self._recruit_pool(state, unit.strata)
        people = sum(province.population.get(s, 0) for s in pool)
        if people < n * unit.recruits:
            n = people // unit.recruits
            limits.append(
                (
                    _("рекрутов ({strata}) в провинции {province}: {people}, а на корабль нужно {need}")
                    if unit.kind == "sea"
                    else _("рекрутов ({strata}) в провинции {province}: {people}, а на отряд нужно {need}")
                ).format(
                    strata="/".join(f"{Code(s, 'stratum')}" for s in pool),  # in the text's language
                    province=province.name,
                    people=people,
                    need=unit.recruits,
                )
            )
        goods = self.goods.setdefault(state.name, Counter())
        armed = min(state.armed, n) if unit.strata == ("АР",) else 0  # ANC-STRATA-17: bring their own weapons
        arms = rules.goods_with("arms")  # the aristocrats' own weapons stand in for these goods
        for g in unit.goods:
            have = goods[g] + (armed if g in arms else 0)
            if have < n:
                n = have
                limits.append(_("нужен товар «{good}» (в этот ход есть {have})").format(good=g, have=goods[g]))
        if unit.cost:
            affordable = int(self.budget.can(state.name) // unit.cost)
            if affordable < n:
                n = affordable
                limits.append(_("денег хватает на {n}").format(n=affordable))
        if n <= 0:
            raise Refused(_("«{unit}» не набрать: {why}").format(unit=unit.name_ru, why="; ".join(limits)))
        cost = unit.cost * n
        if cost:
            self.budget.take(state.name, cost, f"«{unit.name_ru}»")
            self.report.post(
                MONEY,
                state.name,
                PHASE,
                "войска",
                -cost,
                _("{n} {unit} в провинции {province}").format(n=n, unit=unit.type, province=province.name),
                order.row.ref,
            )
        armed = min(armed, n)
        for g in unit.goods:
            goods[g] -= n - armed if g in arms else n
        state.armed -= armed
        need = n * unit.recruits
        taken: list[str] = []
        for s in pool:
            take = min(need, province.population.get(s, 0))
            if take:
                province.population[s] -= take
                taken.append(f"{take} {s}")
                need -= take
        if unit.kind == "sea":
            fleet = fleet_at(self.world, state.name, province.sea_zones[0])
            fleet.ships[unit.type] = fleet.ships.get(unit.type, 0) + n
            self.launched[province.name] += n
            where = _("флот «{fleet}»").format(fleet=fleet.name)
        else:
            army = army_at(self.world, state.name, province.name)
            army.units[unit.type] = army.units.get(unit.type, 0) + n
            where = _("армия «{army}»").format(army=army.name)
        used = "".join(
            f", {g}: {n - armed if g in arms else n}" for g in unit.goods if n - (armed if g in arms else 0)
        )
        told = dict(n=n, unit=unit.type, cost=fmt(cost), recruits=", ".join(taken), used=used, where=where)
        self.report.tell(
            _(
                "{state}: набрано {n} {unit} в провинции {province} (−{cost} Д; рекруты: {recruits}{used}) → {where}."
            ).format(state=state.name, province=province.name, **told)
        )
        text = _("набрано {n} {unit} за {cost} Д (рекруты: {recruits}{used}) → {where}").format(**told)
        if n < want:
            raise Partial(_("{done}; из {want} — {why}").format(done=text, want=want, why="; ".join(limits)))
        return text

    def _recruit_pool(self, state: State, strata: tuple[str, ...]) -> list[str]:
        """Strata that may give recruits; under despotism anyone but a priest can be a slave (ANC-STRATA-04)."""
        pool = list(strata)
        if "раб" in strata:
            for c in self.rules.conversions:
                free = c.dst == "раб" and c.governments and state.government in c.governments and c.cost in ("0", "")
                if free and c.src not in pool:
                    pool.append(c.src)
        return pool

    def pay(self, state: State, order: Pay) -> str:
        """ANC-MONEY-06: tribute and other payments; the receiver may spend it next turn."""
        if order.to == state.name:
            raise Refused(_("платить самому себе незачем"))
        amount = Fraction(order.amount)
        payer, to = Name(state.name), Name(order.to)
        to_them = _("платёж {to:datv}").format(to=to)
        self.budget.take(state.name, amount, to_them)
        self.report.post(MONEY, state.name, PHASE, "дань и платежи", -amount, to_them, order.row.ref)
        self.report.post(
            MONEY,
            order.to, PHASE, "дань и платежи", amount, _("платёж от {payer:gent}").format(payer=payer), order.row.ref
        )
        self.report.tell(
            _("{payer} {payer:заплатил} {amount} Д {to:datv}.").format(payer=payer, amount=fmt(amount), to=to)
        )
        return _("передано {amount} Д {to:datv}").format(amount=fmt(amount), to=to)


def _own_path(world: Campaign, state: str, a: str, b: str) -> int | None:
    """Steps between two provinces over land borders through the state's own provinces."""
    dist = {a: 0}
    queue = deque([a])
    while queue:
        p = queue.popleft()
        if p == b:
            return dist[p]
        for n in world.neighbours(p):
            if n not in dist and world.provinces[n].owner == state:
                dist[n] = dist[p] + 1
                queue.append(n)
    return None


def _transition_problems(world: Campaign, state: State, t, rules: Rules) -> list[str]:  # type: ignore[no-untyped-def]
    provinces = [p for p in world.provinces.values() if p.owner == state.name]
    out: list[str] = []
    at_war = bool(world_wars(world, state.name))
    if t.stability_min is not None and state.stability < t.stability_min:
        out.append(_("Ст не ниже {bound:+d} (сейчас {now:+d})").format(bound=t.stability_min, now=state.stability))
    if t.stability_max is not None and state.stability > t.stability_max:
        out.append(_("Ст не выше {bound:+d} (сейчас {now:+d})").format(bound=t.stability_max, now=state.stability))
    if t.peace and at_war:
        out.append(_("мир (государство воюет)"))
    if t.war and not at_war:
        out.append(_("война (государство ни с кем не воюет)"))
    aristocrats = count_people(provinces, "АР")
    if t.aristocrats_min is not None and aristocrats < t.aristocrats_min:
        out.append(_("не меньше {bound} АР (есть {have})").format(bound=t.aristocrats_min, have=aristocrats))
    if t.aristocrats_max is not None and aristocrats > t.aristocrats_max:
        out.append(_("не больше {bound} АР (есть {have})").format(bound=t.aristocrats_max, have=aristocrats))
    if t.temples_min is not None:
        active = sum(
            1 for p in provinces for b, ok in staff(p, rules).staffed.items() if ok and rules.has_effect((b,), "temple")
        )
        if active < t.temples_min:
            out.append(_("действующих храмов не меньше {bound} (есть {have})").format(bound=t.temples_min, have=active))
    if t.forums_min is not None:
        forums = sum(1 for p in provinces if rules.has_effect(p.buildings, "forum"))
        if forums < t.forums_min:
            out.append(_("форумов (рынков) не меньше {bound} (есть {have})").format(bound=t.forums_min, have=forums))
    if t.provinces_min is not None and len(provinces) < t.provinces_min:
        out.append(
            _("не меньше {bound} (есть {have})").format(
                bound=count(t.provinces_min, "провинция", case="gent"), have=len(provinces)
            )
        )
    if t.treasury_min is not None and state.treasury < t.treasury_min:
        out.append(
            _("казна не меньше {bound} Д (есть {have} Д)").format(bound=fmt(t.treasury_min), have=fmt(state.treasury))
        )
    if t.tech and t.tech not in state.techs:
        out.append(_("технология «{tech}»").format(tech=t.tech))
    return out


def world_wars(world: Campaign, state: str) -> list[str]:
    """States at war with `state`."""
    return world.enemies(state)


def _charges(world: Campaign, rules: Rules, report: Report, exp: Expenses) -> None:
    """The government's fixed charges: despotism −10 Д, oligarchy −1 Д per aristocrat (ANC-GOV-17, -22)."""
    by_owner = world.by_owner()
    for name in report.lot or sorted(world.states):
        state = world.states[name]
        gov = rules.governments.get(state.government)
        if gov is None:
            continue
        aristocrats = count_people(by_owner.get(name, []), "АР")
        for amount, reason in (
            (
                gov.money_per_turn,
                _("{government}: {rate} Д за ход").format(
                    government=gov.name_ru, rate=fmt(gov.money_per_turn, sign=True)
                ),
            ),
            (
                gov.money_per_aristocrat * aristocrats,
                _.ngettext("{government}: {rate} Д × {n} АР", "{government}: {rate} Д × {n} АР", aristocrats).format(
                    government=gov.name_ru, rate=fmt(gov.money_per_aristocrat, sign=True), n=aristocrats
                ),
            ),
        ):
            if amount < 0:
                exp.budget.charge(name, -amount)
                report.post(MONEY, name, PHASE, "правление", amount, reason)


def _disband(world: Campaign, orders: Orders, rules: Rules, report: Report) -> None:
    """Units the players disband themselves are gone before upkeep is due (ANC-UPKEEP-03); heavy
    cavalry go back to the aristocracy, free, whether written «Распустить ТК» or «Перевести ТК → АР»
    (ANC-STRATA-17), so the aristocrats count for this turn's taxes and government income."""
    for name in report.lot or sorted(world.states):
        for row, order in of(orders, name):
            if not isinstance(order, Disband):
                continue
            try:
                status, reason = _disband_one(world, world.states[name], order, rules, report)
            except Refused as exc:
                report.result(row.ref, Status.REJECTED, str(exc))
            else:
                report.result(row.ref, status, reason)


def _disband_one(world: Campaign, state: State, order: Disband, rules: Rules, report: Report) -> tuple[Status, str]:
    """One «Распустить» / «Перевести ТК → АР» row: take the units, send the aristocrats home."""
    name = state.name
    if order.force:
        force = world.armies.get(order.force) or world.fleets.get(order.force)
        if force is None or force.state != name:
            raise Refused(_("«{force}» — не ваша армия и не ваш флот").format(force=order.force))
        forces: list = [force]  # type: ignore[type-arg]
        where = _("из «{force}»").format(force=order.force)
        nowhere = _("в «{force}»").format(force=order.force)
    else:
        forces = sorted(
            (a for a in world.armies.values() if a.state == name and a.province == order.province),
            key=lambda a: a.name,
        )
        if not forces:
            raise Refused(_("в провинции {province} нет вашей армии").format(province=order.province))
        where = _("из армий в провинции {province}").format(province=order.province)
        nowhere = _("в армиях в провинции {province}").format(province=order.province)
    home_stratum = RETURNS_TO.get(order.unit)
    if order.into and order.into != home_stratum:  # the parser allows only the seed's pairs
        raise Refused(
            _("перевод {unit} → {stratum} не предусмотрен правилами").format(unit=order.unit, stratum=order.into)
        )
    home = None
    if home_stratum:
        home = home_province(world, state, getattr(forces[0], "province", ""))
        if home is None:
            raise Refused(
                _("{unit} некуда вернуться в страту {stratum}: у государства нет провинций").format(
                    unit=order.unit, stratum=home_stratum
                )
            )
    n = 0
    for force in forces:
        units = force.units if hasattr(force, "units") else force.ships  # type: ignore[union-attr]
        take = min(units.get(order.unit, 0), order.count - n)
        if take <= 0:
            continue
        units[order.unit] -= take
        if not units[order.unit]:
            units.pop(order.unit)
        n += take
    if n <= 0:
        raise Refused(_("{where} нет {unit}").format(where=nowhere, unit=order.unit))
    back = ""
    if home is not None and home_stratum:
        unit = rules.units.get(order.unit)
        people = n * (unit.recruits if unit else 1)
        home.population[home_stratum] = home.population.get(home_stratum, 0) + people
        if home_stratum == "АР":
            state.armed += people  # they bring their arms back: «вновь полученные аристократы» (ANC-STRATA-17)
        back = _("; +{people} {stratum} в провинции {province} (обратный перевод бесплатно, ANC-STRATA-17)").format(
            people=people, stratum=home_stratum, province=home.name
        )
    told = dict(n=n, unit=order.unit, where=where, back=back, want=order.count)
    if order.into:
        report.tell(_("{state}: переведено {n} {unit} {where}{back}.").format(state=name, **told))
        done = _("переведено {n} {unit}{back}") if n == order.count else _("переведено {n} {unit} из {want}{back}")
    else:
        report.tell(_("{state}: распущено {n} {unit} {where}{back}.").format(state=name, **told))
        done = _("распущено {n} {unit}{back}") if n == order.count else _("распущено {n} {unit} из {want}{back}")
    status = Status.DONE if n == order.count else Status.PARTIAL
    return status, done.format(**told)


def _upkeep(world: Campaign, orders: Orders, rules: Rules, report: Report, exp: Expenses) -> None:
    """ANC-UPKEEP-01/03: upkeep of every unit and ship; what the treasury cannot pay deserts —
    first units not fighting, then those in the capital, then those at the front, cheapest first."""
    armies_of: dict[str, list] = {}
    for a in world.armies.values():
        if a.size():
            armies_of.setdefault(a.state, []).append(a)
    fleets_of: dict[str, list] = {}
    for f in world.fleets.values():
        if f.size():
            fleets_of.setdefault(f.state, []).append(f)
    for name in report.lot or sorted(world.states):
        state = world.states[name]
        armies = armies_of.get(name, [])
        fleets = fleets_of.get(name, [])
        if not armies and not fleets:
            continue
        moving = {o.force for _r, o in of(orders, name) if isinstance(o, March)}
        moving |= {o.fleet for _r, o in of(orders, name) if isinstance(o, Sail)}
        enemies = set(world.enemies(name))
        enemy_armies = {a.province for s in enemies for a in armies_of.get(s, [])}

        def category(
            force: object,
            moving: set[str] = moving,
            enemies: set[str] = enemies,
            enemy_armies: set[str] = enemy_armies,
            capital: str = state.capital,
        ) -> int:
            fname = getattr(force, "name", "")
            province = getattr(force, "province", None)
            if fname in moving:
                return 2
            if province is not None:
                near = {province, *world.neighbours(province)}
                front = any(world.provinces[p].owner in enemies for p in near if p in world.provinces) or bool(
                    near & enemy_armies
                )
                if front:
                    return 2
                if province == capital:
                    return 1
            return 0

        total = sum((upkeep(a.units, rules) for a in armies), Fraction(0)) + sum(
            (upkeep(f.ships, rules) + upkeep(f.cargo, rules) for f in fleets), Fraction(0)
        )  # troops aboard are paid like any others
        budget = exp.budget.can(name)
        deserted: list[str] = []
        if total > budget:
            forces = sorted([*armies, *fleets], key=lambda f: (category(f), f.name))
            for force in forces:
                units = force.units if hasattr(force, "units") else force.ships  # type: ignore[union-attr]
                for t in sorted(list(units), key=lambda t: rules.units[t].value if t in rules.units else 0):
                    while units.get(t, 0) > 0 and total > budget:
                        units[t] -= 1
                        total -= rules.units[t].upkeep
                        deserted.append(f"{t} ({force.name})")
                    if not units.get(t):
                        units.pop(t, None)
                if total <= budget:
                    break
        if total:
            exp.budget.charge(name, total)
            report.post(MONEY, name, PHASE, "содержание войск", -total, _("содержание армий и флотов"))
        if deserted:
            report.tell(
                _("{state}: казне не хватило на содержание — дезертировали: {units}.").format(
                    state=name, units=", ".join(deserted)
                )
            )


def run(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    exp = Expenses(world, rules, report)
    _charges(world, rules, report, exp)
    _disband(world, orders, rules, report)
    _upkeep(world, orders, rules, report, exp)
    handlers = {
        Build: exp.build,
        InvestStability: exp.stability,
        Convert: exp.convert,
        Move: exp.move,
        ChangeGovernment: exp.government,
        Research: exp.research,
        Pay: exp.pay,
        Recruit: exp.recruit,
    }
    for name in report.lot or sorted(world.states):
        state = world.states[name]
        for row, order in of(orders, name):
            if not isinstance(order, HANDLED):
                continue  # unreadable rows were answered when parsed; other kinds belong to other phases
            try:
                reason = _execute(handlers, state, order)
            except Partial as exc:
                report.result(row.ref, Status.PARTIAL, str(exc))
            except Refused as exc:
                report.result(row.ref, Status.REJECTED, str(exc))
            else:
                report.result(row.ref, Status.DONE, reason)
    return world


def _execute(handlers: dict, state: State, order: Order) -> str:  # type: ignore[type-arg]
    if isinstance(order, NoActions):
        return _("нет действий — приказ засчитан")
    return handlers[type(order)](state, order)
