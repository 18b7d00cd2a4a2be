"""Creating a campaign on Google Sheets: its spreadsheet(s) from a WorkbookSpec, filled in as few
batches as the size limit allows, protected, and shared with the GM and the players (in
private-orders mode, one spreadsheet per audience: the public one, one per player, the GM's)."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import meta
from engine.core.audience import GM, Audience, player
from engine.core.errors import UsageError
from engine.core.i18n import N_
from engine.core.messages import _
from engine.core.tables import TabSpec, WorkbookSpec

from . import book_mark, google_http, gsheets_sharing
from .google_http import StrategosClient
from .gsheets_batch import JSON_HEADERS, MAX_WRITE_BYTES, Batch, Evidence, _pack, send_batch
from .gsheets_cells import _dumps, _grid_range
from .gsheets_client import EMAIL, account_email, make_google_client, spreadsheet_url
from .gsheets_compact import _compact, _split_update
from .gsheets_errors import google_errors
from .gsheets_format import (
    _creation_size,
    _format_requests,
    _sheet_properties,
    _source_values,
)
from .gsheets_protect import _protect_block, _protect_sheet
from .gsheets_read import AUDIENCE_ROW, BACKEND_TAB, BOOK_ROW, KEEPER_ROW, TAB_ROW, _rid

#: Title suffix of the GM-only spreadsheet of a private-orders campaign (translated when used).
GM_BOOK_SUFFIX = N_(" — ведущий")


@dataclass
class CreatedCampaign:
    """Where a new campaign lives: the campaign spreadsheet and (private mode) each order book."""

    spreadsheet_id: str
    order_books: dict[str, str] = field(default_factory=dict)  # order tab -> spreadsheet id
    gm_book: str = ""  # private mode: the spreadsheet of the GM-only tabs (shared with the GM alone)
    player_books: dict[str, str] = field(default_factory=dict)  # private mode: side -> its own spreadsheet
    requests: int = 0  # API requests creation took (token requests excluded)

    @property
    def url(self) -> str:
        """The campaign's URL."""
        return spreadsheet_url(self.spreadsheet_id)

    def order_urls(self) -> dict[str, str]:
        """Order tab -> URL of the spreadsheet holding it (private mode)."""
        return {tab: spreadsheet_url(sid) for tab, sid in self.order_books.items()}


