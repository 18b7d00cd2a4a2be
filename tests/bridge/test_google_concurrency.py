"""Issue 15 point 5 (Google): two processes on one campaign never revert each other's write.

Every write carries a compare-and-swap on a tiny hidden tab whose sheetId is the campaign's
write counter (``sheets_bridge/gsheets_guard.py``): the batch starts with ``deleteSheet`` of the
id the read saw and ``addSheet`` of the next one, so a batch planned on a stale read fails as a
whole at Google and the loser refuses with a Russian message.  The interleavings are made
deterministic by running the second command inside the first one's read.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import test_google_support as support
from test_google_support import P1, P2, GoogleEnv, meta, normal, small_spec

from engine.core.tables import Changeset, Tables
from sheets_bridge import google_http, gsheets, gsheets_lock, sync, timeline
from sheets_bridge.google_http import GoogleBadRequestError

emulator_server = support.emulator_server
google = support.google

ORDERS = "Приказы — Египет"


class Interleaved(gsheets.GoogleBackend):
    """A backend that lets another command run right after its own read (the race window)."""

    meanwhile: Callable[[], object] | None = None

    def read(self) -> Tables:
        tables = super().read()
        if self.meanwhile is not None:
            run, self.meanwhile = self.meanwhile, None
            run()
        return tables


def interleaved(google: GoogleEnv, sid: str, meanwhile: Callable[[], object]) -> Interleaved:
    backend = Interleaved(google.client(), sid)
    backend.meanwhile = meanwhile
    return backend


def statuses(tables: Tables) -> list[object]:
    """The status column of every row that has one (resolve clears an executed row's input, issue 15 p1)."""
    return [r[7] for r in tables[ORDERS][1:] if len(r) > 7 and r[7]]


def test_i15_p5_check_started_while_resolve_runs_does_not_revert_the_statuses(google: GoogleEnv) -> None:
    """The reported race: check reads, resolve writes the turn, check writes its «принят» over the
    statuses of the resolved turn.  Now check's write is refused and the turn stays as resolved."""
    sid = google.campaign()
    sync.check(google.backend(sid))
    late = interleaved(google, sid, lambda: sync.resolve(google.backend(sid), turn=1))
    with pytest.raises(gsheets.GoogleConcurrentWrite) as caught:
        sync.check(late)
    assert "другой запуск" in str(caught.value)
    after = google.backend(sid).read()
    assert meta(after)["Открытый ход"] == 2
    assert statuses(after) and "принят" not in statuses(after)


def test_i15_p5_resolve_started_while_check_runs_is_refused_and_a_rerun_resolves(google: GoogleEnv) -> None:
    sid = google.campaign()
    late = interleaved(google, sid, lambda: sync.check(google.backend(sid)))
    with pytest.raises(gsheets.GoogleConcurrentWrite):
        sync.resolve(late, turn=1)
    assert meta(google.backend(sid).read())["Открытый ход"] == 1
    sync.resolve(google.backend(sid), turn=1)
    assert meta(google.backend(sid).read())["Открытый ход"] == 2


def test_i15_p5_two_resolves_resolve_the_turn_once(google: GoogleEnv) -> None:
    sid = google.campaign()
    late = interleaved(google, sid, lambda: sync.resolve(google.backend(sid), turn=1))
    with pytest.raises(gsheets.GoogleConcurrentWrite):
        sync.resolve(late, turn=1)
    tables = google.backend(sid).read()
    assert meta(tables)["Открытый ход"] == 2
    assert [e.turn for e in timeline.history.entries(tables)] == [1]


def test_i15_p5_rollback_while_resolve_runs_is_refused(google: GoogleEnv) -> None:
    sid = google.campaign()
    sync.resolve(google.backend(sid), turn=1)
    late = interleaved(google, sid, lambda: sync.resolve(google.backend(sid), turn=2))
    with pytest.raises(gsheets.GoogleConcurrentWrite):
        timeline.rollback(late, to=1)
    assert meta(google.backend(sid).read())["Открытый ход"] == 3


def _lock(google: GoogleEnv, sid: str) -> gsheets_lock.Lock | None:
    answer = gsheets.get_spreadsheet(google.client(), sid, gsheets.PROBE_FIELDS)
    return gsheets_lock.found(answer.get("sheets", []))


def test_i15_p5_the_emulator_refuses_a_whole_batch_whose_delete_sheet_misses(google: GoogleEnv) -> None:
    """What the compare-and-swap relies on, as Google does: a batchUpdate is all or nothing, and
    deleteSheet of a sheetId that is not there is 400 INVALID_ARGUMENT."""
    sid = google.campaign("small", orders=False)
    before = normal(google.backend(sid).read())
    reader = google.backend(sid)
    reader.read()
    meta_id = reader.books[sid].sheets["Кампания"].sheet_id
    body = {"requests": [
        {"updateCells": {"range": {"sheetId": meta_id, "startRowIndex": 0, "endRowIndex": 1,
                                   "startColumnIndex": 0, "endColumnIndex": 1},
                         "rows": [{"values": [{"userEnteredValue": {"stringValue": "изменено"}}]}],
                         "fields": "userEnteredValue"}},
        {"deleteSheet": {"sheetId": 7}},
    ]}
    with pytest.raises(GoogleBadRequestError) as caught:
        google.client().http_client.request("post", f"{google_http.GOOGLE_SHEETS_URL}/{sid}:batchUpdate", json=body)
    assert caught.value.code == 400 and caught.value.google_status == "INVALID_ARGUMENT"
    assert "No sheet with id: 7" in caught.value.google_message
    assert normal(google.backend(sid).read()) == before


def test_i15_p5_an_ambiguous_failure_tells_my_landed_write_from_another_runs(google: GoogleEnv) -> None:
    """After a dropped connection the write guard reads the lock once: its own lock there -> the
    write landed, nothing is sent again; another run's lock -> refused, never resent over it."""
    sid = google.campaign()
    backend = google.backend(sid)
    tables = backend.read()
    first = _lock(google, sid)
    google.reset()
    google.emu.set_faults(["+1:drop-after"])  # applied, then the answer is lost
    backend.write(_check_changes(tables))
    assert google.counts() == {"sheets.batchUpdate": 1, "sheets.get": 1}
    mine = _lock(google, sid)
    assert mine is not None and mine.count == (first.count if first else 0) + 1

    stale = google.backend(sid)
    stale_tables = stale.read()
    sync.resolve(google.backend(sid), turn=1)  # another run writes in between
    google.emu.set_faults(["+1:500"])  # refused before it is applied: the guard must look
    with pytest.raises(gsheets.GoogleConcurrentWrite):
        stale.write(_check_changes(stale_tables))
    after = google.backend(sid).read()
    assert meta(after)["Открытый ход"] == 2 and "принят" not in statuses(after)


def _check_changes(tables: Tables) -> Changeset:
    from engine.rulesets.ancient.game import RULESET

    return RULESET.check(tables).changes


def test_i15_p5_a_staged_write_loses_the_race_whole_and_its_stages_are_cleaned(google: GoogleEnv) -> None:
    """A write above the size limit stages its heavy tabs first; the compare-and-swap rides in the
    final batch, so a run that lost the race changes nothing of the campaign, and the next write
    deletes the staging tabs it left."""
    sid = google.campaign()
    slow = (2.0, 120.0)  # many batches on a busy machine: allow the emulator time
    late = Interleaved(google.client(timeout=slow), sid, max_write_bytes=100_000)
    late.meanwhile = lambda: sync.check(google.backend(sid))
    with pytest.raises(gsheets.GoogleConcurrentWrite):
        sync.resolve(late, turn=1)
    assert late.batches_sent > 1  # it was staged
    titles = [s["properties"]["title"] for s in google.emu.dump(sid)["sheets"]]
    assert any(t.startswith(gsheets.STAGE_PREFIX) for t in titles)
    assert meta(google.backend(sid).read())["Открытый ход"] == 1
    sync.resolve(google.backend(sid, max_write_bytes=100_000, timeout=slow), turn=1)
    titles = [s["properties"]["title"] for s in google.emu.dump(sid)["sheets"]]
    assert not any(t.startswith(gsheets.STAGE_PREFIX) for t in titles)
    assert meta(google.backend(sid).read())["Открытый ход"] == 2


def test_i15_p5_private_orders_check_during_resolve_reverts_no_order_book(google: GoogleEnv) -> None:
    """Several spreadsheets: each has its own lock, so check's first stale order book is refused."""
    created = google.create(small_spec(), players={"Г0000": P1, "Г0001": P2}, private_orders=True)
    sid = created.spreadsheet_id
    backend = google.backend(sid)
    backend.write(_demo(backend.read()))
    late = interleaved(google, sid, lambda: sync.resolve(google.backend(sid), turn=1))
    with pytest.raises(gsheets.GoogleConcurrentWrite):
        sync.check(late)
    after = google.backend(sid).read()
    assert meta(after)["Открытый ход"] == 2
    for tab in created.order_books:
        assert "принят" not in [r[7] for r in after[tab][1:] if r and r[0] and len(r) > 7], tab


def _demo(tables: Tables) -> Changeset:
    from engine.rulesets.ancient import ruleset

    return ruleset.demo_changes(tables)
