"""Sheets v4 endpoints (``/v4/spreadsheets...``): access control and dispatch.

Access follows Google: an unknown id answers 404 NOT_FOUND, a spreadsheet the caller has
no role on (or only read access, for a write) answers 403 PERMISSION_DENIED with "The
caller does not have permission".  Successful writes bump the Drive ``modifiedTime``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from . import batch, valueops
from .errors import bad_request, not_found, permission_denied, sheets_error
from .http_types import ApiRequest, ApiResponse
from .model import (
    Spreadsheet,
    default_spreadsheet_properties,
    new_sheet,
    sheet_properties_out,
    spreadsheet_out,
)
from .protection import ROLE_LEVELS, Actor, can_edit_protected
from .store import SPREADSHEET_MIME, DriveFile, Store, root_folder_id


def open_spreadsheet(
    store: Store, ss_id: str, identity: str | None, *, write: bool
) -> tuple[DriveFile, Spreadsheet, Actor]:
    """Look a spreadsheet up and check the caller's role."""
    file = store.files.get(ss_id)
    ss = store.spreadsheets.get(ss_id)
    if file is None or ss is None:
        raise not_found()
    level = store.role_level(file, identity)
    if level == 0 or (write and level < ROLE_LEVELS["writer"]):
        raise permission_denied()
    assert identity is not None
    return file, ss, Actor(identity, level, level >= ROLE_LEVELS["owner"])


def create_spreadsheet_file(store: Store, owner: str, title: str, body: dict[str, Any] | None = None) -> Spreadsheet:
    """Create a spreadsheet and its Drive file owned by ``owner`` (Sheet1, sheetId 0)."""
    now = store.clock.rfc3339()
    ss_id = store.new_file_id()
    props = default_spreadsheet_properties(title)
    for key, value in ((body or {}).get("properties") or {}).items():
        if value is not None and key != "title":
            props[key] = value
    ss = Spreadsheet(ss_id, props)
    sheets_in = (body or {}).get("sheets") or []
    if sheets_in:
        work_actor = Actor(owner, ROLE_LEVELS["owner"], True)
        ctx = batch.BatchContext(ss, work_actor, owner, store.new_int_id)
        for i, entry in enumerate(sheets_in):
            props_in = dict((entry or {}).get("properties") or {})
            if i == 0 and props_in.get("sheetId") is None:
                props_in["sheetId"] = 0
            batch.add_sheet(ctx, i, {"properties": props_in})
    else:
        ss.sheets.append(new_sheet(0, "Sheet1", 0))
    store.spreadsheets[ss_id] = ss
    store.files[ss_id] = DriveFile(
        id=ss_id,
        name=title,
        mime_type=SPREADSHEET_MIME,
        owner=owner,
        created=now,
        modified=now,
        parents=[root_folder_id(owner)],
    )
    return ss


def _touch(store: Store, file: DriveFile, ss: Spreadsheet) -> None:
    """Record a successful write: Drive modifiedTime, title sync, persistence."""
    file.modified = store.clock.rfc3339()
    file.name = str(ss.props.get("title", file.name))
    store.save()


def _viewer(actor: Actor) -> Any:
    """``requestingUserCanEdit`` (and visibility of ``editors``) for ``actor``."""
    return lambda pr: actor.can_write and can_edit_protected(pr, actor)


def handle(store: Store, req: ApiRequest) -> ApiResponse:
    """Dispatch a request whose path starts with ``/v4/spreadsheets``."""
    seg = req.segments[2:]  # after "v4", "spreadsheets"
    method = req.method
    with store.lock:
        if not seg or seg == [""]:
            if method == "POST":
                body = req.json()
                title = str((body.get("properties") or {}).get("title") or "Untitled spreadsheet")
                assert req.identity is not None
                ss = create_spreadsheet_file(store, req.identity, title, body)
                store.save()
                actor = Actor(req.identity, ROLE_LEVELS["owner"], True)
                return ApiResponse(200, spreadsheet_out(ss, viewer_can_edit=_viewer(actor)))
            return _method_not_allowed()
        head = seg[0]
        if ":" in head and len(seg) == 1:
            ss_id, _, verb = head.partition(":")
            if verb == "batchUpdate" and method == "POST":
                file, ss, actor = open_spreadsheet(store, ss_id, req.identity, write=True)
                new_ss, answer = batch.run_batch(ss, actor, file.owner, req.json(), store.new_int_id, _viewer(actor))
                store.spreadsheets[ss_id] = new_ss
                _touch(store, file, new_ss)
                return ApiResponse(200, answer)
            return _not_found_route()
        ss_id = head
        if len(seg) == 1:
            if method != "GET":
                return _method_not_allowed()
            file, ss, actor = open_spreadsheet(store, ss_id, req.identity, write=False)
            include = str(req.param("includeGridData", "false")).lower() == "true"
            out = spreadsheet_out(
                ss,
                viewer_can_edit=_viewer(actor),
                include_grid=include,
                ranges=req.param_list("ranges"),
                mask_text=req.param("fields"),
            )
            return ApiResponse(200, out)
        rest = seg[1:]
        if rest[0].startswith("values"):
            return _values(store, req, ss_id, rest)
        if rest[0] == "sheets" and len(rest) == 2 and rest[1].endswith(":copyTo") and method == "POST":
            return _copy_to(store, req, ss_id, int(rest[1].partition(":")[0]))
        return _not_found_route()


