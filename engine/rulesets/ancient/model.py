"""The typed campaign of the ancient-world game: states, provinces, the map."""

from __future__ import annotations

import dataclasses
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction

from .resources import MONEY, SCIENCE
from .vocab import STRATA

BARBARIANS = "Варвары"


@dataclass
class State:
    """A state (player or AI) with its treasury and standing."""

    name: str
    government: str  # key in the governments rules table
    capital: str
    stability: int = 0
    treasury: Fraction = Fraction(0)
    science: Fraction = Fraction(0)
    techs: list[str] = field(default_factory=list)
    player: str = ""
    path: str = "eastern"
    ai: bool = False
    missed: int = 0
    excused: bool = False  # the GM excused this turn's missing orders
    famine: int = 0  # turns of famine in a row, up to the last resolved turn
    peace: int = 0  # turns in a row at peace without famine (the empire's stability clock)
    armed: int = 0  # aristocrats gained during the game: already armed for heavy cavalry (ANC-STRATA-17)
    color: str = ""
    row: int = 0  # sheet row, for messages


@dataclass
class Province:
    """A province: owner ('' for grey/neutral), geography, buildings and people by stratum."""

    name: str
    owner: str
    terrain: str
    specialisation: str
    coastal: bool = False
    sea_zones: tuple[int, ...] = ()
    buildings: list[str] = field(default_factory=list)
    population: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STRATA, 0))
    row: int = 0

    def people(self) -> int:
        return sum(self.population.values())


@dataclass(frozen=True)
class Border:
    """A land border between two provinces (land, river or strait)."""

    a: str
    b: str
    kind: str = "land"
    strait: str = ""


@dataclass(frozen=True)
class SeaZone:
    zone: int
    name: str = ""
    neighbours: tuple[int, ...] = ()


@dataclass
class Army:
    """A land army: units by type, standing in a province."""

    name: str
    state: str
    province: str
    units: dict[str, int] = field(default_factory=dict)
    row: int = 0

    def size(self) -> int:
        return sum(self.units.values())


@dataclass
class Fleet:
    """A squadron in a sea zone, with the land units it carries."""

    name: str
    state: str
    zone: int
    ships: dict[str, int] = field(default_factory=dict)
    cargo: dict[str, int] = field(default_factory=dict)
    row: int = 0

    def size(self) -> int:
        return sum(self.ships.values())


@dataclass
class Relation:
    """war | peace | alliance between two states; vassal: `a` is the suzerain of `b`."""

    a: str
    b: str
    kind: str
    since: int = 0


@dataclass
class Route:
    """A standing trade route (ANC-TRADE-02): the caravan's province sells a good to the fair's."""

    seller: str
    src: str
    good: str
    dst: str
    buyer: str
    since: int = 0
    distance: int = 0
    path: str = ""
    status: str = ""
    seller_income: Fraction = Fraction(0)
    buyer_income: Fraction = Fraction(0)
    row: int = 0


@dataclass(frozen=True)
class GMEvent:
    """An event the GM placed by hand for a turn (tab «События ведущего»)."""

    turn: int
    event: str
    target: str
    row: int = 0


