"""Planning a write: the batches that turn what one read saw into what a Changeset asks, for one
spreadsheet -- new tabs and their growth, only the rectangles that differ, notes, the turn marker
last with the evidence of its landing, the write lock's compare-and-swap first, and a refusal of
a write over merged cells before anything is sent.  A plan too big for one batch is staged
(:mod:`sheets_bridge.gsheets_stage`)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import history
from engine.core.errors import CampaignError, Problem
from engine.core.messages import _
from engine.core.tables import Cell, Changeset, Grid, Tables, TabSpec, WriteBlock, apply_changes

from . import gsheets_lock
from .gsheets_batch import Batch, Evidence, _pack
from .gsheets_cells import _a1_column, _dumps, _grid_range, _identical, _rows_data, _runs, _same, _trimmed_grid
from .gsheets_compact import Piece, _anchored, _split_update
from .gsheets_format import MIN_COLUMNS, SPARE_ROWS, _creation_size, _format_requests, _sheet_properties
from .gsheets_protect import _protect_sheet
from .gsheets_read import BookState, SheetInfo, _rid
from .gsheets_stage import stage_write


def plan_write(
    book: BookState, changes: Changeset, before: Tables, rng: random.Random, max_write_bytes: int
) -> Plan:
    """The batches that apply ``changes`` to the spreadsheet ``book`` describes (one unless it is
    too big, see :func:`~sheets_bridge.gsheets_stage.stage_write`); ``before`` is what the read saw, so a
    ReplaceTab sends only what differs.  ``rng`` draws the ids of new tabs and protections."""
    spreadsheet_id = book.spreadsheet_id
    used_ids = {s.sheet_id for s in book.sheets.values()} | set(book.stale_stages)
    if book.lock is not None:
        used_ids.add(book.lock.sheet_id)
    if book.journal_id is not None:
        used_ids.add(book.journal_id)
    structural: list[dict[str, Any]] = []
    evidence = Evidence()
    need: dict[str, list[int]] = {}  # tab -> [rows, cols] the changes reach
    specs: dict[str, TabSpec] = {}
    for rep in changes.replace:
        rows = _trimmed_grid(rep.rows)
        n = need.setdefault(rep.tab, [1, 1])
        n[0], n[1] = max(n[0], len(rows)), max(n[1], max((len(r) for r in rows), default=0))
        if rep.spec is not None:
            specs.setdefault(rep.tab, rep.spec)
    for block in changes.all_blocks():
        n = need.setdefault(block.tab, [1, 1])
        n[0] = max(n[0], block.row - 1 + len(block.values))
        n[1] = max(n[1], block.col - 1 + max((len(line) for line in block.values), default=0))
    for tab, row, col, _text in changes.notes:
        n = need.setdefault(tab, [1, 1])
        n[0], n[1] = max(n[0], row), max(n[1], col)
    for stale in book.stale_stages:  # staging tabs of an earlier failed write
        structural.append({"deleteSheet": {"sheetId": stale}})
        evidence.deleted_sheets.add(stale)
    infos: dict[str, SheetInfo] = {}
    for tab, (rows_needed, cols_needed) in need.items():
        info = book.sheets.get(tab)
        if info is None:
            spec = specs.get(tab) or TabSpec(tab, [])
            sheet_id = _rid(rng, used_ids)
            # room for the changes and for whatever the spec's formats reach (gsheets_format._reach)
            made_rows, made_cols = _creation_size(spec)
            n_rows = max(max(rows_needed, len(spec.rows)) + SPARE_ROWS, made_rows)
            n_cols = max(cols_needed, made_cols, MIN_COLUMNS)
            structural.append(
                {"addSheet": {"properties": _sheet_properties(spec, sheet_id, None, n_rows, n_cols)}}
            )
            evidence.added_sheets.add(sheet_id)
            structural += [r for r in _format_requests(spec, sheet_id) if "updateCells" not in r]
            if book.editors:
                pid = _rid(rng, used_ids)
                structural.append(_protect_sheet(sheet_id, pid, book.editors, ()))
                evidence.added_protections.add(pid)
            info = SheetInfo(spreadsheet_id, sheet_id, tab, n_rows, n_cols)
        else:
            for dim, extra in (("ROWS", rows_needed - info.rows), ("COLUMNS", cols_needed - info.cols)):
                if extra > 0:
                    structural.append(
                        {"appendDimension": {"sheetId": info.sheet_id, "dimension": dim, "length": extra}}
                    )
            info = SheetInfo(
                spreadsheet_id, info.sheet_id, tab, max(info.rows, rows_needed), max(info.cols, cols_needed),
                info.hidden, info.merges,
            )
        infos[tab] = info
    per_tab: dict[str, list[Piece]] = {}
    for rep in changes.replace:
        info = infos[rep.tab]
        seen = before.get(rep.tab) if rep.tab in book.sheets else None
        per_tab.setdefault(rep.tab, []).extend(
            _replace_pieces(info.sheet_id, seen, rep.rows, info, book.decimal_point)
        )
    for block in changes.blocks:
        per_tab.setdefault(block.tab, []).append(
            Piece(_block_request(infos[block.tab].sheet_id, block), _block_rect(block), book.decimal_point)
        )
    notes: dict[str, list[tuple[int, int, str]]] = {}
    for tab, row, col, text in changes.notes:
        notes.setdefault(tab, []).append((row, col, text))
    # notes travel in the final batch (a staged copy carries values and formulas, not notes)
    note_requests = [
        {"updateCells": {"range": {"sheetId": book.sheets[tab].sheet_id}, "fields": "note"}}
        for tab in changes.clear_notes
        if tab in book.sheets
    ]
    note_requests += [r for tab, ns in notes.items() if not history.is_store(tab)
                      for r in _note_requests(infos[tab].sheet_id, ns)]
    # the store rows' chunks (gsheets_store) are the history itself: always in the final batch
    kept_requests = [r for tab, ns in notes.items() if history.is_store(tab)
                     for r in _note_requests(infos[tab].sheet_id, ns)]
    # a log's oldest rows, archived by this write (engine/core/logs.py): deleted after every value is
    # written (the appended rows move up under the header), in the final batch with the marker
    dropped = [(tab, n) for tab, n in changes.drop_rows if n > 0 and (tab in infos or tab in book.sheets)]
    drop_requests = [{"deleteDimension": {"range": {"sheetId": (infos.get(tab) or book.sheets[tab]).sheet_id,
                                                    "dimension": "ROWS", "startIndex": 1, "endIndex": 1 + n}}}
                     for tab, n in dropped]
    marker_requests = kept_requests + drop_requests + [_block_request(infos[b.tab].sheet_id, b)
                                                       for b in changes.marker]
    _refuse_merges(infos, per_tab, changes.marker)
    if changes.marker:
        _marker_evidence(evidence, changes.marker, before)

    if not (structural or any(per_tab.values()) or note_requests or marker_requests):
        return Plan([], lambda: None)
    # the compare-and-swap opens the batch that changes the campaign (gsheets_lock)
    lock, swap = gsheets_lock.swap(book.lock, _rid(rng, used_ids))
    if book.editors:
        swap.append(_protect_sheet(lock.sheet_id, _rid(rng, used_ids), book.editors, ()))
    structural = swap + structural
    evidence.lock_from, evidence.lock_to = book.lock, lock

    def commit() -> None:
        book.sheets.update(infos)
        for tab, n in dropped:
            info = book.sheets[tab]
            book.sheets[tab] = SheetInfo(info.spreadsheet_id, info.sheet_id, tab, max(1, info.rows - n), info.cols,
                                         info.hidden, info.merges)
        book.stale_stages = []
        book.lock = lock

    content_size = {tab: sum(p.size for p in pieces) for tab, pieces in per_tab.items()}
    fixed = len(_dumps({"requests": structural + note_requests + marker_requests})) + 2
    if fixed + sum(content_size.values()) <= max_write_bytes:
        content = [r for pieces in per_tab.values() for p in pieces for r in p.requests]
        requests = structural + content + note_requests + marker_requests
        return Plan([Batch(requests, evidence)], commit)
    late: list[dict[str, Any]] = []
    kept_bytes = len(_dumps({"requests": kept_requests})) if kept_requests else 0
    if fixed - kept_bytes > max_write_bytes // 2:  # the history's notes stay in the final batch whatever
        # so many notes that they would crowd the final batch: they follow it, in batches of
        # their own (explanations of the numbers, not the state of the campaign)
        late, note_requests = note_requests, []
        fixed = len(_dumps({"requests": structural + marker_requests})) + 2
    after = functools.cache(lambda: apply_changes(before, changes))  # only a ragged staged block asks
    batches = stage_write(
        structural, per_tab, content_size, note_requests + marker_requests, evidence, infos, used_ids, fixed,
        after, rng, max_write_bytes,
    )
    piece = max_write_bytes - 4096
    for chunk in _pack([part for r in late for part in _split_update(r, piece)], max_write_bytes):
        batches.append(Batch(chunk))
    return Plan(batches, commit)


@dataclass
class Plan:
    """The batches of one spreadsheet's write and what to remember once they are sent."""

    batches: list[Batch]
    commit: Callable[[], None]


