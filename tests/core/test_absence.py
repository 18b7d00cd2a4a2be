"""The NMR ladder per cursor and the stand-in orders (engine/core/absence.py), on a made-up staged
calendar (a state stage, a battle of two rounds that does not count, a cities stage) and on the
one-stage calendar of the first game."""

from __future__ import annotations

import pytest

from engine.core import absence
from engine.core.absence import Standing, Verdict
from engine.core.cursor import ONE_STAGE, Calendar, Cursor, Stage
from engine.core.orders import OrderRow

STAGED = Calendar((
    Stage("state", "государство", "state"),
    Stage("battle", "бой", "battle", rounds=2, counts_missed=False),
    Stage("cities", "города", "cities"),
))
LIMIT = 2


def _turn(turn: int) -> list[Cursor]:
    """Every window of one turn of STAGED, in order."""
    at, out = STAGED.cursor(turn, "state"), []
    while at.turn == turn:
        out.append(at)
        at = STAGED.next(at)
    return out


def _play(standings: dict[str, Standing], turn: int, sent_at: dict[str, set[str]]) -> tuple[dict[str, Standing],
                                                                                          dict[str, Verdict]]:
    """Run the ladder through every window of `turn`; `sent_at`: stage key -> the sides that sent rows
    there (every round of a stage alike). The verdicts of the turn's last window."""
    ladder = None
    for at in _turn(turn):
        ladder = absence.step(STAGED, at, standings, sent_at.get(at.stage, set()), LIMIT)
        standings = ladder.standings
    assert ladder is not None
    return standings, ladder.verdicts


def test_only_the_last_counting_window_closes_a_turn() -> None:
    closing = [at.key() for at in _turn(1) if absence.closes_turn(STAGED, at)]
    assert closing == ["1:cities"]
    assert all(absence.closes_turn(ONE_STAGE, Cursor(t)) for t in (1, 2, 7))
    battle_last = Calendar((Stage("state", "г", "s"), Stage("battle", "б", "b", rounds=3)))
    assert [r for r in (1, 2, 3) if absence.closes_turn(battle_last, battle_last.cursor(1, "battle", r))] == [3]
    assert not absence.closes_turn(Calendar((Stage("x", "х", "x", counts_missed=False),)), Cursor(1, "x"))


def test_a_side_silent_in_every_counting_stage_misses_the_turn_once() -> None:
    start = {"Альфа": Standing(), "Бета": Standing(), "Гамма": Standing()}
    after, verdicts = _play(start, 1, {"state": {"Альфа"}, "cities": {"Бета"}, "battle": {"Гамма"}})
    assert verdicts == {"Альфа": Verdict.SENT, "Бета": Verdict.SENT, "Гамма": Verdict.WARNED}
    assert after == {"Альфа": Standing(0), "Бета": Standing(0), "Гамма": Standing(1)}  # a battle row is no presence
    after, verdicts = _play(after, 2, {})
    assert verdicts == {"Альфа": Verdict.WARNED, "Бета": Verdict.WARNED, "Гамма": Verdict.REACHED}
    assert [s.missed for s in after.values()] == [1, 1, 2]


def test_nothing_is_judged_before_the_turn_closes() -> None:
    start = {"Альфа": Standing(1), "Бета": Standing(1, excused=True)}
    state = absence.step(STAGED, STAGED.cursor(3, "state"), start, {"Альфа"}, LIMIT)
    assert state.verdicts == {"Альфа": Verdict.PENDING, "Бета": Verdict.PENDING}
    assert state.standings == {"Альфа": Standing(1, present=True), "Бета": Standing(1, excused=True)}
    battle = absence.step(STAGED, STAGED.cursor(3, "battle", 1), state.standings, {"Бета"}, LIMIT)
    assert battle.standings == state.standings  # a stage that does not count changes nothing
    cities = absence.step(STAGED, STAGED.cursor(3, "cities"), battle.standings, set(), LIMIT)
    assert cities.verdicts == {"Альфа": Verdict.SENT, "Бета": Verdict.EXCUSED}
    assert cities.standings == {"Альфа": Standing(0), "Бета": Standing(1)}  # presence forgotten for the next turn
    assert cities.reached == []


def test_an_excuse_waits_for_the_miss_it_forgives() -> None:
    ladder = absence.step(ONE_STAGE, Cursor(4), {"Альфа": Standing(1, excused=True)}, {"Альфа"}, LIMIT)
    assert ladder.standings["Альфа"] == Standing(0, excused=True)
    ladder = absence.step(ONE_STAGE, Cursor(5), ladder.standings, set(), LIMIT)
    assert (ladder.verdicts["Альфа"], ladder.standings["Альфа"]) == (Verdict.EXCUSED, Standing(0))
    ladder = absence.step(ONE_STAGE, Cursor(6), ladder.standings, set(), 1)
    assert ladder.reached == ["Альфа"] and ladder.with_verdict(Verdict.WARNED) == []


def test_a_stage_ended_early_closes_the_turn_when_told() -> None:
    cal = Calendar((Stage("state", "г", "s"), Stage("battle", "б", "b", rounds=3)))
    at = cal.cursor(1, "battle", 1)
    assert absence.step(cal, at, {"A": Standing()}, set(), LIMIT).verdicts["A"] is Verdict.PENDING
    assert absence.step(cal, at, {"A": Standing()}, set(), LIMIT, closing=True).verdicts["A"] is Verdict.WARNED
    with pytest.raises(ValueError):
        absence.step(cal, at, {}, set(), 0)


def test_absent_sides_get_stand_ins_but_stay_absent() -> None:
    own = OrderRow("Приказы — Альфа", 2, "Альфа", {"action": "Строить"})
    defaults = {"Бета": [absence.stand_in("Приказы — Бета", "Бета", 1, {"action": "Копить"}),
                         absence.stand_in("Приказы — Бета", "Бета", 2, {"action": "Изучить"})]}
    att = absence.attendance({"Альфа": [own]}, ["Альфа", "Бета", "Гамма"], lambda side: defaults.get(side, []))
    assert att.rows == {"Альфа": [own], "Бета": defaults["Бета"], "Гамма": []}
    assert att.present == {"Альфа"} and att.stood_in == {"Бета"}
    refs = [r.ref for r in att.rows["Бета"]]
    assert refs == ["Приказы — Бета!-1", "Приказы — Бета!-2"]
    assert [absence.is_stand_in(r) for r in (own, *att.rows["Бета"])] == [False, True, True]
    ladder = absence.step(ONE_STAGE, Cursor(1), {s: Standing() for s in att.rows}, att.present, LIMIT)
    assert ladder.verdicts == {"Альфа": Verdict.SENT, "Бета": Verdict.WARNED, "Гамма": Verdict.WARNED}
    with pytest.raises(ValueError):
        absence.stand_in("t", "s", 0, {})
