"""The hex map's geometry (CIV-MAP-01, CIV-MAP-06): axial coordinates, distances, and how far a
nation reaches over the terrain it may cross.

A hex is written «q,r» (axial coordinates, pointy-top); distance is the hex distance.  Reach is a
breadth-first search over the hexes a nation may enter: land, or water where its technologies
let it (`Crossing`), counting steps up to a range; «по прямой» (Полет) ignores terrain.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Crossing:
    """What a nation may cross (from its technologies): `land` and `water` ranges, whether it may
    enter mountains and open sea, and «по прямой» (straight line: terrain does not matter)."""

    land: int
    water: int = 0
    sea: bool = False
    mountains: bool = False
    straight: bool = False


def reach(
    start: Hex,
    crossing: Crossing,
    terrain_of: Callable[[Hex], str | None],
    water: frozenset[str] = frozenset({"море", "океан"}),
    mountains: frozenset[str] = frozenset({"горы"}),
) -> dict[Hex, int]:
    """Hex -> steps from `start` for every hex the nation reaches: over land up to `crossing.land`
    steps; a water hex costs a step and is entered only with `crossing.sea` (or, along the coast,
    within `crossing.water`); mountains only with `crossing.mountains`.  `terrain_of` is None off
    the map.  With `crossing.straight` every hex within the longer range is reached."""
    limit = max(crossing.land, crossing.water)
    if crossing.straight:
        out: dict[Hex, int] = {}
        frontier = deque([start])
        out[start] = 0
        while frontier:
            h = frontier.popleft()
            for n in neighbours(h):
                if n not in out and terrain_of(n) is not None and distance(start, n) <= limit:
                    out[n] = distance(start, n)
                    frontier.append(n)
        return out
    seen: dict[Hex, int] = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        steps = seen[h] + 1
        for n in neighbours(h):
            kind = terrain_of(n)
            if kind is None or n in seen:
                continue
            if kind in mountains and not crossing.mountains:
                continue
            if kind in water:
                if not (crossing.sea or steps <= crossing.water):
                    continue
                if steps > max(crossing.water, crossing.land if crossing.sea else 0):
                    continue
            elif steps > crossing.land and steps > crossing.water:
                continue
            seen[n] = steps
            queue.append(n)
    return seen
