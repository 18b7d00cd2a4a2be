"""Turn history kept inside the campaign: a snapshot of every tab before each resolve.

Why inside (a hidden tab «_История»): the snapshot is written in the same atomic write as the
turn it precedes, so history and state can never disagree; the same code serves .xlsx and
Google (no extra Drive request, so a resolve stays one read and one write). A snapshot is the
JSON of every tab's grid, gzip-compressed and base64-encoded in cells of at most 45,000
characters (Google's cell limit is 50,000).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from .errors import CampaignError
from .messages import _
from .tables import Cell, Formula, Grid, Tables, is_blank

HISTORY_TAB = "_История"
CHUNK = 32_000  # under a cell's limit in .xlsx (32,767; Google 50,000): a longer chunk is cut there


def _encode_cell(v: Cell) -> object:
    if isinstance(v, Formula):
        return {"f": str(v)}
    return v


def _decode_cell(v: object) -> Cell:
    if isinstance(v, dict) and "f" in v:
        return Formula(v["f"])
    return v  # type: ignore[return-value]


def pack(tables: Tables) -> tuple[str, list[str]]:
    """(sha256, chunks) of a snapshot of every tab except the history itself."""
    data = {
        name: [[_encode_cell(c) for c in row] for row in grid] for name, grid in tables.items() if name != HISTORY_TAB
    }
    raw = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    digest = hashlib.sha256(raw).hexdigest()
    text = base64.b64encode(gzip.compress(raw, mtime=0)).decode()
    return digest, [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)] or [""]


def unpack(chunks: list[str], digest: str = "", where: str = "") -> Tables:
    """A snapshot back as tables; a damaged one is a CampaignError in words, naming `where`
    (e.g. «снимок хода 2: «_История», строка 3») -- never a zlib, base64 or JSON traceback."""
    where = where or _("снимок истории")
    try:
        raw = gzip.decompress(base64.b64decode("".join(chunks), validate=True))
    except (ValueError, OSError, EOFError, zlib.error) as exc:  # binascii.Error is a ValueError
        raise CampaignError(_("{where} повреждён: его текст не читается как сжатый снимок ({kind}). Ячейки снимка "
                              "кто-то изменил; этот ход нельзя откатить или проверить.")
                            .format(where=where, kind=type(exc).__name__)) from None
    if digest and hashlib.sha256(raw).hexdigest() != digest:
        raise CampaignError(_("{where} повреждён: sha256 не совпадает с записанным ({digest}…)")
                            .format(where=where, digest=digest[:12]))
    try:
        data = json.loads(raw)
        return {str(name): [[_decode_cell(c) for c in row] for row in grid] for name, grid in data.items()}
    except (ValueError, TypeError, AttributeError):
        raise CampaignError(_("{where} повреждён: внутри не таблицы кампании").format(where=where)) from None


@dataclass(frozen=True)
class Entry:
    """One kept turn: the campaign as it was when `turn` was open."""

    turn: int
    digest: str
    chunks: list[str]
    row: int

    @property
    def size(self) -> int:
        return sum(len(c) for c in self.chunks)

    @property
    def where(self) -> str:
        """Where this snapshot is, in words (for messages)."""
        text = _("снимок хода {turn} (лист «{tab}», строка {row})")
        return text.format(turn=self.turn, tab=HISTORY_TAB, row=self.row)

    def tables(self) -> Tables:
        return unpack(self.chunks, self.digest, self.where)


def header() -> list[Cell]:
    """The tab's header in the language of the campaign being written (rows are read by position)."""
    return [_("Ход"), "sha256", _("Частей"), _("Снимок")]


def entries(tables: Tables) -> list[Entry]:
    """The snapshots kept in a campaign, oldest first."""
    out: list[Entry] = []
    for r, row in enumerate(tables.get(HISTORY_TAB, [])[1:], start=2):
        if not row or is_blank(row[0]):
            continue
        try:
            turn, n = int(row[0]), int(row[2])
        except (TypeError, ValueError):
            raise CampaignError(_("лист «{tab}», строка {row}: повреждена запись истории — в столбцах A (ход) и C "
                                  "(частей) должны быть целые числа, а там {turn} и {parts}")
                                .format(tab=HISTORY_TAB, row=r, turn=repr(row[0]),
                                        parts=repr(row[2] if len(row) > 2 else None))) from None
        out.append(Entry(turn, str(row[1]), [str(c or "") for c in row[3 : 3 + n]], r))
    return out


def entry(tables: Tables, turn: int) -> Entry:
    for e in entries(tables):
        if e.turn == turn:
            return e
    kept = ", ".join(str(e.turn) for e in entries(tables)) or _("нет")
    raise CampaignError(_("в истории нет хода {turn} (сохранены ходы: {kept})").format(turn=turn, kept=kept))


def row_for(turn: int, tables: Tables) -> list[Cell]:
    digest, chunks = pack(tables)
    return [turn, digest, len(chunks), *chunks]


def history_grid(tables: Tables, keep_before: int | None = None) -> Grid:
    """The history tab's rows, optionally only turns before `keep_before`."""
    rows: Grid = [header()]
    for r in tables.get(HISTORY_TAB, [])[1:]:
        if r and not is_blank(r[0]) and (keep_before is None or int(r[0]) < keep_before):
            rows.append(list(r))
    return rows


def rewritten(grid: Grid, change: Callable[[Tables], Tables]) -> Grid:
    """The history tab with every snapshot passed through `change` and packed again (its sha256
    follows the new content); rows that are not snapshots are kept as they are."""
    out: Grid = [list(grid[0])] if grid else [header()]
    tables = {HISTORY_TAB: grid}
    kept = {e.row: e for e in entries(tables)}
    for r, row in enumerate(grid[1:], start=2):
        e = kept.get(r)
        out.append(row_for(e.turn, change(e.tables())) if e is not None else list(row))
    return out
