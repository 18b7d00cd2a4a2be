"""In-memory spreadsheet model and its Google JSON rendering.

A :class:`Spreadsheet` holds ordered :class:`Sheet` objects; a sheet keeps its cells
sparsely (``{(row, col): Cell}``) together with merges, protected ranges, dimension
metadata and the other sheet-level objects the Sheets API exposes.  The module also
resolves A1 ranges and GridRanges against a spreadsheet and renders ``spreadsheets.get``
answers (including ``includeGridData``/``ranges``/``fields``) in Google's shapes, e.g.
``sheetId`` omitted from GridRanges when it is 0 and ``frozenRowCount`` omitted when 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import a1, fieldmask
from .errors import ApiError, bad_request
from .jsoncopy import jcopy
from .values import Cell, effective_value, formatted_value

DEFAULT_ROWS = 1000
DEFAULT_COLUMNS = 26
DEFAULT_ROW_PIXELS = 21
DEFAULT_COLUMN_PIXELS = 100

#: Spreadsheet-level defaults exactly as Google returned them in the recordings.
DEFAULT_FORMAT: dict[str, Any] = {
    "backgroundColor": {"red": 1, "green": 1, "blue": 1},
    "padding": {"top": 2, "right": 3, "bottom": 2, "left": 3},
    "verticalAlignment": "BOTTOM",
    "wrapStrategy": "OVERFLOW_CELL",
    "textFormat": {
        "foregroundColor": {},
        "fontFamily": "arial,sans,sans-serif",
        "fontSize": 10,
        "bold": False,
        "italic": False,
        "strikethrough": False,
        "underline": False,
        "foregroundColorStyle": {"rgbColor": {}},
    },
    "backgroundColorStyle": {"rgbColor": {"red": 1, "green": 1, "blue": 1}},
}

DEFAULT_THEME: dict[str, Any] = {
    "primaryFontFamily": "Arial",
    "themeColors": [
        {"colorType": "TEXT", "color": {"rgbColor": {}}},
        {"colorType": "BACKGROUND", "color": {"rgbColor": {"red": 1, "green": 1, "blue": 1}}},
        {"colorType": "ACCENT1", "color": {"rgbColor": {"red": 0.25882354, "green": 0.52156866, "blue": 0.95686275}}},
        {"colorType": "ACCENT2", "color": {"rgbColor": {"red": 0.91764706, "green": 0.2627451, "blue": 0.20784314}}},
        {"colorType": "ACCENT3", "color": {"rgbColor": {"red": 0.9843137, "green": 0.7372549, "blue": 0.015686275}}},
        {"colorType": "ACCENT4", "color": {"rgbColor": {"red": 0.20392157, "green": 0.65882355, "blue": 0.3254902}}},
        {"colorType": "ACCENT5", "color": {"rgbColor": {"red": 1, "green": 0.42745098, "blue": 0.003921569}}},
        {"colorType": "ACCENT6", "color": {"rgbColor": {"red": 0.27450982, "green": 0.7411765, "blue": 0.7764706}}},
        {"colorType": "LINK", "color": {"rgbColor": {"red": 0.06666667, "green": 0.33333334, "blue": 0.8}}},
    ],
}


def default_spreadsheet_properties(title: str) -> dict[str, Any]:
    """Properties of a freshly created spreadsheet (recorded with locale en_US, Etc/GMT)."""
    return {
        "title": title,
        "locale": "en_US",
        "autoRecalc": "ON_CHANGE",
        "timeZone": "Etc/GMT",
        "defaultFormat": jcopy(DEFAULT_FORMAT),
        "spreadsheetTheme": jcopy(DEFAULT_THEME),
    }


@dataclass
class Sheet:
    """One tab of a spreadsheet."""

    props: dict[str, Any]
    cells: dict[tuple[int, int], Cell] = field(default_factory=dict)
    merges: list[dict[str, Any]] = field(default_factory=list)
    protected: list[dict[str, Any]] = field(default_factory=list)
    basic_filter: dict[str, Any] | None = None
    row_groups: list[dict[str, Any]] = field(default_factory=list)
    column_groups: list[dict[str, Any]] = field(default_factory=list)
    row_meta: dict[int, dict[str, Any]] = field(default_factory=dict)
    col_meta: dict[int, dict[str, Any]] = field(default_factory=dict)
    charts: list[dict[str, Any]] = field(default_factory=list)
    conditional_formats: list[dict[str, Any]] = field(default_factory=list)

    @property
    def sheet_id(self) -> int:
        """The numeric sheetId (gid)."""
        return int(self.props["sheetId"])

    @property
    def title(self) -> str:
        """The tab title."""
        return str(self.props["title"])

    @property
    def grid(self) -> dict[str, Any]:
        """The mutable ``gridProperties`` dict."""
        return self.props.setdefault("gridProperties", {})  # type: ignore[no-any-return]

    @property
    def rows(self) -> int:
        """Number of rows in the grid."""
        return int(self.grid.get("rowCount", DEFAULT_ROWS))

    @property
    def cols(self) -> int:
        """Number of columns in the grid."""
        return int(self.grid.get("columnCount", DEFAULT_COLUMNS))

    def cell(self, row: int, col: int) -> Cell | None:
        """The stored cell or ``None``."""
        return self.cells.get((row, col))

    def ensure(self, row: int, col: int) -> Cell:
        """The stored cell, created when missing."""
        cell = self.cells.get((row, col))
        if cell is None:
            cell = Cell()
            self.cells[(row, col)] = cell
        return cell

    def prune(self, row: int, col: int) -> None:
        """Drop a cell that no longer stores anything."""
        cell = self.cells.get((row, col))
        if cell is not None and cell.is_empty():
            del self.cells[(row, col)]

    def cells_in(self, r0: int, r1: int, c0: int, c1: int) -> Iterator[tuple[int, int, Cell]]:
        """Stored cells inside half-open bounds."""
        area = (r1 - r0) * (c1 - c0)
        if area <= len(self.cells):
            for r in range(r0, r1):
                for c in range(c0, c1):
                    cell = self.cells.get((r, c))
                    if cell is not None:
                        yield r, c, cell
        else:
            for (r, c), cell in list(self.cells.items()):
                if r0 <= r < r1 and c0 <= c < c1:
                    yield r, c, cell

    def to_json(self) -> dict[str, Any]:
        """Serialise for persistence."""
        return {
            "props": self.props,
            "cells": [[r, c, cell.to_json()] for (r, c), cell in self.cells.items()],
            "merges": self.merges,
            "protected": self.protected,
            "basic_filter": self.basic_filter,
            "row_groups": self.row_groups,
            "column_groups": self.column_groups,
            "row_meta": {str(k): v for k, v in self.row_meta.items()},
            "col_meta": {str(k): v for k, v in self.col_meta.items()},
            "charts": self.charts,
            "conditional_formats": self.conditional_formats,
        }

    def copy(self) -> Sheet:
        """A deep copy sharing no dict, list or cell with this sheet: what ``from_json(jcopy(to_json()))``
        gives, without building the JSON in between (a batch copies its spreadsheet first)."""
        return Sheet(
            props=jcopy(self.props),
            cells={key: cell.copy() for key, cell in self.cells.items()},
            merges=jcopy(self.merges),
            protected=jcopy(self.protected),
            basic_filter=jcopy(self.basic_filter),
            row_groups=jcopy(self.row_groups),
            column_groups=jcopy(self.column_groups),
            row_meta={k: jcopy(v) for k, v in self.row_meta.items()},
            col_meta={k: jcopy(v) for k, v in self.col_meta.items()},
            charts=jcopy(self.charts),
            conditional_formats=jcopy(self.conditional_formats),
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Sheet:
        """Inverse of :meth:`to_json`."""
        return cls(
            props=data["props"],
            cells={(r, c): Cell.from_json(v) for r, c, v in data.get("cells", [])},
            merges=data.get("merges", []),
            protected=data.get("protected", []),
            basic_filter=data.get("basic_filter"),
            row_groups=data.get("row_groups", []),
            column_groups=data.get("column_groups", []),
            row_meta={int(k): v for k, v in data.get("row_meta", {}).items()},
            col_meta={int(k): v for k, v in data.get("col_meta", {}).items()},
            charts=data.get("charts", []),
            conditional_formats=data.get("conditional_formats", []),
        )


@dataclass
class Spreadsheet:
    """A spreadsheet: properties, ordered sheets and named ranges."""

    id: str
    props: dict[str, Any]
    sheets: list[Sheet] = field(default_factory=list)
    named_ranges: list[dict[str, Any]] = field(default_factory=list)

    def ordered(self) -> list[Sheet]:
        """Sheets in tab order."""
        return sorted(self.sheets, key=lambda s: int(s.props.get("index", 0)))

    def reindex(self, order: list[Sheet] | None = None) -> None:
        """Renumber ``index`` 0..n-1 following ``order`` (default: current order)."""
        for i, sheet in enumerate(order if order is not None else self.ordered()):
            sheet.props["index"] = i
        self.sheets = sorted(self.sheets, key=lambda s: int(s.props["index"]))

    def by_id(self, sheet_id: int) -> Sheet | None:
        """Sheet with the given sheetId."""
        for sheet in self.sheets:
            if sheet.sheet_id == sheet_id:
                return sheet
        return None

    def by_title(self, title: str) -> Sheet | None:
        """Sheet with the given title (exact match first, then case-insensitive)."""
        for sheet in self.sheets:
            if sheet.title == title:
                return sheet
        folded = title.casefold()
        for sheet in self.sheets:
            if sheet.title.casefold() == folded:
                return sheet
        return None

    def named(self, name: str) -> dict[str, Any] | None:
        """Named range by name (case-insensitive, as in Sheets)."""
        folded = name.casefold()
        for nr in self.named_ranges:
            if str(nr.get("name", "")).casefold() == folded:
                return nr
        return None

    def to_json(self) -> dict[str, Any]:
        """Serialise for persistence."""
        return {
            "id": self.id,
            "props": self.props,
            "sheets": [s.to_json() for s in self.sheets],
            "named_ranges": self.named_ranges,
        }

    def copy(self) -> Spreadsheet:
        """A deep copy sharing nothing mutable with this spreadsheet (see :meth:`Sheet.copy`)."""
        return Spreadsheet(
            id=self.id,
            props=jcopy(self.props),
            sheets=[s.copy() for s in self.sheets],
            named_ranges=jcopy(self.named_ranges),
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Spreadsheet:
        """Inverse of :meth:`to_json`."""
        return cls(
            id=data["id"],
            props=data["props"],
            sheets=[Sheet.from_json(s) for s in data.get("sheets", [])],
            named_ranges=data.get("named_ranges", []),
        )


def new_sheet(sheet_id: int, title: str, index: int, rows: int = DEFAULT_ROWS, cols: int = DEFAULT_COLUMNS) -> Sheet:
    """A blank GRID sheet."""
    return Sheet(
        props={
            "sheetId": sheet_id,
            "title": title,
            "index": index,
            "sheetType": "GRID",
            "gridProperties": {"rowCount": rows, "columnCount": cols},
        }
    )


# --------------------------------------------------------------------------- ranges


@dataclass
class Rect:
    """Half-open cell rectangle on a sheet.

    ``anchor`` is true for a single-cell A1 reference without a colon (``Sheet1!B2``),
    which Google treats as the top-left corner of a write rather than as its bounds.
    """

    sheet: Sheet
    r0: int
    r1: int
    c0: int
    c1: int
    anchor: bool = False

    @property
    def empty(self) -> bool:
        """True for a zero-area rectangle."""
        return self.r1 <= self.r0 or self.c1 <= self.c0

    def a1(self) -> str:
        """Google-normalised A1 text of the rectangle."""
        return a1.format_range(self.sheet.title, self.r0, self.c0, self.r1, self.c1)

    def in_grid(self) -> bool:
        """True when the rectangle lies inside the sheet's grid."""
        return self.r0 >= 0 and self.c0 >= 0 and self.r1 <= self.sheet.rows and self.c1 <= self.sheet.cols

    def intersects(self, other: Rect) -> bool:
        """Overlap test (same sheet)."""
        return (
            self.sheet is other.sheet
            and self.r0 < other.r1
            and other.r0 < self.r1
            and self.c0 < other.c1
            and other.c0 < self.c1
        )

    def contains(self, row: int, col: int) -> bool:
        """Point test."""
        return self.r0 <= row < self.r1 and self.c0 <= col < self.c1

    def grid_range(self) -> dict[str, Any]:
        """As a GridRange dict (with sheetId)."""
        return {
            "sheetId": self.sheet.sheet_id,
            "startRowIndex": self.r0,
            "endRowIndex": self.r1,
            "startColumnIndex": self.c0,
            "endColumnIndex": self.c1,
        }


