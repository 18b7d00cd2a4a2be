"""The Google Sheets backend: one read and one atomic write per spreadsheet, on gspread's HTTP layer.

Why it looks the way it does
----------------------------
* **One read.**  :meth:`GoogleBackend.read` is a single ``spreadsheets.get`` with
  ``includeGridData`` and a tight ``fields`` mask (entered values -- formulas stay
  formulas -- plus each tab's id and grid size).  gspread's ``open_by_key`` would cost an
  extra metadata request, so the HTTP client is used directly.
* **One write.**  :meth:`GoogleBackend.write` turns a :class:`~engine.core.tables.Changeset`
  into a single ``spreadsheets:batchUpdate`` (which Google applies atomically): ``addSheet``
  / ``appendDimension`` when a tab is missing or too small, one ``updateCells`` per
  ``ReplaceTab`` (bounded by the whole sheet, so whatever the new content no longer covers is
  cleared) and per ``WriteBlock`` (a long run of one value down a column as one ``repeatCell``,
  columns of numbers as one ``pasteData`` of their digits), the turn marker last.  A batch above
  :data:`MAX_WRITE_BYTES` is *staged*: the heavy tabs are first written into hidden staging
  tabs in as many requests as needed, then one small final batch copies them over the real
  tabs (``copyPaste`` of entered values and formulas), writes the marker and deletes the
  staging tabs -- so the campaign itself still changes in one atomic step.
* **Player text stays text.**  Strings go out as ``stringValue`` (never ``USER_ENTERED``),
  only :class:`~engine.core.tables.Formula` cells become ``formulaValue``; ``pasteData``, which
  Google parses as typed, carries engine numbers only.
* **A retried write never applies twice.**  ``google_http`` retries non-idempotent
  requests only when they provably did not land; for the ambiguous cases (5xx, connection
  dropped after sending) every batch carries *evidence* that :meth:`StrategosHTTPClient.write_guard`
  checks with one small read: the turn marker's cells, or the ids of the tabs / protected
  ranges the batch adds.  Batches without such evidence consist of absolute writes only and
  are safe to repeat.
* **Private orders.**  A campaign may keep each player's order tab in a spreadsheet of its
  own; the hidden tab ``_strategos`` of the campaign lists ``[tab name, spreadsheet id]``.
  The engine still sees one ``Tables`` dict; the backend routes every change to the
  spreadsheet that holds the tab and writes the campaign (with the marker) last.  Tabs the
  ruleset declares ``audience="gm"`` (snapshots, every state's orders) live in a spreadsheet
  only the GM can open.
* **Two runs never revert each other.**  Every write opens with a compare-and-swap on a hidden
  lock tab (:mod:`sheets_bridge.gsheets_lock`); a run that read before another one wrote is
  refused as a whole.  A write over merged cells is refused before anything is sent.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gspread.utils import a1_range_to_grid_range, a1_to_rowcol

from engine.core import fit
from engine.core.errors import BackendError, CampaignError, Problem, UsageError
from engine.core.tables import (
    AUDIENCE_GM,
    Cell,
    Changeset,
    Chart,
    Formula,
    Grid,
    Highlight,
    Tables,
    TabSpec,
    WorkbookSpec,
    WriteBlock,
    apply_changes,
    column_index,
    is_blank,
)

from . import google_http, gsheets_lock, gsheets_sharing
from .google_http import (
    GoogleAmbiguousWriteError,
    GoogleBadRequestError,
    GoogleCredentialsError,
    GoogleError,
    GoogleNotFoundError,
    GooglePermissionError,
    GoogleProtectedRangeError,
    GoogleQuotaError,
    GoogleRetryExhausted,
    GoogleWriteAlreadyApplied,
    StrategosClient,
)
from .gsheets_lock import GoogleConcurrentWrite, Lock
from .xlsx import HEADER_FILL

__all__ = ["GoogleConcurrentWrite"]  # re-exported: callers catch it from here

#: Google recommends request payloads of at most 2 MB; bigger writes are staged.
MAX_WRITE_BYTES = 2 * 1024 * 1024
#: The hidden tab where the backend keeps its own bookkeeping: where tabs of other spreadsheets
#: live (private orders, the GM-only book) and what ``new`` shared (gsheets_sharing).
BACKEND_TAB = "_strategos"
#: A row of ``_strategos`` naming where tabs of an audience live: ``["@gm", <spreadsheet id>]``.
AUDIENCE_ROW = "@"
#: Title suffix of the GM-only spreadsheet of a private-orders campaign.
GM_BOOK_SUFFIX = " — ведущий"
#: Prefix of hidden staging tabs used by oversized writes (deleted by the same write).
STAGE_PREFIX = "_strategos_stage_"
#: What a read asks for: entered values (formulas as formulas) and each tab's id and size;
#: whole-sheet protections tell which editors a tab created later must get.
READ_FIELDS = (
    "spreadsheetId,properties(locale),sheets(properties(sheetId,title,index,hidden,gridProperties(rowCount,columnCount)),"
    "data(rowData(values(userEnteredValue))),protectedRanges(range,editors(users)),merges)"
)
#: What the write guard reads to find tabs / protected ranges a batch added.
PROBE_FIELDS = "sheets(properties(sheetId,title),protectedRanges(protectedRangeId))"
MARKER_FIELDS = "sheets(data(rowData(values(userEnteredValue))))"
#: Longest inline dropdown list we create (Google's data-validation list limit is about 500 items).
MAX_LIST_OPTIONS = 500
#: Rows a new non-order tab gets beyond its content, so log tabs grow without resizing every turn.
SPARE_ROWS = 100
MIN_COLUMNS = 26
WHITE = {"red": 1.0, "green": 1.0, "blue": 1.0}
URL_TEMPLATE = "https://docs.google.com/spreadsheets/d/{}/edit"
JSON_HEADERS = {"Content-Type": "application/json; charset=utf-8"}
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
SOURCE_RANGE = re.compile(r"^=?(?:'((?:[^']|'')+)'|([^'!]+))!\$?([A-Za-z]+)\$?(\d+)(?::\$?([A-Za-z]+)\$?(\d+))?$")


# =========================================================================== errors


class GoogleBackendError(BackendError):
    """Talking to Google failed; the message (Russian first) says what to do."""


class GoogleCredentialsMissing(GoogleBackendError):
    """No usable Google credentials (no key file, a broken one, a refused token)."""


class GoogleAccessError(GoogleBackendError):
    """The spreadsheet does not exist or is not shared with the service account."""


class GoogleQuotaExhausted(GoogleBackendError):
    """Google's per-minute quota stayed exhausted through every retry."""


class GoogleWriteUncertain(GoogleBackendError):
    """A write may or may not have landed and the check could not tell."""


def translate(exc: GoogleError, doing: str = "") -> GoogleBackendError:
    """The project's error for a ``google_http`` error (message kept, a hint added)."""
    prefix = f"{doing}: " if doing else ""
    text = f"{prefix}{exc}"
    if isinstance(exc, GoogleCredentialsError):
        return GoogleCredentialsMissing(
            f"{text}\nУкажите ключ сервисного аккаунта: --credentials FILE или переменная "
            f"{google_http.ENV_CREDENTIALS}; для личного аккаунта — --oauth-client-secrets FILE."
        )
    if isinstance(exc, GoogleQuotaError):
        return GoogleQuotaExhausted(text)
    if isinstance(exc, GoogleProtectedRangeError):
        return GoogleAccessError(text)
    if isinstance(exc, (GoogleNotFoundError, GooglePermissionError)):
        return GoogleAccessError(text)
    if isinstance(exc, GoogleAmbiguousWriteError):
        return GoogleWriteUncertain(
            f"{text}\nЕсли это был resolve, повторите его с --turn N: уже разрешённый ход не будет разрешён дважды."
        )
    if isinstance(exc, GoogleRetryExhausted) and isinstance(exc.last_error, GoogleQuotaError):
        return GoogleQuotaExhausted(text)
    return GoogleBackendError(text)


