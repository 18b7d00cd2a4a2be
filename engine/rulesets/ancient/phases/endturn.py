"""The end of the turn, before the balance (ANC-TURN-16 with the catalogue's proposal for
the checks the seed gives no phase): missed orders (ANC-TURN-03/04), science (ANC-SCI-02..05),
food and famine (ANC-FOOD-02..04, ANC-STAB-06), the government's stability clock
(ANC-STAB-07, -14), forced degradation at −3 (ANC-STAB-17, ANC-GOV-14..16) and the AI
states' fixed stability (ANC-AI-02).
"""

from __future__ import annotations

import math
import re
from collections import deque
from fractions import Fraction

from engine.core import absence
from engine.core.absence import Standing, Verdict
from engine.core.cursor import Cursor
from engine.core.dice import Dice
from engine.core.money import fmt

from ..calendar import CALENDAR
from ..economy import clamp, count_people, shift_stability, stability_change
from ..facts import Report
from ..messages import _
from ..model import Campaign, Province, State
from ..resources import SCIENCE
from ..rules import Rules
from ..speech import Name, count
from ..staffing import garrisons, production, province_output, short_crews
from ..turnorders import Orders


def run(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    by_owner = world.by_owner()
    held = garrisons(world)
    zones = zone_graph(world)
    _missed(world, rules, report)
    for name in sorted(world.states):
        state = world.states[name]
        provinces = by_owner.get(name, [])
        _science(state, provinces, rules, report)
        famine = _food(world, state, provinces, rules, report, held, zones)
        _stability_clock(state, famine, rules, report, at_war=bool(world.enemies(name)))
        _degrade(state, provinces, rules, report)
        if state.ai:
            state.stability = int(rules.param("ai_stability"))
    return world


def _missed(world: Campaign, rules: Rules, report: Report) -> None:
    """ANC-TURN-03/04 on the core's ladder (engine/core/absence.py): two turns without orders in a
    row and the state passes to the GM; «Нет действий» counts as orders; a miss the GM excused
    («Пропуск прощён») is forgiven once.  Warnings are not told one by one: the states warned alike
    share one chronicle line (hundreds of silent states would otherwise repeat the same sentence
    hundreds of times), told after the forgiven and the handed-over ones."""
    played = {name: world.states[name] for name in sorted(world.states) if not world.states[name].ai}
    ladder = absence.step(
        CALENDAR,
        Cursor(world.turn),
        {name: Standing(st.missed, st.excused) for name, st in played.items()},
        {name for name in played if name in report.facts.sent},
        int(rules.param("missed_turns_to_ai")),
    )
    warned: dict[tuple[int, int], list[str]] = {}  # (missed, limit) -> the states warned alike
    for name, state in played.items():
        state.missed, state.excused = ladder.standings[name].missed, ladder.standings[name].excused
        verdict = ladder.verdicts[name]
        if verdict is Verdict.EXCUSED:
            report.tell(_("{state}: приказов нет, но ведущий простил пропуск.").format(state=name))
        elif verdict is Verdict.REACHED:
            state.ai = True
            state.stability = int(rules.param("ai_stability"))
            report.tell(
                _(
                    "{state}: {turns} подряд без приказов — государство переходит под управление ведущего (ИИ), "
                    "Ст {stability:+d}."
                ).format(state=name, turns=count(state.missed, "ход"), stability=state.stability)
            )
        elif verdict is Verdict.WARNED:
            warned.setdefault((state.missed, ladder.limit), []).append(name)
    for (missed, limit), names in warned.items():
        report.tell(_warning(", ".join(names), missed, limit))


def _warning(states: str, missed: int, limit: int) -> str:
    """The chronicle's warning to ``states`` (one name or several, comma-separated)."""
    if missed == limit - 1:
        return _(
            "{state}: приказов нет — пропуск {missed} из {limit}. Последнее предупреждение: ещё один "
            "пропуск — и управление перейдёт к ИИ."
        ).format(state=states, missed=missed, limit=limit)
    return _("{state}: приказов нет — пропуск {missed} из {limit}, предупреждение.").format(
        state=states, missed=missed, limit=limit
    )


def _science(state: State, provinces: list[Province], rules: Rules, report: Report) -> None:
    """ANC-SCI-02..05: +1, the government's points, +3 a library, +5 a scholar; they accumulate."""
    gov = rules.governments.get(state.government)
    base = rules.param("science_base")
    gov_points = gov.science if gov else Fraction(0)
    if rules.param("science_government_mode") and gov_points > 0:
        points = max(base, gov_points)
        parts = [f"{gov.name_ru if gov else ''} {fmt(points)}"]
    else:
        points = base + gov_points
        parts = [_("база {points}").format(points=fmt(base))]
        parts += [f"{gov.name_ru} {fmt(gov_points, sign=True)}"] if gov and gov_points else []
    buildings = sum(
        (rules.buildings[b].effect("science") for p in provinces for b in p.buildings if b in rules.buildings),
        Fraction(0),
    )
    if buildings:
        points += buildings
        parts.append(_("постройки +{points}").format(points=fmt(buildings)))
    scholars = count_people(provinces, "уч")
    if scholars:
        points += scholars * rules.param("science_per_scholar")
        parts.append(_("учёные: {n} × {rate}").format(n=scholars, rate=fmt(rules.param("science_per_scholar"))))
    points = max(points, Fraction(0))
    if points:
        report.post(SCIENCE, state.name, "наука", "наука", points, "; ".join(parts))


def zone_graph(world: Campaign) -> dict[int, set[int]]:
    graph: dict[int, set[int]] = {}
    for z in world.seas.values():
        for n in z.neighbours:
            graph.setdefault(z.zone, set()).add(n)
            graph.setdefault(n, set()).add(z.zone)
    return graph


def capital_distance(
    world: Campaign,
    state: State,
    province: Province,
    provinces: list[Province] | None = None,
    zones: dict[int, set[int]] | None = None,
) -> int | None:
    """Steps from a province to the capital over the state's own provinces and the sea (coastal
    provinces reach their sea zones), or None when there is no way (ANC-FOOD-03)."""
    capital = world.provinces.get(state.capital)
    if capital is None:
        return None
    zone_graph_ = zones if zones is not None else zone_graph(world)
    own = provinces if provinces is not None else [p for p in world.provinces.values() if p.owner == state.name]
    coast: dict[int, list[str]] = {}
    for p in own:
        if p.coastal:
            for z in p.sea_zones:
                coast.setdefault(z, []).append(p.name)
    start: tuple[str, object] = ("p", province.name)
    dist: dict[tuple[str, object], int] = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        kind, name = node
        if node == ("p", capital.name):
            return dist[node]
        nexts: list[tuple[str, object]] = []
        if kind == "p":
            p = world.provinces[str(name)]
            nexts += [("p", n) for n in sorted(world.neighbours(p.name)) if world.provinces[n].owner == state.name]
            if p.coastal:
                nexts += [("z", z) for z in p.sea_zones]
        else:
            nexts += [("z", z) for z in sorted(zone_graph_.get(int(name), ()))]  # type: ignore[arg-type]
            nexts += [("p", n) for n in coast.get(int(name), [])]  # type: ignore[arg-type]
        for n in nexts:
            if n not in dist:
                dist[n] = dist[node] + 1
                queue.append(n)
    return None


def _food(
    world: Campaign,
    state: State,
    provinces: list[Province],
    rules: Rules,
    report: Report,
    held: frozenset[tuple[str, str]] | None = None,
    zones: dict[int, set[int]] | None = None,
) -> bool:
    """ANC-FOOD-02..04: one food unit per three provinces must reach the capital."""
    if not provinces:
        state.famine = 0
        return False
    per = int(rules.param("food_provinces_per_unit"))
    need = math.ceil(len(provinces) / per)
    food = 0
    far: list[str] = []
    for p in provinces:
        for why in short_crews(p, rules):  # an irrigation system short of its farm's whole crew (ANC-AGRI-04)
            report.tell(_("{state}: орошение не действует — {why} (ANC-AGRI-04).").format(state=state.name, why=why))
        made = {g: n for g, n in province_output(p, rules, world, held).items() if rules.is_food(g) and n > 0}
        if not made:
            continue
        distance = capital_distance(world, state, p, provinces, zones)
        for g, n in made.items():
            reach = rules.trade_reach(g)
            if distance is not None and (reach is None or distance <= reach):
                food += n
            else:
                far.append(_("{good} {province:откуда}").format(good=g, province=Name(p.name)))
    if far:
        report.tell(
            _("{state}: не доходит до столицы — {goods} (ANC-FOOD-03).").format(state=state.name, goods=", ".join(far))
        )
    food += report.facts.food_bought.get(state.name, 0)
    food -= report.facts.food_sold.get(state.name, 0)  # sold food feeds the buyer, not home
    event = state.name in report.facts.famine_event
    famine = event or food < need
    if famine:
        state.famine += 1
        why = _("неурожай") if event else _("до столицы дошло еды {food} из {need}").format(food=food, need=need)
        report.tell(_("{state}: голод ({why}), {n}-й ход подряд.").format(state=state.name, why=why, n=state.famine))
        mode = int(rules.param("famine_stability_mode"))
        if state.famine >= mode:
            before, after = shift_stability(state, int(rules.param("famine_stability_delta")), rules)
            report.tell(
                _("{state}: голод подрывает стабильность, {change}.").format(
                    state=state.name, change=stability_change(before, after)
                )
            )
    else:
        state.famine = 0
    report.facts.food[state.name] = (food, need)
    return famine


def _stability_clock(state: State, famine: bool, rules: Rules, report: Report, at_war: bool) -> None:
    """ANC-STAB-07 (despotism −1 a turn) and ANC-STAB-14 (empire +1 every two peaceful turns)."""
    gov = rules.governments.get(state.government)
    if gov is None or state.ai:
        return
    if gov.stability_per_turn:
        before, after = shift_stability(state, gov.stability_per_turn, rules)
        report.tell(
            _("{state}: {government} — {change}.").format(
                state=state.name, government=gov.name_ru, change=stability_change(before, after)
            )
        )
    if famine or at_war:
        state.peace = 0
        return
    state.peace += 1
    period = int(rules.param("empire_peace_turns"))
    if gov.peace_bonus and period and state.peace >= period:  # the empire's clock
        state.peace = 0
        before, after = shift_stability(state, gov.peace_bonus, rules)
        report.tell(
            _("{state}: {turns} без голода — {change}.").format(
                state=state.name, turns=count(period, "мирный ход"), change=stability_change(before, after)
            )
        )


def _degrade(state: State, provinces: list[Province], rules: Rules, report: Report) -> None:
    """ANC-STAB-17, ANC-GOV-14..16: at −3 at the end of the turn the government falls a step."""
    if state.ai or state.stability > int(rules.param("stability_min")):
        return
    facts = {
        "provinces": len(provinces),
        "aristocrats": count_people(provinces, "АР"),
        "routes": report.facts.routes.get(state.name, 0),
        "stability": state.stability,
    }
    for row in rules.degradation:
        if row.src != state.government or row.path not in ("any", state.path):
            continue
        if row.condition and not _holds(row.condition, facts):
            continue
        before = rules.governments.get(state.government)
        after = rules.governments.get(row.dst)
        state.government = row.dst
        state.peace = 0  # a new government's clock starts afresh
        state.stability = clamp(state.stability, rules)
        report.tell(
            _("{state}: стабильность {stability:+d} — форма правления деградирует: «{before}» → «{after}».").format(
                state=state.name,
                stability=state.stability,
                before=before.name_ru if before else "",
                after=after.name_ru if after else row.dst,
            )
        )
        report.facts.degraded.append(state.name)
        return
    report.tell(
        _("{state}: стабильность {stability:+d}, но хуже формы правления нет.").format(
            state=state.name, stability=state.stability
        )
    )


def _holds(condition: str, facts: dict[str, int]) -> bool:
    m = re.fullmatch(r"\s*(\w+)\s*(>=|<=|>|<|==|=)\s*(\w+)\s*", condition)
    if not m:
        return False
    left, op, right = m.groups()
    a = facts.get(left, int(left) if left.lstrip("-").isdigit() else 0)
    b = facts.get(right, int(right) if right.lstrip("-").isdigit() else 0)
    return {">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b}.get(op, a == b)


__all__ = ["production", "run"]
