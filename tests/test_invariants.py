"""Invariants checked after every phase of whole turns (issue 7): no negative people, units or
goods; every balance of every resource = opening + that resource's postings; one owner or none
per province; people conserved in the phases that neither create nor remove anyone."""

from __future__ import annotations

from collections import Counter

from engine.core.tables import apply_changes
from engine.rulesets.ancient import codec, ruleset
from engine.rulesets.ancient.demo import sample_orders
from engine.rulesets.ancient.facts import Report
from engine.rulesets.ancient.model import Campaign
from engine.rulesets.ancient.resources import RESOURCES
from engine.rulesets.ancient.scenario import FIXED_SECRET, build_tables, put_orders

CONSERVING = {"жребий", "колонизация", "дипломатия", "налоги", "торговля", "итоги", "баланс"}


def people(world: Campaign) -> int:
    return sum(p.people() for p in world.provinces.values())


class Invariants:
    """Called after every phase; remembers what it needs between phases."""

    def __init__(self, turn: int, start: Campaign) -> None:
        self.turn = turn
        self.opening = {(n, r.code): start.balance(n, r.code) for n in start.states for r in RESOURCES}
        self.people = people(start)
        self.checked = 0

    def __call__(self, phase: str, world: Campaign, report: Report) -> None:
        where = (self.turn, phase)
        self.checked += 1
        for p in world.provinces.values():
            assert all(v >= 0 for v in p.population.values()), (*where, p.name, p.population)
            assert p.owner == "" or p.owner in world.states, (*where, p.name)
        for a in world.armies.values():
            assert all(n >= 0 for n in a.units.values()), (*where, a.name)
        for f in world.fleets.values():
            assert all(n >= 0 for n in f.ships.values()) and all(n >= 0 for n in f.cargo.values()), (*where, f.name)
        for state, pool in (report.facts.goods or {}).items():
            assert all(n >= 0 for n in Counter(pool).values()), (*where, state, pool)
        for name in world.states:
            for r in RESOURCES:  # closing = opening + postings, for every resource the game ledgers
                lines = report.ledger.total(name, r.code)
                assert self.opening[name, r.code] + lines == world.balance(name, r.code), (*where, name, r.code)
        now = people(world)
        if phase in CONSERVING:
            assert now == self.people, (*where, self.people, now)
        self.people = now


def test_invariants_hold_after_every_phase_for_five_turns() -> None:
    tables = build_tables({"rules": {"parameters": {"events_per_turn": {"value": 5},
                                                     "growth_chance_percent": {"value": 25}}}})
    checked = 0
    for turn in range(1, 6):
        d = codec.decode(tables)
        put_orders(tables, sample_orders(d.campaign, d.rules))
        d = codec.decode(tables)
        d.campaign.secret = FIXED_SECRET  # the GM's store, in memory: the dice of the resolve below
        invariants = Invariants(turn, d.campaign)
        ruleset.run_turn(d, after_each=invariants)
        checked += invariants.checked
        tables = apply_changes(tables, ruleset.resolve(tables, secret=FIXED_SECRET).changes)
    assert checked == 5 * len(ruleset.PHASES)
