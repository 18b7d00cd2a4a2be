"""Issue 23, point 11: every command run on the wrong book says so.

A campaign with hidden information is several books: on .xlsx ``g.xlsx`` (the GM's), ``g.public.xlsx``
and ``g.players/<side>.xlsx``; on Google the campaign spreadsheet, each player's and the GM's hidden
one.  Before, ``history g.public.xlsx`` said «ни один ход не разрешён» (exit 0) and ``check`` listed six
missing tabs.  Now each book but the campaign carries a mark (sheets_bridge/book_mark.py) and every
command refuses it, naming the book, whose it is and where the GM's commands go, in the campaign's
language, with nothing written.  Both games on .xlsx (civ1 has the books always, the ancient game with
--player-books), civ1 on the emulator.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import test_google_support as support
from test_google_support import GoogleEnv

from engine.core.audience import GM, PUBLIC, player
from sheets_bridge import book_mark, gsheets, xlsx_books, xlsx_inputs
from sheets_bridge.cli import main
from sheets_bridge.gsheets_read import BookState
from sheets_bridge.gsheets_sharing import Record

emulator_server = support.emulator_server
google = support.google


def _commands(first: str, secret_file: str) -> list[list[str]]:
    """Every command that opens a campaign, with what it needs besides the campaign."""
    return [["check"], ["resolve"], ["history"], ["rollback", "--to", first], ["verify", "--turn", first],
            ["report"], ["secret", "export"], ["secret", "import", "TARGET", secret_file]]


def _argv(command: list[str], target: str, *extra: str) -> list[str]:
    """The command line with the campaign (``secret import`` takes it before its file)."""
    if "TARGET" in command:
        return [*(target if a == "TARGET" else a for a in command), *extra]
    head = 2 if command[0] == "secret" else 1
    return [*command[:head], target, *command[head:], *extra]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _every_file(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): _sha(p) for p in sorted(folder.rglob("*.xlsx"))}


@pytest.mark.parametrize(("ruleset", "options", "first", "side"), [
    ("civ1", [], "1:государство", "Рим"),
    ("ancient", ["--player-books"], "1", "Рим"),
], ids=["civ1", "ancient"])
def test_i23_p11_every_command_on_a_public_or_a_players_xlsx_book_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        ruleset: str, options: list[str], first: str, side: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new", "g.xlsx", "--ruleset", ruleset, *options, "-q"]) == 0
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text("not read", encoding="utf-8")
    before = _every_file(tmp_path)
    books = {"g.public.xlsx": "это публичная книга кампании", f"g.players/{side}.xlsx": f"это книга игрока «{side}»"}
    for book, words in books.items():
        for command in _commands(first, str(secret_file)):
            code = main(_argv(command, book))
            err = capsys.readouterr().err
            assert code == 2, (command, book, err)
            assert err.startswith(f"strategos: {book}: {words}"), (command, err)
            assert "команды ведущего — g.xlsx. Ничего не изменено." in err, (command, err)
            assert "Traceback" not in err and "нет листа" not in err, (command, err)
    assert _every_file(tmp_path) == before  # no book and no campaign written
    assert main(["check", "g.xlsx", "-q"]) == 0  # the GM's workbook is the campaign


def test_i23_p11_an_english_campaigns_player_book_is_refused_in_english(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's book has no meta tab: its mark carries the campaign's language."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "e.xlsx", "--ruleset", "civ1", "--lang", "en", "-q"]) == 0
    assert main(["history", "e.players/Rome.xlsx"]) == 2
    err = capsys.readouterr().err
    assert err == ("strategos: e.players/Rome.xlsx: this is the book of the player of «Rome», which that player "
                   "alone gets; the GM's commands take e.xlsx. Nothing was changed.\n")


def test_i23_p11_the_books_mark_says_whose_book_it_is_and_where_the_campaign_is(tmp_path: Path) -> None:
    """The mark (one custom document property) is written into every book with every write; the
    GM's workbook carries none."""
    import openpyxl

    campaign = tmp_path / "g.xlsx"
    assert main(["new", str(campaign), "--ruleset", "civ1", "-q"]) == 0
    assert xlsx_books.mark_of(openpyxl.load_workbook(campaign)) is None
    public = xlsx_books.mark_of(openpyxl.load_workbook(tmp_path / "g.public.xlsx"))
    rome = xlsx_books.mark_of(openpyxl.load_workbook(tmp_path / "g.players" / "Рим.xlsx"))
    assert public == book_mark.BookMark(PUBLIC, "g.xlsx", "ru")
    assert rome == book_mark.BookMark(player("Рим"), "g.xlsx", "ru")
    props = openpyxl.load_workbook(tmp_path / "g.players" / "Рим.xlsx").custom_doc_props.props
    names = [p.name for p in props]
    assert book_mark.PROPERTY in names
    # the audience record stays in the GM's workbook; a player's book has its mark and what was written into it
    own = {book_mark.PROPERTY, xlsx_books.MARKER_PROPERTY}  # its mark, the window it reflects
    assert all(n in own or n.startswith(xlsx_inputs.WRITTEN_PREFIX) for n in names), names


