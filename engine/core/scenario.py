"""The conformance-scenario runner, for every game: a setup, orders in players' notation, results.

A scenario (docs/scenarios.md, tests/scenarios/<ruleset>/*.yaml) is a GM's case for a ruling.
`run` plays it through the real path — the ruleset's own `check`/`resolve` on the campaign's
tables, the changeset applied by `apply_changes` as a backend would — and compares each turn with
its expectations.  What every game has is checked here: the command's error, the order rows'
status, reason and echo, the chronicle, the warnings, the ledger per resource and the balance
sheet against it, the open cursor, an unchanged workbook.  What is one game's own (its states,
provinces, armies…) goes to the ruleset's `scenario.expect`.  The ruleset also builds the
starting tables (`scenario.tables`), writes the orders (`scenario.orders`) and reads back what
the turn wrote (`scenario.readback`), since tab layouts are the game's.

The failure texts are a GM's test output in Russian, the language the scenarios are written in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from . import meta
from . import window as windows
from .cursor import Cursor, CursorError
from .errors import StrategosError, TurnMismatch
from .ledger import LedgerEntry
from .messages import _
from .money import amount
from .orders import STATUS_TEXT
from .tables import Tables, apply_changes

if TYPE_CHECKING:  # the Protocol's module imports this one for its hooks' types
    from .ruleset import Ruleset, SyncResult

FIXED_SECRET = "scenario-secret"  # the campaign secret of a scenario that names none: fixes every roll
# the expectation keys this runner checks; any other key of `expect` is the ruleset's
GENERIC_KEYS = frozenset(
    {
        "error",
        "orders",
        "ledger",
        "no_ledger_for",
        "balance_equals_ledger",
        "chronicle_contains",
        "chronicle_excludes",
        "warnings_contains",
        "no_warnings",
        "open_turn",
        "unchanged",
    }
)


@dataclass
class ScenarioOutcome:
    """What one conformance scenario found: its failures, empty when everything matched."""

    failures: list[str] = field(default_factory=list)

    def expect(self, ok: bool, message: str) -> None:
        """Record `message` as a failure unless `ok`."""
        if not ok:
            self.failures.append(message)


@dataclass(frozen=True)
class ShownOrder:
    """One order row of the judged turn as the order tab shows it after check or resolve."""

    status: str  # the status word, in the campaign's language
    reason: str = ""
    understood: str = ""  # the echo («Понято как»)


@dataclass(frozen=True)
class Balance:
    """One side's balance of one resource as the game's balance sheet shows it for the turn, and
    as its world holds it (`held`; None when the world does not hold this side)."""

    opening: Fraction
    closing: Fraction
    held: Fraction | None


@dataclass
class Readback:
    """What the judged turn left in the tables, in the core's terms (read by the ruleset, whose
    tabs they are): the order rows per side, in row order; the turn's chronicle lines and ledger
    entries; side -> resource code -> balance (empty when the game shows none)."""

    orders: dict[str, list[ShownOrder]]
    chronicle: list[str]
    ledger: list[LedgerEntry]
    balances: dict[str, dict[str, Balance]] = field(default_factory=dict)


def run(ruleset: Ruleset, data: Mapping[str, Any]) -> ScenarioOutcome:
    """Play every turn of the scenario `data` (a loaded YAML file) with `ruleset` and compare it
    with its expectations; the outcome lists every mismatch."""
    out = ScenarioOutcome()
    setup: Mapping[str, Any] = data.get("setup") or {}
    secret = str(setup.get("secret", FIXED_SECRET))  # the GM's store, in memory
    tables = ruleset.scenario.tables(setup)
    for n, turn in enumerate(data.get("turns") or [], start=1):
        tables = ruleset.scenario.orders(tables, turn.get("orders") or {})
        expect: Mapping[str, Any] = turn.get("expect") or {}
        try:
            check = turn.get("mode", "resolve") == "check"
            window = _window(ruleset, tables, turn.get("turn"), refuse=not check)
            if check:
                result = ruleset.check(tables, expect=window) if window is not None else ruleset.check(tables)
            else:
                asked = turn.get("turn")
                if window is None and asked is not None:  # a turn number: that turn's open window, or refused
                    window = windows.asked(ruleset.calendar, meta.open_cursor(tables, ruleset.calendar), int(asked),
                                           None, resolving=True)
                result = ruleset.resolve(tables, window, secret=secret)
        except StrategosError as exc:
            want = expect.get("error")
            out.expect(bool(want) and str(want) in str(exc), f"ход {n}: ошибка {exc}")
            continue
        out.expect("error" not in expect, f"ход {n}: ожидалась ошибка {expect.get('error')!r}, её нет")
        before = tables
        tables = apply_changes(tables, result.changes)
        out.failures.extend(check_turn(ruleset, expect, before, tables, result, n))
    return out


def _window(ruleset: Ruleset, tables: Tables, asked: Any, refuse: bool) -> Cursor | None:
    """The window a turn entry names as text («1:торг», "3:cities"). With `refuse` (a resolve) one
    that is not open is refused as `strategos resolve --stage` refuses it; a check is told the
    window and refuses it itself. None for a number or nothing (a one-stage turn, or no window
    asked): the ruleset is called as before."""
    if not isinstance(asked, str):
        return None
    wanted = ruleset.calendar.parse(asked)
    open_ = meta.open_cursor(tables, ruleset.calendar)
    if refuse and wanted != open_:
        raise TurnMismatch(_("Открыт ход «{open}», а просили разрешить «{wanted}». Ничего не изменено.").format(
            open=ruleset.calendar.format(open_), wanted=ruleset.calendar.format(wanted)))
    return wanted


def _same_window(ruleset: Ruleset, got: Cursor, want: Any) -> bool:
    """Whether the open cursor `got` is the window `want` names: its key («1:trade»), its words in
    either language («1:торг»), or a turn number."""
    try:
        return ruleset.calendar.parse(want) == got
    except CursorError:
        return str(got) == str(want)


def check_turn(
    ruleset: Ruleset, expect: Mapping[str, Any], before: Tables, after: Tables, result: SyncResult, n: int = 1
) -> list[str]:
    """Every expectation of turn `n` of a scenario against the tables `after` it (`before`: the
    tables it was judged on): the game's own (`scenario.expect`) and the generic ones.  Also for a
    turn resolved elsewhere — by the CLI on a workbook, read back (the golden workbooks' test)."""
    out = ScenarioOutcome()
    for message in ruleset.scenario.expect(expect, after, result):
        out.expect(False, f"ход {n}: {message}")
    _check(out, n, ruleset, expect, before, after, result)
    return out.failures


def _check(
    out: ScenarioOutcome,
    n: int,
    ruleset: Ruleset,
    expect: Mapping[str, Any],
    before: Tables,
    tables: Tables,
    result: SyncResult,
) -> None:
    """The generic expectations of one turn."""
    back = ruleset.scenario.readback(tables, result)
    _check_orders(out, n, expect.get("orders") or {}, back)
    main = ruleset.resources[0].code if ruleset.resources else ""
    _check_ledger(out, n, expect, back, main, check_balance=result.mode == "resolve")
    text = "\n".join(back.chronicle)
    for snippet in _as_list(expect.get("chronicle_contains")):
        out.expect(snippet in text, f"ход {n}: в журнале нет «{snippet}»")
    for snippet in _as_list(expect.get("chronicle_excludes")):
        out.expect(snippet not in text, f"ход {n}: в журнале есть лишнее «{snippet}»")
    warnings = [str(w) for w in result.summary.get("warnings") or result.report.warnings]
    for snippet in _as_list(expect.get("warnings_contains")):
        out.expect(any(snippet in w for w in warnings), f"ход {n}: нет предупреждения «{snippet}»; есть: {warnings}")
    if expect.get("no_warnings"):
        out.expect(not warnings, f"ход {n}: лишние предупреждения: {warnings}")
    if "open_turn" in expect:
        got = meta.open_cursor(tables, ruleset.calendar)
        out.expect(
            _same_window(ruleset, got, expect["open_turn"]),
            f"ход {n}: открыт ход {ruleset.calendar.format(got)}, ожидался {expect['open_turn']}",
        )
    if expect.get("unchanged"):
        out.expect(result.changes.is_empty() or tables == before, f"ход {n}: таблица изменилась")


def _check_orders(out: ScenarioOutcome, n: int, want: Mapping[str, Sequence[Any]], back: Readback) -> None:
    """One expectation per order row of the turn, in row order: a status word, or a mapping with
    `status`, `reason_contains`, `understood_contains`."""
    words = {v: k for table in STATUS_TEXT.values() for k, v in table.items() if v}  # ru or en word -> status
    for side, expected in want.items():
        rows = back.orders.get(side)
        if rows is None:
            out.expect(False, f"ход {n}: нет листа приказов {side}")
            continue
        out.expect(
            len(rows) == len(expected), f"ход {n}: у {side} строк приказов {len(rows)}, ожидалось {len(expected)}"
        )
        for i, (row, exp) in enumerate(zip(rows, expected), start=1):
            exp = {"status": exp} if isinstance(exp, str) else exp
            want_status = exp.get("status")
            if want_status:
                out.expect(
                    words.get(row.status) == words.get(want_status),
                    f"ход {n}: {side}, приказ {i}: статус «{row.status}», ожидался «{want_status}» ({row.reason})",
                )
            for snippet in _as_list(exp.get("reason_contains")):
                out.expect(
                    snippet in row.reason, f"ход {n}: {side}, приказ {i}: в причине «{row.reason}» нет «{snippet}»"
                )
            for snippet in _as_list(exp.get("understood_contains")):
                out.expect(
                    snippet in row.understood, f"ход {n}: {side}, приказ {i}: «{row.understood}» без «{snippet}»"
                )


def _check_ledger(
    out: ScenarioOutcome, n: int, expect: Mapping[str, Any], back: Readback, main: str, check_balance: bool
) -> None:
    """The turn's ledger lines a scenario names (`resource` defaults to the game's main one), the
    sides with no line of the main resource, and, after a resolve, every balance of the balance
    sheet: closing = opening + the turn's entries of that resource = what the world holds."""
    lines = back.ledger
    for want in expect.get("ledger") or []:
        resource = want.get("resource", main)
        side = want.get("side", want.get("state"))  # `state:`, the first game's word, is read too
        match = [
            e
            for e in lines
            if e.side == side
            and ("category" not in want or e.category == want["category"])
            and ("amount" not in want or e.amount == amount(want["amount"]))
            and e.resource == resource
            and all(s in e.reason for s in _as_list(want.get("reason_contains")))
        ]
        shown = [[e.side, e.phase, e.category, e.amount, e.resource, e.reason] for e in lines]
        out.expect(bool(match), f"ход {n}: в книге казны нет строки {want}; есть: {shown}")
    for side in _as_list(expect.get("no_ledger_for")):
        out.expect(
            not [e for e in lines if e.side == side and e.resource == main], f"ход {n}: у {side} есть строки казны"
        )
    if not (check_balance and expect.get("balance_equals_ledger", True)):
        return
    for side, per_resource in back.balances.items():
        for code, bal in per_resource.items():
            total = sum((e.amount for e in lines if e.side == side and e.resource == code), Fraction(0))
            out.expect(bal.opening + total == bal.closing, f"ход {n}: {side}: {bal.opening} + {total} ≠ {bal.closing}")
            out.expect(bal.held == bal.closing, f"ход {n}: {side}: {code} ≠ баланс")


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]