def _refuse_merges(infos: Mapping[str, SheetInfo], per_tab: Mapping[str, list[Piece]],
                   marker: Sequence[WriteBlock]) -> None:
    """Refuse (before anything is sent) a write over merged cells: Google shows only a merge's
    first cell, so a status or a ledger line written under a merge would be hidden from the
    players or lost.  The message names the tab and the merged range, as the .xlsx backend does."""
    problems: list[Problem] = []
    rects: dict[str, list[tuple[int, int, int, int]]] = {t: [p.rect for p in ps] for t, ps in per_tab.items()}
    for b in marker:
        rects.setdefault(b.tab, []).append(_block_rect(b))
    for tab, written in rects.items():
        info = infos.get(tab)
        for m in info.merges if info else []:
            if any(r0 < m[2] and m[0] < r1 and c0 < m[3] and m[1] < c1 for r0, c0, r1, c1 in written):
                a1 = f"{_a1_column(m[1])}{m[0] + 1}:{_a1_column(m[3] - 1)}{m[2]}"
                problems.append(Problem(tab, 0, "", _(
                    "объединённые ячейки {cells} там, куда программа записывает итоги; разъедините их "
                    "(Формат → Объединить ячейки → Отменить объединение) и повторите — ничего не записано"
                ).format(cells=a1)))
    if problems:
        raise CampaignError(problems)


