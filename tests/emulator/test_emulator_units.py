"""Unit tests of the emulator's building blocks (no HTTP)."""

from __future__ import annotations

import pytest

from sheets_bridge.emulator import a1, fieldmask
from sheets_bridge.emulator.errors import ApiError
from sheets_bridge.emulator.jsoncopy import jcopy
from sheets_bridge.emulator.model import Spreadsheet, new_sheet, resolve_a1
from sheets_bridge.emulator.valueops import find_table
from sheets_bridge.emulator.values import (
    Cell,
    evaluate_formula,
    format_number,
    parse_input,
    quantize_color,
    render,
)


def _spreadsheet() -> Spreadsheet:
    ss = Spreadsheet("id", {"title": "t"})
    ss.sheets = [new_sheet(0, "Sheet1", 0), new_sheet(7, "My sheet", 1, 20, 5), new_sheet(8, "D3", 2, 10, 4)]
    ss.named_ranges = [
        {
            "namedRangeId": "1",
            "name": "Armies",
            "range": {"sheetId": 7, "startRowIndex": 1, "endRowIndex": 3, "startColumnIndex": 0, "endColumnIndex": 2},
        }
    ]
    return ss


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sheet1", "Sheet1!A1:Z1000"),
        ("'Sheet1'!A1", "Sheet1!A1"),
        ("'My sheet'!B2:A1", "'My sheet'!A1:B2"),
        ("My sheet!A:A", "'My sheet'!A1:A20"),
        ("'D3'!A1:D4", "'D3'!A1:D4"),
        ("Sheet1!2:3", "Sheet1!A2:Z3"),
        ("Sheet1!B2:2", "Sheet1!B2:Z2"),
        ("Sheet1!C5:C", "Sheet1!C5:C1000"),
        ("A1:B2", "Sheet1!A1:B2"),
        ("Armies", "'My sheet'!A2:B3"),
        ("'My sheet'!Armies", "'My sheet'!A2:B3"),
        ("sheet1!$A$1", "Sheet1!A1"),
    ],
)
def test_resolve_and_normalise(text: str, expected: str) -> None:
    """Ranges resolve and print back the way Google answers them."""
    assert resolve_a1(_spreadsheet(), text).a1() == expected


@pytest.mark.parametrize("text", ["Nope!A1", "'Sheet1'A1", "Sheet1!A0", "Sheet1!1A", "Sheet1!A:2", ""])
def test_unparsable_ranges(text: str) -> None:
    """Google's 'Unable to parse range' for nonsense."""
    with pytest.raises(ApiError) as err:
        resolve_a1(_spreadsheet(), text)
    assert err.value.body["error"]["message"] == f"Unable to parse range: {text}"


def test_out_of_grid_range() -> None:
    """Explicit bounds past the grid are refused with Google's wording."""
    with pytest.raises(ApiError) as err:
        resolve_a1(_spreadsheet(), "'My sheet'!A1:F2")
    assert err.value.body["error"]["message"] == (
        "Range ('My sheet'!A1:F2) exceeds grid limits. Max rows: 20, max columns: 5"
    )


def test_titles_and_columns() -> None:
    """Quoting rules and column letters."""
    assert a1.quote_title("Sheet1") == "Sheet1"
    assert a1.quote_title("A1") == "'A1'"
    assert a1.quote_title("Приказы") == "'Приказы'"
    assert a1.quote_title("I'm here") == "'I''m here'"
    assert a1.split_sheet("'I''m here'!A1") == ("I'm here", "A1", True)
    assert [a1.column_letters(i) for i in (0, 25, 26, 701, 702)] == ["A", "Z", "AA", "ZZ", "AAA"]
    assert a1.column_index("AAA") == 702


