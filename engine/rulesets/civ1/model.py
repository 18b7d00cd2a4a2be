"""The typed world of «Civilization 1.0» (spec civ1.md §2): nations, the hex map, cities, the
army decks, spies, treaties and wonder intentions, and the open window.

Plain dataclasses, read from the sheet by the codec and written back by it; the phases change a
copy.  Balances (Власть, монеты, наука, ПО per nation; молотки per city) change only by ledger
postings: `World` is the ledger's `Accounts` (engine/core/ledger.py).

The phases ask for a nation's cities, the city on a hex or named so, once per nation or per order:
a scan of every city each time made a turn quadratic in the nations (issue 18 point 9).  `World`
keeps those indexes and rebuilds them only after an edit that moves a city in them: `World.cities`
is a `Cities` dict that counts its changes, and a `City` counts the changes of its name, owner and
hex (`CityEdits`), so that code which edits the dict or a city directly never reads a stale index.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Any

from engine.core.layout import norm

from .hexes import Hex, distance
from .resources import COINS, HAMMERS, POWER, SCIENCE, VP

READY, RETREATED, ROUTED, DESTROYED = "ready", "retreated", "routed", "destroyed"  # a card's state
CARD_STATES = (READY, RETREATED, ROUTED, DESTROYED)
FOUNDED, TRANSFERRED, CONQUERED = "founded", "transferred", "conquered"  # a city's status this turn


@dataclass
class Nation:
    """One nation: its leader (the player), seat at the table, capital and government, balances,
    technologies (key -> the turn it was learned) and standing (missed turns, AFK)."""

    name: str
    leader: str = ""
    seat: int = 0
    capital: str = ""
    government: str = ""  # key in «Правила — Правления»; "" before the first
    power: int = 0
    coins: int = 0
    science: int = 0
    vp_honesty: int = 1
    vp_tech: int = 0
    techs: dict[str, int] = field(default_factory=dict)
    spies: int = 0
    missed: int = 0
    excused: bool = False
    ai: bool = False
    row: int = 0  # sheet row, for messages
    resources: list[str] = field(default_factory=list)  # special resources held (keys of «Правила — Ресурсы»)
    stolen: dict[str, int] = field(default_factory=dict)  # tech -> the turn it costs half (a spy stole it)


@dataclass
class Tile:
    """One hex of the map: its terrain, a village not yet explored, a special resource."""

    hex: Hex
    terrain: str
    village: bool = False
    resource: str = ""


class CityEdits:
    """How many edits have moved a city in `World`'s indexes, in any world: a city's name, owner or
    hex set (a new city too), an entry of a `Cities` dict set or removed.  An index remembers the
    count it was built at and is rebuilt when the count moved on."""

    count = 0

    @classmethod
    def bump(cls) -> None:
        cls.count += 1


_INDEXED = frozenset({"name", "nation", "hex"})  # what World's city indexes are keyed by


@dataclass
class City:
    """A city: its owner and hex, population, buildings, stored hammers, wonders, this turn's status
    (founded / transferred / conquered: it skips activation), a counter-spy and its activation rank.
    Setting its name, owner or hex counts as an edit (`CityEdits`): World's indexes are rebuilt."""

    name: str
    nation: str
    hex: Hex
    population: int = 1
    buildings: list[str] = field(default_factory=list)
    hammers: int = 0
    wonders: list[str] = field(default_factory=list)
    status: str = ""
    counter_spy: bool = False
    row: int = 0

    def __setattr__(self, key: str, value: object) -> None:
        if key in _INDEXED:
            CityEdits.bump()
        object.__setattr__(self, key, value)


