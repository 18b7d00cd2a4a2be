"""Google's per-user quotas (issue 23, point 13): the emulator counts them as Google does, the client
paces itself to them and waits out a refusal.

Google gives a user 60 Sheets reads and 60 Sheets writes a minute, each apart, and Drive a much
larger allowance of its own (docs/emulator.md, «Quota and faults»).  Before this point the emulator
counted every request of a user in one bucket and the client had no pacing: the ancient demo's 17
player spreadsheets could not even be created under ``--quota-per-minute 60``.  Time is the fake
clock of the fixtures: a wait moves the client's clock and the emulator's, nothing sleeps.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

import pytest
import requests
from emulator_support import GM, PLAYER, FakeTime

from sheets_bridge import google_quota
from sheets_bridge.emulator.testing import Emulator
from sheets_bridge.google_http import GoogleError, RetryPolicy, StrategosClient, make_client
from sheets_bridge.google_quota import DRIVE, SHEETS_READ, SHEETS_WRITE, QuotaLimits, QuotaPacer

ClientFor = Callable[..., StrategosClient]


@pytest.fixture
def quota(emulator: Emulator) -> Iterator[Emulator]:
    """The emulator; the quota settings this module changes are put back afterwards."""
    yield emulator
    emulator.set_faults(quota_per_minute=None, retry_after=None, drive_quota_per_minute=None,
                        quota_window_seconds=60.0)


def _get(emulator: Emulator, token: str, path: str, method: str = "GET") -> requests.Response:
    """One raw request with ``token`` (so nothing retries it)."""
    return requests.request(method, f"{emulator.base_url}{path}", headers={"Authorization": f"Bearer {token}"},
                            json={} if method == "POST" else None, timeout=10)


def test_the_emulator_counts_reads_writes_and_drive_apart_per_user(quota: Emulator, client_for: ClientFor) -> None:
    """60 reads and 60 writes a minute, each apart, Drive apart again, every user apart: as Google."""
    gc = client_for(GM)
    sid = gc.create("Квоты").id
    token = gc.http_client.auth.token
    other = client_for(PLAYER)
    gc.insert_permission(sid, PLAYER, perm_type="user", role="writer", notify=False)
    other.open_by_key(sid).sheet1  # noqa: B018  -- the player's token is fetched now
    other_token = other.http_client.auth.token
    quota.set_faults(quota_per_minute=2)
    read = f"/v4/spreadsheets/{sid}/values/A1"
    write = f"/v4/spreadsheets/{sid}/values/A1:clear"
    assert [_get(quota, token, read).status_code for _ in range(2)] == [200, 200]
    refused = _get(quota, token, read)
    assert refused.status_code == 429
    assert "Retry-After" not in refused.headers  # Google documents none; the recorded cassettes hold no 429
    error = refused.json()["error"]
    assert error["status"] == "RESOURCE_EXHAUSTED"
    assert error["message"].startswith("Quota exceeded for quota metric 'Read requests'")
    # the writes have an allowance of their own, so do Drive and every other user
    assert [_get(quota, token, write, "POST").status_code for _ in range(2)] == [200, 200]
    assert "'Write requests'" in _get(quota, token, write, "POST").json()["error"]["message"]
    assert _get(quota, token, "/drive/v3/files").status_code == 200
    assert _get(quota, other_token, read).status_code == 200
    quota.advance_clock(60)  # the minute is over
    assert _get(quota, token, read).status_code == 200


def test_drive_past_its_allowance_answers_as_drive_does(quota: Emulator, client_for: ClientFor) -> None:
    """Drive refuses with 403 userRateLimitExceeded (domain usageLimits), not with Sheets' 429."""
    gc = client_for(GM)
    gc.create("Drive")
    token = gc.http_client.auth.token
    quota.set_faults(quota_per_minute=60, drive_quota_per_minute=1)
    assert _get(quota, token, "/drive/v3/files").status_code == 200
    refused = _get(quota, token, "/drive/v3/files")
    assert refused.status_code == 403
    assert refused.json()["error"]["errors"][0] == {
        "message": "User Rate Limit Exceeded", "domain": "usageLimits", "reason": "userRateLimitExceeded"}


def test_a_shorter_window_lets_a_test_prove_pacing_in_seconds(quota: Emulator, client_for: ClientFor) -> None:
    """``quota_window_seconds`` (``--quota-window-seconds``) shortens Google's minute."""
    gc = client_for(GM)
    sid = gc.create("Окно").id
    token = gc.http_client.auth.token
    quota.set_faults(quota_per_minute=1, quota_window_seconds=0.2)
    read = f"/v4/spreadsheets/{sid}/values/A1"
    assert [_get(quota, token, read).status_code for _ in range(2)] == [200, 429]
    time.sleep(0.25)
    assert _get(quota, token, read).status_code == 200


def test_the_client_paces_itself_to_google_s_read_allowance(
    quota: Emulator, client_for: ClientFor, fake_time: FakeTime,
) -> None:
    """61 reads in a row: the 61st waits until the first has left the minute; Google never refuses
    one; a write in the meantime does not wait for the reads."""
    fake_time.on_sleep = quota.advance_clock
    gc = client_for(GM)
    quota.set_faults(quota_per_minute=60)
    ws = gc.create("Темп").sheet1  # a read already
    for _ in range(60 - gc.http_client.quota.sent[SHEETS_READ]):
        ws.get("A1")
    assert fake_time.sleeps == []
    ws.update([["записано"]], "A1")  # another allowance: no wait
    assert fake_time.sleeps == []
    assert ws.get("A1") == [["записано"]]
    assert 60 <= sum(fake_time.sleeps) <= 62  # the rest of the minute (plus a second's margin)
    statuses = {r["status"] for r in quota.stats()["requests"] if r["endpoint"] != "oauth.token"}
    assert statuses == {200}


