"""Turn history kept inside the campaign: a snapshot of every tab before each resolve.

Why inside (a hidden tab «_История»): the snapshot is written in the same atomic write as the
turn it precedes, so history and state can never disagree; the same code serves .xlsx and
Google (no extra Drive request, so a resolve stays one read and one write). A snapshot is the
JSON of every tab's grid, gzip-compressed and base64-encoded in cells of at most 45,000
characters (Google's cell limit is 50,000).

A snapshot is keyed by the cursor that was open (engine/core/cursor.py): column A holds the turn
number for a stage-less cursor -- as every snapshot before stages does, so old entries read
unchanged -- and the cursor's key («3:cities», «12:battle:2») for a staged one. Snapshots are
appended in the calendar's order, so "before a cursor" is "in an earlier row": the history needs
no calendar.

Where the snapshots are (issue 24, point 5): a snapshot holds every tab but the history itself, and
the logs only as the campaign holds them -- their last windows (engine/core/logs.py): the rows a
window's resolve moved out of its logs ride in the snapshot row of that same window, under the key
:data:`MOVED`.  So a snapshot does not grow with the windows played, and a rollback that cuts the
history cuts the moved rows of the windows undone with it.  The history is read by history,
rollback, verify and report only: a backend may keep its chunks where its ordinary read does not go
(.xlsx: files beside the campaign; Google: the cells' notes), and then its read gives only the
index -- [key, sha256, parts] -- which is all check and resolve need (the kept cursors).
``Backend.stored`` brings the chunks back.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from . import meta
from .cursor import Calendar, Cursor, from_key
from .errors import CampaignError
from .messages import _
from .tables import Cell, CoreTab, Formula, Grid, Tables, is_blank

HISTORY = CoreTab("_История", "_History")
HISTORY_TITLES = HISTORY.titles  # by the campaign's language
HISTORY_TAB = HISTORY.ru
title = HISTORY.title
is_history = HISTORY.owns
#: the key, in a snapshot row's packed JSON, of the rows that window's resolve moved out of its logs
#: ({log tab: rows}); no tab can have this title in Excel ("[" is not allowed there)
MOVED = "[logs]"


def is_store(name: str) -> bool:
    """Whether ``name`` is a tab whose rows carry packed chunks (the history): no snapshot holds it,
    and a backend may keep its chunks out of its ordinary read."""
    return HISTORY.owns(name)


def tab_of(tables: Tables) -> str:
    """The campaign's history tab: the one it has (either language's title), else the title in the
    campaign's language (the meta tab's «Язык»/"Language")."""
    return HISTORY.found_in(tables) or title(meta.lang(tables) or "ru")
CHUNK = 32_000  # under a cell's limit in .xlsx (32,767; Google 50,000): a longer chunk is cut there


def _encode_cell(v: Cell) -> object:
    if isinstance(v, Formula):
        return {"f": str(v)}
    return v


def _decode_cell(v: object) -> Cell:
    if isinstance(v, dict) and "f" in v:
        return Formula(v["f"])
    return v  # type: ignore[return-value]


def pack(tables: Tables, moved: Tables | None = None) -> tuple[str, list[str]]:
    """(sha256, chunks) of a snapshot of every tab except the history itself, with the rows the
    window's resolve moved out of its logs (`moved`, engine/core/logs.py) when there are any."""
    data: dict[str, object] = {
        name: [[_encode_cell(c) for c in row] for row in grid] for name, grid in tables.items() if not is_store(name)
    }
    if moved:
        data[MOVED] = {tab: [[_encode_cell(c) for c in row] for row in grid] for tab, grid in moved.items()}
    return pack_data(data)


def pack_data(data: object) -> tuple[str, list[str]]:
    """(sha256 of the JSON, chunks of its gzip in base64) of any JSON-able data."""
    raw = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    digest = hashlib.sha256(raw).hexdigest()
    text = base64.b64encode(gzip.compress(raw, mtime=0)).decode()
    return digest, [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)] or [""]


