"""What the conflict phases share (explore, spies, attacks): the nations in the turn's order, paying
Власть through the ledger, a nation's reach over the map, and its era.

Kept apart so that each phase module holds one concern; nothing here reads a sheet.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.orders import Status

from .. import hexes
from ..facts import Report
from ..hexes import Crossing, Hex, reach
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


def crossing(nation: Nation, rules: Rules, base: int, straight: bool = True) -> Crossing:
    """What the nation may cross with its technologies (CIV-MAP-06): `hexes.crossing` over the
    technologies it knows, at least `base` over land; «по прямой» only when `straight` (Полет is
    for exploring and founding, not for armies)."""
    return hexes.crossing([rules.tech(t) for t in nation.techs], base, straight=straight)


def reaches(world: World, nation: str, target: Hex, cross: Crossing, origins: list[Hex]) -> bool:
    """Whether `target` is within the nation's reach from one of `origins` (hexes.reach as it is)."""
    def terrain_of(h: Hex) -> str | None:
        tile = world.tiles.get(h)
        return tile.terrain if tile else None

    return any(target in reach(o, cross, terrain_of) for o in origins)


def era_reached(nation: Nation, rules: Rules) -> int:
    """The highest era of the nation's technologies (1 with none)."""
    return max([1, *(rules.tech(t).era for t in nation.techs)])
