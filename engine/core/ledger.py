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
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from .cursor import SEP, Cursor


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
    """Where a game keeps its balances: one number per side (a nation, a city, a player) and
    resource code.  Only the ledger calls `set_balance`."""

    def balance(self, side: str, resource: str) -> Fraction: ...

    def set_balance(self, side: str, resource: str, value: Fraction) -> None: ...


class LedgerError(RuntimeError):
    """A posting the ledger cannot make (no accounts to move)."""


def window_key(at: str | int | Cursor) -> str:
    """A window as the ledger keeps it: the cursor's key («3», «3:cities», «12:battle:2»); a turn
    number (a one-stage game's window, or a caller of before the windows) is its own key."""
    if isinstance(at, Cursor):
        return at.key()
    key = str(at).strip()
    head = key.split(SEP, 1)[0]
    if isinstance(at, bool) or not head.isdigit():
        raise ValueError(f"a ledger entry's window is a cursor key such as «3» or «3:cities», not {at!r}")
    return key


@dataclass(frozen=True)
class LedgerEntry:
    """One line of the ledger: the window it was posted in (`window`, the cursor's key, «3:cities»;
    a `Cursor` or a turn number is accepted and kept as its key), the side whose account it moves,
    the code of the resource, and a signed `amount` (income > 0, expense < 0).

    `turn` is the window's turn; `state` is the side by the name the first game gave it (both kept
    readable so that code and sheets of before the windows work unchanged)."""

    window: str
    side: str
    resource: str
    phase: str
    category: str
    amount: Fraction
    reason: str
    order_ref: str = ""  # the order's cell ("<order tab>!5") when an order caused it
    turn: int = field(init=False, compare=False, repr=False)  # the window's turn, kept once

    def __post_init__(self) -> None:
        key = window_key(self.window)
        object.__setattr__(self, "window", key)
        object.__setattr__(self, "turn", int(key.split(SEP, 1)[0]))

    @property
    def state(self) -> str:
        """The side (the old name, still read by code of before the rename)."""
        return self.side


class Ledger:
    """An append-only list of entries, the accounts they move, and the sums reports need."""

    def __init__(self, entries: Iterable[LedgerEntry] = (), accounts: Accounts | None = None) -> None:
        self.entries: list[LedgerEntry] = list(entries)
        self.accounts = accounts

    def post(self, entry: LedgerEntry) -> LedgerEntry:
        """Record `entry` and move its side's balance by its amount: the one way a balance changes."""
        if self.accounts is None:
            raise LedgerError(f"no accounts to post {entry.amount} {entry.resource} to «{entry.side}»")
        now = self.accounts.balance(entry.side, entry.resource)
        self.accounts.set_balance(entry.side, entry.resource, now + entry.amount)
        self.entries.append(entry)
        return entry

    def __iter__(self) -> Iterator[LedgerEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def for_turn(self, turn: int) -> list[LedgerEntry]:
        """The entries of every window of `turn`, in posting order."""
        return [e for e in self.entries if e.turn == turn]

    def for_window(self, at: str | int | Cursor) -> list[LedgerEntry]:
        """The entries of one window (a cursor or its key), in posting order."""
        key = window_key(at)
        return [e for e in self.entries if e.window == key]

    def of(self, resource: str) -> list[LedgerEntry]:
        """The entries that move `resource`, in posting order."""
        return [e for e in self.entries if e.resource == resource]

    def total(self, side: str, resource: str, turn: int | None = None) -> Fraction:
        """The signed sum of a side's postings of `resource` (of one turn, or all)."""
        return sum(
            (
                e.amount
                for e in self.entries
                if e.side == side and e.resource == resource and (turn is None or e.turn == turn)
            ),
            Fraction(0),
        )

    def by_category(self, turn: int, resource: str) -> dict[str, dict[str, Fraction]]:
        """side -> category -> signed sum of `resource`, for one turn."""
        out: dict[str, dict[str, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        for e in self.entries:
            if e.turn == turn and e.resource == resource:
                out[e.side][e.category] += e.amount
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
            income[e.side, e.resource] += e.amount
        else:
            expenses[e.side, e.resource] -= e.amount
    out: dict[str, dict[str, Movement]] = {}
    for side in sides:
        out[side] = {}
        for r in resources:
            end = closing.balance(side, r.code)
            inc, exp = income[side, r.code], expenses[side, r.code]
            start = opening.balance(side, r.code) if opening is not None else end - inc + exp
            out[side][r.code] = Movement(start, inc, exp, end)
    return out
