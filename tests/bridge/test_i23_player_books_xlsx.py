"""Issue 23, points 1 and 2 on .xlsx: a player's own book (``<campaign>.players/<side>.xlsx``) is
where that player types orders.  Every command reads them (only the input block of that side's own
order tab), the player's book wins over the GM's copy when the player changed it (the GM told when
both changed), a sheet a player adds -- titled as another side's order tab or anything else -- is
never read and is named to the GM, and nothing typed in a book is lost: what is not read is kept
in ``<side>.xlsx.bak``, a book that cannot be read is not rewritten."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import duo_game.words as duo
import openpyxl
import pytest

from engine import rulesets
from engine.core.audience import player
from engine.core.tables import Cell, Changeset, WriteBlock
from engine.rulesets.civ1.vocab import ORDERS, orders_tab, realm_tab
from sheets_bridge import xlsx_books
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend

STATUS = ORDERS.col("status")
ARCHIVE = "Архив приказов"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code == 0, (argv, captured.err)
    return json.loads(captured.out)


def _civ(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "civ.xlsx"
    _run(capsys, "new", str(path), "--ruleset", "civ1", "--scenario", "demo")
    return path


def _book(path: Path, side: str) -> Path:
    return xlsx_books.book_path(path, player(side))


def _type(path: Path, tab: str, row: int, values: list[Cell], add: bool = False) -> None:
    """Type ``values`` into ``tab`` of the workbook at ``path`` (made if ``add``), as a person would."""
    wb = openpyxl.load_workbook(path)
    ws = wb.create_sheet(tab) if add else wb[tab]
    for c, v in enumerate(values, start=1):
        ws.cell(row=row, column=c, value=v)
    wb.save(path)


def _row(path: Path, tab: str, row: int) -> list[Cell]:
    ws = openpyxl.load_workbook(path)[tab]
    return [ws.cell(row=row, column=c).value for c in range(1, len(ORDERS.columns) + 1)]


def _warnings(out: dict[str, object]) -> str:
    return "\n".join(str(w) for w in out.get("warnings", []))  # type: ignore[union-attr]


def test_i23_p1_orders_typed_in_a_players_xlsx_book_are_read_and_resolved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """«Приказы — Рим» of civ.players/Рим.xlsx: the check judges the row (in the GM's workbook and in
    the book sent back), the resolve plays and archives it -- not «приказов нет» and an erased book."""
    path = _civ(tmp_path, capsys)
    order = ["государство", "Основать город", "Застава", "11,5"]
    _type(_book(path, "Рим"), orders_tab("Рим"), 2, order)
    checked = _run(capsys, "check", str(path))
    assert not _warnings(checked)
    for where in (path, _book(path, "Рим")):
        line = _row(where, orders_tab("Рим"), 2)
        assert line[:4] == order and line[STATUS - 1], (where, line)
    _run(capsys, "resolve", str(path), "--stage", "государство")
    archived = [r for r in openpyxl.load_workbook(path)[ARCHIVE].iter_rows(values_only=True) if "Рим" in r]
    assert any("Застава" in r for r in archived), archived
    assert _row(_book(path, "Рим"), orders_tab("Рим"), 2)[:4] != order  # resolved: the book shows the result


def test_i23_p1_the_players_book_wins_over_the_gms_copy_and_the_gm_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _civ(tmp_path, capsys)
    mine, theirs = ["государство", "Разведка", None, "3,4"], ["государство", "Нет действий"]
    _type(path, orders_tab("Египет"), 2, mine)  # the GM types in the GM's copy ...
    _type(_book(path, "Египет"), orders_tab("Египет"), 2, theirs)  # ... and the player in the book
    warned = _warnings(_run(capsys, "check", str(path)))
    assert f"«{orders_tab('Египет')}»" in warned and "строки 2" in warned and "Разведка |  | 3,4" in warned
    assert _row(path, orders_tab("Египет"), 2)[:4] == [*theirs, None, None]


def test_i23_p1_orders_the_gm_typed_stand_while_the_players_book_is_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _civ(tmp_path, capsys)
    _type(path, orders_tab("Китай"), 2, ["государство", "Нет действий"])  # an order received by e-mail
    out = _run(capsys, "check", str(path))
    assert not _warnings(out)
    for where in (path, _book(path, "Китай")):
        assert _row(where, orders_tab("Китай"), 2)[:2] == ["государство", "Нет действий"]
        assert _row(where, orders_tab("Китай"), 2)[STATUS - 1]


def test_i23_p2_a_sheet_added_to_a_players_xlsx_book_is_never_read_and_kept_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Рим's player adds «Приказы — Египет» (orders for Egypt) and «Заметки» to Рим.xlsx and types in
    their «Держава» tab: none of it is read, each is named, and the old book is kept as Рим.xlsx.bak."""
    path = _civ(tmp_path, capsys)
    rome = _book(path, "Рим")
    _type(rome, orders_tab("Египет"), 2, ["государство", "Основать город", "Подделка", "1,1"], add=True)
    _type(rome, "Заметки", 1, ["мой план"], add=True)
    _type(rome, realm_tab("Рим"), 3, ["Власть", 99])
    warned = _warnings(_run(capsys, "check", str(path)))
    for named in (f"«{orders_tab('Египет')}»", "«Заметки»", f"«{realm_tab('Рим')}»"):
        assert named in warned, (named, warned)
    assert _row(path, orders_tab("Египет"), 2) == [None] * len(ORDERS.columns)  # Egypt's real tab: no row, no status
    resolved = _run(capsys, "resolve", str(path), "--stage", "государство")
    assert "Подделка" not in json.dumps(resolved, ensure_ascii=False)
    assert openpyxl.load_workbook(rome).sheetnames == [orders_tab("Рим"), realm_tab("Рим")]  # the book rewritten
    kept = openpyxl.load_workbook(io.BytesIO(rome.with_name(rome.name + ".bak").read_bytes()))  # ... the player's kept
    assert kept[orders_tab("Египет")]["C2"].value == "Подделка" and kept["Заметки"]["A1"].value == "мой план"
    assert all("Подделка" not in r for r in openpyxl.load_workbook(path)[ARCHIVE].iter_rows(values_only=True))


