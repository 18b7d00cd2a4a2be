"""Hostile and broken order rows (issue 7): at least 10,000 rows, no crash, a status and a reason
for every one. Property-based: hypothesis mixes real names with look-alikes, junk, formulas,
wrong types, huge and fractional numbers, 50,000-character cells and duplicates."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine.core.tables import Formula, apply_changes, is_blank
from engine.rulesets.ancient import codec
from engine.rulesets.ancient.game import RULESET
from engine.rulesets.ancient.scenario import FIXED_SECRET, build_tables
from engine.rulesets.ancient.vocab import ACTIONS, ORDERS

EXAMPLES = 50
ROWS = 200  # 50 × 200 = 10,000 rows

BASE = build_tables({"rules": {"parameters": {"events_per_turn": {"value": 5}}}})
CAMPAIGN = codec.decode(BASE)
NAMES = (
    [w for ru, en, more in ACTIONS.values() for w in (ru, en, *more)]
    + list(CAMPAIGN.campaign.provinces) + list(CAMPAIGN.campaign.states) + list(CAMPAIGN.rules.buildings)
    + list(CAMPAIGN.rules.techs) + list(CAMPAIGN.rules.units) + list(CAMPAIGN.campaign.armies)
    + list(CAMPAIGN.campaign.fleets) + list(CAMPAIGN.rules.goods) + ["раб → СГ", "СГ → АР", "всё"]
)
LOOKALIKE = str.maketrans("аеорсхуАВЕКМНОРСТХ", "aeopcxyABEKMHOPCTX")
ORDER_TABS = [n for n in BASE if codec.order_state(n)]

text = st.one_of(
    st.sampled_from(NAMES),
    st.sampled_from(NAMES).map(lambda s: s.translate(LOOKALIKE)),
    st.sampled_from(NAMES).map(lambda s: s.upper() + " "),
    st.sampled_from(NAMES).map(lambda s: s[:-1] if len(s) > 2 else s),
    st.text(alphabet=string.printable + "абвгдеёжзийклмнопрстуфхцчшщъыьэюя→—«»", max_size=40),
    st.just("x" * 50_000),
    st.just(""),
)
cell = st.one_of(
    st.none(), text, st.integers(-10**12, 10**12), st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(), st.builds(Formula, st.sampled_from(['=1+1', '=IMPORTXML("http://x","//a")', '=A1', '=#REF!'])),
)
row = st.fixed_dictionaries({k: cell for k in ("action", "object", "where", "to", "qty", "comment")})
batch = st.lists(st.tuples(st.sampled_from(ORDER_TABS), row), min_size=ROWS, max_size=ROWS)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          phases=(Phase.explicit, Phase.reuse, Phase.generate), print_blob=True)
@pytest.mark.slow  # run first: a long pole (tests/conftest.py)
@given(batch)
def test_every_hostile_row_gets_a_status_and_a_reason(rows: list) -> None:
    tables = {name: [list(r) for r in grid] for name, grid in BASE.items()}
    cols = {c.key: i for i, c in enumerate(ORDERS.columns)}
    written: list[tuple[str, int]] = []
    for tab, cells in rows:
        if all(is_blank(cells[k]) for k in ("action", "object", "where", "to", "qty")):  # a blank row is no order
            cells = {**cells, "action": "пас"}
        line = [None] * len(ORDERS.columns)
        for k, v in cells.items():
            line[cols[k]] = v
        tables[tab].append(line)
        written.append((tab, len(tables[tab])))
    checked = apply_changes(tables, RULESET.check(tables).changes)
    result = RULESET.resolve(tables, secret=FIXED_SECRET)
    after = apply_changes(tables, result.changes)
    for view in (checked, after):
        for tab, r in written:
            line = view[tab][r - 1] + [None] * 12
            status, reason = line[cols["status"]], line[cols["reason"]]
            assert status in ("принят", "выполнен", "частично", "отклонён"), (tab, r, status)
            assert reason, (tab, r)
    assert codec.decode(after).campaign.turn == 2
