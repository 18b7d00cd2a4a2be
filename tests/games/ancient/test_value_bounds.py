"""Issue 15, point 12: every number a GM may edit is range-checked, with tab, row and column.

Today a building cost of −1000 pays Egypt 1000 Д, a slave cost of −50 creates 50 slaves and a
blank treasury is read as 0.  Each bad value below must stop check and resolve with a Russian
message that names the tab, the row and the column; the good campaign still loads; and every
numeric column the readers read has a declared bound (engine/rulesets/ancient/bounds.py).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import CampaignError, Problem
from engine.core.layout import Layout
from engine.core.tables import Tables, column_letter
from engine.rulesets.ancient import codec, rules, vocab
from engine.rulesets.ancient.bounds import BOUNDS, PARAM_BOUNDS
from engine.rulesets.ancient.rules_loaders import RULES_TABS
from sheets_bridge import sync
from sheets_bridge.xlsx import XlsxBackend


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    path = tmp_path_factory.mktemp("bounds") / "campaign.xlsx"
    sync.create(str(path), scenario="demo", secret="test-secret")
    return XlsxBackend(path).read()


def _copy(tables: Tables) -> Tables:
    return {name: [list(r) for r in grid] for name, grid in tables.items()}


def _set(tables: Tables, layout: Layout, key: str, value: Any, where: str = "") -> tuple[str, int, str]:
    """Put ``value`` in column ``key`` of the first data row (whose first cell is ``where``, if
    given) of the layout's tab; (tab, sheet row, column letter) of the cell."""
    tab = next(t for t in tables if t in (layout.ru, layout.en))
    grid = tables[tab]
    col = layout.locate(tab, grid[0], [])[key]
    r = next(i for i, line in enumerate(grid) if i and line and line[0] not in (None, "")
             and (not where or line[0] == where))
    line = grid[r]
    while len(line) <= col:
        line.append(None)
    line[col] = value
    return tab, r + 1, column_letter(col + 1)


def _set_param(tables: Tables, key: str, value: Any) -> tuple[str, int, str]:
    tab = vocab.RULES_PARAMS.ru
    grid = tables[tab]
    r = next(i for i, line in enumerate(grid) if line and line[0] == key)
    grid[r][1] = value
    return tab, r + 1, "B"


BAD: list[tuple[str, Layout | None, str, Any, str, str]] = [
    # (case, layout (None: a parameter), column or parameter key, value, first cell of the row, message)
    ("building cost −1000", vocab.RULES_BUILDINGS, "cost", -1000, "", "−1000 вне допустимого: не меньше 0"),
    ("slave cost −50", vocab.RULES_BUILDINGS, "cost_slaves", -50, "", "−50 вне допустимого: не меньше 0"),
    ("slave cost 1.5", vocab.RULES_BUILDINGS, "cost_slaves", 1.5, "", "нужно целое число"),
    ("technology cost −5", vocab.RULES_TECHS, "cost", -5, "", "вне допустимого: не меньше 0"),
    ("unit cost −30", vocab.RULES_UNITS, "cost", -30, "", "вне допустимого: не меньше 0"),
    ("unit upkeep −1", vocab.RULES_UNITS, "upkeep", -1, "", "вне допустимого: не меньше 0"),
    ("unit recruits 0", vocab.RULES_UNITS, "recruits", 0, "", "вне допустимого: не меньше 1"),
    ("tax −2", vocab.RULES_GOVERNMENTS, "tax", -2, "", "вне допустимого: не меньше 0"),
    ("tax NaN", vocab.RULES_GOVERNMENTS, "tax", float("nan"), "", "не число"),
    ("stability price −1", vocab.RULES_GOVERNMENTS, "slave_to_citizen", -1, "", "вне допустимого: не меньше 0"),
    ("taxes collected 150 %", vocab.RULES_STABILITY, "tax_percent", 150, "", "вне допустимого: от 0 до 100"),
    ("event weight −3", vocab.RULES_EVENTS, "weight", -3, "", "вне допустимого: не меньше 0"),
    ("bad events weight −1", vocab.RULES_EVENT_ODDS, "bad_weight", -1, "", "вне допустимого: не меньше 0"),
    ("battle loss 2", vocab.RULES_COMBAT, "attacker_loss", 2, "", "вне допустимого: от 0 до 1"),
    ("trade income −2", vocab.RULES_TRADE, "d1", -2, "", "вне допустимого: не меньше 0"),
    ("conversion per turn −1", vocab.RULES_CONVERSIONS, "per_turn_max", -1, "СГ", "вне допустимого: не меньше 0"),
    ("transition stability 50", vocab.RULES_TRANSITIONS, "stability_min", 50, "", "вне допустимого: от −10 до 10"),
    ("growth chance 250 %", None, "growth_chance_percent", 250, "", "вне допустимого: от 0 до 100"),
    ("colonise cost −30", None, "colonise_cost", -30, "", "вне допустимого: не меньше 0"),
    ("food per unit 0 (a divisor)", None, "food_provinces_per_unit", 0, "", "вне допустимого: не меньше 1"),
    ("plunder mode 7", None, "plunder_mode", 7, "", "вне допустимого: от 1 до 2"),
    ("priest cost blank", None, "priest_cost", None, "", "пустая ячейка"),
    ("treasury blank", vocab.STATES, "treasury", None, "Египет", "пустая ячейка, нужно число"),
    ("treasury NaN", vocab.STATES, "treasury", float("nan"), "Египет", "не число"),
    ("treasury 'nan'", vocab.STATES, "treasury", "nan", "Египет", "не число"),
    ("treasury 1e400", vocab.STATES, "treasury", "1e400", "Египет", "вне допустимого"),
    ("stability blank", vocab.STATES, "stability", None, "Египет", "пустая ячейка"),
    ("science −5", vocab.STATES, "science", -5, "Египет", "вне допустимого: не меньше 0"),
    ("slaves −3", vocab.POPULATION, "раб", -3, "", "вне допустимого"),
    ("slaves 2.5", vocab.POPULATION, "раб", 2.5, "", "нужно целое число"),
    ("army light infantry −2", vocab.ARMIES, "ЛП", -2, "", "вне допустимого"),
]