def test_i23_p11_a_mangled_mark_marks_nothing() -> None:
    assert book_mark.BookMark.decode("not json") is None
    assert book_mark.BookMark.decode('["чей-то", "g.xlsx"]') is None
    assert book_mark.BookMark.decode('["player:Рим", "g.xlsx"]') == book_mark.BookMark(player("Рим"), "g.xlsx")
    assert book_mark.BookMark.from_cells(["gm", "abc", "en"]) == book_mark.BookMark(GM, "abc", "en")


# ------------------------------------------------------------------ Google (the emulator)


@pytest.mark.parametrize(("ruleset", "options", "first"), [
    ("civ1", [], "1:государство"),
    ("ancient", ["--private-orders"], "1"),
], ids=["civ1", "ancient"])
def test_i23_p11_google_every_command_on_a_players_or_the_gms_spreadsheet_says_so(
        google: GoogleEnv, capsys: pytest.CaptureFixture[str], ruleset: str, options: list[str], first: str) -> None:
    creds = ["--credentials", str(google.sa_key)]
    assert main(["new", "--google", "--ruleset", ruleset, *options, "--gm", support.GM,
                 "--player", f"Рим={support.P1}", *creds, "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    sid = made["spreadsheet_id"]
    backend = google.backend(sid)
    backend.read()
    rome = backend.tab_home[next(t for t in backend.tab_home if t.endswith("Рим"))]
    gm_book = backend.audience_home["gm"]
    campaign_url = gsheets.spreadsheet_url(sid)
    for book, words in ((rome, "это книга игрока «Рим»"), (gm_book, "это таблица ведущего со скрытыми листами")):
        for command in _commands(first, "-")[:-1]:
            google.reset()
            code = main(_argv(command, book, *creds))
            err = capsys.readouterr().err
            assert code == 2, (command, err)
            assert err.startswith(f"strategos: {gsheets.spreadsheet_url(book)}: {words}"), (command, err)
            assert f"команды ведущего — {campaign_url}. Ничего не изменено." in err, (command, err)
            counts = google.counts()
            assert counts.get("sheets.get") == 1 and not counts.get("sheets.batchUpdate"), (command, counts)
    assert main(["check", sid, *creds, "-q"]) == 0  # the campaign itself
    marks = {book: google.backend(book) for book in (rome, gm_book)}
    for book, reader in ((rome, player("Рим")), (gm_book, GM)):
        marks[book].read()
        assert marks[book].mark == book_mark.BookMark(reader, sid, "ru")


def test_i23_p11_google_the_gms_spreadsheet_of_an_older_campaign_is_known_by_its_own_bookkeeping() -> None:
    """A campaign made before the ``#book`` row: its GM's spreadsheet names itself as the GM's book."""
    book = BookState("gm-id", record=Record({"camp-id": "Кампания", "rome-id": "Кампания — Рим", "gm-id": "…"}))
    home = {"@@gm": "gm-id", "@@player:Рим": "rome-id"}
    assert gsheets._gm_book_of_old("gm-id", book, home) == book_mark.BookMark(GM, "camp-id")
    assert gsheets._gm_book_of_old("camp-id", book, {"@@gm": "gm-id"}) is None
