"""The README's «Играть в Google Таблицах» steps, end to end against the emulator.

The GM's program account (gm-bot@…) creates and shares the campaign with `strategos new
--google` -- each player's orders in a spreadsheet of their own, the public one shared by its
link; a player, with credentials of their own, may write only the input block of their own
order tab and cannot open another's; the GM checks and resolves through the CLI.  Also the CLI's Russian messages
for the three errors a GM meets first: no credentials, a sheet not shared, quota exhausted.
"""

from __future__ import annotations

import json

import pytest
import test_google_support as support
from test_google_support import GM, P1, P2, SA, GoogleEnv, meta, small_spec

from engine.core.tables import column_letter
from engine.rulesets.ancient.vocab import ORDERS
from sheets_bridge import gsheets, sync
from sheets_bridge.cli import main
from sheets_bridge.google_http import (
    GoogleNotFoundError,
    GooglePermissionError,
    GoogleProtectedRangeError,
    make_client,
)

emulator_server = support.emulator_server
google = support.google

STATUS = column_letter(ORDERS.col("status"))


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_readme_flow_new_share_player_edits_check_resolve(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(google.sa_key))
    google.reset()
    code, out, err = _run(capsys, "new", "--google", "--title", "Пробная кампания", "--gm", GM,
                          "--player", f"Египет={P1}", "--player", f"Рим={P2}", "--json")
    assert code == 0, err
    created = json.loads(out)
    url = created["created"]
    sid = created["spreadsheet_id"]
    assert url == f"https://docs.google.com/spreadsheets/d/{sid}/edit"
    assert created["orders"] == "private"  # the default (issue 23, point 8): a spreadsheet per player
    books = {tab: sync.google_id(link) for tab, link in created["order_spreadsheets"].items()}
    # per spreadsheet (the campaign, the GM's, one per order tab): create, one batchUpdate, "writers
    # can share" off, the GM; the campaign's link; each player on their own
    n = 2 + len(books)
    assert google.counts() == {"sheets.create": n, "sheets.batchUpdate": n, "drive.files.update": n,
                               "drive.permissions.create": n + 1 + 2}
    assert created["requests"] == 4 * n + 3

    def roles(book: str) -> dict[str, str]:
        return {p.get("emailAddress", p["type"]): p["role"] for p in google.emu.dump(book)["permissions"]}

    assert roles(sid) == {GM: "writer", "anyone": "reader"}  # the players: by its link
    assert roles(books["Приказы — Египет"]) == {GM: "writer", P1: "writer"}

    # the player, with their own key and their own gspread client, in their own spreadsheet
    player = make_client(google.key(P1))
    own = player.open_by_key(books["Приказы — Египет"]).worksheet("Приказы — Египет")
    own.update([["Построить", "Храмм", "Нижний Египет"]], "A2:C2")
    own.update([["=IMPORTXML(\"http://x\",\"//a\")"]], "F3", raw=True)
    with pytest.raises((GoogleNotFoundError, GooglePermissionError)):  # another player's orders: not even read
        player.open_by_key(books["Приказы — Рим"])
    with pytest.raises(GooglePermissionError):  # the public campaign: read, never written
        player.open_by_key(sid).worksheet("Государства").update([["взлом"]], "B2")
    refused = [
        (own, f"{STATUS}2"),                            # the status column of their own tab
        (own, "A1"),                                    # the header
        (own, "G2"),                                    # the turn stamp, right of the input block
    ]
    for ws, cell in refused:
        with pytest.raises(GoogleProtectedRangeError) as exc:
            ws.update([["взлом"]], cell)
        assert "protected cell or object" in exc.value.google_message
        assert exc.value.status_code == 400
    with pytest.raises(GoogleProtectedRangeError):
        own.delete_rows(2)  # the tab's structure is the GM's

    # the GM's program checks, then resolves, with its key given on the command line
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS")
    code, out, err = _run(capsys, "check", url, "--credentials", str(google.sa_key))
    assert code == 0, err
    assert "Проверен ход 1" in out
    tables = google.backend(sid).read()
    row = tables["Приказы — Египет"][1]
    assert row[:3] == ["Построить", "Храмм", "Нижний Египет"]
    assert row[7] == "отклонён" and "может быть, «Храм»" in row[8]
    assert tables["Приказы — Египет"][2][5] == '=IMPORTXML("http://x","//a")'  # the player's text stays text

    code, out, err = _run(capsys, "resolve", url, "--turn", "1", "--credentials", str(google.sa_key))
    assert code == 0, err
    assert "Разрешён ход 1" in out
    after = google.backend(sid).read()
    assert meta(after)["Открытый ход"] == 2
    assert after["Приказы — Египет"][1][6] == 1  # the row is stamped with its turn
    assert len(after["Казна"]) > 1 and any(r and r[0] == 1 for r in after["Журнал"][1:])

    # a spreadsheet id works as well as a URL; the turn is no longer open
    code, _out, err = _run(capsys, "resolve", sid, "--turn", "1", "--credentials", str(google.sa_key))
    assert code == 1 and "уже разрешён" in err


def test_no_credentials_is_a_clear_russian_error(google: GoogleEnv, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(capsys, "check", "https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123/edit")
    assert code == 1
    assert "Нет учётных данных Google" in err and "--credentials" in err and "GOOGLE_APPLICATION_CREDENTIALS" in err


def test_oauth_client_secrets_missing_is_a_clear_russian_error(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str],
) -> None:
    """The GM's own account: without a cached token the OAuth client file is needed."""
    code, _out, err = _run(capsys, "resolve", "1AbCdEfGhIjKlMnOpQrStUvWxYz0123", "--oauth-client-secrets",
                           str(google.folder / "нет-такого.json"))
    assert code == 1
    assert "Нет учётных данных Google" in err and "нет-такого.json" in err


def test_a_sheet_not_shared_with_the_service_account_names_its_email(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str],
) -> None:
    foreign = google.emu.seed_spreadsheet("somebody@example.com", "Чужая таблица")
    code, _out, err = _run(capsys, "resolve", foreign, "--credentials", str(google.sa_key))
    assert code == 1
    assert SA in err and "откройте доступ" in err
    code, _out, err = _run(capsys, "check", "1NoSuchSpreadsheetAnywhere0000000000", "--credentials", str(google.sa_key))
    assert code == 1 and "не найдена" in err and SA in err


def test_quota_exhausted_is_reported_after_bounded_retries(google: GoogleEnv) -> None:
    created = google.create(small_spec(), players={})
    google.fake.emulator = None
    google.emu.set_faults(quota_per_minute=0, retry_after=5)
    backend = google.backend(created.spreadsheet_id)
    with pytest.raises(gsheets.GoogleQuotaExhausted) as exc:
        backend.read()
    assert "Квота Google исчерпана" in str(exc.value)
    assert len(google.fake.sleeps) == 4  # five attempts, bounded


def test_new_google_refuses_unknown_states_and_bad_addresses(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str],
) -> None:
    code, _o, err = _run(capsys, "new", "--google", "--credentials", str(google.sa_key), "--player", "Атлантида=a@b.c")
    assert code == 2 and "Атлантида" in err
    code, _o, err = _run(capsys, "new", "--google", "--credentials", str(google.sa_key), "--gm", "не-адрес")
    assert code == 2 and "не похоже на адрес" in err
    code, _o, err = _run(capsys, "new", "x.xlsx", "--gm", GM)
    assert code == 2 and "--google" in err
    assert google.counts() == {}  # nothing was created
