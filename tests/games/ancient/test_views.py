"""Views per audience (issue 17 p3, helper H5): the game's own word on who may see each tab
(`Ruleset.tab_audiences`), used by the bridge with every write; and the known leaks closed, each
tested as the player would meet it — a Google campaign's bookkeeping read with a player's own
identity on the emulator, an .xlsx player's book opened with openpyxl (and LibreOffice), the
opt-in books of a game without hidden information."""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
import test_google_support as support
from test_audiences import ARMY, GM_ONLY, SIDES, hidden_spec
from test_google_support import GM, P1, P2, GoogleEnv, small_spec

from engine.core import audience
from engine.core.audience import GM as GM_AUDIENCE
from engine.core.audience import PUBLIC, Audience, player
from engine.core.errors import BackendError, UsageError
from engine.core.tables import Changeset, Formula, ReplaceTab, Tables, Validation, WorkbookSpec
from engine.rulesets import get
from engine.rulesets.ancient import ruleset
from sheets_bridge import gsheets, sync, xlsx_books
from sheets_bridge.cli import main
from sheets_bridge.google_http import make_client
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

emulator_server = support.emulator_server
google = support.google

ANCIENT = get("ancient")


# ------------------------------------------------------------------ the Ruleset member


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_ancient_view_agrees_with_the_audiences_its_new_campaign_declares(lang: str) -> None:
    spec = ruleset.new_workbook("demo", lang)
    declared = audience.audiences(spec.tabs)
    view = ANCIENT.tab_audiences({t.name: t.rows for t in spec.tabs})
    assert view == declared
    assert {a.kind for a in view.values()} == {"gm", "public", "player"}  # the check can fail


def test_the_ancient_view_names_the_tabs_resolve_makes_and_leaves_a_hand_made_tab_out(tmp_path: Path) -> None:
    campaign = tmp_path / "ancient.xlsx"
    sync.create(str(campaign), secret=support.SECRET)
    backend = XlsxBackend(campaign)
    backend.write(ruleset.demo_changes(backend.read()))
    sync.resolve(XlsxBackend(campaign), turn=1)
    tables = XlsxBackend(campaign).read()
    view = ANCIENT.tab_audiences({**tables, "Заметки от руки": [], "Отчёт — Рим": []})
    assert "Заметки от руки" not in view  # the backend gives it to the GM: a mistake hides a tab
    assert view["Баланс"] == PUBLIC and view["Графики"] == PUBLIC and view["История"] == PUBLIC
    assert view["_История"] == GM_AUDIENCE and view["Архив приказов"] == GM_AUDIENCE
    assert view["Приказы — Рим"] == player("Рим") and view["Отчёт — Рим"] == player("Рим")


class _Declaring:
    """A game's view that makes the map A's after creation (a fog of war falling)."""

    def tab_audiences(self, tables: Tables) -> dict[str, Audience]:
        return {"Карта": player("A")} if "Карта" in tables else {}


def test_a_game_declares_a_tabs_audience_after_creation_and_the_xlsx_books_follow(tmp_path: Path) -> None:
    campaign = tmp_path / "тайны.xlsx"
    create_xlsx(hidden_spec(), campaign)
    public = xlsx_books.book_path(campaign, PUBLIC)
    book_a, book_b = (xlsx_books.book_path(campaign, player(s)) for s in SIDES)
    assert "Карта" in openpyxl.load_workbook(public).sheetnames  # public at creation
    backend = XlsxBackend(campaign)
    tables = backend.read()
    changes = Changeset(replace=[ReplaceTab("Карта", [["Провинция", "Владелец"], ["Альфа", "A"]])])
    sync.declare_audiences(_Declaring(), tables, changes)  # type: ignore[arg-type]
    assert changes.audiences == {"Карта": player("A")}
    backend.write(changes)
    assert "Карта" not in openpyxl.load_workbook(public).sheetnames
    assert "Карта" not in openpyxl.load_workbook(book_b).sheetnames
    assert "Карта" in openpyxl.load_workbook(book_a).sheetnames
    assert xlsx_books.record_of(openpyxl.load_workbook(campaign))["Карта"] == player("A")  # kept for later writes


