"""Issue 16, point 1 (and the grammar of point 2): names in the right case, verbs agreeing, counts.

The reviewed table tests/fixtures/grammar_ru_names.csv holds, for every state and province name of the demo,
the forms the message templates use: the cases (gent, datv, accs, ablt, loct), the gender a verb agrees with,
the places with their prepositions (где, куда, откуда — provinces only) and «заплатил» agreeing. It was
written out and read through by a native speaker; a change of the morphology or of the name forms table
(templates/ancient/grammar_ru.yaml) that breaks one of them fails here.
"""

from __future__ import annotations

import csv
from fractions import Fraction

import pytest
import repo_paths
import yaml

from engine.core.grammar import CASES, Grammar, Name, count
from engine.core.tables import apply_changes
from engine.rulesets.ancient.game import RULESET
from engine.rulesets.ancient.scenario import FIXED_SECRET, build_tables, put_orders
from engine.rulesets.ancient.speech import load_forms
from engine.rulesets.ancient.vocab import CHRONICLE

ROOT = repo_paths.ROOT
TABLE = ROOT / "tests" / "fixtures" / "grammar_ru_names.csv"
DEMO = ROOT / "templates" / "ancient" / "scenarios" / "demo.yaml"
PLACES = ("где", "куда", "откуда")


def _reviewed() -> dict[str, dict[str, str]]:
    with TABLE.open(encoding="utf-8") as fh:
        return {row["name"]: row for row in csv.DictReader(fh)}


def _demo_names() -> dict[str, set[str]]:
    data = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
    kinds: dict[str, set[str]] = {}
    for kind, items in (("state", data["states"]), ("province", data["provinces"])):
        for item in items:
            kinds.setdefault(item["name"], set()).add(kind)
    return kinds


def test_i16_p1_the_reviewed_table_covers_every_demo_name() -> None:
    kinds = _demo_names()
    table = _reviewed()
    assert set(table) == set(kinds), set(table) ^ set(kinds)
    for name, row in table.items():
        assert set(row["kind"].split("+")) == kinds[name], name


@pytest.mark.parametrize("name", sorted(_reviewed()))
def test_i16_p1_every_demo_name_inflects_as_the_reviewed_table(name: str) -> None:
    load_forms()
    row = _reviewed()[name]
    x = Name(name)
    got = {case: format(x, case) for case in CASES[1:]}
    assert got == {case: row[case] for case in CASES[1:]}
    assert format(x, "заплатил") == row["заплатил"]
    if "province" in row["kind"]:
        assert {q: format(x, q) for q in PLACES} == {q: row[q] for q in PLACES}


@pytest.mark.parametrize(
    ("subject", "word", "expected"),
    [
        ("Пергамское царство", "заплатил", "заплатило"),
        ("Персия", "заплатил", "заплатила"),
        ("Рим", "заплатил", "заплатил"),
        ("Афины", "потерял", "потеряли"),
        ("Сиракузы", "объявляет", "объявляют"),
        ("Македония", "объявляет", "объявляет"),  # the present tense has no gender
        ("Сиракузы", "становится", "становятся"),
        ("Верфь", "построен", "построена"),
        ("Рынок", "построен", "построен"),
        ("Хлопковое поле", "построен", "построено"),
        ("Соляные копи", "построен", "построены"),
        ("Кузница", "он", "она"),
        ("Держава Селевкидов", "он", "она"),
    ],
)
def test_i16_p1_verbs_and_pronouns_agree_with_the_name(subject: str, word: str, expected: str) -> None:
    assert format(Name(subject), word) == expected


@pytest.mark.parametrize(
    ("n", "noun", "expected"),
    [
        (1, "солдат", "1 солдат"),
        (2, "солдат", "2 солдата"),
        (5, "солдат", "5 солдат"),
        (11, "солдат", "11 солдат"),
        (21, "солдат", "21 солдат"),
        (22, "солдат", "22 солдата"),
        (0, "шаг", "0 шагов"),
        (1, "шаг", "1 шаг"),
        (3, "переход", "3 перехода"),
        (12, "переход", "12 переходов"),
        (2, "мирный ход", "2 мирных хода"),
        (1, "исходящий маршрут", "1 исходящий маршрут"),
        (4, "провинция", "4 провинции"),
        (25, "государство", "25 государств"),
        (26, "государство", "26 государств"),
    ],
)
def test_i16_p2_counts_agree_with_the_number(n: int, noun: str, expected: str) -> None:
    assert count(n, noun) == expected


