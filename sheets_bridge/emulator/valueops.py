"""The ``spreadsheets.values`` collection: get, batchGet, update, batchUpdate, append, clear.

Semantics follow the recorded Google answers:

* ``range`` in answers is normalised (``Sheet1!A1:D4``, quoted titles only when needed,
  open ranges such as ``A:A`` clipped to the grid, a whole sheet becomes its full grid);
* ``values`` is omitted for an empty range, trailing empty cells/rows are trimmed;
* a single-cell range (``Sheet1!A2``) is an anchor: the written block may extend to the
  grid edge; a multi-cell range bounds the write (``Requested writing within range ...``);
* ``null`` leaves a cell alone and does not count as updated, ``""`` clears it;
* ``append`` finds the "table" around the given range, writes below it, and grows the
  grid when needed.

Batch variants validate every entry (and protection) before changing anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import a1
from .errors import ApiError, bad_request, parse_error
from .model import Rect, Sheet, Spreadsheet, resolve_a1
from .protection import Actor, check_cells, check_rect
from .structure import insert_dimension
from .values import InputError, parse_input, render

RENDER_OPTIONS = ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA")
DATETIME_OPTIONS = ("SERIAL_NUMBER", "FORMATTED_STRING")
INPUT_OPTIONS = ("RAW", "USER_ENTERED")
DIMENSIONS = ("ROWS", "COLUMNS")


def _enum(value: Any, allowed: tuple[str, ...], field_name: str, type_name: str, default: str) -> str:
    """Validate an enum parameter like Google's front end does."""
    if value is None or value == "":
        return default
    text = str(value)
    if text not in allowed:
        raise parse_error(field_name, text, f"type.googleapis.com/google.apps.sheets.v4.{type_name}")
    return text


def with_prefix(err: ApiError, prefix: str) -> ApiError:
    """Return ``err`` with ``prefix`` prepended to its message (batch sub-request errors)."""
    error = err.body.get("error", {})
    message = str(error.get("message", ""))
    if message.startswith("Invalid "):
        return err
    return bad_request(prefix + message) if err.code == 400 else err


# --------------------------------------------------------------------------- reads


def read_matrix(rect: Rect, major: str, render_option: str, datetime_option: str) -> list[list[Any]]:
    """Rendered, trimmed values of a rectangle in the requested major dimension."""
    grid: dict[tuple[int, int], Any] = {}
    for r, c, cell in rect.sheet.cells_in(rect.r0, rect.r1, rect.c0, rect.c1):
        value = render(cell, render_option, datetime_option)
        if value is not None and value != "":
            grid[(r - rect.r0, c - rect.c0)] = value
    if not grid:
        return []
    if major == "COLUMNS":
        grid = {(c, r): v for (r, c), v in grid.items()}
    n_rows = max(r for r, _ in grid) + 1
    out: list[list[Any]] = []
    row_ends: dict[int, int] = {}
    for r, c in grid:
        row_ends[r] = max(row_ends.get(r, -1), c)
    for r in range(n_rows):
        end = row_ends.get(r, -1)
        out.append([grid.get((r, c), "") for c in range(end + 1)])
    return out


def value_range_out(rect: Rect, major: str, render_option: str, datetime_option: str) -> dict[str, Any]:
    """A ValueRange answer for ``rect``."""
    out: dict[str, Any] = {"range": rect.a1(), "majorDimension": major}
    values = read_matrix(rect, major, render_option, datetime_option)
    if values:
        out["values"] = values
    return out


def _read_options(params: dict[str, Any]) -> tuple[str, str, str]:
    """majorDimension / valueRenderOption / dateTimeRenderOption of a read."""
    major = _enum(params.get("majorDimension"), DIMENSIONS, "major_dimension", "Dimension", "ROWS")
    render_option = _enum(
        params.get("valueRenderOption"), RENDER_OPTIONS, "value_render_option", "ValueRenderOption", "FORMATTED_VALUE"
    )
    dt_option = _enum(
        params.get("dateTimeRenderOption"),
        DATETIME_OPTIONS,
        "date_time_render_option",
        "DateTimeRenderOption",
        "SERIAL_NUMBER",
    )
    return major, render_option, dt_option


def values_get(ss: Spreadsheet, range_text: str, params: dict[str, Any]) -> dict[str, Any]:
    """``GET .../values/{range}``."""
    major, render_option, dt_option = _read_options(params)
    return value_range_out(resolve_a1(ss, range_text), major, render_option, dt_option)


