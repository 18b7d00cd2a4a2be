"""Order types as parse/print pairs: what a player types, and the order it means, both ways.

A game's orders are typed values parsed from a player's row (`OrderRow`).  An `OrderType` also
prints an order back as the row cells a player would type for it, so that parsing the printed
row gives the same order again: `parse(print(o)) == o`.  The pair is what a round-trip test holds
a game to (tests/core/test_order_types.py), what a tool that writes orders for a player (a demo, a
default order for an absent player, a benchmark) can use instead of spelling rows by hand, and it
keeps the parser honest: every order it can make, it can also read.

An order carries the row it was read from; `reparse` reads the printed cells in that row's place,
and `round_trips` compares the two orders but for their rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass, replace
from typing import Any, Protocol, TypeVar, runtime_checkable

from .orders import OrderRow
from .tables import Cell

Context = TypeVar("Context", contravariant=True)  # what a game's parser needs: its names, its rules


@runtime_checkable
class PrintableOrder(Protocol):
    """One order as a game models it: the row it came from and the cells that write it again."""

    @property
    def row(self) -> OrderRow: ...

    def cells(self) -> dict[str, Cell]:
        """The order as the row cells a player would type (field key -> value), in the current
        language: the print half of its type."""
        ...


@runtime_checkable
class OrderType(Protocol[Context]):
    """A game's orders as one parse/print pair, with the classes (`kinds`) it can make."""

    @property
    def kinds(self) -> tuple[type, ...]:
        """Every order class `parse` can return: the kinds a round-trip test must cover."""
        ...

    def parse(self, row: OrderRow, context: Context) -> PrintableOrder:
        """The order `row` means (an InvalidOrder when it means none)."""
        ...

    def print(self, order: PrintableOrder) -> dict[str, Cell]:
        """The cells that parse back to `order`."""
        ...


def reparse(order_type: OrderType[Context], order: PrintableOrder, context: Context) -> PrintableOrder:
    """`order` printed and parsed again, in the place of the row it came from."""
    row = replace(order.row, cells=dict(order_type.print(order)), formulas=frozenset())
    return order_type.parse(row, context)


def without_row(order: PrintableOrder) -> Mapping[str, Any]:
    """The order's own fields, without the row it came from: what two readings must agree on."""
    if not is_dataclass(order):
        raise TypeError(f"{type(order).__name__} is not a dataclass order")
    return {"kind": type(order).__name__, **{f.name: getattr(order, f.name) for f in fields(order) if f.name != "row"}}


def round_trips(order_type: OrderType[Context], order: PrintableOrder, context: Context) -> bool:
    """Whether `order` prints to cells that parse back to the same order."""
    return without_row(reparse(order_type, order, context)) == without_row(order)