# ------------------------------------------------------------------ Google: the bookkeeping tab


def _fetch(google: GoogleEnv, identity: str, sid: str) -> str:
    """Everything ``identity`` can fetch of spreadsheet ``sid`` (hidden tabs too), as text."""
    return json.dumps(gsheets.get_spreadsheet(make_client(google.key(identity)), sid, "*"), ensure_ascii=False)


def test_google_a_player_reads_no_email_title_or_book_id_in_the_campaigns_bookkeeping(google: GoogleEnv) -> None:
    created = google.create(hidden_spec(), players=SIDES)
    as_b = _fetch(google, P2, created.spreadsheet_id)
    assert gsheets.BACKEND_TAB in as_b  # the tab is there, hidden, as every player can fetch it
    for secret in (P1, GM, created.player_books["A"], f"{hidden_spec().title} — ", "#share", "#name"):
        assert secret not in as_b, secret
    gm_book = _fetch(google, GM, created.gm_book)  # the GM's spreadsheet keeps it all
    assert P1 in gm_book and P2 in gm_book and created.player_books["A"] in gm_book
    backend = google.backend(created.spreadsheet_id)  # and the program still finds everything
    tables = backend.read()
    assert tables["Войско A"][1][0] == ARMY and tables["Ведущий"][1][0] == GM_ONLY
    assert backend.keeper == created.gm_book and backend.books[created.gm_book].record
    assert backend.audit() == []  # what was shared is read from the GM's spreadsheet


def test_google_private_orders_of_the_ancient_game_keep_the_bookkeeping_in_the_gm_book(google: GoogleEnv) -> None:
    first, second = "Г0000", "Г0001"
    created = google.create(small_spec(), players={first: P1, second: P2}, private_orders=True)
    as_p1 = _fetch(google, P1, created.spreadsheet_id)
    rome = created.order_books[f"Приказы — {second}"]
    for secret in (P2, GM, rome, f"Приказы — {second}", "#share"):
        assert secret not in as_p1, secret
    backend = google.backend(created.spreadsheet_id)
    tables = backend.read()
    assert f"Приказы — {second}" in tables and "Архив приказов" in tables
    assert backend.tab_home[f"Приказы — {second}"] == rome
    notes = ReplaceTab("Заметки ведущего", [["Заметка"], ["засада"]], audience=GM_AUDIENCE)
    backend.write(Changeset(replace=[notes]))  # a new GM tab is recorded where the players cannot read it
    assert "Заметки ведущего" not in _fetch(google, P1, created.spreadsheet_id)
    assert google.backend(created.spreadsheet_id).read()["Заметки ведущего"][1] == ["засада"]


# ------------------------------------------------------------------ .xlsx: formulas over removed tabs


def formula_spec() -> WorkbookSpec:
    """`hidden_spec` with formulas in A's tab over a public tab and over the GM's, and dropdowns
    in A's orders: one listed inline, one drawing on the public «Списки» (not in A's book)."""
    spec = hidden_spec()
    army = next(t for t in spec.tabs if t.name == "Войско A")
    army.rows.append([Formula("='Карта'!B2"), Formula("='Ведущий'!A2"), Formula("=A2")])
    at = next(i for i, t in enumerate(spec.tabs) if t.name == "Приказы A")
    spec.tabs[at] = dataclasses.replace(spec.tabs[at], validations=(
        Validation(2, 0, 1, options=("Идти", "Стоять")), Validation(2, 0, 2, source="'Списки'!A2:A9")))
    return spec


def _formulas(path: Path) -> list[str]:
    wb = openpyxl.load_workbook(path)
    return [str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row
            if isinstance(c.value, str) and c.value.startswith("=")]


