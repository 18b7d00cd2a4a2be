"""Quota, fault injection and the bounded retry of google_http -- and no double writes.

Faults are addressed by request number relative to "now" (``+1:500`` = the next request),
so the tests do not depend on how many requests gspread makes before.  Sleeping goes
through an injected fake clock; the quota tests also move the emulator's clock forward
by the slept time, which proves ``Retry-After`` was honoured without waiting a minute.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable

import pytest
import requests
from emulator_support import GM, FakeTime

from sheets_bridge.emulator.testing import Emulator
from sheets_bridge.google_http import (
    GoogleAmbiguousWriteError,
    GoogleQuotaError,
    GoogleRetryExhausted,
    GoogleServerError,
    GoogleWriteAlreadyApplied,
    RetryPolicy,
    StrategosClient,
    is_idempotent,
    parse_retry_after,
)

ClientFor = Callable[..., StrategosClient]


def _faulted(emulator: Emulator, expected: int = 1) -> list[dict[str, object]]:
    """Faulted requests in the stats (a 'timeout' one is recorded when its stall ends)."""
    deadline = time.monotonic() + 3
    while True:
        faulted = [r for r in emulator.stats()["requests"] if r.get("fault")]
        if len(faulted) >= expected or time.monotonic() > deadline:
            return faulted
        time.sleep(0.05)


def test_quota_429_retry_honours_retry_after(emulator: Emulator, client_for: ClientFor, fake_time: FakeTime) -> None:
    """Past N reads per minute Google answers 429; with a Retry-After the client waits exactly that,
    then succeeds (Google documents no Retry-After: the emulator sends one only when asked)."""
    fake_time.on_sleep = emulator.advance_clock
    ws = client_for(GM).create("Quota").sheet1
    ws.update([["a"]], "A1")
    emulator.set_faults(quota_per_minute=2, retry_after=60)
    emulator.reset()
    assert ws.get("A1") == [["a"]]
    assert ws.get("A1") == [["a"]]
    assert ws.get("A1") == [["a"]]  # third call: 429, wait, retry
    statuses = [r["status"] for r in emulator.stats()["requests"]]
    assert statuses == [200, 200, 429, 200]
    assert fake_time.sleeps == [60]  # the Retry-After the emulator sent


def test_quota_429_body_and_header(emulator: Emulator, client_for: ClientFor) -> None:
    """The 429 carries Google's RESOURCE_EXHAUSTED body and a Retry-After header."""
    gc = client_for(GM)
    sh = gc.create("Quota body")
    token = gc.http_client.auth.token
    emulator.set_faults(quota_per_minute=0, retry_after=7)
    answer = requests.get(
        f"{emulator.base_url}/v4/spreadsheets/{sh.id}/values/A1",
        headers={"Authorization": f"Bearer {token}"},
        timeout=5,
    )
    assert answer.status_code == 429
    assert answer.headers["Retry-After"] == "7"
    error = answer.json()["error"]
    assert error["status"] == "RESOURCE_EXHAUSTED" and error["code"] == 429
    assert error["message"].startswith("Quota exceeded for quota metric 'Read requests'")
    assert error["details"][0]["reason"] == "RATE_LIMIT_EXCEEDED"


def test_quota_exhausted_raises_clear_error(emulator: Emulator, client_for: ClientFor, fake_time: FakeTime) -> None:
    """When the quota never frees up within the budget, a Russian GoogleQuotaError is raised."""
    gc = client_for(GM, retry_policy=RetryPolicy(max_attempts=3, max_total_seconds=600))
    ws = gc.create("Quota out").sheet1
    emulator.set_faults(quota_per_minute=0, retry_after=5)
    with pytest.raises(GoogleQuotaError) as err:
        ws.get("A1")
    assert "Квота Google исчерпана" in str(err.value)
    assert err.value.attempts == 3
    assert isinstance(err.value, GoogleRetryExhausted)
    assert fake_time.sleeps == [5, 5]


@pytest.mark.parametrize("kind", ["500", "503", "drop", "timeout"])
def test_read_faults_are_retried(kind: str, emulator: Emulator, client_for: ClientFor, fake_time: FakeTime) -> None:
    """Reads survive 500/503/dropped connections/timeouts with a bounded, jittered back-off."""
    gc = client_for(GM, timeout=(2.0, 0.3))
    ws = gc.create("Faulty reads").sheet1
    ws.update([["v"]], "A1")
    emulator.reset()
    emulator.set_faults([f"+1:{kind}"], timeout_sleep=0.8)
    assert ws.get("A1") == [["v"]]
    assert [r["fault"] for r in _faulted(emulator)] == [kind]
    assert len(fake_time.sleeps) == 1
    assert 0 <= fake_time.sleeps[0] <= 0.5  # full jitter within base_delay * 2**0


def test_idempotent_put_is_retried_even_after_apply(
    emulator: Emulator, client_for: ClientFor, fake_time: FakeTime
) -> None:
    """values.update is idempotent: repeating it after a lost answer changes nothing."""
    ws = client_for(GM).create("Put").sheet1
    emulator.set_faults(["+1:drop-after"])
    ws.update([["turn 7"]], "A1")
    assert ws.get("A1") == [["turn 7"]]
    assert len(fake_time.sleeps) == 1


