"""Issue 17, point 2 in the core: the cursor (turn, stage, round), its calendar, the seed of a
window, the meta rows that hold the open cursor, history keyed by cursor, rows that wait."""

from __future__ import annotations

import hashlib

import pytest

from engine.core import history, i18n, meta
from engine.core.cursor import ONE_STAGE, Calendar, Cursor, CursorError, Stage, from_key
from engine.core.dice import cursor_seed, turn_seed
from engine.core.errors import CampaignError
from engine.core.orders import OrderRow
from engine.core.stagerows import split
from engine.core.tables import Tables
from engine.rulesets.ancient.calendar import CALENDAR as ANCIENT

CIV = Calendar((Stage("state", "государство", "state"), Stage("cities", "города", "cities")))
TLK = Calendar((
    Stage("morning", "утро", "morning"),
    Stage("day", "день", "day"),
    Stage("battle", "бой", "battle", rounds=3, counts_missed=False),
))


def test_a_stage_less_cursor_reads_and_writes_as_a_turn_number() -> None:
    c = ONE_STAGE.parse("3")
    assert c == Cursor(3) and not c.staged
    assert ONE_STAGE.format(c) == "3" and c.key() == "3"
    assert ONE_STAGE.parse(7) == Cursor(7)
    assert ANCIENT.first() == Cursor(1) and ANCIENT.next(Cursor(4)) == Cursor(5)
    assert not ANCIENT.staged and ANCIENT.counts_missed(Cursor(2))


def test_staged_cursors_parse_in_either_language_and_format_in_the_campaign_s() -> None:
    c = CIV.parse("3:города")
    assert c == Cursor(3, "cities") == CIV.parse("3:Cities") == CIV.parse(" 3 : ГОРОДА ")
    assert CIV.format(c) == "3:города" and CIV.format(c, "en") == "3:cities"
    assert c.key() == "3:cities"
    b = TLK.parse("12:бой:2")
    assert b == Cursor(12, "battle", 2) and TLK.format(b) == "12:бой:2" and TLK.format(b, "en") == "12:battle:2"
    assert b.key() == "12:battle:2" and TLK.has_rounds(b) and not TLK.has_rounds(TLK.parse("12:утро"))


@pytest.mark.parametrize(("calendar", "text", "words"), [
    (ONE_STAGE, "3:города", "нет этапов"),
    (CIV, "3", "укажите этап"),
    (CIV, "3:нет", "нет этапа «нет»; этапы хода: государство, города"),
    (CIV, "0:города", "≥ 1"),
    (CIV, "x:города", "целые числа"),
    (CIV, "3:города:2", "нет раундов"),
    (TLK, "12:бой", "раунды 1…3"),
    (TLK, "12:бой:4", "раунды 1…3"),
    (TLK, "1:2:3:4", "не ход"),
    (TLK, "", "не ход"),
])
def test_a_bad_cursor_is_refused_in_words(calendar: Calendar, text: str, words: str) -> None:
    with pytest.raises(CursorError, match=words):
        calendar.parse(text)


def test_a_bad_cursor_is_refused_in_english_in_an_english_campaign() -> None:
    with i18n.using("en"), pytest.raises(CursorError, match="there is no stage «nope»") as caught:
        CIV.parse("3:nope")
    assert "state, cities" in str(caught.value)


def test_cursors_follow_the_calendar_order_and_next_walks_it() -> None:
    walk = [TLK.first()]
    for _ in range(6):
        walk.append(TLK.next(walk[-1]))
    assert [c.key() for c in walk] == ["1:morning", "1:day", "1:battle:1", "1:battle:2", "1:battle:3",
                                       "2:morning", "2:day"]
    assert walk == sorted(reversed(walk))
    assert TLK.parse("1:бой:1") < TLK.parse("1:бой:2") < TLK.parse("2:утро")
    assert CIV.parse("3:государство") < CIV.parse("3:города") < CIV.parse("4:государство")
    assert not CIV.parse("3:города") < CIV.parse("3:государство")
    assert CIV.next(CIV.parse("3:города")) == CIV.parse("4:государство")
    assert Cursor(2) < Cursor(3) and max(Cursor(9), Cursor(10)) == Cursor(10)


def test_the_nmr_ladder_counts_only_the_stages_the_ruleset_marks() -> None:
    assert TLK.counts_missed(TLK.parse("3:утро")) and not TLK.counts_missed(TLK.parse("3:бой:1"))


def test_a_stage_key_cannot_hold_the_separator() -> None:
    with pytest.raises(ValueError):
        Stage("a:b", "а", "a")


def _old_turn_seed(secret: str, turn: int) -> str:
    """The seed formula of every campaign made before stages (engine/core/dice.py before issue 17)."""
    return hashlib.sha256(f"{secret}:{turn}:".encode()).hexdigest()


@pytest.mark.parametrize("turn", [1, 2, 15, 1000])
def test_a_stage_less_cursor_has_the_seed_of_old_campaigns_byte_for_byte(turn: int) -> None:
    secret = "5f0c6a2e9d1b4b7e8a3c2d1e0f9a8b7c"
    assert cursor_seed(secret, Cursor(turn)) == _old_turn_seed(secret, turn) == turn_seed(secret, turn)
    assert cursor_seed(secret, ANCIENT.parse(str(turn))) == _old_turn_seed(secret, turn)


def test_a_staged_cursor_mixes_the_stage_and_the_round_in() -> None:
    secret = "s"
    seeds = {cursor_seed(secret, c) for c in (Cursor(3), CIV.parse("3:государство"), CIV.parse("3:города"),
                                               TLK.parse("3:бой:1"), TLK.parse("3:бой:2"), Cursor(4))}
    assert len(seeds) == 6
    # the stage's key, not its name: an English campaign draws the same dice
    assert cursor_seed(secret, CIV.parse("3:cities")) == cursor_seed(secret, CIV.parse("3:города"))
    assert cursor_seed(secret, TLK.parse("3:бой:2")) == hashlib.sha256(b"s:3:battle:2").hexdigest()


