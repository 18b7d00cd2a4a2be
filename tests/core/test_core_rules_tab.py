"""Issue 17 point 7, issue 18: the core's reader of a game's rules tabs (engine/core/rules_tab.py)
on a made-up game: its tab, its bounds and the wording of its problems come from the declaration
alone, so what the reader does is the core's and what it says is the game's."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import pytest

from engine.core import i18n
from engine.core.cells import Bound, UndeclaredBound
from engine.core.errors import Problem
from engine.core.layout import Column, Layout
from engine.core.rules_tab import (
    RulesTabs,
    RulesTabTexts,
    TabLoader,
    TabReader,
    UnknownTabRole,
    code_of,
    known,
    split_list,
)
from engine.core.tables import Tables

PIECES = Layout(
    "Свод — Фигуры",
    "Code — Pieces",
    (
        Column("name_ru", "Фигура", "Piece"),
        Column("name_en", "Фигура (англ.)", "Piece (English)", required=False),
        Column("moves", "Ходы", "Moves"),
        Column("worth", "Ценность", "Worth", required=False),
        Column("colour", "Цвет", "Colour", required=False),
    ),
)
BOUNDS = {PIECES: {"moves": Bound(1, 8, integer=True, required=True), "worth": Bound(0, 100)}}
COLOURS = {"white": ("белый", "white", "б"), "black": ("чёрный", "black")}
# the made-up game's catalogue: its msgids and their English
ENGLISH = {
    "нет свода «{tab}»": "no code «{tab}»",
    "пустой свод": "an empty code",
    "нет числа": "no number",
    "не число {value!r}": "not a number {value!r}",
    "нет цвета, есть: {known}": "no colour, there are: {known}",
    "«{text}» — не цвет, есть: {known}": "«{text}» is no colour, there are: {known}",
    "графа «{column}»: {message}": "field «{column}»: {message}",
}


def translate(msgid: str) -> str:
    return ENGLISH.get(msgid, msgid) if i18n.current() == "en" else msgid


TEXTS = RulesTabTexts(translate, "нет свода «{tab}»", "пустой свод", "нет числа", "не число {value!r}",
                      "нет цвета, есть: {known}", "«{text}» — не цвет, есть: {known}", "графа «{column}»: {message}")


@dataclass(frozen=True)
class Code:
    pieces: dict[str, int] | None = None
    order: tuple[str, ...] = ()


def read_pieces(r: TabReader, code: Code) -> Code:
    return replace(code, pieces={r.name(rec): r.need(row, rec, "moves") for row, rec in r.rows},
                   order=(*code.order, "pieces"))


def read_again(r: TabReader, code: Code) -> Code:
    return replace(code, order=(*code.order, "again"))


GAME: RulesTabs[Code] = RulesTabs(
    {"pieces": TabLoader(PIECES, "pieces", read_pieces), "again": TabLoader(PIECES, "order", read_again)},
    BOUNDS, TEXTS, Code,
)


def tables(*rows: list[object], title: str = PIECES.ru, english: bool = False) -> Tables:
    return {title: [PIECES.header("en" if english else "ru"), *[list(r) for r in rows]]}


def reader(t: Tables, game: RulesTabs[Code] = GAME) -> tuple[TabReader, list[Problem]]:
    problems: list[Problem] = []
    return game.reader(t, PIECES, problems), problems


def test_a_missing_or_empty_tab_is_named_in_the_games_words_and_language() -> None:
    r, problems = reader({})
    assert r.rows == [] and [str(p) for p in problems] == ["Свод — Фигуры: нет свода «Свод — Фигуры»"]
    with i18n.using("en"):
        _r, problems = reader({})
        assert [p.message for p in problems] == ["no code «Code — Pieces»"]
        _r, problems = reader({PIECES.en: []})
        assert [(p.tab, p.row, p.message) for p in problems] == [(PIECES.en, 0, "an empty code")]


def test_a_cell_problem_names_tab_row_column_and_the_header_in_the_tabs_language() -> None:
    r, problems = reader(tables(["ладья", "rook", "много"]))
    assert r.whole(2, r.rows[0][1], "moves") == 0
    assert [str(p) for p in problems] == ["Свод — Фигуры!C2: графа «Ходы»: не число 'много'"]
    with i18n.using("en"):
        r, problems = reader(tables(["ладья", "rook", 9], title=PIECES.en, english=True))
        assert r.lang == "en" and r.need(2, r.rows[0][1], "moves") == 0
        assert [str(p) for p in problems] == ["Code — Pieces!C2: field «Moves»: 9 is out of range: from 1 to 8"]


def test_without_a_column_wording_the_message_stands_alone() -> None:
    r, problems = reader(tables(["ладья", "", 2, -1]), replace(GAME, texts=replace(TEXTS, in_column=None)))
    assert r.num(2, r.rows[0][1], "worth", Fraction(5)) == Fraction(5)  # the bound broken: the default
    assert [p.message for p in problems] == ["−1 вне допустимого: от 0 до 100"]  # a true minus


def test_num_blank_is_its_default_or_a_problem_and_a_bound_may_be_given() -> None:
    r, problems = reader(tables(["ладья", "", 2, None], ["конь", "", 3, "x"]))
    (row2, rec2), (row3, rec3) = r.rows
    assert r.num(row2, rec2, "worth", Fraction(7)) == Fraction(7) and not problems
    assert r.num(row2, rec2, "worth") == 0 and [p.message for p in problems] == ["графа «Ценность»: нет числа"]
    assert r.num(row3, rec3, "worth", Fraction(7)) == 0  # not a number: 0 whatever the default
    assert r.num(row2, {"worth": "1/2"}, "worth") == Fraction(1, 2)
    assert r.num(row2, {"worth": 50}, "worth", bound=Bound(0, 10)) == 0 and "от 0 до 10" in problems[-1].message
    with pytest.raises(UndeclaredBound):
        r.num(row2, rec2, "name_ru")


def test_whole_blank_is_a_problem_only_when_the_bound_requires_the_cell() -> None:
    r, problems = reader(tables(["ладья", "", None, None]))
    row, rec = r.rows[0]
    assert r.whole(row, rec, "worth", None) is None and not problems
    assert r.whole(row, rec, "moves", None) is None and r.need(row, rec, "moves") == 0
    assert [(p.row, p.column, p.message) for p in problems] == [(2, "C", "графа «Ходы»: нет числа")] * 2
    assert r.whole(row, {"moves": "3"}, "moves") == 3


def test_a_rows_name_in_the_campaigns_language_or_always_russian() -> None:
    english = tables(["ладья", "rook", 2], ["", "bishop", 2], title=PIECES.en, english=True)
    r, _p = reader(english)
    assert [r.name(rec) for _row, rec in r.rows] == ["rook", "bishop"]
    r, _p = reader(english, replace(GAME, names_by_language=False))
    assert [r.name(rec) for _row, rec in r.rows] == ["ладья", "bishop"]  # the English one when blank
    r, _p = reader(tables(["ладья", "rook", 2]))
    assert r.lang == "ru" and r.name(r.rows[0][1]) == "ладья"


def test_a_word_of_a_vocabulary_by_any_of_its_names_and_the_known_ones_listed() -> None:
    r, problems = reader(tables(["ладья", "", 2, 0, "Б"], ["конь", "", 2, 0, "серый"], ["слон", "", 2, 0, None]))
    (r2, c2), (r3, c3), (r4, c4) = r.rows
    assert r.word(r2, c2, "colour", COLOURS) == "white" and not problems
    assert r.word(r3, c3, "colour", COLOURS, "black") == "black"
    assert r.word(r4, c4, "colour", COLOURS, "black") == "black" and r.word(r4, c4, "colour", COLOURS) == ""
    assert [str(p) for p in problems] == [
        "Свод — Фигуры!E3: графа «Цвет»: «серый» — не цвет, есть: «белый», «чёрный»",
        "Свод — Фигуры!E4: графа «Цвет»: нет цвета, есть: «белый», «чёрный»",
    ]
    assert r.yes(r2, {"colour": "да"}, "colour") and not r.yes(r2, {}, "colour")
    assert known(COLOURS, "en") == "«white», «black»" and code_of(COLOURS, "Чёрный.") == "black"
    silent = replace(GAME, texts=replace(TEXTS, blank_word=None, unknown_word=None))
    r, _p = reader(tables(["ладья", "", 2]), silent)
    with pytest.raises(NotImplementedError):
        r.word(2, r.rows[0][1], "colour", COLOURS)


def test_a_list_cell_is_parted_by_the_games_separators() -> None:
    assert split_list("лес; джунгли\nгоры;") == ("лес", "джунгли", "горы")
    assert split_list("монеты|ресурсы") == ("монеты|ресурсы",)
    assert split_list("монеты|ресурсы; В", ";|") == ("монеты", "ресурсы", "В")
    assert split_list(None) == ()


def test_the_loaders_run_in_their_order_and_an_unknown_role_is_loud() -> None:
    problems: list[Problem] = []
    code = GAME.load(tables(["ладья", "", 2], ["конь", "", 3]), problems)
    assert code == Code({"ладья": 2, "конь": 3}, ("pieces", "again")) and not problems
    assert GAME.load_tab("again", {}, problems).order == ("again",)  # empty rules by default
    assert [p.message for p in problems] == ["нет свода «Свод — Фигуры»"]
    with pytest.raises(UnknownTabRole, match="pieces, again"):
        GAME.load_tab("kings", {}, [])


def test_a_value_beyond_the_far_edge_names_that_edge() -> None:
    """The far edge (±BIG, a typo guard) is unsaid for a value refused on the other side, and said
    for a value beyond it (a reviewer's find: «10**15 вне допустимого: не меньше 0»)."""
    from fractions import Fraction

    from engine.core.cells import BIG, Bound

    bound = Bound(0, BIG, integer=True)
    assert bound.problem(Fraction(10**15)) == "1000000000000000 вне допустимого: от 0 до 1000000000"
    assert bound.problem(Fraction(-1)) == "−1 вне допустимого: не меньше 0"


def test_the_same_tabs_are_read_once_and_give_the_same_rules_and_problems_again() -> None:
    """RulesTabs.load keeps what it read by the tabs' content and language: a campaign decoded
    again reads its rules tabs once, every problem is told each time, and a changed cell, another
    title or another language is read anew."""
    reads: list[str] = []

    def counted(r: TabReader, code: Code) -> Code:
        reads.append(r.tab)
        return read_pieces(r, code)

    game: RulesTabs[Code] = RulesTabs({"pieces": TabLoader(PIECES, "pieces", counted)}, BOUNDS, TEXTS, Code)
    first: list[Problem] = []
    code = game.load(tables(["ладья", "", 2], ["конь", "", "много"]), first)
    again: list[Problem] = []
    assert game.load(tables(["ладья", "", 2], ["конь", "", "много"]), again) is code
    assert reads == [PIECES.ru] and again == first and len(first) == 1  # read once, told twice
    changed: list[Problem] = []
    assert game.load(tables(["ладья", "", 2], ["конь", "", 3]), changed).pieces == {"ладья": 2, "конь": 3}
    assert changed == [] and len(reads) == 2
    with i18n.using("en"):
        english: list[Problem] = []
        game.load(tables(["ладья", "", 2], ["конь", "", "много"]), english)
    # read anew in English (the column as its tab names it)
    assert len(reads) == 3 and [p.message for p in english] == ["field «Ходы»: not a number 'много'"]
    game.load({PIECES.en: tables(["ладья", "", 2], english=True)[PIECES.ru]}, [])
    assert len(reads) == 4  # the same cells under the other title: the tab's language may differ