def _values(store: Store, req: ApiRequest, ss_id: str, rest: list[str]) -> ApiResponse:
    """Dispatch ``.../values...`` endpoints."""
    method = req.method
    head = rest[0]
    params = req.flat_params()
    if head == "values:batchGet" and method == "GET":
        _, ss, _ = open_spreadsheet(store, ss_id, req.identity, write=False)
        return ApiResponse(200, valueops.values_batch_get(ss, req.param_list("ranges"), params))
    if head in ("values:batchGetByDataFilter", "values:batchUpdateByDataFilter", "values:batchClearByDataFilter"):
        raise sheets_error(501, f"{head} is not implemented by the Strategos emulator")
    if head == "values:batchUpdate" and method == "POST":
        file, ss, actor = open_spreadsheet(store, ss_id, req.identity, write=True)
        out = valueops.values_batch_update(ss, actor, req.json())
        _touch(store, file, ss)
        return ApiResponse(200, out)
    if head == "values:batchClear" and method == "POST":
        file, ss, actor = open_spreadsheet(store, ss_id, req.identity, write=True)
        out = valueops.values_batch_clear(ss, actor, req.json())
        _touch(store, file, ss)
        return ApiResponse(200, out)
    if head != "values" or len(rest) != 2:
        return _not_found_route()
    raw = req.path.split("/values/", 1)[1] if "/values/" in req.path else rest[1]
    suffix = ""
    for candidate in (":append", ":clear"):
        if raw.endswith(candidate):
            suffix, raw = candidate, raw[: -len(candidate)]
    range_text = unquote(raw)
    if suffix == ":append" and method == "POST":
        file, ss, actor = open_spreadsheet(store, ss_id, req.identity, write=True)
        out = valueops.values_append(ss, actor, range_text, params, req.json())
        _touch(store, file, ss)
        return ApiResponse(200, out)
    if suffix == ":clear" and method == "POST":
        file, ss, actor = open_spreadsheet(store, ss_id, req.identity, write=True)
        out = valueops.values_clear(ss, actor, range_text)
        _touch(store, file, ss)
        return ApiResponse(200, out)
    if suffix:
        return _method_not_allowed()
    if method == "GET":
        _, ss, _ = open_spreadsheet(store, ss_id, req.identity, write=False)
        return ApiResponse(200, valueops.values_get(ss, range_text, params))
    if method == "PUT":
        file, ss, actor = open_spreadsheet(store, ss_id, req.identity, write=True)
        out = valueops.values_update(ss, actor, range_text, params, req.json())
        _touch(store, file, ss)
        return ApiResponse(200, out)
    return _method_not_allowed()


def _copy_to(store: Store, req: ApiRequest, ss_id: str, sheet_id: int) -> ApiResponse:
    """``sheets/{sheetId}:copyTo``: copy a tab into another spreadsheet the caller can edit."""
    _, source, _ = open_spreadsheet(store, ss_id, req.identity, write=False)
    dest_id = str(req.json().get("destinationSpreadsheetId") or "")
    dest_file, dest, _ = open_spreadsheet(store, dest_id, req.identity, write=True)
    sheet = source.by_id(sheet_id)
    if sheet is None:
        raise bad_request(f"No grid with id: {sheet_id}")
    clone = sheet.copy()
    new_id = store.new_int_id()
    clone.props["sheetId"] = new_id
    title = f"Copy of {sheet.title}"
    n = 2
    while dest.by_title(title) is not None:
        title = f"Copy of {sheet.title} {n}"
        n += 1
    clone.props["title"] = title
    clone.protected = []
    for merge in clone.merges:
        merge["sheetId"] = new_id
    clone.props["index"] = len(dest.sheets)
    dest.sheets.append(clone)
    _touch(store, dest_file, dest)
    return ApiResponse(200, sheet_properties_out(clone))


def _method_not_allowed() -> ApiResponse:
    """405 for a known path with the wrong verb."""
    raise sheets_error(405, "Method not allowed.")


def _not_found_route() -> ApiResponse:
    """Google's plain 404 page for unknown paths."""
    return ApiResponse(404, b"Not Found", content_type="text/html; charset=UTF-8")