def unpack(chunks: list[str], digest: str = "", where: str = "") -> Tables:
    """A snapshot back as tables; a damaged one is a CampaignError in words, naming `where`
    (e.g. «снимок хода 2: «_История», строка 3») -- never a zlib, base64 or JSON traceback."""
    data = unpack_data(chunks, digest, where)
    try:
        return {str(name): [[_decode_cell(c) for c in row] for row in grid] for name, grid in data.items()
                if name != MOVED}
    except (ValueError, TypeError, AttributeError):
        raise CampaignError(_("{where} повреждён: внутри не таблицы кампании").format(
            where=where or _("снимок истории"))) from None


def unpack_data(chunks: list[str], digest: str = "", where: str = "") -> dict:  # type: ignore[type-arg]
    """The JSON object `pack_data` packed; damage is a CampaignError in words, naming `where`."""
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
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise CampaignError(_("{where} повреждён: внутри не таблицы кампании").format(where=where))
    return data


@dataclass(frozen=True)
class Entry:
    """One kept window: the campaign as it was when `cursor` was open."""

    cursor: Cursor
    digest: str
    chunks: list[str]
    row: int
    tab: str = HISTORY_TAB
    parts: int = -1  # how many chunks the row says it has (-1: as many as `chunks`)

    @property
    def turn(self) -> int:
        return self.cursor.turn

    @property
    def size(self) -> int:
        return sum(len(c) for c in self.chunks)

    @property
    def where(self) -> str:
        """Where this snapshot is, in words (for messages)."""
        text = _("снимок хода {turn} (лист «{tab}», строка {row})")
        return text.format(turn=self.cursor, tab=self.tab, row=self.row)

    @property
    def loaded(self) -> bool:
        """Whether the chunks are here: a backend that keeps them out of its ordinary read gives
        only the index row until ``Backend.stored`` fetches them."""
        return self.parts < 0 or (len(self.chunks) == self.parts and all(self.chunks))

    def tables(self) -> Tables:
        return unpack(self.payload(), self.digest, self.where)

    def moved(self) -> Tables:
        """The rows this window's resolve moved out of its logs, by log ({} for none; every snapshot
        made before logs were trimmed holds its logs whole)."""
        data = unpack_data(self.payload(), self.digest, self.where).get(MOVED) or {}
        try:
            return {str(tab): [[_decode_cell(c) for c in row] for row in rows] for tab, rows in data.items()}
        except (TypeError, AttributeError):
            raise CampaignError(_("{where} повреждён: внутри не таблицы кампании").format(where=self.where)) from None

    def payload(self) -> list[str]:
        """The chunks, refused in words when the read that found this row did not fetch them."""
        if not self.loaded:
            raise CampaignError(_("{where}: содержимое снимка не прочитано — оно хранится отдельно от листа, и "
                                  "эту команду надо запускать через history, rollback, verify или report")
                                .format(where=self.where))
        return self.chunks


def header() -> list[Cell]:
    """The tab's header in the language of the campaign being written (rows are read by position)."""
    return [_("Ход"), "sha256", _("Частей"), _("Снимок")]


def entries(tables: Tables) -> list[Entry]:
    """The snapshots kept in a campaign, oldest first."""
    return rows_of(tables, tab_of(tables))


def rows_of(tables: Tables, tab: str) -> list[Entry]:
    """The packed rows of a history tab, in the tab's order."""
    out: list[Entry] = []
    for r, row in enumerate(tables.get(tab, [])[1:], start=2):
        if not row or is_blank(row[0]):
            continue
        try:
            cursor, n = from_key(row[0]), int(row[2])  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise CampaignError(_("лист «{tab}», строка {row}: повреждена запись истории — в столбцах A (ход) и C "
                                  "(частей) должны быть целые числа, а там {turn} и {parts}")
                                .format(tab=tab, row=r, turn=repr(row[0]),
                                        parts=repr(row[2] if len(row) > 2 else None))) from None
        out.append(Entry(cursor, str(row[1]), [str(c or "") for c in row[3 : 3 + n]], r, tab, n))
    return out


def _as_cursor(at: Cursor | int) -> Cursor:
    return at if isinstance(at, Cursor) else Cursor(at)


