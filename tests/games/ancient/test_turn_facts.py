"""Issue 17 point 7: the phases pass data through a typed context, not a free dict.

The core's TurnReport carries its ruleset's facts (`report.facts`, of the type the ruleset
declares); the ancient game's are `facts.TurnFacts`.  These tests pin that no free-form dict is
left on the report, and that a real turn fills the facts the phases and reports rely on."""

from __future__ import annotations

import dataclasses
import typing

from engine.core.turn import TurnReport
from engine.rulesets.ancient import codec, economy
from engine.rulesets.ancient.demo import sample_orders
from engine.rulesets.ancient.facts import Battle, TurnFacts, new_report
from engine.rulesets.ancient.scenario import FIXED_SECRET, build_tables, put_orders
from engine.rulesets.ancient.window import preview


def test_i17_p7_the_report_has_typed_facts_and_no_free_dict() -> None:
    names = {f.name for f in dataclasses.fields(TurnReport)}
    assert "notes" not in names and "facts" in names
    for cls in (TurnReport, TurnFacts, Battle):
        hints = typing.get_type_hints(cls, localns={"Budget": economy.Budget})
        loose = [n for n, h in hints.items() if typing.Any in typing.get_args(h) or h is typing.Any]
        assert not loose, f"{cls.__name__}: {loose} typed Any"
    report = new_report(3, "en")
    assert isinstance(report.facts, TurnFacts) and (report.turn, report.lang) == (3, "en")
    assert new_report(1).facts is not new_report(1).facts  # each turn its own facts


def test_i17_p7_a_turn_fills_its_facts() -> None:
    tables = build_tables({})
    d = codec.decode(tables)
    put_orders(tables, sample_orders(d.campaign, d.rules))
    d = codec.decode(tables)
    start = {n: (s.stability, s.government, s.treasury) for n, s in d.campaign.states.items()}
    j = preview(tables, secret=FIXED_SECRET)
    world, report = j.world, j.report
    facts = report.facts
    assert {n: (facts.start_stability[n], facts.start_government[n], facts.opening[n]) for n in start} == start
    assert facts.dice and all(roll.purpose for roll in facts.dice)  # every roll of the turn
    assert facts.taxes and set(facts.taxes) <= set(world.states)
    for name, (citizens, rate, percent, tax) in facts.taxes.items():
        assert tax == citizens * rate * percent / 100, name
    assert facts.food and all(need >= 1 for _food, need in facts.food.values())
    assert facts.goods is not None and facts.budget is not None  # made on first use, kept for the turn
