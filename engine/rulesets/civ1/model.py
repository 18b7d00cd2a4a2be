"""The typed world of «Civilization 1.0» (spec civ1.md §2): nations, the hex map, cities, the
army decks, spies, treaties and wonder intentions, and the open window.

Plain dataclasses, read from the sheet by the codec and written back by it; the phases change a
copy.  Balances (Власть, монеты, наука, ПО per nation; молотки per city) change only by ledger
postings: `World` is the ledger's `Accounts` (engine/core/ledger.py).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .hexes import Hex
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


@dataclass
class City:
    """A city: its owner and hex, population, buildings, stored hammers, wonders, this turn's status
    (founded / transferred / conquered: it skips activation), a counter-spy and its activation rank."""

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
    cities: dict[str, City] = field(default_factory=dict)
    decks: dict[str, Deck] = field(default_factory=dict)
    spies: list[Spy] = field(default_factory=list)
    treaties: list[Treaty] = field(default_factory=list)
    intentions: list[Intention] = field(default_factory=list)
    letters: list[tuple[str, str, str]] = field(default_factory=list)  # (from, to, text) of this state stage

    def copy(self) -> World:
        return copy.deepcopy(self)

    def seats(self) -> list[str]:
        """The nations in seat order."""
        return sorted(self.nations, key=lambda n: (self.nations[n].seat, n))

    def cities_of(self, nation: str) -> list[City]:
        return [c for c in self.cities.values() if c.nation == nation]

    def city_at(self, h: Hex) -> City | None:
        return next((c for c in self.cities.values() if c.hex == h), None)

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
