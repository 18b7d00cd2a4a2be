"""Staging an oversized write: the heaviest updates go first into hidden staging tabs, in as many
batches as the size limit asks, and one final batch copies them over the real tabs, writes the
marker and deletes the stages -- so the campaign itself still changes in one atomic step."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.core.tables import Tables

from .gsheets_batch import Batch, Evidence, _pack
from .gsheets_cells import _grid_range, cell_data
from .gsheets_compact import Piece, _compact, _row_bands, _split_update
from .gsheets_read import STAGE_PREFIX, SheetInfo, _rid


def stage_write(
    structural: list[dict[str, Any]],
    per_tab: dict[str, list[Piece]],
    content_size: dict[str, int],
    marker_requests: list[dict[str, Any]],
    evidence: Evidence,
    infos: dict[str, SheetInfo],
    used_ids: set[int],
    fixed: int,
    after: Callable[[], Tables],
    rng: random.Random,
    budget: int,
) -> list[Batch]:
    """An oversized write.  Just enough of the heaviest tabs' updates (whole pieces, or row
    bands of a piece) is written into hidden staging tabs first, packed into as few requests as
    the limit allows (the campaign itself is untouched meanwhile); then one final batch grows
    the real tabs, copies the staged rectangles over them (entered values and formulas;
    formats, dropdowns and protections of the real tab stay), writes the rest and the marker,
    and deletes the staging tabs: the campaign changes in that one atomic step.  ``after`` gives
    the tables as the write leaves them; ``budget`` is the most bytes a batch may carry."""
    excess = fixed + sum(content_size.values()) - (budget - FINAL_SLACK)  # bytes to move out
    staged: dict[str, list[Piece]] = {}
    kept: list[Piece] = []
    for tab in sorted(content_size, key=lambda t: -content_size[t]):
        for piece in per_tab[tab]:
            if excess <= 0:
                kept.append(piece)
                continue
            parts = _bands(piece, max(budget // 32, 4096)) if piece.size > excess else [piece]
            excess += sum(b.size for b in parts) - piece.size  # bands compact their runs apart
            for band in parts:
                if excess > 0:
                    staged.setdefault(tab, []).append(band)
                    excess -= band.size - COPY_PASTE_BYTES
                else:
                    kept.append(band)
    final: list[dict[str, Any]] = list(structural)
    stage_ids: set[int] = set()
    token = f"{rng.randrange(16**6):06x}"
    staging: list[dict[str, Any]] = []
    for n, (tab, pieces) in enumerate(staged.items()):
        info = infos[tab]
        stage_id = _rid(rng, used_ids)
        stage_ids.add(stage_id)
        props = {
            "sheetId": stage_id,
            "title": f"{STAGE_PREFIX}{token}_{n}",
            "hidden": True,
            "gridProperties": {"rowCount": info.rows, "columnCount": info.cols},
        }
        staging.append({"addSheet": {"properties": props}})
        for piece in pieces:
            staging += [c for part in _split_update(_retarget(_filled(piece, after, tab), stage_id), budget // 4)
                        for c in _compact(part, piece.decimals)]
            r0, c0, r1, c1 = piece.rect
            final.append(
                {
                    "copyPaste": {
                        "source": _grid_range(stage_id, r0, r1, c0, c1),
                        "destination": _grid_range(info.sheet_id, r0, r1, c0, c1),
                        "pasteType": "PASTE_FORMULA",
                        "pasteOrientation": "NORMAL",
                    }
                }
            )
    batches: list[Batch] = []
    for chunk in _pack(staging, budget):
        added = {int(r["addSheet"]["properties"]["sheetId"]) for r in chunk if "addSheet" in r}
        batches.append(Batch(chunk, Evidence(added_sheets=added)))
    final += [r for p in kept for r in p.requests]
    final += marker_requests
    final += [{"deleteSheet": {"sheetId": sid}} for sid in sorted(stage_ids)]
    # the final batch deletes the staging tabs: their absence proves it landed (so does the marker)
    final_evidence = Evidence(
        marker_tab=evidence.marker_tab,
        marker_range=evidence.marker_range,
        marker_cells=evidence.marker_cells,
        deleted_sheets=stage_ids | evidence.deleted_sheets,
        lock_from=evidence.lock_from,
        lock_to=evidence.lock_to,
    )
    batches.append(Batch(final, final_evidence))
    return batches


#: Room left in a staged write's final batch for what estimates miss.
FINAL_SLACK = 8192


#: At most what a copyPaste of one staged rectangle adds to the final batch.
COPY_PASTE_BYTES = 320


def _filled(piece: Piece, after: Callable[[], Tables], tab: str) -> dict[str, Any]:
    """A piece as its staged copy writes it.  The copy pastes the piece's whole rectangle, so where
    an anchored row stops short, the rest of the rectangle carries what ``tab`` holds after the
    write (what the row leaves untouched), not a blank that would clear it."""
    body = piece.request["updateCells"]
    r0, c0, _r1, c1 = piece.rect
    rows = body.get("rows") or []
    if "start" not in body or all(len(row.get("values") or []) == c1 - c0 for row in rows):
        return piece.request
    final = after()[tab]
    whole = []
    for dr, row in enumerate(rows):
        values = list(row.get("values") or [])
        line = final[r0 + dr] if r0 + dr < len(final) else []
        values += [cell_data(line[c] if c < len(line) else None) for c in range(c0 + len(values), c1)]
        whole.append({"values": values})
    return {"updateCells": dict(body, rows=whole)}


def _bands(piece: Piece, limit: int) -> list[Piece]:
    """A piece cut into row bands of about ``limit`` bytes, each covering the same columns and
    meaning the same (a bounded piece's bands are bounded, the last one reaching its last row, so
    what it clears is still cleared).  A write of a whole unseen tab stays whole."""
    body = piece.request["updateCells"]
    rows = body.get("rows") or []
    rng = body.get("range")
    if len(rows) <= 1 or (rng is not None and "startRowIndex" not in rng):
        return [piece]
    r0, c0, r1, c1 = piece.rect
    bounds = _row_bands(rows, limit)
    if len(bounds) == 1:
        return [piece]
    out: list[Piece] = []
    for k, (a, b) in enumerate(bounds):
        top = r0 + a
        bottom = r1 if k == len(bounds) - 1 else r0 + b
        part = dict(body, rows=rows[a:b])
        if rng is not None:
            part["range"] = _grid_range(rng["sheetId"], top, bottom, c0, c1)
        else:
            part["start"] = dict(body["start"], rowIndex=top)
        out.append(Piece({"updateCells": part}, (top, c0, bottom, c1), piece.decimals))
    return out


def _retarget(req: dict[str, Any], sheet_id: int) -> dict[str, Any]:
    """The same updateCells aimed at another tab (the staging copy)."""
    body = dict(req["updateCells"])
    if "range" in body:
        body["range"] = dict(body["range"], sheetId=sheet_id)
    else:
        body["start"] = dict(body["start"], sheetId=sheet_id)
    return {"updateCells": body}
