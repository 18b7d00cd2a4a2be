"""Issue 16, point 4: suggestions for a word the program does not know are matched on words, in
either alphabet (rapidfuzz in engine/core/names.py), and a field with few legal values lists them."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest

from engine.core import i18n
from engine.core.errors import CampaignError, InvalidOrder
from engine.core.names import NameIndex
from engine.core.orders import OrderRow
from engine.rulesets.ancient import codec, ruleset
from engine.rulesets.ancient import orders as om
from sheets_bridge import sync
from sheets_bridge.xlsx import XlsxBackend

COLUMNS = {"action": "A", "object": "B", "where": "C", "to": "D", "qty": "E"}
CYRILLIC = re.compile("[А-Яа-яЁё]")


@pytest.fixture(scope="module")
def demo() -> codec.Decoded:
    spec = ruleset.new_workbook("demo", "ru", secret="x")
    return codec.decode({t.name: [list(r) for r in t.rows] for t in spec.tabs})


def reason(vocab: om.Vocabulary, *cells: str) -> str:
    """The message a row of `cells` (Action, Object, Where, To) is refused with."""
    row = OrderRow("Приказы — Рим", 2, "Рим", dict(zip(COLUMNS, cells)), COLUMNS)
    with pytest.raises(InvalidOrder) as exc:
        om.parse(row, vocab)
    return str(exc.value)


def test_i16_p4_action_cell_with_the_object_in_it_suggests_the_verb(demo: codec.Decoded) -> None:
    # «построить корабль» (an alias of «Набрать») shares a word too, but not every word
    text = reason(om.Vocabulary(demo.campaign, demo.rules), "Построит дворец")
    assert "может быть, «Построить»?" in text


def test_i16_p4_a_name_is_matched_word_by_word() -> None:
    index = NameIndex([("Построить", ("строить",)), ("Набрать", ("построить корабль",)), ("Разрушить", ())])
    assert index.closest("Построит дворец", 2)[0] == "Построить"
    assert index.closest("войску набрат") == ["Набрать"]
    assert index.closest("Абракадабра") == []


@pytest.mark.parametrize(
    ("typed", "name"),
    [("Carthage", "Карфаген"), ("Egypt", "Египет"), ("Macedonia", "Македония"), ("Parthia", "Парфия"),
     ("Bithynia", "Вифиния")],
)
def test_i16_p4_a_name_typed_in_latin_letters_suggests_the_russian_one(typed: str, name: str) -> None:
    names = ("Карфаген", "Египет", "Македония", "Рим", "Парфия", "Спарта", "Вифиния", "Картли")
    index = NameIndex((n, ()) for n in names)
    assert index.closest(typed) == [name]


def test_i16_p4_a_russian_name_typed_in_an_english_campaign_suggests_the_english_one() -> None:
    index = NameIndex((n, ()) for n in ("Carthage", "Egypt", "Rome", "Macedonia"))
    assert index.closest("Македонья") == ["Macedonia"]
    assert index.closest("Египт") == ["Egypt"]


def test_i16_p4_unknown_government_lists_the_nine_forms(demo: codec.Decoded) -> None:
    text = reason(om.Vocabulary(demo.campaign, demo.rules), "Сменить правление", "республика")
    names = [g.name_ru for g in demo.rules.governments.values()]
    assert len(names) == 9
    assert all(n in text for n in names), text
    assert "monarchy" not in text  # the keys are not shown, their names are


def test_i16_p4_near_miss_of_a_government_suggests_its_name_not_its_key(demo: codec.Decoded) -> None:
    text = reason(om.Vocabulary(demo.campaign, demo.rules), "Сменить правление", "Монархя")
    assert "может быть, «Монархия»?" in text


def test_i16_p4_unknown_stratum_lists_the_strata(demo: codec.Decoded) -> None:
    text = reason(om.Vocabulary(demo.campaign, demo.rules), "Переселить", "крестьяне", "Рим", "Лаций")
    assert "варианты: СГ, раб, ВС, уч, дух, АР" in text


def test_i16_p4_many_legal_values_are_not_listed(demo: codec.Decoded) -> None:
    text = reason(om.Vocabulary(demo.campaign, demo.rules), "Построить", "Храм", "Атлантида")
    assert "варианты" not in text


def test_i16_p4_suggestions_of_an_english_campaign_are_in_english(demo: codec.Decoded) -> None:
    with i18n.using("en"):
        vocab = om.Vocabulary(demo.campaign, demo.rules)
        governments = vocab.governments.suggest("republic")
        action = vocab.actions.suggest("Buil a temple")
        strata = vocab.strata.suggest("peasants")
    assert all(g.name_en in governments for g in demo.rules.governments.values())
    assert "Build" in action and "Build" in vocab.actions.suggest("Buil a temple")
    assert "free citizens" in strata
    assert not CYRILLIC.search(governments + action + strata), (governments, action, strata)


def test_i16_p4_unknown_government_in_the_states_tab_lists_the_nine_forms(campaign: Path) -> None:
    wb = openpyxl.load_workbook(campaign)
    ws = wb["Государства"]
    col = next(c.column for c in ws[1] if c.value == "Форма правления")
    ws.cell(row=2, column=col, value="республика")
    techs = next(c.column for c in ws[1] if c.value == "Технологии")
    ws.cell(row=3, column=techs, value="Гончарный крук")
    wb.save(campaign)
    with pytest.raises(CampaignError) as exc:
        sync.check(XlsxBackend(campaign))
    text = str(exc.value)
    line = next(x for x in text.splitlines() if "республика" in x)
    for name in ("Деспотия", "Тирания", "Монархия", "Теократия", "Империя", "Демократия", "Анархия"):
        assert name in line, line
    assert "может быть, «Гончарный круг»?" in text, text
