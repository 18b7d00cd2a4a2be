"""The GM's «Технологии — сетка» (issue 18, the spec's «nation × 41 grid»): «Технологии» is a long list
of (nation, technology, turn) rows; the grid shows every technology of the rules as a row and every
nation as a column, the turn it learned it.  It shows all nations' technologies at once, so it is the
GM's alone: written from the world (never read back), audience GM in the new campaign and in every
resolve, never in a player's or the public book."""

from __future__ import annotations

from engine import rulesets
from engine.core.audience import GM
from engine.core.i18n import using
from engine.core.tables import apply_changes
from engine.rulesets.civ1 import codec
from engine.rulesets.civ1.vocab import TECH_GRID
from engine.rulesets.civ1.workbook import new_workbook, tables_of

NATIONS = ["Вавилон", "Египет", "Греция", "Рим", "Китай"]


def test_the_grid_has_a_row_per_rules_technology_and_a_column_per_nation() -> None:
    tables = tables_of(new_workbook("demo", "ru", "s" * 32, "demo"))
    world, rules = codec.decode(tables), codec.read_rules(tables)
    world.nations["Египет"].techs["Верховая езда"] = 3
    grid = codec.tech_grid(world, rules)
    assert grid[0] == ["Технология", "Уровень", *NATIONS]
    assert [r[0] for r in grid[1:]] == sorted(rules.techs, key=lambda t: rules.techs[t].level)
    assert len(grid) - 1 == len(rules.techs)
    row = next(r for r in grid if r[0] == "Верховая езда")
    assert row[1] == 1 and row[2 + NATIONS.index("Египет")] == 3
    assert row[2 + NATIONS.index("Рим")] is None
    levels = [r[1] for r in grid[1:]]
    assert levels == sorted(levels)
    with using("ru"):
        english = codec.tech_grid(world, rules, "en")
    assert english[0][:2] == ["Technology", "Level"] and "Horseback Riding" in [r[0] for r in english]


def test_the_grid_is_the_gms_alone_in_a_new_campaign_and_after_a_resolve() -> None:
    spec = new_workbook("demo", "ru", "s" * 32, "demo")
    tabs = {t.name: t for t in spec.tabs}
    assert tabs[TECH_GRID.tab_name("ru")].audience == GM
    game = rulesets.get("civ1")
    tables = tables_of(spec)
    tables = apply_changes(tables, game.demo_changes(tables))
    result = game.resolve(tables, secret="s" * 32)
    grid = next(t for t in result.changes.replace if t.tab == TECH_GRID.tab_name("ru"))
    assert grid.audience == GM
    after = apply_changes(tables, result.changes)
    learned = {(r[0], r[1]) for r in after["Технологии"][1:]}
    shown = {(NATIONS[i - 2], r[0]) for r in after[TECH_GRID.tab_name("ru")][1:]
             for i in range(2, 7) if i < len(r) and r[i] is not None}
    assert shown == learned and learned  # the grid says what the list says
