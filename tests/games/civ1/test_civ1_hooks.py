"""civ1's scenario hooks (engine/rulesets/civ1/hooks.py): every setup patch lands in the GM's tabs,
and every game expectation fails when it is wrong — so a scenario under tests/scenarios/civ1/ can
fail.  «Каждый из 15 ходов разбит на две фазы, которые рассчитываются последовательно» (seed 004,
CIV-TURN-02): the scenarios play both stages through the real check and resolve.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import rulesets
from engine.core import scenario
from engine.core.errors import CampaignError
from engine.rulesets.civ1 import codec, hooks
from engine.rulesets.civ1.hexes import parse

SETUP: dict[str, Any] = {
    "nations": {"Рим": {"power": 5, "coins": 7, "science": 9, "techs": ["Монархия"], "government": "monarchy",
                        "spies": 1, "next_card": 1}},
    "tiles": {"13,4": {"terrain": "лес", "village": True, "resource": "вино"}},
    "cities": {"Анций": {"nation": "Рим", "hex": "13,4", "population": 2, "buildings": ["казармы"],
                         "hammers": 3, "counter_spy": True}, "Афины": None},
    "decks": {"Египет": [["рыцари", "destroyed"], "ватага"]},
    "spies": [{"nation": "Рим", "number": 1, "where": "Анций"}],
    "treaties": [{"turn": 1, "parties": ["Рим", "Греция"], "kind": "ненападение", "until": 2}],
    "open": "1:города",  # the intentions reach the cities stage (a state stage forgets them at step 1)
    "intentions": [["Рим", "Рим", "Пирамиды"]],
    "letters": [["Рим", "Греция", "Привет"]],
    "rules": {"parameters": {"palace_power": {"value": 3}}},
}


def test_CIV_TURN_02_every_setup_patch_lands_in_the_gm_tabs() -> None:
    tables = hooks.build_tables(SETUP)
    world, rules = codec.decode(tables), codec.read_rules(tables)
    rome = world.nations["Рим"]
    assert (rome.power, rome.coins, rome.science, rome.government, rome.spies) == (5, 7, 9, "monarchy", 1)
    assert "Монархия" in rome.techs and world.decks["Рим"].next == 1
    tile = world.tiles[parse("13,4")]  # type: ignore[index]
    assert (tile.terrain, tile.village, tile.resource) == ("лес", True, "вино")
    city = world.cities["Анций"]
    assert (city.nation, city.population, city.buildings, city.hammers, city.counter_spy) == (
        "Рим", 2, ["казармы"], 3, True)
    assert "Афины" not in world.cities
    assert [(c.unit, c.state) for c in world.decks["Египет"].cards] == [("рыцари", "destroyed"), ("ватага", "ready")]
    assert [(s.nation, s.where) for s in world.spies] == [("Рим", "Анций")]
    assert [(t.parties, t.until) for t in world.treaties] == [(("Рим", "Греция"), 2)]
    assert [(i.city, i.wonder) for i in world.intentions] == [("Рим", "Пирамиды")]
    assert world.letters == [("Рим", "Греция", "Привет")]
    assert rules.param("palace_power") == 3


@pytest.mark.parametrize("setup", [
    {"nations": {"Атлантида": {"power": 1}}},
    {"nations": {"Рим": {"mana": 1}}},
    {"cities": {"Новый": {"population": 2}}},
    {"decks": {"Рим": [["ватага", "съеден"]]}},
    {"rules": {"nope": {}}},
    {"rules": {"parameters": {"last_turn": {"nope": 1}}}},
    {"weather": "rain"},
    {"open": "1:пир"},
    {"intentions": [["Рим", "Рим", "Пирамиды"]]},  # a state stage's step 1 would forget them unseen
])
def test_a_setup_that_names_what_is_not_there_is_refused(setup: dict[str, Any]) -> None:
    with pytest.raises(CampaignError):
        hooks.build_tables(setup)


WRONG: dict[str, tuple[Any, str]] = {
    "nations": ({"Рим": {"power": 99}}, "у Рим power = 2, ожидалось 99"),
    "techs": ({"Рим": {"techs_include": ["Монархия"]}}, "у Рим нет технологий ['Монархия']"),
    "cities": ({"Рим": {"population": 5}}, "у «Рим» population = 1, ожидалось 5"),
    "no_city": ({"Рим": None}, "город «Рим» есть"),
    "decks": ({"Рим": {"size": 3}}, "в колоде Рим 2 карт, ожидалось 3"),
    "tiles": ({"14,3": {"village": False}}, "гекс 14,3: village = True"),
    "spies": ([{"nation": "Рим"}], "шпионы: 0"),
    "treaties": ([{"kind": "мир"}], "договоры: 0"),
    "intentions": ([["Рим", "Рим", "Пирамиды"]], "намерения: 0"),
    "letters": ([["Рим", "Греция", "x"]], "письма: 0"),
    "order_of_play": (["Рим"], "порядок хода ['Вавилон', 'Египет', 'Греция', 'Рим', 'Китай']"),
    "private": ({"Рим": ["тайна"]}, "нет «тайна»"),
    "battles": ([{"attacker": "Рим"}], "боёв 0, ожидалось 1"),
    "rolls": ([{"purpose": "village"}], "в костях окна нет броска"),
    "warnings_exclude": (["при гарантии"], "лишнее предупреждение «при гарантии»"),
    "mystery": (1, "неизвестный ключ ожидания «mystery»"),
}


def test_CIV_WONDER_01_a_scenario_opened_at_the_cities_stage_keeps_its_intentions() -> None:
    """«Нельзя строить Чудо, если намерение не заявлено в фазу государства» (seed 004): setup.open
    «1:города» opens the window that consumes the intentions the setup wrote, the meta's commitment
    is that window's."""
    from engine.core import meta
    from engine.core.cursor import Cursor
    from engine.core.dice import commitment, cursor_seed
    from engine.rulesets.civ1.calendar import CALENDAR

    tables = hooks.build_tables({"open": "1:города", "secret": "x", "intentions": [["Рим", "Рим", "Пирамиды"]]})
    at = meta.open_cursor(tables, CALENDAR)
    assert at == Cursor(1, "cities")
    assert meta.text(tables, meta.COMMITMENT) == commitment(cursor_seed("x", at))
    assert [(i.nation, i.city, i.wonder) for i in codec.decode(tables).intentions] == [("Рим", "Рим", "Пирамиды")]


