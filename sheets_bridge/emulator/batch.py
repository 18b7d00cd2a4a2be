"""``spreadsheets.batchUpdate``: the sub-request handlers.

The endpoint is atomic like Google's: the server applies the whole list of requests to a
deep copy of the spreadsheet and swaps the copy in only when every request succeeded, so
a failing request N leaves requests 0..N-1 unapplied as well.  Errors are worded like
Google (``Invalid requests[i].kind: ...``); request kinds the emulator does not implement
answer 501 so that a test relying on them fails loudly instead of silently passing.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import a1, fieldmask
from .errors import ApiError, bad_request, invalid_request, sheets_error
from .jsoncopy import jcopy
from .model import (
    DEFAULT_COLUMN_PIXELS,
    DEFAULT_ROW_PIXELS,
    Rect,
    Sheet,
    Spreadsheet,
    dimension_range_out,
    gridrange_rect,
    named_range_out,
    new_sheet,
    protected_range_out,
    resolve_a1,
    sheet_properties_out,
    spreadsheet_out,
)
from .protection import Actor, can_edit_protected, check_rect, check_sheet_structure
from .structure import delete_dimension, insert_dimension, resize_grid
from .values import Cell, effective_value, formatted_value, parse_user_entered, quantize_color

Handler = Callable[["BatchContext", int, dict[str, Any]], "dict[str, Any] | None"]


@dataclass
class BatchContext:
    """State shared by the handlers of one batchUpdate call."""

    ss: Spreadsheet
    actor: Actor
    owner_email: str
    new_int_id: Callable[[], int]


class _Fail(Exception):
    """Raised by handlers with a bare message; wrapped into ``Invalid requests[i].kind``."""


MAX_CELL_CHARS = 50_000  # Google refuses a write that puts more characters in one cell


def _fail(message: str) -> _Fail:
    """Shorthand for a handler failure with Google's message text."""
    return _Fail(message)


# --------------------------------------------------------------------------- helpers


def _rect(ctx: BatchContext, gr: dict[str, Any] | None) -> Rect:
    """Resolve a GridRange of the working copy."""
    return gridrange_rect(ctx.ss, gr)


def _sheet(ctx: BatchContext, sheet_id: Any) -> Sheet:
    """Sheet by id, or Google's 'No grid with id' failure."""
    sid = int(sheet_id or 0)
    sheet = ctx.ss.by_id(sid)
    if sheet is None:
        raise _fail(f"No grid with id: {sid}")
    return sheet


def _mask(fields: Any) -> fieldmask.MaskTree | None:
    """Parse the mandatory ``fields`` of an update request."""
    if fields is None or str(fields).strip() == "":
        raise _fail("At least one field must be specified in 'fields'.")
    try:
        return fieldmask.parse(str(fields))
    except fieldmask.MaskError:
        raise _fail(f"Invalid field mask: {fields}") from None


_COLOR_PAIRS = (("backgroundColor", "backgroundColorStyle"),)
_TEXT_PAIRS = (("foregroundColor", "foregroundColorStyle"),)


def _sync_pair(
    target: dict[str, Any],
    source: dict[str, Any] | None,
    tree: fieldmask.MaskTree | None,
    color_key: str,
    style_key: str,
) -> None:
    """Keep ``color``/``colorStyle`` mirrored and quantised to 8 bits like Sheets stores them."""
    touched_color = tree is None or "*" in tree or color_key in tree
    touched_style = tree is None or "*" in tree or style_key in tree
    src = source or {}
    color = src.get(color_key) if touched_color else None
    style = src.get(style_key) if touched_style else None
    rgb = style.get("rgbColor") if isinstance(style, dict) else None
    theme = style.get("themeColor") if isinstance(style, dict) else None
    if rgb is not None:
        quantised = quantize_color(rgb)
    elif theme:
        target[style_key] = {"themeColor": theme}
        target.pop(color_key, None)
        return
    elif color is not None:
        quantised = quantize_color(color)
    else:
        if touched_color or touched_style:
            target.pop(color_key, None)
            target.pop(style_key, None)
        return
    target[color_key] = quantised
    target[style_key] = {"rgbColor": dict(quantised)}


def normalise_format(fmt: dict[str, Any], source: dict[str, Any] | None, tree: fieldmask.MaskTree | None) -> None:
    """Post-process a userEnteredFormat after a masked update (colour mirroring/quantising)."""
    for color_key, style_key in _COLOR_PAIRS:
        if tree is None or fieldmask.wants(tree, color_key) or fieldmask.wants(tree, style_key):
            _sync_pair(fmt, source, tree, color_key, style_key)
    if tree is None or fieldmask.wants(tree, "textFormat"):
        text = fmt.get("textFormat")
        src_text = (source or {}).get("textFormat")
        sub = fieldmask.subtree(tree, "textFormat") if tree is not None else None
        if isinstance(text, dict):
            for color_key, style_key in _TEXT_PAIRS:
                if sub is None or fieldmask.wants(sub, color_key) or fieldmask.wants(sub, style_key):
                    _sync_pair(text, src_text, sub, color_key, style_key)
            if not text:
                fmt.pop("textFormat", None)
    borders = fmt.get("borders")
    if isinstance(borders, dict):
        for side in borders.values():
            if isinstance(side, dict):
                src = dict(side)
                _sync_pair(side, src, None, "color", "colorStyle")


def _prune_nulls(value: Any) -> Any:
    """Drop JSON nulls (proto3 treats them as unset)."""
    if isinstance(value, dict):
        return {k: _prune_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_prune_nulls(v) for v in value]
    return value


_CELL_FIELDS = ("userEnteredValue", "userEnteredFormat", "note", "dataValidation")


def _cell_as_data(cell: Cell | None) -> dict[str, Any]:
    """A stored cell as the CellData fields an update mask can touch."""
    if cell is None:
        return {}
    data: dict[str, Any] = {}
    if cell.value is not None:
        data["userEnteredValue"] = jcopy(cell.value)
    if cell.fmt:
        data["userEnteredFormat"] = jcopy(cell.fmt)
    if cell.note:
        data["note"] = cell.note
    if cell.validation:
        data["dataValidation"] = jcopy(cell.validation)
    data.update(jcopy(cell.extra))
    return data


def _validate_user_value(value: Any) -> None:
    """An ExtendedValue must hold at most one kind; formulas start with '='."""
    if value is None:
        return
    if not isinstance(value, dict):
        raise _fail("Invalid userEnteredValue")
    kinds = [
        k for k in ("stringValue", "numberValue", "boolValue", "formulaValue", "errorValue") if value.get(k) is not None
    ]
    if len(kinds) > 1:
        raise _fail(f"oneof field 'value' is already set. Cannot set '{kinds[1]}'")
    if value.get("formulaValue") is not None and not str(value["formulaValue"]).startswith("="):
        raise _fail(f"Invalid formulaValue: {value['formulaValue']}")
    text = value.get("stringValue", value.get("formulaValue"))
    if isinstance(text, str) and len(text) > MAX_CELL_CHARS:
        raise _fail(f"Your input contains more than the maximum of {MAX_CELL_CHARS} characters in a single cell.")


def write_cell_data(sheet: Sheet, row: int, col: int, source: dict[str, Any], tree: fieldmask.MaskTree | None) -> None:
    """Apply a CellData under a field mask to one cell (the heart of updateCells/repeatCell)."""
    source = _prune_nulls(source or {})
    cell = sheet.cell(row, col)
    data = _cell_as_data(cell)
    fieldmask.apply_update(data, source, tree)
    if tree is None or fieldmask.wants(tree, "userEnteredFormat"):
        fmt = data.get("userEnteredFormat")
        if isinstance(fmt, dict):
            sub = fieldmask.subtree(tree, "userEnteredFormat") if tree is not None else None
            normalise_format(fmt, source.get("userEnteredFormat"), sub)
            if not fmt:
                data.pop("userEnteredFormat", None)
    value = data.get("userEnteredValue")
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if v is not None}
        if not value:
            value = None
    target = sheet.ensure(row, col)
    target.value = value
    target.fmt = data.get("userEnteredFormat") or None
    target.note = data.get("note") or None
    target.validation = data.get("dataValidation") or None
    target.extra = {k: v for k, v in data.items() if k not in _CELL_FIELDS and v not in (None, "", {}, [])}
    sheet.prune(row, col)


