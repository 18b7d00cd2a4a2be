"""Issue 23, point 9: civ1's state and rules tabs are range-checked by one declaration of each tab's
fields (engine/core/fields.py, engine/rulesets/civ1/declared.py) read by the core's one reader:
every value the issue found accepted is a problem of `check`, naming the tab, the row and the
column, in the campaign's language — never a wrong number in a resolve or a crash in it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engine import rulesets
from engine.core import i18n
from engine.core.cells import Bound
from engine.core.errors import CampaignError, Problem
from engine.core.fields import Field, Keyed, TabFields, declared
from engine.core.layout import Column, Layout
from engine.core.rules_tab import RulesTabTexts, StateTabs
from engine.core.tables import Tables
from engine.rulesets.civ1 import codec
from engine.rulesets.civ1.workbook import new_workbook, tables_of

CIV1 = rulesets.get("civ1")


def fresh(lang: str = "ru") -> Tables:
    return tables_of(new_workbook("demo", lang, "s" * 32, "c"))


def edit(tables: Tables, tab: str, header: str, value: Any, row: int = 2) -> Tables:
    """``tables`` with the cell of column ``header`` in sheet row ``row`` of ``tab`` set to ``value``."""
    grid = [list(r) for r in tables[tab]]
    col = grid[0].index(header)
    while len(grid) < row:
        grid.append([None] * len(grid[0]))
    grid[row - 1] = [*grid[row - 1], *[None] * (len(grid[0]) - len(grid[row - 1]))]
    grid[row - 1][col] = value
    return {**tables, tab: grid}


def append(tables: Tables, tab: str, row: list[Any]) -> Tables:
    return {**tables, tab: [*[list(r) for r in tables[tab]], row]}


def problems_of(tables: Tables) -> list[Problem]:
    """What `check` says of the campaign (it must refuse it)."""
    with pytest.raises(CampaignError) as err:
        CIV1.check(tables)
    return list(err.value.problems)


def where(problems: list[Problem]) -> list[tuple[str, int, str]]:
    return [(p.tab, p.row, p.column) for p in problems]


def row_of(tables: Tables, tab: str, first: str) -> int:
    """The sheet row of ``tab`` whose first cell is ``first``."""
    return next(i for i, r in enumerate(tables[tab], start=1) if r and r[0] == first)


def test_a_fresh_campaign_passes_its_own_declaration() -> None:
    for lang in ("ru", "en"):
        CIV1.check(fresh(lang))


@pytest.mark.parametrize("value", [1e308, "1e308", 10**12, -1])
def test_treasury_coins_out_of_range_are_refused_at_check(value: object) -> None:
    found = problems_of(edit(fresh(), "Казна", "Монеты", value))
    assert where(found) == [("Казна", 2, "C")], found
    assert "«Монеты»" in found[0].message


@pytest.mark.parametrize("value", ["NaN", float("nan"), "inf", float("inf"), "много"])
def test_treasury_science_that_is_no_number_is_refused_not_read_as_0(value: object) -> None:
    found = problems_of(edit(fresh(), "Казна", "Наука", value))
    assert where(found) == [("Казна", 2, "D")], found


def test_a_next_card_beyond_the_deck_is_refused() -> None:
    t = fresh()
    assert len(codec.decode(t).decks["Вавилон"].cards) == 2
    found = problems_of(edit(t, "Казна", "Следующая карта", 99))
    assert where(found) == [("Казна", 2, "G")] and "99" in found[0].message and "2" in found[0].message
    CIV1.check(edit(t, "Казна", "Следующая карта", 2))  # a full circle: the next card is the first again


def test_a_city_off_the_map_is_refused() -> None:
    found = problems_of(edit(fresh(), "Города", "Гекс", "99,99"))
    assert where(found) == [("Города", 2, "C")] and "99,99" in found[0].message


def test_a_terrain_the_rules_do_not_know_is_refused() -> None:
    found = problems_of(edit(fresh(), "Карта мира", "Местность", "лава"))
    assert where(found) == [("Карта мира", 2, "B")] and "«лава»" in found[0].message
    assert "равнина" in found[0].message  # the known ones are listed


def test_a_technology_the_rules_do_not_know_is_refused() -> None:
    found = problems_of(append(fresh(), "Технологии", ["Рим", "Телепортация", 1]))
    assert where(found) == [("Технологии", 2, "B")] and "«Телепортация»" in found[0].message


def test_a_unit_and_a_building_the_rules_do_not_know_are_refused() -> None:
    t = edit(fresh(), "Войска", "Войско", "дракон")
    t = edit(t, "Постройки", "Постройки", "библиотека; замок грааля")
    found = problems_of(t)
    assert where(found) == [("Постройки", 2, "C"), ("Войска", 2, "C")], found


def test_a_state_row_written_twice_is_refused_not_silently_won() -> None:
    t = fresh()
    found = problems_of(append(t, "Казна", list(t["Казна"][2])))
    assert where(found) == [("Казна", len(t["Казна"]) + 1, "A")]
    assert f"строке {3}" in found[0].message


def test_a_duplicated_parameter_is_refused_not_silently_won() -> None:
    t = fresh()
    row = row_of(t, "Правила — Параметры", "village_die")
    again = list(t["Правила — Параметры"][row - 1])
    again[1] = 20
    found = problems_of(append(t, "Правила — Параметры", again))
    assert where(found) == [("Правила — Параметры", len(t["Правила — Параметры"]) + 1, "A")]
    assert "village_die" in found[0].message and str(row) in found[0].message


def test_an_unknown_parameter_is_refused_not_ignored() -> None:
    t = fresh()
    found = problems_of(append(t, "Правила — Параметры", ["vilage_die", 10, "сид"]))
    assert where(found) == [("Правила — Параметры", len(t["Правила — Параметры"]) + 1, "A")]
    assert "vilage_die" in found[0].message and "village_die" in found[0].message


@pytest.mark.parametrize(("key", "value"), [("village_die", 0), ("die_sides", 0), ("stolen_tech_divisor", 0),
                                            ("pyramid_last_level", 9), ("wonder_discount_percent", 150)])
def test_a_parameter_out_of_its_range_is_refused_at_check_not_a_crash_at_resolve(key: str, value: int) -> None:
    t = fresh()
    row = row_of(t, "Правила — Параметры", key)
    found = problems_of(edit(t, "Правила — Параметры", "Значение", value, row))
    assert ("Правила — Параметры", row, "B") in where(found), found
    with pytest.raises(CampaignError):  # the resolve refuses it the same way, before any dice
        CIV1.resolve(edit(t, "Правила — Параметры", "Значение", value, row), secret="s" * 32)


def test_a_limit_out_of_range_and_a_missing_one_are_refused() -> None:
    t = fresh()
    row = row_of(t, "Правила — Пределы", "army_start")
    found = problems_of(edit(t, "Правила — Пределы", "Значение", 0, row))
    assert where(found) == [("Правила — Пределы", row, "B")]
    grid = [r for r in t["Правила — Пределы"] if r[0] != "city_spacing"]
    found = problems_of({**t, "Правила — Пределы": grid})
    assert where(found) == [("Правила — Пределы", 0, "")] and "city_spacing" in found[0].message


def test_an_english_campaign_is_told_in_english_with_its_own_headers() -> None:
    t = fresh("en")
    with i18n.using("en"):
        found = problems_of(edit(t, "Treasury", "Coins", 1e308))
        assert where(found) == [("Treasury", 2, "C")]
        assert found[0].message.startswith("column «Coins»: ") and "out of range" in found[0].message
        found = problems_of(edit(t, "World map", "Terrain", "lava"))
        assert where(found) == [("World map", 2, "B")] and "no terrain «lava»" in found[0].message


def test_the_ancient_game_too_refuses_a_parameter_written_twice() -> None:
    """The same class in the other game: its «Правила — Параметры» names a key once (its other
    checks, bounds.py, keep their words)."""
    from engine.rulesets.ancient import rules_loaders
    from engine.rulesets.ancient import ruleset as ancient

    t = tables_of(ancient.new_workbook(scenario="generated:5", secret="s" * 32, campaign_id="dup"))
    grid = t["Правила — Параметры"]
    first = next(i for i, r in enumerate(grid, start=1) if r and r[0] == "events_per_turn")
    again = [*grid[first - 1]]
    again[1] = 0
    problems: list[Problem] = []
    rules = rules_loaders.load_rules({**t, "Правила — Параметры": [*grid, again]}, problems)
    assert where(problems) == [("Правила — Параметры", len(grid) + 1, "A")]
    assert problems[0].message == f"«events_per_turn» уже есть в строке {first}"
    assert rules.params["events_per_turn"] == Fraction(grid[first - 1][1])  # the first row, not the last


# ---------------------------------------------------------------- the mechanism, on a made-up game

BOARD = Layout("Доска", "Board", (Column("square", "Клетка", "Square"), Column("piece", "Фигура", "Piece"),
                                  Column("weight", "Вес", "Weight", required=False)))
SETTINGS = Layout("Настройки", "Settings", (Column("key", "Ключ", "Key"), Column("value", "Значение", "Value")))


def _square(text: str) -> tuple[int, int] | None:
    if len(text) == 2 and text[0] in "abcdefgh" and text[1] in "12345678":
        return "abcdefgh".index(text[0]), int(text[1])
    return None


FIELDS = declared([
    TabFields(BOARD, (Field("square", "form", parse=_square, form_msgid="клетку пишут «e4», а не «{value}»",
                            required=True),
                      Field("piece", "name", ref="pieces", required=True),
                      Field("weight", "number", bound=Bound(0, 10))), unique=("square",)),
    TabFields(SETTINGS, (Field("key", required=True),), unique=("key",),
              keyed=Keyed({"moves": Bound(1, 99, integer=True), "time": Bound(0, 60)}, ("moves",))),
])
TEXTS = RulesTabTexts(lambda m: m, "нет листа «{tab}»", "пусто", "нужно число", "не число {value}",
                      in_column="«{column}»: {message}")
GAME = StateTabs(TEXTS, FIELDS)


def test_the_core_reads_every_declared_field_and_names_each_problem() -> None:
    tables = {BOARD.ru: [["Клетка", "Фигура", "Вес"], ["e4", "ладья", 3], ["z9", "ладья", 1],
                         ["e4", "конь", 2], ["a1", "дракон", "11"]]}
    problems: list[Problem] = []
    rows = GAME.reader(tables, BOARD, problems).checked({"pieces": ["ладья", "конь"]})
    assert [str(p) for p in problems] == [
        "Доска!A4: «Клетка»: «e4» уже есть в строке 2",
        "Доска!A3: «Клетка»: клетку пишут «e4», а не «z9»",
        "Доска!B5: «Фигура»: неизвестное «дракон»; есть: ладья, конь",
        "Доска!C5: «Вес»: 11 вне допустимого: от 0 до 10",
    ]
    assert rows[0] == (2, {"square": (4, 4), "piece": "ладья", "weight": Fraction(3)})


def test_the_core_reads_a_key_value_tab_by_each_keys_range() -> None:
    tables = {SETTINGS.ru: [["Ключ", "Значение"], ["time", 90], ["speed", 1], ["time", 5]]}
    problems: list[Problem] = []
    out = GAME.reader(tables, SETTINGS, problems).settings()
    assert [str(p) for p in problems] == [
        "Настройки!A4: «Ключ»: «time» уже есть в строке 2",
        "Настройки!B2: «Значение»: 90 вне допустимого: от 0 до 60",
        "Настройки!A3: «Ключ»: неизвестный ключ «speed»; известны: moves, time",
        "Настройки: нет строки с ключом «moves»",
    ]
    assert set(out) == {"time"}


def test_a_declaration_that_names_no_column_or_no_bound_is_a_bug() -> None:
    with pytest.raises(ValueError):
        Field("n", "whole")
    with pytest.raises(ValueError):
        TabFields(BOARD, (Field("colour"),))
    with pytest.raises(ValueError):
        declared([TabFields(BOARD, ()), TabFields(BOARD, ())])
