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