def test_i23_p1_a_book_that_cannot_be_read_is_named_and_not_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _civ(tmp_path, capsys)
    greece = _book(path, "Греция")
    greece.write_bytes(b"not a workbook: the player saved it as something else")
    warned = _warnings(_run(capsys, "check", str(path)))
    assert str(greece) in warned and "не читается" in warned
    assert greece.read_bytes().startswith(b"not a workbook")


def test_i23_p1_the_ancient_game_with_player_books_reads_orders_typed_in_a_book(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.xlsx"
    _run(capsys, "new", str(path), "--ruleset", "ancient", "--scenario", "demo", "--player-books")
    book = _book(path, "Рим")
    _type(book, "Приказы — Рим", 2, ["Нет действий"])
    assert not _warnings(_run(capsys, "check", str(path)))
    ws = openpyxl.load_workbook(path)["Приказы — Рим"]
    header = [c.value for c in ws[1]]
    assert ws["A2"].value == "Нет действий" and ws.cell(row=2, column=header.index("Статус") + 1).value


def test_i23_p1_a_formula_typed_in_a_players_book_is_read_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Player text is data: a formula typed in the book reaches the GM's workbook, and the book
    written back, as a string, never as a live formula."""
    path = _civ(tmp_path, capsys)
    formula = '=HYPERLINK("http://example.com","x")'
    _type(_book(path, "Греция"), orders_tab("Греция"), 2, ["государство", "Нет действий", None, None, None, None,
                                                            formula])
    _run(capsys, "check", str(path))
    for where in (path, _book(path, "Греция")):
        cell = openpyxl.load_workbook(where)[orders_tab("Греция")]["G2"]
        assert (cell.value, cell.data_type) == (formula, "s"), where


def test_i23_p1_a_book_saved_again_after_the_read_is_not_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The player saves their book while a command runs (after its read): the command's write
    does not replace it -- what they typed then is read by the next command -- and the GM is told."""
    path = _civ(tmp_path, capsys)
    backend = XlsxBackend(path)
    backend.read()
    late = ["государство", "Нет действий"]
    _type(_book(path, "Рим"), orders_tab("Рим"), 2, late)
    backend.write(Changeset(blocks=[WriteBlock("Журнал", 1, 1, [["Окно"]])]))
    assert any(str(_book(path, "Рим")) in w for w in backend.audit())
    assert _row(_book(path, "Рим"), orders_tab("Рим"), 2)[:2] == late
    _run(capsys, "check", str(path))
    assert _row(path, orders_tab("Рим"), 2)[:2] == late


def test_i23_p1_p2_the_duo_game_reads_b_from_bs_book_and_nothing_b_writes_for_a(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test game of two stages: B's rows typed in B's book are judged (one waits for «торг»);
    a sheet «Приказы — A» that B adds to their book gives A no row."""
    monkeypatch.setitem(rulesets.RULESETS, duo.NAME, "duo_game.game:RULESET")
    path = tmp_path / "дуэт.xlsx"
    _run(capsys, "new", str(path), "--ruleset", duo.NAME)
    book = _book(path, "B")
    rows = [["сбор", "добыть", "золото", 7], ["сбор", "добыть", "зерно", 5], ["торг", "продать", "зерно", 20]]
    for r, values in enumerate(rows, start=2):
        _type(book, duo.orders_tab("B"), r, values)
    _type(book, duo.orders_tab("A"), 2, ["сбор", "добыть", "золото", 9], add=True)
    checked = _run(capsys, "check", str(path))
    warned = _warnings(checked)
    assert checked["waiting"] == 1 and "A не прислал приказов" in warned, warned  # A plays its stand-in only
    assert checked["orders"] == {"accepted": 3}  # B's two rows and A's stand-in
    assert f"«{duo.orders_tab('A')}»" in _warnings(checked)
    assert all(v is None for line in openpyxl.load_workbook(path)[duo.orders_tab("A")].iter_rows(min_row=2,
                                                                                                  values_only=True)
               for v in line)


def test_i23_p1_p2_an_english_campaign_is_told_in_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The books are read before the campaign's language is known: their warnings are worded when
    shown, in the campaign's language."""
    path = tmp_path / "civ.xlsx"
    _run(capsys, "new", str(path), "--ruleset", "civ1", "--scenario", "demo", "--lang", "en")
    book = _book(path, "Rome")
    _type(book, orders_tab("Egypt", "en"), 2, ["state", "Found city", "Forged", "1,1"], add=True)
    _type(book, orders_tab("Rome", "en"), 2, ["state", "No action"])
    warned = _warnings(_run(capsys, "check", str(path)))
    assert f"In Rome's book ({book}) the tab «{orders_tab('Egypt', 'en')}» was not made by the program" in warned
    assert not re.search("[А-Яа-яЁё]", warned.replace(str(tmp_path), "")), warned
    assert _row(path, orders_tab("Rome", "en"), 2)[:2] == ["state", "No action"]


def test_i23_p1_p6_a_rollback_keeps_what_a_player_typed_since_as_bak_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rollback puts the order tabs back as the window had them: what a player typed in their own
    book since is not thrown away silently — the book as the player left it is kept as ``.bak`` and
    the GM is told (a reviewer's find)."""
    path = _civ(tmp_path, capsys)
    _run(capsys, "resolve", str(path))
    typed = ["города", "Контршпион", None, "Рим"]
    _type(_book(path, "Рим"), orders_tab("Рим"), 4, typed)
    assert main(["rollback", str(path), "--to", "1:государство"]) == 0
    err = capsys.readouterr().err
    bak = _book(path, "Рим").with_name("Рим.xlsx.bak")
    assert bak.exists() and str(bak) in err, err
    kept = openpyxl.load_workbook(io.BytesIO(bak.read_bytes()))[orders_tab("Рим")]
    assert [kept.cell(row=4, column=c).value for c in range(1, 5)] == typed
