"""Issue 24, point 2 in the core: an open-ended stage («3:ход:7»: one-player windows until the game
ends the round) and a stage between its rounds («3:бой:2»: a battle after the move that attacked).
The calendar parses, formats, orders and walks them; the stage split and the NMR ladder follow."""

from __future__ import annotations

import pytest

from engine.core import absence, meta
from engine.core.cursor import Calendar, Cursor, CursorError, Stage
from engine.core.orders import OrderRow
from engine.core.stagerows import row_cursor, split
from engine.core.tables import Tables

POLIS = Calendar((
    Stage("move", "ход", "move", open_ended=True),
    Stage("battle", "бой", "battle", counts_missed=False, between="move"),
    Stage("council", "совет", "council", counts_missed=False),
))
FIXED = Calendar((Stage("day", "день", "day"), Stage("battle", "бой", "battle", rounds=3)))


@pytest.mark.parametrize("text", ["3:ход:7", "3:move:7", " 3 : Ход : 7 ", "3:ход:1", "3:ход:250", "3:бой:2"])
def test_any_round_from_one_is_a_cursor_of_an_open_ended_stage(text: str) -> None:
    c = POLIS.parse(text)
    assert POLIS.parse(POLIS.format(c)) == c and POLIS.parse(c.key()) == c and POLIS.has_rounds(c)
    assert POLIS.format(c).split(":")[2] == text.split(":")[2].strip()


def test_an_open_ended_cursor_formats_in_each_language_and_keys_by_the_stage_key() -> None:
    c = POLIS.parse("3:ход:7")
    assert c == Cursor(3, "move", 7) and c.key() == "3:move:7"
    assert POLIS.format(c) == "3:ход:7" and POLIS.format(c, "en") == "3:move:7"
    assert POLIS.format(POLIS.parse("3:battle:2")) == "3:бой:2"
    assert POLIS.listed("ru") == "ход:1…, бой:1…, совет" and POLIS.listed("en") == "move:1…, battle:1…, council"


@pytest.mark.parametrize(("text", "words"), [
    ("3:ход", "раунды 1, 2, 3… — укажите раунд: 3:ход:1"),
    ("3:ход:0", "раунды 1, 2, 3…"),
    ("3:бой", "раунды 1, 2, 3…"),
    ("3:совет:1", "нет раундов"),
    ("3:ход:x", "целые числа"),
])
def test_an_open_ended_cursor_without_a_round_is_refused_in_words(text: str, words: str) -> None:
    with pytest.raises(CursorError, match=words):
        POLIS.parse(text)


def test_a_battle_between_rounds_sorts_after_its_move_and_before_the_next() -> None:
    order = ["2:совет", "3:ход:1", "3:ход:2", "3:бой:2", "3:ход:3", "3:ход:10", "3:бой:10", "3:ход:11", "3:совет",
             "4:ход:1"]
    cursors = [POLIS.parse(t) for t in order]
    assert sorted(reversed(cursors)) == cursors
    assert POLIS.parse("3:бой:2") != POLIS.parse("3:ход:2")


def test_the_calendar_walks_rounds_for_ever_and_the_game_ends_the_stage() -> None:
    assert POLIS.first() == Cursor(1, "move", 1)
    assert POLIS.next(POLIS.parse("3:ход:7")) == POLIS.parse("3:ход:8")
    assert POLIS.next(POLIS.parse("3:бой:2")) == POLIS.parse("3:ход:3")  # back to the moves
    assert POLIS.next(POLIS.parse("3:совет")) == POLIS.parse("4:ход:1")
    assert POLIS.next_stage(POLIS.parse("3:ход:7")) == POLIS.parse("3:совет")  # a battle is never "next"
    assert POLIS.next_stage(POLIS.parse("3:бой:7")) == POLIS.parse("3:совет")
    assert POLIS.next_stage(POLIS.parse("3:совет")) == POLIS.parse("4:ход:1")
    walked = POLIS.next(POLIS.next(POLIS.parse("3:ход:9")))
    assert walked == POLIS.parse("3:ход:11") and walked.rank == 0 and POLIS.next_stage(walked).rank == 2
    # a calendar of fixed rounds walks as before
    assert FIXED.next(FIXED.parse("3:бой:3")) == FIXED.parse("4:день") and FIXED.next_stage(FIXED.parse("3:день")) \
        == FIXED.parse("3:бой:1")