def values_batch_get(ss: Spreadsheet, ranges: list[str], params: dict[str, Any]) -> dict[str, Any]:
    """``GET .../values:batchGet``."""
    major, render_option, dt_option = _read_options(params)
    out: dict[str, Any] = {"spreadsheetId": ss.id}
    value_ranges = []
    for i, text in enumerate(ranges):
        try:
            rect = resolve_a1(ss, text)
        except ApiError as err:
            raise with_prefix(err, f"Invalid ranges[{i}]: ") from None
        value_ranges.append(value_range_out(rect, major, render_option, dt_option))
    if value_ranges:
        out["valueRanges"] = value_ranges
    return out


# --------------------------------------------------------------------------- writes


@dataclass
class WritePlan:
    """A validated values write, ready to apply."""

    sheet: Sheet
    r0: int
    c0: int
    n_rows: int
    n_cols: int
    cells: list[tuple[int, int, tuple[dict[str, Any] | None, dict[str, Any] | None]]] = field(default_factory=list)

    def updated_range(self) -> str:
        """``updatedRange`` of the answer."""
        if self.n_rows == 0 or self.n_cols == 0:
            return a1.format_range(self.sheet.title, self.r0, self.c0, self.r0 + 1, self.c0 + 1)
        return a1.format_range(self.sheet.title, self.r0, self.c0, self.r0 + self.n_rows, self.c0 + self.n_cols)

    def response(self, spreadsheet_id: str) -> dict[str, Any]:
        """The UpdateValuesResponse (zero counts omitted, as proto3 JSON does)."""
        out: dict[str, Any] = {"spreadsheetId": spreadsheet_id, "updatedRange": self.updated_range()}
        rows = {r for r, _, _ in self.cells}
        cols = {c for _, c, _ in self.cells}
        if rows:
            out["updatedRows"] = len(rows)
        if cols:
            out["updatedColumns"] = len(cols)
        if self.cells:
            out["updatedCells"] = len(self.cells)
        return out


def normalise_matrix(values: Any, major: str, field_prefix: str) -> list[list[Any]]:
    """Validate the ``values`` of a ValueRange and return it row-major."""
    if values is None:
        return []
    if not isinstance(values, list):
        raise parse_error(f"{field_prefix}.values", values)
    rows: list[list[Any]] = []
    for i, row in enumerate(values):
        if not isinstance(row, list):
            raise parse_error(f"{field_prefix}.values[{i}]", row)
        for j, item in enumerate(row):
            if isinstance(item, (list, dict)):
                kind = "list_value" if isinstance(item, list) else "struct_value"
                raise bad_request(f"Invalid values[{i}][{j}]: {kind} {{\n}}")
        rows.append(row)
    if major == "COLUMNS":
        width = max((len(col) for col in rows), default=0)
        transposed: list[list[Any]] = [[] for _ in range(width)]
        for j, col in enumerate(rows):
            for i, item in enumerate(col):
                row_out = transposed[i]
                while len(row_out) < j:
                    row_out.append(None)
                row_out.append(item)
        return transposed
    return rows


def plan_write(
    ss: Spreadsheet,
    range_text: str,
    body: dict[str, Any],
    input_option: str,
    *,
    field_prefix: str = "data",
    anchor: tuple[Sheet, int, int] | None = None,
    grow: bool = False,
) -> WritePlan:
    """Validate a write of ``body['values']`` into ``range_text`` (or at ``anchor``)."""
    major = _enum(body.get("majorDimension"), DIMENSIONS, f"{field_prefix}.major_dimension", "Dimension", "ROWS")
    matrix = normalise_matrix(body.get("values"), major, field_prefix)
    n_rows = len(matrix)
    n_cols = max((len(row) for row in matrix), default=0)
    if anchor is not None:
        sheet, r0, c0 = anchor
        bound_r, bound_c = (10**9, 10**9) if grow else (sheet.rows, sheet.cols)
    else:
        rect = resolve_a1(ss, range_text)
        sheet, r0, c0 = rect.sheet, rect.r0, rect.c0
        bound_r, bound_c = (sheet.rows, sheet.cols) if rect.anchor else (rect.r1, rect.c1)
        if r0 + n_rows > bound_r:
            raise bad_request(
                f"Requested writing within range [{range_text}], but tried writing to row [{bound_r + 1}]"
            )
        if c0 + n_cols > bound_c:
            raise bad_request(
                f"Requested writing within range [{range_text}], but tried writing to column "
                f"[{a1.column_letters(bound_c)}]"
            )
    plan = WritePlan(sheet, r0, c0, n_rows, n_cols)
    for i, row in enumerate(matrix):
        for j, raw in enumerate(row):
            try:
                parsed = parse_input(raw, input_option)
            except InputError:
                raise bad_request(f"Invalid values[{i}][{j}]: {raw!r}") from None
            if parsed is None:
                continue
            if isinstance(raw, str) and raw and _plain_text(sheet, r0 + i, c0 + j):
                parsed = ({"stringValue": raw}, None)  # a plain-text cell keeps what was typed, as in the UI
            plan.cells.append((r0 + i, c0 + j, parsed))
    return plan


