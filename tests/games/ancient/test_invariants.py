"""Invariants checked after every phase of whole turns (issue 7): no negative people, units or
goods; every balance of every resource = opening + that resource's postings; one owner or none
per province; people conserved in the phases that neither create nor remove anyone."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.core.tables import Tables, apply_changes
from engine.core.turn import Phase
from engine.rulesets.ancient import codec
from engine.rulesets.ancient.demo import sample_orders
from engine.rulesets.ancient.facts import Report
from engine.rulesets.ancient.game import RULESET
from engine.rulesets.ancient.model import Campaign
from engine.rulesets.ancient.resources import RESOURCES
from engine.rulesets.ancient.scenario import FIXED_SECRET, build_tables, put_orders
from engine.rulesets.ancient.window import PHASES, Ancient, preview

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


class Watched(Ancient):
    """The ancient game with `watch` called after each of its phases (the runner's phases as they are)."""

    def __init__(self, read: Any = None, tab_ids: Any = None, watch: Invariants | None = None) -> None:
        super().__init__(read, tab_ids)
        self.watch = watch

    def bind(self, tables: Tables, tab_ids: dict[str, str] | None) -> Watched:
        return Watched(codec.decode(tables, tab_ids), tab_ids, self.watch)

    def phases(self, at: Any) -> tuple[Phase[Campaign], ...]:
        assert self.watch is not None
        return tuple(Phase(p.name, _watched(p, self.watch)) for p in super().phases(at))


def _watched(phase: Phase[Campaign], watch: Invariants) -> Any:
    def run(world: Campaign, orders: Any, dice: Any, rules: Any, report: Report) -> Campaign:
        world = phase.run(world, orders, dice, rules, report)
        watch(phase.name, world, report)
        return world

    return run


def test_invariants_hold_after_every_phase_for_five_turns() -> None:
    tables = build_tables({"rules": {"parameters": {"events_per_turn": {"value": 5},
                                                     "growth_chance_percent": {"value": 25}}}})
    checked = 0
    for turn in range(1, 6):
        d = codec.decode(tables)
        put_orders(tables, sample_orders(d.campaign, d.rules))
        d = codec.decode(tables)
        invariants = Invariants(turn, d.campaign)
        preview(tables, secret=FIXED_SECRET, game=Watched(watch=invariants))  # the dice of the resolve below
        checked += invariants.checked
        tables = apply_changes(tables, RULESET.resolve(tables, secret=FIXED_SECRET).changes)
    assert checked == 5 * len(PHASES)
