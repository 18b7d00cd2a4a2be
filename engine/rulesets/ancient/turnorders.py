"""The orders of one turn as the core's window runner hands them to the phases (engine/core/runner.py):
state -> its rows read as orders (`Given`: the row and its `Order`), in sheet order. A row that could
not be read is not among them: the runner refused it in words before any phase ran. Who sent rows
at all (understood or not) is `TurnFacts.sent`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

from engine.core.orders import OrderRow
from engine.core.runner import Given

from .orders import Order

Orders: TypeAlias = Mapping[str, Sequence[Given[Order]]]


def of(orders: Orders, state: str) -> list[tuple[OrderRow, Order]]:
    """`state`'s rows read as orders this turn, each with its order, in sheet order."""
    return [(g.row, g.order) for g in orders.get(state, ())]
