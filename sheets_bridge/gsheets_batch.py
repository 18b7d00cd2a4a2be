"""Talking to the Sheets API: the one read (``spreadsheets.get`` under a ``fields`` mask) and the
batches of a write (``spreadsheets:batchUpdate``) with the evidence that tells the write guard
whether a batch whose answer was lost has landed, so that a retried write never applies twice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from engine.core.messages import _
from engine.core.tables import Cell

from . import google_http, gsheets_lock
from .google_http import (
    GoogleAmbiguousWriteError,
    GoogleBadRequestError,
    GoogleError,
    GoogleWriteAlreadyApplied,
    StrategosClient,
)
from .gsheets_cells import _a1_column, _dumps, _grid_of, _same, quote_title
from .gsheets_lock import Lock

#: Google recommends request payloads of at most 2 MB; bigger writes are staged.
MAX_WRITE_BYTES = 2 * 1024 * 1024
JSON_HEADERS = {"Content-Type": "application/json; charset=utf-8"}


#: What a read asks for: entered values (formulas as formulas) and each tab's id and size;
#: whole-sheet protections tell which editors a tab created later must get.
READ_FIELDS = (
    "spreadsheetId,properties(locale),sheets(properties(sheetId,title,index,hidden,gridProperties(rowCount,columnCount)),"
    "data(rowData(values(userEnteredValue))),protectedRanges(range,editors(users)),merges)"
)


#: What the write guard reads to find tabs / protected ranges a batch added.
PROBE_FIELDS = "sheets(properties(sheetId,title),protectedRanges(protectedRangeId))"


MARKER_FIELDS = "sheets(data(rowData(values(userEnteredValue))))"


@dataclass
class Evidence:
    """How the write guard can tell that a batch landed (strongest first)."""

    marker_tab: str = ""
    marker_range: tuple[int, int, int, int] = (0, 0, 0, 0)  # r0, c0 (0-based), rows, cols
    marker_cells: dict[tuple[int, int], Cell] = field(default_factory=dict)  # cells that differ from the read
    added_sheets: set[int] = field(default_factory=set)
    deleted_sheets: set[int] = field(default_factory=set)
    added_protections: set[int] = field(default_factory=set)
    lock_from: Lock | None = None  # the lock the read saw (the batch deletes it) ...
    lock_to: Lock | None = None  # ... and the one the batch adds: the strongest evidence

    def any(self) -> bool:
        """Whether the batch holds anything a retry could apply twice or fail on."""
        return bool(self.marker_cells or self.added_sheets or self.deleted_sheets or self.added_protections
                    or self.lock_to)


@dataclass
class Batch:
    """One ``spreadsheets:batchUpdate`` body and how to tell whether it landed."""

    requests: list[dict[str, Any]]
    evidence: Evidence = field(default_factory=Evidence)

    def body(self) -> bytes:
        """The request body."""
        return _dumps({"requests": self.requests})


def get_spreadsheet(
    client: StrategosClient, spreadsheet_id: str, fields: str, ranges: Sequence[str] = ()
) -> dict[str, Any]:
    """One ``spreadsheets.get`` with grid data under a ``fields`` mask (no gspread metadata call)."""
    params: list[tuple[str, str]] = [("includeGridData", "true"), ("fields", fields)]
    params += [("ranges", r) for r in ranges]
    response = client.http_client.request("get", f"{google_http.GOOGLE_SHEETS_URL}/{spreadsheet_id}", params=params)
    # orjson: the whole campaign's answer decodes in a third of the standard decoder's time
    return dict(orjson.loads(response.content))


def send_batch(client: StrategosClient, spreadsheet_id: str, batch: Batch) -> None:
    """One ``spreadsheets:batchUpdate`` under the write guard; "already applied" is success.

    After an ambiguous failure ``google_http`` asks :func:`landed` (one small read) whether the
    batch took effect: yes -> done, no -> the batch is sent again.
    """
    http = client.http_client
    url = f"{google_http.GOOGLE_SHEETS_URL}/{spreadsheet_id}:batchUpdate"

    def check() -> bool:
        try:
            return landed(client, spreadsheet_id, batch.evidence)
        except GoogleError as exc:
            raise GoogleAmbiguousWriteError(
                _("Запись в таблицу {id} могла примениться, а проверить это не удалось: {exc}").format(
                    id=spreadsheet_id, exc=exc
                )
            ) from exc

    try:
        with http.write_guard(check):
            http.request("post", url, data=batch.body(), headers=dict(JSON_HEADERS))
    except GoogleWriteAlreadyApplied:
        return
    except GoogleBadRequestError:
        ev = batch.evidence
        if ev.lock_to is not None:  # refused as a whole: was it because another run wrote?
            now = gsheets_lock.found(get_spreadsheet(client, spreadsheet_id, PROBE_FIELDS).get("sheets", []))
            if now != ev.lock_from:
                raise gsheets_lock.conflict(spreadsheet_id) from None
        raise


def landed(client: StrategosClient, spreadsheet_id: str, ev: Evidence) -> bool:
    """Whether a batch with this evidence is visible in the spreadsheet now."""
    if not ev.any():
        return False  # absolute writes only: sending them again is harmless
    if ev.lock_to is not None:  # the batch swapped the lock: its id says whose write is there
        now = gsheets_lock.found(get_spreadsheet(client, spreadsheet_id, PROBE_FIELDS).get("sheets", []))
        return gsheets_lock.verdict(now, ev.lock_from, ev.lock_to, spreadsheet_id)
    if ev.marker_cells:
        r0, c0, n_rows, n_cols = ev.marker_range
        a1 = f"{quote_title(ev.marker_tab)}!{_a1_column(c0)}{r0 + 1}:{_a1_column(c0 + n_cols - 1)}{r0 + n_rows}"
        answer = get_spreadsheet(client, spreadsheet_id, MARKER_FIELDS, [a1])
        sheets = answer.get("sheets") or [{}]
        grid = _grid_of((sheets[0].get("data") or [{}])[0])
        for (r, c), want in ev.marker_cells.items():
            line = grid[r - r0] if r - r0 < len(grid) else []
            have = line[c - c0] if c - c0 < len(line) else None
            if not _same(have, want):
                return False
        return True
    answer = get_spreadsheet(client, spreadsheet_id, PROBE_FIELDS)
    sheets = answer.get("sheets", [])
    sheet_ids = {int(s.get("properties", {}).get("sheetId", 0)) for s in sheets}
    protections = {int(p.get("protectedRangeId", -1)) for s in sheets for p in s.get("protectedRanges", [])}
    if ev.added_sheets:
        return ev.added_sheets <= sheet_ids
    if ev.deleted_sheets:
        return not (ev.deleted_sheets & sheet_ids)
    return ev.added_protections <= protections


def _pack(requests: Sequence[dict[str, Any]], limit: int) -> list[list[dict[str, Any]]]:
    """Requests packed in order into batches whose bodies stay within ``limit`` bytes."""
    chunks: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    size = 16
    for req in requests:
        req_size = len(_dumps(req)) + 1
        if current and size + req_size > limit:
            chunks.append(current)
            current, size = [], 16
        current.append(req)
        size += req_size
    if current:
        chunks.append(current)
    return chunks