def _marker_evidence(evidence: Evidence, marker: Sequence[WriteBlock], before: Tables) -> None:
    """Record the marker cells that differ from what the read saw: the proof a write landed."""
    tab = marker[-1].tab
    blocks = [b for b in marker if b.tab == tab]
    r0 = min(b.row for b in blocks) - 1
    c0 = min(b.col for b in blocks) - 1
    r1 = max(b.row - 1 + len(b.values) for b in blocks)
    c1 = max(b.col - 1 + max((len(v) for v in b.values), default=1) for b in blocks)
    old = before.get(tab, [])
    cells: dict[tuple[int, int], Cell] = {}
    for b in blocks:
        for dr, line in enumerate(b.values):
            for dc, value in enumerate(line):
                r, c = b.row - 1 + dr, b.col - 1 + dc
                before = old[r][c] if r < len(old) and c < len(old[r]) else None
                if _same(before, value):
                    cells.pop((r, c), None)
                else:
                    cells[(r, c)] = value
    evidence.marker_tab = tab
    evidence.marker_range = (r0, c0, max(r1 - r0, 1), max(c1 - c0, 1))
    evidence.marker_cells = cells


def _replace_pieces(
    sheet_id: int, before: Sequence[Sequence[Cell]] | None, rows: Sequence[Sequence[Cell]], info: SheetInfo,
    decimals: bool = False,
) -> list[Piece]:
    """The updateCells that turn ``before`` (what the read saw) into ``rows``.

    Only the rectangles that differ are written: runs of changed rows, each over the span of
    its changed columns, bounded (so a cell the new content leaves blank is cleared).  A tab
    the read did not see is written whole, bounded by the whole grid.
    """
    new = _trimmed_grid(rows)
    if before is None:
        request = {
            "updateCells": {
                "range": {"sheetId": sheet_id},
                "rows": _rows_data(new, trim=True),
                "fields": "userEnteredValue",
            }
        }
        return [Piece(request, (0, 0, info.rows, info.cols), decimals)]
    old = _trimmed_grid(before)
    changed: dict[int, list[int]] = {}
    for r in range(max(len(old), len(new))):
        a = old[r] if r < len(old) else []
        b = new[r] if r < len(new) else []
        cols = [c for c in range(max(len(a), len(b))) if not _identical(a[c] if c < len(a) else None,
                                                                        b[c] if c < len(b) else None)]
        if cols:
            changed[r] = cols
    return [
        _rect_piece(sheet_id, new, run, c0, c1, decimals)
        for run in _runs(changed)
        for c0, c1 in _column_spans(new, run, changed)
    ]