@contextlib.contextmanager
def google_errors(doing: str = "") -> Iterator[None]:
    """Turn ``google_http`` errors into :class:`GoogleBackendError` (the CLI prints them, exit 1)."""
    try:
        yield
    except GoogleError as exc:
        raise translate(exc, doing) from exc


# =========================================================================== clients


def default_token_cache() -> Path:
    """Where the OAuth refresh token is cached: ``$XDG_CONFIG_HOME/strategos`` or ``~/.config/strategos``."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "strategos" / "google-token.json"


def make_google_client(
    credentials: str | os.PathLike[str] | None = None,
    *,
    oauth_client_secrets: str | os.PathLike[str] | None = None,
    token_cache: str | os.PathLike[str] | None = None,
    **client_options: Any,
) -> StrategosClient:
    """A gspread client: a service account (``credentials`` or ``GOOGLE_APPLICATION_CREDENTIALS``)
    or, with ``oauth_client_secrets``, a person's own Google account (token cached on disk).

    ``client_options`` go to :func:`google_http.make_client` (retry policy, sleep, clock, timeout).
    """
    with google_errors():
        if oauth_client_secrets and not credentials:
            cache = token_cache or default_token_cache()
            return google_http.make_user_client(oauth_client_secrets, cache)
        return google_http.make_client(credentials, **client_options)


def account_email(client: StrategosClient) -> str | None:
    """The service account's e-mail, or None for a personal (OAuth) account."""
    auth = getattr(client.http_client, "auth", None)
    email = getattr(auth, "service_account_email", None)
    return str(email) if email and EMAIL.match(str(email)) else None


def spreadsheet_url(spreadsheet_id: str) -> str:
    """The browser URL of a spreadsheet."""
    return URL_TEMPLATE.format(spreadsheet_id)


# =========================================================================== cells


def cell_data(value: Cell) -> dict[str, Any]:
    """CellData for a value: text as ``stringValue`` (never parsed), only Formula as ``formulaValue``.

    ``None`` and ``""`` give ``{}``, which under the ``userEnteredValue`` mask clears the cell.
    """
    if value is None or (isinstance(value, str) and value == ""):
        return {}
    if isinstance(value, Formula):
        text = str(value)
        return {"userEnteredValue": {"formulaValue": text if text.startswith("=") else "=" + text}}
    if isinstance(value, bool):
        return {"userEnteredValue": {"boolValue": value}}
    if isinstance(value, int):
        return {"userEnteredValue": {"numberValue": value}}
    if isinstance(value, float) and math.isfinite(value):
        return {"userEnteredValue": {"numberValue": value}}
    return {"userEnteredValue": {"stringValue": str(value)}}


def cell_value(data: Mapping[str, Any] | None) -> Cell:
    """The raw cell of a CellData as the engine expects it (formulas as :class:`Formula`)."""
    entered = (data or {}).get("userEnteredValue")
    if not entered:
        return None
    if "formulaValue" in entered:
        return Formula(str(entered["formulaValue"]))
    if "stringValue" in entered:
        return str(entered["stringValue"])
    if "boolValue" in entered:
        return bool(entered["boolValue"])
    if "numberValue" in entered:
        number = entered["numberValue"]
        if isinstance(number, bool):
            return int(number)
        if isinstance(number, int):
            return number
        number = float(number)
        return int(number) if number.is_integer() and abs(number) < 2**53 else number
    if "errorValue" in entered:
        error = entered["errorValue"] or {}
        return str(error.get("message") or error.get("type") or "#ERROR!")
    return None