def test_input_parsing() -> None:
    """RAW keeps text, USER_ENTERED parses like the Sheets UI (en_US)."""
    assert parse_input("=1+1", "RAW") == ({"stringValue": "=1+1"}, None)
    assert parse_input("=1+1", "USER_ENTERED") == ({"formulaValue": "=1+1"}, None)
    assert parse_input("0042", "USER_ENTERED") == ({"numberValue": 42}, None)
    assert parse_input("'0042", "USER_ENTERED") == ({"stringValue": "0042"}, None)
    assert parse_input("true", "USER_ENTERED") == ({"boolValue": True}, None)
    assert parse_input("12.5%", "USER_ENTERED") == ({"numberValue": 0.125}, {"type": "PERCENT", "pattern": "0.0%"})
    assert parse_input("2020-01-01", "USER_ENTERED") == (
        {"numberValue": 43831},
        {"type": "DATE", "pattern": "yyyy-mm-dd"},
    )
    assert parse_input("", "USER_ENTERED") == (None, None)
    assert parse_input(None, "RAW") is None
    assert parse_input(3.0, "RAW") == ({"numberValue": 3.0}, None)


def test_rendering() -> None:
    """FORMATTED / UNFORMATTED / FORMULA renderings, dates and trivial formulas."""
    date = Cell({"numberValue": 36162}, {"numberFormat": {"type": "DATE", "pattern": "yyyy-mm-dd"}})
    assert render(date, "FORMATTED_VALUE") == "1999-01-02"
    assert render(date, "UNFORMATTED_VALUE") == 36162
    assert render(date, "UNFORMATTED_VALUE", "FORMATTED_STRING") == "1999-01-02"
    formula = Cell({"formulaValue": "= 1 / 1024"})
    assert render(formula, "FORMATTED_VALUE") == "0.0009765625"
    assert render(formula, "FORMULA") == "= 1 / 1024"
    lookup = Cell({"formulaValue": "=VLOOKUP(A1, B:C, 2)"})
    assert render(lookup, "FORMATTED_VALUE") == "=VLOOKUP(A1, B:C, 2)"  # not computed: shows its text
    assert render(Cell({"formulaValue": "=1/0"}), "FORMATTED_VALUE") == "#DIV/0!"
    assert evaluate_formula("=(1+2)^2*10%") == {"numberValue": 0.9}
    assert format_number(2000000.01, {"type": "NUMBER", "pattern": "#,##0.00"}) == "2,000,000.01"
    assert format_number(1 / 3, {}) == "0.3333333333"
    assert render(Cell({"boolValue": False}), "FORMATTED_VALUE") == "FALSE"


def test_colours_are_stored_as_8_bit() -> None:
    """0.5 becomes 127/255 printed as float32, zero channels vanish (as recorded)."""
    assert quantize_color({"red": 1, "green": 0, "blue": 0.5}) == {"red": 1, "blue": 0.49803922}
    assert quantize_color({"red": 1.0, "green": 0.0, "blue": 0.4980392156862745}) == {"red": 1, "blue": 0.49803922}


def test_field_masks() -> None:
    """Parsing, projection and masked updates."""
    tree = fieldmask.parse("sheets(properties(title,index),data.rowData.values.note),spreadsheetId")
    doc = {"spreadsheetId": "x", "sheets": [{"properties": {"title": "a", "index": 0, "sheetId": 3}, "merges": []}]}
    assert fieldmask.project(doc, tree) == {
        "spreadsheetId": "x",
        "sheets": [{"properties": {"title": "a", "index": 0}}],
    }
    target = {"gridProperties": {"rowCount": 5, "frozenRowCount": 1}, "title": "t"}
    fieldmask.apply_update(target, {"gridProperties": {"rowCount": 9}}, fieldmask.parse("gridProperties.rowCount"))
    assert target == {"gridProperties": {"rowCount": 9, "frozenRowCount": 1}, "title": "t"}
    fieldmask.apply_update(target, {}, fieldmask.parse("gridProperties/frozenRowCount"))
    assert target == {"gridProperties": {"rowCount": 9}, "title": "t"}
    with pytest.raises(fieldmask.MaskError):
        fieldmask.parse("a(b")


