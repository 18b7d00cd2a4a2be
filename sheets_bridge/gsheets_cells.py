"""Cells to and from the Sheets API's JSON: CellData of a raw engine cell and back, grids of a
read answer, A1 and grid ranges, and the compact JSON every request is measured in."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.core.tables import Cell, Formula, Grid, is_blank


def cell_data(value: Cell) -> dict[str, Any]:
    """CellData for a value: text as ``stringValue`` (never parsed), only Formula as ``formulaValue``.

    ``None`` and ``""`` give ``{}``, which under the ``userEnteredValue`` mask clears the cell.
    """
    if value is None or (isinstance(value, str) and value == ""):
        return {}
    if isinstance(value, Formula):
        text = str(value)
        return {"userEnteredValue": {"formulaValue": text if text.startswith("=") else "=" + text}}
    if isinstance(value, bool):
        return {"userEnteredValue": {"boolValue": value}}
    if isinstance(value, int):
        return {"userEnteredValue": {"numberValue": value}}
    if isinstance(value, float) and math.isfinite(value):
        return {"userEnteredValue": {"numberValue": value}}
    return {"userEnteredValue": {"stringValue": str(value)}}


def cell_value(data: Mapping[str, Any] | None) -> Cell:
    """The raw cell of a CellData as the engine expects it (formulas as :class:`Formula`)."""
    entered = (data or {}).get("userEnteredValue")
    if not entered:
        return None
    if "formulaValue" in entered:
        return Formula(str(entered["formulaValue"]))
    if "stringValue" in entered:
        return str(entered["stringValue"])
    if "boolValue" in entered:
        return bool(entered["boolValue"])
    if "numberValue" in entered:
        number = entered["numberValue"]
        if isinstance(number, bool):
            return int(number)
        if isinstance(number, int):
            return number
        number = float(number)
        return int(number) if number.is_integer() and abs(number) < 2**53 else number
    if "errorValue" in entered:
        error = entered["errorValue"] or {}
        return str(error.get("message") or error.get("type") or "#ERROR!")
    return None


def _same(a: Cell, b: Cell) -> bool:
    """Cell equality as a sheet sees it: blank = blank, 2 = 2.0, formula text = text."""
    if is_blank(a) or is_blank(b):
        return is_blank(a) and is_blank(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return str(a) == str(b)


def _identical(a: Cell, b: Cell) -> bool:
    """Whether writing ``b`` over ``a`` would change nothing (kind matters: text '=1' is no formula)."""
    if is_blank(a) or is_blank(b):
        return is_blank(a) and is_blank(b)
    if isinstance(a, Formula) or isinstance(b, Formula):
        return isinstance(a, Formula) and isinstance(b, Formula) and str(a) == str(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return isinstance(a, str) and isinstance(b, str) and a == b


def _trimmed_row(line: Sequence[Cell]) -> list[Cell]:
    """A row without its trailing blank cells."""
    out = list(line)
    while out and is_blank(out[-1]):
        out.pop()
    return out


def _trimmed_grid(rows: Sequence[Sequence[Cell]]) -> list[list[Cell]]:
    """Rows without trailing blank cells and trailing blank rows."""
    out = [_trimmed_row(r) for r in rows]
    while out and not out[-1]:
        out.pop()
    return out


def _rows_data(rows: Sequence[Sequence[Cell]], *, trim: bool) -> list[dict[str, Any]]:
    """RowData for updateCells; ``trim`` drops trailing blanks (a bounded range clears them anyway)."""
    out: list[dict[str, Any]] = []
    for line in rows:
        cells = _trimmed_row(line) if trim else list(line)
        out.append({"values": [cell_data(v) for v in cells]} if cells else {})
    if trim:
        while out and not out[-1]:
            out.pop()
    return out


def _grid_of(data: Mapping[str, Any]) -> Grid:
    """A GridData's rows as raw cells (trailing blanks trimmed, as Google returns them)."""
    grid: Grid = []
    for row in data.get("rowData") or []:
        grid.append([cell_value(v) for v in (row or {}).get("values") or []])
    while grid and all(is_blank(v) for v in grid[-1]):
        grid.pop()
    return grid


def _grid_range(sheet_id: int, r0: int, r1: int, c0: int, c1: int) -> dict[str, int]:
    """A bounded GridRange (0-based, end-exclusive)."""
    return {"sheetId": sheet_id, "startRowIndex": r0, "endRowIndex": r1, "startColumnIndex": c0, "endColumnIndex": c1}


def quote_title(title: str) -> str:
    """A tab title as it appears in A1 notation."""
    return "'" + title.replace("'", "''") + "'"


def _a1_column(index: int) -> str:
    """0-based column index -> letters."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def _runs(rows: Iterable[int]) -> list[list[int]]:
    """Row (or column) numbers grouped into runs of consecutive ones: [1, 2, 5] -> [[1, 2], [5]]."""
    out: list[list[int]] = []
    for r in sorted(rows):
        if out and r == out[-1][-1] + 1:
            out[-1].append(r)
        else:
            out.append([r])
    return out


def _dumps(obj: Any) -> bytes:
    """Compact UTF-8 JSON (Cyrillic as UTF-8, not \\u escapes: a third of the bytes)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
