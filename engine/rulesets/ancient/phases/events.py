"""Phase 1, random events (ANC-EVENT-01..03, ANC-TURN-09): five draws from the GM's deck.

The deck is the rules tab «Правила — События»; states with low stability draw more bad
events (weights in «Правила — Шансы событий», ANC-EVENT-02). Every draw is a named, seeded
roll. The GM may also place events by hand in «События ведущего» for a turn.
"""

from __future__ import annotations

import re
from fractions import Fraction

from engine.core.dice import Dice
from engine.core.money import fmt

from ..economy import describe_people, lose_people, majority_stratum, shift_stability, stability_change
from ..facts import Report
from ..messages import _
from ..model import Campaign, Province, State
from ..resources import MONEY
from ..rules import EventCard, Rules
from ..turnorders import Orders
from .lot import reach_all

PHASE = "события"


def _condition(card: EventCard, state: State) -> bool:
    """Conditions like «stability<=0» on the target state."""
    m = re.fullmatch(r"\s*stability\s*(<=|>=|<|>|==|=)\s*(-?\d+)\s*", card.condition or "")
    if not m:
        return True
    op, value = m.group(1), int(m.group(2))
    s = state.stability
    return {"<=": s <= value, ">=": s >= value, "<": s < value, ">": s > value}.get(op, s == value)


def _state_weight(card: EventCard, state: State, rules: Rules) -> float:
    bad, good = rules.event_odds.get(state.stability, (Fraction(1), Fraction(1)))
    return float(bad if card.kind == "bad" else good)


def run(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    cards = list(rules.events.values())
    count = int(rules.param("events_per_turn"))
    by_owner = world.by_owner()
    states = [s for s in world.states.values() if by_owner.get(s.name)]
    if cards and states and count > 0 and dice.blind:  # a check: no event drawn, every state it may hit marked
        for i in range(count):
            dice.withhold("событие", subject=str(i + 1))
        reach_all(report, [s.name for s in states if any(_condition(c, s) for c in cards)], _("события"))
        if any(c.target == "sea" for c in cards):  # pirates on a sea zone reach every trading state
            reach_all(report, [s.name for s in states], _("события"))
    elif cards and states:
        for i in range(count):
            card = dice.choice("событие", cards, [float(c.weight) for c in cards], subject=str(i + 1))
            if card.target == "sea":
                zones = sorted(world.seas)
                if zones:
                    zone = dice.choice("событие: море", zones, subject=str(i + 1))
                    apply(world, rules, report, card, None, None, zone)
                continue
            eligible = [s for s in states if _condition(card, s)]
            if not eligible:
                report.tell(
                    _("Событие «{event}» никого не коснулось (условие: {condition}).").format(
                        event=card.name_ru, condition=card.condition
                    )
                )
                continue
            state = dice.choice(
                "событие: государство", eligible, [_state_weight(card, s, rules) for s in eligible], subject=str(i + 1)
            )
            province = None
            if card.target == "province":
                province = dice.choice(
                    "событие: провинция", sorted(by_owner[state.name], key=lambda p: p.name), subject=str(i + 1)
                )
            elif card.target == "capital":
                province = world.provinces.get(state.capital)
            apply(world, rules, report, card, state, province, None)
    for ev in world.gm_events:
        if ev.turn != report.turn:
            continue
        card = rules.events[ev.event]
        target = ev.target.strip()
        state = world.states.get(target)
        province = world.provinces.get(target)
        zone = int(target) if target.isdigit() else None
        if province is not None:
            state = world.states.get(province.owner)
        elif state is not None and card.target in ("province", "capital"):
            province = world.provinces.get(state.capital)
        if state is None and zone is None:
            report.tell(
                _("Событие ведущего «{event}»: цель «{target}» не найдена — пропущено.").format(
                    event=card.name_ru, target=target
                )
            )
            continue
        apply(world, rules, report, card, state, province, zone, by_gm=True)
    return world


def apply(
    world: Campaign,
    rules: Rules,
    report: Report,
    card: EventCard,
    state: State | None,
    province: Province | None,
    zone: int | None,
    by_gm: bool = False,
) -> None:
    """Carry out one event's effects and tell it in the chronicle."""
    where = province.name if province else (state.name if state else _("морская зона {zone}").format(zone=zone))
    place = _("{state}, провинция {province}").format(state=state.name, province=where) if state and province else where
    parts: list[str] = []
    for key, raw in card.effects.items():
        value = int(Fraction(raw)) if re.fullmatch(r"[+-]?\d+", raw.strip()) else 0
        if key == "treasury" and state is not None:
            amount = Fraction(value)
            if amount < 0:
                amount = max(amount, -max(state.treasury, Fraction(0)))
            if amount:
                report.post(MONEY, state.name, PHASE, "события", amount, f"«{card.name_ru}»")
                parts.append(_("{amount} Д").format(amount=fmt(amount, sign=True)))
        elif key == "stability" and state is not None:
            before, after = shift_stability(state, value, rules)
            parts.append(stability_change(before, after))
        elif key == "people" and province is not None:
            if value > 0:
                s = majority_stratum(province)
                province.population[s] += value
                parts.append(f"+{value} {s}")
            else:
                lost = lose_people(province, -value)
                parts.append(_("погибли: {people}").format(people=describe_people(lost)))
        elif key == "scholars" and province is not None:
            province.population["уч"] = province.population.get("уч", 0) + value
            parts.append(_("учёных +{n}").format(n=value))
        elif key == "famine" and state is not None:
            report.facts.famine_event.add(state.name)
            parts.append(_("голод в этот ход"))
        elif key == "pirates" and zone is not None:
            report.facts.pirates.add(zone)
            parts.append(_("торговля через зону прервана"))
        elif key == "revolt" and province is not None:
            report.facts.revolts.add(province.name)
            parts.append(_("налогов с провинции нет"))
            if state is not None and state.capital == province.name:
                before, after = shift_stability(state, -1, rules)  # ANC-STAB-03
                parts.append(_("восстала столица: {change}").format(change=stability_change(before, after)))
    told = (
        _("Событие ведущего «{event}» — {where}.{text} ({effects})")
        if by_gm
        else _("Событие «{event}» — {where}.{text} ({effects})")
    )
    text = f" {card.text_ru}" if card.text_ru else ""
    report.tell(
        told.format(event=card.name_ru, where=place, text=text, effects="; ".join(parts) or _("без последствий"))
    )
    report.facts.events.append((card.key, where))