# --------------------------------------------------------------------------- sheets


def _unique_title(ss: Spreadsheet, base: str = "Sheet") -> str:
    """Google's default title for a new sheet (SheetN)."""
    n = len(ss.sheets) + 1
    while ss.by_title(f"{base}{n}") is not None:
        n += 1
    return f"{base}{n}"


def _check_new_title(ss: Spreadsheet, title: str, exclude: Sheet | None = None) -> None:
    """Titles must be non-empty and unique (case-insensitively)."""
    if not str(title).strip():
        raise _fail("The sheet name cannot be empty.")
    existing = ss.by_title(title)
    if existing is not None and existing is not exclude and existing.title.casefold() == str(title).casefold():
        raise _fail(f'A sheet with the name "{title}" already exists. Please enter another name.')


def add_sheet(ctx: BatchContext, i: int, req: dict[str, Any]) -> dict[str, Any]:
    """addSheet."""
    props = _prune_nulls(req.get("properties") or {})
    ss = ctx.ss
    title = props.get("title") or _unique_title(ss)
    _check_new_title(ss, title)
    sheet_id = props.get("sheetId")
    if sheet_id is not None:
        if ss.by_id(int(sheet_id)) is not None:
            raise _fail(f"A sheet with the id {int(sheet_id)} already exists.")
    else:
        sheet_id = ctx.new_int_id()
        while ss.by_id(sheet_id) is not None:
            sheet_id = ctx.new_int_id()
    grid = props.get("gridProperties") or {}
    rows = int(grid.get("rowCount", 1000))
    cols = int(grid.get("columnCount", 26))
    if rows < 1 or cols < 1:
        raise _fail("The grid must have at least one row and one column.")
    order = ss.ordered()
    index = props.get("index")
    index = len(order) if index is None else max(0, min(int(index), len(order)))
    sheet = new_sheet(int(sheet_id), str(title), index, rows, cols)
    for key in (
        "frozenRowCount",
        "frozenColumnCount",
        "hideGridlines",
        "rowGroupControlAfter",
        "columnGroupControlAfter",
    ):
        if grid.get(key) is not None:
            sheet.grid[key] = grid[key]
    if props.get("hidden"):
        sheet.props["hidden"] = True
    if props.get("rightToLeft"):
        sheet.props["rightToLeft"] = True
    if props.get("tabColor") or props.get("tabColorStyle"):
        _sync_pair(sheet.props, props, None, "tabColor", "tabColorStyle")
    ss.sheets.append(sheet)
    order.insert(index, sheet)
    ss.reindex(order)
    return {"addSheet": {"properties": sheet_properties_out(sheet)}}


