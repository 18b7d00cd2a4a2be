"""Private orders: each player's order tab in a spreadsheet only that player and the GM can open.

The campaign spreadsheet is shared by its link, for reading (no player is named in its sharing
list), and the bookkeeping tab ``_strategos`` lists where each order tab lives; the engine
still sees one Tables dict.  check and resolve read every spreadsheet once and write each at
most once.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
import test_google_support as support
from test_google_support import GM, OUTSIDER, P1, P2, GoogleEnv, meta, normal, settled_stats, small_spec

from engine.core import history
from engine.core.errors import BackendError
from engine.core.tables import AUDIENCE_GM, Changeset, ReplaceTab, Tables
from engine.core.tabs import REGISTRY_TAB
from engine.rulesets.ancient import ruleset
from sheets_bridge import gsheets, gsheets_journal, gsheets_store, secrets, sync, timeline
from sheets_bridge.google_http import GoogleNotFoundError, GooglePermissionError, make_client

emulator_server = support.emulator_server
google = support.google

FIRST, SECOND = "Г0000", "Г0001"  # two played states of the small generated world
EGYPT, ROME = f"Приказы — {FIRST}", f"Приказы — {SECOND}"
PLAYERS = {FIRST: P1, SECOND: P2}


def _per_spreadsheet(google: GoogleEnv) -> tuple[Counter[str], Counter[str]]:
    """(reads, writes) per spreadsheet id since the last reset."""
    reads: Counter[str] = Counter()
    writes: Counter[str] = Counter()
    for r in settled_stats(google.emu)["requests"]:
        sid = r["path"].rsplit("/", 1)[-1].split(":")[0]
        if r["endpoint"] == "sheets.get":
            reads[sid] += 1
        elif r["endpoint"] == "sheets.batchUpdate":
            writes[sid] += 1
    return reads, writes


def test_each_order_book_is_open_only_to_its_player_and_the_gm(google: GoogleEnv) -> None:
    created = google.create(small_spec(), players=PLAYERS, private_orders=True)
    books = created.order_books
    assert EGYPT in books and ROME in books
    campaign = google.emu.dump(created.spreadsheet_id)
    titles = {s["properties"]["title"]: s["properties"] for s in campaign["sheets"]}
    assert not [t for t in titles if t.startswith("Приказы — ")]
    assert titles[gsheets.BACKEND_TAB].get("hidden") is True
    roles = {p.get("emailAddress", p["type"]): p["role"] for p in campaign["permissions"]}
    # the players read it by its link, named nowhere in its sharing list (issue 23, point 7)
    assert roles[GM] == "writer" and roles["anyone"] == "reader" and P1 not in roles and P2 not in roles

    p1 = make_client(google.key(P1))
    own = p1.open_by_key(books[EGYPT]).worksheet(EGYPT)
    own.update([["Построить", "Храм", "П000-000"]], "A2:C2")
    assert own.get("A2:C2") == [["Построить", "Храм", "П000-000"]]
    with pytest.raises(GooglePermissionError):
        own.update([["принят"]], "H2")  # the status column: protected
    with pytest.raises((GoogleNotFoundError, GooglePermissionError)):
        p1.open_by_key(books[ROME]).worksheet(ROME).get("A1")
    public = p1.open_by_key(created.spreadsheet_id)
    assert public.worksheet("Государства").get("A1") == [["Государство"]]
    with pytest.raises(GooglePermissionError):
        public.worksheet("Государства").update([["взлом"]], "A2")

    gm = make_client(google.key(GM))
    for tab, sid in books.items():
        assert gm.open_by_key(sid).worksheet(tab).get("A1")
    outsider = make_client(google.key(OUTSIDER))
    for sid in books.values():
        with pytest.raises((GoogleNotFoundError, GooglePermissionError)):
            outsider.open_by_key(sid).sheet1.get("A1")
    # the public campaign opens for whoever has its link (that is what public means), read-only,
    # and Drive's search lists it to nobody who was not given it by name
    with pytest.raises(GooglePermissionError):
        outsider.open_by_key(created.spreadsheet_id).worksheet("Государства").update([["взлом"]], "A2")
    assert outsider.list_spreadsheet_files() == []


def test_check_and_resolve_read_each_spreadsheet_once_write_each_at_most_once_and_agree(google: GoogleEnv) -> None:
    """Private books cost one read each and at most one write each; the outcome is exactly the
    outcome of the same campaign in one spreadsheet."""
    google.reset()
    created = google.create(small_spec(), players=PLAYERS, private_orders=True)
    books = len(created.order_books)
    # campaign, GM-only book (issue 15 p10), each order book: create + batch + "writers can share"
    # off (p9); permissions: the GM on every spreadsheet, the campaign's link (issue 23 p7), each
    # player on their own book
    sheets = 2 + books
    assert google.counts() == {"sheets.create": sheets, "sheets.batchUpdate": sheets, "drive.files.update": sheets,
                               "drive.permissions.create": sheets + 1 + 2}
    assert created.requests == 3 * sheets + sheets + 3
    backend = google.backend(created.spreadsheet_id)
    backend.write(ruleset.demo_changes(backend.read()))
    every = {created.spreadsheet_id, created.gm_book, *created.order_books.values()}
    for command in ("check", "resolve"):
        google.reset()
        backend = google.backend(created.spreadsheet_id)
        result = sync.check(backend) if command == "check" else sync.resolve(backend, turn=1)
        assert sum(result.summary["orders"].values()) >= 10
        reads, writes = _per_spreadsheet(google)
        assert set(reads) == every and set(reads.values()) == {1}, command
        assert set(writes) <= every and set(writes.values()) == {1}, command
        if command == "check":  # statuses live in the order books: the campaign is not written
            assert created.spreadsheet_id not in writes
        else:
            assert created.spreadsheet_id in writes
    private = google.backend(created.spreadsheet_id).read()
    assert meta(private)["Открытый ход"] == 2
    assert gsheets.BACKEND_TAB not in private
    rows = [r for r in private[EGYPT][1:] if len(r) > 7 and r[7]]  # executed: stamped, input archived (i15 p1)
    assert rows and all(r[6] == 1 and not r[0] for r in rows)

    public = google.create(small_spec(), players=PLAYERS)
    backend = google.backend(public.spreadsheet_id)
    backend.write(ruleset.demo_changes(backend.read()))
    sync.check(google.backend(public.spreadsheet_id))
    sync.resolve(google.backend(public.spreadsheet_id), turn=1)
    single = google.backend(public.spreadsheet_id).read()
    assert set(private) == set(single)
    private, single = (sync.read_all(google.backend(s)) for s in (created.spreadsheet_id, public.spreadsheet_id))
    for name in private:
        if name == REGISTRY_TAB:  # sheetIds of two different spreadsheets (issue 15, point 2)
            assert [r[:2] for r in private[name]] == [r[:2] for r in single[name]]
            continue
        if name == history.HISTORY_TAB:
            for x, y in zip(history.entries(private), history.entries(single)):
                assert normal(x.tables()) == normal(y.tables())
            continue
        assert normal({name: private[name]}) == normal({name: single[name]}), name


def test_each_player_finds_a_private_report_in_their_own_order_book(google: GoogleEnv) -> None:
    """Issue #8: in private-orders mode resolve writes each played state's own report (its ledger
    lines, order results, technologies, what it may build or learn) as a tab of that player's
    order book -- in the same one write per spreadsheet -- and nowhere else."""
    created = google.create(small_spec(), players=PLAYERS, private_orders=True)
    backend = google.backend(created.spreadsheet_id)
    backend.write(ruleset.demo_changes(backend.read()))
    for turn in (1, 2):
        google.reset()
        sync.resolve(google.backend(created.spreadsheet_id), turn=turn)
        reads, writes = _per_spreadsheet(google)
        assert set(reads.values()) == {1} and set(writes.values()) == {1}
    books = created.order_books
    p1 = make_client(google.key(P1))
    report = p1.open_by_key(books[EGYPT]).worksheet(f"Отчёт — {FIRST}").get_all_values()
    assert report[0][0] == f"{FIRST}: отчёт за ход 2"
    titles = [r[0] for r in report if r and r[0]]
    for section in ("Приказы", "Казна (строки этого хода)", "Можно изучать", "Что можно построить"):
        assert section in titles
    tables = google.backend(created.spreadsheet_id).read()
    own_lines = [r for r in tables["Казна"][1:] if r and r[0] == 2 and r[1] == FIRST]
    assert own_lines and all(str(r[6]) in {row[3] for row in report if len(row) > 3} for r in own_lines)
    with pytest.raises(GooglePermissionError):  # the player reads the report but cannot edit it
        p1.open_by_key(books[EGYPT]).worksheet(f"Отчёт — {FIRST}").update([["подделка"]], "A1")
    with pytest.raises((GoogleNotFoundError, GooglePermissionError)):
        p1.open_by_key(books[ROME]).worksheet(f"Отчёт — {SECOND}").get("A1")
    campaign = google.emu.dump(created.spreadsheet_id)
    assert not [s for s in campaign["sheets"] if s["properties"]["title"].startswith("Отчёт — ")]
    assert f"Отчёт — {FIRST}" not in tables  # the engine never reads the reports back


def test_a_rollback_brings_each_private_report_back_with_the_campaign(google: GoogleEnv) -> None:
    created = google.create(small_spec(), players=PLAYERS, private_orders=True)
    backend = google.backend(created.spreadsheet_id)
    backend.write(ruleset.demo_changes(backend.read()))
    sync.resolve(google.backend(created.spreadsheet_id), turn=1)
    sync.resolve(google.backend(created.spreadsheet_id), turn=2)
    p1 = make_client(google.key(P1))

    def report() -> list[list[str]]:
        return p1.open_by_key(created.order_books[EGYPT]).worksheet(f"Отчёт — {FIRST}").get_all_values()

    assert report()[0][0] == f"{FIRST}: отчёт за ход 2"
    timeline.rollback(google.backend(created.spreadsheet_id), to=2)
    assert report()[0][0] == f"{FIRST}: отчёт за ход 1"
    timeline.rollback(google.backend(created.spreadsheet_id), to=1)
    assert report() == [[f"{FIRST}: ходов ещё не было — отчёт появится после первого хода"]]


def test_a_private_tab_is_never_written_into_the_public_campaign(google: GoogleEnv) -> None:
    """A report meant for a private order book whose order tab is in the public sheet (a campaign
    made without --private-orders) is not written at all: players can read the public sheet."""
    created = google.create(small_spec(), players=PLAYERS)
    backend = google.backend(created.spreadsheet_id)
    backend.read()
    assert backend.private_order_tabs == frozenset()
    secret = ReplaceTab(f"Отчёт — {FIRST}", [["только для игрока"]], beside=EGYPT)
    backend.write(Changeset(replace=[secret]))
    titles = [s["properties"]["title"] for s in google.emu.dump(created.spreadsheet_id)["sheets"]]
    assert f"Отчёт — {FIRST}" not in titles
    assert sync.private_reports(backend, backend.read(), Changeset(), ruleset) == []


def _readable(google: GoogleEnv, identity: str, created: gsheets.CreatedCampaign) -> dict[str, Tables]:
    """Every cell (values, formulas and notes; hidden tabs too) of every spreadsheet of the campaign
    that ``identity`` can open, as the API gives it to them -- snapshots in a history tab unpacked."""
    client = make_client(google.key(identity))
    every = [created.spreadsheet_id, *created.order_books.values(), created.gm_book]
    listed = []
    for sid in every:
        try:
            gsheets.get_spreadsheet(client, sid, "spreadsheetId")
        except (GoogleNotFoundError, GooglePermissionError):
            continue
        listed.append({"id": sid})
    out: dict[str, Tables] = {}
    for f in listed:
        answer = gsheets.get_spreadsheet(
            client, f["id"], "sheets(properties(title),data(rowData(values(userEnteredValue,formattedValue,note))))"
        )
        tables: Tables = {}
        for sheet in answer.get("sheets", []):
            rows = (sheet.get("data") or [{}])[0].get("rowData") or []
            tables[sheet["properties"]["title"]] = [
                [json.dumps(v, ensure_ascii=False) for v in (r.get("values") or [])] for r in rows
            ]
        out[f["id"]] = tables
        values = gsheets._absorb(f["id"], gsheets.get_spreadsheet(client, f["id"], gsheets.READ_FIELDS))[0]
        if history.HISTORY_TAB in values:  # the snapshots' chunks are the notes of its rows (gsheets_store)
            values = gsheets_store.stored(client, values, {}, f["id"])
            for e in history.entries(values):
                out[f"{f['id']} snapshot {e.turn}"] = e.tables()
    return out


def _text(tables: Tables) -> str:
    return "\n".join(f"{name}: {cell}" for name, grid in tables.items() for row in grid for cell in row)


def test_i15_p10_no_player_can_open_another_players_orders_or_the_secret(google: GoogleEnv) -> None:
    """In private-orders mode the snapshots of «_История», «Архив приказов» and the GM's events
    (tabs the ruleset declares ``audience="gm"``) live in a spreadsheet only the GM can open: after
    two resolves and a rollback, nothing a player can open holds another player's order text or
    the dice secret; history, rollback and verify still work."""
    spec = small_spec()  # the secret is in the GM's store, in no cell
    created = google.create(spec, players=PLAYERS, private_orders=True)
    secrets.save(created.spreadsheet_id, support.SECRET)
    assert created.gm_book
    gm_book = google.emu.dump(created.gm_book)
    assert {p.get("emailAddress") for p in gm_book["permissions"]} == {GM}
    assert {s["properties"]["title"] for s in gm_book["sheets"]} >= {history.HISTORY_TAB, "Архив приказов",
                                                                      "События ведущего"}
    backend = google.backend(created.spreadsheet_id)
    backend.write(ruleset.demo_changes(backend.read()))
    rome = make_client(google.key(P2)).open_by_key(created.order_books[ROME]).worksheet(ROME)
    rome.update([["Построить", "Храм", "П001-000", "", "", "тайный план XYZZY-1"],
                 ["Построить", "Крепость-XYZZY-2", "П001-000", "", "", ""]], "A20:F21")
    sync.check(google.backend(created.spreadsheet_id))
    sync.resolve(google.backend(created.spreadsheet_id), turn=1)
    rome.update([["Нет действий", "", "", "", "", "тайный план XYZZY-3"]], "A22:F22")
    sync.resolve(google.backend(created.spreadsheet_id), turn=2)
    gm_view = google.backend(created.spreadsheet_id)
    assert "XYZZY-2" in _text(gm_view.read())  # the GM sees it all (the archive)
    assert [t["turn"] for t in timeline.list_turns(gm_view)] == [1, 2]
    assert timeline.verify(google.backend(created.spreadsheet_id), 1).ok
    timeline.rollback(google.backend(created.spreadsheet_id), to=2)
    assert meta(google.backend(created.spreadsheet_id).read())["Открытый ход"] == 2
    assert timeline.verify(google.backend(created.spreadsheet_id), 1).ok

    seen = _readable(google, P1, created)
    assert created.spreadsheet_id in seen and created.order_books[EGYPT] in seen
    assert created.gm_book not in seen and created.order_books[ROME] not in seen
    for where, tables in seen.items():
        text = _text(tables)
        assert "XYZZY" not in text, where
        assert support.SECRET not in text, where


def test_i15_p10_a_gm_only_tab_created_later_goes_to_the_gm_book(google: GoogleEnv) -> None:
    """The audience is the ruleset's declaration, not a list of names in the bridge: a new tab
    with ``audience="gm"`` is created in the GM-only spreadsheet and recorded in ``_strategos``."""
    created = google.create(small_spec(), players=PLAYERS, private_orders=True)
    backend = google.backend(created.spreadsheet_id)
    backend.read()
    notes = ReplaceTab("Заметки ведущего", [["Заметка"], ["засада у Канн"]], audience=AUDIENCE_GM)
    backend.write(Changeset(replace=[notes]))
    def titles(sid: str) -> list[str]:
        return [s["properties"]["title"] for s in google.emu.dump(sid)["sheets"]]

    assert "Заметки ведущего" in titles(created.gm_book)
    assert "Заметки ведущего" not in titles(created.spreadsheet_id)
    again = google.backend(created.spreadsheet_id)
    assert again.read()["Заметки ведущего"] == [["Заметка"], ["засада у Канн"]]
    assert again.tab_home["Заметки ведущего"] == created.gm_book
    assert "Заметки ведущего" not in again.private_order_tabs


def test_i15_p10_a_resolve_that_fails_after_the_gm_book_leaves_no_double_rows(
    google: GoogleEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GM-only book is written first, with the journal of what the other spreadsheets are owed
    (issue 23, point 3). If the campaign's write fails after it, the next read delivers the rest:
    the re-run finds the turn resolved, with one snapshot per turn and no order archived twice."""
    created = google.create(small_spec(), players=PLAYERS, private_orders=True)
    sid = created.spreadsheet_id
    backend = google.backend(sid)
    backend.write(ruleset.demo_changes(backend.read()))
    real = gsheets_journal.send_batch

    def campaign_fails(client: object, spreadsheet_id: str, batch: gsheets.Batch) -> None:
        if spreadsheet_id == sid:
            raise gsheets.GoogleBackendError("сбой записи кампании (тест)")
        real(client, spreadsheet_id, batch)  # type: ignore[arg-type]

    monkeypatch.setattr(gsheets_journal, "send_batch", campaign_fails)
    with pytest.raises(gsheets.GoogleBackendError) as failed:
        sync.resolve(google.backend(sid), turn=1)
    assert "Окно записано в таблицу ведущего" in str(failed.value)
    monkeypatch.setattr(gsheets_journal, "send_batch", real)
    with pytest.raises(BackendError) as again:  # the re-run delivers the rest and resolves nothing more
        sync.resolve(google.backend(sid), turn=1)
    assert "дописана сейчас" in str(again.value)
    done = google.backend(sid).read()
    assert meta(done)["Открытый ход"] == 2
    assert [e.turn for e in history.entries(done)] == [1]
    archived = [tuple(map(str, r)) for r in done["Архив приказов"][1:] if r and r[0] == 1]
    assert archived and len(archived) == len(set(archived))
