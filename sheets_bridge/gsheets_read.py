"""What one read tells about a spreadsheet: its tabs as grids of raw cells, each tab's id, size and
merges, the editors of its protections, its locale, the write lock and the staging tabs a failed
write left, and the backend's own bookkeeping tab ``_strategos`` (where the tabs kept in other
spreadsheets live, what ``new`` shared)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.tables import Tables, is_blank

from . import book_mark, gsheets_lock, gsheets_sharing
from .gsheets_cells import _grid_of
from .gsheets_compact import POINT_DECIMAL_LOCALES
from .gsheets_lock import Lock

#: The hidden tab where the backend keeps its own bookkeeping: where tabs of other spreadsheets
#: live (private orders, the GM-only book) and what ``new`` shared (gsheets_sharing).
BACKEND_TAB = "_strategos"


#: A row of ``_strategos`` naming where tabs of an audience live: ``["@gm", <spreadsheet id>]``.
AUDIENCE_ROW = "@"
#: A row naming a whole audience's spreadsheet, ``["@@player:A", <spreadsheet id>]`` (a campaign with
#: hidden information): every tab there is that audience's, and none is listed by name in the
#: campaign, which every player reads; new tabs of that audience go there too.
BOOK_ROW = "@@"
#: The one row of a split campaign's ``_strategos`` (the spreadsheet every player reads):
#: ``["#keeper", <the GM's spreadsheet id>]``.  Everything else the backend keeps -- where each tab
#: lives, the spreadsheets' titles, who was given access (their e-mails) -- is in the GM's
#: spreadsheet's own ``_strategos``, which no player can open (issue 17 p3).  An older program takes
#: the row for a record row of a later version and leaves it alone.
KEEPER_ROW = "#keeper"
#: A row of the keeper's ``_strategos`` naming a tab the program put into an audience's own
#: spreadsheet: ``["#tab", <spreadsheet id>, <sheetId>]``.  A player's spreadsheet is writable by that
#: player, who may add sheets to it; only the tabs listed so are read from it (by their stable id,
#: never by a title found there: issue 23 p2).  The row names no title: it stays short, and a
#: rename by the GM keeps it true.
TAB_ROW = "#tab"


#: Prefix of hidden staging tabs used by oversized writes (deleted by the same write).
STAGE_PREFIX = "_strategos_stage_"

#: The hidden tab of the GM's spreadsheet holding what a write across spreadsheets still owes the
#: others (sheets_bridge/gsheets_journal.py); the engine never sees it.
JOURNAL_TAB = "_strategos_journal"


@dataclass
class SheetInfo:
    """A tab as the backend knows it: where it lives, its id and its grid size."""

    spreadsheet_id: str
    sheet_id: int
    title: str
    rows: int
    cols: int
    hidden: bool = False
    merges: list[tuple[int, int, int, int]] = field(default_factory=list)  # r0, c0, r1, c1 (end-exclusive)


@dataclass
class BookState:
    """What one read taught us about one spreadsheet."""

    spreadsheet_id: str
    sheets: dict[str, SheetInfo] = field(default_factory=dict)
    editors: list[str] = field(default_factory=list)  # editors of whole-tab protections
    stale_stages: list[int] = field(default_factory=list)  # staging tabs a failed write left behind
    locale: str = ""
    lock: Lock | None = None  # the write counter tab the read saw (gsheets_lock)
    backend_rows: int = 0  # rows of the ``_strategos`` tab
    keeper: str = ""  # the spreadsheet whose ``_strategos`` keeps the rest (KEEPER_ROW), if another one
    placed: dict[str, set[int]] = field(default_factory=dict)  # TAB_ROW: spreadsheet -> ids of the tabs put there
    record: gsheets_sharing.Record = field(default_factory=gsheets_sharing.Record)  # what `new` shared
    mark: book_mark.BookMark | None = None  # a player's or the GM's spreadsheet, not the campaign (``#book``)
    journal_id: int | None = None  # the journal tab the read saw (gsheets_journal), if any
    journal: list[list[Any]] = field(default_factory=list)  # its cells

    @property
    def decimal_point(self) -> bool:
        """Whether the spreadsheet reads "2.5" as a number (so decimals may be pasted as text)."""
        return self.locale in POINT_DECIMAL_LOCALES


def _absorb(spreadsheet_id: str, answer: Mapping[str, Any]) -> tuple[Tables, BookState, dict[str, str]]:
    """Tables, layout and the private-orders map (from ``_strategos``) of one read answer."""
    tables: Tables = {}
    book = BookState(spreadsheet_id, locale=str((answer.get("properties") or {}).get("locale") or ""))
    home: dict[str, str] = {}
    for sheet in answer.get("sheets", []):
        props = sheet.get("properties", {})
        grid_props = props.get("gridProperties", {})
        title = str(props.get("title", ""))
        info = SheetInfo(
            spreadsheet_id,
            int(props.get("sheetId", 0)),
            title,
            int(grid_props.get("rowCount", 0)),
            int(grid_props.get("columnCount", 0)),
            bool(props.get("hidden", False)),
        )
        for m in sheet.get("merges", []):
            info.merges.append((int(m.get("startRowIndex", 0)), int(m.get("startColumnIndex", 0)),
                                int(m.get("endRowIndex", info.rows)), int(m.get("endColumnIndex", info.cols))))
        for pr in sheet.get("protectedRanges", []):
            rng = pr.get("range") or {}
            users = (pr.get("editors") or {}).get("users") or []
            whole = not any(k in rng for k in ("startRowIndex", "endRowIndex", "startColumnIndex", "endColumnIndex"))
            if not book.editors and users and whole:
                book.editors = [str(u) for u in users]
        if title.startswith(STAGE_PREFIX):
            book.stale_stages.append(info.sheet_id)
            continue
        if title.startswith(gsheets_lock.LOCK_PREFIX):
            book.lock = gsheets_lock.found([sheet]) or book.lock
            continue
        if title == JOURNAL_TAB:
            book.journal_id, book.journal = info.sheet_id, _grid_of((sheet.get("data") or [{}])[0])
            continue
        book.sheets[title] = info
        grid = _grid_of((sheet.get("data") or [{}])[0])
        if title == BACKEND_TAB:
            book.backend_rows = len(grid)
            for line in grid[1:]:
                if line and str(line[0] or "").strip() == book_mark.ROW:
                    book.mark = book_mark.BookMark.from_cells(line[1:])
                    continue
                if len(line) > 1 and str(line[0] or "").strip() == KEEPER_ROW and not is_blank(line[1]):
                    book.keeper = str(line[1]).strip()
                    continue
                if _placed(line, book.placed):
                    continue
                if book.record.add(line):
                    continue
                if len(line) > 1 and not is_blank(line[0]) and not is_blank(line[1]):
                    home[str(line[0])] = str(line[1]).strip()
            continue
        tables[title] = grid
    return tables, book, home


def _placed(line: list[Any], placed: dict[str, set[int]]) -> bool:
    """Take a ``TAB_ROW`` of ``_strategos`` into ``placed`` (True), else leave the row (False); a row
    whose id is not a number is taken and ignored: it names no tab."""
    if not line or str(line[0] or "").strip() != TAB_ROW:
        return False
    if len(line) > 2 and not is_blank(line[1]):
        with contextlib.suppress(ValueError):
            placed.setdefault(str(line[1]).strip(), set()).add(int(float(str(line[2]))))
    return True


def _rid(rng: random.Random, used: set[int]) -> int:
    """A fresh positive 31-bit id (sheet or protected range) not in ``used``."""
    while True:
        value = rng.randrange(1_000_000, 2**31 - 1)
        if value not in used:
            used.add(value)
            return value
