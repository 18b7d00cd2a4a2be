"""Issue 23, point 2 on the Google emulator: a tab is orders only where the program put it for that
side.  Each player, acting with their own credentials, adds to their own spreadsheet a sheet titled
like every other nation's order tab, with orders in it; tries to rename their own order tab to
another nation's title, and to add a sheet to the public campaign and to another player's
spreadsheet.  None of it makes a row of another nation be read: every nation's real row gets its
status, every forged sheet is named in a warning and left untouched, and the resolve plays and
archives the real rows only."""

from __future__ import annotations

import json
from typing import Any

import pytest
import test_google_support as support
from test_google_support import GoogleEnv

from engine.core.audience import player
from engine.core.tables import Cell, Changeset, ReplaceTab, Tables, WriteBlock
from engine.rulesets.civ1.vocab import ORDERS, orders_tab
from sheets_bridge import gsheets, gsheets_gate
from sheets_bridge.cli import main
from sheets_bridge.google_http import GoogleError

emulator_server = support.emulator_server
google = support.google

PLAYERS = {"Рим": support.P1, "Греция": support.P2, "Вавилон": "p3@example.com"}
STATUS = ORDERS.col("status") - 1


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 0, (argv, captured.err)
    return captured.out


def _order(obj: str) -> list[Cell]:
    return ["государство", "Основать город", obj, "1,1"]


def _as(google: GoogleEnv, identity: str, sid: str, requests: list[dict[str, Any]]) -> None:
    gsheets.send_batch(google.client(identity), sid, gsheets.Batch(requests))


def _text(tables: Tables) -> str:
    return json.dumps(tables, ensure_ascii=False, default=str)