def _check_people(spec: WorkbookSpec, gm: str | None, players: Mapping[str, str]) -> None:
    """Refuse unknown sides and malformed addresses before anything is created."""
    owners = [t.owner for t in spec.tabs if t.kind == "orders" and t.owner]
    for email in ([gm] if gm else []) + list(players.values()):
        if not EMAIL.match(email or ""):
            raise UsageError(_("«{email}» не похоже на адрес электронной почты").format(email=email))
    unknown = [s for s in players if s not in owners]
    if unknown:
        raise UsageError(
            _("нет листа приказов для стороны «{side}»; листы приказов есть у: {owners}").format(
                side=unknown[0], owners=", ".join(owners)
            )
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
        self.grids: dict[int, tuple[int, int]] = {}  # sheet id -> (rows, columns) it was created with

    def create_book(self, title: str, tabs: Sequence[tuple[TabSpec, int]], locale: str | None) -> str:
        """``spreadsheets.create`` with every tab's properties; returns the id."""
        sheets = []
        for index, (tab, sheet_id) in enumerate(tabs):
            n_rows, n_cols = _creation_size(tab)
            self.grids[sheet_id] = (n_rows, n_cols)
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

    def grow(self, tabs: Sequence[tuple[TabSpec, int]]) -> list[dict[str, Any]]:
        """``appendDimension`` for each tab whose grid (as created) is smaller than what is now
        written there: a tab created before its content was known (the bookkeeping tab, whose
        rows name every spreadsheet and share) holds it all.  Google refuses a write past the grid."""
        out: list[dict[str, Any]] = []
        for tab, sheet_id in tabs:
            rows, cols = self.grids[sheet_id]
            need_rows, need_cols = _creation_size(tab)
            for dim, extra in (("ROWS", need_rows - rows), ("COLUMNS", need_cols - cols)):
                if extra > 0:
                    out.append({"appendDimension": {"sheetId": sheet_id, "dimension": dim, "length": extra}})
            self.grids[sheet_id] = (max(rows, need_rows), max(cols, need_cols))
        return out

    def fill(
        self,
        spreadsheet_id: str,
        tabs: Sequence[tuple[TabSpec, int]],
        content: list[dict[str, Any]],
        protection: list[dict[str, Any]],
    ) -> None:
        """Content and formats of ``tabs`` (each grid grown first if it is too small for them),
        then dropdowns and protections, in as few batches as the size limit allows (each at most
        ``max_write_bytes``).  Dropdowns and protections go last: nobody can be confined to a
        half-built tab, and (in the emulator) the early batches stay light."""
        piece = self.max_write_bytes - 4096
        early = self.grow(tabs) + [
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
        """One Drive permission for one person (idempotent: retried safely)."""
        body = {"type": "user", "role": role, "emailAddress": email}
        self._permission(spreadsheet_id, body, self.notify)

    def share_link(self, spreadsheet_id: str, role: str) -> None:
        """"Anyone with the link" (not discoverable): the public book, readable by every player
        without listing them to each other (idempotent: Drive keeps one such permission)."""
        self._permission(spreadsheet_id, gsheets_sharing.link_permission(role), False)

    def _permission(self, spreadsheet_id: str, body: dict[str, Any], notify: bool) -> None:
        """``permissions.create`` (Google e-mails only named people, and only when asked)."""
        params = {"sendNotificationEmail": "true" if notify else "false", "supportsAllDrives": "true"}
        self.requests += 1
        self.http.request(
            "post", f"{google_http.GOOGLE_DRIVE_URL}/{spreadsheet_id}/permissions", params=params, json=body
        )


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
    private_orders: bool = True,
    notify: bool = True,
    locale: str | None = None,
    max_write_bytes: int = MAX_WRITE_BYTES,
) -> CreatedCampaign:
    """Create the campaign spreadsheet(s) from a WorkbookSpec, protect and share them.

    Every tab is protected (editors: the program's account and the GM); a player may edit
    only the input block of their own order tab.  With ``private_orders`` (the default, and always
    for a spec with ``hidden_information``) the tabs are split by audience (engine/core/audience.py):
    each side's own tabs (its order tab…) get a spreadsheet of that side's, shared with its player
    and the GM; the GM-only tabs one shared with the GM alone; the campaign keeps the public tabs
    and is shared by its link ("anyone with the link", reader, not discoverable), so that every
    player reads it and none finds the others' addresses in its sharing list.  The hidden tab
    ``_strategos`` records where each tab lives, what was shared with whom and the spreadsheets'
    titles: split, in the GM's spreadsheet (the campaign's own points there and says nothing else),
    so no player reads another's e-mail or book.  ``private_orders=False`` is the open mode the GM
    asks for explicitly: one spreadsheet, every player a named writer of it, every order readable
    by every player.
    ``locale`` is left to Google's default unless given (formulas keep their comma syntax).
    """
    players = dict(players or {})
    _check_people(spec, gm, players)
    private = private_orders or spec.hidden_information  # a game with hidden information is always split
    owner = account_email(client)
    editors = [e for e in (owner, gm) if e]
    maker = _Creator(client, max_write_bytes, notify)
    used: set[int] = set()
    # the header of the bookkeeping tab (only the rows below it are read)
    header = [_.pgettext("_strategos", "Лист"), _.pgettext("_strategos", "Таблица")]
    gm_title = spec.title + _(GM_BOOK_SUFFIX)
    with google_errors(_("создание таблицы Google")):
        # each player's own tabs (their order tabs, whatever the ruleset shows that side alone) go
        # into a spreadsheet of that side's; what only the GM may read into one only the GM can open
        # (players can read the hidden tabs of a spreadsheet they can open, through the API)
        side_tabs: dict[str, list[TabSpec]] = {}
        placed_ids: dict[str, list[tuple[TabSpec, int]]] = {}  # side -> the tabs put in its book, with their ids
        for t in spec.tabs if private else ():
            if t.readers.kind == "player":
                side_tabs.setdefault(t.readers.side, []).append(t)
        gm_tabs = [t for t in spec.tabs if t.readers == GM] if private else []
        apart = {t.name for t in gm_tabs} | {t.name for tabs in side_tabs.values() for t in tabs}
        book_tabs = [t for t in spec.tabs if t.name not in apart]
        # the backend's own bookkeeping: where tabs live, what was shared with whom (gsheets_sharing)
        keeper_tab = TabSpec(BACKEND_TAB, [header], {1: 30, 2: 50}, hidden=True, kind="meta")
        book_tabs.append(keeper_tab)
        ids = [(t, _rid(maker.rng, used)) for t in book_tabs]
        campaign_id = maker.create_book(spec.title, ids, locale)
        created = CreatedCampaign(campaign_id)
        record = gsheets_sharing.Record({campaign_id: spec.title})
        lang = meta.lang({t.name: t.rows for t in spec.tabs}) or ""

        def marked(reader: Audience) -> list[str]:
            """The ``_strategos`` row that says whose spreadsheet this is and where the campaign is:
            a command given it instead of the campaign refuses it in words (book_mark, issue 23 p11)."""
            return [book_mark.ROW, *book_mark.BookMark(reader, campaign_id, lang).cells()]

        for side, tabs in side_tabs.items():
            mark = TabSpec(BACKEND_TAB, [header, marked(player(side))], keeper_tab.widths, hidden=True, kind="meta")
            side_ids = [(t, _rid(maker.rng, used)) for t in [*tabs, mark]]
            record_name = f"{spec.title} — {tabs[0].name}"
            book_id = maker.create_book(record_name, side_ids, locale)
            record.names[book_id] = record_name
            content = [
                r for t, sheet_id in side_ids
                for r in _format_requests(t, sheet_id, lists={v.source: _source_values(spec, v.source)
                                                              for v in t.validations if v.source})
            ]
            protection = [r for t, sheet_id in side_ids
                          for r in _protections(t, sheet_id, editors, players, maker.rng, used)]
            maker.fill(book_id, side_ids, content, protection)
            created.order_books.update((t.name, book_id) for t in tabs)
            created.player_books[side] = book_id
            placed_ids[side] = side_ids
        gm_ids: list[tuple[TabSpec, int]] = []
        if private:  # the GM's spreadsheet: the GM-only tabs and the bookkeeping no player may read
            gm_ids = [(t, _rid(maker.rng, used)) for t in [*gm_tabs, keeper_tab]]
            created.gm_book = maker.create_book(gm_title, gm_ids, locale)
            record.names[created.gm_book] = gm_title
        shares: list[tuple[str, str, str]] = []  # (spreadsheet, e-mail, role), all planned before any is made
        if gm:
            shares += [(sid, gm, "writer") for sid in record.names]
        for side, email in players.items():
            if not private:  # the open mode: every player types into the one spreadsheet
                shares.append((campaign_id, email, "writer"))
            if side in created.player_books:  # the player's own spreadsheet: theirs alone (and the GM's)
                shares.append((created.player_books[side], email, "writer"))
        for sid, email, role in shares:
            record.shares.setdefault(sid, {})[email.casefold()] = role
        if private:  # the public book: by its link, so its sharing list names no player
            record.links[campaign_id] = "reader"
        # the bookkeeping: where each tab lives, the spreadsheets' titles, who was given access.  A
        # split campaign keeps it in the GM's spreadsheet, the campaign (which every player reads)
        # only the row that points there; a campaign in one spreadsheet keeps it there, as before
        placed: list[list[str]] = []
        if spec.hidden_information:  # by audience only: no private tab's name even in the GM's record
            homes = [(BOOK_ROW + GM.key, created.gm_book)]
            homes += [(BOOK_ROW + player(side).key, sid) for side, sid in created.player_books.items()]
            placed += [[TAB_ROW, created.player_books[side], str(sheet_id)] for side, ids in placed_ids.items()
                      for _tab, sheet_id in ids]  # the only tabs read from the players' books (gsheets_gate)
        else:  # by name, as before audiences
            homes = [*created.order_books.items(), *((t.name, created.gm_book) for t in gm_tabs)]
            if created.gm_book:
                homes.append((AUDIENCE_ROW + GM.key, created.gm_book))
        gm_mark = [marked(GM)] if private else []  # the GM's spreadsheet is not the campaign either
        kept = TabSpec(BACKEND_TAB, [header, *[[n, s] for n, s in homes], *placed, *record.rows(), *gm_mark],
                       keeper_tab.widths, hidden=True, kind="meta")
        if private:
            gm_specs = [(kept if t is keeper_tab else t, sid) for t, sid in gm_ids]
            gm_content = [r for t, sid in gm_specs for r in _format_requests(t, sid)]
            gm_protection = [r for t, sid in gm_specs for r in _protections(t, sid, editors, {}, maker.rng, used)]
            maker.fill(created.gm_book, gm_specs, gm_content, gm_protection)
            kept = TabSpec(BACKEND_TAB, [header, [KEEPER_ROW, created.gm_book]], keeper_tab.widths,
                           hidden=True, kind="meta")
        content: list[dict[str, Any]] = []
        protection: list[dict[str, Any]] = []
        written = [(kept if t is keeper_tab else t, sheet_id) for t, sheet_id in ids]
        for tab, sheet_id in written:
            content += _format_requests(tab, sheet_id)
            protection += _protections(tab, sheet_id, editors, players, maker.rng, used)
        maker.fill(campaign_id, written, content, protection)
        for sid in record.names:  # before anybody is given access: only the owner may share
            maker.restrict(sid)
        for sid, email, role in shares:
            maker.share(sid, email, role)
        for sid, role in record.links.items():
            maker.share_link(sid, role)
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
    private_orders: bool = True,
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
