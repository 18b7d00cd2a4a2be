"""Structural edits of a sheet: inserting/deleting rows or columns and moving cells.

Inserting or deleting a dimension shifts everything anchored to the grid: cells, merges,
protected and unprotected ranges, named ranges, the basic filter, dimension groups and
row/column metadata.  Ranges straddling an insertion point grow; ranges losing all their
rows/columns to a deletion disappear, as in Sheets.
"""

from __future__ import annotations

from typing import Any

from .model import Sheet, Spreadsheet
from .values import Cell

_ROW_KEYS = ("startRowIndex", "endRowIndex")
_COL_KEYS = ("startColumnIndex", "endColumnIndex")


def _shift_insert(x: int, at: int, count: int, is_end: bool) -> int:
    """New position of a bound after inserting ``count`` at ``at`` (ends at ``at`` stay)."""
    if x > at or (x == at and not is_end):
        return x + count
    return x


def _shift_delete(x: int, start: int, end: int) -> int:
    """New position of a bound after deleting ``[start, end)``."""
    if x <= start:
        return x
    if x >= end:
        return x - (end - start)
    return start


def _adjust_gridrange(gr: dict[str, Any], sheet_id: int, dim: str, fn: Any) -> bool:
    """Apply ``fn(value, is_end)`` to a GridRange's bounds on ``dim``; False when it collapsed."""
    if int(gr.get("sheetId") or 0) != sheet_id:
        return True
    keys = _ROW_KEYS if dim == "ROWS" else _COL_KEYS
    start, end = gr.get(keys[0]), gr.get(keys[1])
    if start is not None:
        gr[keys[0]] = fn(int(start), False)
    if end is not None:
        gr[keys[1]] = fn(int(end), True)
    return not (start is not None and end is not None and gr[keys[1]] <= gr[keys[0]])


def _adjust_all_ranges(ss: Spreadsheet, sheet: Sheet, dim: str, fn: Any) -> None:
    """Shift every grid-anchored range of the sheet (and named ranges)."""
    sid = sheet.sheet_id
    sheet.merges = [m for m in sheet.merges if _adjust_gridrange(m, sid, dim, fn)]
    kept = []
    for pr in sheet.protected:
        if pr.get("range") is not None and not _adjust_gridrange(pr["range"], sid, dim, fn):
            continue
        holes = []
        for hole in pr.get("unprotectedRanges") or []:
            if _adjust_gridrange(hole, sid, dim, fn):
                holes.append(hole)
        if pr.get("unprotectedRanges"):
            pr["unprotectedRanges"] = holes
        kept.append(pr)
    sheet.protected = kept
    ss.named_ranges = [nr for nr in ss.named_ranges if _adjust_gridrange(nr["range"], sid, dim, fn)]
    if sheet.basic_filter is not None and not _adjust_gridrange(
        sheet.basic_filter.setdefault("range", {}), sid, dim, fn
    ):
        sheet.basic_filter = None
    groups = sheet.row_groups if dim == "ROWS" else sheet.column_groups
    kept_groups = []
    for group in groups:
        dr = group["range"]
        start = fn(int(dr.get("startIndex", 0)), False)
        end = fn(int(dr.get("endIndex", 0)), True)
        if end > start:
            dr["startIndex"], dr["endIndex"] = start, end
            kept_groups.append(group)
    if dim == "ROWS":
        sheet.row_groups = kept_groups
    else:
        sheet.column_groups = kept_groups


def insert_dimension(
    ss: Spreadsheet, sheet: Sheet, dim: str, start: int, end: int, inherit_before: bool = False
) -> None:
    """Insert ``end - start`` rows/columns before index ``start``."""
    count = end - start
    if count <= 0:
        return
    new_cells: dict[tuple[int, int], Cell] = {}
    for (r, c), cell in sheet.cells.items():
        if dim == "ROWS":
            new_cells[(r + count if r >= start else r, c)] = cell
        else:
            new_cells[(r, c + count if c >= start else c)] = cell
    sheet.cells = new_cells
    meta = sheet.row_meta if dim == "ROWS" else sheet.col_meta
    shifted = {(k + count if k >= start else k): v for k, v in meta.items()}
    source = start - 1 if inherit_before else start + count
    if source in shifted and "pixelSize" in shifted[source]:
        for k in range(start, end):
            shifted[k] = {"pixelSize": shifted[source]["pixelSize"]}
    if dim == "ROWS":
        sheet.row_meta = shifted
        sheet.grid["rowCount"] = sheet.rows + count
    else:
        sheet.col_meta = shifted
        sheet.grid["columnCount"] = sheet.cols + count
    _adjust_all_ranges(ss, sheet, dim, lambda x, is_end: _shift_insert(x, start, count, is_end))


def delete_dimension(ss: Spreadsheet, sheet: Sheet, dim: str, start: int, end: int) -> None:
    """Delete rows/columns ``[start, end)``."""
    count = end - start
    if count <= 0:
        return
    new_cells: dict[tuple[int, int], Cell] = {}
    for (r, c), cell in sheet.cells.items():
        k = r if dim == "ROWS" else c
        if start <= k < end:
            continue
        if k >= end:
            k -= count
        new_cells[(k, c) if dim == "ROWS" else (r, k)] = cell
    sheet.cells = new_cells
    meta = sheet.row_meta if dim == "ROWS" else sheet.col_meta
    shifted = {(k - count if k >= end else k): v for k, v in meta.items() if not start <= k < end}
    if dim == "ROWS":
        sheet.row_meta = shifted
        sheet.grid["rowCount"] = sheet.rows - count
    else:
        sheet.col_meta = shifted
        sheet.grid["columnCount"] = sheet.cols - count
    _adjust_all_ranges(ss, sheet, dim, lambda x, is_end: _shift_delete(x, start, end))


def resize_grid(ss: Spreadsheet, sheet: Sheet, rows: int | None, cols: int | None) -> None:
    """Set the grid size; shrinking drops the cut-off rows/columns like deleteDimension."""
    if rows is not None:
        if rows < sheet.rows:
            delete_dimension(ss, sheet, "ROWS", rows, sheet.rows)
        else:
            sheet.grid["rowCount"] = rows
    if cols is not None:
        if cols < sheet.cols:
            delete_dimension(ss, sheet, "COLUMNS", cols, sheet.cols)
        else:
            sheet.grid["columnCount"] = cols
