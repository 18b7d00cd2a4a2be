"""Audiences (issue 17 point 3): every tab belongs to the GM, to the public or to one player, and no
fact a player may not see is in any book that player can open — on .xlsx (a workbook per player
and a public one beside the GM's) and on Google (a spreadsheet per audience, read here through
the emulator as each player's own identity, hidden tabs and all)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import openpyxl
import pytest
import test_google_support as support
from test_google_support import GM, P1, P2, GoogleEnv

from engine.core import audience
from engine.core.audience import GM as GM_AUDIENCE
from engine.core.audience import PUBLIC, Audience, player
from engine.core.tables import Changeset, ReplaceTab, TabSpec, WorkbookSpec, WriteBlock
from engine.rulesets.ancient import ruleset
from sheets_bridge import gsheets, sync, xlsx_books
from sheets_bridge.google_http import GoogleNotFoundError, GooglePermissionError, make_client
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

emulator_server = support.emulator_server
google = support.google

ARMY = "ТАЙНОЕ-ВОЙСКО-А-7"  # side A's secret army: B may never see it
SPY = "ДОНЕСЕНИЕ-ЛАЗУТЧИКА-А"  # A's spy report, written by a later run
GM_ONLY = "ЗАМЫСЕЛ-ВЕДУЩЕГО"  # the GM's own plans: no player sees them
SIDES = {"A": P1, "B": P2}


def hidden_spec() -> WorkbookSpec:
    """A campaign with one fact hidden from player B (A's secret army), a GM-only tab and a
    hidden public one (players may fetch hidden tabs: hiding is no protection)."""
    orders = {side: TabSpec(f"Приказы {side}", [["Приказ", "Цель", "Итог"], [None, None, None]], kind="orders",
                            owner=side, editable_columns=(1, 2)) for side in SIDES}
    return WorkbookSpec(
        "Тайны",
        [
            TabSpec("Карта", [["Провинция", "Владелец"], ["Альфа", "A"], ["Бета", "B"]]),
            orders["A"],
            orders["B"],
            TabSpec("Войско A", [["Отряд", "Где"], [ARMY, "Альфа"]], audience=player("A")),
            TabSpec("Ведущий", [["Замысел"], [GM_ONLY]], hidden=True, kind="meta", audience=GM_AUDIENCE),
            TabSpec("Списки", [["Приказ"], ["Идти"]], hidden=True, kind="rules"),
        ],
        hidden_information=True,
    )


LOG = "ЖУРНАЛ-ВЕДУЩЕГО"  # the first rows of a log tab, a block with no audience declared
NOTE = "ЗАМЕТКА-БЕЗ-АДРЕСАТА"  # a new tab replaced with neither spec nor audience


def later_reports() -> Changeset:
    """What a later run writes: A's spy report (declared A's), B's report beside B's orders, and
    the first rows of a new log tab (a block, audience undeclared: the GM's)."""
    spy = ReplaceTab("Разведка A", [["Донесение"], [SPY]], TabSpec("Разведка A", [], kind="report"),
                     audience=player("A"))
    report_b = ReplaceTab("Отчёт B", [["Отчёт"], ["всё спокойно"]], TabSpec("Отчёт B", [], kind="report"),
                          beside="Приказы B")
    log = WriteBlock("Журнал", 1, 1, [["Запись"], [LOG]])
    notes = ReplaceTab("Заметки", [["Заметка"], [NOTE]])  # no spec, no audience: the GM's
    return Changeset(replace=[spy, report_b, notes], blocks=[log])


# ------------------------------------------------------------------ the model


def test_a_tabs_audience_is_derived_from_what_it_is_unless_declared() -> None:
    spec = hidden_spec()
    found = audience.audiences(spec.tabs, later_reports().replace)
    assert found["Карта"] == PUBLIC and found["Списки"] == PUBLIC
    assert found["Приказы A"] == player("A") and found["Приказы B"] == player("B")
    assert found["Войско A"] == player("A") and found["Ведущий"] == GM_AUDIENCE
    assert found["Разведка A"] == player("A") and found["Отчёт B"] == player("B")  # beside B's orders
    assert Audience.parse(player("Рим").key) == player("Рим") and Audience.parse("???") == GM_AUDIENCE


def test_books_give_the_gm_everything_the_public_its_tabs_and_each_player_their_own() -> None:
    spec = hidden_spec()
    found = audience.audiences(spec.tabs)
    names = [t.name for t in spec.tabs] + ["Чужой лист"]  # a tab nobody declared: the GM's alone
    books = audience.books(names, found)
    assert books[GM_AUDIENCE] == names
    assert books[PUBLIC] == ["Карта", "Списки"]
    assert books[player("A")] == ["Приказы A", "Войско A"]
    assert books[player("B")] == ["Приказы B"]
    assert "Чужой лист" not in audience.readable(names, found, player("B"))


def test_the_ancient_game_has_no_hidden_information_and_its_tabs_keep_their_audiences() -> None:
    from engine.rulesets import get

    assert get("ancient").hidden_information is False
    spec = ruleset.new_workbook("demo", "ru")
    assert spec.hidden_information is False
    found = audience.audiences(spec.tabs)
    players = {a for a in found.values() if a.kind == "player"}
    assert players == {player(t.owner) for t in spec.tabs if t.kind == "orders"}
    assert all(found[t.name] == player(t.owner) for t in spec.tabs if t.kind == "orders")
    assert {t.name for t in spec.tabs if found[t.name] == GM_AUDIENCE} == {
        t.name for t in spec.tabs if t.audience == GM_AUDIENCE}


# ------------------------------------------------------------------ .xlsx


def _workbook_text(path: Path) -> str:
    """Every sheet name, cell and document property of a workbook, hidden sheets included."""
    wb = openpyxl.load_workbook(path)
    parts = [ws.title for ws in wb.worksheets]
    parts += [str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value is not None]
    parts += [f"{p.name}={p.value}" for p in wb.custom_doc_props.props]
    return "\n".join(parts)


def test_xlsx_books_hold_only_their_audiences_tabs_and_the_hidden_fact_is_in_none_b_can_open(
    tmp_path: Path,
) -> None:
    campaign = tmp_path / "тайны.xlsx"
    create_xlsx(hidden_spec(), campaign)
    public = xlsx_books.book_path(campaign, PUBLIC)
    book_a, book_b = (xlsx_books.book_path(campaign, player(s)) for s in SIDES)
    assert public == tmp_path / "тайны.public.xlsx" and book_b == tmp_path / "тайны.players" / "B.xlsx"
    assert public.exists() and book_a.exists() and book_b.exists()  # ready to send from the start

    backend = XlsxBackend(campaign)
    backend.read()
    assert backend.private_order_tabs == frozenset({"Приказы A", "Войско A", "Приказы B"})
    backend.write(later_reports())

    assert openpyxl.load_workbook(public).sheetnames == ["Карта", "Списки"]
    assert openpyxl.load_workbook(book_a).sheetnames == ["Приказы A", "Войско A", "Разведка A"]
    assert openpyxl.load_workbook(book_b).sheetnames == ["Приказы B", "Отчёт B"]
    for opened_by_b in (public, book_b):
        text = _workbook_text(opened_by_b)
        for fact in (ARMY, SPY, GM_ONLY, LOG, NOTE, "Войско A"):
            assert fact not in text, (opened_by_b, fact)
    assert "Идти" in _workbook_text(public)  # hidden sheets are read too
    assert ARMY in _workbook_text(book_a) and SPY in _workbook_text(book_a)  # the check can fail
    gm = _workbook_text(campaign)
    assert ARMY in gm and SPY in gm and GM_ONLY in gm and LOG in gm and NOTE in gm  # the GM's workbook holds everything
    assert not list(tmp_path.rglob("*.tmp"))  # each book was written through a temporary file


def test_a_book_that_cannot_be_written_is_a_warning_and_the_next_write_writes_it(tmp_path: Path) -> None:
    campaign = tmp_path / "тайны.xlsx"
    create_xlsx(hidden_spec(), campaign)
    folder = campaign.with_name(f"{campaign.stem}.players")
    shutil.rmtree(folder)
    folder.write_text("не папка")  # the players' books cannot go there now
    backend = XlsxBackend(campaign)
    backend.read()
    backend.write(later_reports())  # the campaign itself is written all the same
    assert "Разведка A" in openpyxl.load_workbook(campaign).sheetnames
    warnings = backend.audit()
    assert len(warnings) == 1 and "Кампания записана" in warnings[0]
    assert backend.audit() == []
    folder.unlink()
    backend.write(Changeset(replace=[ReplaceTab("Карта", [["Провинция"], ["Гамма"]])]))
    assert backend.audit() == []
    assert "Разведка A" in openpyxl.load_workbook(xlsx_books.book_path(campaign, player("A"))).sheetnames
    assert _workbook_text(xlsx_books.book_path(campaign, PUBLIC)).count("Гамма") == 1


def test_an_ancient_xlsx_campaign_gets_no_extra_books(tmp_path: Path) -> None:
    campaign = tmp_path / "античность.xlsx"
    sync.create(str(campaign), secret=support.SECRET)
    backend = XlsxBackend(campaign)
    backend.write(ruleset.demo_changes(backend.read()))
    assert not xlsx_books.book_path(campaign, PUBLIC).exists()
    assert not campaign.with_name(f"{campaign.stem}.players").exists()
    assert backend.private_order_tabs == frozenset()


# ------------------------------------------------------------------ Google


def _as(google: GoogleEnv, identity: str, sid: str) -> str:
    """Everything ``identity`` can fetch of spreadsheet ``sid`` through the API (every tab, hidden
    ones too, with values, formulas and notes), as text; a permission error when it cannot."""
    answer = gsheets.get_spreadsheet(make_client(google.key(identity)), sid, "*")
    return json.dumps(answer, ensure_ascii=False)


def test_google_books_the_hidden_fact_is_in_no_spreadsheet_b_can_open(google: GoogleEnv) -> None:
    created = google.create(hidden_spec(), players=SIDES)  # hidden information: split without asking
    assert set(created.player_books) == {"A", "B"} and created.gm_book
    google.reset()
    backend = google.backend(created.spreadsheet_id)
    backend.read()
    backend.write(later_reports())
    reads: Counter[str] = Counter()
    writes: Counter[str] = Counter()
    for r in support.settled_stats(google.emu)["requests"]:
        sid = r["path"].rsplit("/", 1)[-1].split(":")[0]
        if r["endpoint"] == "sheets.get":
            reads[sid] += 1
        elif r["endpoint"] == "sheets.batchUpdate":
            writes[sid] += 1
    books = {created.spreadsheet_id, created.gm_book, *created.player_books.values()}
    assert set(reads) == books and set(reads.values()) == {1}  # one read per spreadsheet
    assert set(writes.values()) == {1} and set(writes) <= books  # one write per spreadsheet written
    again = google.backend(created.spreadsheet_id).read()
    assert again["Разведка A"] == [["Донесение"], [SPY]] and again["Войско A"][1][0] == ARMY
    gm_titles = [s["properties"]["title"] for s in google.emu.dump(created.gm_book)["sheets"]]
    assert again["Журнал"] == [["Запись"], [LOG]] and "Журнал" in gm_titles and "Заметки" in gm_titles

    def roles(sid: str) -> dict[str, str]:
        return {p.get("emailAddress"): p["role"] for p in google.emu.dump(sid)["permissions"] if p["role"] != "owner"}

    assert roles(created.gm_book) == {GM: "writer"}
    assert roles(created.player_books["A"]) == {GM: "writer", P1: "writer"}
    assert roles(created.player_books["B"]) == {GM: "writer", P2: "writer"}
    assert roles(created.spreadsheet_id) == {GM: "writer", None: "reader"}  # the players: by its link (i23 p7)

    for sid in (created.gm_book, created.player_books["A"]):
        with pytest.raises((GoogleNotFoundError, GooglePermissionError)):
            _as(google, P2, sid)
    for sid in (created.spreadsheet_id, created.player_books["B"]):
        text = _as(google, P2, sid)
        assert "Карта" in text or "Приказы B" in text
        # not even a private tab's name
        for fact in (ARMY, SPY, GM_ONLY, LOG, NOTE, "Войско A", "Разведка A", "Ведущий", "Журнал", "Заметки"):
            assert fact not in text, (sid, fact)
    assert "Идти" in _as(google, P2, created.spreadsheet_id)  # a hidden tab is fetched too: the read is whole
    own = _as(google, P1, created.player_books["A"])
    assert ARMY in own and SPY in own  # the check can fail: A does see its own army and report
    assert "Отчёт B" in _as(google, P2, created.player_books["B"])
