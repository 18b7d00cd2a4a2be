"""Private orders: each player's order tab in a spreadsheet only that player and the GM can open.

The campaign spreadsheet is shared with the players as readers and lists in its hidden tab
``_strategos`` where each order tab lives; the engine still sees one Tables dict.  check and
resolve read every spreadsheet once and write each at most once.
"""

from __future__ import annotations

from collections import Counter

import pytest
import test_google_support as support
from test_google_support import GM, OUTSIDER, P1, P2, GoogleEnv, meta, normal, settled_stats, small_spec

from engine.core import history
from engine.core.tables import Changeset, ReplaceTab
from engine.core.tabs import REGISTRY_TAB
from engine.rulesets.ancient import ruleset
from sheets_bridge import gsheets, sync, timeline
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
    roles = {p.get("emailAddress"): p["role"] for p in campaign["permissions"]}
    assert roles[GM] == "writer" and roles[P1] == "reader" and roles[P2] == "reader"

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
    for sid in [created.spreadsheet_id, *books.values()]:
        with pytest.raises((GoogleNotFoundError, GooglePermissionError)):
            outsider.open_by_key(sid).sheet1.get("A1")


def test_check_and_resolve_read_each_spreadsheet_once_write_each_at_most_once_and_agree(google: GoogleEnv) -> None:
    """Private books cost one read each and at most one write each; the outcome is exactly the
    outcome of the same campaign in one spreadsheet."""
    google.reset()
    created = google.create(small_spec(), players=PLAYERS, private_orders=True)
    books = len(created.order_books)
    # campaign: create + batch; each order book: create + batch; permissions: the GM on every
    # spreadsheet, each player on the campaign and on their own book
    assert google.counts() == {"sheets.create": 1 + books, "sheets.batchUpdate": 1 + books,
                               "drive.permissions.create": (1 + books) + 2 * 2}
    assert created.requests == 2 * (1 + books) + (1 + books) + 4
    backend = google.backend(created.spreadsheet_id)
    backend.write(ruleset.demo_changes(backend.read()))
    every = {created.spreadsheet_id, *created.order_books.values()}
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
