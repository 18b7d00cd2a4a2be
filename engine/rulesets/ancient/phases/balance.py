"""Phase 7 (ANC-TURN-16): the final balance of each state, told in the chronicle."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.money import fmt

from ..economy import category_label
from ..facts import Report
from ..messages import _
from ..model import Campaign
from ..resources import MONEY
from ..rules import Rules
from ..turnorders import Orders


def run(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    opening = report.facts.opening
    by_cat = report.ledger.by_category(report.turn, MONEY.code)
    for name in sorted(world.states):
        state = world.states[name]
        cats = by_cat.get(name, {})
        income = sum((v for v in cats.values() if v > 0), start=0)
        expense = -sum((v for v in cats.values() if v < 0), start=0)
        before = opening.get(name, state.treasury)
        if name not in report.facts.sent:
            continue  # the balance tab has every state; the chronicle tells those who acted
        parts = [f"{category_label(k)} {fmt(v, sign=True)}" for k, v in sorted(cats.items())]
        detail = f" ({'; '.join(parts)})" if parts else ""
        report.tell(
            _(
                "{state}: казна {before} → {after} Д — доход {income}, расход {expense}{detail}; Ст {stability:+d}."
            ).format(
                state=name,
                before=fmt(before),
                after=fmt(state.treasury),
                income=fmt(income),
                expense=fmt(expense),
                detail=detail,
                stability=state.stability,
            )
        )
    return world
