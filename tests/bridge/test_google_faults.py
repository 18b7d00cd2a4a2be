"""Faults during resolve: the sheet ends untouched or fully resolved, never half; a re-run
finishes the turn exactly once.

Faults are injected by the emulator on the request after the read (``+1:<kind>``): a 429
storm, a 500, a connection dropped after the write was applied (``drop-after``) or before
(``drop-before``).  Sleeping goes through a fake clock.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import test_google_support as support
from test_google_support import SECRET, GoogleEnv, meta, normal

from engine.core.cursor import Cursor
from engine.core.errors import TurnMismatch
from engine.core.tables import Tables, apply_changes
from engine.rulesets.ancient.game import RULESET
from sheets_bridge import gsheets, sync

emulator_server = support.emulator_server
google = support.google


@dataclass
class Attempt:
    """A resolve whose write met a fault: the tables before, the expected result, the outcome."""

    sid: str
    before: Tables
    expected: Tables
    ledger_lines: int
    error: Exception | None
    counts: dict[str, int]


def _attempt(google: GoogleEnv, faults: list[str], **fault_options: object) -> Attempt:
    """A small campaign with sample orders; resolve turn 1 with ``faults`` on the write."""
    sid = google.campaign("small")
    backend = google.backend(sid)
    tables = backend.read()
    result = RULESET.resolve(tables, expect=Cursor(1), secret=SECRET)
    google.reset()
    google.emu.set_faults(faults, **fault_options)  # type: ignore[arg-type]
    error: Exception | None = None
    try:
        backend.write(result.changes)
    except gsheets.GoogleBackendError as exc:
        error = exc
    counts = google.counts()
    google.emu.set_faults(clear=True, quota_per_minute=None)
    return Attempt(sid, tables, apply_changes(tables, result.changes), len(result.report.ledger.entries), error,
                   counts)


def _state(google: GoogleEnv, attempt: Attempt) -> str:
    """'untouched' or 'resolved' -- anything else fails the test."""
    backend = google.backend(attempt.sid)
    now = normal(backend.stored(backend.read()))  # the snapshots' chunks too: they are part of the write
    if now == normal(attempt.before):
        return "untouched"
    assert now == normal(attempt.expected), "the sheet is half written"
    return "resolved"


def _rerun_finishes_once(google: GoogleEnv, attempt: Attempt) -> None:
    """`resolve --turn 1` again: resolves if it had not landed, refuses if it had; turn 1 once."""
    try:
        sync.resolve(google.backend(attempt.sid), turn=1)
    except TurnMismatch as exc:
        assert "уже разрешён" in str(exc)
    tables = google.tabs(attempt.sid, "Кампания", "Журнал", "Казна")
    assert meta(tables)["Открытый ход"] == 2
    assert sum(1 for r in tables["Журнал"][1:] if r and r[1] == "=== Ход 1 ===") == 1
    assert sum(1 for r in tables["Казна"][1:] if r and r[0] == 1) == attempt.ledger_lines


def test_a_429_storm_is_waited_out(google: GoogleEnv) -> None:
    attempt = _attempt(google, ["+1:429", "+2:429", "+3:429"])
    assert attempt.error is None
    assert _state(google, attempt) == "resolved"
    assert len(google.fake.sleeps) == 3
    _rerun_finishes_once(google, attempt)


def test_a_429_storm_longer_than_the_retries_leaves_the_sheet_untouched(google: GoogleEnv) -> None:
    attempt = _attempt(google, [f"+{i}:429" for i in range(1, 8)])
    assert isinstance(attempt.error, gsheets.GoogleQuotaExhausted)
    assert "Квота Google исчерпана" in str(attempt.error)
    assert _state(google, attempt) == "untouched"
    _rerun_finishes_once(google, attempt)


def test_a_quota_window_is_waited_out_with_retry_after(google: GoogleEnv) -> None:
    """One write per minute: the write meets a full window, waits the Retry-After, succeeds.  Google
    counts a user's writes apart from its reads, over all of that user's spreadsheets."""
    google.fake.emulator = google.emu  # sleeping moves the emulator's clock, so the window frees up
    sid = google.campaign("small", orders=False)
    backend = google.backend(sid)
    tables = backend.read()
    result = RULESET.resolve(tables, expect=Cursor(1), secret=SECRET)
    scratch = google.client().create("Другая таблица того же аккаунта").sheet1
    google.reset()
    google.emu.set_faults(quota_per_minute=1, retry_after=60)
    google.backend(sid).read()  # a read: another allowance than the writes'
    scratch.update([["x"]], "A1")  # fills the account's write window
    backend.write(result.changes)
    statuses = [r["status"] for r in support.settled_stats(google.emu)["requests"] if r["endpoint"] != "oauth.token"]
    assert statuses == [200, 200, 429, 200]
    assert google.fake.sleeps and google.fake.sleeps[-1] >= 50  # the Retry-After (rest of the minute)
    assert meta(google.tabs(sid, "Кампания"))["Открытый ход"] == 2


@pytest.mark.parametrize(
    ("fault", "counts"),
    [
        # the write (500), the guard's read of the marker (not there), the write again
        ("+1:500", {"sheets.batchUpdate": 2, "sheets.get": 1}),
        # the write (applied, no answer), the guard's read of the marker (there): no second write
        ("+1:drop-after", {"sheets.batchUpdate": 1, "sheets.get": 1}),
        # the connection dropped before the write arrived: checked, then written
        ("+1:drop-before", {"sheets.batchUpdate": 2, "sheets.get": 1}),
    ],
    ids=["500-checked-then-retried-once", "dropped-after-landing-not-written-twice", "dropped-before-retried"],
)
def test_one_fault_on_the_write_ends_resolved_exactly_once(
    google: GoogleEnv, fault: str, counts: dict[str, int]
) -> None:
    attempt = _attempt(google, [fault])
    assert attempt.error is None
    assert _state(google, attempt) == "resolved"
    assert attempt.counts == counts
    _rerun_finishes_once(google, attempt)


def test_500s_until_the_retries_run_out_leave_the_sheet_untouched(google: GoogleEnv) -> None:
    faults = [f"+{i}:500" for i in range(1, 12)]  # every write and every guard read fails
    attempt = _attempt(google, faults)
    assert isinstance(attempt.error, gsheets.GoogleWriteUncertain)
    assert _state(google, attempt) == "untouched"
    _rerun_finishes_once(google, attempt)


def test_when_even_the_check_fails_the_gm_is_told_to_rerun(google: GoogleEnv) -> None:
    """The write lands but its answer is lost, and the guard's read fails too: the outcome is
    unknown, the GM is told so in Russian, and the re-run settles it (here: already resolved)."""
    attempt = _attempt(google, ["+1:drop-after", *[f"+{i}:500" for i in range(2, 8)]])
    assert isinstance(attempt.error, gsheets.GoogleWriteUncertain)
    assert "могла примениться" in str(attempt.error) and "--turn" in str(attempt.error)
    assert _state(google, attempt) == "resolved"
    _rerun_finishes_once(google, attempt)


@pytest.mark.parametrize("fault", ["drop-after", "500"])
def test_a_fault_on_the_final_batch_of_a_staged_write(google: GoogleEnv, fault: str) -> None:
    """An oversized write: staging batches, then the final one meets the fault."""
    sid = google.campaign("small")
    backend = google.backend(sid, max_write_bytes=60_000)
    tables = backend.read()
    result = RULESET.resolve(tables, expect=Cursor(1), secret=SECRET)
    plan_size = len(backend._plan(sid, result.changes, tables).batches)
    assert plan_size >= 2
    backend = google.backend(sid, max_write_bytes=60_000)
    backend.read()
    google.emu.set_faults([f"+{plan_size}:{fault}"])  # the final batch
    backend.write(result.changes)
    reader = google.backend(sid)
    after = normal(reader.stored(reader.read()))  # the snapshots' chunks too (cell notes on Google)
    expected = apply_changes(tables, result.changes)
    # the plan above added (then abandoned) nothing: staging tabs are invisible to the engine
    assert after == normal(expected)
    titles = [s["properties"]["title"] for s in google.emu.dump(sid)["sheets"]]
    assert not [t for t in titles if t.startswith(gsheets.STAGE_PREFIX)]
    attempt = Attempt(sid, tables, expected, len(result.report.ledger.entries), None, {})
    _rerun_finishes_once(google, attempt)


def test_check_writes_are_not_resent_blindly_once_they_landed(google: GoogleEnv) -> None:
    """A check's statuses are absolute, but resending them blindly could put them back over a
    resolve that landed in between (issue 15 p5): the write guard reads the lock tab once and
    sees that its own write landed, so nothing is sent twice."""
    sid = google.campaign("small")
    backend = google.backend(sid)
    tables = backend.read()
    result = RULESET.check(tables)
    google.reset()
    google.emu.set_faults(["+1:drop-after"])
    backend.write(result.changes)
    assert google.counts() == {"sheets.batchUpdate": 1, "sheets.get": 1}
    assert normal(google.backend(sid).read()) == normal(apply_changes(tables, result.changes))
