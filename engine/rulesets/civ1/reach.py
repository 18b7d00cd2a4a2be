"""How far a nation of «Civilization 1.0» reaches on the world's map, by purpose (CIV-MAP-06, spec G7).

The geometry is hexes.py's (`reach` over land, coast and sea); this module says which ranges a
purpose uses, so every phase measures the same way:

- exploring a village and founding a city: «по умолчанию - 3» (`explore_range`, `found_range`),
  raised by the range technologies; coastal water with Навигация, any water once a technology
  crosses seas; «по прямой» with Полет («Дистанция для разведки и освоения новых считается
  по-прямой»);
- an army's attack: `army_range` (*PROPOSAL* 3), the same land ranges; water only once a technology
  lets troops cross seas (G7: «water ranges apply ... to armies after» Астрономия), no straight line;
  counted from the sending city («считается от города отправки до цели»).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from . import hexes
from .model import Nation, World
from .rules import Rules, Technology, _find

EXPLORE, FOUND, ARMY = "explore", "found", "army"
BASE_PARAM = {EXPLORE: "explore_range", FOUND: "found_range", ARMY: "army_range"}


def known_techs(nation: Nation, rules: Rules) -> list[Technology]:
    """The nation's technologies as rules records (names the rules do not know are skipped)."""
    out = []
    for name in nation.techs:
        key = _find(rules.techs, name)
        if key is not None:
            out.append(rules.techs[key])
    return out


def crossing_for(nation: Nation, rules: Rules, purpose: str) -> hexes.Crossing:
    """The nation's `Crossing` for `purpose` (EXPLORE, FOUND or ARMY)."""
    c = hexes.crossing(known_techs(nation, rules), rules.param(BASE_PARAM[purpose]), straight=purpose != ARMY)
    if purpose == ARMY and not c.sea:
        c = hexes.Crossing(land=c.land, water=0, sea=False, mountains=c.mountains, straight=False)
    return c


def terrain_of(world: World) -> Callable[[hexes.Hex], str | None]:
    """The world's terrain by hex, None off the map (what `hexes.reach` reads)."""

    def of(h: hexes.Hex) -> str | None:
        tile = world.tiles.get(h)
        return tile.terrain if tile is not None else None

    return of


def reached(
    world: World, nation: Nation, rules: Rules, purpose: str, sources: Iterable[hexes.Hex] | None = None
) -> dict[hexes.Hex, tuple[int, hexes.Hex]]:
    """Hex -> (steps, from which source) for every hex the nation reaches for `purpose`, from
    `sources` (default: the hexes of all its cities; an army passes its sending city's hex)."""
    starts = list(sources) if sources is not None else [c.hex for c in world.cities_of(nation.name)]
    return hexes.reach_from(starts, crossing_for(nation, rules, purpose), terrain_of(world))
