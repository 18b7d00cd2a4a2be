"""The history's snapshots of a Google campaign, in the notes of its cells.

The ordinary read of a spreadsheet (gsheets_batch.READ_FIELDS) takes the cells' entered values,
never their notes.  So a row of «_История» (engine/core/history.py) is
written as its index in the cells, [key, sha256, parts], and its chunks as the notes of the cells
to the right of it (D, E, …; at most 30,000 characters each, as the notes of the balance are):
check and resolve read a few short cells per window kept, and the write of a window appends one row
with its notes, in the same batch as the rest of the window (the notes travel with the marker).
Only history, rollback, verify and report ask for the notes (:func:`stored`: one more
``spreadsheets.get`` per spreadsheet holding the history, for that tab alone).

An old campaign (chunks in the cells' values) is read as it is: a row whose cells hold its chunks
needs no note.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.core import history
from engine.core.messages import _
from engine.core.tables import Cell, Changeset, Tables

from . import store_rows
from .google_http import StrategosClient
from .gsheets_batch import get_spreadsheet
from .gsheets_errors import google_errors

#: the longest chunk a note carries (gsheets_plan cuts a longer note there)
NOTE_CHUNK = 30_000
NOTE_FIELDS = "sheets(properties(title),data(rowData(values(note))))"


def lifted(changes: Changeset, before: Tables) -> Changeset:
    """`changes` with every store row written as its index and its chunks as notes; a row the read
    already saw with the same key, sha256 and parts (a rollback's history, cut) gets no notes again."""
    changes, payloads = store_rows.lift(changes, NOTE_CHUNK)
    notes = list(changes.notes)
    for p in payloads:
        seen = before.get(p.tab, [])
        old = seen[p.row - 1] if p.row - 1 < len(seen) else []
        if list(old[:3]) == [p.key, p.digest, len(p.chunks)]:
            continue
        notes += [(p.tab, p.row, 4 + i, chunk) for i, chunk in enumerate(p.chunks)]
    if notes == changes.notes:
        return changes
    return dataclasses.replace(changes, notes=notes)


def _quoted(title: str) -> str:
    return "'" + title.replace("'", "''") + "'"


def stored(client: StrategosClient, tables: Tables, home: Mapping[str, str], campaign: str) -> Tables:
    """`tables` with the chunks of each index row of a store tab read from its notes: one request per
    spreadsheet that holds such a tab (``home``: tab -> spreadsheet, else the campaign's)."""
    wanted: dict[str, list[str]] = {}
    for tab, grid in tables.items():
        if history.is_store(tab) and any(len(r) > 2 and isinstance(r[2], int) and not store_rows.packed(r)
                                         for r in grid[1:]):
            wanted.setdefault(home.get(tab, campaign), []).append(tab)
    if not wanted:
        return tables
    notes: dict[tuple[str, int, int], str] = {}
    with google_errors(_("чтение истории кампании в таблице Google")):
        for sid, titles in wanted.items():
            answer = get_spreadsheet(client, sid, NOTE_FIELDS, [_quoted(t) for t in titles])
            for sheet in answer.get("sheets", []):
                title = str((sheet.get("properties") or {}).get("title", ""))
                for data in sheet.get("data", []):
                    r0, c0 = int(data.get("startRow", 0)), int(data.get("startColumn", 0))
                    for r, row in enumerate(data.get("rowData", []) or []):
                        for c, value in enumerate((row or {}).get("values", []) or []):
                            text = (value or {}).get("note")
                            if text:
                                notes[(title, r0 + r + 1, c0 + c + 1)] = str(text)

    def chunks_of(tab: str, row: int, line: list[Cell]) -> list[str] | None:
        n = int(line[2])  # type: ignore[arg-type]
        found = [notes.get((tab, row, 4 + i)) for i in range(n)]
        return [str(f) for f in found] if all(found) else None

    return store_rows.fill(tables, chunks_of)


__all__: list[Any] = ["NOTE_CHUNK", "lifted", "stored"]
