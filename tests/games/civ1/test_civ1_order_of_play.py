"""Issue 23, point 14: civ1's cities stage runs in the turn's order of play (CIV-TURN-05, CIV-TURN-04).

The scenario tests/scenarios/civ1/CIV-TURN-05_the_cities_stage_of_an_even_turn_in_the_order_of_play.yaml
plays the contested Pyramids of turn 2; here the public «Порядок хода» a cities stage writes is
read back: it names the turn's first player, not the first seat.
"""

from __future__ import annotations

import pytest

from engine import rulesets
from engine.core.scenario import FIXED_SECRET
from engine.rulesets.civ1.calendar import CALENDAR
from engine.rulesets.civ1.vocab import TURN


@pytest.mark.parametrize(("window", "first", "order"), [
    ("1:города", "Вавилон", "Вавилон, Египет, Греция, Рим, Китай"),
    ("2:города", "Египет", "Египет, Вавилон, Китай, Рим, Греция"),
    ("3:города", "Греция", "Греция, Рим, Китай, Вавилон, Египет"),
], ids=["turn1", "turn2", "turn3"])
def test_i23_p14_the_turn_tab_of_a_cities_stage_names_the_turns_first_player(window: str, first: str,
                                                                            order: str) -> None:
    game = rulesets.get("civ1")
    tables = game.scenario.tables({"open": window})
    result = game.resolve(tables, CALENDAR.parse(window), secret=FIXED_SECRET)  # resolve(expect: Cursor)
    grid = next(r.rows for r in result.changes.replace if r.tab == TURN.tab_name("ru"))
    assert grid[1][1:] == ["города", first, order]
    assert list(result.report.facts.order) == order.split(", ")
