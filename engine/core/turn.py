"""The turn runner and its report: phases in the ruleset's order, one report for the window."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

from .audience import GM, PUBLIC, Audience
from .cursor import Cursor
from .dice import Dice
from .ledger import Accounts, Ledger, LedgerEntry, Resource
from .orders import OrderResult, Status

W = TypeVar("W")
F = TypeVar("F")


@dataclass
class TurnReport(Generic[F]):
    """What a window produced besides the new world: ledger lines, chronicle, order results, and the
    ruleset's own facts of the window (``facts``: a typed record the ruleset declares, through which
    its phases pass data to later phases and to its reports).

    The first argument is the window: a `Cursor` («3:cities»), or a turn number for a one-stage
    game (and for callers of before the windows).  After construction `window` is that cursor and
    `turn` its turn number, so every ledger entry the report posts carries the window."""

    turn: int | Cursor  # given: the window or its turn; kept: the turn number (see `window`)
    lang: str = "ru"
    ledger: Ledger = field(default_factory=Ledger)
    chronicle: list[str] = field(default_factory=list)  # the public lines
    private: dict[str, list[str]] = field(default_factory=dict)  # side -> lines told to that side alone
    gm: list[str] = field(default_factory=list)  # lines told to the GM alone
    results: dict[str, OrderResult] = field(default_factory=dict)  # order ref -> result
    lot: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # for the GM: the turn ran, but look at this
    facts: F = field(kw_only=True)
    window: Cursor | None = field(default=None, kw_only=True)  # never None once made (__post_init__)

    def __post_init__(self) -> None:
        if isinstance(self.turn, Cursor):
            if self.window is not None and self.window != self.turn:
                raise ValueError(f"a report of window {self.turn} given the window {self.window}")
            self.window, self.turn = self.turn, self.turn.turn
        elif self.window is None:
            self.window = Cursor(self.turn)
        elif self.window.turn != self.turn:
            raise ValueError(f"a report of turn {self.turn} given the window {self.window} of another turn")

    def warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    def bind(self, accounts: Accounts) -> None:
        """Give the ledger the world's balances: from now on `post` moves them."""
        self.ledger.accounts = accounts

    def post(
        self,
        resource: Resource,
        side: str,
        phase: str,
        category: str,
        amount: Fraction,
        reason: str,
        order_ref: str = "",
    ) -> LedgerEntry:
        """Move `side`'s balance of `resource` by `amount` and record the line: one step, the only
        way a phase changes a ledgered balance."""
        at = self.window or Cursor(int(self.turn))
        entry = LedgerEntry(at.key(), side, resource.code, phase, category, amount, reason, order_ref)
        return self.ledger.post(entry)

    def tell(self, text: str, to: Audience | str | Iterable[str] | None = None) -> None:
        """Tell a line of the window to its audience: everyone (the chronicle; the default), the GM
        (`GM`), one side (`player(side)` or the side's name) or a set of sides (each gets it in its
        own log, in its own book: the runner writes them, engine/core/runner.py)."""
        if to is None or to == PUBLIC:
            self.chronicle.append(text)
        elif to == GM:
            self.gm.append(text)
        elif isinstance(to, Audience):
            self.private.setdefault(to.side, []).append(text)
        else:
            for side in ([to] if isinstance(to, str) else list(to)):
                self.private.setdefault(side, []).append(text)

    def result(self, ref: str, status: Status, reason: str = "", understood: str = "") -> None:
        prev = self.results.get(ref)
        self.results[ref] = OrderResult(status, reason, understood or (prev.understood if prev else ""))

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.results.values():
            out[r.status.value] = out.get(r.status.value, 0) + 1
        return out


@dataclass(frozen=True)
class Phase(Generic[W]):
    """A named step of the turn: `run(world, orders, dice, rules, report) -> world`."""

    name: str
    run: Callable[..., W]


def run_phases(
    world: W,
    phases: Sequence[Phase[W]],
    orders: Any,
    dice: Dice,
    rules: Any,
    report: TurnReport[F],
    stop_after: str | None = None,
    after_each: Callable[[str, W, TurnReport[F]], None] | None = None,
) -> W:
    """Apply the phases in order; optionally stop after a named phase (previews, tests)."""
    for phase in phases:
        world = phase.run(world, orders, dice, rules, report)
        if after_each is not None:
            after_each(phase.name, world, report)
        if stop_after == phase.name:
            break
    return world
