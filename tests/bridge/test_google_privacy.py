"""Issue 23, points 7 and 8: on Google, no player reads another player's e-mail or orders.

Point 7: the public book of a split campaign is shared by its link ("anyone with the link",
reader, not discoverable), never with each player by name, and Drive answers the list of a
file's permissions only to who may share it (the emulator as Drive does): a player, acting with
their own credentials, finds no other player's address in anything the API gives them.

Point 8: the README's quick commands (`new --google` with no mode flag) make each player's
orders private: the player of Египет cannot read Рим's pending «Объявить войну Египет», nor
«Архив приказов».  The open mode, one spreadsheet every player reads, is `--open-orders`, the
GM's explicit choice, and it is said with a warning.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import test_google_support as support
from test_google_support import GM, P1, P2, SA, GoogleEnv, small_spec

from sheets_bridge import google_http, gsheets, gsheets_sharing, sync
from sheets_bridge.cli import main
from sheets_bridge.google_http import GoogleNotFoundError, GooglePermissionError, make_client

emulator_server = support.emulator_server
google = support.google

EGYPT, ROME = "Приказы — Египет", "Приказы — Рим"
PLAYERS = {"Египет": P1, "Рим": P2}
#: every field of a spreadsheet where a person could be named: its properties, values, notes,
#: protections (with their editors, which Sheets shows only to an editor of the range)
EVERYTHING = ("spreadsheetId,properties,namedRanges,developerMetadata,sheets(properties,protectedRanges,merges,"
              "developerMetadata,data(rowData(values(userEnteredValue,formattedValue,note))))")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _readme_campaign(google: GoogleEnv, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """The README's quick commands, as the GM types them (no mode flag): the JSON `new` printed,
    plus every spreadsheet of the campaign (the GM's book too, found as the program's account).
    Made once per module (19 spreadsheets): the address test only reads it."""
    if "readme" not in google.templates:
        code, out, err = _run(capsys, "new", "--google", "--title", "Средиземноморье", "--gm", GM,
                              "--player", f"Египет={P1}", "--player", f"Рим={P2}", "--json",
                              "--credentials", str(google.sa_key))
        assert code == 0, err
        made = json.loads(out)
        backend = google.backend(made["spreadsheet_id"])
        backend.read()
        made["every"] = sorted(backend.books)
        google.templates["readme"] = json.dumps(made)
    return dict(json.loads(google.templates["readme"]))


def _drive(google: GoogleEnv, who: str, method: str, path: str = "", **kwargs: Any) -> Any:
    url = f"{google_http.GOOGLE_DRIVE_URL}/{path}" if path else google_http.GOOGLE_DRIVE_URL
    return google.client(who).http_client.request(method, url, **kwargs)


def _all_a_player_gets(google: GoogleEnv, who: str, every: list[str]) -> tuple[str, int, int]:
    """Every answer the API gives ``who`` about the campaign's spreadsheets -- Drive's file
    resources (owners, sharing, permissions), the permission lists, the search, every field of
    every spreadsheet they can open -- as one text; with the number of requests tried and refused."""
    texts: list[str] = []
    tried = refused = 0
    attempts: list[tuple[str, str, dict[str, Any]]] = [
        ("get", "", {"params": {"q": "trashed = false", "fields": "files(id,name,owners,permissions,"
                                                                  "permissionIds,lastModifyingUser)"}}),
    ]
    for sid in every:
        attempts += [
            ("get", sid, {"params": {"fields": "*"}}),
            ("get", f"{sid}/permissions", {"params": {"fields": "*"}}),
            ("get", f"{sid}/permissions", {}),
        ]
    for method, path, kwargs in attempts:
        tried += 1
        try:
            texts.append(json.dumps(_drive(google, who, method, path, **kwargs).json(), ensure_ascii=False))
        except (GooglePermissionError, GoogleNotFoundError):
            refused += 1
    for sid in every:
        tried += 1
        try:
            texts.append(json.dumps(gsheets.get_spreadsheet(google.client(who), sid, EVERYTHING), ensure_ascii=False))
        except (GooglePermissionError, GoogleNotFoundError):
            refused += 1
    return "\n".join(texts), tried, refused


def test_i23_p7_a_player_reads_no_other_players_address(google: GoogleEnv, capsys: pytest.CaptureFixture[str]) -> None:
    """Acting with their own credentials, each player asks the API every way it names people on
    every spreadsheet of the campaign: the other player's address is in no answer (before the fix,
    the public campaign's permission list named every player)."""
    made = _readme_campaign(google, capsys)
    public = made["spreadsheet_id"]
    for me, other in ((P1, P2), (P2, P1)):
        text, tried, refused = _all_a_player_gets(google, me, made["every"])
        assert public in text and "Государства" in text  # the player does read the public book
        assert other.casefold() not in text.casefold(), me
        assert 0 < refused < tried
    # what Drive keeps: the public book shared by its link, no player named there
    perms = _drive(google, SA, "get", f"{public}/permissions", params={"fields": "*"}).json()["permissions"]
    named = {p.get("emailAddress") for p in perms if p["type"] == "user"}
    assert named == {SA, GM}
    assert [(p["role"], p["allowFileDiscovery"]) for p in perms if p["type"] == "anyone"] == [("reader", False)]
    own = made["order_spreadsheets"][EGYPT].split("/d/")[1].split("/")[0]
    perms = _drive(google, SA, "get", f"{own}/permissions", params={"fields": "*"}).json()["permissions"]
    assert {p.get("emailAddress"): p["role"] for p in perms} == {SA: "owner", GM: "writer", P1: "writer"}
    assert not sync.check(google.backend(public)).summary.get("warnings")  # the audit knows the link


