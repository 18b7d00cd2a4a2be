"""gspread end to end through make_client against the emulator (STRATEGOS_GOOGLE_API_BASE).

These cover what the recorded cassettes cannot: several identities (sharing, protected
ranges), the batch value endpoints (values:batchGet/batchUpdate/batchClear, absent from
the recordings) and the emulator's statistics.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
import requests
from emulator_support import GM, OUTSIDER, PLAYER
from gspread.utils import ExportFormat

from sheets_bridge.emulator.testing import Emulator
from sheets_bridge.google_http import (
    GoogleBadRequestError,
    GoogleNotFoundError,
    GooglePermissionError,
    GoogleProtectedRangeError,
    GoogleServerError,
    StrategosClient,
)

ClientFor = Callable[..., StrategosClient]

PROTECTED_BODY = {
    "error": {
        "code": 400,
        "message": "You are trying to edit a protected cell or object. Please contact the spreadsheet owner "
        "to remove protection if you need to edit.",
        "status": "INVALID_ARGUMENT",
    }
}


def _user_entered(sheet: Any, a1_range: str) -> list[dict[str, Any]]:
    data = sheet.spreadsheet.fetch_sheet_metadata(
        {"ranges": f"'{sheet.title}'!{a1_range}", "fields": "sheets.data.rowData.values.userEnteredValue"}
    )
    row = data["sheets"][0]["data"][0]["rowData"][0]
    return [cell.get("userEnteredValue", {}) for cell in row["values"]]


def test_create_add_sheets_and_read_back(emulator: Emulator, client_for: ClientFor) -> None:
    """Create a spreadsheet, add tabs, write and read values like gspread users do."""
    gc = client_for(GM)
    sh = gc.create("Кампания: Древний мир")
    assert sh.sheet1.title == "Sheet1"
    orders = sh.add_worksheet("Приказы игроков", rows=50, cols=8)
    sh.add_worksheet("Events", rows=10, cols=4)
    assert [ws.title for ws in sh.worksheets()] == ["Sheet1", "Приказы игроков", "Events"]
    orders.update([["Игрок", "Приказ"], ["Рим", "Осада Карфагена"]], "A1")
    assert orders.get_all_values()[:2] == [["Игрок", "Приказ"], ["Рим", "Осада Карфагена"]]
    got = orders.get("A1:B2")
    assert got.range == "'Приказы игроков'!A1:B2"
    reopened = gc.open_by_key(sh.id)
    assert reopened.title == "Кампания: Древний мир"
    assert gc.open("Кампания: Древний мир").id == sh.id


def test_raw_keeps_text_user_entered_parses(emulator: Emulator, client_for: ClientFor) -> None:
    """RAW stores text as text (even formulas); USER_ENTERED stores formulas and numbers."""
    ws = client_for(GM).create("Input options").sheet1
    formula = '=IMPORTXML("https://example.com", "//a")'
    ws.update([[formula, "0042", "2,000.5", "=1+1", "TRUE"]], "A1", raw=True)
    ws.update([[formula, "0042", "2,000.5", "=1+1", "TRUE"]], "A2", raw=False)
    assert _user_entered(ws, "A1:E1") == [
        {"stringValue": formula},
        {"stringValue": "0042"},
        {"stringValue": "2,000.5"},
        {"stringValue": "=1+1"},
        {"stringValue": "TRUE"},
    ]
    assert _user_entered(ws, "A2:E2") == [
        {"formulaValue": formula},
        {"numberValue": 42},
        {"numberValue": 2000.5},
        {"formulaValue": "=1+1"},
        {"boolValue": True},
    ]
    assert ws.get("A2:E2")[0] == [formula, "42", "2,000.5", "2", "TRUE"]
    assert ws.get("A2:E2", value_render_option="UNFORMATTED_VALUE")[0] == [formula, 42, 2000.5, 2, True]
    assert ws.get("A2:E2", value_render_option="FORMULA")[0] == [formula, 42, 2000.5, "=1+1", True]


def test_paste_data_parses_each_field_as_typed_and_keeps_formats(emulator: Emulator, client_for: ClientFor) -> None:
    """pasteData (the bridge's compact way to write numbers): delimited text parsed field by field
    as if typed (en_US), PASTE_VALUES keeping the cell's format; protected cells refuse it; HTML
    and the other paste types are not emulated (501).  Quoting and an empty field clearing the
    cell are the emulator's choices (docs/emulator.md)."""
    gm, player = client_for(GM), client_for(PLAYER)
    sh = gm.create("Paste")
    sh.share(PLAYER, perm_type="user", role="writer", notify=False)
    ws = sh.sheet1
    ws.update([["old", "old", "old"]], "A3", raw=True)
    ws.format("A2", {"numberFormat": {"type": "NUMBER", "pattern": "0.0"}})

    def paste(client: StrategosClient, data: str, **extra: Any) -> None:
        body = {"coordinate": {"sheetId": ws.id, "rowIndex": 1, "columnIndex": 0}, "data": data,
                "type": "PASTE_VALUES", "delimiter": ",", **extra}
        client.open_by_key(sh.id).batch_update({"requests": [{"pasteData": body}]})

    paste(gm, '12,-3,2.5\n"x,y",TRUE,\n0042')
    assert _user_entered(ws, "A2:C2") == [{"numberValue": 12}, {"numberValue": -3}, {"numberValue": 2.5}]
    assert _user_entered(ws, "A3:B3") == [{"stringValue": "x,y"}, {"boolValue": True}]
    assert ws.get("C3") == [[]]  # the empty field cleared "old"
    assert _user_entered(ws, "A4") == [{"numberValue": 42}]  # parsed as typed: why text is never pasted
    assert ws.get("A2")[0] == ["12.0"]  # the number format of A2 stayed

    sh.batch_update({"requests": [{"updateSpreadsheetProperties": {"properties": {"locale": "ru_RU"},
                                                                   "fields": "locale"}}]})
    paste(gm, "2.5,3")
    assert _user_entered(ws, "A2:B2") == [{"stringValue": "2.5"}, {"numberValue": 3}]  # not 2.5 in ru_RU

    ws.add_protected_range("B2", editor_users_emails=[GM])
    with pytest.raises(GoogleProtectedRangeError) as err:
        paste(player, "1,2")
    assert err.value.google_message.startswith("Invalid requests[0].pasteData: You are trying to edit")
    for extra in ({"html": True}, {"type": "PASTE_FORMAT"}):
        with pytest.raises(GoogleServerError) as server:
            paste(gm, "1", **extra)
        assert server.value.code == 501
        assert "not implemented by the Strategos emulator" in server.value.google_message


def test_range_normalisation_and_trimming(emulator: Emulator, client_for: ClientFor) -> None:
    """Quoted titles only when needed, open ranges clipped, empties omitted/trimmed."""
    gc = client_for(GM)
    sh = gc.create("Ranges")
    ws = sh.add_worksheet("D3", rows=20, cols=5)
    empty = sh.values_get("'D3'!A1:D4")
    assert empty == {"range": "'D3'!A1:D4", "majorDimension": "ROWS"}
    ws.update([["a", "", "c", ""], ["", "", "", ""], ["x"]], "A1")
    assert sh.values_get("'D3'!A:A") == {"range": "'D3'!A1:A20", "majorDimension": "ROWS", "values": [["a"], [], ["x"]]}
    assert sh.values_get("D3")["range"] == "'D3'!A1:E20"
    assert sh.values_get("Sheet1!B2:B")["range"] == "Sheet1!B2:B1000"
    columns = sh.values_get("'D3'!A1:C3", params={"majorDimension": "COLUMNS"})
    assert columns["values"] == [["a", "", "x"], [], ["c"]]
    with pytest.raises(GoogleBadRequestError) as err:
        sh.values_get("'D3'!A1:F1")
    assert err.value.google_message == "Range ('D3'!A1:F1) exceeds grid limits. Max rows: 20, max columns: 5"
    with pytest.raises(GoogleBadRequestError) as err:
        sh.values_get("'Nope'!A1")
    assert err.value.google_message == "Unable to parse range: 'Nope'!A1"


def test_batch_value_endpoints(emulator: Emulator, client_for: ClientFor) -> None:
    """values:batchUpdate / batchGet / batchClear, which the recordings do not contain."""
    sh = client_for(GM).create("Batch values")
    sh.add_worksheet("Map", rows=10, cols=5)
    answer = sh.values_batch_update(
        {
            "valueInputOption": "USER_ENTERED",
            "data": [
                {"range": "Sheet1!A1", "values": [["turn", 3]]},
                {"range": "'Map'!B2:C3", "values": [["Rome", "=2*3"], ["Carthage"]]},
            ],
        }
    )
    assert answer["totalUpdatedCells"] == 5
    assert answer["totalUpdatedSheets"] == 2
    assert [r["updatedRange"] for r in answer["responses"]] == ["Sheet1!A1:B1", "Map!B2:C3"]
    got = sh.values_batch_get(["Sheet1!A1:B1", "Map!B2:C3", "Map!E1"])
    assert got["valueRanges"] == [
        {"range": "Sheet1!A1:B1", "majorDimension": "ROWS", "values": [["turn", "3"]]},
        {"range": "Map!B2:C3", "majorDimension": "ROWS", "values": [["Rome", "6"], ["Carthage"]]},
        {"range": "Map!E1", "majorDimension": "ROWS"},
    ]
    cleared = sh.values_batch_clear(body={"ranges": ["Map!B2:B3", "Sheet1!B1"]})
    assert cleared["clearedRanges"] == ["Map!B2:B3", "Sheet1!B1"]
    assert sh.values_get("Map!B2:C3")["values"] == [["", "6"]]
    with pytest.raises(GoogleBadRequestError) as err:  # all-or-nothing
        sh.values_batch_update(
            {
                "valueInputOption": "RAW",
                "data": [{"range": "Sheet1!A1", "values": [["changed"]]}, {"range": "Nope!A1", "values": [["x"]]}],
            }
        )
    assert err.value.google_message == "Invalid data[1]: Unable to parse range: Nope!A1"
    assert sh.values_get("Sheet1!A1")["values"] == [["turn"]]


def test_batch_update_is_atomic(emulator: Emulator, client_for: ClientFor) -> None:
    """A failing sub-request leaves the earlier ones unapplied, with Google's error body."""
    sh = client_for(GM).create("Atomic")
    body = {
        "requests": [
            {"addSheet": {"properties": {"title": "Turn 2"}}},
            {
                "updateCells": {
                    "range": {
                        "sheetId": 0,
                        "startRowIndex": 0,
                        "endRowIndex": 1,
                        "startColumnIndex": 0,
                        "endColumnIndex": 1,
                    },
                    "rows": [{"values": [{"userEnteredValue": {"stringValue": "x"}}]}],
                    "fields": "*",
                }
            },
            {"deleteSheet": {"sheetId": 424242}},
        ]
    }
    with pytest.raises(GoogleBadRequestError) as err:
        sh.batch_update(body)
    assert err.value.response.json() == {
        "error": {
            "code": 400,
            "message": "Invalid requests[2].deleteSheet: No sheet with id: 424242",
            "status": "INVALID_ARGUMENT",
        }
    }
    assert [ws.title for ws in sh.worksheets()] == ["Sheet1"]
    assert "values" not in sh.values_get("Sheet1")


def test_sharing_roles_and_google_error_bodies(emulator: Emulator, client_for: ClientFor) -> None:
    """Owner / reader / writer / stranger, with Google's recorded error bodies."""
    gm, player = client_for(GM), client_for(PLAYER)
    sh = gm.create("Shared")
    sh.sheet1.update([["secret"]], "A1")
    with pytest.raises(GooglePermissionError) as err:
        player.open_by_key(sh.id)
    assert err.value.response.json() == {
        "error": {"code": 403, "message": "The caller does not have permission", "status": "PERMISSION_DENIED"}
    }
    assert PLAYER in str(err.value) and "откройте доступ этому адресу" in str(err.value)
    with pytest.raises(GoogleNotFoundError) as nf:
        player.http_client.get_file_drive_metadata(sh.id)
    assert nf.value.response.json()["error"]["errors"][0]["reason"] == "notFound"
    with pytest.raises(GoogleNotFoundError):
        gm.open_by_key("1" + "x" * 43)

    sh.share(PLAYER, perm_type="user", role="reader", notify=False)
    as_reader = player.open_by_key(sh.id)
    assert as_reader.sheet1.acell("A1").value == "secret"
    with pytest.raises(GooglePermissionError) as err:
        as_reader.sheet1.update([["hack"]], "A1")
    assert err.value.code == 403
    assert "роль «Редактор»" in str(err.value)

    sh.share(PLAYER, perm_type="user", role="writer", notify=False)
    as_reader.sheet1.update([["order"]], "B1")
    assert sh.sheet1.get("A1:B1") == [["secret", "order"]]
    perms = {p["emailAddress"]: p["role"] for p in sh.list_permissions()}
    assert perms == {GM: "owner", PLAYER: "writer"}
    assert [f["name"] for f in player.list_spreadsheet_files()] == ["Shared"]

    player_perm = next(p for p in sh.list_permissions() if p["emailAddress"] == PLAYER)
    sh.remove_permissions(PLAYER)
    assert player_perm["id"] not in {p["id"] for p in sh.list_permissions()}
    with pytest.raises(GooglePermissionError):
        player.open_by_key(sh.id)


def test_protected_ranges_per_identity(emulator: Emulator, client_for: ClientFor) -> None:
    """A writer outside editors.users is refused inside the range (Google's 400 body)."""
    gm, player = client_for(GM), client_for(PLAYER)
    sh = gm.create("Protected")
    sh.share(PLAYER, perm_type="user", role="writer", notify=False)
    ws = sh.sheet1
    ws.add_protected_range("A1:B2", editor_users_emails=[GM])
    ws.add_protected_range("D1:D2", warning_only=True)
    mine = player.open_by_key(sh.id).sheet1

    with pytest.raises(GoogleProtectedRangeError) as err:
        mine.update([["x", "y"]], "B2:C2")
    assert err.value.response.json() == PROTECTED_BODY
    assert err.value.code == 400
    assert "защищён" in str(err.value) and PLAYER in str(err.value)
    with pytest.raises(GoogleProtectedRangeError) as err:
        mine.update_note("A1", "note")  # updateCells through batchUpdate
    assert err.value.google_message.startswith("Invalid requests[0].updateCells: You are trying to edit")
    with pytest.raises(GoogleProtectedRangeError):
        mine.batch_clear(["A1:Z1"])

    mine.update([["free"]], "C3")  # outside: fine
    mine.update([["warned"]], "D1")  # warningOnly does not block
    ws.update([["gm"]], "A1")  # the owner always can
    assert ws.get("A1:D3") == [["gm", "", "", "warned"], [], ["", "", "free"]]

    meta = sh.fetch_sheet_metadata({"fields": "sheets(properties,protectedRanges)"})
    ranges = meta["sheets"][0]["protectedRanges"]
    assert ranges[0]["editors"] == {"users": [GM]}
    assert ranges[0]["range"] == {"startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 2}
    player_meta = player.open_by_key(sh.id).fetch_sheet_metadata({"fields": "sheets.protectedRanges"})
    assert "requestingUserCanEdit" not in player_meta["sheets"][0]["protectedRanges"][0]
    assert "editors" not in player_meta["sheets"][0]["protectedRanges"][0]  # hidden from non-editors

    # A whole-sheet protection with a hole for the players' orders.
    orders = sh.add_worksheet("Orders", rows=20, cols=5)
    sh.batch_update(
        {
            "requests": [
                {
                    "addProtectedRange": {
                        "protectedRange": {
                            "range": {"sheetId": orders.id},
                            "editors": {"users": [GM]},
                            "unprotectedRanges": [
                                {
                                    "sheetId": orders.id,
                                    "startRowIndex": 1,
                                    "endRowIndex": 20,
                                    "startColumnIndex": 1,
                                    "endColumnIndex": 2,
                                }
                            ],
                        }
                    }
                }
            ]
        }
    )
    player_orders = player.open_by_key(sh.id).worksheet("Orders")
    player_orders.update([["attack"]], "B5")
    with pytest.raises(GoogleProtectedRangeError):
        player_orders.update([["cheat"]], "A5")
    with pytest.raises(GoogleProtectedRangeError):
        player_orders.update([["attack", "cheat"]], "B6")


def test_sheet_structure_requests(emulator: Emulator, client_for: ClientFor) -> None:
    """Freeze, hide, tab colour, notes, merges, formats and validation round-trip."""
    sh = client_for(GM).create("Structure")
    ws = sh.sheet1
    ws.freeze(rows=1, cols=2)
    ws.update_tab_color("#ff0080")
    ws.update([["a", "b"], ["c", "d"]], "A1")
    ws.update_note("A1", "первый ход")
    ws.merge_cells("A1:B1")
    ws.format("A2", {"textFormat": {"bold": True}, "backgroundColor": {"red": 1, "green": 0.5, "blue": 0}})
    sh.batch_update(
        {
            "requests": [
                {
                    "setDataValidation": {
                        "range": {
                            "sheetId": ws.id,
                            "startRowIndex": 1,
                            "endRowIndex": 5,
                            "startColumnIndex": 2,
                            "endColumnIndex": 3,
                        },
                        "rule": {
                            "condition": {
                                "type": "ONE_OF_LIST",
                                "values": [{"userEnteredValue": "attack"}, {"userEnteredValue": "defend"}],
                            },
                            "strict": True,
                            "showCustomUi": True,
                        },
                    }
                },
                {
                    "updateDimensionProperties": {
                        "range": {"sheetId": ws.id, "dimension": "COLUMNS", "startIndex": 3, "endIndex": 4},
                        "properties": {"pixelSize": 40, "hiddenByUser": True},
                        "fields": "pixelSize,hiddenByUser",
                    }
                },
            ]
        }
    )
    meta = sh.fetch_sheet_metadata(
        {
            "includeGridData": "true",
            "ranges": "Sheet1!A1:C2",
            "fields": "sheets(properties,merges,data(rowData.values(note,userEnteredFormat,dataValidation)))",
        }
    )
    sheet = meta["sheets"][0]
    assert sheet["properties"]["gridProperties"] == {
        "rowCount": 1000,
        "columnCount": 26,
        "frozenRowCount": 1,
        "frozenColumnCount": 2,
    }
    assert sheet["properties"]["tabColorStyle"] == {"rgbColor": {"red": 1, "blue": 0.5019608}}
    assert sheet["merges"] == [{"startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 0, "endColumnIndex": 2}]
    rows = sheet["data"][0]["rowData"]
    assert rows[0]["values"][0]["note"] == "первый ход"
    fmt = rows[1]["values"][0]["userEnteredFormat"]
    assert fmt["textFormat"] == {"bold": True}
    assert fmt["backgroundColorStyle"] == {"rgbColor": {"red": 1, "green": 0.49803922}}
    assert rows[1]["values"][2]["dataValidation"]["condition"]["type"] == "ONE_OF_LIST"
    assert ws.get("A1:B2") == [["a"], ["c", "d"]]  # merge dropped B1
    cols = sh.fetch_sheet_metadata({"fields": "sheets.data.columnMetadata"})["sheets"][0]["data"][0]
    assert cols["columnMetadata"][3] == {"hiddenByUser": True, "pixelSize": 40}


def test_dimensions_shift_protection_and_merges(emulator: Emulator, client_for: ClientFor) -> None:
    """insert/delete rows shift values, merges and protected ranges like Sheets."""
    sh = client_for(GM).create("Dimensions")
    ws = sh.sheet1
    ws.update([["r1"], ["r2"], ["r3"]], "A1")
    ws.merge_cells("B2:C2")
    ws.add_protected_range("A3:A3", editor_users_emails=[GM])
    ws.insert_rows([["new"]], row=2)
    assert ws.col_values(1) == ["r1", "new", "r2", "r3"]
    meta = sh.fetch_sheet_metadata({"fields": "sheets(merges,protectedRanges.range,properties.gridProperties)"})
    sheet = meta["sheets"][0]
    assert sheet["merges"] == [{"startRowIndex": 2, "endRowIndex": 3, "startColumnIndex": 1, "endColumnIndex": 3}]
    assert sheet["protectedRanges"][0]["range"]["startRowIndex"] == 3
    assert sheet["properties"]["gridProperties"]["rowCount"] == 1001
    ws.delete_rows(1, 2)
    assert ws.col_values(1) == ["r2", "r3"]


def test_stats_count_requests(emulator: Emulator, client_for: ClientFor) -> None:
    """/_emulator/stats counts per endpoint and identity; reset clears counters only."""
    sh = client_for(GM).create("Stats")
    ws = sh.sheet1
    emulator.reset()
    ws.update([["a"]], "A1")
    ws.get("A1")
    ws.append_row(["b"])
    stats = emulator.stats()
    assert stats["total"] == 3
    assert stats["by_endpoint"] == {"sheets.values.update": 1, "sheets.values.get": 1, "sheets.values.append": 1}
    assert stats["by_identity"] == {GM: 3}
    first = stats["requests"][0]
    assert first["n"] == 1 and first["method"] == "PUT" and first["status"] == 200
    assert first["endpoint"] == "sheets.values.update" and first["identity"] == GM
    assert first["request_bytes"] > 0 and first["response_bytes"] > 0
    emulator.reset()
    assert emulator.stats()["total"] == 0
    assert client_for(GM).open_by_key(sh.id).sheet1.get("A1:A2") == [["a"], ["b"]]


def test_drive_copy_rename_list_delete(emulator: Emulator, client_for: ClientFor) -> None:
    """Drive operations gspread exposes."""
    gc = client_for(GM)
    sh = gc.create("Original")
    sh.sheet1.update([["keep"]], "A1")
    copy = gc.copy(sh.id, title="Turn 5 snapshot")
    assert copy.sheet1.acell("A1").value == "keep"
    sh.update_title("Renamed")
    names = sorted(f["name"] for f in gc.list_spreadsheet_files())
    assert names == ["Renamed", "Turn 5 snapshot"]
    assert [f["name"] for f in gc.list_spreadsheet_files(title="Renamed")] == ["Renamed"]
    assert gc.export(sh.id, ExportFormat.CSV) == b"keep"
    gc.del_spreadsheet(copy.id)
    with pytest.raises(GoogleNotFoundError):
        gc.open_by_key(copy.id)


def test_unauthenticated_requests_get_401(emulator: Emulator) -> None:
    """Missing or unknown bearer tokens are refused like Google does."""
    url = f"{emulator.base_url}/v4/spreadsheets/abc"
    missing = requests.get(url, timeout=5)
    assert missing.status_code == 401
    assert missing.json()["error"]["status"] == "UNAUTHENTICATED"
    assert "missing required authentication" in missing.json()["error"]["message"]
    unknown = requests.get(url, headers={"Authorization": "Bearer ya29.nope"}, timeout=5)
    assert unknown.status_code == 401
    assert "invalid authentication credentials" in unknown.json()["error"]["message"]


def test_outsider_cannot_see_drive_file(emulator: Emulator, client_for: ClientFor) -> None:
    """Drive hides files without a role (404), Sheets refuses them (403)."""
    sh = client_for(GM).create("Hidden")
    outsider = client_for(OUTSIDER)
    assert outsider.list_spreadsheet_files() == []
    with pytest.raises(GoogleNotFoundError):
        outsider.http_client.request("delete", f"https://www.googleapis.com/drive/v3/files/{sh.id}")


def test_common_gspread_helpers(emulator: Emulator, client_for: ClientFor) -> None:
    """A tour of gspread helpers the bridge may use; each must work against the emulator."""
    gc = client_for(GM)
    sh = gc.create("Helpers")
    ws = sh.sheet1
    ws.batch_update([{"range": "A1:B3", "values": [["name", "score"], ["rome", 3], ["carthage", 5]]}])
    assert ws.batch_get(["A1:B1", "B2:B3"]) == [[["name", "score"]], [["3"], ["5"]]]
    assert ws.get_all_records() == [{"name": "rome", "score": 3}, {"name": "carthage", "score": 5}]
    assert ws.find("carthage").row == 3
    ws.sort((2, "des"), range="A2:B3")
    assert ws.col_values(1) == ["name", "carthage", "rome"]
    ws.define_named_range("A1:B3", "scores")
    assert sh.values_get("scores")["range"] == "Sheet1!A1:B3"
    ws.update_notes({"A1": "n1", "B2": "n2"})
    assert ws.get_notes() == [["n1"], ["", "n2"]]
    dup = sh.duplicate_sheet(ws.id, new_sheet_name="Turn 2")
    assert dup.get_all_values() == ws.get_all_values()
    ws.update_title("Main")
    sh.reorder_worksheets([dup, ws])
    assert [w.title for w in sh.worksheets()] == ["Turn 2", "Main"]
    ws.add_dimension_group_rows(1, 3)
    assert ws.list_dimension_group_rows() == [
        {"range": {"dimension": "ROWS", "startIndex": 1, "endIndex": 3}, "depth": 1}
    ]
    gc.import_csv(sh.id, "a,b\n1,2\n")
    imported = gc.open_by_key(sh.id)
    assert [w.title for w in imported.worksheets()] == ["Helpers"]
    assert imported.sheet1.get_all_values() == [["a", "b"], ["1", "2"]]


def test_concurrent_writers_are_serialised(emulator: Emulator, client_for: ClientFor) -> None:
    """Parallel appends from several clients all land, each once."""
    gm = client_for(GM)
    sh = gm.create("Concurrent")
    sh.share(PLAYER, perm_type="user", role="writer", notify=False)
    sheets = [gm.open_by_key(sh.id).sheet1, client_for(PLAYER).open_by_key(sh.id).sheet1]
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            sheets[i % 2].append_row([f"row {i}"])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(v for v in sh.sheet1.col_values(1)) == sorted(f"row {i}" for i in range(12))
