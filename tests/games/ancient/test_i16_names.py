"""Issue 16, point 3 (names): an English campaign has English names in every tab and runs on them;
the other language's names stay understood; no template name is spelled in the phases' code."""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest
import repo_paths

from engine.core import i18n
from engine.core.layout import find_tab
from engine.core.orders import STATUS_TEXT, Status
from engine.core.tables import Tables, apply_changes, trim
from engine.rulesets.ancient import codec, naming, ruleset
from engine.rulesets.ancient.game import RULESET
from engine.rulesets.ancient.scenario import build_tables, put_orders
from engine.rulesets.ancient.templates import RULES_FILES
from engine.rulesets.ancient.vocab import (
    ADJACENCY,
    ARMIES,
    DIPLOMACY,
    FLEETS,
    ORDERS,
    POPULATION,
    PROVINCES,
    SEAS,
    STATES,
)

CYRILLIC = re.compile("[А-Яа-яЁё]")
ROOT = repo_paths.ROOT


def _english_demo(scenario: str = "demo") -> Tables:
    spec = ruleset.new_workbook(scenario=scenario, lang="en", secret="test")
    return {t.name: trim([list(r) for r in t.rows]) for t in spec.tabs}


def _cyrillic_cells(grid: list[list[Any]]) -> list[str]:
    """Cyrillic cells below the header (headers and tab names are the layouts' part, textorders')."""
    return [str(c) for r in grid[1:] for c in r if isinstance(c, str) and CYRILLIC.search(c)]


@pytest.mark.parametrize("scenario", ["demo", "generated:6"])
def test_i16_p3_english_campaign_cells_have_no_cyrillic_names(scenario: str) -> None:
    """Every tab holding names (map, states, forces, orders) and every name column of the rules tabs
    is Cyrillic-free in a campaign made with --lang en."""
    tables = _english_demo(scenario)
    found: dict[str, list[str]] = {}
    for layout in (STATES, PROVINCES, POPULATION, ADJACENCY, SEAS, ARMIES, FLEETS, DIPLOMACY):
        tab = find_tab(tables, layout)
        assert tab is not None and tab == layout.en, layout.en
        bad = _cyrillic_cells(tables[tab])
        if bad:
            found[tab] = bad[:5]
    for _key, (_file, layout) in RULES_FILES.items():
        tab = find_tab(tables, layout)
        assert tab == layout.en
        bad = _cyrillic_cells(tables[tab])  # names, and the descriptions and event texts beside them
        if bad:
            found[tab] = bad[:5]
    for name, grid in tables.items():
        if codec.order_state(name) is not None:
            assert not CYRILLIC.search(name), name
            bad = _cyrillic_cells(grid)
            if bad:
                found[name] = bad[:5]
    assert not found, found


def test_i16_p3_english_campaign_holds_english_names() -> None:
    """The names are the templates' English ones (not merely transliterated or left blank)."""
    d = codec.decode(_english_demo())
    c = d.campaign
    assert {"Rome", "Carthage", "Egypt", "Kingdom of Pergamon"} <= set(c.states)
    assert c.states["Rome"].capital == "Rome" and "Barter" in c.states["Rome"].techs
    assert c.provinces["Apulia"].owner == "Rome" and c.provinces["Rome"].buildings == ["Grain farm"]
    assert (c.provinces["Rome"].terrain, c.provinces["Apulia"].specialisation) == ("plains", "sheep")
    assert "Rome: 1st army" in c.armies and c.armies["Rome: 1st army"].province == "Rome"
    assert c.seas[1].name == "Ocean off Gades"
    assert {"Market", "Port", "Shipyard"} <= set(d.rules.buildings)
    assert {"grain", "weapons"} <= set(d.rules.goods)
    assert d.rules.governments["despotism"].name_ru == "Despotism"
    assert "Mediterranean" in c.scenario or "Mediterranean" in c.title


