"""Which phases each stage of a civ1 turn runs, in the seed's order, and which parser reads a row.

The phases are written by other hands in their own modules (BRIEF18's phase contract):
phases/state.py `STATE_PHASES`, phases/explore.py `EXPLORE`, phases/spies.py `SPIES`,
phases/combat.py `ATTACKS`, phases/cities.py `CITY_PHASES`.  A module that is not there yet is
simply absent: its steps are skipped, and a row no phase answered is refused in words by the turn.

The 13 steps of the state stage (spec §1): 1 first player, 2 Power income, 3 villages, 4 spies,
5 cities, 6 upgrades, 7 restores, 8 reorganisation, 9 attacks, 10 research, 11 government,
12 wonder intentions, 13 transfers.  The state module holds steps 1–2 and 5–8, 10–13; exploring
and spies go before its first founding phase (step 5), attacks before its first research phase
(step 10), each found by its name (a phase named without those words: exploring and spies after
step 2, attacks after step 8 counting the state phases as the seed numbers them).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Sequence
from typing import Any

from engine.core.turn import Phase

from .calendar import CITIES, STATE

PACKAGE = "engine.rulesets.civ1"
FOUNDING = ("found", "city", "cities", "основ", "город")
RESEARCH = ("research", "tech", "изуч", "исслед", "технол", "наук")


def _exported(module: str, name: str) -> tuple[Phase[Any], ...]:
    """The phases `module` exports as `name`, () when the module is not there yet."""
    full = f"{PACKAGE}.{module}"
    if importlib.util.find_spec(full) is None:
        return ()
    found = getattr(importlib.import_module(full), name, ())
    return tuple(found) if isinstance(found, (tuple, list)) else (found,)


def _index(phases: Sequence[Phase[Any]], words: Sequence[str], fallback: int) -> int:
    for i, p in enumerate(phases):
        if any(w in p.name.lower() for w in words):
            return i
    return min(fallback, len(phases))


def state_phases() -> tuple[Phase[Any], ...]:
    """The state stage's phases in the seed's 13-step order (what is there of them)."""
    own = list(_exported("phases.state", "STATE_PHASES"))
    scouting = [*_exported("phases.explore", "EXPLORE"), *_exported("phases.spies", "SPIES")]
    attacks = list(_exported("phases.combat", "ATTACKS"))
    at = _index(own, FOUNDING, 2)
    steps = [*own[:at], *scouting, *own[at:]]
    at = _index(steps, RESEARCH, len(steps))
    return tuple([*steps[:at], *attacks, *steps[at:]])


def city_phases() -> tuple[Phase[Any], ...]:
    return _exported("phases.cities", "CITY_PHASES")


def phases_of(stage: str) -> tuple[Phase[Any], ...]:
    """The phases a stage runs (by its calendar key)."""
    return state_phases() if stage == STATE else city_phases() if stage == CITIES else ()


def phase_names() -> tuple[str, ...]:
    """Every phase of a turn by name, both stages (the progress bar's steps)."""
    names = tuple(p.name for p in (*state_phases(), *city_phases()))
    return names or ("приказы", "итоги")


Parser = Callable[..., Any]


def parser() -> Parser:
    """orders.py's `parse` (helper C2's) when it is there, else the stand-in of orders_stub.py."""
    name = "orders" if importlib.util.find_spec(f"{PACKAGE}.orders") is not None else "orders_stub"
    parse: Parser = importlib.import_module(f"{PACKAGE}.{name}").parse
    return parse


def absent_orders() -> Callable[..., Any] | None:
    """absent.py's default orders of an absent nation (helper C5's), None while it is not there."""
    full = f"{PACKAGE}.absent"
    if importlib.util.find_spec(full) is None:
        return None
    found: Callable[..., Any] | None = getattr(importlib.import_module(full), "default_orders", None)
    return found


def describer() -> Parser:
    """orders.py's `describe(order, lang, rules)` (the echo «Понято как»), else the stand-in's."""
    name = "orders" if importlib.util.find_spec(f"{PACKAGE}.orders") is not None else "orders_stub"
    describe: Parser = importlib.import_module(f"{PACKAGE}.{name}").describe
    return describe