def _plain_text(sheet: Any, r: int, c: int) -> bool:
    """Whether the cell is formatted as plain text (numberFormat TEXT): Sheets then stores what is
    typed with USER_ENTERED as a string — no number, date or formula is read into it."""
    cell = sheet.cell(r, c)
    return bool(cell and ((cell.fmt or {}).get("numberFormat") or {}).get("type") == "TEXT")


def apply_write(plan: WritePlan) -> None:
    """Store the planned values (formats are kept; auto number formats added when missing)."""
    sheet = plan.sheet
    for r, c, (value, number_format) in plan.cells:
        if value is None:
            cell = sheet.cell(r, c)
            if cell is not None:
                cell.value = None
                sheet.prune(r, c)
            continue
        cell = sheet.ensure(r, c)
        cell.value = value
        if number_format is not None:
            fmt = cell.fmt or {}
            if "numberFormat" not in fmt:
                fmt["numberFormat"] = number_format
                cell.fmt = fmt


def _input_option(value: Any) -> str:
    """The mandatory valueInputOption."""
    if value is None or value == "":
        raise bad_request("'valueInputOption' is required but not specified")
    return _enum(value, INPUT_OPTIONS, "value_input_option", "ValueInputOption", "RAW")


def _updated_data(plan: WritePlan, params: dict[str, Any]) -> dict[str, Any]:
    """``updatedData`` for includeValuesInResponse."""
    render_option = _enum(
        params.get("responseValueRenderOption"),
        RENDER_OPTIONS,
        "response_value_render_option",
        "ValueRenderOption",
        "FORMATTED_VALUE",
    )
    dt_option = _enum(
        params.get("responseDateTimeRenderOption"),
        DATETIME_OPTIONS,
        "response_date_time_render_option",
        "DateTimeRenderOption",
        "SERIAL_NUMBER",
    )
    rect = Rect(plan.sheet, plan.r0, plan.r0 + max(plan.n_rows, 1), plan.c0, plan.c0 + max(plan.n_cols, 1))
    return value_range_out(rect, "ROWS", render_option, dt_option)


def _truthy(value: Any) -> bool:
    """Query-string boolean."""
    return str(value).lower() in ("true", "1")


def values_update(
    ss: Spreadsheet, actor: Actor, range_text: str, params: dict[str, Any], body: dict[str, Any]
) -> dict[str, Any]:
    """``PUT .../values/{range}``."""
    input_option = _input_option(params.get("valueInputOption"))
    plan = plan_write(ss, range_text, body, input_option)
    check_cells(ss, plan.sheet, ((r, c) for r, c, _ in plan.cells), actor)
    apply_write(plan)
    out = plan.response(ss.id)
    if _truthy(params.get("includeValuesInResponse")):
        out["updatedData"] = _updated_data(plan, params)
    return out


def values_batch_update(ss: Spreadsheet, actor: Actor, body: dict[str, Any]) -> dict[str, Any]:
    """``POST .../values:batchUpdate`` (all-or-nothing)."""
    input_option = _input_option(body.get("valueInputOption"))
    data = body.get("data") or []
    if not isinstance(data, list):
        raise parse_error("data", data, "type.googleapis.com/google.apps.sheets.v4.ValueRange")
    plans: list[WritePlan] = []
    for i, item in enumerate(data):
        prefix = f"Invalid data[{i}]: "
        try:
            plan = plan_write(ss, str(item.get("range", "")), item, input_option, field_prefix=f"data[{i}]")
            check_cells(ss, plan.sheet, ((r, c) for r, c, _ in plan.cells), actor, prefix)
        except ApiError as err:
            raise with_prefix(err, prefix) from None
        plans.append(plan)
    for plan in plans:
        apply_write(plan)
    out: dict[str, Any] = {"spreadsheetId": ss.id}
    responses = [plan.response(ss.id) for plan in plans]
    totals = {
        "totalUpdatedRows": sum(r.get("updatedRows", 0) for r in responses),
        "totalUpdatedColumns": sum(r.get("updatedColumns", 0) for r in responses),
        "totalUpdatedCells": sum(r.get("updatedCells", 0) for r in responses),
        "totalUpdatedSheets": len({plan.sheet.sheet_id for plan in plans if plan.cells}),
    }
    out.update({k: v for k, v in totals.items() if v})
    if responses:
        if _truthy(body.get("includeValuesInResponse")):
            for plan, resp in zip(plans, responses):
                resp["updatedData"] = _updated_data(plan, body)
        out["responses"] = responses
    return out