def _orders(tables: Tables, state: str) -> list[list[Any]]:
    """(status, reason, understood as) of the rows resolve stamped."""
    tab = next(t for t in tables if codec.order_state(t) == state)
    cols = {c.key: i for i, c in enumerate(ORDERS.columns)}
    rows = [r + [None] * (len(ORDERS.columns) - len(r)) for r in tables[tab][1:]]
    return [[r[cols[k]] for k in ("status", "reason", "understood")] for r in rows if r[cols["status"]]]


def _resolve(tables: Tables, lang: str) -> Tables:
    with i18n.using(lang):
        result = RULESET.resolve(tables, secret="scenario-secret")
    return apply_changes(tables, result.changes)


def test_i16_p3_english_campaign_resolves_orders_in_english_and_russian_names() -> None:
    """An English campaign runs a turn on its English names, and reads Russian names as well."""
    tables = build_tables({"lang": "en"})
    put_orders(
        tables,
        {
            "Rome": [
                ["Build", "Market", "Rome"],  # English words and names
                ["Построить", "Овчарня", "Апулия"],  # Russian words and names in an English campaign
                ["Research", "Прялка"],
                {"action": "March", "object": "Рим: 1-я армия", "to": "Apulia"},
                {"action": "Recruit", "object": "LI", "where": "Apulia", "qty": 1},  # a new army there
            ],
        },
    )
    after = _resolve(tables, "en")
    rows = _orders(after, "Rome")
    done = STATUS_TEXT["en"][Status.DONE]
    assert [r[0] for r in rows] == [done] * 5, rows
    c = codec.decode(after).campaign
    assert "Market" in c.provinces["Rome"].buildings
    assert "Sheepfold" in c.provinces["Apulia"].buildings
    assert "Spinning wheel" in c.states["Rome"].techs
    assert c.armies["Rome: 1st army"].province == "Apulia"
    assert c.armies["Rome: army (Apulia)"].units == {"ЛП": 1}  # a new army's name is English too
    # what the program wrote about the names is in English: «understood as» and the armies tab
    understood = " ".join(str(r[2] or "") for r in rows)
    for name in ("Sheepfold", "Apulia", "Spinning wheel", "Rome: 1st army", "LI"):
        assert name in understood, (name, understood)
    armies = after[find_tab(after, ARMIES)]
    assert armies[0][3] == "LI" and not _cyrillic_cells(armies)


def test_i16_p3_russian_campaign_understands_english_names() -> None:
    """«Carthage» is «Карфаген» in a Russian campaign; an English building or province name too."""
    tables = build_tables({})
    put_orders(
        tables,
        {"Рим": [["Заплатить", None, None, "Carthage", 5], ["Build", "Sheepfold", "Apulia"]]},
    )
    after = _resolve(tables, "ru")
    rows = _orders(after, "Рим")
    assert [r[0] for r in rows] == [STATUS_TEXT["ru"][Status.DONE]] * 2, rows
    assert "Карфаген" in str(rows[0][2]) and "Овчарня" in str(rows[1][2])
    assert "Овчарня" in codec.decode(after).campaign.provinces["Апулия"].buildings


def test_i16_p3_market_is_an_effect_not_a_name() -> None:
    """The market's second outgoing route (ANC-TRADE-05) comes from its `routes` effect: it works
    under the English name, and under a name the GM gives it, not only as «Рынок»."""
    from engine.rulesets.ancient.rules_loaders import load_rules

    tables = _english_demo()
    problems: list[Any] = []
    rules = load_rules(tables, problems)
    assert not problems
    assert rules.building_effect(["Market"], "routes") == 1
    assert rules.has_effect(["Port"], "port") and rules.has_effect(["Road"], "road")
    assert rules.buildings_with("shipyard") == ["Shipyard"]
    assert rules.techs_with("caravans") == ["Caravan trade"]
    assert sorted(rules.goods_with("precious")) == ["gold", "silver"] and rules.goods_with("arms") == ["weapons"]
    # a campaign whose rules tab predates the role effects gets them from the template by name
    tab = find_tab(tables, RULES_FILES["buildings"][1])
    grid = tables[tab]
    col = [c.key for c in RULES_FILES["buildings"][1].columns].index("effects")
    for row in grid[1:]:
        if row[1] == "Port":
            row[col] = "cost_in_spec(fish)=25"
    assert load_rules(tables, []).has_effect(["Port"], "port")