class Cities(dict[str, City]):
    """`World.cities`: a dict of cities by name whose every change counts as an edit (`CityEdits`),
    so that `World`'s indexes are rebuilt after it, whoever made it."""

    def __setitem__(self, key: str, value: City) -> None:
        CityEdits.bump()
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        CityEdits.bump()
        super().__delitem__(key)

    def __ior__(self, other: Any) -> Cities:  # type: ignore[override,misc]
        CityEdits.bump()
        return super().__ior__(other)

    def pop(self, *args: Any) -> Any:
        CityEdits.bump()
        return super().pop(*args)

    def popitem(self) -> tuple[str, City]:
        CityEdits.bump()
        return super().popitem()

    def setdefault(self, key: str, default: City) -> City:  # type: ignore[override]
        CityEdits.bump()
        return super().setdefault(key, default)

    def update(self, *args: Any, **kw: City) -> None:
        CityEdits.bump()
        super().update(*args, **kw)

    def clear(self) -> None:
        CityEdits.bump()
        super().clear()


@dataclass
class _CityIndex:
    """The indexes of one world's cities at one `CityEdits.count`, each in the order of
    `World.cities`: a nation's cities, the cities on a hex (with their place in that order), the
    key of the first city of a normalised name."""

    at: int
    by_nation: dict[str, list[City]]
    by_hex: dict[Hex, list[tuple[int, City]]]
    by_name: dict[str, str]

    @classmethod
    def of(cls, cities: dict[str, City]) -> _CityIndex:
        out = cls(CityEdits.count, {}, {}, {})
        for i, (key, c) in enumerate(cities.items()):
            out.by_nation.setdefault(c.nation, []).append(c)
            out.by_hex.setdefault(c.hex, []).append((i, c))
            out.by_name.setdefault(norm(key), key)
        return out


@dataclass
class Card:
    """One unit in a nation's army deck (CIV-COMBAT-01): its type and state."""

    unit: str  # key in «Правила — Войска»
    state: str = READY


@dataclass
class Deck:
    """A nation's ordered army deck and the next card to draw (a full circle starts a new deck)."""

    cards: list[Card] = field(default_factory=list)
    next: int = 0


@dataclass
class Spy:
    """One spy: where it is («» at home, or a city as a counter-spy) and whether it was used this
    turn (a counter-spy of the cities stage cannot spy in the next state stage: CIV-SPY-03)."""

    nation: str
    number: int
    where: str = ""
    busy: bool = False


@dataclass
class Treaty:
    """A guarantee the GM records (CIV-DIPLO-02/03): valid this turn and the next."""

    turn: int
    parties: tuple[str, ...]
    kind: str
    until: int
    breached_by: str = ""


@dataclass
class Intention:
    """A wonder announced in the state stage (CIV-WONDER-01): who, in which city, which wonder."""

    nation: str
    city: str
    wonder: str