def _meta(rows: list[list[object]]) -> Tables:
    return {"Кампания": [["Параметр", "Значение"], ["Правила", "x"], *rows]}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_one_stage_meta_holds_the_turn_row_only(lang: str) -> None:
    rows = meta.cursor_rows(Cursor(4), ONE_STAGE, lang)
    assert rows == [[meta.OPEN_TURN[1 if lang == "en" else 0], 4]]
    assert meta.open_cursor(_meta(rows), ONE_STAGE) == Cursor(4)
    assert meta.open_cursor(_meta([["Открытый ход", 4.0]]), ONE_STAGE) == Cursor(4)  # as a sheet may store it


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("text", ["3:города", "3:государство"])
def test_a_staged_meta_round_trips(lang: str, text: str) -> None:
    c = CIV.parse(text)
    rows = meta.cursor_rows(c, CIV, lang)
    assert len(rows) == 2 and rows[1][1] == CIV.stage(c.stage).name(lang)
    back = meta.open_cursor(_meta(rows), CIV)
    assert back == c and back.rank == c.rank


def test_a_meta_with_a_round_round_trips_and_a_bad_one_is_named() -> None:
    c = TLK.parse("12:бой:2")
    rows = meta.cursor_rows(c, TLK, "ru")
    assert rows == [["Открытый ход", 12], ["Открытый этап", "бой"], ["Открытый раунд", 2]]
    assert meta.open_cursor(_meta(rows), TLK) == c
    with pytest.raises(CursorError, match="Открытый раунд"):
        meta.open_cursor(_meta([*rows[:2], ["Открытый раунд", "второй"]]), TLK)
    with pytest.raises(CursorError, match="Открытый ход"):
        meta.open_cursor(_meta([["Открытый ход", "три"]]), TLK)
    with pytest.raises(CursorError, match="укажите этап"):
        meta.open_cursor(_meta(rows[:1]), TLK)


def test_history_keeps_old_turn_rows_and_staged_cursors_side_by_side() -> None:
    tables: Tables = {"Счёт": [["a"], [1]]}
    hist = [history.header(), history.row_for(1, tables), history.row_for(CIV.parse("2:государство"), tables),
            history.row_for(CIV.parse("2:города"), tables), history.row_for(TLK.parse("3:бой:2"), tables)]
    assert [r[0] for r in hist[1:]] == [1, "2:state", "2:cities", "3:battle:2"]  # an old row is a bare number
    camp = {**tables, history.HISTORY_TAB: hist}
    kept = history.entries(camp)
    assert [e.cursor for e in kept] == [Cursor(1), Cursor(2, "state"), Cursor(2, "cities"), Cursor(3, "battle", 2)]
    assert history.entry(camp, 1).tables() == tables
    assert history.entry(camp, CIV.parse("2:города")).row == 4
    assert history.following(camp, CIV.parse("2:государство")) == kept[2]
    assert history.following(camp, Cursor(3, "battle", 2)) is None
    assert [r[0] for r in history.history_grid(camp, keep_before=CIV.parse("2:города"))[1:]] == [1, "2:state"]
    assert [r[0] for r in history.history_grid(camp, keep_before=2)[1:]] == [1]
    with pytest.raises(CampaignError, match="нет хода 2:cities:1"):
        history.entry(camp, Cursor(2, "cities", 1))
    # with the game's calendar a missing window is named in the campaign's words, not by its stored key
    both = Calendar((*CIV.stages, Stage("battle", "бой", "battle", rounds=3)))
    named = r"нет хода 4:города \(сохранены ходы: 1, 2:государство, 2:города, 3:бой:2\)"
    with pytest.raises(CampaignError, match=named):
        history.entry(camp, Cursor(4, "cities"), both)
    assert from_key("12:battle:2") == Cursor(12, "battle", 2)
    assert from_key(3) == Cursor(3) == from_key("3")


def _row(r: int, stage: object) -> OrderRow:
    return OrderRow("Приказы — Рим", r, "Рим", {"stage": stage, "action": "x"})


def test_rows_for_a_later_stage_of_the_day_wait() -> None:
    rows = [_row(2, None), _row(3, "день"), _row(4, "бой"), _row(5, "бой:3"), _row(6, "утро"), _row(7, "ночь"),
            _row(8, "battle:2")]
    at = meta.open_cursor(_meta(meta.cursor_rows(TLK.parse("5:бой:2"), TLK, "ru")), TLK)
    s = split(rows, TLK, at)
    assert [r.row for r in s.now] == [2, 4, 8]  # blank, the open stage (its open round), the open round by name
    assert [(r.row, c.key()) for r, c in s.waiting] == [(5, "5:battle:3")]
    assert [(r.row, c.key()) for r, c in s.past] == [(3, "5:day"), (6, "5:morning")]
    assert [r.row for r in s.unknown] == [7]
    morning = split(rows, TLK, TLK.parse("5:утро"))
    assert [r.row for r in morning.now] == [2, 6]
    assert [(r.row, c.key()) for r, c in morning.waiting] == [(3, "5:day"), (4, "5:battle:1"), (5, "5:battle:3"),
                                                              (8, "5:battle:2")]


def test_in_a_one_stage_game_every_row_is_of_the_open_turn() -> None:
    s = split([_row(2, None), _row(3, "что угодно")], ONE_STAGE, Cursor(4))
    assert [r.row for r in s.now] == [2, 3] and not s.waiting and not s.past and not s.unknown
