"""Invariants checked after every phase of whole turns (issue 7): no negative people, units or
goods; every treasury = opening + ledger; one owner or none per province; people conserved in
the phases that neither create nor remove anyone."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from engine.core.tables import apply_changes
from engine.rulesets.ancient import codec, ruleset
from engine.rulesets.ancient.demo import sample_orders
from engine.rulesets.ancient.model import Campaign
from engine.rulesets.ancient.scenario import build_tables, put_orders

CONSERVING = {"жребий", "колонизация", "дипломатия", "налоги", "торговля", "итоги", "баланс"}


def people(world: Campaign) -> int:
    return sum(p.people() for p in world.provinces.values())


def test_invariants_hold_after_every_phase_for_five_turns() -> None:
    tables = build_tables({"rules": {"parameters": {"events_per_turn": {"value": 5},
                                                     "growth_chance_percent": {"value": 25}}}})
    checked = 0
    for turn in range(1, 6):
        d = codec.decode(tables)
        put_orders(tables, sample_orders(d.campaign, d.rules))
        d = codec.decode(tables)
        opening = {n: s.treasury for n, s in d.campaign.states.items()}
        last = {"people": people(d.campaign)}
        holder: dict = {}

        def check(phase: str, world: Campaign) -> None:
            nonlocal checked
            checked += 1
            report = holder["report"]
            for p in world.provinces.values():
                assert all(v >= 0 for v in p.population.values()), (turn, phase, p.name, p.population)
                assert p.owner == "" or p.owner in world.states, (turn, phase, p.name)
            for a in world.armies.values():
                assert all(n >= 0 for n in a.units.values()), (turn, phase, a.name)
            for f in world.fleets.values():
                assert all(n >= 0 for n in f.ships.values()) and all(n >= 0 for n in f.cargo.values())
            for state, pool in (report.notes.get("goods") or {}).items():
                assert all(n >= 0 for n in Counter(pool).values()), (turn, phase, state, pool)
            for name, st in world.states.items():
                lines = sum((e.amount for e in report.ledger if e.state == name and e.resource == "Д"), Fraction(0))
                assert opening[name] + lines == st.treasury, (turn, phase, name)
            now = people(world)
            if phase in CONSERVING:
                assert now == last["people"], (turn, phase, last["people"], now)
            last["people"] = now

        original = ruleset.run_phases

        def spy(world, phases, orders, dice, rules, report, stop_after=None, after_each=None):  # type: ignore[no-untyped-def]
            holder["report"] = report
            return original(world, phases, orders, dice, rules, report, stop_after=stop_after, after_each=check)

        ruleset.run_phases = spy
        try:
            result = ruleset.resolve(tables)
        finally:
            ruleset.run_phases = original
        tables = apply_changes(tables, result.changes)
    assert checked == 5 * len(ruleset.PHASES)