@dataclass
class World:
    """Everything the rules need at the open window."""

    title: str
    turn: int
    stage: str  # the calendar's stage key: "state" | "cities"
    lang: str = "ru"
    secret: str = ""
    campaign_id: str = ""
    last_resolved: str = ""  # the cursor key of the last resolved window
    nations: dict[str, Nation] = field(default_factory=dict)
    tiles: dict[Hex, Tile] = field(default_factory=dict)
    cities: dict[str, City] = field(default_factory=Cities)
    decks: dict[str, Deck] = field(default_factory=dict)
    spies: list[Spy] = field(default_factory=list)
    treaties: list[Treaty] = field(default_factory=list)
    intentions: list[Intention] = field(default_factory=list)
    letters: list[tuple[str, str, str]] = field(default_factory=list)  # (from, to, text) of this state stage

    def __setattr__(self, key: str, value: object) -> None:
        if key == "cities" and not isinstance(value, Cities):
            value = Cities(value)  # type: ignore[arg-type]  # a plain dict given: counted from now on
        object.__setattr__(self, key, value)

    def copy(self) -> World:
        """A copy that shares nothing mutable with this world (what `copy.deepcopy` gave, field by
        field: a deepcopy of the whole world was 1.7 s of a turn at 500 nations)."""
        return _copy(
            self,
            nations={k: _copy(n) for k, n in self.nations.items()},
            tiles={h: _copy(t) for h, t in self.tiles.items()},
            cities=Cities((k, _copy(c)) for k, c in self.cities.items()),
            decks={k: _copy(d, cards=[_copy(c) for c in d.cards]) for k, d in self.decks.items()},
            spies=[_copy(s) for s in self.spies],
            treaties=[_copy(t) for t in self.treaties],
            intentions=[_copy(i) for i in self.intentions],
        )

    def seats(self) -> list[str]:
        """The nations in seat order."""
        return sorted(self.nations, key=lambda n: (self.nations[n].seat, n))

    def _index(self) -> _CityIndex:
        """The city indexes, rebuilt when a city or `cities` was edited since they were built."""
        index: _CityIndex | None = self.__dict__.get("_city_index")
        if index is None or index.at != CityEdits.count:
            index = _CityIndex.of(self.cities)
            self.__dict__["_city_index"] = index
        return index

    def cities_of(self, nation: str) -> list[City]:
        """The nation's cities, in the order of `cities`."""
        return list(self._index().by_nation.get(nation, ()))

    def city_at(self, h: Hex) -> City | None:
        """The (first) city on hex `h`."""
        on = self._index().by_hex.get(h)
        return on[0][1] if on else None

    def city_named(self, name: str) -> str | None:
        """The key of the first city named `name` (case, ё and punctuation ignored: rules._find)."""
        return self._index().by_name.get(norm(name))

    def cities_near(self, h: Hex, radius: int) -> list[City]:
        """The cities at most `radius` from `h`, in the order of `cities` (the hexes around `h` are
        looked up, or every city read when there are fewer cities than hexes in the radius)."""
        if radius < 0:
            return []
        if 3 * radius * (radius + 1) + 1 > len(self.cities):
            return [c for c in self.cities.values() if distance(c.hex, h) <= radius]
        by_hex = self._index().by_hex
        return [c for _i, c in sorted(p for d in _disc(h, radius) for p in by_hex.get(d, ()))]

    # the ledger's accounts: a nation's Power, coins, science, VP; a city's hammers as «nation/city»
    def balance(self, side: str, resource: str) -> int:
        if resource == HAMMERS.code:
            return self.cities[side.split("/", 1)[1]].hammers
        n = self.nations[side]
        if resource == POWER.code:
            return n.power
        if resource == COINS.code:
            return n.coins
        if resource == SCIENCE.code:
            return n.science
        if resource == VP.code:
            return n.vp_honesty + n.vp_tech
        raise KeyError(resource)

    def set_balance(self, side: str, resource: str, value: object) -> None:
        v = int(value)  # type: ignore[call-overload]
        if resource == HAMMERS.code:
            self.cities[side.split("/", 1)[1]].hammers = v
            return
        n = self.nations[side]
        if resource == POWER.code:
            n.power = v
        elif resource == COINS.code:
            n.coins = v
        elif resource == SCIENCE.code:
            n.science = v
        elif resource == VP.code:
            n.vp_tech = v - n.vp_honesty
        else:
            raise KeyError(resource)


_SHALLOW = (list, dict, set)  # the containers of the model's dataclasses hold strings, numbers, tuples


def _copy(obj: Any, **changed: object) -> Any:
    """A new dataclass of `obj`'s type, its fields given in `changed` or else copied: a list, dict
    or set field as a new container of the same items (immutable in this model), any other shared."""
    new = object.__new__(type(obj))
    for f in fields(obj):
        if f.name in changed:
            value = changed[f.name]
        else:
            value = getattr(obj, f.name)
            if isinstance(value, _SHALLOW):
                value = type(value)(value)
        object.__setattr__(new, f.name, value)
    if isinstance(new, City):
        CityEdits.bump()
    return new


def _disc(centre: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at most `radius` from `centre`."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield centre[0] + dq, centre[1] + dr
