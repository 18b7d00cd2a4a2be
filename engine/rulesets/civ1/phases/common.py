"""What the conflict phases share (explore, spies, attacks): the nations in the turn's order, paying
Власть through the ledger, a nation's reach over the map, and its era.

Kept apart so that each phase module holds one concern; nothing here reads a sheet.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.orders import Status

from .. import hexes, reach
from ..facts import Report
from ..hexes import Crossing, Hex
from ..messages import _
from ..model import Nation, World
from ..ordertypes import Given
from ..resources import POWER
from ..rules import Rules


def in_order(world: World, orders: Mapping[str, list[Given]], report: Report) -> list[tuple[str, Given]]:
    """Every (nation, row) in the turn's order of play (CIV-TURN-05; the seats when it is not set),
    each nation's rows in sheet order; nations missing from the order come last, by seat."""
    order = list(report.facts.order) or world.seats()
    order += [n for n in world.seats() if n not in order]
    order += [n for n in orders if n not in order]
    return [(n, g) for n in order for g in orders.get(n, [])]


def pay_power(report: Report, world: World, nation: str, price: int, phase: str, category: str,
              reason: str, ref: str) -> bool:
    """Take `price` Власть from `nation` by a ledger posting; False (and the row rejected with the
    numbers) when it has less."""
    have = world.nations[nation].power
    if have < price:
        report.result(ref, Status.REJECTED, _("не хватает Власти: нужно {need}, есть {have}").format(
            need=price, have=have))
        return False
    if price:
        report.post(POWER, nation, phase, category, -price, reason, ref)
    return True


def crossing(nation: Nation, rules: Rules, purpose: str) -> Crossing:
    """What the nation may cross for `purpose` (reach.EXPLORE / reach.ARMY): C3's `reach.crossing_for`
    (CIV-MAP-06, spec G7), used as it is."""
    return reach.crossing_for(nation, rules, purpose)


def reaches(world: World, rules: Rules, nation: str, target: Hex, purpose: str, origins: list[Hex],
            cross: Crossing | None = None) -> bool:
    """Whether `target` is within the nation's reach for `purpose` from one of `origins` (C3's
    `reach.reached`); with `cross`, over that crossing instead (hexes.reach_from)."""
    if cross is not None:
        return target in hexes.reach_from(origins, cross, reach.terrain_of(world))
    return target in reach.reached(world, world.nations[nation], rules, purpose, origins)


def era_reached(nation: Nation, rules: Rules) -> int:
    """The highest era of the nation's technologies (1 with none)."""
    return max([1, *(rules.tech(t).era for t in nation.techs)])