_PHASE_FILES = sorted((ROOT / "engine" / "rulesets" / "ancient").rglob("*.py"))


def test_i16_p3_no_template_name_in_the_rulesets_code() -> None:
    """No building, technology, good, government, unit or map name of the templates is a string
    literal in the ruleset's code (outside the demo's and the generator's data and naming.py's
    docstrings): what a thing does is an effect in the rules data."""
    names = set(naming.template_table("en")) | {ru for ru, _en in naming._shipped_pairs()}
    # words that are also the program's own vocabulary, not a template thing's name
    names -= {"да", "нет", "армия", "флот", "ополчение", "суша", "море", "атакующий", "защитник", "ничья", "1-я армия"}
    names -= {n for n in names if n in naming.scenario_table({}, "en")}
    # the demo's and generator's data, the names module, the vocabulary, the conformance runner
    # (its scenarios are written in Russian)
    allowed = {"demo.py", "generate.py", "naming.py", "vocab.py", "scenario.py"}
    found = []
    for path in _PHASE_FILES:
        if path.name in allowed:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
            and n.body
            and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            literal = isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            if literal and node.value in names:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not found, found


def test_i16_p3_codes_show_in_the_texts_language() -> None:
    """Strata and unit types are codes inside the program, shown in the language of the text."""
    slaves = naming.code("stratum", "slaves")
    assert slaves == "раб" and naming.code("stratum", "Sl") == "раб" and naming.code("stratum", "рабы") == "раб"
    assert naming.code("unit", "LI") == "ЛП" and naming.code("unit", "луч") == "Луч."
    with i18n.using("en"):
        assert f"1 {slaves}" == "1 Sl" and "{}".format(naming.code("unit", "ЛП")) == "LI"
    with i18n.using("ru"):
        assert f"1 {slaves}" == "1 раб"
    assert {"Рим": 1}.get(naming.Code("Рим")) == 1  # a code is its own text as a key


def test_i16_p3_aliases_both_ways() -> None:
    assert "Rome" in naming.aliases("Рим") and "Карфаген" in naming.aliases("Carthage")
    assert "Rome: 1st army" in naming.aliases("Рим: 1-я армия")
    assert "Рим: 1-я армия" in naming.aliases("Rome: 1st army")
    assert naming.means("forest", "лес") and naming.means("Лес", "лес") and not naming.means("hills", "лес")


def test_i16_p3_gm_may_type_the_other_languages_name_in_a_tab() -> None:
    """A building or technology typed in Russian into an English campaign's tab is its English one."""
    tables = _english_demo()
    tab = find_tab(tables, PROVINCES)
    col = [c.key for c in PROVINCES.columns].index("buildings")
    row = next(r for r in tables[tab][1:] if r[0] == "Apulia")
    row += [None] * (col + 1 - len(row))
    row[col] = "Порт; Market"
    tab = find_tab(tables, STATES)
    col = [c.key for c in STATES.columns].index("techs")
    row = next(r for r in tables[tab][1:] if r[0] == "Rome")
    row += [None] * (col + 1 - len(row))
    row[col] = f"{row[col]}; Прялка"
    d = codec.decode(tables)  # raises CampaignError on an unknown name
    assert d.campaign.provinces["Apulia"].buildings == ["Port", "Market"]
    assert "Spinning wheel" in d.campaign.states["Rome"].techs


def test_i16_p3_government_in_either_language() -> None:
    d = codec.decode(_english_demo())
    assert d.rules.government("Аристократия").key == "aristocracy"  # type: ignore[union-attr]
    assert d.rules.government("Aristocracy").key == "aristocracy"  # type: ignore[union-attr]
    ru = codec.decode(build_tables({}))
    assert ru.rules.government("Aristocracy").key == "aristocracy"  # type: ignore[union-attr]
