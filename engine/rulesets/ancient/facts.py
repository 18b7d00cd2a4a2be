"""What the phases of one ancient turn tell each other and the reports, typed.

The core's :class:`~engine.core.turn.TurnReport` carries a ruleset's own facts of the turn; for the
ancient game they are a :class:`TurnFacts`: what the turn opened with (the stability and the
government taxes are collected at, the treasury the budget may spend), what one phase leaves for a
later one (pirates and revolts block trade and taxes, trade feeds the capital, the goods at hand),
and what the turn found (taxes, food, battles, events, the dice).  Phases read and write these
fields by name, so a misspelt fact is an error of the program, not a silently empty value.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

from engine.core.dice import Roll
from engine.core.turn import TurnReport

from .model import Route

if TYPE_CHECKING:  # economy's phases take a Report: the budget's class is only named here
    from .economy import Budget


@dataclass
class Battle:
    """One battle of the war phase, on land (``province``, ``defenders``) or at sea (``zone``)."""

    attacker: str
    attacker_bo: int
    defender_bo: int
    result: str  # attacker | defender | draw
    losses: tuple[int, int]  # loss points of the attacker, of the defender
    attacker_lost: dict[str, int]  # unit type -> units lost
    defender_lost: dict[str, int]
    row: int  # the row of the combat table read
    province: str = ""
    defenders: list[str] = field(default_factory=list)
    zone: int | None = None


@dataclass
class TurnFacts:
    """The facts of one turn, filled as its phases run (state, province and zone names as keys)."""

    # the campaign as the turn opened, before any phase
    start_stability: dict[str, int] = field(default_factory=dict)  # taxes are collected at it
    start_government: dict[str, str] = field(default_factory=dict)  # taxes are collected by it
    opening: dict[str, Fraction] = field(default_factory=dict)  # treasury: the budget, plunder, balance
    sent: set[str] = field(default_factory=set)  # the states that sent rows this turn (understood or not)
    # the lot (a check's blind dice): state -> draws not made that may change what happens to it
    dice_reach: dict[str, set[str]] = field(default_factory=dict)
    # the events phase
    pirates: set[int] = field(default_factory=set)  # sea zones: trade through them stops
    revolts: set[str] = field(default_factory=set)  # provinces: no taxes, no trade
    famine_event: set[str] = field(default_factory=set)  # states
    events: list[tuple[str, str]] = field(default_factory=list)  # (card key, where)
    # the expenditures and trade phases
    budget: Budget | None = None  # what each state may still spend; made on first use
    goods: dict[str, Counter[str]] | None = None  # state -> goods at hand; made on first use
    garrisons: frozenset[tuple[str, str]] | None = None  # (province, state) with troops, as trade opens
    trade_income: list[Route] = field(default_factory=list)  # working routes, paid in the income phase
    routes: dict[str, int] = field(default_factory=dict)  # state -> routes it sells on
    food_sold: dict[str, int] = field(default_factory=dict)  # state -> food units sold abroad
    food_bought: dict[str, int] = field(default_factory=dict)  # state -> food units bought
    # the war phase
    captured: dict[str, str] = field(default_factory=dict)  # province -> its former owner
    battles: list[Battle] = field(default_factory=list)
    # taxes and the end of the turn
    # state -> (citizens taxed, tax per citizen, percent collected, the tax)
    taxes: dict[str, tuple[int, Fraction, Fraction, Fraction]] = field(default_factory=dict)
    food: dict[str, tuple[int, int]] = field(default_factory=dict)  # state -> (food at the capital, need)
    degraded: list[str] = field(default_factory=list)  # states whose government fell
    # after the phases
    dice: list[Roll] = field(default_factory=list)  # every roll of the turn


#: The report of an ancient turn.
Report: TypeAlias = TurnReport[TurnFacts]


def new_report(turn: int, lang: str = "ru") -> Report:
    """An empty report of an ancient turn, its facts not yet found."""
    return TurnReport(turn=turn, lang=lang, facts=TurnFacts())
