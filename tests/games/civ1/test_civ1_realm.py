"""«Держава — <нация>», each nation's private tab (issue 18): besides its balances, technologies and
deck it shows the special resources the nation holds (CIV-CITY-05: a token from a village, kept
until a city uses it) and the technologies its spies stole (CIV-SPY-02: «похитить сведения о
технологии (только в столице, в случае успеха в следующий ход снижает цену похищенной технологии
вдвое)» (seed 004)).  Hidden information: each is in the nation's own tab only, whose audience is
that nation's private book; no other nation's tab holds them."""

from __future__ import annotations

from engine import rulesets
from engine.core.audience import player
from engine.core.tables import Grid, apply_changes
from engine.rulesets.civ1 import codec, hooks
from engine.rulesets.civ1.vocab import realm_tab

SETUP = {
    "secret": "scenario-secret",
    "rules": {"resources": {"Мрамор": {"name_en": "Marble", "wonder_discount": "да"}}},
    "nations": {
        "Вавилон": {"resources": ["Мрамор"]},
        "Греция": {"power": 1, "techs": ["Валюта", "Демократия", "Коммунизм"]},
        "Египет": {"techs": ["Охота", "Деньги"]},
    },
}


HEADINGS = ("Ресурсы нации", "Похищенные технологии", "The nation's resources", "Stolen technologies")


def _after(label: str, grid: Grid) -> list[object]:
    """The cells right of the row labelled `label`, then those of the rows under it that are not
    labelled by another heading (up to the next blank row)."""
    rows = [list(r) for r in grid]
    i = next(k for k, r in enumerate(rows) if r and r[0] == label)
    out: list[object] = list(rows[i][1:])
    for r in rows[i + 1:]:
        if not r or all(c is None for c in r) or r[0] in HEADINGS:
            break
        out += r
    return out


def test_CIV_SPY_02_CIV_CITY_05_a_realm_shows_its_own_resources_and_stolen_techs_only() -> None:
    game = rulesets.get("civ1")
    tables = hooks.build_tables(SETUP)
    assert "Мрамор" in _after("Ресурсы нации", tables[realm_tab("Вавилон", "ru")])  # the patch's own view
    tables = hooks.put_orders(tables, {"Греция": [["государство", "Шпионаж", "похитить технологию", "", "Фивы"]]})
    result = game.resolve(tables, secret="scenario-secret")
    tables = apply_changes(tables, result.changes)
    assert codec.decode(tables).nations["Греция"].stolen == {"Деньги": 2}
    realms = {t.tab: t for t in result.changes.replace if t.tab.startswith("Держава — ")}
    nations = ("Вавилон", "Египет", "Греция", "Рим", "Китай")
    for n in nations:
        assert realms[realm_tab(n, "ru")].audience == player(n)  # the nation's own book, nobody else's
    grid = {n: realms[realm_tab(n, "ru")].rows for n in nations}
    assert _after("Ресурсы нации", grid["Вавилон"]) == ["Мрамор"]
    assert _after("Похищенные технологии", grid["Греция"]) == [None, "Деньги", "вдвое дешевле в ход 2"]
    for n in nations:
        if n != "Вавилон":
            assert _after("Ресурсы нации", grid[n]) == ["—"], n
            assert not any("Мрамор" in str(c) for row in grid[n] for c in row), n
        if n != "Греция":
            assert _after("Похищенные технологии", grid[n]) == ["—"], n
            assert not any("вдвое дешевле" in str(c) for row in grid[n] for c in row), n


def test_an_english_realm_names_the_resource_and_the_stolen_tech_in_english() -> None:
    from engine.core.i18n import using

    world = codec.decode(hooks.build_tables({**SETUP, "nations": {
        "Вавилон": {"resources": ["Мрамор"], "stolen": {"Деньги": 3}}}}))
    rules = codec.read_rules(hooks.build_tables(SETUP))
    with using("ru"):
        grid = codec.realm_grid(world, "Вавилон", rules, (), "en")
    assert _after("The nation's resources", grid) == ["Marble"]
    assert _after("Stolen technologies", grid) == [None, "Money", "half price on turn 3"]
