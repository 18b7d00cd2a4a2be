"""The ledger: a balance of a counted resource changes only by posting an entry to it.

A game declares its resources (money, production, food, science, …) as `Resource`s; its world
keeps the balances and lends them to the ledger through `Accounts`.  `Ledger.post` records the
line and moves the balance in one step, so the ledger and the balances cannot drift apart and
there is no second bookkeeping to keep in step: a turn's closing balance is its opening balance
plus the turn's postings, for every side and every resource (`movements`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol


@dataclass(frozen=True)
class Resource:
    """A counted resource of a game: its ledger code (what the ledger's unit column holds), its
    name in each language (lowercase: a title capitalises it), the symbol shown after an amount
    and the decimals worth showing."""

    code: str
    name_ru: str
    name_en: str
    unit: str
    decimals: int = 2

    def name(self, lang: str) -> str:
        """The resource's name in `lang` (Russian for any language without one)."""
        return self.name_en if lang == "en" else self.name_ru

    def title(self, lang: str) -> str:
        """The name as a line or a column begins with it: «Золото», "Gold"."""
        name = self.name(lang)
        return name[:1].upper() + name[1:]


class Accounts(Protocol):
    """Where a game keeps its balances: one number per side (a state, a city, a player) and
    resource code.  Only the ledger calls `set_balance`."""

    def balance(self, side: str, resource: str) -> Fraction: ...

    def set_balance(self, side: str, resource: str, value: Fraction) -> None: ...


class LedgerError(RuntimeError):
    """A posting the ledger cannot make (no accounts to move)."""


@dataclass(frozen=True)
class LedgerEntry:
    """One line of the ledger. `amount` is signed: income > 0, expense < 0; `resource` is the
    code of the resource it moves."""

    turn: int
    state: str
    resource: str
    phase: str
    category: str
    amount: Fraction
    reason: str
    order_ref: str = ""  # the order's cell ("<order tab>!5") when an order caused it


class Ledger:
    """An append-only list of entries, the accounts they move, and the sums reports need."""

    def __init__(self, entries: Iterable[LedgerEntry] = (), accounts: Accounts | None = None) -> None:
        self.entries: list[LedgerEntry] = list(entries)
        self.accounts = accounts

    def post(self, entry: LedgerEntry) -> LedgerEntry:
        """Record `entry` and move its side's balance by its amount: the one way a balance changes."""
        if self.accounts is None:
            raise LedgerError(f"no accounts to post {entry.amount} {entry.resource} to «{entry.state}»")
        now = self.accounts.balance(entry.state, entry.resource)
        self.accounts.set_balance(entry.state, entry.resource, now + entry.amount)
        self.entries.append(entry)
        return entry

    def __iter__(self) -> Iterator[LedgerEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def for_turn(self, turn: int) -> list[LedgerEntry]:
        return [e for e in self.entries if e.turn == turn]

    def of(self, resource: str) -> list[LedgerEntry]:
        """The entries that move `resource`, in posting order."""
        return [e for e in self.entries if e.resource == resource]

    def total(self, state: str, resource: str, turn: int | None = None) -> Fraction:
        """The signed sum of a side's postings of `resource` (of one turn, or all)."""
        return sum(
            (
                e.amount
                for e in self.entries
                if e.state == state and e.resource == resource and (turn is None or e.turn == turn)
            ),
            Fraction(0),
        )

    def by_category(self, turn: int, resource: str) -> dict[str, dict[str, Fraction]]:
        """state -> category -> signed sum of `resource`, for one turn."""
        out: dict[str, dict[str, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        for e in self.entries:
            if e.turn == turn and e.resource == resource:
                out[e.state][e.category] += e.amount
        return out


@dataclass(frozen=True)
class Movement:
    """A side's turn in one resource: what it had, what came in and went out, what it has."""

    opening: Fraction
    income: Fraction
    expenses: Fraction  # positive: the sum of the expense lines without their sign
    closing: Fraction


def movements(
    entries: Iterable[LedgerEntry],
    closing: Accounts,
    sides: Iterable[str],
    resources: Sequence[Resource],
    opening: Accounts | None = None,
) -> dict[str, dict[str, Movement]]:
    """side -> resource code -> its movement, from the turn's entries and the closing balances.

    The opening balance is read from `opening` when given (the world the turn started from),
    else it is the closing one less the postings: the ledger is the only way a balance moves,
    so the two agree."""
    income: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    expenses: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    for e in entries:
        if e.amount > 0:
            income[e.state, e.resource] += e.amount
        else:
            expenses[e.state, e.resource] -= e.amount
    out: dict[str, dict[str, Movement]] = {}
    for side in sides:
        out[side] = {}
        for r in resources:
            end = closing.balance(side, r.code)
            inc, exp = income[side, r.code], expenses[side, r.code]
            start = opening.balance(side, r.code) if opening is not None else end - inc + exp
            out[side][r.code] = Movement(start, inc, exp, end)
    return out