def entry(tables: Tables, at: Cursor | int, calendar: Calendar | None = None, lang: str = "ru") -> Entry:
    """The snapshot taken when `at` was open (a turn number is a stage-less cursor).  With the
    game's `calendar`, a missing one is named in the campaign's words («1:государство»), not by
    the stored key («1:state»)."""
    at = _as_cursor(at)
    for e in entries(tables):
        if e.cursor == at:
            return e

    def shown(c: Cursor) -> str:
        return calendar.format(c, lang) if calendar is not None else str(c)

    kept = ", ".join(shown(e.cursor) for e in entries(tables)) or _("нет")
    raise CampaignError(_("в истории нет хода {turn} (сохранены ходы: {kept})").format(turn=shown(at), kept=kept))


def following(tables: Tables, at: Cursor | int) -> Entry | None:
    """The snapshot kept right after `at`'s: the campaign as it was when the next window was open
    (None when `at` is the last resolved one: the live campaign is that)."""
    kept = entries(tables)
    i = next((i for i, e in enumerate(kept) if e.cursor == _as_cursor(at)), None)
    return kept[i + 1] if i is not None and i + 1 < len(kept) else None


def cell_for(cursor: Cursor | int) -> Cell:
    """Column A of a snapshot row: the turn number of a stage-less cursor (as before stages), the
    cursor's key for a staged one."""
    c = _as_cursor(cursor)
    return c.key() if c.staged else c.turn


def row_for(cursor: Cursor | int, tables: Tables) -> list[Cell]:
    digest, chunks = pack(tables)
    return [cell_for(cursor), digest, len(chunks), *chunks]


def history_grid(tables: Tables, keep_before: Cursor | int | None = None, tab: str | None = None) -> Grid:
    """The history tab's rows, optionally only those kept before the snapshot of `keep_before`
    (earlier rows: snapshots are appended in the calendar's order); a stage-less `keep_before`
    keeps the turns before it, as before stages."""
    tab = tab or tab_of(tables)
    rows: Grid = [header()]
    kept = {e.row: e for e in rows_of(tables, tab)}
    stop = None if keep_before is None else _as_cursor(keep_before)
    for r, row in enumerate(tables.get(tab, [])[1:], start=2):
        e = kept.get(r)
        if e is None:
            continue
        if stop is not None and stop.staged and e.cursor == stop:
            break
        if stop is not None and not stop.staged and e.turn >= stop.turn:
            continue
        rows.append(list(row))
    return rows


def rechunked(row: list[Cell], size: int) -> list[Cell]:
    """A store row with its chunks cut again at `size` characters (its parts count follows): for a
    backend whose place for chunks holds less than a cell (Google's notes, 30,000 characters)."""
    if len(row) < 3 or not isinstance(row[2], int) or any(not isinstance(c, str) for c in row[3 : 3 + row[2]]):
        return list(row)
    text = "".join(str(c) for c in row[3 : 3 + row[2]])
    chunks = [text[i : i + size] for i in range(0, len(text), size)] or [""]
    return [row[0], row[1], len(chunks), *chunks]


def rewritten(grid: Grid, change: Callable[[Tables], Tables]) -> Grid:
    """The history tab with every snapshot passed through `change` and packed again (its sha256
    follows the new content); rows that are not snapshots are kept as they are."""
    out: Grid = [list(grid[0])] if grid else [header()]
    tables = {HISTORY_TAB: grid}
    kept = {e.row: e for e in entries(tables)}
    for r, row in enumerate(grid[1:], start=2):
        e = kept.get(r)
        if e is None:
            out.append(list(row))
            continue
        digest, chunks = pack(change(e.tables()), e.moved())
        out.append([cell_for(e.cursor), digest, len(chunks), *chunks])
    return out


def with_moved(row: list[Cell], moved: Tables) -> list[Cell]:
    """A snapshot row packed again with the rows its window moved out of its logs."""
    n = int(row[2])  # type: ignore[arg-type]
    digest, chunks = pack(unpack([str(c) for c in row[3 : 3 + n]], str(row[1])), moved)
    return [row[0], digest, len(chunks), *chunks]