def test_xlsx_a_players_formula_over_a_removed_tab_becomes_a_value_or_a_blank(tmp_path: Path) -> None:
    campaign = tmp_path / "тайны.xlsx"
    create_xlsx(formula_spec(), campaign)
    book_a = xlsx_books.book_path(campaign, player("A"))
    ws = openpyxl.load_workbook(book_a)["Войско A"]
    assert [ws.cell(3, c).value for c in (1, 2, 3)] == [None, None, "=A2"]  # none computed yet; its own stays
    assert "='Карта'!B2" in _formulas(campaign)  # the GM's workbook keeps the formulas
    assert not [f for f in _formulas(book_a) if "!" in f]
    # a workbook a spreadsheet program saved holds the computed values: a public one is kept, the
    # GM's never reaches a player's book
    wb = openpyxl.load_workbook(campaign)
    cached = openpyxl.load_workbook(campaign)
    cached["Войско A"].cell(3, 1).value, cached["Войско A"].cell(3, 2).value = "A", GM_ONLY
    tabs = ["Приказы A", "Войско A"]
    xlsx_books._keep_only(wb, tabs, cached, readable=["Карта", "Списки", *tabs])
    assert [wb["Войско A"].cell(3, c).value for c in (1, 2, 3)] == ["A", None, "=A2"]


def _gm_state(path: Path) -> tuple[list[str], list[str], int, int]:
    """What the books must never take from the GM's workbook: its tabs, formulas, dropdowns, record."""
    wb = openpyxl.load_workbook(path)
    validations = sum(len(ws.data_validations.dataValidation) for ws in wb.worksheets)
    return wb.sheetnames, sorted(_formulas(path)), validations, len(xlsx_books.record_of(wb) or {})


def test_xlsx_books_leave_the_gms_workbook_in_memory_whole_for_its_next_save(tmp_path: Path) -> None:
    """The books are saved from the GM's workbook in memory, narrowed for each save: it is put back
    after each, so the same backend's next save writes the GM's whole workbook again."""
    campaign = tmp_path / "тайны.xlsx"
    create_xlsx(formula_spec(), campaign)
    tabs, formulas, validations, recorded = _gm_state(campaign)
    assert "='Ведущий'!A2" in formulas and validations > 0 and recorded == len(tabs)  # the check can fail
    backend = XlsxBackend(campaign)
    backend.read()
    backend.write(Changeset(replace=[ReplaceTab("Карта", [["Провинция", "Владелец"], ["Гамма", "A"]])]))
    backend.write(Changeset(replace=[ReplaceTab("Карта", [["Провинция", "Владелец"], ["Дельта", "B"]])]))
    assert _gm_state(campaign) == (tabs, formulas, validations, recorded)
    assert "Дельта" in _workbook_values(campaign)
    book_a = xlsx_books.book_path(campaign, player("A"))
    assert openpyxl.load_workbook(book_a).sheetnames == ["Приказы A", "Войско A"]
    ws = openpyxl.load_workbook(book_a)["Войско A"]
    assert [ws.cell(3, c).value for c in (1, 2, 3)] == [None, None, "=A2"]
    kept = openpyxl.load_workbook(book_a)["Приказы A"].data_validations.dataValidation
    assert [dv.formula1 for dv in kept] == ['"Идти,Стоять"']  # the one over a tab A's book lacks is dropped
    assert "Дельта" in _workbook_values(xlsx_books.book_path(campaign, PUBLIC))


def _workbook_values(path: Path) -> list[object]:
    wb = openpyxl.load_workbook(path)
    return [c.value for ws in wb.worksheets for row in ws.iter_rows() for c in row]


def test_a_book_whose_save_fails_leaves_the_gms_workbook_in_memory_whole(tmp_path: Path) -> None:
    campaign = tmp_path / "тайны.xlsx"
    create_xlsx(formula_spec(), campaign)
    wb = openpyxl.load_workbook(campaign)
    before = (wb.sheetnames, [(ws.title, c.coordinate, c.value) for ws in wb.worksheets for row in ws.iter_rows()
                              for c in row], len(wb.custom_doc_props.props))

    def failing(book: object, path: Path, **_: object) -> str:
        assert len(wb.sheetnames) < len(before[0])  # the workbook is narrowed for the book's save
        raise BackendError("диск полон")

    with pytest.raises(BackendError):
        xlsx_books.write_books(campaign, xlsx_books.record_of(wb) or {}, failing, wb)
    after = (wb.sheetnames, [(ws.title, c.coordinate, c.value) for ws in wb.worksheets for row in ws.iter_rows()
                             for c in row], len(wb.custom_doc_props.props))
    assert after == before


