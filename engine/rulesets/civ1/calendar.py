"""The calendar of «Civilization 1.0» (CIV-TURN-01/02): 15 turns, each of two stages resolved one
after the other — «государство» (the state: exploring, spies, founding, attacks, research,
government, wonder intentions, transfers) and then «города» (each city's activation and work).

«Каждый из 15 ходов разбит на две фазы, которые рассчитываются последовательно» (seed 004).
The open window is a cursor «ход:фаза» (engine/core/cursor.py); its keys are "state" and "cities".
"""

from __future__ import annotations

from engine.core.cursor import Calendar, Cursor, Stage

from .ordertypes import CITIES, STATE

CALENDAR = Calendar((Stage(STATE, "государство", "state"), Stage(CITIES, "города", "cities")))
LAST_TURN = 15  # «Каждый из 15 ходов»; the rules tab's `last_turn` may say otherwise


def closes_turn(at: Cursor) -> bool:
    """Whether resolving `at` ends its turn (the cities stage is the last of a turn)."""
    return at.stage == CITIES


def past_end(at: Cursor, last_turn: int = LAST_TURN) -> bool:
    """Whether the window `at` opens after the game's last turn (CIV-TURN-01)."""
    return at.turn > last_turn