@dataclass
class Campaign:
    """Everything the rules need about one campaign at the start of a turn."""

    title: str
    turn: int
    lang: str = "ru"
    scenario: str = ""
    secret: str = ""  # never written to a cell: the GM's secret store has it (sheets_bridge/secrets.py)
    campaign_id: str = ""
    last_resolved: int = 0
    states: dict[str, State] = field(default_factory=dict)
    provinces: dict[str, Province] = field(default_factory=dict)
    borders: list[Border] = field(default_factory=list)
    seas: dict[int, SeaZone] = field(default_factory=dict)
    gm_events: list[GMEvent] = field(default_factory=list)
    armies: dict[str, Army] = field(default_factory=dict)
    fleets: dict[str, Fleet] = field(default_factory=dict)
    relations: list[Relation] = field(default_factory=list)
    routes: list[Route] = field(default_factory=list)
    transit: set[tuple[str, str]] = field(default_factory=set)  # (owner, granted to)
    _neighbours: dict[str, set[str]] | None = field(default=None, repr=False, compare=False)

    def balance(self, side: str, resource: str) -> Fraction:
        """The ledger's view of a state's treasury or science (engine.core.ledger.Accounts)."""
        state = self.states[side]
        if resource == MONEY.code:
            return state.treasury
        if resource == SCIENCE.code:
            return state.science
        raise KeyError(resource)

    def set_balance(self, side: str, resource: str, value: Fraction) -> None:
        """Only the ledger calls this: a posting moves the balance (engine.core.ledger.Accounts)."""
        state = self.states[side]
        if resource == MONEY.code:
            state.treasury = value
        elif resource == SCIENCE.code:
            state.science = value
        else:
            raise KeyError(resource)

    def copy(self) -> Campaign:
        """A working copy for a turn: every mutable part copied, the immutable map shared.
        (copy.deepcopy would do, three times slower on a big campaign.)"""
        rep = dataclasses.replace
        return rep(
            self,
            states={k: rep(s, techs=list(s.techs)) for k, s in self.states.items()},
            provinces={
                k: rep(p, buildings=list(p.buildings), population=dict(p.population)) for k, p in self.provinces.items()
            },
            borders=list(self.borders),
            seas=dict(self.seas),
            gm_events=list(self.gm_events),
            armies={k: rep(a, units=dict(a.units)) for k, a in self.armies.items()},
            fleets={k: rep(f, ships=dict(f.ships), cargo=dict(f.cargo)) for k, f in self.fleets.items()},
            relations=[rep(r) for r in self.relations],
            routes=[rep(r) for r in self.routes],
            transit=set(self.transit),
            _neighbours=None,
        )

    def neighbours(self, province: str) -> set[str]:
        """Provinces sharing a land border (rivers and straits included)."""
        if self._neighbours is None:
            graph: dict[str, set[str]] = {p: set() for p in self.provinces}
            for b in self.borders:
                graph.setdefault(b.a, set()).add(b.b)
                graph.setdefault(b.b, set()).add(b.a)
            self._neighbours = graph
        return self._neighbours.get(province, set())

    def within(self, province: str, steps: int) -> dict[str, int]:
        """Provinces reachable over land borders in at most `steps`, with their distance."""
        dist = {province: 0}
        queue = deque([province])
        while queue:
            p = queue.popleft()
            if dist[p] >= steps:
                continue
            for n in self.neighbours(p):
                if n not in dist:
                    dist[n] = dist[p] + 1
                    queue.append(n)
        return dist

    def relation(self, a: str, b: str) -> Relation | None:
        """The relation of two states (indexed; the index follows any new relations list)."""
        key = (id(self.relations), len(self.relations))
        cached = self.__dict__.get("_relation_index")
        if cached is None or cached[0] != key:
            index: dict[frozenset[str], Relation] = {}
            for r in self.relations:
                index.setdefault(frozenset((r.a, r.b)), r)
            cached = (key, index)
            self.__dict__["_relation_index"] = cached
        return cached[1].get(frozenset((a, b)))

    def at_war(self, a: str, b: str) -> bool:
        """Barbarians («Варвары») are at war with everybody."""
        if a == b:
            return False
        if BARBARIANS in (a, b):
            return True
        r = self.relation(a, b)
        return r is not None and r.kind == "war"

    def enemies(self, state: str) -> list[str]:
        key = (id(self.relations), len(self.relations))
        cached = self.__dict__.get("_enemy_index")
        if cached is None or cached[0] != key:
            index: dict[str, set[str]] = {}
            for r in self.relations:
                if r.kind == "war":
                    index.setdefault(r.a, set()).add(r.b)
                    index.setdefault(r.b, set()).add(r.a)
            cached = (key, index)
            self.__dict__["_enemy_index"] = cached
        return sorted(cached[1].get(state, ()))

    def allied(self, a: str, b: str) -> bool:
        if a == b:
            return True
        r = self.relation(a, b)
        return r is not None and r.kind in ("alliance", "vassal")

    def border(self, a: str, b: str) -> Border | None:
        """The border between two provinces (indexed on first use: borders do not change in a turn)."""
        index = self.__dict__.get("_border_index")
        if index is None or len(index) != 2 * len(self.borders):
            index = {}
            for x in self.borders:
                index[(x.a, x.b)] = index[(x.b, x.a)] = x
            self.__dict__["_border_index"] = index
        return index.get((a, b))

    def by_owner(self) -> dict[str, list[Province]]:
        """Provinces grouped by owner (computed afresh: owners change during a turn)."""
        out: dict[str, list[Province]] = {name: [] for name in self.states}
        for p in self.provinces.values():
            if p.owner:
                out.setdefault(p.owner, []).append(p)
        return out

    def is_capital(self, province: Province) -> bool:
        owner = self.states.get(province.owner)
        return owner is not None and owner.capital == province.name
