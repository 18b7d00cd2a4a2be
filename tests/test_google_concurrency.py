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
from test_google_support import GoogleEnv, meta

from engine.core.tables import Tables
from sheets_bridge import gsheets, sync, timeline

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
    return [r[7] for r in tables[ORDERS][1:] if r and r[0]]


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
