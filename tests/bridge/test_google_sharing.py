"""Issue 15 point 9: players cannot share or unshare a Google campaign, and drift is reported.

``new --google`` turns Drive's "writers can share" off on every spreadsheet and records in the
hidden tab ``_strategos`` what it shared; ``check`` and ``resolve`` compare Drive's permissions
and names with that record (one ``files.list``) and warn about every difference.
"""

from __future__ import annotations

from typing import Any

import pytest
import test_google_support as support
from test_google_support import GM, P1, P2, SA, GoogleEnv, small_spec

from sheets_bridge import google_http, gsheets, sync
from sheets_bridge.cli import main
from sheets_bridge.google_http import GooglePermissionError

emulator_server = support.emulator_server
google = support.google

FIRST, SECOND = "Г0000", "Г0001"
PLAYERS = {FIRST: P1, SECOND: P2}
EVIL = "evil@example.com"


def _drive(google: GoogleEnv, who: str, method: str, path: str, **kwargs: Any) -> Any:
    url = f"{google_http.GOOGLE_DRIVE_URL}/{path}"
    return google.client(who).http_client.request(method, url, **kwargs)


def _permissions(google: GoogleEnv, sid: str) -> dict[str, str]:
    answer = _drive(google, SA, "get", f"{sid}/permissions", params={"fields": "permissions(id,emailAddress,role)"})
    return {p["emailAddress"]: p["role"] for p in answer.json()["permissions"]}


def test_i15_p9_a_player_cannot_add_remove_or_demote_anyone(google: GoogleEnv) -> None:
    created = google.create(small_spec(), players=PLAYERS)
    sid = created.spreadsheet_id
    before = _permissions(google, sid)
    assert before == {SA: "owner", GM: "writer", P1: "writer", P2: "writer"}
    with pytest.raises(GooglePermissionError):
        _drive(google, P1, "post", f"{sid}/permissions", json={"type": "user", "role": "writer", "emailAddress": EVIL})
    with pytest.raises(GooglePermissionError):  # nor list who has access (issue 23, point 7)
        _drive(google, P1, "get", f"{sid}/permissions")
    ids = {p["emailAddress"]: p["id"] for p in _drive(google, SA, "get", f"{sid}/permissions",
                                                        params={"fields": "permissions(id,emailAddress)"}
                                                        ).json()["permissions"]}
    with pytest.raises(GooglePermissionError):
        _drive(google, P1, "delete", f"{sid}/permissions/{ids[GM]}")
    with pytest.raises(GooglePermissionError):
        _drive(google, P1, "patch", f"{sid}/permissions/{ids[P2]}", json={"role": "reader"})
    with pytest.raises(GooglePermissionError):  # nor switch sharing back on
        _drive(google, P1, "patch", sid, json={"writersCanShare": True})
    with pytest.raises(GooglePermissionError):  # the GM is a writer too: sharing is the program's
        _drive(google, GM, "post", f"{sid}/permissions", json={"type": "user", "role": "reader", "emailAddress": EVIL})
    assert _permissions(google, sid) == before
    file = _drive(google, P1, "get", sid, params={"fields": "writersCanShare,capabilities(canShare)"}).json()
    assert file == {"writersCanShare": False, "capabilities": {"canShare": False}}


def test_i15_p9_the_emulator_lets_writers_share_while_drive_allows_it(google: GoogleEnv) -> None:
    """Drive's default (writersCanShare on): a writer may share -- what the campaign turns off."""
    sid = google.emu.seed_spreadsheet(SA, "plain")
    google.emu.share(sid, P1, "writer")
    _drive(google, P1, "post", f"{sid}/permissions", json={"type": "user", "role": "reader", "emailAddress": EVIL})
    assert _permissions(google, sid)[EVIL] == "reader"


def test_i15_p9_check_and_resolve_warn_about_drift_from_what_new_set(google: GoogleEnv, capsys) -> None:
    created = google.create(small_spec(), players=PLAYERS, private_orders=True)
    sid = created.spreadsheet_id
    google.reset()
    assert not sync.check(google.backend(sid)).summary.get("warnings")  # as `new` left it: nothing to say
    assert google.counts().get("drive.files.list") == 1  # the whole audit: one Drive request

    google.emu.share(sid, EVIL, "writer")  # what a writer could do with "writers can share" on
    book = created.order_books[f"Приказы — {SECOND}"]
    google.emu.share(book, P2, "reader")  # a demoted player
    _drive(google, GM, "patch", created.gm_book, json={"name": "переименовано"})  # Google lets an editor rename
    _drive(google, SA, "patch", sid, json={"writersCanShare": True})
    warnings = sync.check(google.backend(sid)).summary["warnings"]
    text = "\n".join(warnings)
    assert f"{EVIL} (редактор) — его не давала команда new" in text
    assert f"у {P2} роль «читатель» вместо «редактор»" in text
    assert "переименована в «переименовано»" in text
    assert "writersCanShare" in text
    assert len(warnings) == 4
    code = main(["resolve", sid, "--turn", "1", "--credentials", str(google.key(SA))])
    captured = capsys.readouterr()
    out = captured.out
    assert code == 0, captured.err
    assert out.count("Предупреждение:") == 4 and EVIL in out


def test_i15_p9_a_campaign_without_a_record_costs_no_drive_request(google: GoogleEnv) -> None:
    """A campaign made before `new` kept its record: the audit has nothing to compare with and
    makes no request; check still works."""
    created = google.create(small_spec(), players=PLAYERS)
    backend = google.backend(created.spreadsheet_id)
    backend.read()
    assert backend.audit() == []  # as `new` left it
    book = backend.books[created.spreadsheet_id]
    book.record = gsheets.gsheets_sharing.Record()
    google.reset()
    assert backend.audit() == []
    assert "drive.files.list" not in google.counts()
