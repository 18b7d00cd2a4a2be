"""A new tab's grid holds what creation writes there, and a later write grows a grid it outgrows
(issue 18: a «Civilization 1.0» campaign of 50 nations could not be created on Google).

Google refuses a write or a range past a tab's grid («Attempting to write row: 101, beyond the
last requested row of: 100», «Range … exceeds grid limits»), and so does the emulator.  These
specs are generic and small: no game's world is built here."""

from __future__ import annotations

from typing import Any

import test_google_support as support
from test_google_support import GM, GoogleEnv

from engine.core.tables import Changeset, Highlight, ReplaceTab, TabSpec, Validation, WorkbookSpec, WriteBlock
from sheets_bridge import gsheets
from sheets_bridge.gsheets_format import MIN_COLUMNS, SPARE_ROWS
from sheets_bridge.gsheets_read import BACKEND_TAB

emulator_server = support.emulator_server
google = support.google

GRID_FIELDS = "sheets(properties(title,gridProperties(rowCount,columnCount)),data(rowData(values(userEnteredValue))))"


def _sheets(env: GoogleEnv, spreadsheet_id: str, *ranges: str) -> dict[str, dict[str, Any]]:
    """Title -> {rows, cols, grid} of the spreadsheet's tabs (grid: the values of ``ranges``)."""
    answer = gsheets.get_spreadsheet(env.client(), spreadsheet_id, GRID_FIELDS, ranges)
    out: dict[str, dict[str, Any]] = {}
    for sheet in answer["sheets"]:
        props = sheet["properties"]
        data = sheet.get("data") or []
        out[props["title"]] = {
            "rows": props["gridProperties"]["rowCount"],
            "cols": props["gridProperties"]["columnCount"],
            "grid": gsheets._grid_of(data[0]) if data else [],
        }
    return out


def test_a_campaign_with_more_shares_than_spare_rows_keeps_every_share(google: GoogleEnv) -> None:
    """The bookkeeping tab ``_strategos`` is created from its header alone (1 + SPARE_ROWS rows)
    before the shares it records are known; a campaign with more players than its spare rows
    (one order tab each, one spreadsheet) must still be created, with every share recorded."""
    n = SPARE_ROWS + 2
    sides = [f"S{i:03d}" for i in range(n)]
    tabs = [TabSpec("Общий", [["Сторона"], *[[s] for s in sides]])]
    tabs += [TabSpec(f"Приказы {s}", [["Приказ"], [""]], kind="orders", owner=s, editable_columns=(1, 1))
             for s in sides]
    players = {s: f"p{i}@example.com" for i, s in enumerate(sides)}
    created = google.create(WorkbookSpec("many shares", tabs), players=players)
    sheets = _sheets(google, created.spreadsheet_id, f"{BACKEND_TAB}!A:D")
    keeper = sheets[BACKEND_TAB]
    shared = {row[2] for row in keeper["grid"] if len(row) > 3 and row[3] == "writer"}
    assert shared == {GM, *players.values()}
    assert keeper["rows"] >= len(keeper["grid"]) > 1 + SPARE_ROWS
    backend = google.backend(created.spreadsheet_id)
    assert backend.read()["Общий"][-1] == [sides[-1]]


def test_a_tab_whose_formats_reach_past_its_content_gets_a_grid_that_holds_them(google: GoogleEnv) -> None:
    """Number formats over ``format_rows``, a dropdown down to its ``last_row``, a highlight and a
    wrapped column beyond the content and beyond the spare rows and columns: the grid holds them
    all.  An order tab of its header alone still has row 2, where its input block and wrapping
    start."""
    far_row, far_col = SPARE_ROWS + 60, MIN_COLUMNS + 4
    data = TabSpec(
        "Данные", [["А", "Б"], [1, 2]], format_rows=SPARE_ROWS + 20, number_formats={2: "0.00", far_col: "@"},
        validations=[Validation(2, far_row, 1, options=("да", "нет"))],
        highlights=[Highlight(f"C2:C{far_row + 10}", "=C2<0")], wrap_columns=(far_col + 1,),
    )
    orders = TabSpec("Приказы", [["Приказ", "Причина"]], kind="orders", owner="S", editable_columns=(1, 2),
                     wrap_columns=(2,))
    created = google.create(WorkbookSpec("far formats", [data, orders]), players={"S": "s@example.com"})
    sheets = _sheets(google, created.spreadsheet_id)
    assert sheets["Данные"]["rows"] >= far_row + 10 and sheets["Данные"]["cols"] >= far_col + 1
    assert sheets["Приказы"]["rows"] == 2  # an order tab: exactly what creation needs
    assert google.backend(created.spreadsheet_id).read()["Данные"][1] == [1, 2]


def test_a_write_past_a_tabs_grid_grows_the_grid_first(google: GoogleEnv) -> None:
    """A later write (a resolve's growing log, a replaced tab longer than before) past a tab's
    rows and columns: the grid is grown (appendDimension) in the same batch, nothing is lost."""
    created = google.create(WorkbookSpec("growing", [TabSpec("Журнал", [["Ход", "Событие"]]),
                                                       TabSpec("Итоги", [["Сторона"]])]), players={})
    sid = created.spreadsheet_id
    before = _sheets(google, sid)
    row, col = before["Журнал"]["rows"] + 30, before["Журнал"]["cols"] + 3
    longer = [["Сторона"], *[[f"S{i}"] for i in range(before["Итоги"]["rows"] + 5)]]
    google.backend(sid).write(Changeset(replace=[ReplaceTab("Итоги", longer)],
                                        blocks=[WriteBlock("Журнал", row, col, [["далеко", 7]])]))
    after = _sheets(google, sid)
    assert after["Журнал"]["rows"] >= row and after["Журнал"]["cols"] >= col + 1
    tables = google.backend(sid).read()
    assert tables["Журнал"][row - 1][col - 1:col + 1] == ["далеко", 7]
    assert tables["Итоги"] == longer