def _same(a: Cell, b: Cell) -> bool:
    """Cell equality as a sheet sees it: blank = blank, 2 = 2.0, formula text = text."""
    if is_blank(a) or is_blank(b):
        return is_blank(a) and is_blank(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return str(a) == str(b)


def _trimmed_row(line: Sequence[Cell]) -> list[Cell]:
    """A row without its trailing blank cells."""
    out = list(line)
    while out and is_blank(out[-1]):
        out.pop()
    return out


def _rows_data(rows: Sequence[Sequence[Cell]], *, trim: bool) -> list[dict[str, Any]]:
    """RowData for updateCells; ``trim`` drops trailing blanks (a bounded range clears them anyway)."""
    out: list[dict[str, Any]] = []
    for line in rows:
        cells = _trimmed_row(line) if trim else list(line)
        out.append({"values": [cell_data(v) for v in cells]} if cells else {})
    if trim:
        while out and not out[-1]:
            out.pop()
    return out


def quote_title(title: str) -> str:
    """A tab title as it appears in A1 notation."""
    return "'" + title.replace("'", "''") + "'"


def _a1_column(index: int) -> str:
    """0-based column index -> letters."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def _hex_color(text: str) -> dict[str, float]:
    """'#4A7A3D' -> Google's 0..1 RGB."""
    h = text.lstrip("#")
    if len(h) == 8:  # ARGB as openpyxl writes it
        h = h[2:]
    if len(h) != 6:
        return {"red": 0.3, "green": 0.3, "blue": 0.3}
    return {k: int(h[i : i + 2], 16) / 255 for k, i in (("red", 0), ("green", 2), ("blue", 4))}


def _dumps(obj: Any) -> bytes:
    """Compact UTF-8 JSON (Cyrillic as UTF-8, not \\u escapes: a third of the bytes)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


# =========================================================================== spreadsheet layout


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
    record: gsheets_sharing.Record = field(default_factory=gsheets_sharing.Record)  # what `new` shared

    @property
    def decimal_point(self) -> bool:
        """Whether the spreadsheet reads "2.5" as a number (so decimals may be pasted as text)."""
        return self.locale in POINT_DECIMAL_LOCALES


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


def _rid(rng: random.Random, used: set[int]) -> int:
    """A fresh positive 31-bit id (sheet or protected range) not in ``used``."""
    while True:
        value = rng.randrange(1_000_000, 2**31 - 1)
        if value not in used:
            used.add(value)
            return value


# =========================================================================== HTTP


def get_spreadsheet(
    client: StrategosClient, spreadsheet_id: str, fields: str, ranges: Sequence[str] = ()
) -> dict[str, Any]:
    """One ``spreadsheets.get`` with grid data under a ``fields`` mask (no gspread metadata call)."""
    params: list[tuple[str, str]] = [("includeGridData", "true"), ("fields", fields)]
    params += [("ranges", r) for r in ranges]
    response = client.http_client.request("get", f"{google_http.GOOGLE_SHEETS_URL}/{spreadsheet_id}", params=params)
    return dict(response.json())


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
                f"Запись в таблицу {spreadsheet_id} могла примениться, а проверить это не удалось: {exc}"
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


# =========================================================================== the backend


class GoogleBackend:
    """A campaign in a Google spreadsheet (plus, in private-orders mode, one per player's orders).

    ``read()`` costs one request per spreadsheet, ``write()`` one batchUpdate per spreadsheet
    it changes (several only when a write is above :data:`MAX_WRITE_BYTES`).
    """

    def __init__(
        self,
        client: StrategosClient,
        spreadsheet_id: str,
        *,
        max_write_bytes: int = MAX_WRITE_BYTES,
        rng: random.Random | None = None,
    ) -> None:
        self.client = client
        self.spreadsheet_id = spreadsheet_id
        self.location = spreadsheet_url(spreadsheet_id)
        self.max_write_bytes = max_write_bytes
        self.rng = rng or random.Random()
        self.books: dict[str, BookState] = {}
        self.tab_home: dict[str, str] = {}  # engine tab -> spreadsheet id, for tabs outside the campaign
        self.audience_home: dict[str, str] = {}  # audience ("gm") -> spreadsheet id for its new tabs
        self.tables: Tables | None = None
        self.batches_sent = 0
        self.backend_rows = 0  # rows of ``_strategos`` the read saw

    @classmethod
    def open(
        cls,
        spreadsheet_id: str,
        *,
        credentials: str | os.PathLike[str] | None = None,
        oauth_client_secrets: str | os.PathLike[str] | None = None,
        token_cache: str | os.PathLike[str] | None = None,
        client: StrategosClient | None = None,
        max_write_bytes: int = MAX_WRITE_BYTES,
        **client_options: Any,
    ) -> GoogleBackend:
        """A backend for an existing spreadsheet (no request is made until ``read``)."""
        client = client or make_google_client(
            credentials, oauth_client_secrets=oauth_client_secrets, token_cache=token_cache, **client_options
        )
        return cls(client, spreadsheet_id, max_write_bytes=max_write_bytes)

    # ----------------------------------------------------------------- read

    def read(self) -> Tables:
        """Every tab as a grid of raw cells: one request per spreadsheet involved."""
        with google_errors("чтение таблицы Google"):
            answer = get_spreadsheet(self.client, self.spreadsheet_id, READ_FIELDS)
            tables, book, home = _absorb(self.spreadsheet_id, answer)
            self.backend_rows = book.backend_rows
            books = {self.spreadsheet_id: book}
            private: dict[str, Tables] = {}
            tab_home: dict[str, str] = {}
            audience_home: dict[str, str] = {}
            for tab, sid in home.items():
                if sid == self.spreadsheet_id:
                    continue
                if sid not in private:
                    private[sid], books[sid], _ = _absorb(sid, get_spreadsheet(self.client, sid, READ_FIELDS))
                if tab.startswith(AUDIENCE_ROW):  # where new tabs of that audience go
                    audience_home[tab[len(AUDIENCE_ROW):]] = sid
                    continue
                if tab not in private[sid]:
                    raise GoogleBackendError(
                        f"В таблице {spreadsheet_url(sid)} нет листа «{tab}», хотя служебный лист "
                        f"«{BACKEND_TAB}» кампании указывает на неё."
                    )
                tables[tab] = private[sid][tab]
                tab_home[tab] = sid
        self.books, self.tab_home, self.tables = books, tab_home, tables
        self.audience_home = audience_home
        return {name: [list(r) for r in grid] for name, grid in tables.items()}

    # ----------------------------------------------------------------- write

    def write(self, changes: Changeset) -> None:
        """Apply every change: one atomic batch per spreadsheet involved (private order books
        first, the campaign with the turn marker last)."""
        if changes.is_empty():
            return
        changes.check_cells()  # a cell over Google's limit would fail the batch: refuse before any request
        before = self.tables if self.tables is not None else self._reread()
        parts: dict[str, Changeset] = {}

        def part(tab: str) -> Changeset:
            """The changes bound for the spreadsheet that holds ``tab``."""
            return parts.setdefault(self.tab_home.get(tab, self.spreadsheet_id), Changeset())

        for rep in changes.replace:
            if rep.beside and rep.beside not in self.tab_home:
                continue  # a private tab whose order tab is not in a book of its own: never into the public sheet
            home = self.audience_home.get(rep.readers)
            if home and rep.tab not in self.tab_home and not rep.beside:
                part(BACKEND_TAB).blocks.append(self._register(rep.tab, home))  # a new GM-only tab: into its book
            part(rep.beside or rep.tab).replace.append(rep)
        for block in changes.blocks:
            part(block.tab).blocks.append(block)
        for block in changes.marker:
            part(block.tab).marker.append(block)
        for note in changes.notes:
            part(note[0]).notes.append(note)
        for tab in changes.clear_notes:
            part(tab).clear_notes.append(tab)
        order = [sid for sid in parts if sid != self.spreadsheet_id]
        if self.spreadsheet_id in parts:
            order.append(self.spreadsheet_id)
        plans = [self._plan(sid, parts[sid], before) for sid in order]  # all refusals before any write
        try:
            with google_errors("запись в таблицу Google"):
                for sid, plan in zip(order, plans):
                    for batch in plan.batches:
                        self.batches_sent += 1
                        send_batch(self.client, sid, batch)
                    plan.commit()
        except BaseException:
            self.tables = None  # what the sheet holds now is unknown: the next write reads first
            raise
        self.tables = apply_changes(before, changes)

    @property
    def tab_ids(self) -> dict[str, str]:
        """Each tab of the last read -> a stable id that survives a rename, so the engine can
        follow the tabs it created (engine/core/tabs.py): the sheetId, prefixed with its
        spreadsheet's id for a tab in a private order book (a copy of the campaign keeps both)."""
        out: dict[str, str] = {}
        for title in self.tables or {}:
            sid = self.tab_home.get(title, self.spreadsheet_id)
            info = self.books.get(sid, BookState(sid)).sheets.get(title)
            if info is not None:
                out[title] = str(info.sheet_id) if sid == self.spreadsheet_id else f"{sid}/{info.sheet_id}"
        return out

    @property
    def private_order_tabs(self) -> frozenset[str]:
        """The tabs the last read found in spreadsheets of their own (private order books; the
        GM-only spreadsheet's tabs are not order tabs)."""
        gm_books = set(self.audience_home.values())
        return frozenset(tab for tab, sid in self.tab_home.items() if sid not in gm_books)

    def audit(self) -> list[str]:
        """Warnings about sharing and names that drifted from what ``new`` set (one Drive
        ``files.list``; nothing for a campaign made before ``new`` recorded them)."""
        book = self.books.get(self.spreadsheet_id)
        if book is None or not book.record:
            return []
        return gsheets_sharing.audit(self.client, book.record, account_email(self.client))

    def _register(self, tab: str, home: str) -> WriteBlock:
        """Route a tab the read did not see to ``home``; the row that records it in ``_strategos``."""
        self.tab_home[tab] = home
        self.backend_rows += 1
        return WriteBlock(BACKEND_TAB, self.backend_rows, 1, [[tab, home]])

    def _reread(self) -> Tables:
        """A write without a read first: read now (the plan needs tab ids, sizes and contents)."""
        self.read()
        return self.tables or {}

    # ----------------------------------------------------------------- planning

    def _plan(self, spreadsheet_id: str, changes: Changeset, before: Tables) -> Plan:
        """The batches that apply ``changes`` to one spreadsheet (one unless it is too big);
        ``before`` is what the read saw, so a ReplaceTab sends only what differs."""
        book = self.books[spreadsheet_id]
        used_ids = {s.sheet_id for s in book.sheets.values()} | set(book.stale_stages)
        if book.lock is not None:
            used_ids.add(book.lock.sheet_id)
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
                sheet_id = _rid(self.rng, used_ids)
                n_rows = max(rows_needed, len(spec.rows)) + SPARE_ROWS
                n_cols = max(cols_needed, _spec_width(spec), MIN_COLUMNS)
                structural.append(
                    {"addSheet": {"properties": _sheet_properties(spec, sheet_id, None, n_rows, n_cols)}}
                )
                evidence.added_sheets.add(sheet_id)
                structural += [r for r in _format_requests(spec, sheet_id) if "updateCells" not in r]
                if book.editors:
                    pid = _rid(self.rng, used_ids)
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
        note_requests += [r for tab, ns in notes.items() for r in _note_requests(infos[tab].sheet_id, ns)]
        marker_requests = [_block_request(infos[b.tab].sheet_id, b) for b in changes.marker]
        _refuse_merges(infos, per_tab, changes.marker)
        if changes.marker:
            _marker_evidence(evidence, changes.marker, before)

        if not (structural or any(per_tab.values()) or note_requests or marker_requests):
            return Plan([], lambda: None)
        # the compare-and-swap opens the batch that changes the campaign (gsheets_lock)
        lock, swap = gsheets_lock.swap(book.lock, _rid(self.rng, used_ids))
        if book.editors:
            swap.append(_protect_sheet(lock.sheet_id, _rid(self.rng, used_ids), book.editors, ()))
        structural = swap + structural
        evidence.lock_from, evidence.lock_to = book.lock, lock

        def commit() -> None:
            book.sheets.update(infos)
            book.stale_stages = []
            book.lock = lock

        content_size = {tab: sum(p.size for p in pieces) for tab, pieces in per_tab.items()}
        fixed = len(_dumps({"requests": structural + note_requests + marker_requests})) + 2
        if fixed + sum(content_size.values()) <= self.max_write_bytes:
            content = [r for pieces in per_tab.values() for p in pieces for r in p.requests]
            requests = structural + content + note_requests + marker_requests
            return Plan([Batch(requests, evidence)], commit)
        late: list[dict[str, Any]] = []
        if fixed > self.max_write_bytes // 2:
            # so many notes that they would crowd the final batch: they follow it, in batches of
            # their own (explanations of the numbers, not the state of the campaign)
            late, note_requests = note_requests, []
            fixed = len(_dumps({"requests": structural + marker_requests})) + 2
        after = functools.cache(lambda: apply_changes(before, changes))  # only a ragged staged block asks
        batches = self._staged(
            structural, per_tab, content_size, note_requests + marker_requests, evidence, infos, used_ids, fixed,
            after,
        )
        piece = self.max_write_bytes - 4096
        for chunk in _pack([part for r in late for part in _split_update(r, piece)], self.max_write_bytes):
            batches.append(Batch(chunk))
        return Plan(batches, commit)

    def _staged(
        self,
        structural: list[dict[str, Any]],
        per_tab: dict[str, list[Piece]],
        content_size: dict[str, int],
        marker_requests: list[dict[str, Any]],
        evidence: Evidence,
        infos: dict[str, SheetInfo],
        used_ids: set[int],
        fixed: int,
        after: Callable[[], Tables],
    ) -> list[Batch]:
        """An oversized write.  Just enough of the heaviest tabs' updates (whole pieces, or row
        bands of a piece) is written into hidden staging tabs first, packed into as few requests as
        the limit allows (the campaign itself is untouched meanwhile); then one final batch grows
        the real tabs, copies the staged rectangles over them (entered values and formulas;
        formats, dropdowns and protections of the real tab stay), writes the rest and the marker,
        and deletes the staging tabs: the campaign changes in that one atomic step.  ``after`` gives
        the tables as the write leaves them."""
        budget = self.max_write_bytes
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
        token = f"{self.rng.randrange(16**6):06x}"
        staging: list[dict[str, Any]] = []
        for n, (tab, pieces) in enumerate(staged.items()):
            info = infos[tab]
            stage_id = _rid(self.rng, used_ids)
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
                problems.append(Problem(tab, 0, "", (
                    f"объединённые ячейки {a1} там, куда программа записывает итоги; разъедините их "
                    "(Формат → Объединить ячейки → Отменить объединение) и повторите — ничего не записано")))
    if problems:
        raise CampaignError(problems)


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


#: Room left in a staged write's final batch for what estimates miss.
FINAL_SLACK = 8192
#: At most what a copyPaste of one staged rectangle adds to the final batch.
COPY_PASTE_BYTES = 320


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



@dataclass
class Piece:
    """One updateCells of a write and the rectangle it covers (0-based, end-exclusive)."""

    request: dict[str, Any]
    rect: tuple[int, int, int, int]  # r0, c0, r1, c1
    decimals: bool = False  # the spreadsheet reads a decimal point (see _compact)

    @functools.cached_property
    def requests(self) -> list[dict[str, Any]]:
        """What is sent for it: the updateCells with its runs and numbers compacted."""
        return _compact(self.request, self.decimals)

    @functools.cached_property
    def size(self) -> int:
        """Bytes it adds to a batch body (asked several times while a big write is planned)."""
        return sum(len(_dumps(r)) + 1 for r in self.requests)


@dataclass
class Plan:
    """The batches of one spreadsheet's write and what to remember once they are sent."""

    batches: list[Batch]
    commit: Callable[[], None]


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
        book.sheets[title] = info
        grid = _grid_of((sheet.get("data") or [{}])[0])
        if title == BACKEND_TAB:
            book.backend_rows = len(grid)
            for line in grid[1:]:
                if book.record.add(line):
                    continue
                if len(line) > 1 and not is_blank(line[0]) and not is_blank(line[1]):
                    home[str(line[0])] = str(line[1]).strip()
            continue
        tables[title] = grid
    return tables, book, home


def _identical(a: Cell, b: Cell) -> bool:
    """Whether writing ``b`` over ``a`` would change nothing (kind matters: text '=1' is no formula)."""
    if is_blank(a) or is_blank(b):
        return is_blank(a) and is_blank(b)
    if isinstance(a, Formula) or isinstance(b, Formula):
        return isinstance(a, Formula) and isinstance(b, Formula) and str(a) == str(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return isinstance(a, str) and isinstance(b, str) and a == b


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


def _runs(rows: Iterable[int]) -> list[list[int]]:
    """Row (or column) numbers grouped into runs of consecutive ones: [1, 2, 5] -> [[1, 2], [5]]."""
    out: list[list[int]] = []
    for r in sorted(rows):
        if out and r == out[-1][-1] + 1:
            out[-1].append(r)
        else:
            out.append([r])
    return out


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


def _trimmed_grid(rows: Sequence[Sequence[Cell]]) -> list[list[Cell]]:
    """Rows without trailing blank cells and trailing blank rows."""
    out = [_trimmed_row(r) for r in rows]
    while out and not out[-1]:
        out.pop()
    return out


# =========================================================================== request builders


def _grid_of(data: Mapping[str, Any]) -> Grid:
    """A GridData's rows as raw cells (trailing blanks trimmed, as Google returns them)."""
    grid: Grid = []
    for row in data.get("rowData") or []:
        grid.append([cell_value(v) for v in (row or {}).get("values") or []])
    while grid and all(is_blank(v) for v in grid[-1]):
        grid.pop()
    return grid


def _grid_range(sheet_id: int, r0: int, r1: int, c0: int, c1: int) -> dict[str, int]:
    """A bounded GridRange (0-based, end-exclusive)."""
    return {"sheetId": sheet_id, "startRowIndex": r0, "endRowIndex": r1, "startColumnIndex": c0, "endColumnIndex": c1}


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


def _retarget(req: dict[str, Any], sheet_id: int) -> dict[str, Any]:
    """The same updateCells aimed at another tab (the staging copy)."""
    body = dict(req["updateCells"])
    if "range" in body:
        body["range"] = dict(body["range"], sheetId=sheet_id)
    else:
        body["start"] = dict(body["start"], sheetId=sheet_id)
    return {"updateCells": body}


def _origin(body: Mapping[str, Any]) -> tuple[int, int, int]:
    """(sheetId, first row, first column) of an updateCells, bounded by ``range`` or anchored at ``start``."""
    if "range" in body:
        rng = body["range"]
        return int(rng["sheetId"]), int(rng.get("startRowIndex", 0)), int(rng.get("startColumnIndex", 0))
    start = body["start"]
    return int(start["sheetId"]), int(start.get("rowIndex", 0)), int(start.get("columnIndex", 0))


def _split_update(req: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    """Split an updateCells into row bands of at most ``limit`` bytes (anchored writes)."""
    body = req.get("updateCells")
    if body is None:
        return [req]
    rows = body.get("rows") or []
    if len(rows) <= 1 or len(_dumps(req)) <= limit:
        return [req]
    sheet_id, r0, c0 = _origin(body)
    return [_anchored(sheet_id, r0 + a, c0, rows[a:b], body["fields"]) for a, b in _row_bands(rows, limit)]


def _row_bands(rows: Sequence[Mapping[str, Any]], limit: int) -> list[tuple[int, int]]:
    """Consecutive slices (start, end) of RowData of at most ``limit`` bytes each (a single larger
    row makes a band of its own)."""
    bounds: list[tuple[int, int]] = []
    start, size = 0, 0
    for i, row in enumerate(rows):
        row_size = len(_dumps(row)) + 1
        if i > start and size + row_size > limit:
            bounds.append((start, i))
            start, size = i, 0
        size += row_size
    if rows:
        bounds.append((start, len(rows)))
    return bounds


#: A run of one value down a column shorter than this is never worth a repeatCell.
MIN_RUN = 4
#: Integers beyond this lose precision as text; they stay ``numberValue`` cells.
MAX_PASTED_INT = 10**15
#: What separates the fields of a pasteData row (numbers never contain it).
PASTE_DELIMITER = ","
#: Spreadsheet locales known to read "2.5" as a number: only there is a fraction pasted as text
#: (in ru_RU it would be read as a date).  A conservative allow-list: a locale missing from it
#: only costs bytes (its fractions stay ``numberValue`` cells).
POINT_DECIMAL_LOCALES = frozenset({"en_US", "en_GB", "en_AU", "en_CA", "en_IE", "en_IN", "en_NZ"})


def _compact(req: dict[str, Any], decimals: bool = False) -> list[dict[str, Any]]:
    """An updateCells with its long runs of one value sent as ``repeatCell`` and its columns of
    numbers as ``pasteData`` text.

    Same cells, fewer bytes: a cell costs ~40 bytes of JSON around its value, so a log tab that
    repeats its turn and unit on every row, or the balance figures of a thousand states, is
    mostly wrapping.  A repeatCell costs ~200 bytes whatever its length; a pasted integer costs its
    digits and a comma (``decimals``: the spreadsheet's locale reads a decimal point, so
    numbers with a fraction are pasted too).  The moved cells are cleared by the updateCells and filled by the
    requests that follow it (requests of a batch apply in order).  Only numbers are pasted --
    text is never parsed, so player text stays text -- and formulas are never repeated:
    repeatCell shifts their references row by row.
    """
    body = req.get("updateCells")
    if body is None or body.get("fields") != "userEnteredValue":
        return [req]
    rows: list[dict[str, Any]] = body.get("rows") or []
    if len(rows) < MIN_RUN:
        return [req]
    sheet_id, r0, c0 = _origin(body)
    values = [list(row.get("values") or []) for row in rows]
    taken: set[tuple[int, int]] = set()
    extra = _repeats(values, sheet_id, r0, c0, taken, decimals)
    extra += _pastes(values, sheet_id, r0, c0, taken, decimals)
    if not extra:
        return [req]
    skip = _leading_taken(body, values, taken)
    if skip and skip >= _width(body, values):
        return extra  # every cell it would write is written by what follows
    out_rows: list[dict[str, Any]] = []
    for r, line in enumerate(values):
        cells = [{} if (r, c) in taken else v for c, v in enumerate(line)][skip:]
        while cells and (r, skip + len(cells) - 1) in taken:
            cells.pop()  # cleared and then filled: no need to send
        out_rows.append({"values": cells} if cells else {})
    out = dict(body, rows=out_rows)
    if skip and "range" in body:
        out["range"] = dict(body["range"], startColumnIndex=c0 + skip)
    elif skip:
        out["start"] = dict(body["start"], columnIndex=c0 + skip)
    return [{"updateCells": out}, *extra]


def _leading_taken(body: Mapping[str, Any], values: list[list[dict[str, Any]]], taken: set[tuple[int, int]]) -> int:
    """How many leading columns the requests after an updateCells fill entirely, so it can start
    right of them.  A range must be bounded and covered in height: it clears what it is not given."""
    if "range" in body:
        rng = body["range"]
        height = int(rng.get("endRowIndex", -1)) - int(rng.get("startRowIndex", 0))
        if "endColumnIndex" not in rng or height != len(values):
            return 0
    skip = 0
    while skip < _width(body, values) and all((r, skip) in taken for r in range(len(values))):
        skip += 1
    return skip


def _width(body: Mapping[str, Any], values: list[list[dict[str, Any]]]) -> int:
    """Columns an updateCells covers: its range (which must have an end column), or its longest row."""
    if "range" in body:
        return int(body["range"]["endColumnIndex"]) - int(body["range"].get("startColumnIndex", 0))
    return max(len(v) for v in values)


def _column(values: list[list[dict[str, Any]]], col: int) -> list[dict[str, Any] | None]:
    """One column of a RowData matrix (``None`` past a short row)."""
    return [line[col] if col < len(line) else None for line in values]


def _repeats(
    values: list[list[dict[str, Any]]], sheet_id: int, r0: int, c0: int, taken: set[tuple[int, int]],
    decimals: bool,
) -> list[dict[str, Any]]:
    """repeatCell requests for the runs of one non-formula value worth one; marks their cells taken."""
    out: list[dict[str, Any]] = []
    for col in range(max(len(v) for v in values)):
        column = _column(values, col)
        start = 0
        while start < len(column):
            cell = column[start]
            end = start + 1
            while end < len(column) and column[end] is not None and column[end] == cell:
                end += 1
            entered = (cell or {}).get("userEnteredValue")
            if end - start >= MIN_RUN and entered and "formulaValue" not in entered:
                repeat = {
                    "repeatCell": {
                        "range": _grid_range(sheet_id, r0 + start, r0 + end, c0 + col, c0 + col + 1),
                        "cell": cell,
                        "fields": "userEnteredValue",
                    }
                }
                cost = (end - start) * (len(_dumps(cell)) - 2)
                text = _pasted(cell, decimals)
                if text is not None:
                    cost = min(cost, (end - start) * (len(text) + 1))
                if len(_dumps(repeat)) + 1 < cost:
                    out.append(repeat)
                    taken.update((r, col) for r in range(start, end))
            start = end
    return out


def _pasted(cell: Mapping[str, Any] | None, decimals: bool) -> str | None:
    """The text a cell is pasted as, when it holds a number that text carries exactly: an
    integer, or (``decimals``) a number whose 15 significant digits -- what Sheets keeps of a
    typed number -- give it back."""
    entered = (cell or {}).get("userEnteredValue")
    if not entered or len(entered) != 1 or len(cell or {}) != 1:
        return None
    number = entered.get("numberValue")
    if isinstance(number, bool) or not isinstance(number, (int, float)) or not abs(number) < MAX_PASTED_INT:
        return None
    if float(number).is_integer():
        return str(int(number))
    text = f"{number:.15g}"
    return text if decimals and "e" not in text and float(text) == number else None


def _pastes(
    values: list[list[dict[str, Any]]], sheet_id: int, r0: int, c0: int, taken: set[tuple[int, int]],
    decimals: bool,
) -> list[dict[str, Any]]:
    """pasteData requests for the rectangles of numbers worth one (neighbouring columns whose runs
    of pastable numbers span the same rows go together); marks their cells taken."""
    spans: dict[tuple[int, int], list[int]] = {}
    texts: list[list[str | None]] = []
    for col in range(max(len(v) for v in values)):
        texts.append([None if (r, col) in taken else _pasted(c, decimals) for r, c in enumerate(_column(values, col))])
        start = 0
        while start < len(values):
            end = start
            while end < len(values) and texts[col][end] is not None:
                end += 1
            if end - start >= MIN_RUN:
                spans.setdefault((start, end), []).append(col)
            start = end + 1
    out: list[dict[str, Any]] = []
    for (start, end), cols in spans.items():
        for group in _runs(cols):
            lines = (PASTE_DELIMITER.join(str(texts[c][r]) for c in group) for r in range(start, end))
            paste = {
                "pasteData": {
                    "coordinate": {"sheetId": sheet_id, "rowIndex": r0 + start, "columnIndex": c0 + group[0]},
                    "data": "\n".join(lines),
                    "type": "PASTE_VALUES",
                    "delimiter": PASTE_DELIMITER,
                }
            }
            cells = sum(len(_dumps(values[r][c])) - 2 for r in range(start, end) for c in group)
            if len(_dumps(paste)) + 1 < cells:
                out.append(paste)
                taken.update((r, c) for r in range(start, end) for c in group)
    return out


def _anchored(sheet_id: int, row: int, col: int, rows: list[dict[str, Any]], fields: str) -> dict[str, Any]:
    """An updateCells anchored at (row, col)."""
    return {
        "updateCells": {
            "start": {"sheetId": sheet_id, "rowIndex": row, "columnIndex": col},
            "rows": rows,
            "fields": fields,
        }
    }


def _spec_width(spec: TabSpec) -> int:
    """Columns a tab needs at creation: content, widths, dropdowns, input block."""
    width = max((len(r) for r in spec.rows), default=0)
    width = max([width, *[int(c) for c in spec.widths], *[v.column for v in spec.validations]])
    if spec.editable_columns:
        width = max(width, spec.editable_columns[1])
    for ch in spec.charts:
        width = max(width, ch.last_col, a1_to_rowcol(ch.anchor)[1])
    return max(width, 1)


def _sheet_properties(spec: TabSpec, sheet_id: int, index: int | None, rows: int, cols: int) -> dict[str, Any]:
    """SheetProperties of a new tab: title, grid, frozen panes, hidden, tab colour (``index``
    None = after the last tab)."""
    grid: dict[str, Any] = {"rowCount": rows, "columnCount": cols}
    if spec.frozen_rows:
        grid["frozenRowCount"] = min(spec.frozen_rows, rows)
    if spec.frozen_cols:
        grid["frozenColumnCount"] = min(spec.frozen_cols, cols)
    props: dict[str, Any] = {"sheetId": sheet_id, "title": spec.name, "gridProperties": grid}
    if index is not None:
        props["index"] = index
    if spec.hidden:
        props["hidden"] = True
    if spec.tab_color:
        props["tabColorStyle"] = {"rgbColor": _hex_color(spec.tab_color)}
    return props


def _format_requests(
    spec: TabSpec, sheet_id: int, *, lists: Mapping[str, tuple[str, ...] | None] | None = None
) -> list[dict[str, Any]]:
    """Content and looks of a new tab: values, header format, widths, wrapping, dropdowns, number
    formats, highlights, charts.  The spec's print setup is left out: the Sheets API has no page
    setup (orientation, fit to width and repeated rows are chosen in Google's print dialog).

    ``lists`` maps a dropdown's source range to its values when the range lives in another
    spreadsheet (private order books): ONE_OF_RANGE cannot cross spreadsheets.
    """
    out: list[dict[str, Any]] = []
    rows = _trimmed_grid(spec.rows)
    if rows:
        out.append(
            {
                "updateCells": {
                    "start": {"sheetId": sheet_id, "rowIndex": 0, "columnIndex": 0},
                    "rows": _rows_data(rows, trim=True),
                    "fields": "userEnteredValue",
                }
            }
        )
    header = _trimmed_row(spec.rows[0]) if spec.rows else []
    if header:
        out.append(
            {
                "repeatCell": {
                    "range": _grid_range(sheet_id, 0, 1, 0, len(header)),
                    "cell": {
                        "userEnteredFormat": {
                            "backgroundColorStyle": {"rgbColor": _hex_color(HEADER_FILL.get(spec.kind, "3B5B7A"))},
                            "textFormat": {"bold": True, "foregroundColorStyle": {"rgbColor": WHITE}},
                            "wrapStrategy": "WRAP" if spec.wrap_header else "OVERFLOW_CELL",
                            "verticalAlignment": "MIDDLE",
                        }
                    },
                    "fields": "userEnteredFormat(backgroundColorStyle,textFormat,wrapStrategy,verticalAlignment)",
                }
            }
        )
    fitted = fit.measure(spec)  # the same widths as the .xlsx: no header word broken
    for col, width in sorted(fitted.widths.items()):
        out.append(
            {
                "updateDimensionProperties": {
                    "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": col - 1, "endIndex": col},
                    "properties": {"pixelSize": int(width * 7 + 5)},
                    "fields": "pixelSize",
                }
            }
        )
    last = max(len(spec.rows), spec.format_rows, 2)
    for col in fitted.wrapped:  # long reasons wrap (Google fits the rows' heights itself)
        out.append(
            {
                "repeatCell": {
                    "range": _grid_range(sheet_id, 1, last, col - 1, col),
                    "cell": {"userEnteredFormat": {"wrapStrategy": "WRAP", "verticalAlignment": "TOP"}},
                    "fields": "userEnteredFormat(wrapStrategy,verticalAlignment)",
                }
            }
        )
    for v in spec.validations:
        rule = _validation_rule(v.options, v.source, v.strict, lists)
        if rule is None:
            continue
        out.append(
            {
                "setDataValidation": {
                    "range": _grid_range(sheet_id, v.first_row - 1, v.last_row or _creation_size(spec)[0], v.column - 1,
                                         v.column),
                    "rule": rule,
                }
            }
        )
    for col, pattern in sorted(spec.number_formats.items()):
        out.append(
            {
                "repeatCell": {
                    "range": _grid_range(sheet_id, 1, last, col - 1, col),
                    "cell": {"userEnteredFormat": {"numberFormat": {"type": "TEXT" if pattern == "@" else "NUMBER",
                                                                    "pattern": pattern}}},
                    "fields": "userEnteredFormat.numberFormat",
                }
            }
        )
    out += [_highlight_request(h, sheet_id, i) for i, h in enumerate(spec.highlights)]
    out += [_chart_request(ch, sheet_id) for ch in spec.charts]
    return out


def _highlight_request(h: Highlight, sheet_id: int, index: int) -> dict[str, Any]:
    """A conditional format rule: the highlight's custom formula colours its area."""
    return {
        "addConditionalFormatRule": {
            "rule": {
                "ranges": [a1_range_to_grid_range(h.area, sheet_id)],
                "booleanRule": {
                    "condition": {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": h.formula}]},
                    "format": {"backgroundColorStyle": {"rgbColor": _hex_color(h.color)}},
                },
            },
            "index": index,
        }
    }


def _chart_request(ch: Chart, sheet_id: int) -> dict[str, Any]:
    """The chart :class:`~engine.core.tables.Chart` describes (header row = series names), as the
    .xlsx backend draws it: a scatter chart with lines and a dot on every point, so that the x axis
    spans the turns played rather than every row of the block, and one turn shows as a point."""
    r0, r1 = ch.first_row - 1, ch.last_row

    def column(c: int) -> dict[str, Any]:
        return {"sourceRange": {"sources": [_grid_range(sheet_id, r0, r1, c - 1, c)]}}

    anchor_row, anchor_col = a1_to_rowcol(ch.anchor)
    style: dict[str, Any] = {"lineStyle": {"width": 2}}  # a scatter chart draws no lines without it
    if ch.markers:
        style["pointStyle"] = {"shape": "CIRCLE", "size": 6}
    return {
        "addChart": {
            "chart": {
                "spec": {
                    "title": ch.title,
                    "basicChart": {
                        "chartType": "SCATTER",
                        "legendPosition": "RIGHT_LEGEND",
                        "headerCount": 1,
                        "axis": [{"position": "LEFT_AXIS", "title": ch.y_title}] if ch.y_title else [],
                        "domains": [{"domain": column(ch.first_col)}],
                        "series": [
                            {"series": column(c), "targetAxis": "LEFT_AXIS", **style}
                            for c in range(ch.series_from or ch.first_col + 1, ch.last_col + 1)
                        ],
                    },
                },
                "position": {
                    "overlayPosition": {
                        "anchorCell": {"sheetId": sheet_id, "rowIndex": anchor_row - 1, "columnIndex": anchor_col - 1},
                        "widthPixels": 820,
                        "heightPixels": 340,
                    }
                },
            }
        }
    }


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


def _validation_rule(
    options: Sequence[str], source: str, strict: bool, lists: Mapping[str, tuple[str, ...] | None] | None
) -> dict[str, Any] | None:
    """A DataValidationRule: ONE_OF_LIST for inline options, ONE_OF_RANGE for a source range."""
    if options:
        values = [{"userEnteredValue": str(o)} for o in options]
        return {"condition": {"type": "ONE_OF_LIST", "values": values}, "strict": strict, "showCustomUi": True}
    if not source:
        return None
    if lists is not None and source in lists:
        items = lists[source]
        if not items:
            return None
        values = [{"userEnteredValue": str(o)} for o in items]
        return {"condition": {"type": "ONE_OF_LIST", "values": values}, "strict": strict, "showCustomUi": True}
    ref = source if source.startswith("=") else "=" + source
    return {"condition": {"type": "ONE_OF_RANGE", "values": [{"userEnteredValue": ref}]}, "strict": strict,
            "showCustomUi": True}


def _protect_sheet(sheet_id: int, pid: int, editors: Sequence[str], holes: Sequence[dict[str, int]]) -> dict[str, Any]:
    """A whole-tab protection (not warning-only) with ``editors``, minus ``holes``."""
    pr: dict[str, Any] = {
        "protectedRangeId": pid,
        "range": {"sheetId": sheet_id},
        "description": "Strategos: лист ведёт программа и ведущий",
        "warningOnly": False,
        "editors": {"users": list(editors)},
    }
    if holes:
        pr["unprotectedRanges"] = list(holes)
    return {"addProtectedRange": {"protectedRange": pr}}


def _protect_block(pid: int, block: dict[str, int], editors: Sequence[str], who: str) -> dict[str, Any]:
    """A protection of a player's input block: that player, the GM and the program may edit it."""
    return {
        "addProtectedRange": {
            "protectedRange": {
                "protectedRangeId": pid,
                "range": dict(block),
                "description": f"Strategos: приказы — {who}",
                "warningOnly": False,
                "editors": {"users": list(editors)},
            }
        }
    }


def _source_values(spec: WorkbookSpec, source: str) -> tuple[str, ...] | None:
    """The values of a dropdown's source range, taken from the spec (for private order books)."""
    m = SOURCE_RANGE.match(source.strip())
    if not m:
        return None
    tab = (m.group(1) or "").replace("''", "'") or (m.group(2) or "").strip()
    try:
        grid = spec.tab(tab).rows
    except KeyError:
        return None
    c0 = column_index(m.group(3)) - 1
    r0 = int(m.group(4)) - 1
    c1 = column_index(m.group(5) or m.group(3))
    r1 = int(m.group(6) or m.group(4))
    seen: list[str] = []
    for line in grid[r0:r1]:
        for value in line[c0:c1]:
            if not is_blank(value) and str(value) not in seen:
                seen.append(str(value))
    if not seen or len(seen) > MAX_LIST_OPTIONS:
        return None
    return tuple(seen)


# =========================================================================== creation


@dataclass
class CreatedCampaign:
    """Where a new campaign lives: the campaign spreadsheet and (private mode) each order book."""

    spreadsheet_id: str
    order_books: dict[str, str] = field(default_factory=dict)  # order tab -> spreadsheet id
    gm_book: str = ""  # private mode: the spreadsheet of the GM-only tabs (shared with the GM alone)
    requests: int = 0  # API requests creation took (token requests excluded)

    @property
    def url(self) -> str:
        """The campaign's URL."""
        return spreadsheet_url(self.spreadsheet_id)

    def order_urls(self) -> dict[str, str]:
        """Order tab -> URL of the spreadsheet holding it (private mode)."""
        return {tab: spreadsheet_url(sid) for tab, sid in self.order_books.items()}


def _check_people(spec: WorkbookSpec, gm: str | None, players: Mapping[str, str]) -> None:
    """Refuse unknown states and malformed addresses before anything is created."""
    owners = [t.owner for t in spec.tabs if t.kind == "orders" and t.owner]
    for email in ([gm] if gm else []) + list(players.values()):
        if not EMAIL.match(email or ""):
            raise UsageError(f"«{email}» не похоже на адрес электронной почты")
    unknown = [s for s in players if s not in owners]
    if unknown:
        raise UsageError(
            f"нет листа приказов для государства «{unknown[0]}»; листы приказов есть у: {', '.join(owners)}"
        )


class _Creator:
    """Builds the spreadsheets of a new campaign (several requests; counted in ``requests``)."""

    def __init__(self, client: StrategosClient, max_write_bytes: int, notify: bool) -> None:
        self.client = client
        self.http = client.http_client
        self.max_write_bytes = max_write_bytes
        self.notify = notify
        self.requests = 0
        self.rng = random.Random()

    def create_book(self, title: str, tabs: Sequence[tuple[TabSpec, int]], locale: str | None) -> str:
        """``spreadsheets.create`` with every tab's properties; returns the id."""
        sheets = []
        for index, (tab, sheet_id) in enumerate(tabs):
            n_rows, n_cols = _creation_size(tab)
            sheets.append({"properties": _sheet_properties(tab, sheet_id, index, n_rows, n_cols)})
        properties: dict[str, Any] = {"title": title}
        if locale:
            properties["locale"] = locale
        body = {"properties": properties, "sheets": sheets}
        self.requests += 1
        response = self.http.request(
            "post", google_http.GOOGLE_SHEETS_URL, data=_dumps(body), headers=dict(JSON_HEADERS)
        )
        return str(response.json()["spreadsheetId"])

    def fill(self, spreadsheet_id: str, content: list[dict[str, Any]], protection: list[dict[str, Any]]) -> None:
        """Content and formats, then dropdowns and protections, in as few batches as the size limit
        allows (each at most ``max_write_bytes``).  Dropdowns and protections go last: nobody can
        be confined to a half-built tab, and (in the emulator) the early batches stay light."""
        piece = self.max_write_bytes - 4096
        early = [
            c for r in content if "setDataValidation" not in r for p in _split_update(r, piece) for c in _compact(p)
        ]
        late = [r for r in content if "setDataValidation" in r] + protection
        chunks = _pack(early + late, self.max_write_bytes)
        if len(chunks) > 1:
            chunks = _pack(early, self.max_write_bytes) + _pack(late, self.max_write_bytes)
        for chunk in chunks:
            added = {
                int(r["addProtectedRange"]["protectedRange"]["protectedRangeId"])
                for r in chunk
                if "addProtectedRange" in r
            }
            self.requests += 1
            send_batch(self.client, spreadsheet_id, Batch(chunk, Evidence(added_protections=added)))

    def restrict(self, spreadsheet_id: str) -> None:
        """Drive's "writers can share" off: only the owner (the program) changes who has access."""
        self.requests += 1
        gsheets_sharing.restrict(self.client, spreadsheet_id)

    def share(self, spreadsheet_id: str, email: str, role: str) -> None:
        """One Drive permission (idempotent: retried safely)."""
        body = {"type": "user", "role": role, "emailAddress": email}
        params = {"sendNotificationEmail": "true" if self.notify else "false", "supportsAllDrives": "true"}
        self.requests += 1
        self.http.request(
            "post", f"{google_http.GOOGLE_DRIVE_URL}/{spreadsheet_id}/permissions", params=params, json=body
        )


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


def _creation_size(tab: TabSpec) -> tuple[int, int]:
    """Grid of a new tab: order tabs exactly their prepared rows, others with room to grow."""
    rows = max(len(tab.rows), 1)
    width = _spec_width(tab)
    if tab.kind == "orders":
        return rows, width
    return rows + SPARE_ROWS, max(width, MIN_COLUMNS)


def _input_block(tab: TabSpec, sheet_id: int) -> dict[str, int] | None:
    """The player's input block of an order tab: columns ``editable_columns``, rows 2..last."""
    if tab.kind != "orders" or not tab.editable_columns:
        return None
    first, last = tab.editable_columns
    n_rows, _ = _creation_size(tab)
    return _grid_range(sheet_id, 1, max(n_rows, 2), first - 1, last)


def create_campaign(
    spec: WorkbookSpec,
    client: StrategosClient,
    *,
    gm: str | None = None,
    players: Mapping[str, str] | None = None,
    private_orders: bool = False,
    notify: bool = True,
    locale: str | None = None,
    max_write_bytes: int = MAX_WRITE_BYTES,
) -> CreatedCampaign:
    """Create the campaign spreadsheet(s) from a WorkbookSpec, protect and share them.

    Every tab is protected (editors: the program's account and the GM); a player may edit
    only the input block of their own order tab.  With ``private_orders`` each order tab gets
    a spreadsheet of its own, shared with its player and the GM, and the campaign is shared
    with the players as readers; the hidden tab ``_strategos`` records where each order tab lives.
    ``locale`` is left to Google's default unless given (formulas keep their comma syntax).
    """
    players = dict(players or {})
    _check_people(spec, gm, players)
    owner = account_email(client)
    editors = [e for e in (owner, gm) if e]
    maker = _Creator(client, max_write_bytes, notify)
    used: set[int] = set()
    with google_errors("создание таблицы Google"):
        order_tabs = [t for t in spec.tabs if t.kind == "orders"] if private_orders else []
        # what only the GM may read goes into a spreadsheet only the GM can open (players can read
        # hidden tabs of a spreadsheet they can open through the API)
        gm_tabs = [t for t in spec.tabs if t.audience == AUDIENCE_GM] if private_orders else []
        book_tabs = [t for t in spec.tabs if t not in order_tabs and t not in gm_tabs]
        # the backend's own bookkeeping: where tabs live, what was shared with whom (gsheets_sharing)
        book_tabs.append(TabSpec(BACKEND_TAB, [["Лист", "Таблица"]], {1: 30, 2: 50}, hidden=True, kind="meta"))
        ids = [(t, _rid(maker.rng, used)) for t in book_tabs]
        campaign_id = maker.create_book(spec.title, ids, locale)
        created = CreatedCampaign(campaign_id)
        record = gsheets_sharing.Record({campaign_id: spec.title})
        for tab in order_tabs:
            sheet_id = _rid(maker.rng, used)
            record_name = f"{spec.title} — {tab.name}"
            book_id = maker.create_book(record_name, [(tab, sheet_id)], locale)
            record.names[book_id] = record_name
            lists = {v.source: _source_values(spec, v.source) for v in tab.validations if v.source}
            content = _format_requests(tab, sheet_id, lists=lists)
            maker.fill(book_id, content, _protections(tab, sheet_id, editors, players, maker.rng, used))
            created.order_books[tab.name] = book_id
        if gm_tabs:
            gm_ids = [(t, _rid(maker.rng, used)) for t in gm_tabs]
            created.gm_book = maker.create_book(f"{spec.title}{GM_BOOK_SUFFIX}", gm_ids, locale)
            record.names[created.gm_book] = f"{spec.title}{GM_BOOK_SUFFIX}"
            gm_content = [r for t, sid in gm_ids for r in _format_requests(t, sid)]
            gm_protection = [r for t, sid in gm_ids for r in _protections(t, sid, editors, {}, maker.rng, used)]
            maker.fill(created.gm_book, gm_content, gm_protection)
        shares: list[tuple[str, str, str]] = []  # (spreadsheet, e-mail, role), all planned before any is made
        if gm:
            shares += [(sid, gm, "writer") for sid in record.names]
        for state, email in players.items():
            shares.append((campaign_id, email, "reader" if private_orders else "writer"))
            shares += [(created.order_books[t.name], email, "writer") for t in order_tabs if t.owner == state]
        for sid, email, role in shares:
            record.shares.setdefault(sid, {})[email.casefold()] = role
        content: list[dict[str, Any]] = []
        protection: list[dict[str, Any]] = []
        for tab, sheet_id in ids:
            if tab.name == BACKEND_TAB:
                homes = [*created.order_books.items(), *((t.name, created.gm_book) for t in gm_tabs)]
                if created.gm_book:
                    homes.append((AUDIENCE_ROW + AUDIENCE_GM, created.gm_book))
                tab = TabSpec(BACKEND_TAB, [["Лист", "Таблица"], *[[n, s] for n, s in homes], *record.rows()],
                              tab.widths, hidden=True, kind="meta")
            content += _format_requests(tab, sheet_id)
            protection += _protections(tab, sheet_id, editors, players, maker.rng, used)
        maker.fill(campaign_id, content, protection)
        for sid in record.names:  # before anybody is given access: only the owner may share
            maker.restrict(sid)
        for sid, email, role in shares:
            maker.share(sid, email, role)
    created.requests = maker.requests
    return created


def _protections(
    tab: TabSpec,
    sheet_id: int,
    editors: Sequence[str],
    players: Mapping[str, str],
    rng: random.Random,
    used: set[int],
) -> list[dict[str, Any]]:
    """The protections of one new tab: all of it for the program and the GM, the input block
    of an order tab also for its player."""
    block = _input_block(tab, sheet_id)
    out = [_protect_sheet(sheet_id, _rid(rng, used), editors, [block] if block else [])]
    if block is not None:
        player = players.get(tab.owner)
        who = [*editors, player] if player else list(editors)
        out.append(_protect_block(_rid(rng, used), block, who, tab.owner))
    return out


def create(
    spec: WorkbookSpec,
    *,
    credentials: str | os.PathLike[str] | None = None,
    oauth_client_secrets: str | os.PathLike[str] | None = None,
    token_cache: str | os.PathLike[str] | None = None,
    client: StrategosClient | None = None,
    gm: str | None = None,
    players: Mapping[str, str] | None = None,
    private_orders: bool = False,
    notify: bool = True,
    max_write_bytes: int = MAX_WRITE_BYTES,
    **client_options: Any,
) -> CreatedCampaign:
    """Create a campaign on Google Sheets (see :func:`create_campaign`), building the client."""
    client = client or make_google_client(
        credentials, oauth_client_secrets=oauth_client_secrets, token_cache=token_cache, **client_options
    )
    return create_campaign(
        spec, client, gm=gm, players=players, private_orders=private_orders, notify=notify,
        max_write_bytes=max_write_bytes,
    )