@pytest.mark.parametrize("key", sorted(WRONG))
def test_a_wrong_game_expectation_fails(key: str) -> None:
    value, message = WRONG[key]
    expect_key = {"techs": "nations", "no_city": "cities"}.get(key, key)
    guarantee = {"treaties": [{"turn": 1, "parties": ["Китай", "Рим"], "kind": "не строить ближе 6", "until": 2}]}
    data = {"setup": guarantee if key == "warnings_exclude" else {}, "turns": [{
        "turn": "1:государство", "expect": {expect_key: value},
        "orders": {"Китай": [["государство", "Основать город", "Нанкин", "11,5"]]} if key == "warnings_exclude" else {},
    }]}
    outcome = scenario.run(rulesets.get("civ1"), data)
    assert any(message in f for f in outcome.failures), outcome.failures


def test_the_right_game_expectations_pass() -> None:
    data = {"setup": {"secret": "s-8", "nations": {"Рим": {"power": 1}}}, "turns": [{
        "turn": "1:государство",
        "orders": {"Рим": [["государство", "Разведка", "", "14,3"]]},
        "expect": {"nations": {"Рим": {"power": 2, "coins": 4}}, "tiles": {"14,3": {"village": False}},
                   "order_of_play": ["Вавилон", "Египет", "Греция", "Рим", "Китай"],
                   "rolls": [{"purpose": "village", "subject": "Рим 14,3", "sides": 10, "value": 3}],
                   "rolls_exclude": ["duel"], "battles": [], "letters": [], "cities": {"Афины": {"nation": "Греция"}}},
    }]}
    outcome = scenario.run(rulesets.get("civ1"), data)
    assert not outcome.failures, outcome.failures