def unable_to_parse(text: str) -> ApiError:
    """Google's answer for a range it cannot resolve."""
    return bad_request(f"Unable to parse range: {text}")


def exceeds_grid(echo: str, sheet: Sheet) -> ApiError:
    """Google's answer for a range outside the grid."""
    return bad_request(f"Range ({echo}) exceeds grid limits. Max rows: {sheet.rows}, max columns: {sheet.cols}")


def resolve_a1(ss: Spreadsheet, text: str, *, check_grid: bool = True) -> Rect:
    """Resolve an A1 reference (sheet title, cells, named range) to a rectangle."""
    try:
        title, cells, _quoted = a1.split_sheet(text)
    except a1.A1SyntaxError:
        raise unable_to_parse(text) from None
    sheet: Sheet | None
    if title is None:
        assert cells is not None
        sheet = ss.by_title(cells)
        if sheet is not None and not a1.looks_like_cells(cells):
            return whole_sheet(sheet)
        named = ss.named(cells)
        if named is not None and not a1.looks_like_cells(cells):
            return gridrange_rect(ss, named["range"])
        if sheet is not None:
            return whole_sheet(sheet)
        ordered = ss.ordered()
        if not ordered or not a1.looks_like_cells(cells):
            raise unable_to_parse(text)
        sheet = ordered[0]
    else:
        sheet = ss.by_title(title)
        if sheet is None:
            raise unable_to_parse(text)
        if cells is None:
            return whole_sheet(sheet)
        if not a1.looks_like_cells(cells):
            named = ss.named(cells)
            if named is None:
                raise unable_to_parse(text)
            return gridrange_rect(ss, named["range"])
    bounds = a1.parse_cells(cells)
    rect = Rect(
        sheet,
        bounds.start_row if bounds.start_row is not None else 0,
        (bounds.end_row + 1) if bounds.end_row is not None else sheet.rows,
        bounds.start_col if bounds.start_col is not None else 0,
        (bounds.end_col + 1) if bounds.end_col is not None else sheet.cols,
        anchor=":" not in cells,
    )
    if check_grid and (rect.r0 >= sheet.rows or rect.c0 >= sheet.cols or not rect.in_grid()):
        raise exceeds_grid(f"{a1.quote_title(sheet.title)}!{cells.upper()}", sheet)
    return rect