#: Re-sending unchanged cells between two changed columns costs more than a second rectangle
#: (its range and wrapping, about this many bytes) above this size.
SPLIT_BYTES = 160


def _column_spans(new: Grid, run: list[int], changed: Mapping[int, list[int]]) -> list[tuple[int, int]]:
    """The column spans (c0, c1 end-exclusive) to rewrite over a run of rows: the changed columns,
    joined across a gap of unchanged ones unless re-sending the gap costs more than a split."""
    cols = sorted({c for r in run for c in changed[r]})
    spans = [[cols[0], cols[0] + 1]]
    for c in cols[1:]:
        gap = 0
        for r in run:
            line = new[r] if r < len(new) else []
            gap += sum(len(str(line[g])) + 40 for g in range(spans[-1][1], min(c, len(line))) if line[g] is not None)
        if gap > SPLIT_BYTES:
            spans.append([c, c + 1])
        else:
            spans[-1][1] = c + 1
    return [(a, b) for a, b in spans]


def _rect_piece(sheet_id: int, new: Grid, run: list[int], c0: int, c1: int, decimals: bool) -> Piece:
    """A bounded updateCells over consecutive changed rows and columns ``c0 .. c1 - 1``."""
    r0, r1 = run[0], run[-1] + 1
    values = [(new[r] if r < len(new) else [])[c0:c1] for r in range(r0, r1)]
    request = {
        "updateCells": {
            "range": _grid_range(sheet_id, r0, r1, c0, c1),
            "rows": _rows_data(values, trim=True),
            "fields": "userEnteredValue",
        }
    }
    return Piece(request, (r0, c0, r1, c1), decimals)


def _block_request(sheet_id: int, block: WriteBlock) -> dict[str, Any]:
    """updateCells for a WriteBlock: anchored at its corner; ``None`` cells are cleared."""
    return {
        "updateCells": {
            "start": {"sheetId": sheet_id, "rowIndex": block.row - 1, "columnIndex": block.col - 1},
            "rows": _rows_data(block.values, trim=False),
            "fields": "userEnteredValue",
        }
    }


def _block_rect(block: WriteBlock) -> tuple[int, int, int, int]:
    """(r0, c0, r1, c1) of a WriteBlock, 0-based end-exclusive."""
    width = max((len(v) for v in block.values), default=0)
    return block.row - 1, block.col - 1, block.row - 1 + len(block.values), block.col - 1 + max(width, 1)


def _note_requests(sheet_id: int, notes: Sequence[tuple[int, int, str]]) -> list[dict[str, Any]]:
    """Cell notes as updateCells of the ``note`` field only: one request per run of consecutive
    rows in a column (an empty text clears the note)."""
    by_col: dict[int, dict[int, str]] = {}
    for row, col, text in notes:
        by_col.setdefault(col, {})[row] = text
    out: list[dict[str, Any]] = []
    for col, texts in sorted(by_col.items()):
        for run in _runs(texts):
            cells = [{"values": [{"note": texts[r][:30_000]} if texts[r] else {}]} for r in run]
            out.append(_anchored(sheet_id, run[0] - 1, col - 1, cells, "note"))
    return out
