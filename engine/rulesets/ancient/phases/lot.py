"""ANC-TURN-07: the lot decides the order in which the states' orders are carried out."""

from __future__ import annotations

from engine.core.dice import Dice

from ..facts import Report
from ..messages import _
from ..model import Campaign
from ..rules import Rules
from ..turnorders import Orders


def reach_all(report: Report, states: list[str], draw: str) -> None:
    """Note that the undrawn `draw` may change what happens to each of `states` (a check's marks)."""
    reach = report.facts.dice_reach
    for name in states:
        reach.setdefault(name, set()).add(draw)


def run(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    """Draw a permutation of all states; orders run state by state in this order."""
    report.lot = dice.shuffle("жребий", sorted(world.states))
    players = [s for s in report.lot if not world.states[s].ai]
    if dice.blind:  # a check: the lot is not drawn; the check tries this order and its reverse
        return world
    if players:
        report.tell(_("Жребий: государства действуют в порядке: {states}.").format(states=", ".join(players)))
    return world