def whole_sheet(sheet: Sheet) -> Rect:
    """The whole grid of a sheet."""
    return Rect(sheet, 0, sheet.rows, 0, sheet.cols)


def gridrange_rect(ss: Spreadsheet, gr: dict[str, Any] | None, *, check_grid: bool = True) -> Rect:
    """Resolve a GridRange (missing bounds = to the grid edge)."""
    gr = gr or {}
    sheet_id = int(gr.get("sheetId") or 0)
    sheet = ss.by_id(sheet_id)
    if sheet is None:
        raise bad_request(f"No grid with id: {sheet_id}")
    r0 = _opt_int(gr.get("startRowIndex"), 0)
    r1 = _opt_int(gr.get("endRowIndex"), sheet.rows)
    c0 = _opt_int(gr.get("startColumnIndex"), 0)
    c1 = _opt_int(gr.get("endColumnIndex"), sheet.cols)
    if r0 < 0 or c0 < 0 or r1 < r0 or c1 < c0:
        raise bad_request("Invalid GridRange: start index must be less than or equal to end index")
    rect = Rect(sheet, r0, r1, c0, c1)
    if check_grid and not rect.in_grid():
        raise exceeds_grid(_gridrange_echo(sheet, gr), sheet)
    return rect


def _gridrange_echo(sheet: Sheet, gr: dict[str, Any]) -> str:
    """A1-ish echo of a GridRange for 'exceeds grid limits' messages."""
    r0 = _opt_int(gr.get("startRowIndex"), 0)
    c0 = _opt_int(gr.get("startColumnIndex"), 0)
    start = a1.cell_name(r0, c0)
    end_r = gr.get("endRowIndex")
    end_c = gr.get("endColumnIndex")
    end_col = a1.column_letters(int(end_c) - 1) if end_c is not None else ""
    end_row = str(int(end_r)) if end_r is not None else ""
    end = f"{end_col}{end_row}"
    return f"{a1.quote_title(sheet.title)}!{start}" + (f":{end}" if end else "")


