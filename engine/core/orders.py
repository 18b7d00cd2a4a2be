"""Game-agnostic order plumbing: a raw order row, its result, and status words."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .messages import _
from .tables import Cell


class Status(str, Enum):
    """The outcome of one order row."""

    DONE = "done"  # resolve: fully executed
    PARTIAL = "partial"  # resolve: executed in part (the reason says which part)
    REJECTED = "rejected"  # check or resolve: not executed
    ACCEPTED = "accepted"  # check: would run as written
    HISTORY = "history"  # a row of an earlier turn, left as it is


STATUS_TEXT: dict[str, dict[Status, str]] = {
    "ru": {
        Status.DONE: "выполнен",
        Status.PARTIAL: "частично",
        Status.REJECTED: "отклонён",
        Status.ACCEPTED: "принят",
        Status.HISTORY: "",
    },
    "en": {
        Status.DONE: "done",
        Status.PARTIAL: "partial",
        Status.REJECTED: "rejected",
        Status.ACCEPTED: "accepted",
        Status.HISTORY: "",
    },
}


@dataclass(frozen=True, init=False)
class OrderRow:
    """A player's order row as read from the sheet: cells by field name, with its location and the
    side whose order tab it is in (`side`; `state`, the name the first game gave it, is accepted
    by the constructor and readable as an alias so that older code works unchanged)."""

    tab: str
    row: int
    side: str
    cells: dict[str, Cell]  # plain values: a formula a player typed is here as its text
    columns: dict[str, str] = field(default_factory=dict)  # field -> column letter
    formulas: frozenset[str] = frozenset()  # fields whose cell held a formula (refused as an order)
    cursor: str = ""  # the window the row is read in, by key («3:cities»); '' in a one-stage game

    def __init__(
        self,
        tab: str,
        row: int,
        side: str | None = None,
        cells: dict[str, Cell] | None = None,
        columns: dict[str, str] | None = None,
        formulas: frozenset[str] = frozenset(),
        cursor: str = "",
        *,
        state: str | None = None,
    ) -> None:
        if side is None and state is None:
            raise TypeError("OrderRow needs the side whose order tab the row is in (side=…)")
        if side is not None and state is not None and side != state:
            raise TypeError(f"OrderRow given two sides: side={side!r}, state={state!r}")
        if cells is None:
            raise TypeError("OrderRow needs the row's cells")
        put = object.__setattr__  # frozen: set once, here
        put(self, "tab", tab)
        put(self, "row", row)
        put(self, "side", side if side is not None else state)
        put(self, "cells", cells)
        put(self, "columns", {} if columns is None else columns)
        put(self, "formulas", formulas)
        put(self, "cursor", cursor)

    @property
    def state(self) -> str:
        """The side (the old name, still read by code of before the rename)."""
        return self.side

    @property
    def ref(self) -> str:
        """The row's key in a report: «tab!row», and «tab!row@3:cities» in a staged game, so that a
        row read again in a later window of the same turn is a new order, not the old one."""
        return f"{self.tab}!{self.row}@{self.cursor}" if self.cursor else f"{self.tab}!{self.row}"

    def where(self, fieldname: str) -> str:
        col = self.columns.get(fieldname, "")
        return f"{self.tab}!{col}{self.row}" if col else _("{tab}, строка {row}").format(tab=self.tab, row=self.row)


@dataclass
class OrderResult:
    """What happened to one order row: status, a reason in the campaign's language, the echo."""

    status: Status
    reason: str = ""
    understood: str = ""