def test_i23_p8_the_readme_quick_commands_keep_each_players_orders_private(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    """Рим types «Объявить войну Египет» in its own book; the GM checks and resolves turn 1; Рим
    types the next turn's order.  The player of Египет, with its own credentials, reads neither the
    pending orders nor the archived ones -- in no spreadsheet it can open -- yet reads its own."""
    made = _readme_campaign(google, capsys)
    sid, books = made["spreadsheet_id"], made["order_spreadsheets"]
    assert set(books) >= {EGYPT, ROME} and books[EGYPT] != books[ROME]
    rome = make_client(google.key(P2)).open_by_url(books[ROME]).worksheet(ROME)
    rome.update([["Объявить войну", "Египет", "", "", "", "тайна XYZZY-1"]], "A20:F20")
    egypt = make_client(google.key(P1)).open_by_url(books[EGYPT]).worksheet(EGYPT)
    egypt.update([["Нет действий", "", "", "", "", "своё XYZZY-E"]], "A20:F20")
    creds = ["--credentials", str(google.sa_key)]
    assert _run(capsys, "check", sid, *creds)[0] == 0
    assert _run(capsys, "resolve", sid, "--turn", "1", *creds)[0] == 0
    rome.update([["Объявить войну", "Египет", "", "", "", "тайна XYZZY-2"]], "A21:F21")
    tables = google.backend(sid).read()
    archived = [r for r in tables["Архив приказов"][1:] if r and r[:5] == [1, "Рим", 20, "Объявить войну", "Египет"]]
    assert archived  # the GM's archive has it
    text, _tried, _refused = _all_a_player_gets(google, P1, made["every"])
    assert "XYZZY-E" in text  # its own orders
    assert "XYZZY-1" not in text and "XYZZY-2" not in text  # Рим's, pending (its comment column)
    titles: set[str] = set()
    for book in made["every"]:
        try:
            answer = gsheets.get_spreadsheet(google.client(P1), book, "sheets(properties(title))")
        except (GoogleNotFoundError, GooglePermissionError):
            continue
        titles |= {s["properties"]["title"] for s in answer["sheets"]}
    assert EGYPT in titles and "Государства" in titles
    assert "Архив приказов" not in titles and ROME not in titles  # nor the archive, hidden or not
    [gm_book] = set(made["every"]) - {sid, *(url.split("/d/")[1].split("/")[0] for url in books.values())}
    for book in (books[ROME].split("/d/")[1].split("/")[0], gm_book):
        with pytest.raises((GoogleNotFoundError, GooglePermissionError)):
            gsheets.get_spreadsheet(google.client(P1), book, "spreadsheetId")


def test_i23_p8_the_open_mode_is_the_gms_explicit_choice_with_a_warning(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    creds = ["--credentials", str(google.sa_key)]
    small = ["--scenario", "generated:5"]
    code, out, err = _run(capsys, "new", "--google", *small, "--gm", GM, "--player", f"Г0000={P1}", "--json",
                          "--open-orders", *creds)
    assert code == 0, err
    made = json.loads(out)
    assert made["orders"] == "open" and made["order_spreadsheets"] == {}
    assert "Предупреждение: открытый режим (--open-orders)" in err and "видит приказы всех" in err
    roles = {p.get("emailAddress"): p["role"] for p in google.emu.dump(made["spreadsheet_id"])["permissions"]}
    assert roles == {GM: "writer", P1: "writer"}  # every player named: they read each other's address

    code, _out, err = _run(capsys, "new", "--google", *small, "--lang", "en", "--open-orders", "-q", *creds)
    assert code == 0 and "Warning: the open mode (--open-orders)" in err and not re.search("[а-яё]", err, re.I)

    code, out, err = _run(capsys, "new", "--google", *small, "--player", f"Г0000={P1}", "--json",
                          "--private-orders", *creds)  # the old flag: still accepted, what is done anyway
    assert code == 0, err
    made = json.loads(out)
    assert made["orders"] == "private" and "Приказы — Г0000" in made["order_spreadsheets"]
    assert "Предупреждение" not in err

    google.reset()
    with pytest.raises(SystemExit) as stop:  # argparse: one or the other
        main(["new", "--google", *small, "--open-orders", "--private-orders", *creds])
    assert stop.value.code == 2 and "--open-orders" in capsys.readouterr().err
    code, _out, err = _run(capsys, "new", "--google", "--ruleset", "civ1", "--open-orders", *creds)
    assert code == 2 and "скрытая информация" in err
    code, _out, err = _run(capsys, "new", "x.xlsx", "--open-orders")
    assert code == 2 and "--google" in err
    assert google.counts() == {}  # nothing was created


def test_i23_p7_drive_lists_permissions_only_to_who_may_share(google: GoogleEnv) -> None:
    """The emulator as Drive: ``permissions.list``/``get`` and a file's ``permissions`` field are
    for the owner, and for a writer only while "writers can share" is on."""
    sid = google.emu.seed_spreadsheet(SA, "plain")
    google.emu.share(sid, P1, "reader")
    google.emu.share(sid, P2, "writer")
    listed = _drive(google, P2, "get", f"{sid}/permissions").json()["permissions"]  # Drive's default: writers share
    assert len(listed) == 3
    with pytest.raises(GooglePermissionError) as exc:
        _drive(google, P1, "get", f"{sid}/permissions")
    assert exc.value.response.json()["error"]["errors"][0]["reason"] == "insufficientFilePermissions"
    with pytest.raises(GooglePermissionError):
        _drive(google, P1, "get", f"{sid}/permissions/{listed[0]['id']}")
    file = _drive(google, P1, "get", sid, params={"fields": "id,permissions,capabilities(canShare)"}).json()
    assert file == {"id": sid, "capabilities": {"canShare": False}}
    _drive(google, SA, "patch", sid, json={"writersCanShare": False})
    with pytest.raises(GooglePermissionError):
        _drive(google, P2, "get", f"{sid}/permissions")
    assert "permissions" not in _drive(google, P2, "get", sid, params={"fields": "permissions"}).json()
    assert len(_drive(google, SA, "get", f"{sid}/permissions").json()["permissions"]) == 3  # the owner always


def test_i23_p7_the_audit_reports_a_link_share_that_drifted(google: GoogleEnv) -> None:
    """The link share `new` made is recorded (``#link``): no warning as made; a warning when it is
    removed (the players lose the public book), made discoverable or given another role."""
    created = google.create(small_spec(), players={"Г0000": P1}, private_orders=True)
    sid = created.spreadsheet_id
    backend = google.backend(sid)
    backend.read()
    assert backend.audit() == []
    assert backend.books[backend.keeper].record.links == {sid: "reader"}
    _drive(google, SA, "delete", f"{sid}/permissions/anyoneWithLink")
    [gone] = backend.audit()
    assert "доступа по ссылке больше нет" in gone and "игроки не могут открыть таблицу" in gone
    link = {"type": "anyone", "role": "writer", "allowFileDiscovery": True}
    _drive(google, SA, "post", f"{sid}/permissions", json=link)
    text = "\n".join(backend.audit())
    assert "роль «редактор» вместо «читатель»" in text and "найти поиском" in text
    rows = gsheets_sharing.Record(links={sid: "reader"}).rows()
    again = gsheets_sharing.Record()
    assert all(again.add(r) for r in rows) and again.links == {sid: "reader"}


def test_i23_p7_in_civ1_too_a_nation_reads_no_other_nations_address(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    """The mechanism is the bridge's, for every game: a «Civilization 1.0» campaign (hidden
    information, always split) shares its public spreadsheet by its link too, and Греция's player,
    with its own credentials, finds Рим's player's address in nothing the API gives it."""
    code, out, err = _run(capsys, "new", "--google", "--ruleset", "civ1", "--gm", GM, "--player", f"Рим={P1}",
                          "--player", f"Греция={P2}", "--json", "--credentials", str(google.sa_key))
    assert code == 0, err
    sid = json.loads(out)["spreadsheet_id"]
    backend = google.backend(sid)
    backend.read()
    text, tried, refused = _all_a_player_gets(google, P2, sorted(backend.books))
    assert sid in text and P1.casefold() not in text.casefold()
    assert 0 < refused < tried
