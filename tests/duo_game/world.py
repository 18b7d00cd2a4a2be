"""The game's world as its tabs hold it: each side's stocks, read from and written to tabs.

The GM's book holds every tab, so the world is read whole there; each stock tab belongs to its
side's player alone (engine/core/audience.py), which is what hides a side's grain from the other."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from engine.core.errors import CampaignError
from engine.core.tables import Grid, Tables, is_blank

from .words import RANKING_HEADER, RESOURCES, SIDES, STOCK_HEADER, stock_tab


@dataclass
class Stocks:
    """Every side's balance of every resource: the `Accounts` the ledger moves (the one way they change)."""

    values: dict[tuple[str, str], Fraction] = field(default_factory=dict)

    def balance(self, side: str, resource: str) -> Fraction:
        return self.values.get((side, resource), Fraction(0))

    def set_balance(self, side: str, resource: str, value: Fraction) -> None:
        self.values[side, resource] = value

    def copy(self) -> Stocks:
        return Stocks(dict(self.values))

    def of(self, side: str, resource: str) -> int:
        """A balance as the sheets show it (whole units)."""
        return int(self.balance(side, resource))


def read(tables: Tables, sides: Iterable[str] = SIDES) -> Stocks:
    """The stocks of every side from its stock tab; a CampaignError names a tab or cell gone wrong."""
    out = Stocks()
    for side in sides:
        tab = stock_tab(side)
        grid = tables.get(tab)
        if grid is None:
            raise CampaignError(f"нет листа «{tab}»: запасов стороны {side} не найти")
        for resource in RESOURCES:
            row = next((r for r in grid[1:] if r and r[0] == resource.name_ru), None)
            value = row[1] if row is not None and len(row) > 1 else None
            if is_blank(value) or not isinstance(value, (int, float)):
                raise CampaignError(f"лист «{tab}»: у ресурса «{resource.name_ru}» нет числа (там {value!r})")
            out.set_balance(side, resource.code, Fraction(value).limit_denominator())
    return out


def stock_grid(stocks: Stocks, side: str) -> Grid:
    """A side's stock tab."""
    return [list(STOCK_HEADER), *[[r.name_ru, stocks.of(side, r.code)] for r in RESOURCES]]


def ranking_grid(stocks: Stocks, sides: Iterable[str] = SIDES) -> Grid:
    """The public ranking: sides by gold, richest first (grain is nobody else's business)."""
    order = sorted(sides, key=lambda s: (-stocks.of(s, "gold"), s))
    return [list(RANKING_HEADER), *[[i, s, stocks.of(s, "gold")] for i, s in enumerate(order, start=1)]]
