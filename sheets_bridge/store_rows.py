"""The rows of the history without their chunks, and back.

A history row is [key, sha256, parts, *chunks] (engine/core/history.py).  A backend that keeps the
chunks out of its ordinary read writes the row as its index, [key, sha256, parts], and the chunks
elsewhere (.xlsx: a file beside the campaign, sheets_bridge/xlsx_store.py; Google: the notes of the
row's cells, sheets_bridge/gsheets_store.py); `lift` splits a write so, `fill` puts the chunks back
into what a read gave, for history, rollback, verify and report.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from engine.core import history
from engine.core.tables import Cell, Changeset, Grid, ReplaceTab, Tables, WriteBlock


@dataclass(frozen=True)
class Payload:
    """The chunks of one store row, lifted out of a write."""

    tab: str
    row: int  # the sheet row (1-based)
    key: Cell
    digest: str
    chunks: list[str]


def packed(line: list[Cell]) -> bool:
    """Whether a store row carries its chunks (an index row, or a header, does not)."""
    n = line[2] if len(line) > 2 else None
    return isinstance(n, int) and not isinstance(n, bool) and n > 0 and len(line) >= 3 + n \
        and all(isinstance(c, str) and c for c in line[3 : 3 + n])


def _index(line: list[Cell], tab: str, row: int, size: int | None, out: list[Payload]) -> list[Cell]:
    """The row as its index (its chunk cells blank), its chunks appended to `out`."""
    if row == 1 or not packed(line):
        return list(line)
    if size is not None:
        line = history.rechunked(line, size)
    n = int(line[2])  # type: ignore[arg-type]
    out.append(Payload(tab, row, line[0], str(line[1]), [str(c) for c in line[3 : 3 + n]]))
    return [line[0], line[1], n, *[None] * n]


def lift(changes: Changeset, size: int | None = None) -> tuple[Changeset, list[Payload]]:
    """`changes` with every store row written as its index, and the chunks those rows carried (cut
    again at `size` characters when given).  Changes without a store row are given back as they are."""
    if not any(history.is_store(t) for t in [*(r.tab for r in changes.replace), *(b.tab for b in changes.blocks)]):
        return changes, []
    out: list[Payload] = []
    replace: list[ReplaceTab] = []
    for rep in changes.replace:
        if history.is_store(rep.tab):
            rows: Grid = [_index(line, rep.tab, r, size, out) for r, line in enumerate(rep.rows, start=1)]
            rep = dataclasses.replace(rep, rows=[r[:3] if r and len(r) > 3 and r[3] is None else r for r in rows])
        replace.append(rep)
    blocks: list[WriteBlock] = []
    for block in changes.blocks:
        if history.is_store(block.tab) and block.col == 1:
            values = [_index(line, block.tab, block.row + dr, size, out) for dr, line in enumerate(block.values)]
            block = dataclasses.replace(block, values=values)
        blocks.append(block)
    return dataclasses.replace(changes, replace=replace, blocks=blocks), out


def fill(tables: Tables, chunks_of: Callable[[str, int, list[Cell]], list[str] | None]) -> Tables:
    """`tables` with each index row of a store tab given back its chunks: ``chunks_of(tab, row,
    line)`` finds them (None: the row stays an index, and reading its snapshot says so in words)."""
    out = dict(tables)
    for tab, grid in tables.items():
        if not history.is_store(tab):
            continue
        rows: Grid = []
        for r, line in enumerate(grid, start=1):
            n = line[2] if len(line) > 2 else None
            if r > 1 and isinstance(n, int) and not isinstance(n, bool) and n > 0 and not packed(line):
                found = chunks_of(tab, r, line)
                if found is not None:
                    line = [*line[:3], *_split(found, n)]
            rows.append(list(line))
        out[tab] = rows
    return out


def _split(chunks: list[str], n: int) -> list[str]:
    """The chunks as exactly `n` parts (a file keeps them joined)."""
    if len(chunks) == n:
        return chunks
    text = "".join(chunks)
    base, extra = divmod(len(text), n)
    parts, at = [], 0
    for i in range(n):
        size = base + (1 if i < extra else 0)
        parts.append(text[at : at + size])
        at += size
    return parts
