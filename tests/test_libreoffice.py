"""A real spreadsheet application opens our workbook: LibreOffice Calc, headless.

Every sheet converts to CSV without errors and the numbers it shows equal the engine's.
.ci/run installs LibreOffice (Debian's libreoffice-calc-nogui).
"""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

from engine.core.money import amount
from engine.core.tables import Formula, column_index
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend

CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"


def engine_sum(grid: list, formula: str) -> Fraction:
    """What =SUM(C5:J5) adds up to with the numbers the engine wrote."""
    m = re.fullmatch(r"=SUM\(([A-Z]+)(\d+):([A-Z]+)(\d+)\)", formula)
    assert m, formula
    c1, r1, c2, r2 = column_index(m.group(1)), int(m.group(2)), column_index(m.group(3)), int(m.group(4))
    total = Fraction(0)
    for r in range(r1, r2 + 1):
        for c in range(c1, c2 + 1):
            v = grid[r - 1][c - 1] if c - 1 < len(grid[r - 1]) else None
            if isinstance(v, Formula):
                total += engine_sum(grid, str(v))
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                total += amount(v)
    return total


def soffice() -> str:
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    assert exe, "LibreOffice is required for this test: apt-get install libreoffice-calc-nogui"
    return exe


def test_libreoffice_opens_the_resolved_demo_and_agrees_with_the_engine(tmp_path: Path, capsys) -> None:
    assert main(["demo", str(tmp_path / "d")]) == 0
    capsys.readouterr()
    book = tmp_path / "d" / "demo.xlsx"
    out = tmp_path / "csv"
    profile = tmp_path / "lo-profile"
    proc = subprocess.run(
        [soffice(), f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", CSV_FILTER,
         str(book), "--outdir", str(out)],
        capture_output=True, text=True, timeout=180,
    )
    assert proc.returncode == 0, proc.stderr
    tables = XlsxBackend(book).read()
    for name in tables:
        assert (out / f"demo-{name}.csv").exists(), f"LibreOffice did not export {name}"
    with open(out / "demo-Баланс.csv", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    grid = tables["Баланс"]
    assert rows[0] == [str(h) for h in grid[0]]
    formulas = 0
    for r, (lo_row, row) in enumerate(zip(rows[1:], grid[1:]), start=2):
        assert lo_row[0] == row[0]
        for c, (lo_value, value) in enumerate(zip(lo_row[1:], row[1:]), start=2):
            if isinstance(value, Formula):
                formulas += 1
                assert amount(lo_value) == engine_sum(grid, str(value)), (r, c, value, lo_value)
            elif value is not None:
                assert amount(lo_value) == amount(value), (r, c)
    assert formulas >= 26 * 2 + 20  # two totals per state and the totals row
    text = (out / "demo-Журнал.csv").read_text(encoding="utf-8")
    assert "#REF!" not in text and "#NAME?" not in text and "Жребий" in text