def test_a_refusal_without_retry_after_is_waited_out(
    quota: Emulator, client_for: ClientFor, fake_time: FakeTime,
) -> None:
    """Another program of the same account spent the minute: Google refuses without Retry-After; the
    default retries wait long enough for the minute to pass (the old back-off gave up after ~8 s)."""
    fake_time.on_sleep = quota.advance_clock
    ws = client_for(GM, retry_policy=RetryPolicy()).create("Чужая минута").sheet1
    quota.set_faults(quota_per_minute=2)
    quota.reset()
    ws.get("A1")
    ws.get("A1")
    assert ws.get("A1") == [[]]  # refused, waited, then answered
    statuses = [r["status"] for r in quota.stats()["requests"] if r["endpoint"] != "oauth.token"]
    assert statuses[:3] == [200, 200, 429] and statuses[-1] == 200
    assert sum(fake_time.sleeps) >= 55


def test_a_drive_refusal_is_waited_out(quota: Emulator, client_for: ClientFor, fake_time: FakeTime) -> None:
    """Drive's 403 userRateLimitExceeded is a quota refusal too: waited out, not reported as «no access»."""
    fake_time.on_sleep = quota.advance_clock
    gc = client_for(GM, retry_policy=RetryPolicy())
    gc.create("Drive")
    quota.set_faults(quota_per_minute=60, drive_quota_per_minute=1)
    assert len(gc.list_spreadsheet_files()) == 1
    assert len(gc.list_spreadsheet_files()) == 1
    assert fake_time.sleeps


def test_retry_after_is_honoured_when_google_sends_it(
    quota: Emulator, client_for: ClientFor, fake_time: FakeTime,
) -> None:
    fake_time.on_sleep = quota.advance_clock
    ws = client_for(GM).create("Retry-After").sheet1
    quota.set_faults(quota_per_minute=1, retry_after=61)
    quota.reset()
    ws.get("A1")
    ws.get("A1")
    assert fake_time.sleeps == [61]


def test_a_wait_is_told_as_it_counts_down() -> None:
    """The listener (the CLI's bar) hears the seconds left, then the end of the wait."""
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    pacer = QuotaPacer(QuotaLimits(write=2, window=5, margin=0), lambda: now[0], sleep)
    heard: list[tuple[float, str, int]] = []
    with google_quota.showing_waits(lambda s, k, n: heard.append((s, k, n))):
        for _ in range(3):
            pacer.before(SHEETS_WRITE)
            pacer.answered(SHEETS_WRITE)
    assert sum(slept) == 5 and pacer.waited == 5
    assert [h[0] for h in heard] == [5, 4, 3, 2, 1, 0]
    assert {h[1:] for h in heard} == {(SHEETS_WRITE, 2)}
    pacer.before(SHEETS_READ)  # another kind: no wait
    assert sum(slept) == 5


def test_requests_are_sorted_into_google_s_buckets() -> None:
    base = "https://sheets.googleapis.com/v4/spreadsheets"
    assert google_quota.kind_of("GET", f"{base}/abc?includeGridData=true") == SHEETS_READ
    assert google_quota.kind_of("POST", f"{base}/abc/values:batchGet") == SHEETS_READ
    assert google_quota.kind_of("POST", f"{base}/abc:batchUpdate") == SHEETS_WRITE
    assert google_quota.kind_of("POST", base) == SHEETS_WRITE
    assert google_quota.kind_of("PUT", f"{base}/abc/values/A1") == SHEETS_WRITE
    assert google_quota.kind_of("POST", "https://www.googleapis.com/drive/v3/files/abc/permissions") == DRIVE
    assert google_quota.kind_of("POST", "https://oauth2.googleapis.com/token") is None


def test_the_limits_follow_google_unless_told(monkeypatch: pytest.MonkeyPatch, credentials: Callable[..., object],
                                             emulator: Emulator) -> None:
    """Google's figures by default; ``STRATEGOS_GOOGLE_QUOTA`` for a project whose quotas were raised;
    a setting that cannot be read is a clear error, not a traceback."""
    assert QuotaLimits.from_env({}) == QuotaLimits(read=60, write=60, drive=12_000, window=60.0)
    raised = QuotaLimits.from_env({"STRATEGOS_GOOGLE_QUOTA": "read=300, write=300,window=60"})
    assert (raised.read, raised.write, raised.drive, raised.window) == (300, 300, 12_000, 60.0)
    monkeypatch.setenv("STRATEGOS_GOOGLE_QUOTA", "чтение=много")
    with pytest.raises(GoogleError) as err:
        make_client(credentials(GM))
    assert "STRATEGOS_GOOGLE_QUOTA" in str(err.value) and "read=60" in str(err.value)


def test_the_quota_back_off_outlasts_the_window() -> None:
    """Four waits after refusals without Retry-After add up to more than the window (Google's minute)."""
    limits = QuotaLimits()
    rng = random.Random(1)
    assert sum(limits.backoff(n, rng) for n in range(1, 5)) >= limits.window
