"""The orders of one turn, grouped by state, each parsed or with the reason it could not be."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.orders import OrderRow

from .orders import Order


@dataclass
class TurnOrders:
    """state -> its order rows in sheet order; `parsed[ref]` is an Order or an error text."""

    rows: dict[str, list[OrderRow]] = field(default_factory=dict)
    parsed: dict[str, Order | str] = field(default_factory=dict)

    def of(self, state: str) -> list[tuple[OrderRow, Order | str]]:
        return [(r, self.parsed[r.ref]) for r in self.rows.get(state, [])]

    def sent(self, state: str) -> bool:
        """Did the state send orders this turn (an explicit «no actions» counts)?"""
        return bool(self.rows.get(state))
