"""Compaction: the same cells in fewer bytes.  An updateCells of a write becomes a lighter
updateCells plus ``repeatCell`` for long runs of one value and ``pasteData`` for columns of
numbers; oversized updateCells are cut into row bands.  A :class:`Piece` is one updateCells of a
write, measured as it will be sent."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .gsheets_cells import _dumps, _grid_range, _runs

#: A run of one value down a column shorter than this is never worth a repeatCell.
MIN_RUN = 4


#: Integers beyond this lose precision as text; they stay ``numberValue`` cells.
MAX_PASTED_INT = 10**15


#: What separates the fields of a pasteData row (numbers never contain it).
PASTE_DELIMITER = ","


#: Spreadsheet locales known to read "2.5" as a number: only there is a fraction pasted as text
#: (in ru_RU it would be read as a date).  A conservative allow-list: a locale missing from it
#: only costs bytes (its fractions stay ``numberValue`` cells).
POINT_DECIMAL_LOCALES = frozenset({"en_US", "en_GB", "en_AU", "en_CA", "en_IE", "en_IN", "en_NZ"})


@dataclass
class Piece:
    """One updateCells of a write and the rectangle it covers (0-based, end-exclusive)."""

    request: dict[str, Any]
    rect: tuple[int, int, int, int]  # r0, c0, r1, c1
    decimals: bool = False  # the spreadsheet reads a decimal point (see _compact)

    @functools.cached_property
    def requests(self) -> list[dict[str, Any]]:
        """What is sent for it: the updateCells with its runs and numbers compacted."""
        return _compact(self.request, self.decimals)

    @functools.cached_property
    def size(self) -> int:
        """Bytes it adds to a batch body (asked several times while a big write is planned)."""
        return sum(len(_dumps(r)) + 1 for r in self.requests)


def _compact(req: dict[str, Any], decimals: bool = False) -> list[dict[str, Any]]:
    """An updateCells with its long runs of one value sent as ``repeatCell`` and its columns of
    numbers as ``pasteData`` text.

    Same cells, fewer bytes: a cell costs ~40 bytes of JSON around its value, so a log tab that
    repeats its turn and unit on every row, or the balance figures of a thousand sides, is
    mostly wrapping.  A repeatCell costs ~200 bytes whatever its length; a pasted integer costs its
    digits and a comma (``decimals``: the spreadsheet's locale reads a decimal point, so
    numbers with a fraction are pasted too).  The moved cells are cleared by the updateCells and filled by the
    requests that follow it (requests of a batch apply in order).  Only numbers are pasted --
    text is never parsed, so player text stays text -- and formulas are never repeated:
    repeatCell shifts their references row by row.
    """
    body = req.get("updateCells")
    if body is None or body.get("fields") != "userEnteredValue":
        return [req]
    rows: list[dict[str, Any]] = body.get("rows") or []
    if len(rows) < MIN_RUN:
        return [req]
    sheet_id, r0, c0 = _origin(body)
    values = [list(row.get("values") or []) for row in rows]
    taken: set[tuple[int, int]] = set()
    extra = _repeats(values, sheet_id, r0, c0, taken, decimals)
    extra += _pastes(values, sheet_id, r0, c0, taken, decimals)
    if not extra:
        return [req]
    skip = _leading_taken(body, values, taken)
    if skip and skip >= _width(body, values):
        return extra  # every cell it would write is written by what follows
    out_rows: list[dict[str, Any]] = []
    for r, line in enumerate(values):
        cells = [{} if (r, c) in taken else v for c, v in enumerate(line)][skip:]
        while cells and (r, skip + len(cells) - 1) in taken:
            cells.pop()  # cleared and then filled: no need to send
        out_rows.append({"values": cells} if cells else {})
    out = dict(body, rows=out_rows)
    if skip and "range" in body:
        out["range"] = dict(body["range"], startColumnIndex=c0 + skip)
    elif skip:
        out["start"] = dict(body["start"], columnIndex=c0 + skip)
    return [{"updateCells": out}, *extra]


def _leading_taken(body: Mapping[str, Any], values: list[list[dict[str, Any]]], taken: set[tuple[int, int]]) -> int:
    """How many leading columns the requests after an updateCells fill entirely, so it can start
    right of them.  A range must be bounded and covered in height: it clears what it is not given."""
    if "range" in body:
        rng = body["range"]
        height = int(rng.get("endRowIndex", -1)) - int(rng.get("startRowIndex", 0))
        if "endColumnIndex" not in rng or height != len(values):
            return 0
    skip = 0
    while skip < _width(body, values) and all((r, skip) in taken for r in range(len(values))):
        skip += 1
    return skip


def _width(body: Mapping[str, Any], values: list[list[dict[str, Any]]]) -> int:
    """Columns an updateCells covers: its range (which must have an end column), or its longest row."""
    if "range" in body:
        return int(body["range"]["endColumnIndex"]) - int(body["range"].get("startColumnIndex", 0))
    return max(len(v) for v in values)


def _column(values: list[list[dict[str, Any]]], col: int) -> list[dict[str, Any] | None]:
    """One column of a RowData matrix (``None`` past a short row)."""
    return [line[col] if col < len(line) else None for line in values]


def _repeats(
    values: list[list[dict[str, Any]]], sheet_id: int, r0: int, c0: int, taken: set[tuple[int, int]],
    decimals: bool,
) -> list[dict[str, Any]]:
    """repeatCell requests for the runs of one non-formula value worth one; marks their cells taken."""
    out: list[dict[str, Any]] = []
    for col in range(max(len(v) for v in values)):
        column = _column(values, col)
        start = 0
        while start < len(column):
            cell = column[start]
            end = start + 1
            while end < len(column) and column[end] is not None and column[end] == cell:
                end += 1
            entered = (cell or {}).get("userEnteredValue")
            if end - start >= MIN_RUN and entered and "formulaValue" not in entered:
                repeat = {
                    "repeatCell": {
                        "range": _grid_range(sheet_id, r0 + start, r0 + end, c0 + col, c0 + col + 1),
                        "cell": cell,
                        "fields": "userEnteredValue",
                    }
                }
                cost = (end - start) * (len(_dumps(cell)) - 2)
                text = _pasted(cell, decimals)
                if text is not None:
                    cost = min(cost, (end - start) * (len(text) + 1))
                if len(_dumps(repeat)) + 1 < cost:
                    out.append(repeat)
                    taken.update((r, col) for r in range(start, end))
            start = end
    return out


def _pasted(cell: Mapping[str, Any] | None, decimals: bool) -> str | None:
    """The text a cell is pasted as, when it holds a number that text carries exactly: an
    integer, or (``decimals``) a number whose 15 significant digits -- what Sheets keeps of a
    typed number -- give it back."""
    entered = (cell or {}).get("userEnteredValue")
    if not entered or len(entered) != 1 or len(cell or {}) != 1:
        return None
    number = entered.get("numberValue")
    if isinstance(number, bool) or not isinstance(number, (int, float)) or not abs(number) < MAX_PASTED_INT:
        return None
    if float(number).is_integer():
        return str(int(number))
    text = f"{number:.15g}"
    return text if decimals and "e" not in text and float(text) == number else None


def _pastes(
    values: list[list[dict[str, Any]]], sheet_id: int, r0: int, c0: int, taken: set[tuple[int, int]],
    decimals: bool,
) -> list[dict[str, Any]]:
    """pasteData requests for the rectangles of numbers worth one (neighbouring columns whose runs
    of pastable numbers span the same rows go together); marks their cells taken."""
    spans: dict[tuple[int, int], list[int]] = {}
    texts: list[list[str | None]] = []
    for col in range(max(len(v) for v in values)):
        texts.append([None if (r, col) in taken else _pasted(c, decimals) for r, c in enumerate(_column(values, col))])
        start = 0
        while start < len(values):
            end = start
            while end < len(values) and texts[col][end] is not None:
                end += 1
            if end - start >= MIN_RUN:
                spans.setdefault((start, end), []).append(col)
            start = end + 1
    out: list[dict[str, Any]] = []
    for (start, end), cols in spans.items():
        for group in _runs(cols):
            lines = (PASTE_DELIMITER.join(str(texts[c][r]) for c in group) for r in range(start, end))
            paste = {
                "pasteData": {
                    "coordinate": {"sheetId": sheet_id, "rowIndex": r0 + start, "columnIndex": c0 + group[0]},
                    "data": "\n".join(lines),
                    "type": "PASTE_VALUES",
                    "delimiter": PASTE_DELIMITER,
                }
            }
            cells = sum(len(_dumps(values[r][c])) - 2 for r in range(start, end) for c in group)
            if len(_dumps(paste)) + 1 < cells:
                out.append(paste)
                taken.update((r, c) for r in range(start, end) for c in group)
    return out


def _origin(body: Mapping[str, Any]) -> tuple[int, int, int]:
    """(sheetId, first row, first column) of an updateCells, bounded by ``range`` or anchored at ``start``."""
    if "range" in body:
        rng = body["range"]
        return int(rng["sheetId"]), int(rng.get("startRowIndex", 0)), int(rng.get("startColumnIndex", 0))
    start = body["start"]
    return int(start["sheetId"]), int(start.get("rowIndex", 0)), int(start.get("columnIndex", 0))


def _anchored(sheet_id: int, row: int, col: int, rows: list[dict[str, Any]], fields: str) -> dict[str, Any]:
    """An updateCells anchored at (row, col)."""
    return {
        "updateCells": {
            "start": {"sheetId": sheet_id, "rowIndex": row, "columnIndex": col},
            "rows": rows,
            "fields": fields,
        }
    }


def _split_update(req: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    """Split an updateCells into row bands of at most ``limit`` bytes (anchored writes)."""
    body = req.get("updateCells")
    if body is None:
        return [req]
    rows = body.get("rows") or []
    if len(rows) <= 1 or len(_dumps(req)) <= limit:
        return [req]
    sheet_id, r0, c0 = _origin(body)
    return [_anchored(sheet_id, r0 + a, c0, rows[a:b], body["fields"]) for a, b in _row_bands(rows, limit)]


def _row_bands(rows: Sequence[Mapping[str, Any]], limit: int) -> list[tuple[int, int]]:
    """Consecutive slices (start, end) of RowData of at most ``limit`` bytes each (a single larger
    row makes a band of its own)."""
    bounds: list[tuple[int, int]] = []
    start, size = 0, 0
    for i, row in enumerate(rows):
        row_size = len(_dumps(row)) + 1
        if i > start and size + row_size > limit:
            bounds.append((start, i))
            start, size = i, 0
        size += row_size
    if rows:
        bounds.append((start, len(rows)))
    return bounds