def test_append_not_retried_after_ambiguous_failure(emulator: Emulator, client_for: ClientFor) -> None:
    """A dropped answer to :append is never retried blindly: the row is there exactly once."""
    ws = client_for(GM).create("Append").sheet1
    ws.append_row(["header"])
    emulator.set_faults(["+1:drop-after"])
    with pytest.raises(GoogleAmbiguousWriteError) as err:
        ws.append_row(["order 1"])
    assert "могла примениться" in str(err.value)
    assert ws.get_all_values() == [["header"], ["order 1"]]


def test_append_with_idempotency_check_reports_applied(emulator: Emulator, client_for: ClientFor) -> None:
    """With a write guard the client asks whether the write landed instead of guessing."""
    gc = client_for(GM)
    ws = gc.create("Guarded append").sheet1
    emulator.set_faults(["+1:drop-after"])
    checks: list[bool] = []

    def applied() -> bool:
        checks.append(True)
        return ws.col_values(1) == ["order 1"]

    with pytest.raises(GoogleWriteAlreadyApplied), gc.http_client.write_guard(applied):
        ws.append_row(["order 1"])
    assert checks == [True]
    assert ws.get_all_values() == [["order 1"]]


def test_batch_update_retried_once_when_check_says_not_applied(
    emulator: Emulator, client_for: ClientFor, fake_time: FakeTime
) -> None:
    """500 before applying + a check that finds no marker -> one retry, applied exactly once."""
    gc = client_for(GM)
    sh = gc.create("Resolve turn")
    emulator.set_faults(["+1:500"])
    with gc.http_client.write_guard(lambda: "Turn 2" in [w.title for w in sh.worksheets()]):
        sh.add_worksheet("Turn 2", rows=10, cols=5)
    assert [w.title for w in sh.worksheets()] == ["Sheet1", "Turn 2"]
    assert len(fake_time.sleeps) == 1


def test_batch_update_500_without_guard_is_ambiguous(emulator: Emulator, client_for: ClientFor) -> None:
    """Without a check a 5xx on batchUpdate is not retried (it might have been applied)."""
    gc = client_for(GM)
    sh = gc.create("No guard")
    emulator.set_faults(["+1:503"])
    with pytest.raises(GoogleAmbiguousWriteError) as err:
        sh.add_worksheet("Turn 2", rows=10, cols=5)
    assert isinstance(err.value.__cause__, GoogleServerError)
    assert [w.title for w in sh.worksheets()] == ["Sheet1"]


def test_connection_refused_retries_then_gives_up(
    emulator: Emulator, client_for: ClientFor, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing listening: even a non-idempotent write is retried (it cannot have landed), boundedly."""
    gc = client_for(GM)
    sh = gc.create("Offline")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]
    from sheets_bridge.google_http import ApiEndpoints

    gc.http_client.endpoints = ApiEndpoints(f"http://127.0.0.1:{dead}")
    with pytest.raises(GoogleRetryExhausted) as err:
        sh.add_worksheet("Never", rows=5, cols=5)
    assert err.value.attempts == 4
    assert len(fake_time.sleeps) == 3
    assert "после 4 попыток" in str(err.value)


def test_total_time_budget_is_respected(emulator: Emulator, client_for: ClientFor, fake_time: FakeTime) -> None:
    """A Retry-After beyond the time budget ends the retries at once."""
    gc = client_for(GM, retry_policy=RetryPolicy(max_attempts=10, max_total_seconds=30))
    ws = gc.create("Budget").sheet1
    emulator.set_faults(quota_per_minute=0, retry_after=45)
    with pytest.raises(GoogleQuotaError) as err:
        ws.get("A1")
    assert err.value.attempts == 1
    assert fake_time.sleeps == []


def test_backoff_is_bounded_full_jitter() -> None:
    """Delays are uniform in [0, min(max_delay, base * 2**(n-1))]."""
    policy = RetryPolicy(base_delay=0.5, max_delay=4.0)
    rng = random.Random(7)
    for attempt in range(1, 9):
        cap = min(4.0, 0.5 * 2 ** (attempt - 1))
        delays = [policy.backoff(attempt, rng) for _ in range(200)]
        assert all(0 <= d <= cap for d in delays)
        assert max(delays) > cap * 0.8


def test_request_classification_and_retry_after_parsing() -> None:
    """Which requests are idempotent; Retry-After in both syntaxes."""
    base = "https://sheets.googleapis.com/v4/spreadsheets/ID"
    assert is_idempotent("GET", base)
    assert is_idempotent("PUT", base + "/values/A1")
    assert is_idempotent("POST", base + "/values/A1:clear")
    assert is_idempotent("POST", base + "/values:batchUpdate")
    assert not is_idempotent("POST", base + ":batchUpdate")
    assert not is_idempotent("POST", base + "/values/A1:append?valueInputOption=RAW")
    assert not is_idempotent("POST", "https://www.googleapis.com/drive/v3/files")
    assert parse_retry_after("12") == 12.0
    assert parse_retry_after(None) is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0
    assert parse_retry_after("soon") is None
