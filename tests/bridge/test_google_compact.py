"""``gsheets._compact`` rewrites one updateCells as cheaper requests that leave the same cells.

A small model of how Google applies ``updateCells`` (both forms: ``start`` writes what it is
given; a ``range`` -- bounded, half-bounded or the whole tab -- also clears what it is not given),
``repeatCell`` and ``pasteData`` (each field parsed as typed, with the emulator's parser) checks,
for any block hypothesis draws, that the compacted requests leave exactly the cells the original
leaves; that only numbers are ever pasted and never a formula repeated.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.tables import Cell, Formula
from sheets_bridge import gsheets
from sheets_bridge.emulator.values import parse_user_entered

ROWS, COLS, SHEET = 24, 12, 5
Model = dict[tuple[int, int], tuple[str, Any] | None]


def _entered(value: dict[str, Any] | None) -> tuple[str, Any] | None:
    """A userEnteredValue as a comparable pair (numbers as floats)."""
    if not value:
        return None
    ((kind, x),) = value.items()
    return ("number", float(x)) if kind == "numberValue" else (kind, x)


def _apply(model: Model, requests: list[dict[str, Any]]) -> None:
    """Apply requests to a model of one tab the way Google does (the parts the bridge uses)."""
    for request in requests:
        ((kind, body),) = request.items()
        if kind == "updateCells":
            assert body["fields"] == "userEnteredValue"
            if "range" in body:
                rng = body["range"]
                r0, c0 = rng.get("startRowIndex", 0), rng.get("startColumnIndex", 0)
                r1, c1 = rng.get("endRowIndex", ROWS), rng.get("endColumnIndex", COLS)
            else:
                r0, c0, r1, c1 = body["start"]["rowIndex"], body["start"]["columnIndex"], ROWS, COLS
            given_cells = set()
            for i, row in enumerate(body.get("rows") or []):
                for j, cell in enumerate(row.get("values") or []):
                    assert r0 + i < r1 and c0 + j < c1, "a cell outside the request's range"
                    model[(r0 + i, c0 + j)] = _entered(cell.get("userEnteredValue"))
                    given_cells.add((r0 + i, c0 + j))
            if "range" in body:
                for r in range(r0, r1):
                    for c in range(c0, c1):
                        if (r, c) not in given_cells:
                            model[(r, c)] = None
        elif kind == "repeatCell":
            value = body["cell"]["userEnteredValue"]
            assert "formulaValue" not in value, "a formula repeated: its references would shift"
            rng = body["range"]
            for r in range(rng["startRowIndex"], rng["endRowIndex"]):
                for c in range(rng["startColumnIndex"], rng["endColumnIndex"]):
                    model[(r, c)] = _entered(value)
        else:
            assert kind == "pasteData" and body["type"] == "PASTE_VALUES"
            at = body["coordinate"]
            for i, line in enumerate(body["data"].split("\n")):
                for j, text in enumerate(line.split(body["delimiter"])):
                    parsed, _ = parse_user_entered(text)
                    assert parsed is not None and set(parsed) == {"numberValue"}, f"pasted non-number {text!r}"
                    model[(at["rowIndex"] + i, at["columnIndex"] + j)] = _entered(parsed)


def _same(a: Model, b: Model) -> bool:
    """Equal models (NaN equals NaN)."""
    for key in set(a) | set(b):
        x, y = a.get(key), b.get(key)
        if x != y and not (x and y and x[0] == y[0] == "number" and math.isnan(x[1]) and math.isnan(y[1])):
            return False
    return True


VALUES: st.SearchStrategy[Cell] = st.one_of(
    st.none(),
    st.just(""),
    st.integers(-50, 5000),
    st.sampled_from([7, 7, 7, 0, 0, -3]),  # runs
    st.sampled_from([1.5, -2.25, 0.1 + 0.2, 1e-7, 1 / 3, 123456.789, 2.0, -0.0, 1e15, 10**15 - 1, 10**16, 2**53 + 1]),
    st.sampled_from([math.nan, math.inf]),
    st.booleans(),
    st.just(Formula("=1+1")),
    st.sampled_from(["Д", "Г1", "0042", "1.5", "7", "x,y", "=НЕ", "TRUE"]),
)


@st.composite
def blocks(draw: st.DrawFn) -> dict[str, Any]:
    """An updateCells of a random form over ragged rows, some of them empty."""
    height = draw(st.integers(1, 16))
    width = draw(st.integers(1, 6))
    lead = draw(st.sampled_from([None, st.integers(-9, 999), st.just("Д")]))  # a column like a log's turn
    rows: list[dict[str, Any]] = []
    for _ in range(height):
        if rows and draw(st.booleans()):  # repeat the row above: runs down the columns
            rows.append(rows[-1])
            continue
        line = [draw(VALUES) for _ in range(draw(st.integers(0 if lead is None else 1, width)))]
        if lead is not None:
            line[0] = draw(lead)
        rows.append({"values": [gsheets.cell_data(v) for v in line]} if line else {})
    r0 = draw(st.integers(0, ROWS - height))
    c0 = draw(st.integers(0, COLS - width))
    form = draw(st.sampled_from(["start", "exact", "taller", "wider", "open below", "whole tab"]))
    if form == "start":
        where: dict[str, Any] = {"start": {"sheetId": SHEET, "rowIndex": r0, "columnIndex": c0}}
    elif form == "whole tab":
        where = {"range": {"sheetId": SHEET}}
    else:
        rng = gsheets._grid_range(SHEET, r0, r0 + height, c0, c0 + width)
        if form == "taller":
            rng["endRowIndex"] = min(ROWS, r0 + height + 3)
        elif form == "wider":
            rng["endColumnIndex"] = min(COLS, c0 + width + 2)
        elif form == "open below":
            del rng["endRowIndex"]
        where = {"range": rng}
    return {"updateCells": {**where, "rows": rows, "fields": "userEnteredValue"}}


@settings(max_examples=400, deadline=None)
@given(request=blocks(), decimals=st.booleans())
def test_compacted_requests_leave_exactly_the_cells_the_update_leaves(request: dict[str, Any], decimals: bool) -> None:
    """Same cells whatever the block: runs, numbers, formulas, text that looks like a number,
    numbers text cannot carry (NaN, 2**53 + 1, 0.1 + 0.2), blanks, short and empty rows."""
    before: Model = {(r, c): ("stringValue", "старое") for r in range(ROWS) for c in range(COLS)}
    expected, got = dict(before), dict(before)
    _apply(expected, [request])
    _apply(got, gsheets._compact(request, decimals))
    assert _same(expected, got)


def test_what_text_carries_exactly_is_pasted_and_nothing_else() -> None:
    """Integers below 10**15 always; a fraction only where the locale reads a point and 15
    significant digits give it back; never text, booleans, formulas or non-finite numbers."""
    def pasted(value: Cell, decimals: bool = True) -> str | None:
        return gsheets._pasted(gsheets.cell_data(value), decimals)

    assert [pasted(v) for v in (0, -3, 10**15 - 1, 2.0, -0.0)] == ["0", "-3", "999999999999999", "2", "0"]
    assert pasted(10**15) is None and pasted(2**53 + 1) is None
    assert pasted(1.5) == "1.5" and pasted(1.5, decimals=False) is None
    assert pasted(123456.789) == "123456.789"
    assert pasted(0.1 + 0.2) is None  # 0.30000000000000004 needs 17 digits
    assert pasted(1e-7) is None  # no exponent forms
    assert [pasted(v) for v in ("7", "0042", True, Formula("=1"), math.nan, math.inf)] == [None] * 6
    assert gsheets.BookState("x", locale="en_GB").decimal_point
    assert not gsheets.BookState("x", locale="ru_RU").decimal_point
    assert not gsheets.BookState("x").decimal_point
