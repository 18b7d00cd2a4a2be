"""A real spreadsheet application opens our workbook: LibreOffice Calc, headless.

Every sheet converts to CSV without errors and the numbers it shows equal the engine's.
.ci/run installs LibreOffice (Debian's libreoffice-calc-nogui).
"""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

from engine.core.money import amount
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend

CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"


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
    assert rows[0] == [str(h) for h in tables["Баланс"][0]]
    for lo_row, row in zip(rows[1:], tables["Баланс"][1:]):
        assert lo_row[0] == row[0]
        for lo_value, value in zip(lo_row[1:], row[1:]):
            assert amount(lo_value) == amount(value)
    text = (out / "demo-Журнал.csv").read_text(encoding="utf-8")
    assert "#REF!" not in text and "#NAME?" not in text and "Жребий" in text