def test_a_projected_part_is_skipped_and_the_answer_is_the_same() -> None:
    """``projected`` marks a part of the mask done: projecting again with it gives what projecting
    with the whole mask gives, when that part was projected already (the read answers rely on it)."""
    tree = fieldmask.parse("sheets(properties.title,data.rowData.values(note,userEnteredFormat.textFormat))")
    assert tree is not None
    done = fieldmask.projected(tree, "sheets", "data")
    assert done == {"sheets": {"properties": {"title": None}, "data": {"*": None}}}
    assert tree["sheets"]["data"] != {"*": None}  # type: ignore[index]  # the mask itself is untouched
    cell = {"note": "n", "userEnteredFormat": {"textFormat": {"bold": True}, "wrap": 1}, "formattedValue": "v"}
    doc = {"sheets": [{"properties": {"title": "a", "index": 0}, "data": [{"rowData": [{"values": [cell]}]}]}]}
    data_mask = fieldmask.subtree(tree, "sheets", "data")
    inner = [{**s, "data": fieldmask.project(s["data"], data_mask)} for s in doc["sheets"]]
    assert fieldmask.project({"sheets": inner}, done) == fieldmask.project(doc, tree)
    # nothing below the path to skip: the same mask back
    assert fieldmask.projected(fieldmask.parse("sheets"), "sheets", "data") == {"sheets": None}
    assert fieldmask.projected(None, "sheets", "data") is None


def test_a_copy_is_the_json_round_trip_and_shares_nothing() -> None:
    """``Spreadsheet.copy`` (a batch works on one) equals the JSON round trip it replaced, and
    changing anything in the copy leaves the original as it was."""
    ss = _spreadsheet()
    sheet = ss.sheets[1]
    sheet.ensure(0, 0).value = {"stringValue": "x"}
    sheet.ensure(0, 1).fmt = {"textFormat": {"bold": True}}
    sheet.ensure(2, 1).validation = {"condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": "a"}]}}
    sheet.ensure(3, 3).extra["hyperlink"] = {"url": "u"}
    sheet.ensure(1, 1).note = "n"
    sheet.merges.append({"sheetId": 7, "startRowIndex": 0, "endRowIndex": 1})
    sheet.row_meta[4] = {"pixelSize": 30}
    sheet.basic_filter = {"range": {"sheetId": 7}}
    copy = ss.copy()
    assert copy.to_json() == Spreadsheet.from_json(jcopy(ss.to_json())).to_json() == ss.to_json()
    before = jcopy(ss.to_json())
    got = copy.sheets[1]
    got.cells[(0, 0)].value["stringValue"] = "y"  # type: ignore[index]
    got.cells[(0, 1)].fmt["textFormat"]["bold"] = False  # type: ignore[index]
    got.cells[(2, 1)].validation["condition"]["values"].append({})  # type: ignore[index]
    got.cells[(3, 3)].extra["hyperlink"]["url"] = "v"
    got.merges[0]["endRowIndex"] = 2
    got.row_meta[4]["pixelSize"] = 1
    got.basic_filter["range"]["sheetId"] = 1  # type: ignore[index]
    got.props["title"] = "other"
    copy.named_ranges[0]["range"]["endRowIndex"] = 9
    copy.props["title"] = "z"
    assert ss.to_json() == before


def test_append_table_detection() -> None:
    """The recorded tableRange answers: last region in the range wins."""
    ss = _spreadsheet()
    sheet = ss.sheets[0]
    for col in (0, 2):
        sheet.ensure(0, col).value = {"stringValue": "x"}
    whole = resolve_a1(ss, "Sheet1")
    assert find_table(sheet, whole) == (0, 1, 2, 3)  # Sheet1!C1, as Google answered
    assert find_table(sheet, resolve_a1(ss, "Sheet1!A1")) == (0, 1, 0, 1)  # Sheet1!A1
    assert find_table(sheet, resolve_a1(ss, "Sheet1!A2")) is None
