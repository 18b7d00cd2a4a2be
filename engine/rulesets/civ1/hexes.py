"""The hex map's geometry (CIV-MAP-01, CIV-MAP-06): axial coordinates, distances, and how far a
nation reaches over the terrain it may cross.

A hex is written «q,r» (axial coordinates, pointy-top); distance is the hex distance.  How far a
nation reaches (`reach`, the semantics of spec G7, recorded in docs/rules-decisions.md):

- over land a route has at most `land` steps (the default range 3 of exploring / founding / armies,
  raised by Верховая езда 4, Математика 5, Паровая тяга 6, ДВС 8); mountains are entered only with
  Логистика (`mountains`), «горы ... блокируют перемещение»;
- water («моря и океаны ... изначально непроходимы») is entered only with a water range: along the
  coast (a water hex next to land) with Навигация's 6, and any water once a technology lets units
  cross seas (`sea`: Астрономия, Паровая тяга, Логистика); a route that uses water may be as long
  as the water range, and its land steps still count against the land range;
- «по прямой» (Полет, exploring and founding only): every hex within the land range as the crow
  flies is reached as well, whatever lies between.

The caller says what may be the route's goal (a city is founded on passable land, an army attacks
a city): `reach` only says which hexes a route reaches and in how many steps.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

Hex = tuple[int, int]
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def parse(text: object) -> Hex | None:
    """«3,4» (also «3;4», «(3, 4)», «3 4») as a hex, None when it is not two integers."""
    raw = str(text or "").strip().strip("()[]")
    for sep in (",", ";", " "):
        parts = [p for p in raw.replace(sep, " ").split() if p]
        if len(parts) == 2:
            try:
                return int(parts[0]), int(parts[1])
            except ValueError:
                return None
    return None


def text(h: Hex) -> str:
    """A hex as the sheets write it: «3,4»."""
    return f"{h[0]},{h[1]}"


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes on an open map."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> Iterator[Hex]:
    """The six hexes around `h` (whether or not they are on the map)."""
    for dq, dr in DIRECTIONS:
        yield h[0] + dq, h[1] + dr


def within(centre: Hex, radius: int, hexes: Iterable[Hex]) -> list[Hex]:
    """The hexes of `hexes` at most `radius` from `centre`, nearest first (then by coordinates)."""
    return sorted((h for h in hexes if distance(centre, h) <= radius), key=lambda h: (distance(centre, h), h))


WATER: frozenset[str] = frozenset({"море", "океан"})
MOUNTAINS: frozenset[str] = frozenset({"горы"})


@dataclass(frozen=True)
class Crossing:
    """What a nation may cross (from its technologies): `land` and `water` ranges, whether it may
    enter any water (`sea`, not only the coast) and mountains, and «по прямой» (`straight`: within
    the land range terrain does not matter)."""

    land: int
    water: int = 0
    sea: bool = False
    mountains: bool = False
    straight: bool = False


class RangeTech(Protocol):
    """What `crossing` reads of a technology (rules.Technology has these fields)."""

    land_range: int | None
    water_range: int | None
    cross_sea: bool
    cross_mountains: bool
    straight_line: bool


def crossing(techs: Iterable[RangeTech], base: int, straight: bool = True) -> Crossing:
    """A nation's `Crossing` from the technologies it knows (CIV-MAP-06): the best land range (at
    least `base`, the rules' default 3), the best water range, seas, mountains; «по прямой» only
    when `straight` (Полет is for exploring and founding, not for armies)."""
    known = list(techs)
    return Crossing(
        land=max([base, *(t.land_range for t in known if t.land_range)]),
        water=max([0, *(t.water_range for t in known if t.water_range)]),
        sea=any(t.cross_sea for t in known),
        mountains=any(t.cross_mountains for t in known),
        straight=straight and any(t.straight_line for t in known),
    )


def coastal(h: Hex, terrain_of: Callable[[Hex], str | None], water: frozenset[str] = WATER) -> bool:
    """Whether `h` touches a land hex of the map."""
    return any((k := terrain_of(n)) is not None and k not in water for n in neighbours(h))


def reach(
    start: Hex,
    crossing: Crossing,
    terrain_of: Callable[[Hex], str | None],
    water: frozenset[str] = WATER,
    mountains: frozenset[str] = MOUNTAINS,
) -> dict[Hex, int]:
    """Hex -> the fewest steps from `start` for every hex a route of the nation reaches (see the
    module docstring).  `terrain_of` is None off the map.  A breadth-first search over (hex, land
    steps so far): a later, longer route to a hex is kept only when it used fewer land steps."""
    limit = max(crossing.land, crossing.water)
    out: dict[Hex, int] = {start: 0}
    fewest_land: dict[Hex, int] = {start: 0}
    queue: deque[tuple[Hex, int, int]] = deque([(start, 0, 0)])  # hex, steps, land steps
    while queue:
        h, steps, land = queue.popleft()
        if steps >= limit:
            continue
        for n in neighbours(h):
            kind = terrain_of(n)
            if kind is None:
                continue
            if kind in water:
                if crossing.water <= 0 or steps + 1 > crossing.water:
                    continue
                if not crossing.sea and not coastal(n, terrain_of, water):
                    continue
                nland = land
            else:
                if kind in mountains and not crossing.mountains:
                    continue
                nland = land + 1
                if nland > crossing.land:
                    continue
            if n in fewest_land and fewest_land[n] <= nland:
                continue
            fewest_land[n] = nland
            out.setdefault(n, steps + 1)
            queue.append((n, steps + 1, nland))
    if crossing.straight:
        for h in _disc(start, crossing.land):
            if terrain_of(h) is not None:
                out[h] = min(out.get(h, distance(start, h)), distance(start, h))
    return out


def reach_from(
    starts: Iterable[Hex],
    crossing: Crossing,
    terrain_of: Callable[[Hex], str | None],
    water: frozenset[str] = WATER,
    mountains: frozenset[str] = MOUNTAINS,
) -> dict[Hex, tuple[int, Hex]]:
    """Hex -> (fewest steps, from which start) over several starts (a nation's cities); the
    nearest start wins, then the first given."""
    out: dict[Hex, tuple[int, Hex]] = {}
    for s in starts:
        for h, d in reach(s, crossing, terrain_of, water, mountains).items():
            if h not in out or d < out[h][0]:
                out[h] = (d, s)
    return out


def _disc(centre: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at most `radius` from `centre`."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield centre[0] + dq, centre[1] + dr
