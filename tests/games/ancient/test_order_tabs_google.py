"""Issue 15, points 1-3 on the Google emulator: a rewritten row is an order of the open turn, and
a renamed order tab is followed by its sheetId even when a player adds a tab with its old title."""

from __future__ import annotations

import pytest
import test_google_support as support
from test_google_support import P1, GoogleEnv

from engine.core.tables import Cell, Changeset, Tables, WriteBlock
from engine.core.tabs import REGISTRY_TAB
from engine.rulesets.ancient import codec
from sheets_bridge import gsheets
from sheets_bridge.cli import main
from sheets_bridge.google_http import GooglePermissionError

emulator_server = support.emulator_server
google = support.google

EGYPT = "Приказы — Египет"
ROME = "Приказы — Рим"
HEADER = ["Действие", "Объект", "Где", "Куда", "Кол-во", "Комментарий", "Ход", "Статус", "Причина", "Понято как"]


def _write(google: GoogleEnv, sid: str, tab: str, row: int, values: list[Cell]) -> None:
    backend = google.backend(sid)
    backend.read()
    backend.write(Changeset(blocks=[WriteBlock(tab, row, 1, [values])]))


def _cli(google: GoogleEnv, sid: str, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    url = f"https://docs.google.com/spreadsheets/d/{sid}/edit"
    code = main([argv[0], url, *argv[1:], "--credentials", str(google.sa_key)])
    out, err = capsys.readouterr()
    return code, out, err


def _row(tables: Tables, tab: str, row: int) -> list[Cell]:
    line = list(tables[tab][row - 1]) if row - 1 < len(tables[tab]) else []
    return line + [None] * (10 - len(line))


def test_i15_p1_row_rewritten_after_check_is_an_order_of_the_open_turn_on_google(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    sid = google.campaign("demo", orders=False)
    _write(google, sid, EGYPT, 2, ["Нет действий"])
    assert _cli(google, sid, capsys, "resolve", "--turn", "1")[0] == 0
    _write(google, sid, EGYPT, 2, ["Построить", "Порт", "Нижний Египет"])
    code, _out, err = _cli(google, sid, capsys, "check")
    assert code == 0, err
    assert _row(google.backend(sid).read(), EGYPT, 2)[7] == "принят"
    assert _cli(google, sid, capsys, "resolve", "--turn", "2")[0] == 0
    tables = google.backend(sid).read()
    line = _row(tables, EGYPT, 2)
    assert line[6] == 2 and line[7] == "выполнен" and line[:3] == [None, None, None]
    assert "Порт" in codec.decode(tables).campaign.provinces["Нижний Египет"].buildings


def test_i15_p2_p3_renamed_order_tab_is_followed_by_its_sheet_id_past_a_look_alike(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    """After turn 1 the registry knows Rome's sheetId.  The GM renames Rome's tab to «Приказы - Рим»;
    Egypt's player adds a tab titled «Приказы — Рим» and orders Rome to buy stability there.  Turn 2
    reads Rome's real tab, ignores the added one and names it to the GM."""
    sid = google.create(support.demo_spec()).spreadsheet_id  # shared with the GM and the players
    assert _cli(google, sid, capsys, "resolve", "--turn", "1")[0] == 0
    backend = google.backend(sid)
    tables = backend.read()
    assert tables[REGISTRY_TAB][0] == ["Роль", "Лист", "Id"]
    rome_id = int(backend.tab_ids[ROME])
    registry_id = int(backend.tab_ids[REGISTRY_TAB])
    forge = gsheets._block_request(registry_id, WriteBlock(REGISTRY_TAB, 2, 3, [[str(777_000_111)]]))
    with pytest.raises(GooglePermissionError):  # the registry is the GM's: a player cannot point it elsewhere
        gsheets.send_batch(google.client(P1), sid, gsheets.Batch([forge]))
    renamed = "Приказы - Рим"
    rename = {"updateSheetProperties": {"properties": {"sheetId": rome_id, "title": renamed}, "fields": "title"}}
    gsheets.send_batch(google.client(support.GM), sid, gsheets.Batch([rename]))
    fake_id = 777_000_111
    fake = [
        {"addSheet": {"properties": {"sheetId": fake_id, "title": ROME}}},
        gsheets._block_request(fake_id, WriteBlock(ROME, 1, 1, [HEADER, ["Стабильность"]])),
    ]
    gsheets.send_batch(google.client(P1), sid, gsheets.Batch(fake))
    _write(google, sid, renamed, 2, ["Нет действий"])
    code, out, err = _cli(google, sid, capsys, "resolve", "--turn", "2")
    assert code == 0, err
    assert f"«{ROME}»" in out and "создан не программой" in out
    tables = google.backend(sid).read()
    assert _row(tables, renamed, 2)[6:8] == [2, "выполнен"]
    assert _row(tables, ROME, 2)[:8] == ["Стабильность", None, None, None, None, None, None, None]
    archived = [r for r in tables["Архив приказов"][1:] if r and r[0] == 2 and r[1] == "Рим"]
    assert [r[2:4] for r in archived] == [[2, "Нет действий"]]