def test_i23_p2_no_player_makes_a_row_of_another_nation_be_read(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    creds = ["--credentials", str(google.sa_key)]
    made = json.loads(_run(capsys, "new", "--google", "--ruleset", "civ1", "--gm", support.GM,
                           *[a for n, e in PLAYERS.items() for a in ("--player", f"{n}={e}")], *creds, "--json"))
    sid = made["spreadsheet_id"]
    homes = google.backend(sid)
    homes.read()
    book = {n: homes.tab_home[orders_tab(n)] for n in PLAYERS}
    own_id = {n: int(homes.books[book[n]].sheets[orders_tab(n)].sheet_id) for n in PLAYERS}

    forged_id = 880_000_000
    for n, who in PLAYERS.items():
        # the real row, typed in the player's own order tab (the input block is theirs)
        _as(google, who, book[n], [gsheets._block_request(own_id[n], WriteBlock(orders_tab(n), 2, 1,
                                                                                [_order(f"Настоящий{n}")]))])
        others = [m for m in PLAYERS if m != n]
        for m in others:  # a sheet titled as another nation's order tab, in the player's own spreadsheet
            forged_id += 1
            _as(google, who, book[n], [
                {"addSheet": {"properties": {"sheetId": forged_id, "title": orders_tab(m)}}},
                gsheets._block_request(forged_id, WriteBlock(orders_tab(m), 1, 1, [
                    ORDERS.header("ru"), _order(f"Подделка{n}{m}")])),
            ])
        rename = {"updateSheetProperties": {"properties": {"sheetId": own_id[n], "title": orders_tab(n) + " "},
                                            "fields": "title"}}
        with pytest.raises(GoogleError):  # the program's tab is protected: its title stays ...
            _as(google, who, book[n], [rename])
        with pytest.raises(GoogleError):  # ... and so does the tab
            _as(google, who, book[n], [{"deleteSheet": {"sheetId": own_id[n]}}])
        forged_id += 1  # a sheet titled as a GM's tab: no more read than an order tab of another side
        _as(google, who, book[n], [{"addSheet": {"properties": {"sheetId": forged_id, "title": "Казна"}}},
                                   gsheets._block_request(forged_id, WriteBlock("Казна", 1, 1, [["Подделка"]]))])
        for closed in (sid, book[others[0]], made.get("gm_book") or homes.audience_home["gm"]):
            with pytest.raises(GoogleError):  # a reader, or no access at all
                _as(google, who, closed, [{"addSheet": {"properties": {"title": orders_tab(others[0])}}}])

    out = json.loads(_run(capsys, "check", sid, *creds, "--json"))
    warned = "\n".join(out.get("warnings", []))
    for n in PLAYERS:
        for m in PLAYERS:
            if m != n:
                assert f"«{orders_tab(m)}»" in warned and f"«{n}»" in warned, (n, m, warned)
    assert warned.count("«Казна»") == len(PLAYERS)

    tables = google.backend(sid).read()
    assert "Подделка" not in _text(tables)
    for n in PLAYERS:
        row = tables[orders_tab(n)][1]
        assert row[2] == f"Настоящий{n}" and row[STATUS], (n, row)  # the real row has its status
        forged = google.tabs(book[n], *[orders_tab(m) for m in PLAYERS if m != n])
        for m, grid in forged.items():  # nothing was written into a forged sheet
            assert len(grid[1]) <= STATUS and grid[1][2].startswith("Подделка"), (n, m, grid[1])

    _run(capsys, "resolve", sid, *creds, "--stage", "государство")
    after = google.backend(sid).read()
    archive = _text({"a": after["Архив приказов"]})
    assert "Подделка" not in _text(after)
    for n in PLAYERS:
        assert f"Настоящий{n}" in archive, n


def test_i23_p2_a_tab_the_program_adds_to_a_players_spreadsheet_later_is_read_by_its_id(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    """A write that creates a tab of one side (``beside`` its order tab) lists its id in the GM's
    ``_strategos`` in the same write: the next read takes it from that side's spreadsheet, and a
    sheet of the same kind the player adds beside it is still refused."""
    creds = ["--credentials", str(google.sa_key)]
    made = json.loads(_run(capsys, "new", "--google", "--ruleset", "civ1", "--gm", support.GM,
                           "--player", f"Рим={support.P1}", *creds, "--json"))
    sid = made["spreadsheet_id"]
    backend = google.backend(sid)
    backend.read()
    note = "Заметка — Рим"
    backend.write(Changeset(replace=[ReplaceTab(note, [["от ведущего"]], beside=orders_tab("Рим"),
                                                audience=player("Рим"))]))
    rome = backend.tab_home[orders_tab("Рим")]
    _as(google, support.P1, rome, [{"addSheet": {"properties": {"sheetId": 990_000_001, "title": "Заметка 2"}}}])
    again = google.backend(sid)
    tables = again.read()
    assert tables[note] == [["от ведущего"]] and again.tab_home[note] == rome
    assert "Заметка 2" not in tables and any("«Заметка 2»" in w for w in again.audit())

    # a write that added a tab to Рим's spreadsheet and failed before the GM's: the tab is not listed
    late = "Итоги — Рим"
    _as(google, support.SA, rome, [{"addSheet": {"properties": {"sheetId": 990_000_002, "title": late}}}])
    assert late not in again.read()
    again.write(Changeset(replace=[ReplaceTab(late, [["снова"]], beside=orders_tab("Рим"), audience=player("Рим"))]))
    assert google.backend(sid).read()[late] == [["снова"]]  # the re-run's write lists it


def test_i23_p2_a_campaign_without_ids_reads_no_title_two_players_spreadsheets_share() -> None:
    """A campaign made before the ``#tab`` rows: a title found in two players' spreadsheets, or one
    the campaign already has, is read from none (a forger cannot take another side's tab's place)."""
    books: dict[str, Tables] = {"rome": {"Приказы — Рим": [], "Своё": []}, "babylon": {"Приказы — Рим": []}}
    gate = gsheets_gate.Gate({}, books)
    tables: Tables = {"Кампания": []}
    info = gsheets.SheetInfo
    assert not gate.admits("rome", info("rome", 1, "Приказы — Рим", 1, 1), tables)
    assert not gate.admits("babylon", info("babylon", 2, "Приказы — Рим", 1, 1), tables)
    assert gate.admits("rome", info("rome", 3, "Своё", 1, 1), tables)
    assert not gate.admits("rome", info("rome", 4, "Кампания", 1, 1), tables)
    with_ids = gsheets_gate.Gate({"rome": {1}}, books)
    assert with_ids.admits("rome", info("rome", 1, "Приказы — Рим", 1, 1), tables)
    assert not with_ids.admits("babylon", info("babylon", 2, "Приказы — Рим", 1, 1), tables)
    assert gate.refused == {"rome": ["Приказы — Рим", "Кампания"], "babylon": ["Приказы — Рим"]}
