"""The looks of a new tab as Sheets API requests: its properties (title, grid, frozen panes,
colour), content, header format, column widths, wrapping, dropdowns, number formats, highlights
and charts -- the same as the .xlsx backend draws them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from gspread.utils import a1_range_to_grid_range, a1_to_rowcol

from engine.core import fit
from engine.core.tables import Chart, Highlight, TabSpec, WorkbookSpec, column_index, is_blank

from .gsheets_cells import _grid_range, _rows_data, _trimmed_grid, _trimmed_row
from .xlsx import HEADER_FILL

#: Longest inline dropdown list we create (Google's data-validation list limit is about 500 items).
MAX_LIST_OPTIONS = 500


#: Rows a new non-order tab gets beyond its content, so log tabs grow without resizing every turn.
SPARE_ROWS = 100


MIN_COLUMNS = 26


WHITE = {"red": 1.0, "green": 1.0, "blue": 1.0}


SOURCE_RANGE = re.compile(r"^=?(?:'((?:[^']|'')+)'|([^'!]+))!\$?([A-Za-z]+)\$?(\d+)(?::\$?([A-Za-z]+)\$?(\d+))?$")


def _spec_width(spec: TabSpec) -> int:
    """Columns a tab needs at creation: content, widths, dropdowns, input block."""
    width = max((len(r) for r in spec.rows), default=0)
    width = max([width, *[int(c) for c in spec.widths], *[v.column for v in spec.validations]])
    if spec.editable_columns:
        width = max(width, spec.editable_columns[1])
    for ch in spec.charts:
        width = max(width, ch.last_col, a1_to_rowcol(ch.anchor)[1])
    return max(width, 1)


def _sheet_properties(spec: TabSpec, sheet_id: int, index: int | None, rows: int, cols: int) -> dict[str, Any]:
    """SheetProperties of a new tab: title, grid, frozen panes, hidden, tab colour (``index``
    None = after the last tab)."""
    grid: dict[str, Any] = {"rowCount": rows, "columnCount": cols}
    if spec.frozen_rows:
        grid["frozenRowCount"] = min(spec.frozen_rows, rows)
    if spec.frozen_cols:
        grid["frozenColumnCount"] = min(spec.frozen_cols, cols)
    props: dict[str, Any] = {"sheetId": sheet_id, "title": spec.name, "gridProperties": grid}
    if index is not None:
        props["index"] = index
    if spec.hidden:
        props["hidden"] = True
    if spec.tab_color:
        props["tabColorStyle"] = {"rgbColor": _hex_color(spec.tab_color)}
    return props


def _format_requests(
    spec: TabSpec, sheet_id: int, *, lists: Mapping[str, tuple[str, ...] | None] | None = None
) -> list[dict[str, Any]]:
    """Content and looks of a new tab: values, header format, widths, wrapping, dropdowns, number
    formats, highlights, charts.  The spec's print setup is left out: the Sheets API has no page
    setup (orientation, fit to width and repeated rows are chosen in Google's print dialog).

    ``lists`` maps a dropdown's source range to its values when the range lives in another
    spreadsheet (private order books): ONE_OF_RANGE cannot cross spreadsheets.
    """
    out: list[dict[str, Any]] = []
    rows = _trimmed_grid(spec.rows)
    if rows:
        out.append(
            {
                "updateCells": {
                    "start": {"sheetId": sheet_id, "rowIndex": 0, "columnIndex": 0},
                    "rows": _rows_data(rows, trim=True),
                    "fields": "userEnteredValue",
                }
            }
        )
    header = _trimmed_row(spec.rows[0]) if spec.rows else []
    if header:
        out.append(
            {
                "repeatCell": {
                    "range": _grid_range(sheet_id, 0, 1, 0, len(header)),
                    "cell": {
                        "userEnteredFormat": {
                            "backgroundColorStyle": {"rgbColor": _hex_color(HEADER_FILL.get(spec.kind, "3B5B7A"))},
                            "textFormat": {"bold": True, "foregroundColorStyle": {"rgbColor": WHITE}},
                            "wrapStrategy": "WRAP" if spec.wrap_header else "OVERFLOW_CELL",
                            "verticalAlignment": "MIDDLE",
                        }
                    },
                    "fields": "userEnteredFormat(backgroundColorStyle,textFormat,wrapStrategy,verticalAlignment)",
                }
            }
        )
    fitted = fit.measure(spec)  # the same widths as the .xlsx: no header word broken
    for col, width in sorted(fitted.widths.items()):
        out.append(
            {
                "updateDimensionProperties": {
                    "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": col - 1, "endIndex": col},
                    "properties": {"pixelSize": int(width * 7 + 5)},
                    "fields": "pixelSize",
                }
            }
        )
    last = max(len(spec.rows), spec.format_rows, 2)
    for col in fitted.wrapped:  # long reasons wrap (Google fits the rows' heights itself)
        out.append(
            {
                "repeatCell": {
                    "range": _grid_range(sheet_id, 1, last, col - 1, col),
                    "cell": {"userEnteredFormat": {"wrapStrategy": "WRAP", "verticalAlignment": "TOP"}},
                    "fields": "userEnteredFormat(wrapStrategy,verticalAlignment)",
                }
            }
        )
    for v in spec.validations:
        rule = _validation_rule(v.options, v.source, v.strict, lists)
        if rule is None:
            continue
        out.append(
            {
                "setDataValidation": {
                    "range": _grid_range(
                        sheet_id, v.first_row - 1, v.last_row or _creation_size(spec)[0], v.column - 1, v.column
                    ),
                    "rule": rule,
                }
            }
        )
    for col, pattern in sorted(spec.number_formats.items()):
        out.append(
            {
                "repeatCell": {
                    "range": _grid_range(sheet_id, 1, last, col - 1, col),
                    "cell": {
                        "userEnteredFormat": {
                            "numberFormat": {"type": "TEXT" if pattern == "@" else "NUMBER", "pattern": pattern}
                        }
                    },
                    "fields": "userEnteredFormat.numberFormat",
                }
            }
        )
    out += [_highlight_request(h, sheet_id, i) for i, h in enumerate(spec.highlights)]
    out += [_chart_request(ch, sheet_id) for ch in spec.charts]
    return out


def _highlight_request(h: Highlight, sheet_id: int, index: int) -> dict[str, Any]:
    """A conditional format rule: the highlight's custom formula colours its area."""
    return {
        "addConditionalFormatRule": {
            "rule": {
                "ranges": [a1_range_to_grid_range(h.area, sheet_id)],
                "booleanRule": {
                    "condition": {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": h.formula}]},
                    "format": {"backgroundColorStyle": {"rgbColor": _hex_color(h.color)}},
                },
            },
            "index": index,
        }
    }


def _chart_request(ch: Chart, sheet_id: int) -> dict[str, Any]:
    """The chart :class:`~engine.core.tables.Chart` describes (header row = series names), as the
    .xlsx backend draws it: a scatter chart with lines and a dot on every point, so that the x axis
    spans the turns played rather than every row of the block, and one turn shows as a point."""
    r0, r1 = ch.first_row - 1, ch.last_row

    def column(c: int) -> dict[str, Any]:
        return {"sourceRange": {"sources": [_grid_range(sheet_id, r0, r1, c - 1, c)]}}

    anchor_row, anchor_col = a1_to_rowcol(ch.anchor)
    style: dict[str, Any] = {"lineStyle": {"width": 2}}  # a scatter chart draws no lines without it
    if ch.markers:
        style["pointStyle"] = {"shape": "CIRCLE", "size": 6}
    return {
        "addChart": {
            "chart": {
                "spec": {
                    "title": ch.title,
                    "basicChart": {
                        "chartType": "SCATTER",
                        "legendPosition": "RIGHT_LEGEND",
                        "headerCount": 1,
                        "axis": [{"position": "LEFT_AXIS", "title": ch.y_title}] if ch.y_title else [],
                        "domains": [{"domain": column(ch.first_col)}],
                        "series": [
                            {"series": column(c), "targetAxis": "LEFT_AXIS", **style}
                            for c in range(ch.series_from or ch.first_col + 1, ch.last_col + 1)
                        ],
                    },
                },
                "position": {
                    "overlayPosition": {
                        "anchorCell": {"sheetId": sheet_id, "rowIndex": anchor_row - 1, "columnIndex": anchor_col - 1},
                        "widthPixels": 820,
                        "heightPixels": 340,
                    }
                },
            }
        }
    }


def _validation_rule(
    options: Sequence[str], source: str, strict: bool, lists: Mapping[str, tuple[str, ...] | None] | None
) -> dict[str, Any] | None:
    """A DataValidationRule: ONE_OF_LIST for inline options, ONE_OF_RANGE for a source range."""
    if options:
        values = [{"userEnteredValue": str(o)} for o in options]
        return {"condition": {"type": "ONE_OF_LIST", "values": values}, "strict": strict, "showCustomUi": True}
    if not source:
        return None
    if lists is not None and source in lists:
        items = lists[source]
        if not items:
            return None
        values = [{"userEnteredValue": str(o)} for o in items]
        return {"condition": {"type": "ONE_OF_LIST", "values": values}, "strict": strict, "showCustomUi": True}
    ref = source if source.startswith("=") else "=" + source
    return {"condition": {"type": "ONE_OF_RANGE", "values": [{"userEnteredValue": ref}]}, "strict": strict,
            "showCustomUi": True}


def _source_values(spec: WorkbookSpec, source: str) -> tuple[str, ...] | None:
    """The values of a dropdown's source range, taken from the spec (for private order books)."""
    m = SOURCE_RANGE.match(source.strip())
    if not m:
        return None
    tab = (m.group(1) or "").replace("''", "'") or (m.group(2) or "").strip()
    try:
        grid = spec.tab(tab).rows
    except KeyError:
        return None
    c0 = column_index(m.group(3)) - 1
    r0 = int(m.group(4)) - 1
    c1 = column_index(m.group(5) or m.group(3))
    r1 = int(m.group(6) or m.group(4))
    seen: list[str] = []
    for line in grid[r0:r1]:
        for value in line[c0:c1]:
            if not is_blank(value) and str(value) not in seen:
                seen.append(str(value))
    if not seen or len(seen) > MAX_LIST_OPTIONS:
        return None
    return tuple(seen)


def _hex_color(text: str) -> dict[str, float]:
    """'#4A7A3D' -> Google's 0..1 RGB."""
    h = text.lstrip("#")
    if len(h) == 8:  # ARGB as openpyxl writes it
        h = h[2:]
    if len(h) != 6:
        return {"red": 0.3, "green": 0.3, "blue": 0.3}
    return {k: int(h[i : i + 2], 16) / 255 for k, i in (("red", 0), ("green", 2), ("blue", 4))}


def _creation_size(tab: TabSpec) -> tuple[int, int]:
    """Grid of a new tab: order tabs exactly what their creation writes, others with room to grow.
    Never smaller than :func:`_reach`: Google refuses a write or a range past the grid."""
    reach_rows, reach_cols = _reach(tab)
    if tab.kind == "orders":
        return reach_rows, reach_cols
    return max(len(tab.rows) + SPARE_ROWS, reach_rows), max(reach_cols, MIN_COLUMNS)


def _reach(tab: TabSpec) -> tuple[int, int]:
    """The rows and columns everything :func:`_format_requests` and the input block's protection
    touch on a new tab: its content, the formatted rows (at least row 2: wrapping, number formats
    and an order tab's input block start there), dropdowns with a last row, highlights and charts
    (their data and anchor) -- so a grid of this size holds whatever the tab's spec asks."""
    rows = max(len(tab.rows), tab.format_rows, 2)
    cols = max([_spec_width(tab), *tab.number_formats, *tab.wrap_columns])
    rows = max([rows, *[v.last_row for v in tab.validations]])
    for h in tab.highlights:
        area = a1_range_to_grid_range(h.area)
        rows = max(rows, int(area.get("endRowIndex") or 0), int(area.get("startRowIndex") or 0) + 1)
        cols = max(cols, int(area.get("endColumnIndex") or 0), int(area.get("startColumnIndex") or 0) + 1)
    for ch in tab.charts:
        rows = max(rows, ch.last_row, a1_to_rowcol(ch.anchor)[0])
    return rows, cols