def _opt_int(value: Any, default: int) -> int:
    """Integer or default when unset."""
    return default if value is None else int(value)


def gridrange_out(gr: dict[str, Any]) -> dict[str, Any]:
    """A GridRange as Google prints it: ``sheetId`` omitted when 0, nulls dropped."""
    out: dict[str, Any] = {}
    if gr.get("sheetId"):
        out["sheetId"] = int(gr["sheetId"])
    for key in ("startRowIndex", "endRowIndex", "startColumnIndex", "endColumnIndex"):
        if gr.get(key) is not None:
            out[key] = int(gr[key])
    return out


def dimension_range_out(dr: dict[str, Any]) -> dict[str, Any]:
    """A DimensionRange as Google prints it (``sheetId`` omitted when 0)."""
    out: dict[str, Any] = {}
    if dr.get("sheetId"):
        out["sheetId"] = int(dr["sheetId"])
    out["dimension"] = dr.get("dimension", "ROWS")
    for key in ("startIndex", "endIndex"):
        if dr.get(key) is not None:
            out[key] = int(dr[key])
    return out


# --------------------------------------------------------------------------- rendering


def sheet_properties_out(sheet: Sheet) -> dict[str, Any]:
    """SheetProperties with Google's omission of default values."""
    p = sheet.props
    out: dict[str, Any] = {
        "sheetId": sheet.sheet_id,
        "title": sheet.title,
        "index": int(p.get("index", 0)),
        "sheetType": p.get("sheetType", "GRID"),
    }
    grid = p.get("gridProperties", {})
    grid_out: dict[str, Any] = {"rowCount": sheet.rows, "columnCount": sheet.cols}
    for key in ("frozenRowCount", "frozenColumnCount"):
        if grid.get(key):
            grid_out[key] = int(grid[key])
    for key in ("hideGridlines", "rowGroupControlAfter", "columnGroupControlAfter"):
        if grid.get(key):
            grid_out[key] = True
    out["gridProperties"] = grid_out
    if p.get("hidden"):
        out["hidden"] = True
    for key in ("tabColor", "tabColorStyle"):
        if p.get(key):
            out[key] = jcopy(p[key])
    if p.get("rightToLeft"):
        out["rightToLeft"] = True
    return out