def test_i16_p2_counts_in_an_oblique_case_and_fractions() -> None:
    assert count(1, "шаг", case="gent") == "1 шага"  # не дальше 1 шага
    assert count(3, "шаг", case="gent") == "3 шагов"
    assert count(Fraction(3, 2), "очко", "1,5") == "1,5 очка"


def test_i16_p1_text_without_cyrillic_is_left_alone() -> None:
    rome = Name("Rome")
    assert [format(rome, c) for c in CASES] == ["Rome"] * len(CASES)
    assert f"{rome:>6}" == "  Rome"
    assert f"{Name('Рим'):>5}" == "  Рим"


def test_i16_p1_overrides_win_and_bad_entries_are_refused() -> None:
    g = Grammar({"Сиракузы": {"gender": "plur", "gent": "Сиракуз"}})
    assert g.inflect("Сиракузы", "gent") == "Сиракуз"
    assert g.agree("заплатил", "Сиракузы") == "заплатили"
    with pytest.raises(ValueError, match="неизвестные ключи"):
        g.add_forms({"Рим": {"genitive": "Рима"}})
    with pytest.raises(ValueError, match="род"):
        g.add_forms({"Рим": {"gender": "m"}})
    with pytest.raises(ValueError, match="падеж"):
        g.inflect("Рим", "gen")


def _resolve_demo(orders: dict[str, list[list[object]]]) -> dict:
    tables = build_tables({})
    put_orders(tables, orders)
    return apply_changes(tables, RULESET.resolve(tables, secret=FIXED_SECRET).changes)


def test_i16_p1_the_demo_chronicle_and_reasons_read_as_russian() -> None:
    tables = _resolve_demo(
        {
            "Пергамское царство": [["Заплатить", None, None, "Рим", 5], ["Построить", "Рынок", "Пергам"]],
            "Сиракузы": [["Заплатить", None, None, "Рим", 5], ["Объявить войну", None, None, "Афины"]],
            "Египет": [["Переселить", "раб", "Верхний Египет", "Нижний Египет", 1]],
            "Рим": [["Переселить", "СГ", "Рим", "Апулия", 1], ["Переселить", "СГ", "Рим", "Сардиния", 1]],
        }
    )
    chronicle = "\n".join(str(r[1]) for r in tables[CHRONICLE.ru][1:] if len(r) > 1)
    for line in (
        "Пергамское царство заплатило 5 Д Риму.",
        "Сиракузы заплатили 5 Д Риму.",
        "Пергамское царство: построен «Рынок» в провинции Пергам (−10 Д).",
        "Сиракузы объявляют войну Афинам!",
        "Египет: переселено 1 раб из Верхнего Египта в Нижний Египет",
        "Рим: переселено 1 СГ из Рима в Апулию",
        "Создана кампания «scenario»: 26 государств",
    ):
        assert line in chronicle, line
    for wrong in ("царство заплатил ", "Сиракузы заплатил ", "построено «Рынок»", "из Верхний Египет"):
        assert wrong not in chronicle, wrong

    def reasons(state: str) -> list[str]:
        return [str(r[8]) for r in tables[f"Приказы — {state}"][1:] if len(r) > 8 and r[8]]

    assert reasons("Рим")[0] == "переселено 1 СГ за 1 Д (путь — 1 провинция)"
    assert reasons("Рим")[1] == "провинция Сардиния принадлежит государству Карфаген, а не вам"
    understood = [str(r[9]) for r in tables["Приказы — Сиракузы"][1:] if len(r) > 9 and r[9]]
    assert "Объявить войну Афинам" in understood