def test_a_stage_between_rounds_needs_an_open_ended_host_before_it() -> None:
    with pytest.raises(ValueError, match="open-ended"):
        Calendar((Stage("day", "день", "day"), Stage("battle", "бой", "battle", between="day")))
    with pytest.raises(ValueError, match="open-ended"):
        Calendar((Stage("battle", "бой", "battle", between="move"), Stage("move", "ход", "move", open_ended=True)))
    with pytest.raises(ValueError, match="no round count"):
        Stage("move", "ход", "move", rounds=3, open_ended=True)
    assert Stage("b", "бой", "battle", between="move").open_ended


def _meta(rows: list[list[object]]) -> Tables:
    return {"Кампания": [["Параметр", "Значение"], *rows]}


def test_the_meta_holds_any_round_of_an_open_ended_stage() -> None:
    c = POLIS.parse("3:ход:27")
    rows = meta.cursor_rows(c, POLIS, "ru")
    assert rows == [["Открытый ход", 3], ["Открытый этап", "ход"], ["Открытый раунд", 27]]
    assert meta.open_cursor(_meta(rows), POLIS) == c
    assert meta.cursor_rows(POLIS.parse("3:совет"), POLIS, "en") == [["Open turn", 3], ["Open stage", "council"]]
    with pytest.raises(CursorError, match="раунды 1, 2, 3"):
        meta.open_cursor(_meta(rows[:2]), POLIS)  # the round row lost


def _row(stage: object, n: int = 2) -> OrderRow:
    return OrderRow("Приказы", n, "Афины", {"stage": stage, "action": "x"})


@pytest.mark.parametrize(("open_", "named", "window"), [
    ("3:ход:5", "ход", "3:ход:5"),  # the open stage: the open round
    ("3:бой:2", "ход", "3:ход:3"),  # a move written during a battle: the next move window
    ("3:ход:2", "бой", "3:бой:2"),  # a battle order written during the move: this round's battle
    ("3:ход:2", "совет", "3:совет"),
    ("3:совет", "ход", "3:ход:1"),  # gone by: the game refuses it as past
    ("3:ход:2", "ход:4", "3:ход:4"),
    ("3:ход:2", None, "3:ход:2"),
])
def test_a_row_names_the_first_window_of_its_stage_not_before_the_open_one(open_: str, named: object,
                                                                          window: str) -> None:
    assert row_cursor(_row(named), POLIS, POLIS.parse(open_)) == POLIS.parse(window)


def test_rows_of_a_later_move_wait_during_a_battle_and_a_council_row_waits_for_the_council() -> None:
    at = POLIS.parse("3:бой:2")
    got = split([_row("бой", 2), _row("ход", 3), _row("совет", 4), _row("ход:1", 5), _row("пир", 6)], POLIS, at)
    assert [r.row for r in got.now] == [2]
    assert [(r.row, POLIS.format(c)) for r, c in got.waiting] == [(3, "3:ход:3"), (4, "3:совет")]
    assert [(r.row, POLIS.format(c)) for r, c in got.past] == [(5, "3:ход:1")] and [r.row for r in got.unknown] == [6]


def test_the_ladder_leaves_the_end_of_an_open_ended_stage_to_the_game() -> None:
    at = POLIS.parse("1:ход:4")
    assert not absence.closes_turn(POLIS, at)
    watched = {"Афины": absence.Standing(1)}
    assert absence.step(POLIS, at, watched, set(), 3).verdicts == {"Афины": absence.Verdict.PENDING}
    closed = absence.step(POLIS, at, watched, set(), 3, closing=True)
    assert closed.verdicts == {"Афины": absence.Verdict.WARNED} and closed.standings["Афины"].missed == 2
    assert absence.step(POLIS, POLIS.parse("1:бой:4"), watched, set(), 3, closing=True).verdicts == {
        "Афины": absence.Verdict.PENDING}  # a battle does not count