def test_libreoffice_opens_a_players_book_without_an_error_cell(tmp_path: Path) -> None:
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    assert exe, "LibreOffice is required for this test: apt-get install libreoffice-calc-nogui"
    campaign = tmp_path / "t.xlsx"
    create_xlsx(formula_spec(), campaign)
    book_a = xlsx_books.book_path(campaign, player("A"))
    out = tmp_path / "csv"
    filter_ = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
    proc = subprocess.run([exe, f"-env:UserInstallation=file://{tmp_path / 'lo'}", "--headless", "--convert-to",
                           filter_, str(book_a), "--outdir", str(out)], capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    sheets = sorted(out.glob("*.csv"))
    assert len(sheets) == 2
    cells = [v for path in sheets for row in csv.reader(path.open(encoding="utf-8")) for v in row]
    assert ARMY in cells  # the check can fail: the book was read
    assert not [v for v in cells if v.startswith(("#REF", "#NAME", "Err:"))], cells


# ------------------------------------------------------------------ .xlsx: opt-in books for the ancient game


def _resolved(campaign: Path) -> None:
    backend = XlsxBackend(campaign)
    backend.write(ruleset.demo_changes(backend.read()))


def test_player_books_opt_in_at_new_and_resolve_writes_them_again(tmp_path: Path, capsys) -> None:
    campaign = tmp_path / "ancient.xlsx"
    assert main(["new", str(campaign), "--player-books", "--quiet"]) == 0
    public = xlsx_books.book_path(campaign, PUBLIC)
    rome = xlsx_books.book_path(campaign, player("Рим"))
    carthage = xlsx_books.book_path(campaign, player("Карфаген"))
    assert public.exists() and rome.exists() and carthage.exists()
    capsys.readouterr()
    _resolved(campaign)
    assert main(["resolve", str(campaign), "--turn", "1", "--quiet"]) == 0, capsys.readouterr().err
    gm = openpyxl.load_workbook(campaign).sheetnames
    assert "Отчёт — Рим" in gm  # each player's report, made because the players now have books
    own = openpyxl.load_workbook(rome).sheetnames
    assert own == ["Приказы — Рим", "Отчёт — Рим"]
    shown = openpyxl.load_workbook(public).sheetnames
    assert "Баланс" in shown and "Графики" in shown and "Журнал" in shown
    for book in (public, rome, carthage):
        names = openpyxl.load_workbook(book).sheetnames
        assert not {"Архив приказов", "_История", "События ведущего"} & set(names), book
    assert "Приказы — Карфаген" not in own and "Отчёт — Карфаген" not in own
    meta_tab = openpyxl.load_workbook(public)["Кампания"]
    assert any(r[1] == 2 for r in meta_tab.iter_rows(values_only=True) if r[0] == "Открытый ход")  # after resolve


def test_player_books_opt_in_at_resolve_for_a_campaign_made_without(tmp_path: Path, capsys) -> None:
    campaign = tmp_path / "ancient.xlsx"
    sync.create(str(campaign), secret=support.SECRET)
    _resolved(campaign)
    public = xlsx_books.book_path(campaign, PUBLIC)
    assert main(["check", str(campaign), "--quiet"]) == 0
    assert not public.exists()  # no opt-in, no books (as before)
    assert main(["resolve", str(campaign), "--turn", "1", "--player-books", "--quiet"]) == 0, capsys.readouterr().err
    assert public.exists() and "Баланс" in openpyxl.load_workbook(public).sheetnames
    rome = xlsx_books.book_path(campaign, player("Рим"))
    assert openpyxl.load_workbook(rome).sheetnames == ["Приказы — Рим", "Отчёт — Рим"]
    rome.unlink()
    _resolved(campaign)  # opted in once: every later write writes them (here the turn 2 orders)
    assert rome.exists()


def test_player_books_are_refused_for_a_google_campaign() -> None:
    with pytest.raises(UsageError):
        sync.open_backend("1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", books=True)
