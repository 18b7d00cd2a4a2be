"""The typed world of «Civilization 1.0» (spec civ1.md §2): nations, the hex map, cities, the
army decks, spies, treaties and wonder intentions, and the open window.

Plain dataclasses, read from the sheet by the codec and written back by it; the phases change a
copy.  Balances (Власть, монеты, наука, ПО per nation; молотки per city) change only by ledger
postings: `World` is the ledger's `Accounts` (engine/core/ledger.py).

The phases ask for a nation's cities, the city on a hex or of a name, once per nation or per order:
a scan of every city each time made a turn quadratic in the nations (issue 18 point 9).  `World`
keeps those indexes and brings them up to date lazily: `World.cities` is a `Cities` dict that logs
its changes, and a `City` logs the changes of its owner and hex (`CityEdits`), so that code which
edits the dict or a city directly (a phase, a hook, a test) never reads a stale index.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

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


SET, DEL, RESET, MOVED = "set", "del", "reset", "moved"  # the kinds of `CityEdits`


class CityEdits:
    """The log of the edits that move a city in `World`'s indexes, in every world: an entry of a
    `Cities` dict set or removed (`SET`, `DEL`; any other change of the dict is a `RESET`), and an
    existing city's owner or hex set (`MOVED`).  An index remembers how far it had read and replays
    the edits since then (those of its own world), or is rebuilt when they are no longer kept."""

    log: ClassVar[list[tuple[Any, ...]]] = []
    base = 0  # the number of the log's first kept edit
    KEEP = 4096

    @classmethod
    def count(cls) -> int:
        return cls.base + len(cls.log)

    @classmethod
    def add(cls, *edit: Any) -> None:
        cls.log.append(edit)
        if len(cls.log) > 2 * cls.KEEP:
            del cls.log[: cls.KEEP]
            cls.base += cls.KEEP

    @classmethod
    def since(cls, at: int) -> list[tuple[Any, ...]] | None:
        """The edits from number `at` on, None when some of them are no longer kept."""
        return None if at < cls.base else cls.log[at - cls.base:]


_INDEXED = frozenset({"nation", "hex"})  # the city fields World's indexes are keyed by


@dataclass
class City:
    """A city: its owner and hex, population, buildings, stored hammers, wonders, this turn's status
    (founded / transferred / conquered: it skips activation), a counter-spy and its activation rank.
    Setting the owner or hex of a city is logged (`CityEdits`) for World's indexes."""

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
        if key in _INDEXED and key in self.__dict__:  # not while the city is made: no index holds it yet
            CityEdits.add(MOVED, self, key, value)
        object.__setattr__(self, key, value)


class Cities(dict[str, City]):
    """`World.cities`: a dict of cities by name whose every change is logged (`CityEdits`), so that
    `World`'s indexes follow it, whoever made the change."""

    def __setitem__(self, key: str, value: City) -> None:
        CityEdits.add(SET, self, key, value)
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        CityEdits.add(DEL, self, key)
        super().__delitem__(key)

    def pop(self, key: str, *default: Any) -> Any:  # type: ignore[override]
        CityEdits.add(DEL, self, key)
        return super().pop(key, *default)

    def __ior__(self, other: Any) -> Cities:  # type: ignore[override,misc]
        CityEdits.add(RESET, self)
        return super().__ior__(other)  # type: ignore[no-any-return]

    def popitem(self) -> tuple[str, City]:
        CityEdits.add(RESET, self)
        return super().popitem()

    def setdefault(self, key: str, default: City) -> City:  # type: ignore[override]
        CityEdits.add(RESET, self)
        return super().setdefault(key, default)

    def update(self, *args: Any, **kw: City) -> None:
        CityEdits.add(RESET, self)
        super().update(*args, **kw)

    def clear(self) -> None:
        CityEdits.add(RESET, self)
        super().clear()