def delete_sheet(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """deleteSheet."""
    sid = int(req.get("sheetId") or 0)
    sheet = ctx.ss.by_id(sid)
    if sheet is None:
        raise _fail(f"No sheet with id: {sid}")
    if len(ctx.ss.sheets) == 1:
        raise _fail("You can't remove all the sheets in a document.")
    check_sheet_structure(ctx.ss, sheet, ctx.actor, f"Invalid requests[{i}].deleteSheet: ")
    if not sheet.props.get("hidden") and all(s.props.get("hidden") for s in ctx.ss.sheets if s is not sheet):
        raise _fail("You can't remove all the visible sheets in a document.")
    ctx.ss.sheets.remove(sheet)
    ctx.ss.named_ranges = [nr for nr in ctx.ss.named_ranges if int(nr["range"].get("sheetId") or 0) != sid]
    ctx.ss.reindex()
    return None


def duplicate_sheet(ctx: BatchContext, i: int, req: dict[str, Any]) -> dict[str, Any]:
    """duplicateSheet."""
    source = _sheet(ctx, req.get("sourceSheetId"))
    ss = ctx.ss
    title = req.get("newSheetName") or f"Copy of {source.title}"
    _check_new_title(ss, title)
    sheet_id = req.get("newSheetId")
    if sheet_id is None:
        sheet_id = ctx.new_int_id()
    elif ss.by_id(int(sheet_id)) is not None:
        raise _fail(f"A sheet with the id {int(sheet_id)} already exists.")
    clone = source.copy()
    clone.props["sheetId"] = int(sheet_id)
    clone.props["title"] = title
    clone.protected = []
    for group in (clone.merges,):
        for gr in group:
            gr["sheetId"] = int(sheet_id)
    if clone.basic_filter:
        clone.basic_filter.setdefault("range", {})["sheetId"] = int(sheet_id)
    order = ss.ordered()
    index = req.get("insertSheetIndex")
    index = len(order) if index is None else max(0, min(int(index), len(order)))
    ss.sheets.append(clone)
    order.insert(index, clone)
    ss.reindex(order)
    return {"duplicateSheet": {"properties": sheet_properties_out(clone)}}


def update_sheet_properties(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """updateSheetProperties (title, grid size, frozen rows/cols, hidden, tab colour, index...)."""
    src = _prune_nulls(req.get("properties") or {})
    tree = _mask(req.get("fields"))
    sheet = _sheet(ctx, src.get("sheetId"))
    ss = ctx.ss
    check_sheet_structure(ss, sheet, ctx.actor, f"Invalid requests[{i}].updateSheetProperties: ")
    new = jcopy(sheet.props)
    if tree is None or "*" in tree:
        old_grid = new.get("gridProperties", {})
        new = jcopy(src)
        new["sheetId"] = sheet.sheet_id
        new.setdefault("sheetType", "GRID")
        new.setdefault("index", sheet.props.get("index", 0))
        grid = new.setdefault("gridProperties", {})
        grid.setdefault("rowCount", old_grid.get("rowCount", 1000))
        grid.setdefault("columnCount", old_grid.get("columnCount", 26))
    else:
        fieldmask.apply_update(new, src, {k: v for k, v in tree.items() if k not in ("sheetId", "index")})
    if tree is None or fieldmask.wants(tree, "tabColor") or fieldmask.wants(tree, "tabColorStyle"):
        _sync_pair(new, src, tree, "tabColor", "tabColorStyle")
        for key in ("tabColor", "tabColorStyle"):
            if key in new and not new[key]:
                new.pop(key)
    if "title" in new and new["title"] != sheet.title:
        _check_new_title(ss, new["title"], exclude=sheet)
    if new.get("hidden") and not sheet.props.get("hidden"):
        visible = [s for s in ss.sheets if not s.props.get("hidden") and s is not sheet]
        if not visible:
            raise _fail("You can't hide all the sheets in a document.")
    grid = new.setdefault("gridProperties", {})
    rows = int(grid.get("rowCount", sheet.rows))
    cols = int(grid.get("columnCount", sheet.cols))
    if rows < 1 or cols < 1:
        raise _fail("The grid must have at least one row and one column.")
    frozen_rows = int(grid.get("frozenRowCount") or 0)
    frozen_cols = int(grid.get("frozenColumnCount") or 0)
    if frozen_rows > rows or frozen_cols > cols:
        raise _fail("Frozen rows/columns cannot exceed the grid size.")
    new_index = src.get("index") if (tree is None or fieldmask.wants(tree, "index")) and "index" in src else None
    old_rows, old_cols = sheet.rows, sheet.cols
    new["gridProperties"]["rowCount"] = old_rows
    new["gridProperties"]["columnCount"] = old_cols
    new["index"] = sheet.props.get("index", 0)
    sheet.props = new
    resize_grid(ss, sheet, rows if rows != old_rows else None, cols if cols != old_cols else None)
    if new_index is not None:
        order = ss.ordered()
        old = order.index(sheet)
        order.remove(sheet)
        target = int(new_index)
        if target > old:
            target -= 1
        order.insert(max(0, min(target, len(order))), sheet)
        ss.reindex(order)
    return None


def update_spreadsheet_properties(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """updateSpreadsheetProperties (title, locale, timeZone, autoRecalc, defaultFormat...)."""
    src = _prune_nulls(req.get("properties") or {})
    tree = _mask(req.get("fields"))
    new = jcopy(ctx.ss.props)
    fieldmask.apply_update(new, src, tree)
    if not str(new.get("title", "")).strip():
        raise _fail("The spreadsheet title cannot be empty.")
    for key in ("locale", "timeZone", "autoRecalc", "defaultFormat", "spreadsheetTheme"):
        if key not in new and key in ctx.ss.props:
            new[key] = ctx.ss.props[key]
    ctx.ss.props = new
    return None


# --------------------------------------------------------------------------- cells


def _target_rect_for_rows(
    ctx: BatchContext, req: dict[str, Any], rows: list[dict[str, Any]]
) -> tuple[Sheet, int, int, int, int, bool]:
    """updateCells target: ``range`` bounds it, ``start`` runs to the grid edge."""
    if req.get("range") is not None:
        rect = _rect(ctx, req["range"])
        return rect.sheet, rect.r0, rect.r1, rect.c0, rect.c1, True
    start = req.get("start") or {}
    sheet = _sheet(ctx, start.get("sheetId"))
    r0 = int(start.get("rowIndex") or 0)
    c0 = int(start.get("columnIndex") or 0)
    if r0 >= sheet.rows or c0 >= sheet.cols:
        raise _fail(
            f"Range ({a1.quote_title(sheet.title)}!{a1.cell_name(r0, c0)}) exceeds grid limits. "
            f"Max rows: {sheet.rows}, max columns: {sheet.cols}"
        )
    return sheet, r0, sheet.rows, c0, sheet.cols, False


def update_cells(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """updateCells (values, formats, notes, validation under a field mask)."""
    tree = _mask(req.get("fields"))
    rows = req.get("rows") or []
    sheet, r0, r1, c0, c1, bounded = _target_rect_for_rows(ctx, req, rows)
    writes: list[tuple[int, int, dict[str, Any]]] = []
    for ri, row in enumerate(rows):
        r = r0 + ri
        if r >= r1:
            raise _fail(f"Attempting to write row: {r}, beyond the last requested row of: {r1 - 1}")
        for ci, data in enumerate((row or {}).get("values") or []):
            c = c0 + ci
            if c >= c1:
                raise _fail(f"Attempting to write column: {c}, beyond the last requested column of: {c1 - 1}")
            _validate_user_value((data or {}).get("userEnteredValue"))
            writes.append((r, c, data or {}))
    touched = {(r, c) for r, c, _ in writes}
    if bounded:
        cleared = [
            (r, c)
            for r in range(r0, r1)
            for c in range(c0, c1)
            if (r, c) not in touched and sheet.cell(r, c) is not None
        ]
        check_rect(ctx.ss, Rect(sheet, r0, r1, c0, c1), ctx.actor, f"Invalid requests[{i}].updateCells: ")
    else:
        cleared = []
        if writes:
            rr0 = min(r for r, _, _ in writes)
            rr1 = max(r for r, _, _ in writes) + 1
            cc0 = min(c for _, c, _ in writes)
            cc1 = max(c for _, c, _ in writes) + 1
            check_rect(ctx.ss, Rect(sheet, rr0, rr1, cc0, cc1), ctx.actor, f"Invalid requests[{i}].updateCells: ")
    for r, c, data in writes:
        write_cell_data(sheet, r, c, data, tree)
    for r, c in cleared:
        write_cell_data(sheet, r, c, {}, tree)
    return None


def repeat_cell(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """repeatCell: one CellData applied to every cell of a range."""
    tree = _mask(req.get("fields"))
    rect = _rect(ctx, req.get("range"))
    cell = req.get("cell") or {}
    _validate_user_value(cell.get("userEnteredValue"))
    check_rect(ctx.ss, rect, ctx.actor, f"Invalid requests[{i}].repeatCell: ")
    for r in range(rect.r0, rect.r1):
        for c in range(rect.c0, rect.c1):
            write_cell_data(rect.sheet, r, c, cell, tree)
    return None


def append_cells(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """appendCells: rows written after the last row holding data."""
    tree = _mask(req.get("fields"))
    sheet = _sheet(ctx, req.get("sheetId"))
    rows = req.get("rows") or []
    last = max((r for (r, _), cell in sheet.cells.items() if cell.has_value()), default=-1)
    start = last + 1
    needed = start + len(rows)
    width = max((len((row or {}).get("values") or []) for row in rows), default=0)
    check_rect(
        ctx.ss,
        Rect(sheet, start, max(needed, start + 1), 0, max(width, 1)),
        ctx.actor,
        f"Invalid requests[{i}].appendCells: ",
    )
    if needed > sheet.rows:
        sheet.grid["rowCount"] = needed
    if width > sheet.cols:
        sheet.grid["columnCount"] = width
    for ri, row in enumerate(rows):
        for ci, data in enumerate((row or {}).get("values") or []):
            _validate_user_value((data or {}).get("userEnteredValue"))
            write_cell_data(sheet, start + ri, ci, data or {}, tree)
    return None


_CONDITION_ARITY: dict[str, tuple[int, int]] = {
    "NUMBER_GREATER": (1, 1),
    "NUMBER_GREATER_THAN_EQ": (1, 1),
    "NUMBER_LESS": (1, 1),
    "NUMBER_LESS_THAN_EQ": (1, 1),
    "NUMBER_EQ": (1, 1),
    "NUMBER_NOT_EQ": (1, 1),
    "NUMBER_BETWEEN": (2, 2),
    "NUMBER_NOT_BETWEEN": (2, 2),
    "TEXT_CONTAINS": (1, 1),
    "TEXT_NOT_CONTAINS": (1, 1),
    "TEXT_STARTS_WITH": (1, 1),
    "TEXT_ENDS_WITH": (1, 1),
    "TEXT_EQ": (1, 1),
    "TEXT_IS_EMAIL": (0, 0),
    "TEXT_IS_URL": (0, 0),
    "DATE_EQ": (1, 1),
    "DATE_BEFORE": (1, 1),
    "DATE_AFTER": (1, 1),
    "DATE_ON_OR_BEFORE": (1, 1),
    "DATE_ON_OR_AFTER": (1, 1),
    "DATE_BETWEEN": (2, 2),
    "DATE_NOT_BETWEEN": (2, 2),
    "DATE_IS_VALID": (0, 0),
    "ONE_OF_RANGE": (1, 1),
    "ONE_OF_LIST": (1, 500),
    "BLANK": (0, 0),
    "NOT_BLANK": (0, 0),
    "CUSTOM_FORMULA": (1, 1),
    "BOOLEAN": (0, 2),
}


def _validate_rule(ctx: BatchContext, rule: dict[str, Any]) -> dict[str, Any]:
    """Check a DataValidationRule and return it as stored (defaults omitted)."""
    rule = _prune_nulls(rule)
    condition = rule.get("condition") or {}
    kind = condition.get("type")
    if kind not in _CONDITION_ARITY:
        raise _fail(f"Invalid ConditionType: {kind}")
    values = condition.get("values") or []
    low, high = _CONDITION_ARITY[kind]
    if not low <= len(values) <= high:
        raise _fail(f"Invalid DataValidationRule: {kind} requires between {low} and {high} values, got {len(values)}")
    if kind == "ONE_OF_RANGE":
        ref = str(values[0].get("userEnteredValue", ""))
        if not ref.startswith("="):
            raise _fail(f"Invalid ConditionValue.userEnteredValue: {ref}")
        try:
            resolve_a1(ctx.ss, ref[1:])
        except ApiError:
            raise _fail(f"Invalid ConditionValue.userEnteredValue: {ref}") from None
    if kind.startswith("NUMBER_"):
        for value in values:
            try:
                float(str(value.get("userEnteredValue", "")).replace(",", ""))
            except ValueError:
                if not str(value.get("userEnteredValue", "")).startswith("="):
                    raise _fail(f"Invalid ConditionValue.userEnteredValue: {value.get('userEnteredValue')}") from None
    out: dict[str, Any] = {"condition": {"type": kind}}
    if values:
        out["condition"]["values"] = values
    for key in ("inputMessage",):
        if rule.get(key):
            out[key] = rule[key]
    for key in ("strict", "showCustomUi"):
        if rule.get(key):
            out[key] = True
    return out


def set_data_validation(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """setDataValidation (ONE_OF_LIST, ONE_OF_RANGE, NUMBER_*, ...); no rule clears."""
    rect = _rect(ctx, req.get("range"))
    rule = req.get("rule")
    stored = _validate_rule(ctx, rule) if rule else None
    check_rect(ctx.ss, rect, ctx.actor, f"Invalid requests[{i}].setDataValidation: ")
    for r in range(rect.r0, rect.r1):
        for c in range(rect.c0, rect.c1):
            if stored is None:
                cell = rect.sheet.cell(r, c)
                if cell is not None:
                    cell.validation = None
                    rect.sheet.prune(r, c)
            else:
                rect.sheet.ensure(r, c).validation = jcopy(stored)
    return None


def update_borders(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """updateBorders: set the edge borders of a range."""
    rect = _rect(ctx, req.get("range"))
    check_rect(ctx.ss, rect, ctx.actor, f"Invalid requests[{i}].updateBorders: ")
    sides = {
        k: _prune_nulls(req[k])
        for k in ("top", "bottom", "left", "right", "innerHorizontal", "innerVertical")
        if req.get(k)
    }
    for r in range(rect.r0, rect.r1):
        for c in range(rect.c0, rect.c1):
            edges: dict[str, Any] = {}
            if "top" in sides and r == rect.r0:
                edges["top"] = sides["top"]
            if "bottom" in sides and r == rect.r1 - 1:
                edges["bottom"] = sides["bottom"]
            if "left" in sides and c == rect.c0:
                edges["left"] = sides["left"]
            if "right" in sides and c == rect.c1 - 1:
                edges["right"] = sides["right"]
            if "innerHorizontal" in sides:
                if r > rect.r0:
                    edges["top"] = sides["innerHorizontal"]
                if r < rect.r1 - 1:
                    edges["bottom"] = sides["innerHorizontal"]
            if "innerVertical" in sides:
                if c > rect.c0:
                    edges["left"] = sides["innerVertical"]
                if c < rect.c1 - 1:
                    edges["right"] = sides["innerVertical"]
            if not edges:
                continue
            cell = rect.sheet.ensure(r, c)
            fmt = cell.fmt or {}
            borders = fmt.setdefault("borders", {})
            for side, spec in edges.items():
                if spec.get("style") == "NONE":
                    borders.pop(side, None)
                else:
                    border = jcopy(spec)
                    _sync_pair(border, spec, None, "color", "colorStyle")
                    borders[side] = border
            if not borders:
                fmt.pop("borders", None)
            cell.fmt = fmt or None
            rect.sheet.prune(r, c)
    return None


# --------------------------------------------------------------------------- protection


def _editor_list(values: Any) -> list[str]:
    """Deduplicated e-mail list (case-insensitive), order kept."""
    out: list[str] = []
    for item in values or []:
        text = str(item)
        if text.casefold() not in {x.casefold() for x in out}:
            out.append(text)
    return out


def add_protected_range(ctx: BatchContext, i: int, req: dict[str, Any]) -> dict[str, Any]:
    """addProtectedRange (editors.users, warningOnly, unprotectedRanges, whole sheet)."""
    pr_in = _prune_nulls(req.get("protectedRange") or {})
    ss = ctx.ss
    stored: dict[str, Any] = {}
    if pr_in.get("namedRangeId"):
        named = next((n for n in ss.named_ranges if n.get("namedRangeId") == pr_in["namedRangeId"]), None)
        if named is None:
            raise _fail(f"No named range with id {pr_in['namedRangeId']}")
        stored["namedRangeId"] = pr_in["namedRangeId"]
    else:
        gr = dict(pr_in.get("range") or {})
        gr["sheetId"] = int(gr.get("sheetId") or 0)
        _rect(ctx, gr)
        stored["range"] = gr
    editors_in = pr_in.get("editors") or {}
    if pr_in.get("warningOnly") and (editors_in.get("users") or editors_in.get("groups")):
        raise _fail("Cannot set editors on a warning-only protected range.")
    pr_id = pr_in.get("protectedRangeId")
    existing_ids = {p["protectedRangeId"] for s in ss.sheets for p in s.protected}
    if pr_id is None:
        pr_id = ctx.new_int_id()
        while pr_id in existing_ids:
            pr_id = ctx.new_int_id()
    elif int(pr_id) in existing_ids:
        raise _fail(f"A protected range with the id {int(pr_id)} already exists.")
    stored["protectedRangeId"] = int(pr_id)
    if pr_in.get("description"):
        stored["description"] = pr_in["description"]
    if pr_in.get("warningOnly"):
        stored["warningOnly"] = True
    else:
        users = _editor_list([ctx.owner_email, ctx.actor.email, *(editors_in.get("users") or [])])
        stored["editors"] = {"users": users, "groups": _editor_list(editors_in.get("groups"))}
        if editors_in.get("domainUsersCanEdit"):
            stored["editors"]["domainUsersCanEdit"] = True
    holes = []
    for hole in pr_in.get("unprotectedRanges") or []:
        h = dict(hole)
        h["sheetId"] = int(h.get("sheetId") or 0)
        _rect(ctx, h)
        holes.append(h)
    if holes:
        stored["unprotectedRanges"] = holes
    sheet_id = int((stored.get("range") or {}).get("sheetId") or 0)
    if "namedRangeId" in stored:
        named = next(n for n in ss.named_ranges if n.get("namedRangeId") == stored["namedRangeId"])
        sheet_id = int(named["range"].get("sheetId") or 0)
    _sheet(ctx, sheet_id).protected.append(stored)
    reply = protected_range_out(stored, True)
    # Google echoes the editors given in the request (it adds the owner/requester afterwards).
    if not stored.get("warningOnly"):
        ed: dict[str, Any] = {}
        if editors_in.get("users"):
            ed["users"] = list(editors_in["users"])
        if editors_in.get("groups"):
            ed["groups"] = list(editors_in["groups"])
        reply["editors"] = ed
    return {"addProtectedRange": {"protectedRange": reply}}


def _find_protected(ctx: BatchContext, pr_id: Any) -> tuple[Sheet, dict[str, Any]]:
    """Protected range by id, with its sheet."""
    for sheet in ctx.ss.sheets:
        for pr in sheet.protected:
            if pr["protectedRangeId"] == int(pr_id or 0):
                return sheet, pr
    raise _fail(f"No protected range with id: {pr_id}")


def update_protected_range(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """updateProtectedRange under a field mask."""
    src = _prune_nulls(req.get("protectedRange") or {})
    tree = _mask(req.get("fields"))
    sheet, pr = _find_protected(ctx, src.get("protectedRangeId"))
    if not can_edit_protected(pr, ctx.actor):
        raise _fail(
            "You are trying to edit a protected cell or object. "
            "Please contact the spreadsheet owner to remove protection if you need to edit."
        )
    new = jcopy(pr)
    fieldmask.apply_update(new, src, {k: v for k, v in (tree or {"*": None}).items() if k != "protectedRangeId"})
    new["protectedRangeId"] = pr["protectedRangeId"]
    if new.get("range") is not None:
        new["range"]["sheetId"] = int(new["range"].get("sheetId") or 0)
        _rect(ctx, new["range"])
    if not new.get("warningOnly"):
        editors = new.get("editors") or {}
        editors["users"] = _editor_list([ctx.owner_email, *(editors.get("users") or [])])
        new["editors"] = editors
    else:
        new.pop("editors", None)
    target_sheet = _sheet(ctx, (new.get("range") or {}).get("sheetId", sheet.sheet_id))
    sheet.protected.remove(pr)
    target_sheet.protected.append(new)
    return None


def delete_protected_range(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """deleteProtectedRange."""
    sheet, pr = _find_protected(ctx, req.get("protectedRangeId"))
    if not can_edit_protected(pr, ctx.actor):
        raise _fail(
            "You are trying to edit a protected cell or object. "
            "Please contact the spreadsheet owner to remove protection if you need to edit."
        )
    sheet.protected.remove(pr)
    return None


# --------------------------------------------------------------------------- merges


def merge_cells(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """mergeCells (MERGE_ALL / MERGE_COLUMNS / MERGE_ROWS); non-anchor values are dropped."""
    rect = _rect(ctx, req.get("range"))
    kind = req.get("mergeType") or "MERGE_ALL"
    if kind not in ("MERGE_ALL", "MERGE_COLUMNS", "MERGE_ROWS"):
        raise _fail(f"Invalid mergeType: {kind}")
    if (rect.r1 - rect.r0) * (rect.c1 - rect.c0) < 2:
        raise _fail("Must merge at least two cells.")
    check_rect(ctx.ss, rect, ctx.actor, f"Invalid requests[{i}].mergeCells: ")
    sheet = rect.sheet
    pieces: list[Rect] = []
    if kind == "MERGE_ALL":
        pieces = [rect]
    elif kind == "MERGE_COLUMNS":
        if rect.r1 - rect.r0 < 2:
            raise _fail("Must merge at least two cells.")
        pieces = [Rect(sheet, rect.r0, rect.r1, c, c + 1) for c in range(rect.c0, rect.c1)]
    else:
        if rect.c1 - rect.c0 < 2:
            raise _fail("Must merge at least two cells.")
        pieces = [Rect(sheet, r, r + 1, rect.c0, rect.c1) for r in range(rect.r0, rect.r1)]
    sheet.merges = [m for m in sheet.merges if not _gr_rect(sheet, m).intersects(rect)]
    for piece in pieces:
        for r, c, cell in list(sheet.cells_in(piece.r0, piece.r1, piece.c0, piece.c1)):
            if (r, c) != (piece.r0, piece.c0) and cell.value is not None:
                cell.value = None
                sheet.prune(r, c)
        sheet.merges.append(
            {
                "sheetId": sheet.sheet_id,
                "startRowIndex": piece.r0,
                "endRowIndex": piece.r1,
                "startColumnIndex": piece.c0,
                "endColumnIndex": piece.c1,
            }
        )
    return None


def _gr_rect(sheet: Sheet, gr: dict[str, Any]) -> Rect:
    """A stored merge as a rectangle."""
    return Rect(
        sheet,
        int(gr.get("startRowIndex") or 0),
        int(gr.get("endRowIndex") if gr.get("endRowIndex") is not None else sheet.rows),
        int(gr.get("startColumnIndex") or 0),
        int(gr.get("endColumnIndex") if gr.get("endColumnIndex") is not None else sheet.cols),
    )


def unmerge_cells(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """unmergeCells: removes every merge intersecting the range."""
    rect = _rect(ctx, req.get("range"))
    check_rect(ctx.ss, rect, ctx.actor, f"Invalid requests[{i}].unmergeCells: ")
    sheet = rect.sheet
    sheet.merges = [m for m in sheet.merges if not _gr_rect(sheet, m).intersects(rect)]
    return None


# --------------------------------------------------------------------------- dimensions


def _dimension(
    ctx: BatchContext, dr: dict[str, Any] | None, *, allow_beyond: bool = False
) -> tuple[Sheet, str, int, int]:
    """Resolve a DimensionRange; returns (sheet, dimension, start, end)."""
    dr = dr or {}
    sheet = _sheet(ctx, dr.get("sheetId"))
    dim = dr.get("dimension") or "DIMENSION_UNSPECIFIED"
    if dim not in ("ROWS", "COLUMNS"):
        raise _fail(f"Invalid dimension: {dim}")
    limit = sheet.rows if dim == "ROWS" else sheet.cols
    start = int(dr.get("startIndex") or 0)
    end = int(dr["endIndex"]) if dr.get("endIndex") is not None else limit
    if start < 0 or end < start:
        raise _fail("Invalid dimension range: startIndex must be less than or equal to endIndex")
    if not allow_beyond and end > limit:
        raise _fail(
            f"Range ({a1.quote_title(sheet.title)}!{_dim_a1(dim, start, end)}) exceeds grid limits. "
            f"Max rows: {sheet.rows}, max columns: {sheet.cols}"
        )
    return sheet, dim, start, end


def _dim_a1(dim: str, start: int, end: int) -> str:
    """A1 text of a row/column span for error messages."""
    if dim == "ROWS":
        return f"{start + 1}:{end}"
    return f"{a1.column_letters(start)}:{a1.column_letters(max(end - 1, start))}"


def update_dimension_properties(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """updateDimensionProperties (pixelSize, hiddenByUser)."""
    sheet, dim, start, end = _dimension(ctx, req.get("range"))
    tree = _mask(req.get("fields"))
    props = _prune_nulls(req.get("properties") or {})
    meta = sheet.row_meta if dim == "ROWS" else sheet.col_meta
    for k in range(start, end):
        entry = meta.get(k, {})
        fieldmask.apply_update(entry, props, tree)
        entry = {key: v for key, v in entry.items() if v not in (None, False)}
        default_px = DEFAULT_ROW_PIXELS if dim == "ROWS" else DEFAULT_COLUMN_PIXELS
        if entry.get("pixelSize") == default_px:
            entry.pop("pixelSize")
        if entry:
            meta[k] = entry
        else:
            meta.pop(k, None)
    return None


def append_dimension(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """appendDimension: grow the grid."""
    sheet = _sheet(ctx, req.get("sheetId"))
    dim = req.get("dimension")
    length = int(req.get("length") or 0)
    if dim not in ("ROWS", "COLUMNS"):
        raise _fail(f"Invalid dimension: {dim}")
    if length <= 0:
        raise _fail("length must be greater than 0")
    key = "rowCount" if dim == "ROWS" else "columnCount"
    sheet.grid[key] = (sheet.rows if dim == "ROWS" else sheet.cols) + length
    return None


def insert_dimension_req(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """insertDimension."""
    sheet, dim, start, end = _dimension(ctx, req.get("range"), allow_beyond=True)
    limit = sheet.rows if dim == "ROWS" else sheet.cols
    if start > limit:
        raise _fail(f"Cannot insert {dim.lower()} at index {start}: there are only {limit} {dim.lower()}.")
    if end == start:
        raise _fail("Must insert at least one row or column.")
    if req.get("inheritFromBefore") and start == 0:
        raise _fail("Cannot inherit from before when inserting at the start of the sheet.")
    check_sheet_structure(ctx.ss, sheet, ctx.actor, f"Invalid requests[{i}].insertDimension: ")
    insert_dimension(ctx.ss, sheet, dim, start, end, bool(req.get("inheritFromBefore")))
    return None


def delete_dimension_req(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """deleteDimension."""
    sheet, dim, start, end = _dimension(ctx, req.get("range"), allow_beyond=True)
    limit = sheet.rows if dim == "ROWS" else sheet.cols
    noun = "row" if dim == "ROWS" else "column"
    if end > limit:
        raise _fail(
            f"Cannot delete a {noun} that doesn't exist. Tried to delete {noun} index {end - 1} "
            f"but there are only {limit} {noun}s."
        )
    if start == 0 and end >= limit:
        raise _fail(f"You can't delete all the {noun}s on the sheet.")
    rect = Rect(sheet, start, end, 0, sheet.cols) if dim == "ROWS" else Rect(sheet, 0, sheet.rows, start, end)
    check_rect(ctx.ss, rect, ctx.actor, f"Invalid requests[{i}].deleteDimension: ")
    delete_dimension(ctx.ss, sheet, dim, start, end)
    return None


def auto_resize_dimensions(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """autoResizeDimensions: a rough text-width estimate (Google measures rendered text)."""
    sheet, dim, start, end = _dimension(ctx, req.get("dimensions"))
    meta = sheet.row_meta if dim == "ROWS" else sheet.col_meta
    for k in range(start, end):
        if dim == "COLUMNS":
            longest = max(
                (
                    len(formatted_value(cell))
                    for (r, c), cell in sheet.cells.items()
                    if c == k and cell.value is not None
                ),
                default=0,
            )
            size = max(DEFAULT_COLUMN_PIXELS, 7 * longest + 10) if longest else DEFAULT_COLUMN_PIXELS
        else:
            size = DEFAULT_ROW_PIXELS
        entry = meta.get(k, {})
        entry["pixelSize"] = size
        meta[k] = entry
    return None


def _groups(sheet: Sheet, dim: str) -> list[dict[str, Any]]:
    """Row or column groups of a sheet."""
    return sheet.row_groups if dim == "ROWS" else sheet.column_groups


def add_dimension_group(ctx: BatchContext, i: int, req: dict[str, Any]) -> dict[str, Any]:
    """addDimensionGroup (depth = number of enclosing groups + 1)."""
    sheet, dim, start, end = _dimension(ctx, req.get("range"))
    groups = _groups(sheet, dim)
    if any(int(g["range"]["startIndex"]) == start and int(g["range"]["endIndex"]) == end for g in groups):
        raise _fail("A group with the same range already exists.")
    depth = 1 + sum(1 for g in groups if int(g["range"]["startIndex"]) <= start and end <= int(g["range"]["endIndex"]))
    groups.append(
        {"range": {"sheetId": sheet.sheet_id, "dimension": dim, "startIndex": start, "endIndex": end}, "depth": depth}
    )
    groups.sort(key=lambda g: (int(g["depth"]), int(g["range"]["startIndex"])))
    sheet.grid["rowGroupControlAfter" if dim == "ROWS" else "columnGroupControlAfter"] = True
    return {"addDimensionGroup": {"dimensionGroups": [_group_reply(g) for g in groups]}}


def _group_reply(group: dict[str, Any]) -> dict[str, Any]:
    """A DimensionGroup as replied by add/deleteDimensionGroup."""
    out: dict[str, Any] = {"range": dimension_range_out(group["range"]), "depth": int(group["depth"])}
    if group.get("collapsed"):
        out["collapsed"] = True
    return out


def delete_dimension_group(ctx: BatchContext, i: int, req: dict[str, Any]) -> dict[str, Any]:
    """deleteDimensionGroup."""
    sheet, dim, start, end = _dimension(ctx, req.get("range"))
    groups = _groups(sheet, dim)
    match = [g for g in groups if int(g["range"]["startIndex"]) == start and int(g["range"]["endIndex"]) == end]
    if not match:
        raise _fail("No group found for the given range.")
    for g in match:
        groups.remove(g)
    reply: dict[str, Any] = {}
    if groups:
        reply["dimensionGroups"] = [_group_reply(g) for g in groups]
    return {"deleteDimensionGroup": reply}


# --------------------------------------------------------------------------- named ranges


def _check_named_range_name(ctx: BatchContext, name: Any, exclude: dict[str, Any] | None = None) -> str:
    """Named ranges need a unique name that does not look like a cell."""
    text = str(name or "")
    if not text or " " in text or a1.looks_like_cells(text) or text[0].isdigit():
        raise _fail(f"Invalid named range name: {text}")
    existing = ctx.ss.named(text)
    if existing is not None and existing is not exclude:
        raise _fail(f"A named range with the name {text} already exists.")
    return text


def add_named_range(ctx: BatchContext, i: int, req: dict[str, Any]) -> dict[str, Any]:
    """addNamedRange."""
    nr_in = _prune_nulls(req.get("namedRange") or {})
    name = _check_named_range_name(ctx, nr_in.get("name"))
    gr = dict(nr_in.get("range") or {})
    gr["sheetId"] = int(gr.get("sheetId") or 0)
    _rect(ctx, gr)
    nr_id = str(nr_in.get("namedRangeId") or ctx.new_int_id())
    if any(n["namedRangeId"] == nr_id for n in ctx.ss.named_ranges):
        raise _fail(f"A named range with the id {nr_id} already exists.")
    stored = {"namedRangeId": nr_id, "name": name, "range": gr}
    ctx.ss.named_ranges.append(stored)
    return {"addNamedRange": {"namedRange": named_range_out(stored)}}


def _find_named(ctx: BatchContext, nr_id: Any) -> dict[str, Any]:
    """Named range by id."""
    for nr in ctx.ss.named_ranges:
        if nr["namedRangeId"] == str(nr_id):
            return nr
    raise _fail(f"No named range with id: {nr_id}")


def update_named_range(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """updateNamedRange (name and/or range)."""
    src = _prune_nulls(req.get("namedRange") or {})
    tree = _mask(req.get("fields"))
    nr = _find_named(ctx, src.get("namedRangeId"))
    new = jcopy(nr)
    fieldmask.apply_update(new, src, {k: v for k, v in (tree or {"*": None}).items() if k != "namedRangeId"})
    new["namedRangeId"] = nr["namedRangeId"]
    new["name"] = _check_named_range_name(ctx, new.get("name"), exclude=nr)
    gr = dict(new.get("range") or {})
    gr["sheetId"] = int(gr.get("sheetId") or 0)
    _rect(ctx, gr)
    new["range"] = gr
    nr.clear()
    nr.update(new)
    return None


def delete_named_range(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """deleteNamedRange."""
    nr = _find_named(ctx, req.get("namedRangeId"))
    ctx.ss.named_ranges.remove(nr)
    return None


# --------------------------------------------------------------------------- data moves


def _sort_key(cell: Cell | None) -> tuple[int, Any]:
    """Sheets sort order: numbers, then text (case-insensitive), then booleans; blanks last."""
    if cell is None or cell.value is None:
        return (3, "")
    ev = effective_value(cell) or {}
    if "numberValue" in ev:
        return (0, float(ev["numberValue"]))
    if "stringValue" in ev:
        return (1, str(ev["stringValue"]).casefold())
    if "boolValue" in ev:
        return (2, bool(ev["boolValue"]))
    return (1, formatted_value(cell).casefold())


def sort_range(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """sortRange (stable, blanks last, numbers before text)."""
    rect = _rect(ctx, req.get("range"))
    check_rect(ctx.ss, rect, ctx.actor, f"Invalid requests[{i}].sortRange: ")
    sheet = rect.sheet
    rows = []
    for r in range(rect.r0, rect.r1):
        rows.append({c: sheet.cells.pop((r, c)) for c in range(rect.c0, rect.c1) if (r, c) in sheet.cells})
    for spec in reversed(req.get("sortSpecs") or []):
        col = rect.c0 + int(spec.get("dimensionIndex") or 0)
        descending = spec.get("sortOrder") == "DESCENDING"
        present = [row for row in rows if _sort_key(row.get(col))[0] != 3]
        blanks = [row for row in rows if _sort_key(row.get(col))[0] == 3]
        present.sort(key=lambda row: _sort_key(row.get(col)), reverse=descending)
        rows = present + blanks
    for offset, row in enumerate(rows):
        for c, cell in row.items():
            sheet.cells[(rect.r0 + offset, c)] = cell
    return None


_PASTE_PARTS: dict[str, tuple[str, ...]] = {
    "PASTE_NORMAL": ("value", "fmt", "note", "validation"),
    "PASTE_VALUES": ("plain",),
    "PASTE_FORMAT": ("fmt",),
    "PASTE_NO_BORDERS": ("value", "fmt_no_borders", "note", "validation"),
    "PASTE_FORMULA": ("value",),
    "PASTE_DATA_VALIDATION": ("validation",),
    "PASTE_CONDITIONAL_FORMATTING": (),
}


def _paste_cell(target: Cell, source: Cell | None, parts: tuple[str, ...]) -> None:
    """Copy the parts of a cell selected by the paste type."""
    src = source or Cell()
    for part in parts:
        if part == "value":
            target.value = jcopy(src.value)
        elif part == "plain":
            ev = effective_value(src) if src.value is not None else None
            target.value = jcopy(ev if ev is not None else src.value)
        elif part == "fmt":
            target.fmt = jcopy(src.fmt)
        elif part == "fmt_no_borders":
            fmt = jcopy(src.fmt) or {}
            fmt.pop("borders", None)
            target.fmt = fmt or None
        elif part == "note":
            target.note = src.note
        elif part == "validation":
            target.validation = jcopy(src.validation)


def copy_paste(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """copyPaste (tiles the source over a larger destination; NORMAL/TRANSPOSE)."""
    src = _rect(ctx, req.get("source"))
    dst = _rect(ctx, req.get("destination"))
    kind = req.get("pasteType") or "PASTE_NORMAL"
    if kind not in _PASTE_PARTS:
        raise _fail(f"Invalid pasteType: {kind}")
    transpose = (req.get("pasteOrientation") or "NORMAL") == "TRANSPOSE"
    h, w = src.r1 - src.r0, src.c1 - src.c0
    out_h, out_w = (w, h) if transpose else (h, w)
    reps_r = max(1, (dst.r1 - dst.r0) // out_h)
    reps_c = max(1, (dst.c1 - dst.c0) // out_w)
    total = Rect(dst.sheet, dst.r0, dst.r0 + out_h * reps_r, dst.c0, dst.c0 + out_w * reps_c)
    if not total.in_grid():
        raise _fail("Paste destination exceeds grid limits.")
    check_rect(ctx.ss, total, ctx.actor, f"Invalid requests[{i}].copyPaste: ")
    snapshot = {
        (r, c): (src.sheet.cell(r, c).copy() if src.sheet.cell(r, c) else None)
        for r in range(src.r0, src.r1)
        for c in range(src.c0, src.c1)
    }
    for rr in range(reps_r):
        for cc in range(reps_c):
            for (r, c), cell in snapshot.items():
                dr, dc = (c - src.c0, r - src.r0) if transpose else (r - src.r0, c - src.c0)
                tr, tc = dst.r0 + rr * out_h + dr, dst.c0 + cc * out_w + dc
                target = dst.sheet.ensure(tr, tc)
                _paste_cell(target, cell, _PASTE_PARTS[kind])
                dst.sheet.prune(tr, tc)
    return None


def cut_paste(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """cutPaste: move a range to a destination corner."""
    src = _rect(ctx, req.get("source"))
    coord = req.get("destination") or {}
    dst_sheet = _sheet(ctx, coord.get("sheetId"))
    r0, c0 = int(coord.get("rowIndex") or 0), int(coord.get("columnIndex") or 0)
    h, w = src.r1 - src.r0, src.c1 - src.c0
    dst = Rect(dst_sheet, r0, r0 + h, c0, c0 + w)
    if not dst.in_grid():
        raise _fail("Paste destination exceeds grid limits.")
    kind = req.get("pasteType") or "PASTE_NORMAL"
    if kind not in _PASTE_PARTS:
        raise _fail(f"Invalid pasteType: {kind}")
    check_rect(ctx.ss, src, ctx.actor, f"Invalid requests[{i}].cutPaste: ")
    check_rect(ctx.ss, dst, ctx.actor, f"Invalid requests[{i}].cutPaste: ")
    moved = {
        (r - src.r0, c - src.c0): src.sheet.cells.pop((r, c))
        for r in range(src.r0, src.r1)
        for c in range(src.c0, src.c1)
        if (r, c) in src.sheet.cells
    }
    for dr in range(h):
        for dc in range(w):
            target = dst_sheet.ensure(r0 + dr, c0 + dc)
            _paste_cell(target, moved.get((dr, dc)), _PASTE_PARTS[kind])
            dst_sheet.prune(r0 + dr, c0 + dc)
    return None


def paste_data(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """pasteData of delimited text: each field parsed as typed in the UI (en_US), values only.

    Covers what the bridge sends (numbers, ``PASTE_VALUES``); HTML and the other paste types are
    not emulated.  CSV quoting, an empty field clearing the value, and a field starting with "="
    becoming a formula are the emulator's choices: no recording shows how Google treats them.
    Outside English locales a field with a decimal point stays text (Google reads "2.5" there as
    a date or text, never as 2.5), so a caller that pastes such fields there is caught.
    """
    if req.get("html"):
        raise sheets_error(501, f"Invalid requests[{i}].pasteData: HTML is not implemented by the Strategos emulator")
    kind = req.get("type") or "PASTE_NORMAL"
    if kind not in ("PASTE_NORMAL", "PASTE_VALUES"):
        raise sheets_error(501, f"Invalid requests[{i}].pasteData: {kind} is not implemented by the Strategos emulator")
    coord = req.get("coordinate") or {}
    sheet = _sheet(ctx, coord.get("sheetId"))
    r0, c0 = int(coord.get("rowIndex") or 0), int(coord.get("columnIndex") or 0)
    delimiter = req.get("delimiter") or ","
    if len(delimiter) != 1:
        raise _fail("The delimiter must be a single character.")
    lines = list(csv.reader(io.StringIO(str(req.get("data") or "")), delimiter=delimiter))
    point = str(ctx.ss.props.get("locale") or "en_US").startswith("en")
    width = max((len(line) for line in lines), default=0)
    rect = Rect(sheet, r0, r0 + len(lines), c0, c0 + width)
    if not rect.in_grid():
        raise _fail("Paste destination exceeds grid limits.")
    check_rect(ctx.ss, rect, ctx.actor, f"Invalid requests[{i}].pasteData: ")
    for dr, line in enumerate(lines):
        for dc, text in enumerate(line):
            value, number_format = parse_user_entered(text) if text else (None, None)
            if not point and "." in text and isinstance((value or {}).get("numberValue"), float):
                value, number_format = {"stringValue": text}, None
            target = sheet.ensure(r0 + dr, c0 + dc)
            target.value = value
            if kind == "PASTE_NORMAL" and number_format and "numberFormat" not in (target.fmt or {}):
                target.fmt = {**(target.fmt or {}), "numberFormat": number_format}
            sheet.prune(r0 + dr, c0 + dc)
    return None


def set_basic_filter(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """setBasicFilter (the range is stored resolved to the grid, as Google shows it)."""
    flt = _prune_nulls(req.get("filter") or {})
    rect = _rect(ctx, flt.get("range"))
    stored = jcopy(flt)
    stored["range"] = rect.grid_range()
    rect.sheet.basic_filter = stored
    return None


def clear_basic_filter(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """clearBasicFilter."""
    _sheet(ctx, req.get("sheetId")).basic_filter = None
    return None


# --------------------------------------------------------------------------- charts & conditional formats


def add_chart(ctx: BatchContext, i: int, req: dict[str, Any]) -> dict[str, Any]:
    """addChart: stored verbatim with a chartId (charts are not rendered)."""
    chart = _prune_nulls(req.get("chart") or {})
    if not chart.get("spec"):
        raise _fail("A chart spec is required.")
    position = chart.get("position") or {}
    anchor = (position.get("overlayPosition") or {}).get("anchorCell") or {}
    sheet_id = position.get("sheetId", anchor.get("sheetId", 0))
    sheet = _sheet(ctx, sheet_id)
    chart_id = int(chart.get("chartId") or ctx.new_int_id())
    chart["chartId"] = chart_id
    sheet.charts.append(chart)
    return {"addChart": {"chart": jcopy(chart)}}


def delete_embedded_object(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """deleteEmbeddedObject (charts)."""
    object_id = int(req.get("objectId") or 0)
    for sheet in ctx.ss.sheets:
        for chart in sheet.charts:
            if int(chart.get("chartId", -1)) == object_id:
                sheet.charts.remove(chart)
                return None
    raise _fail(f"No embedded object with id: {object_id}")


def add_conditional_format_rule(ctx: BatchContext, i: int, req: dict[str, Any]) -> None:
    """addConditionalFormatRule (stored, not evaluated)."""
    rule = _prune_nulls(req.get("rule") or {})
    ranges = rule.get("ranges") or []
    if not ranges:
        raise _fail("A conditional format rule needs at least one range.")
    sheet = _rect(ctx, ranges[0]).sheet
    index = int(req.get("index") or 0)
    sheet.conditional_formats.insert(min(index, len(sheet.conditional_formats)), rule)
    return None


def delete_conditional_format_rule(ctx: BatchContext, i: int, req: dict[str, Any]) -> dict[str, Any]:
    """deleteConditionalFormatRule."""
    sheet = _sheet(ctx, req.get("sheetId"))
    index = int(req.get("index") or 0)
    if index >= len(sheet.conditional_formats):
        raise _fail(f"No conditional format on sheet {sheet.sheet_id} at index {index}")
    rule = sheet.conditional_formats.pop(index)
    return {"deleteConditionalFormatRule": {"rule": rule}}


HANDLERS: dict[str, Handler] = {
    "addSheet": add_sheet,
    "deleteSheet": delete_sheet,
    "duplicateSheet": duplicate_sheet,
    "updateSheetProperties": update_sheet_properties,
    "updateSpreadsheetProperties": update_spreadsheet_properties,
    "updateCells": update_cells,
    "repeatCell": repeat_cell,
    "appendCells": append_cells,
    "setDataValidation": set_data_validation,
    "updateBorders": update_borders,
    "addProtectedRange": add_protected_range,
    "updateProtectedRange": update_protected_range,
    "deleteProtectedRange": delete_protected_range,
    "mergeCells": merge_cells,
    "unmergeCells": unmerge_cells,
    "updateDimensionProperties": update_dimension_properties,
    "appendDimension": append_dimension,
    "insertDimension": insert_dimension_req,
    "deleteDimension": delete_dimension_req,
    "autoResizeDimensions": auto_resize_dimensions,
    "addDimensionGroup": add_dimension_group,
    "deleteDimensionGroup": delete_dimension_group,
    "addNamedRange": add_named_range,
    "updateNamedRange": update_named_range,
    "deleteNamedRange": delete_named_range,
    "sortRange": sort_range,
    "copyPaste": copy_paste,
    "cutPaste": cut_paste,
    "pasteData": paste_data,
    "setBasicFilter": set_basic_filter,
    "clearBasicFilter": clear_basic_filter,
    "addChart": add_chart,
    "deleteEmbeddedObject": delete_embedded_object,
    "addConditionalFormatRule": add_conditional_format_rule,
    "deleteConditionalFormatRule": delete_conditional_format_rule,
}

#: Request kinds of the Sheets API the emulator knows about but does not implement (501).
UNIMPLEMENTED = frozenset(
    {
        "updateConditionalFormatRule",
        "updateEmbeddedObjectPosition",
        "updateEmbeddedObjectBorder",
        "findReplace",
        "insertRange",
        "deleteRange",
        "moveDimension",
        "updateDimensionGroup",
        "updateChartSpec",
        "textToColumns",
        "autoFill",
        "addFilterView",
        "updateFilterView",
        "deleteFilterView",
        "duplicateFilterView",
        "addBanding",
        "updateBanding",
        "deleteBanding",
        "createDeveloperMetadata",
        "updateDeveloperMetadata",
        "deleteDeveloperMetadata",
        "randomizeRange",
        "addSlicer",
        "updateSlicerSpec",
        "trimWhitespace",
        "deleteDuplicates",
        "addDataSource",
        "updateDataSource",
        "deleteDataSource",
        "refreshDataSource",
        "cancelDataSourceRefresh",
        "addTable",
        "updateTable",
        "deleteTable",
        "setBasicFilterRequest",
    }
)


def run_batch(
    ss: Spreadsheet,
    actor: Actor,
    owner_email: str,
    body: dict[str, Any],
    new_int_id: Callable[[], int],
    viewer_can_edit: Callable[[dict[str, Any]], bool],
) -> tuple[Spreadsheet, dict[str, Any]]:
    """Apply a batchUpdate body to a copy of ``ss``; returns (new spreadsheet, answer).

    Nothing is changed when any request fails: the caller keeps the original object.
    """
    requests = body.get("requests")
    if not isinstance(requests, list) or not requests:
        raise bad_request("Must specify at least one request.")
    work = ss.copy()
    ctx = BatchContext(work, actor, owner_email, new_int_id)
    replies: list[dict[str, Any]] = []
    for i, request in enumerate(requests):
        if not isinstance(request, dict):
            raise bad_request(f"Invalid requests[{i}]: a request must be an object")
        kinds = [k for k, v in request.items() if v is not None]
        if not kinds:
            raise bad_request(f"Invalid requests[{i}]: request is empty")
        if len(kinds) > 1:
            raise bad_request(f"Invalid requests[{i}]: oneof field 'kind' is already set. Cannot set '{kinds[1]}'")
        kind = kinds[0]
        handler = HANDLERS.get(kind)
        if handler is None:
            if kind in UNIMPLEMENTED:
                raise sheets_error(501, f"Invalid requests[{i}].{kind}: not implemented by the Strategos emulator")
            raise ApiError(
                400,
                {
                    "error": {
                        "code": 400,
                        "message": f"Invalid JSON payload received. Unknown name \"{kind}\" at 'requests[{i}]': "
                        "Cannot find field.",
                        "status": "INVALID_ARGUMENT",
                        "details": [
                            {
                                "@type": "type.googleapis.com/google.rpc.BadRequest",
                                "fieldViolations": [
                                    {
                                        "field": f"requests[{i}]",
                                        "description": f'Invalid JSON payload received. Unknown name "{kind}" at '
                                        f"'requests[{i}]': Cannot find field.",
                                    }
                                ],
                            }
                        ],
                    }
                },
            )
        payload = request[kind]
        if not isinstance(payload, dict):
            raise bad_request(f"Invalid requests[{i}].{kind}: must be an object")
        try:
            reply = handler(ctx, i, payload)
        except _Fail as failure:
            raise invalid_request(i, kind, str(failure)) from None
        except ApiError as err:
            message = str(err.body.get("error", {}).get("message", ""))
            if err.code == 400 and not message.startswith("Invalid requests["):
                raise invalid_request(i, kind, message) from None
            raise
        replies.append(reply or {})
    answer: dict[str, Any] = {"spreadsheetId": ss.id, "replies": replies}
    if (
        str(body.get("includeSpreadsheetInResponse", "")).lower() == "true"
        or body.get("includeSpreadsheetInResponse") is True
    ):
        answer["updatedSpreadsheet"] = spreadsheet_out(
            work,
            viewer_can_edit=viewer_can_edit,
            include_grid=bool(body.get("responseIncludeGridData")),
            ranges=body.get("responseRanges") or (),
        )
    return work, answer
