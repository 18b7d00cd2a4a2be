"""Issue 24, point 4 for civ1: what a nation alone learns (its spy's report, a village's gift) is told
to that nation (`report.tell(text, to=nation)`) and the core's runner appends it to the nation's own
log «Донесения — <нация>», in that nation's book alone.  The log keeps every window: the spy report
of «1:государство» is still in the spy owner's book after «1:города» (the «Держава» tab, replaced
every window, no longer has to hold it), and `report --players --turn 1:государство` reads it back.

On .xlsx (the owner's book and another player's, opened with openpyxl) and on the emulator (each
spreadsheet read as each player's own identity, as tests/bridge/test_google_privacy.py does).
"""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
import test_google_support as support
from test_google_support import GoogleEnv

from engine.core import meta
from engine.core.audience import GM, PUBLIC, player
from engine.core.cursor import Cursor
from engine.core.tables import Changeset, ReplaceTab, Tables
from engine.rulesets.civ1 import codec, hooks
from engine.rulesets.civ1.calendar import CALENDAR
from engine.rulesets.civ1.vocab import TECHS, TREASURY, dispatches_tab, orders_tab
from sheets_bridge import gsheets, xlsx_books
from sheets_bridge.cli import main
from sheets_bridge.google_http import GoogleNotFoundError, GooglePermissionError, make_client
from sheets_bridge.xlsx import XlsxBackend

SPY = "Шпион в «Афины» (изучить город)"  # the start of Rome's spy report on Greece's capital
ORDERS = {"Рим": [["государство", "Шпионаж", "изучить город", None, "Афины"], ["города", "Нет действий"]]}
SPY_TECH = "Валюта"  # a technology that gives its nation a spy («Правила — Технологии»)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _planted(tables: Tables) -> Changeset:
    """Rome gets a spy technology and the Власть to send its spy, as the GM keeps them (the GM's tabs)."""
    world = codec.decode(tables)
    rome = world.nations["Рим"]
    rome.techs, rome.power = {SPY_TECH: 0}, 5
    grids = codec.encode(world)
    return Changeset(replace=[ReplaceTab(t, grids[t], audience=GM) for t in (TREASURY.ru, TECHS.ru)])


def _book(path: Path) -> tuple[set[str], str]:
    """A book's tab names and every cell of it, as one text."""
    wb = openpyxl.load_workbook(path)
    cells = [str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value is not None]
    return set(wb.sheetnames), "\n".join(cells)


def _told(path: Path) -> list[tuple[object, ...]]:
    """Rome's own log as its book holds it: the rows below the header."""
    ws = openpyxl.load_workbook(path)[dispatches_tab("Рим")]
    return [tuple(c.value for c in row) for row in ws.iter_rows(min_row=2) if any(c.value for c in row)]


def test_i24_p4_the_spy_report_of_the_state_stage_stays_in_its_owners_book_after_the_cities_stage_xlsx(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "civ.xlsx"
    _run(capsys, "new", str(path), "--ruleset", "civ1", "--scenario", "demo")
    backend = XlsxBackend(path)
    backend.write(_planted(backend.read()))
    backend = XlsxBackend(path)
    backend.write(Changeset(blocks=hooks.order_blocks(backend.read(), ORDERS)))
    rome, greece, public = (xlsx_books.book_path(path, who) for who in (player("Рим"), player("Греция"), PUBLIC))

    _run(capsys, "resolve", str(path), "--stage", "государство")
    told = _told(rome)
    assert [w for w, _line in told] == ["1:государство"] and str(told[0][1]).startswith(SPY), told
    for other in (greece, public):
        names, text = _book(other)
        assert dispatches_tab("Рим") not in names and SPY not in text, other

    _run(capsys, "resolve", str(path), "--stage", "города")
    tables = XlsxBackend(path).read()
    assert meta.open_cursor(tables, CALENDAR) == Cursor(2, "state")
    assert _told(rome)[:1] == told  # the log keeps the state stage's line after the cities stage
    names, text = _book(rome)
    assert SPY in text and {orders_tab("Рим"), dispatches_tab("Рим")} <= names
    for other in (greece, public):
        names, text = _book(other)
        assert dispatches_tab("Рим") not in names and SPY not in text, other
    assert SPY not in "\n".join(str(c) for tab in ("Журнал", "Бои") for r in tables[tab] for c in r)

    out = tmp_path / "отчёты"
    for window, shown in (("1:государство", True), ("1", True), ("1:города", False)):
        _run(capsys, "report", str(path), "--turn", window, "--players", str(out))
        assert (SPY in (out / "Рим.md").read_text(encoding="utf-8")) is shown, window
        assert SPY not in (out / "Греция.md").read_text(encoding="utf-8"), window


# ------------------------------------------------------------------ the emulator

emulator_server = support.emulator_server
google = support.google


def _as(google: GoogleEnv, email: str, sid: str) -> str:
    """Everything the spreadsheet `sid` shows the person `email`, as one text."""
    answer = gsheets.get_spreadsheet(make_client(google.key(email)), sid, "*")
    titles = " ".join(s["properties"]["title"] for s in answer["sheets"])
    return titles + "\n" + "\n".join(str(v) for v in support.leaves(answer))


def test_i24_p4_the_spy_report_of_the_state_stage_stays_in_its_owners_book_after_the_cities_stage_emulator(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    creds = ["--credentials", str(google.sa_key)]
    made = json.loads(_run(capsys, "new", "--google", "--ruleset", "civ1", "--gm", support.GM,
                           "--player", f"Рим={support.P1}", "--player", f"Греция={support.P2}", *creds, "--json"))
    sid = made["spreadsheet_id"]
    gm = google.backend(sid)
    gm.write(_planted(gm.read()))
    homes = google.backend(sid)
    tables = homes.read()
    book_rome, book_greece = homes.tab_home[orders_tab("Рим")], homes.tab_home[orders_tab("Греция")]
    rows = hooks.order_blocks(tables, ORDERS)[0]  # typed by Rome's player into Rome's own spreadsheet
    values = [["" if v is None else v for v in r] for r in rows.values]
    make_client(google.key(support.P1)).open_by_key(book_rome).worksheet(rows.tab).update(values, f"A{rows.row}")

    for stage in ("государство", "города"):
        _run(capsys, "resolve", sid, *creds, "--stage", stage)
        assert SPY in _as(google, support.P1, book_rome), stage  # Rome's player reads it in its own book
        for readable in (sid, book_greece):
            seen = _as(google, support.P2, readable)
            assert SPY not in seen and dispatches_tab("Рим") not in seen, (stage, readable)
        with pytest.raises((GoogleNotFoundError, GooglePermissionError)):
            gsheets.get_spreadsheet(make_client(google.key(support.P2)), book_rome, "*")
    assert meta.open_cursor(google.backend(sid).read(), CALENDAR) == Cursor(2, "state")