class _CityIndex:
    """One world's city indexes, in the order of its `cities`: a nation's cities, the cities on a
    hex, the keys of a normalised name, each as (place, city or key) sorted by the place in that
    order; `filed` says where each key's city was filed, so that an edit moves it."""

    def __init__(self, cities: Cities) -> None:
        self.cities = cities
        self.at = CityEdits.count()
        self.by_nation: dict[str, list[tuple[int, City]]] = {}
        self.by_hex: dict[Hex, list[tuple[int, City]]] = {}
        self.by_name: dict[str, list[tuple[int, str]]] = {}
        self.filed: dict[str, tuple[int, City, str, Hex]] = {}  # key -> (place, city, nation, hex)
        self.key_of: dict[int, str] = {}  # id(city) -> its key (the index holds the city: ids stay unique)
        self.places = 0
        self.shared = False  # one city under two keys: every edit rebuilds
        for key, city in cities.items():
            self._file(key, city, self._place(), city.nation, city.hex)

    def _place(self) -> int:
        self.places += 1
        return self.places

    def _file(self, key: str, city: City, place: int, nation: str, h: Hex) -> None:
        insort(self.by_nation.setdefault(nation, []), (place, city))
        insort(self.by_hex.setdefault(h, []), (place, city))
        insort(self.by_name.setdefault(norm(key), []), (place, key))
        self.filed[key] = (place, city, nation, h)
        self.shared = self.shared or id(city) in self.key_of
        self.key_of[id(city)] = key

    def _unfile(self, key: str) -> int:
        place, city, nation, h = self.filed.pop(key)
        _drop(self.by_nation, nation, place)
        _drop(self.by_hex, h, place)
        _drop(self.by_name, norm(key), place)
        del self.key_of[id(city)]
        return place

    def replay(self, edits: list[tuple[Any, ...]]) -> bool:
        """Apply `edits` (those of other worlds are skipped); False when the index must be rebuilt."""
        for edit in edits:
            kind = edit[0]
            if kind == MOVED:
                _kind, city, what, value = edit
                key = self.key_of.get(id(city))
                if key is None or self.filed[key][1] is not city:
                    continue  # not a city of this world
                if self.shared:
                    return False
                _place, _city, nation, h = self.filed[key]
                place = self._unfile(key)
                self._file(key, city, place, value if what == "nation" else nation, value if what == "hex" else h)
            elif edit[1] is not self.cities:
                continue
            elif kind == RESET or self.shared:
                return False
            elif kind == SET:
                key, city = edit[2], edit[3]
                place = self._unfile(key) if key in self.filed else self._place()  # a replaced key keeps its place
                self._file(key, city, place, city.nation, city.hex)
            elif kind == DEL and edit[2] in self.filed:
                self._unfile(edit[2])
        return True


def _drop(index: dict[Any, list[tuple[int, Any]]], key: Any, place: int) -> None:
    """Remove the entry at `place` from `index[key]` (and the list once empty)."""
    entries = index[key]
    del entries[bisect_left(entries, (place,))]
    if not entries:
        del index[key]


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

    def __getstate__(self) -> dict[str, Any]:
        """What copy.deepcopy and pickle keep: the fields, not the city indexes (a copied index
        would know the cities of this world by their ids; the copy builds its own)."""
        return {k: v for k, v in self.__dict__.items() if k != _INDEX}

    def _index(self) -> _CityIndex:
        """The city indexes, brought up to date with the edits logged since they were last read."""
        index: _CityIndex | None = self.__dict__.get(_INDEX)
        now = CityEdits.count()
        if index is not None and index.cities is self.cities and index.at != now:
            edits = CityEdits.since(index.at)
            if edits is not None and index.replay(edits):
                index.at = now
            else:
                index = None
        if index is None or index.cities is not self.cities:
            index = _CityIndex(self.cities)  # type: ignore[arg-type]
            self.__dict__[_INDEX] = index
        return index

    def cities_of(self, nation: str) -> list[City]:
        """The nation's cities, in the order of `cities`."""
        return [c for _place, c in self._index().by_nation.get(nation, ())]

    def city_at(self, h: Hex) -> City | None:
        """The (first) city on hex `h`."""
        on = self._index().by_hex.get(h)
        return on[0][1] if on else None

    def city_named(self, name: str) -> str | None:
        """The key of the first city named `name` (case, ё and punctuation ignored: rules._find)."""
        keys = self._index().by_name.get(norm(name))
        return keys[0][1] if keys else None

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


def _copy(obj: Any, **changed: object) -> Any:
    """A new object of `obj`'s dataclass with its fields, `changed` set and, of the others, every
    list, dict or set a new container of the same items (immutable in this model: strings, numbers,
    tuples); no index is copied along."""
    new = object.__new__(type(obj))
    state = {k: v.copy() if type(v) in _SHALLOW else v for k, v in obj.__dict__.items() if k != _INDEX}
    state.update(changed)
    new.__dict__.update(state)
    return new


_SHALLOW = (list, dict, set)
_INDEX = "_city_index"  # World's cache of its city indexes (not a field)


def _disc(centre: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at most `radius` from `centre`."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield centre[0] + dq, centre[1] + dr