def protected_range_out(pr: dict[str, Any], viewer_can_edit: bool) -> dict[str, Any]:
    """A ProtectedRange as Google prints it for a given viewer."""
    out: dict[str, Any] = {"protectedRangeId": pr["protectedRangeId"]}
    if pr.get("range") is not None:
        out["range"] = gridrange_out(pr["range"])
    if pr.get("namedRangeId"):
        out["namedRangeId"] = pr["namedRangeId"]
    if pr.get("description"):
        out["description"] = pr["description"]
    if pr.get("warningOnly"):
        out["warningOnly"] = True
    if viewer_can_edit:
        out["requestingUserCanEdit"] = True
    if pr.get("unprotectedRanges"):
        out["unprotectedRanges"] = [gridrange_out(r) for r in pr["unprotectedRanges"]]
    editors = pr.get("editors") or {}
    # Google shows editors only to callers who may edit both the document and the range.
    if not pr.get("warningOnly") and viewer_can_edit:
        ed_out: dict[str, Any] = {}
        if editors.get("users"):
            ed_out["users"] = list(editors["users"])
        if editors.get("groups"):
            ed_out["groups"] = list(editors["groups"])
        if editors.get("domainUsersCanEdit"):
            ed_out["domainUsersCanEdit"] = True
        out["editors"] = ed_out
    return out


