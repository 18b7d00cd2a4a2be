"""sheets_bridge/xlsx_writer.py writes the same workbook parts as openpyxl's own writer, without
a temporary file per worksheet."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.writer.excel import ExcelWriter

from engine import rulesets
from sheets_bridge import sync, xlsx_writer
from sheets_bridge.xlsx import XlsxBackend, save_workbook

STAMPED = "docProps/core.xml"  # holds the moment of the save


def parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist() if n != STAMPED}


def by_openpyxl(source: Path, target: Path) -> None:
    wb = openpyxl.load_workbook(source)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as archive:
        ExcelWriter(wb, archive).save()


@pytest.mark.parametrize("game", ["ancient", "civ1"])
def test_a_played_campaign_saves_to_the_same_parts(game: str, tmp_path: Path) -> None:
    """A demo campaign after a check and a resolve (notes, charts, validations, conditional formats,
    hidden tabs): every book beside it saved both ways holds the same parts, byte for byte."""
    path = tmp_path / "demo.xlsx"
    sync.create(str(path), ruleset=game, scenario="demo", secret="s" * 32)
    backend = XlsxBackend(path)
    backend.write(rulesets.get(game).demo_changes(backend.read()))
    sync.check(XlsxBackend(path))
    sync.resolve(XlsxBackend(path))
    books = sorted(tmp_path.rglob("*.xlsx"))
    assert len(books) == (7 if game == "civ1" else 1)  # the GM's, the public and five players' books
    for book in books:
        ours, theirs = tmp_path / "ours.out", tmp_path / "theirs.out"
        save_workbook(openpyxl.load_workbook(book), ours)
        by_openpyxl(book, theirs)
        mine, reference = parts(ours), parts(theirs)
        assert list(mine) == list(reference), book
        assert any(n.startswith("xl/worksheets/sheet") for n in mine)
        for name in reference:
            assert mine[name] == reference[name], (book, name)


def test_no_temporary_file_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worksheets never pass through a temporary file (openpyxl's writer makes one per tab)."""
    from openpyxl.worksheet import _writer

    path = tmp_path / "demo.xlsx"
    sync.create(str(path), scenario="demo", secret="s" * 32)
    made: list[str] = []
    real = _writer.create_temporary_file

    def counted(suffix: str = "") -> str:
        made.append(real(suffix))
        return made[-1]

    monkeypatch.setattr(_writer, "create_temporary_file", counted)
    save_workbook(openpyxl.load_workbook(path), tmp_path / "ours.xlsx")
    assert made == []
    by_openpyxl(path, tmp_path / "theirs.xlsx")  # the spy does see openpyxl's own
    assert len(made) == len(openpyxl.load_workbook(path).worksheets) > 1
    assert xlsx_writer.Writer.write_worksheet is not ExcelWriter.write_worksheet


def test_every_kind_of_cell_is_written_as_openpyxl_writes_it(tmp_path: Path) -> None:
    """Text (spaces kept, markup escaped, line breaks, only spaces), numbers (whole, fractional,
    huge, tiny, not a number), booleans, formulas, styled empty cells, notes -- and what is left to
    openpyxl (rich text, dates, errors, array formulas, hyperlinks): the same worksheet XML."""
    import datetime

    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont
    from openpyxl.comments import Comment
    from openpyxl.styles import Alignment, Font
    from openpyxl.worksheet.formula import ArrayFormula

    wb = openpyxl.Workbook()
    ws = wb.active
    values = ["plain", " lead", "trail ", "   ", "a&b<c>d\"e'f", "line\nbreak", "tab\there", "=not a formula",
              "Ёлки «ёлки»", 5, -3, 0, 2.5, 1e-7, 123456789012345678, float("nan"), float("inf"), True, False,
              "=SUM(A1:A2)", "=", None, "", datetime.datetime(2026, 1, 2, 3, 4, 5), datetime.date(2026, 1, 2),
              "#N/A", CellRichText("a ", TextBlock(InlineFont(b=True), "bold"))]
    for r, v in enumerate(values, start=1):
        for c in (1, 2):
            cell = ws.cell(row=r, column=c, value=v)
            if c == 2:
                cell.font = Font(bold=True)
                cell.alignment = Alignment(wrap_text=True)
    ws.cell(row=3, column=1).data_type = "s"  # a text cell that a "=…" value would have made a formula
    ws["A8"].data_type = "s"
    ws["C1"] = "with a note"
    ws["C1"].comment = Comment("a note", "Strategos")
    ws["C2"] = "a link"
    ws["C2"].hyperlink = "https://example.org"
    ws["C3"] = ArrayFormula("C3:C3", "=SUM(A9:A10)")
    ws["C4"].font = Font(italic=True)  # styled, no value
    ws.row_dimensions[5].height = 30
    ws["D40"] = "far below"

    ours, theirs = tmp_path / "ours.xlsx", tmp_path / "theirs.xlsx"
    save_workbook(wb, ours)
    with zipfile.ZipFile(theirs, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as archive:
        ExcelWriter(wb, archive).save()
    mine, reference = parts(ours), parts(theirs)
    assert list(mine) == list(reference)
    for name in reference:
        assert mine[name] == reference[name], name
    sheet = mine["xl/worksheets/sheet1.xml"].decode()
    assert '<t xml:space="preserve"> lead</t>' in sheet and "a&amp;b&lt;c&gt;" in sheet
    assert "<f>SUM(A1:A2)</f><v /></c>" in sheet and 't="b"><v>1</v>' in sheet


def test_a_cell_left_to_openpyxl_is_said_so() -> None:
    """`cell_xml` writes only what it knows; the rest (a date, an error) is None: openpyxl's own."""
    import datetime

    ws = openpyxl.Workbook().active
    ws["A1"] = datetime.date(2026, 1, 2)
    ws["A2"] = "#N/A"
    ws["A3"] = "text"
    assert xlsx_writer.cell_xml(ws["A1"]) is None and xlsx_writer.cell_xml(ws["A2"]) is None
    assert xlsx_writer.cell_xml(ws["A3"]) == '<c r="A3" t="inlineStr"><is><t>text</t></is></c>'
