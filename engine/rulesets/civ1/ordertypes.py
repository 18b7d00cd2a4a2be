"""The orders of «Civilization 1.0» as typed values (spec civ1.md §2, the order vocabulary).

What a row of «Приказы — <нация>» means once parsed (orders.py parses and prints them): names
are kept as the keys of the rules tables (technologies, units, buildings, governments, wonders,
missions) and as the world's names (cities, nations); a hex as (q, r).  The phases validate them
against the world (a city that is not the nation's, a technology out of the pyramid) and answer
each row with a status and reason.  `STAGE_OF` says which stage each order belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.orders import OrderRow

from .hexes import Hex

STATE, CITIES = "state", "cities"  # the calendar's stage keys


@dataclass(frozen=True)
class Explore:
    """Разведка: explore the village on `hex` (CIV-VILLAGE-01)."""

    hex: Hex


@dataclass(frozen=True)
class SendSpy:
    """Шпионаж: a spy on `mission` (a key of «Правила — Шпионаж») into `city` (CIV-SPY-01/02)."""

    mission: str
    city: str


@dataclass(frozen=True)
class Found:
    """Основать город `name` on `hex` (CIV-CITY-01)."""

    hex: Hex
    name: str


@dataclass(frozen=True)
class Upgrade:
    """Улучшить `qty` cards of unit `unit` to `to` (CIV-UNIT-03)."""

    unit: str
    to: str
    qty: int = 1


@dataclass(frozen=True)
class Restore:
    """Восстановить `qty` destroyed cards of `unit`."""

    unit: str
    qty: int = 1


@dataclass(frozen=True)
class Reorganise:
    """Реорганизация: the deck in the new `order` of unit keys (CIV-COMBAT-01)."""

    order: tuple[str, ...]


@dataclass(frozen=True)
class Disband:
    """Распустить `qty` cards of `unit`."""

    unit: str
    qty: int = 1


@dataclass(frozen=True)
class Attack:
    """Атака from the nation's city `origin` on `target` (a city), with ОМП when `wmd` (CIV-COMBAT, CIV-WMD-01)."""

    origin: str
    target: str
    wmd: bool = False


@dataclass(frozen=True)
class Research:
    """Изучить `tech`; `government` switches to it free in the same turn (CIV-TECH-03, CIV-GOV-01)."""

    tech: str
    government: str = ""


@dataclass(frozen=True)
class ChangeGovernment:
    """Сменить правление to `government` (CIV-GOV-01)."""

    government: str


@dataclass(frozen=True)
class AnnounceWonder:
    """Чудо: the intention to build `wonder` in `city` (CIV-WONDER-01)."""

    wonder: str
    city: str


@dataclass(frozen=True)
class Transfer:
    """Передать to nation `to`: `what` is "city" (item: the city), "coins", "resource" (item: it) or
    "power", `qty` of it (CIV-DIPLO-05)."""

    what: str
    to: str
    item: str = ""
    qty: int = 1


@dataclass(frozen=True)
class Activate:
    """Активировать `city` (rows in activation order; CIV-TURN-04)."""

    city: str


@dataclass(frozen=True)
class Work:
    """Обработка: `city` works `hex` for `choice` ∈ hammers | coins | science | growth (CIV-MAP-03)."""

    city: str
    hex: Hex
    choice: str


@dataclass(frozen=True)
class BuildUnit:
    """Войско: `city` builds a card of `unit` (CIV-UNIT-03)."""

    unit: str
    city: str


@dataclass(frozen=True)
class Build:
    """Постройка: `city` builds `building` (CIV-CITY-02)."""

    building: str
    city: str


@dataclass(frozen=True)
class BuildWonder:
    """Строить чудо `wonder` in `city` (only if announced; CIV-WONDER-01)."""

    wonder: str
    city: str


@dataclass(frozen=True)
class CounterSpy:
    """Контршпион: a spy guards `city` (CIV-SPY-03)."""

    city: str


@dataclass(frozen=True)
class UseResource:
    """Ресурс: `city` uses the resource `resource` (CIV-CITY-05)."""

    resource: str
    city: str


@dataclass(frozen=True)
class Convert:
    """Конвертировать `qty` hammers of `city` to `into` ∈ coins | science (CIV-CITY-04)."""

    into: str
    qty: int
    city: str = ""


@dataclass(frozen=True)
class Pass:
    """Нет действий / Пас: the player was here and orders nothing (not a missed turn)."""


Order = (
    Explore | SendSpy | Found | Upgrade | Restore | Reorganise | Disband | Attack | Research | ChangeGovernment
    | AnnounceWonder | Transfer | Activate | Work | BuildUnit | Build | BuildWonder | CounterSpy | UseResource
    | Convert | Pass
)

STAGE_OF: dict[type, str] = {
    **{t: STATE for t in (Explore, SendSpy, Found, Upgrade, Restore, Reorganise, Disband, Attack, Research,
                          ChangeGovernment, AnnounceWonder, Transfer)},
    **{t: CITIES for t in (Activate, Work, BuildUnit, Build, BuildWonder, CounterSpy, UseResource, Convert)},
}


@dataclass(frozen=True)
class Given:
    """One parsed row of a nation's orders for the open stage: the row as read and its order."""

    row: OrderRow
    order: Order