def named_range_out(nr: dict[str, Any]) -> dict[str, Any]:
    """A NamedRange as Google prints it."""
    return {"namedRangeId": nr["namedRangeId"], "name": nr["name"], "range": gridrange_out(nr["range"])}


def cell_data_out(cell: Cell, default_format: dict[str, Any], mask: fieldmask.MaskTree | None = None) -> dict[str, Any]:
    """Full CellData for a stored cell, or only the fields ``mask`` selects (the read of a
    campaign asks for ``userEnteredValue`` alone: rendering the rest for every cell would
    cost most of the answer's time and be projected away)."""
    every = mask is None or "*" in mask

    def wanted(key: str) -> bool:
        return every or key in mask  # type: ignore[operator]

    out: dict[str, Any] = {}
    if cell.value is not None:
        if wanted("userEnteredValue"):
            out["userEnteredValue"] = jcopy(cell.value)
        if wanted("effectiveValue"):
            ev = effective_value(cell)
            if ev is not None:
                out["effectiveValue"] = jcopy(ev)
        if wanted("formattedValue"):
            out["formattedValue"] = formatted_value(cell)
    if cell.fmt and wanted("userEnteredFormat"):
        out["userEnteredFormat"] = jcopy(cell.fmt)
    if (cell.value is not None or cell.fmt) and wanted("effectiveFormat"):
        out["effectiveFormat"] = merge_format(default_format, cell.fmt or {})
    if cell.note and wanted("note"):
        out["note"] = cell.note
    if cell.validation and wanted("dataValidation"):
        out["dataValidation"] = jcopy(cell.validation)
    for key, value in cell.extra.items():
        if wanted(key):
            out[key] = jcopy(value)
    return out