def find_table(sheet: Sheet, rect: Rect) -> tuple[int, int, int, int] | None:
    """The "logical table" values.append appends to, as (r0, r1, c0, c1) half-open.

    Occupied cells inside ``rect`` seed 4-connected regions of occupied cells on the whole
    sheet; the region reaching lowest (then furthest right) wins.  This reproduces the
    recorded answers (``tableRange`` ``Sheet1!A1:J4``, ``Sheet1!C1`` for ``A1,_,C1``).
    """
    occupied = {pos for pos, cell in sheet.cells.items() if cell.has_value()}
    seeds = [(r, c) for r, c, cell in sheet.cells_in(rect.r0, rect.r1, rect.c0, rect.c1) if cell.has_value()]
    if not seeds:
        return None
    seen: set[tuple[int, int]] = set()
    best: tuple[int, int, int, int] | None = None
    for seed in seeds:
        if seed in seen:
            continue
        stack = [seed]
        seen.add(seed)
        r0 = r1 = seed[0]
        c0 = c1 = seed[1]
        while stack:
            r, c = stack.pop()
            r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in occupied and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        candidate = (r0, r1 + 1, c0, c1 + 1)
        if best is None or (candidate[1], candidate[3]) >= (best[1], best[3]):
            best = candidate
    return best


def values_append(
    ss: Spreadsheet, actor: Actor, range_text: str, params: dict[str, Any], body: dict[str, Any]
) -> dict[str, Any]:
    """``POST .../values/{range}:append``."""
    input_option = _input_option(params.get("valueInputOption"))
    insert_option = str(params.get("insertDataOption") or "OVERWRITE")
    if insert_option not in ("OVERWRITE", "INSERT_ROWS"):
        raise parse_error(
            "insert_data_option", insert_option, "type.googleapis.com/google.apps.sheets.v4.InsertDataOption"
        )
    rect = resolve_a1(ss, range_text)
    sheet = rect.sheet
    table = find_table(sheet, rect)
    if table is None:
        start_r, start_c = rect.r0, rect.c0
    else:
        start_r, start_c = table[1], table[2]
    plan = plan_write(ss, range_text, body, input_option, anchor=(sheet, start_r, start_c), grow=True)
    if insert_option == "INSERT_ROWS":
        check_rect(ss, Rect(sheet, start_r, start_r + 1, 0, sheet.cols), actor)
    else:
        check_cells(ss, sheet, ((r, c) for r, c, _ in plan.cells), actor)
    if insert_option == "INSERT_ROWS" and plan.n_rows:
        insert_dimension(ss, sheet, "ROWS", start_r, start_r + plan.n_rows)
    need_rows = start_r + plan.n_rows
    need_cols = start_c + plan.n_cols
    if need_rows > sheet.rows:
        sheet.grid["rowCount"] = need_rows
    if need_cols > sheet.cols:
        sheet.grid["columnCount"] = need_cols
    apply_write(plan)
    out: dict[str, Any] = {"spreadsheetId": ss.id}
    if table is not None:
        out["tableRange"] = a1.format_range(sheet.title, table[0], table[2], table[1], table[3])
    updates = plan.response(ss.id)
    if _truthy(params.get("includeValuesInResponse")):
        updates["updatedData"] = _updated_data(plan, params)
    out["updates"] = updates
    return out


def clear_rect(rect: Rect) -> None:
    """Remove the values (not formats or notes) of a rectangle."""
    sheet = rect.sheet
    for r, c, cell in list(sheet.cells_in(rect.r0, rect.r1, rect.c0, rect.c1)):
        if cell.value is not None:
            cell.value = None
            sheet.prune(r, c)


def values_clear(ss: Spreadsheet, actor: Actor, range_text: str) -> dict[str, Any]:
    """``POST .../values/{range}:clear``."""
    rect = resolve_a1(ss, range_text)
    check_rect(ss, rect, actor)
    clear_rect(rect)
    return {"spreadsheetId": ss.id, "clearedRange": rect.a1()}


def values_batch_clear(ss: Spreadsheet, actor: Actor, body: dict[str, Any]) -> dict[str, Any]:
    """``POST .../values:batchClear`` (all-or-nothing)."""
    ranges = body.get("ranges") or []
    if not isinstance(ranges, list):
        raise parse_error("ranges", ranges, "type.googleapis.com/google.protobuf.ListValue")
    rects: list[Rect] = []
    for i, text in enumerate(ranges):
        prefix = f"Invalid range[{i}]: "
        try:
            rect = resolve_a1(ss, str(text))
            check_rect(ss, rect, actor, prefix)
        except ApiError as err:
            raise with_prefix(err, prefix) from None
        rects.append(rect)
    for rect in rects:
        clear_rect(rect)
    out: dict[str, Any] = {"spreadsheetId": ss.id}
    if rects:
        out["clearedRanges"] = [rect.a1() for rect in rects]
    return out
