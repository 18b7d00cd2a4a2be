"""The ledger: every change of a treasury (or any counted resource) is one entry."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class LedgerEntry:
    """One line of the ledger. `amount` is signed: income > 0, expense < 0."""

    turn: int
    state: str
    phase: str
    category: str
    amount: Fraction
    reason: str
    order_ref: str = ""  # the order's cell ("<order tab>!5") when an order caused it
    resource: str = "Д"


class Ledger:
    """An append-only list of entries with the sums the balance sheet needs."""

    def __init__(self, entries: Iterable[LedgerEntry] = ()) -> None:
        self.entries: list[LedgerEntry] = list(entries)

    def add(self, entry: LedgerEntry) -> LedgerEntry:
        self.entries.append(entry)
        return entry

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def for_turn(self, turn: int) -> list[LedgerEntry]:
        return [e for e in self.entries if e.turn == turn]

    def total(self, state: str, turn: int | None = None, resource: str = "Д") -> Fraction:
        return sum(
            (
                e.amount
                for e in self.entries
                if e.state == state and e.resource == resource and (turn is None or e.turn == turn)
            ),
            Fraction(0),
        )

    def by_category(self, turn: int, resource: str = "Д") -> dict[str, dict[str, Fraction]]:
        """state -> category -> signed sum, for one turn."""
        out: dict[str, dict[str, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        for e in self.entries:
            if e.turn == turn and e.resource == resource:
                out[e.state][e.category] += e.amount
        return out
