"""The demo campaign resolves ten turns in a row with no manual fix, and every change of every
treasury is explained by ledger lines (ANC-TURN-16, ANC-MONEY-02)."""

from __future__ import annotations

from fractions import Fraction

from engine.core.cursor import Cursor
from engine.core.money import amount
from engine.core.tables import apply_changes
from engine.rulesets.ancient import codec
from engine.rulesets.ancient.demo import sample_orders
from engine.rulesets.ancient.game import RULESET
from engine.rulesets.ancient.scenario import FIXED_SECRET, build_tables, put_orders


def test_demo_resolves_ten_turns_and_the_ledger_explains_every_treasury() -> None:
    tables = build_tables({"rules": {"parameters": {"events_per_turn": {"value": 5},
                                                     "growth_chance_percent": {"value": 25}}}})
    first = codec.decode(tables).campaign
    opening = {name: s.treasury for name, s in first.states.items()}
    for turn in range(1, 11):
        d = codec.decode(tables)
        if turn <= 3:  # players act in the first turns, then some fall silent
            put_orders(tables, sample_orders(d.campaign, d.rules))
        before = {name: s.treasury for name, s in d.campaign.states.items()}
        result = RULESET.resolve(tables, expect=Cursor(turn), secret=FIXED_SECRET)
        tables = apply_changes(tables, result.changes)
        after = codec.decode(tables).campaign
        assert after.turn == turn + 1
        for name, st in after.states.items():
            lines = sum((e.amount for e in result.report.ledger if e.state == name and e.resource == "Д"),
                        Fraction(0))
            assert before[name] + lines == st.treasury, (turn, name)
            for p in after.provinces.values():
                assert all(v >= 0 for v in p.population.values()), (turn, p.name)
    ledger = codec.decode(tables)
    final = ledger.campaign
    rows = next(g for n, g in tables.items() if n == "Казна")[1:]
    for name, st in final.states.items():
        total = sum((amount(r[4]) for r in rows if r[1] == name and r[5] == "Д"), Fraction(0))
        assert opening[name] + total == st.treasury, name
    # silent players were warned and, after two misses, passed to the GM
    assert any(s.ai for n, s in final.states.items() if not first.states[n].ai)
    events = [r[1] for r in tables["Журнал"][1:] if str(r[1]).startswith("Событие")]
    assert len(events) >= 40
