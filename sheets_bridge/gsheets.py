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
  own; the hidden tab ``_strategos`` lists ``[tab name, spreadsheet id]`` -- in the GM's
  spreadsheet, which the campaign's own ``_strategos`` names (``["#keeper", id]``) and nothing else.
  The engine still sees one ``Tables`` dict; the backend routes every change to the
  spreadsheet that holds the tab.  A write to the GM's spreadsheet and others is one
  transaction: the GM's first, with a journal of what the others are owed, which every read
  delivers if a run stopped half-way (``gsheets_journal``); otherwise the campaign (with the
  marker) is written last.  Tabs the
  ruleset declares the GM's (snapshots, every side's orders) live in a spreadsheet only the GM
  can open, and a side's own tabs in that side's (engine/core/audience.py).
* **Two runs never revert each other.**  Every write opens with a compare-and-swap on a hidden
  lock tab (:mod:`sheets_bridge.gsheets_lock`); a run that read before another one wrote is
  refused as a whole.  A write over merged cells is refused before anything is sent.

Where the code lives
--------------------
This module is the facade: :class:`GoogleBackend` (a read, a write routed to the spreadsheets
that hold its tabs) and every name the rest of the code and the tests use.  The parts, one concern
each: ``gsheets_errors`` (the project's errors), ``gsheets_client`` (clients, URLs),
``gsheets_cells`` (cells <-> JSON), ``gsheets_batch`` (the read request, batches, the write
guard's evidence), ``gsheets_read`` (what a read says about a spreadsheet), ``gsheets_plan``
(planning a write), ``gsheets_stage`` (staging an oversized one), ``gsheets_compact`` (fewer
bytes for the same cells), ``gsheets_format`` (the looks of a new tab), ``gsheets_protect``
(protections), ``gsheets_create`` (creating and sharing a campaign), ``gsheets_lock`` (two runs
never revert each other), ``gsheets_journal`` (one transaction across spreadsheets) and
``gsheets_sharing`` (auditing who has access).
"""

from __future__ import annotations

import os
import random
from typing import Any

from gspread.utils import a1_range_to_grid_range, a1_to_rowcol

from engine.core.audience import GM, PLAYER_PREFIX, Audience
from engine.core.messages import _
from engine.core.tables import Changeset, Tables, WriteBlock, apply_changes

from . import google_http, gsheets_gate, gsheets_journal, gsheets_lock, gsheets_sharing, gsheets_store
from .base import Backend
from .book_mark import BookMark
from .google_http import StrategosClient
from .gsheets_batch import (
    JSON_HEADERS,
    MARKER_FIELDS,
    MAX_WRITE_BYTES,
    PROBE_FIELDS,
    READ_FIELDS,
    Batch,
    Evidence,
    _pack,
    get_spreadsheet,
    landed,
    send_batch,
)
from .gsheets_cells import (
    _a1_column,
    _dumps,
    _grid_of,
    _grid_range,
    _identical,
    _rows_data,
    _runs,
    _same,
    _trimmed_grid,
    _trimmed_row,
    cell_data,
    cell_value,
    quote_title,
)
from .gsheets_client import (
    EMAIL,
    URL_TEMPLATE,
    account_email,
    default_token_cache,
    make_google_client,
    spreadsheet_url,
)
from .gsheets_compact import (
    MAX_PASTED_INT,
    MIN_RUN,
    PASTE_DELIMITER,
    POINT_DECIMAL_LOCALES,
    Piece,
    _anchored,
    _column,
    _compact,
    _leading_taken,
    _origin,
    _pasted,
    _pastes,
    _repeats,
    _row_bands,
    _split_update,
    _width,
)
from .gsheets_create import (
    GM_BOOK_SUFFIX,
    CreatedCampaign,
    _check_people,
    _creation_size,
    _Creator,
    _input_block,
    _protections,
    create,
    create_campaign,
)
from .gsheets_errors import (
    GoogleAccessError,
    GoogleBackendError,
    GoogleCredentialsMissing,
    GoogleQuotaExhausted,
    GoogleWriteUncertain,
    google_errors,
    translate,
)
from .gsheets_format import (
    MAX_LIST_OPTIONS,
    MIN_COLUMNS,
    SOURCE_RANGE,
    SPARE_ROWS,
    WHITE,
    _chart_request,
    _format_requests,
    _hex_color,
    _highlight_request,
    _sheet_properties,
    _source_values,
    _spec_width,
    _validation_rule,
)
from .gsheets_lock import GoogleConcurrentWrite, Lock
from .gsheets_plan import (
    SPLIT_BYTES,
    Plan,
    _block_rect,
    _block_request,
    _column_spans,
    _marker_evidence,
    _note_requests,
    _rect_piece,
    _refuse_merges,
    _replace_pieces,
    plan_write,
)
from .gsheets_protect import _protect_block, _protect_sheet
from .gsheets_read import (
    AUDIENCE_ROW,
    BACKEND_TAB,
    BOOK_ROW,
    KEEPER_ROW,
    STAGE_PREFIX,
    TAB_ROW,
    BookState,
    SheetInfo,
    _absorb,
    _rid,
)
from .gsheets_stage import COPY_PASTE_BYTES, FINAL_SLACK, _bands, _filled, _retarget, stage_write

#: Re-exported: the rest of the code and the tests use these names from here (the facade).
__all__ = [
    "AUDIENCE_ROW",
    "BACKEND_TAB",
    "COPY_PASTE_BYTES",
    "EMAIL",
    "FINAL_SLACK",
    "GM_BOOK_SUFFIX",
    "JSON_HEADERS",
    "KEEPER_ROW",
    "MARKER_FIELDS",
    "MAX_LIST_OPTIONS",
    "MAX_PASTED_INT",
    "MAX_WRITE_BYTES",
    "MIN_COLUMNS",
    "MIN_RUN",
    "PASTE_DELIMITER",
    "POINT_DECIMAL_LOCALES",
    "PROBE_FIELDS",
    "READ_FIELDS",
    "SOURCE_RANGE",
    "SPARE_ROWS",
    "SPLIT_BYTES",
    "STAGE_PREFIX",
    "TAB_ROW",
    "URL_TEMPLATE",
    "WHITE",
    "Batch",
    "BookState",
    "CreatedCampaign",
    "Evidence",
    "GoogleAccessError",
    "GoogleBackendError",
    "GoogleConcurrentWrite",
    "GoogleCredentialsMissing",
    "GoogleQuotaExhausted",
    "GoogleWriteUncertain",
    "Lock",
    "Piece",
    "Plan",
    "SheetInfo",
    "StrategosClient",
    "_Creator",
    "_a1_column",
    "_absorb",
    "_anchored",
    "_bands",
    "_block_rect",
    "_block_request",
    "_chart_request",
    "_check_people",
    "_column",
    "_column_spans",
    "_compact",
    "_creation_size",
    "_dumps",
    "_filled",
    "_format_requests",
    "_grid_of",
    "_grid_range",
    "_hex_color",
    "_highlight_request",
    "_identical",
    "_input_block",
    "_leading_taken",
    "_marker_evidence",
    "_note_requests",
    "_origin",
    "_pack",
    "_pasted",
    "_pastes",
    "_protect_block",
    "_protect_sheet",
    "_protections",
    "_rect_piece",
    "_refuse_merges",
    "_repeats",
    "_replace_pieces",
    "_retarget",
    "_rid",
    "_row_bands",
    "_rows_data",
    "_runs",
    "_same",
    "_sheet_properties",
    "_source_values",
    "_spec_width",
    "_split_update",
    "_trimmed_grid",
    "_trimmed_row",
    "_validation_rule",
    "_width",
    "a1_range_to_grid_range",
    "a1_to_rowcol",
    "account_email",
    "cell_data",
    "cell_value",
    "create",
    "create_campaign",
    "default_token_cache",
    "get_spreadsheet",
    "google_errors",
    "google_http",
    "gsheets_lock",
    "gsheets_sharing",
    "landed",
    "make_google_client",
    "plan_write",
    "quote_title",
    "send_batch",
    "spreadsheet_url",
    "stage_write",
    "translate",
]


class GoogleBackend(Backend):
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
        self.whole_books: set[str] = set()  # audiences' spreadsheets whose tabs are not listed by name
        self.tables: Tables | None = None
        self.batches_sent = 0
        self.backend_rows = 0  # rows of ``_strategos`` the read saw (the keeper's)
        self.keeper = spreadsheet_id  # the spreadsheet whose ``_strategos`` keeps the bookkeeping (KEEPER_ROW)
        self.mark: BookMark | None = None  # the read found a player's or the GM's spreadsheet, not the campaign
        # tabs of a player's spreadsheet the last read did not take (spreadsheet, side, title): audit names them
        self.foreign: list[tuple[str, str, str]] = []
        self.finished: list[str] = []  # what reads finished of another run's journaled write (gsheets_journal)
        self._completing = False  # a read is delivering a journal: the read it makes after does not again

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
        with google_errors(_("чтение таблицы Google")):
            answer = get_spreadsheet(self.client, self.spreadsheet_id, READ_FIELDS)
            tables, book, home = _absorb(self.spreadsheet_id, answer)
            self.mark = book.mark or _gm_book_of_old(self.spreadsheet_id, book, home)
            if self.mark is not None:  # not the campaign: nothing more is read (every command refuses it)
                self.books, self.tab_home, self.tables = {self.spreadsheet_id: book}, {}, tables
                return {name: [list(r) for r in grid] for name, grid in tables.items()}
            books = {self.spreadsheet_id: book}
            private: dict[str, Tables] = {}
            keeper = self.spreadsheet_id
            if book.keeper and book.keeper != self.spreadsheet_id:  # the bookkeeping is in the GM's spreadsheet
                keeper = book.keeper
                answer = get_spreadsheet(self.client, keeper, READ_FIELDS)
                private[keeper], books[keeper], kept = _absorb(keeper, answer)
                home = {**home, **kept}
            self.backend_rows = books[keeper].backend_rows
            tab_home: dict[str, str] = {}
            audience_home: dict[str, str] = {}
            whole_books: set[str] = set()
            for sid in home.values():
                if sid != self.spreadsheet_id and sid not in private:
                    private[sid], books[sid], _unused = _absorb(sid, get_spreadsheet(self.client, sid, READ_FIELDS))
            # the GM's book before the players': a title a player's book shares with it is never theirs
            rows = sorted(home.items(), key=lambda kv: kv[0].startswith(BOOK_ROW + PLAYER_PREFIX))
            gate = gsheets_gate.Gate(books[keeper].placed, {sid: private[sid] for key, sid in rows
                                                if key.startswith(BOOK_ROW + PLAYER_PREFIX)})
            for tab, sid in rows:
                if sid == self.spreadsheet_id:
                    continue
                if tab.startswith(BOOK_ROW):  # a whole audience's book: all its tabs live there
                    key = tab[len(BOOK_ROW):]
                    audience_home[key] = sid
                    whole_books.add(sid)
                    for title, grid in private[sid].items():
                        if key.startswith(PLAYER_PREFIX) and not gate.admits(sid, books[sid].sheets[title], tables):
                            continue  # a tab the program did not put there for that side: named by audit
                        if title not in tables:
                            tables[title] = grid
                            tab_home[title] = sid
                    continue
                if tab.startswith(AUDIENCE_ROW):  # where new tabs of that audience go
                    audience_home[tab[len(AUDIENCE_ROW):]] = sid
                    continue
                if tab not in private[sid]:
                    raise GoogleBackendError(
                        _(
                            "В таблице {url} нет листа «{tab}», хотя служебный лист «{backend}» кампании "
                            "указывает на неё."
                        ).format(url=spreadsheet_url(sid), tab=tab, backend=BACKEND_TAB)
                    )
                tables[tab] = private[sid][tab]
                tab_home[tab] = sid
            if keeper != self.spreadsheet_id and books[keeper].journal_id is not None and not self._completing:
                self._completing = True  # the read after a delivery finds the journal complete
                try:
                    if self._complete(books, keeper):
                        return self.read()  # the campaign as the completed write left it
                finally:
                    self._completing = False
        self.foreign = [(sid, Audience.parse(key[len(BOOK_ROW):]).side, title) for key, sid in rows
                        for title in gate.refused.get(sid, ())]
        self.books, self.tab_home, self.tables = books, tab_home, tables
        self.audience_home, self.whole_books, self.keeper = audience_home, whole_books, keeper
        return {name: [list(r) for r in grid] for name, grid in tables.items()}

    # ----------------------------------------------------------------- write

    def write(self, changes: Changeset) -> None:
        """Apply every change: one atomic batch per spreadsheet involved (private order books
        first, the campaign with the turn marker last)."""
        if changes.is_empty():
            return
        changes.check_cells()  # a cell over Google's limit would fail the batch: refuse before any request
        before = self.tables if self.tables is not None else self._reread()
        changes = gsheets_store.lifted(changes, before)  # the store rows' chunks as notes (gsheets_store)
        parts: dict[str, Changeset] = {}

        def part(tab: str) -> Changeset:
            """The changes bound for the spreadsheet that holds ``tab``."""
            home = self.keeper if tab == BACKEND_TAB else self.tab_home.get(tab, self.spreadsheet_id)
            return parts.setdefault(home, Changeset())

        for rep in changes.replace:
            if rep.beside and rep.beside not in self.tab_home:
                continue  # a private tab whose order tab is not in a book of its own: never into the public sheet
            declared = changes.audiences.get(rep.tab)  # the game's view at this write (Ruleset.tab_audiences)
            readers = rep.audience or declared or rep.readers
            if self.whole_books and rep.audience is None and declared is None and rep.spec is None \
                    and rep.tab not in before:
                readers = GM  # a new tab nobody declared, in a campaign with hidden information: the GM's
            home = self.audience_home.get(readers.key)
            if home and rep.tab not in self.tab_home and not rep.beside:
                if home in self.whole_books:  # found there by the next read: its name stays out of the campaign
                    self.tab_home[rep.tab] = home
                else:
                    part(BACKEND_TAB).blocks.append(self._register(rep.tab, home))  # a new GM-only tab: into its book
            part(rep.beside or rep.tab).replace.append(rep)
        for block in changes.blocks:
            if self.whole_books and block.tab not in before and block.tab not in self.tab_home:
                # a tab this block creates, in a campaign with hidden information: into its audience's
                # book (an undeclared one is the GM's), never by default into the one players read
                home = self.audience_home.get((block.audience or changes.audiences.get(block.tab) or GM).key)
                if home and home in self.whole_books:
                    self.tab_home[block.tab] = home
            part(block.tab).blocks.append(block)
        for block in changes.marker:
            part(block.tab).marker.append(block)
        for note in changes.notes:
            part(note[0]).notes.append(note)
        for tab in changes.clear_notes:
            part(tab).clear_notes.append(tab)
        for tab, n in changes.drop_rows:
            part(tab).drop_rows.append((tab, n))
        # the players' books first: the tabs a write adds there are listed by id in the keeper's book
        gm_home = self.audience_home.get(GM.key)
        planned = {sid: self._plan(sid, parts[sid], before) for sid in list(parts)
                   if sid in self.whole_books and sid != gm_home}
        placements = self._placements(planned, parts)
        if placements:
            part(BACKEND_TAB).blocks.extend(placements)
        order = [sid for sid in parts if sid != self.spreadsheet_id]
        if self.spreadsheet_id in parts:
            order.append(self.spreadsheet_id)
        plans = [planned.get(sid) or self._plan(sid, parts[sid], before) for sid in order]  # refusals before writes
        sending = [sid for sid, plan in zip(order, plans) if plan.batches]
        try:
            if self.keeper != self.spreadsheet_id and self.keeper in sending and len(sending) > 1:
                # the GM's spreadsheet (the state, the history) and others: one transaction across them
                self._journaled(dict(zip(order, plans)))
            else:
                with google_errors(_("запись в таблицу Google")):
                    for sid, plan in zip(order, plans):
                        for batch in plan.batches:
                            self.batches_sent += 1
                            send_batch(self.client, sid, batch)
                        plan.commit()
        except BaseException:
            self.tables = None  # what the sheet holds now is unknown: the next write reads first
            raise
        self.tables = apply_changes(before, changes)

    def _journaled(self, plans: dict[str, Plan]) -> None:
        """A write to the GM's spreadsheet and others of a split campaign as one transaction
        (gsheets_journal): the GM's spreadsheet first, with the journal of what the others are owed
        (the commit point, replacing the previous journal), then each other one.  A fault after the
        commit is an error that says the window is written and the next command delivers the rest."""
        keeper = self.books[self.keeper]
        own = plans.pop(self.keeper, None)
        entries = [gsheets_journal.Entry(sid, plan.batches) for sid, plan in plans.items() if plan.batches]
        journal = gsheets_journal.new(entries, self.rng)
        taken = {int(r["addSheet"]["properties"]["sheetId"]) for b in (own.batches if own else [])
                 for r in b.requests if "addSheet" in r}
        extra, journal_id = gsheets_journal.requests(keeper, journal, self.rng, taken)
        if own is not None and own.batches:
            next(b for b in reversed(own.batches) if b.evidence.lock_to is not None).requests.extend(extra)
            batches, commit = own.batches, own.commit
        else:
            lock, swap = gsheets_lock.swap(keeper.lock, _rid(self.rng, taken | {journal_id}))
            batches = [Batch(swap + extra, Evidence(lock_from=keeper.lock, lock_to=lock))]

            def commit() -> None:
                keeper.lock = lock

        with google_errors(_("запись в таблицу Google")):
            for batch in batches:
                self.batches_sent += 1
                send_batch(self.client, self.keeper, batch)
        commit()
        keeper.journal_id = journal_id
        for entry in entries:  # the window is written: what follows only delivers it
            try:
                with google_errors(_("запись в таблицу Google")):
                    self.batches_sent += len(entry.batches)
                    gsheets_journal.deliver(self.client, entry, None, set())
            except GoogleBackendError as exc:
                raise GoogleBackendError(_(
                    "Окно записано в таблицу ведущего {gm}, но таблица {url} не дописана ({error}). Разрешать ход "
                    "заново не нужно: следующая команда (например, check) сама допишет окно во все таблицы."
                ).format(gm=spreadsheet_url(self.keeper), url=spreadsheet_url(entry.spreadsheet_id),
                         error=exc)) from exc
            plans[entry.spreadsheet_id].commit()

    def _complete(self, books: dict[str, BookState], keeper_id: str) -> bool:
        """Deliver what a journaled write left unsent (another run interrupted, or still writing);
        whether anything was sent.  A book somebody else wrote meanwhile is a refusal naming it."""
        keeper = books[keeper_id]
        journal = gsheets_journal.decode(keeper.journal, keeper_id)
        owed: list[tuple[gsheets_journal.Entry, BookState]] = []
        for entry in journal.entries:
            sid = entry.spreadsheet_id
            book = books.get(sid) or _absorb(sid, get_spreadsheet(self.client, sid, READ_FIELDS))[1]
            status = gsheets_journal.state(entry, book.lock)
            if status == gsheets_journal.FOREIGN:
                raise gsheets_journal.foreign(sid)
            if status == gsheets_journal.PENDING:
                owed.append((entry, book))
        for entry, book in owed:
            present = {s.sheet_id for s in book.sheets.values()} | set(book.stale_stages)
            gsheets_journal.deliver(self.client, entry, book.lock, present)
        if owed:
            self.finished.append(_(
                "Запись окна, начатая в {started} другим запуском (прерванным или ещё идущим), была принята в "
                "таблице ведущего, но не дошла до таблиц: {books}. Она дописана сейчас — ровно та же, что "
                "была начата.").format(started=journal.started,
                                       books=", ".join(spreadsheet_url(e.spreadsheet_id) for e, _b in owed)))
        return bool(owed)

    def completed(self) -> list[str]:
        """What the reads of this backend finished of a write another run left unfinished."""
        return list(self.finished)

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
        gm_books = {sid for key, sid in self.audience_home.items() if key == GM.key}
        return frozenset(tab for tab, sid in self.tab_home.items() if sid not in gm_books)

    def other_book(self) -> tuple[BookMark, str] | None:
        """A player's or the GM's spreadsheet given for the campaign (its ``_strategos`` says so: a
        ``#book`` row): its mark and the campaign's address."""
        if self.mark is None:
            return None
        where = spreadsheet_url(self.mark.campaign) if self.mark.campaign else _(
            "таблица кампании (её адрес напечатала команда new)")
        return self.mark, where

    def stored(self, tables: Tables) -> Tables:
        """The store tabs' chunks, from the notes of their cells (gsheets_store): one request per
        spreadsheet holding such a tab, made only for history, rollback, verify and report."""
        if self.tables is None:
            return tables
        return gsheets_store.stored(self.client, tables, self.tab_home, self.spreadsheet_id)

    def secret_key(self) -> str | None:
        """The spreadsheet id: the GM's store keyed a campaign made before campaign ids by it."""
        return self.spreadsheet_id

    def audit(self) -> list[str]:
        """Warnings about the tabs of players' spreadsheets the last read did not take (gsheets_gate),
        and about sharing and names that drifted from what ``new`` set (one Drive ``files.list``;
        nothing for a campaign made before ``new`` recorded them)."""
        refused = gsheets_gate.warnings(self.foreign)
        book = self.books.get(self.keeper)
        if book is None or not book.record:
            return refused
        return refused + gsheets_sharing.audit(self.client, book.record, account_email(self.client))

    def _register(self, tab: str, home: str) -> WriteBlock:
        """Route a tab the read did not see to ``home``; the row that records it in ``_strategos``."""
        self.tab_home[tab] = home
        self.backend_rows += 1
        return WriteBlock(BACKEND_TAB, self.backend_rows, 1, [[tab, home]])

    def _placements(self, plans: dict[str, Plan], parts: dict[str, Changeset]) -> list[WriteBlock]:
        """The ``TAB_ROW`` rows of ``_strategos`` listing, by stable id, the tabs this write puts into
        the players' books (``plans``, for the changes of ``parts``): those it adds (not its staging
        or lock tabs), and those it writes there that are not listed yet (an earlier write added them
        and failed before the GM's book was written).  The write routes a tab into a player's book
        only as that side's (its audience, or ``beside`` its order tab), never by a title found there.
        The next read takes these tabs from there, and no other (gsheets_gate)."""
        keeper = self.books.get(self.keeper)
        placed = keeper.placed if keeper is not None else {}
        rows: list[WriteBlock] = []
        if not placed:  # a campaign made before the ids: read by title (gsheets_gate), never half listed
            return rows
        for sid, plan in plans.items():
            tabs = {r.tab for r in parts[sid].replace} | {b.tab for b in parts[sid].all_blocks()}
            ids = {t: info.sheet_id for t, info in self.books[sid].sheets.items() if t in tabs}
            for batch in plan.batches:
                for request in batch.requests:
                    made = (request.get("addSheet") or {}).get("properties") or {}
                    if made.get("title") in tabs:
                        ids[str(made["title"])] = int(made["sheetId"])
            for sheet_id in ids.values():
                if sheet_id not in placed.get(sid, ()):
                    placed.setdefault(sid, set()).add(sheet_id)
                    self.backend_rows += 1
                    rows.append(WriteBlock(BACKEND_TAB, self.backend_rows, 1, [[TAB_ROW, sid, str(sheet_id)]]))
        return rows

    def _reread(self) -> Tables:
        """A write without a read first: read now (the plan needs tab ids, sizes and contents)."""
        self.read()
        return self.tables or {}

    # ----------------------------------------------------------------- planning

    def _plan(self, spreadsheet_id: str, changes: Changeset, before: Tables) -> Plan:
        """The batches that apply ``changes`` to one spreadsheet (see :func:`gsheets_plan.plan_write`)."""
        return plan_write(self.books[spreadsheet_id], changes, before, self.rng, self.max_write_bytes)


def _gm_book_of_old(spreadsheet_id: str, book: BookState, home: dict[str, str]) -> BookMark | None:
    """The GM's spreadsheet of a campaign made before the ``#book`` row: its ``_strategos`` names
    itself as the GM's book (``@@gm`` / ``@gm``); the campaign is the one spreadsheet its record
    names that no row routes tabs to.  None for any other spreadsheet."""
    if spreadsheet_id not in (home.get(BOOK_ROW + GM.key), home.get(AUDIENCE_ROW + GM.key)):
        return None
    others = [sid for sid in book.record.names if sid != spreadsheet_id and sid not in home.values()]
    return BookMark(GM, others[0] if len(others) == 1 else "")