@pytest.mark.parametrize(("case", "layout", "key", "value", "where", "message"), BAD, ids=[b[0] for b in BAD])
def test_i15_p12_a_bad_gm_number_is_an_error_naming_tab_row_and_column(
    demo: Tables, case: str, layout: Layout | None, key: str, value: Any, where: str, message: str
) -> None:
    tables = _copy(demo)
    if layout is vocab.ARMIES and not any(t == vocab.ARMIES.ru and len(g) > 1 for t, g in tables.items()):
        tables[vocab.ARMIES.ru] = [vocab.ARMIES.header("ru"), ["Армия Египта", "Египет", "Нижний Египет", 1]]
    tab, row, col = _set_param(tables, key, value) if layout is None else _set(tables, layout, key, value, where)
    with pytest.raises(CampaignError) as err:
        codec.decode(tables)
    hits = [p for p in err.value.problems if (p.tab, p.row, p.column) == (tab, row, col)]
    assert hits, (case, [str(p) for p in err.value.problems])
    assert any(message in p.message for p in hits), (case, [str(p) for p in hits])
    assert f"{tab}!{col}{row}" in err.value.render()


def test_i15_p12_a_negative_building_cost_pays_nothing_resolve_refuses(campaign: Path) -> None:
    """The issue's example end to end: «Порт» at −1000 Д and a slave price of −50; resolve stops
    with the cells named and the workbook is left as it was."""
    backend = XlsxBackend(campaign)
    tables = backend.read()
    grid = tables[vocab.RULES_BUILDINGS.ru]
    cols = vocab.RULES_BUILDINGS.locate(vocab.RULES_BUILDINGS.ru, grid[0], [])
    r = next(i for i, line in enumerate(grid) if line and line[0] == "Порт")
    from engine.core.tables import Changeset, WriteBlock

    backend.write(Changeset(blocks=[WriteBlock(vocab.RULES_BUILDINGS.ru, r + 1, cols["cost"] + 1, [[-1000, -50]])]))
    before = campaign.read_bytes()
    with pytest.raises(CampaignError) as err:
        sync.resolve(XlsxBackend(campaign), turn=1)
    text = str(err.value)
    cost, slaves = column_letter(cols["cost"] + 1), column_letter(cols["cost_slaves"] + 1)
    assert f"{vocab.RULES_BUILDINGS.ru}!{cost}{r + 1}: −1000 вне допустимого: не меньше 0" in text
    assert f"{vocab.RULES_BUILDINGS.ru}!{slaves}{r + 1}: −50 вне допустимого: не меньше 0" in text
    assert campaign.read_bytes() == before


def test_i15_p12_the_good_campaign_loads_and_every_read_number_has_a_declared_bound(demo: Tables) -> None:
    """The demo loads with its values inside every bound; every known parameter has a bound, and
    a numeric column read without one is a loud programming error, never an unchecked pass."""
    d = codec.decode(_copy(demo))
    assert d.rules.buildings and d.campaign.states
    known = set(rules.PARAM_DEFAULTS) | set(rules.REQUIRED_PARAMS)
    assert known <= set(PARAM_BOUNDS), known - set(PARAM_BOUNDS)
    reader = RULES_TABS.reader(demo, vocab.RULES_GOODS, [])
    with pytest.raises(KeyError):
        reader.num(2, {"food": 1}, "food")
    problems: list[Problem] = []
    from engine.core.cells import CellReader

    with pytest.raises(KeyError):
        CellReader("Государства", {"x": 0}, problems, BOUNDS[vocab.STATES]).number(2, {"x": 1}, "x")
    assert RULES_TABS.reader(demo, vocab.RULES_BUILDINGS, []).num(2, {"cost": 5}, "cost") == Fraction(5)
