"""ANC-TURN-07: the lot decides the order in which the states' orders are carried out."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.turn import TurnReport

from ..model import Campaign
from ..rules import Rules
from ..turnorders import TurnOrders


def run(world: Campaign, orders: TurnOrders, dice: Dice, rules: Rules, report: TurnReport) -> Campaign:
    """Draw a permutation of all states; orders run state by state in this order."""
    report.lot = dice.shuffle("жребий", sorted(world.states))
    players = [s for s in report.lot if not world.states[s].ai]
    if players:
        report.tell(
            (
                "Lot: the states act in this order: "
                if report.lang == "en"
                else "Жребий: государства действуют в порядке: "
            )
            + ", ".join(players)
            + "."
        )
    return world
