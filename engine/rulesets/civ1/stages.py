"""Which phases each stage of a civ1 turn runs, in the seed's order.

The 13 steps of the state stage (spec §1, CIV-TURN-03): 1 first player, 2 Power income,
3 villages, 4 spies, 5 cities, 6 upgrades, 7 restores, 8 reorganisation, 9 attacks, 10 research,
11 government, 12 wonder intentions, 13 transfers (and the honesty step after them).  The state
module numbers its phases (`STEP_OF`); exploring (with the routed cards' return first) and spies
go in as steps 3–4, attacks as step 9.  The cities stage is one phase per nation's cities and the
end-of-game check (CIV-TURN-04, CIV-TURN-01).
"""

from __future__ import annotations

from typing import Any

from engine.core.turn import Phase

from .calendar import CITIES, STATE
from .phases.cities import CITY_PHASES
from .phases.combat import ATTACKS
from .phases.explore import EXPLORE
from .phases.spies import SPIES
from .phases.state import STATE_PHASES, STEP_OF


def _steps(before: int, after: int) -> list[Phase[Any]]:
    """The state module's phases whose seed step is in (after, before)."""
    return [p for p in STATE_PHASES if after < STEP_OF[p.name] < before]


STATE_STEPS: tuple[Phase[Any], ...] = (
    *_steps(3, 0), *EXPLORE, *SPIES, *_steps(9, 4), *ATTACKS, *_steps(99, 9),
)


def phases_of(stage: str) -> tuple[Phase[Any], ...]:
    """The phases a stage runs (by its calendar key)."""
    return STATE_STEPS if stage == STATE else CITY_PHASES if stage == CITIES else ()


def phase_names() -> tuple[str, ...]:
    """Every phase of a turn by name, both stages (the progress bar's steps)."""
    return tuple(p.name for p in (*STATE_STEPS, *CITY_PHASES))