def merge_format(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Recursive dict merge used for effectiveFormat."""
    out = jcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_format(out[key], value)
        else:
            out[key] = jcopy(value)
    return out


def grid_data_out(
    ss: Spreadsheet,
    rect: Rect,
    mask: fieldmask.MaskTree | None,
) -> dict[str, Any]:
    """GridData for a rectangle: trimmed rowData plus row/column metadata."""
    sheet = rect.sheet
    cell_mask = fieldmask.subtree(mask, "rowData", "values")
    # a cell's data holds only fields the mask names (cell_data_out): one of them with no
    # sub-selection is already its projection (the campaign's read asks userEnteredValue alone)
    flat = cell_mask is None or all(sub is None for sub in cell_mask.values())
    default_format = ss.props.get("defaultFormat", DEFAULT_FORMAT)
    out: dict[str, Any] = {}
    if rect.r0:
        out["startRow"] = rect.r0
    if rect.c0:
        out["startColumn"] = rect.c0
    if fieldmask.wants(mask, "rowData"):
        rows: list[dict[str, Any]] = []
        by_row: dict[int, dict[int, Cell]] = {}
        for r, c, cell in sheet.cells_in(rect.r0, rect.r1, rect.c0, rect.c1):
            by_row.setdefault(r, {})[c] = cell
        last_row = max(by_row) if by_row else rect.r0 - 1
        for r in range(rect.r0, last_row + 1):
            cells = by_row.get(r, {})
            values: list[dict[str, Any]] = []
            for c in range(rect.c0, (max(cells) + 1) if cells else rect.c0):
                stored = cells.get(c)
                data = cell_data_out(stored, default_format, cell_mask) if stored is not None else {}
                values.append(data if flat and len(data) <= 1 else fieldmask.project(data, cell_mask))
            while values and not values[-1]:
                values.pop()
            rows.append({"values": values} if values else {})
        while rows and not rows[-1]:
            rows.pop()
        if rows:
            out["rowData"] = rows
    if fieldmask.wants(mask, "rowMetadata"):
        out["rowMetadata"] = [
            dimension_meta_out(sheet.row_meta.get(r), DEFAULT_ROW_PIXELS) for r in range(rect.r0, rect.r1)
        ]
    if fieldmask.wants(mask, "columnMetadata"):
        out["columnMetadata"] = [
            dimension_meta_out(sheet.col_meta.get(c), DEFAULT_COLUMN_PIXELS) for c in range(rect.c0, rect.c1)
        ]
    # the cells were projected above: the rest of the grid only
    return fieldmask.project(out, fieldmask.projected(mask, "rowData", "values")) if mask is not None else out  # type: ignore[no-any-return]


def dimension_meta_out(meta: dict[str, Any] | None, default_px: int) -> dict[str, Any]:
    """DimensionProperties for one row/column."""
    meta = meta or {}
    out: dict[str, Any] = {}
    if meta.get("hiddenByUser"):
        out["hiddenByUser"] = True
    out["pixelSize"] = int(meta.get("pixelSize", default_px))
    if meta.get("developerMetadata"):
        out["developerMetadata"] = meta["developerMetadata"]
    return out


def spreadsheet_out(
    ss: Spreadsheet,
    *,
    viewer_can_edit: Any,
    include_grid: bool = False,
    ranges: Iterable[str] = (),
    mask_text: str | None = None,
) -> dict[str, Any]:
    """The ``spreadsheets.get`` answer.

    ``viewer_can_edit(pr) -> bool`` decides ``requestingUserCanEdit`` per protected range.
    With a field mask, grid data is included when the mask asks for ``sheets.data``
    (Google ignores ``includeGridData`` then).
    """
    try:
        mask = fieldmask.parse(mask_text) if mask_text else None
    except fieldmask.MaskError:
        raise bad_request(f"Invalid field selection {mask_text}") from None
    if mask is not None:
        include_grid = fieldmask.wants(mask, "sheets", "data")
    data_mask = fieldmask.subtree(mask, "sheets", "data")
    rects_by_sheet: dict[int, list[Rect]] = {}
    range_list = list(ranges)
    for text in range_list:
        rect = resolve_a1(ss, text)
        rects_by_sheet.setdefault(rect.sheet.sheet_id, []).append(rect)
    sheets_out: list[dict[str, Any]] = []
    for sheet in ss.ordered():
        if range_list and sheet.sheet_id not in rects_by_sheet:
            continue
        entry: dict[str, Any] = {"properties": sheet_properties_out(sheet)}
        if include_grid:
            rects = rects_by_sheet.get(sheet.sheet_id) or [whole_sheet(sheet)]
            entry["data"] = [grid_data_out(ss, rect, data_mask) for rect in rects]
        if sheet.merges:
            entry["merges"] = [gridrange_out(m) for m in sheet.merges]
        if sheet.conditional_formats:
            entry["conditionalFormats"] = jcopy(sheet.conditional_formats)
        if sheet.protected:
            entry["protectedRanges"] = [protected_range_out(pr, viewer_can_edit(pr)) for pr in sheet.protected]
        if sheet.basic_filter is not None:
            entry["basicFilter"] = _basic_filter_out(sheet.basic_filter)
        if sheet.charts:
            entry["charts"] = jcopy(sheet.charts)
        if sheet.row_groups:
            entry["rowGroups"] = [_group_out(g) for g in sheet.row_groups]
        if sheet.column_groups:
            entry["columnGroups"] = [_group_out(g) for g in sheet.column_groups]
        sheets_out.append(entry)
    out: dict[str, Any] = {
        "spreadsheetId": ss.id,
        "properties": jcopy(ss.props),
        "sheets": sheets_out,
    }
    if ss.named_ranges:
        out["namedRanges"] = [named_range_out(nr) for nr in ss.named_ranges]
    out["spreadsheetUrl"] = f"https://docs.google.com/spreadsheets/d/{ss.id}/edit"
    if mask is not None:  # the grid data was projected by grid_data_out: the rest of the answer only
        return fieldmask.project(out, fieldmask.projected(mask, "sheets", "data"))  # type: ignore[no-any-return]
    return out


def _basic_filter_out(bf: dict[str, Any]) -> dict[str, Any]:
    """BasicFilter as printed (range without sheetId 0)."""
    out = jcopy(bf)
    out["range"] = gridrange_out(bf.get("range", {}))
    return out


def _group_out(group: dict[str, Any]) -> dict[str, Any]:
    """DimensionGroup as printed."""
    out: dict[str, Any] = {"range": dimension_range_out(group["range"]), "depth": int(group.get("depth", 1))}
    if group.get("collapsed"):
        out["collapsed"] = True
    return out
