"""A real spreadsheet application opens our workbook: LibreOffice Calc, headless.

Every sheet converts to CSV without errors and the numbers it shows equal the engine's; the
balance prints on one page wide with every header whole (read back with poppler's pdfinfo and
pdftotext). .ci/run installs LibreOffice and poppler (Debian's libreoffice-calc-nogui and
poppler-utils).
"""

from __future__ import annotations

import csv
import importlib.util
import re
import shutil
import subprocess
from collections import Counter
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import repo_paths

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


def _render_docs() -> ModuleType:
    """scripts/render_docs.py, which renders docs/balance.png the same way."""
    path = repo_paths.ROOT / "scripts" / "render_docs.py"
    spec = importlib.util.spec_from_file_location("render_docs", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tool(name: str) -> str:
    exe = shutil.which(name)
    assert exe, f"{name} is required for this test: apt-get install poppler-utils"
    return exe


WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')


def test_i16_p7_libreoffice_prints_the_balance_after_three_turns_on_one_page_wide_with_whole_headers(
    tmp_path: Path,
) -> None:
    """The done-when of issue 16 point 7: LibreOffice prints the demo's balance after three turns
    (its own page setup, nothing resized) on one page, every header word whole -- not broken
    like «колонизаци/я» -- and inside the header row, above the first state's line."""
    render = _render_docs()
    book = render.demo_after_turns(tmp_path / "demo.xlsx")
    assert soffice()
    pdf = render.print_tab(book, render.BALANCE, tmp_path)
    info = subprocess.run([_tool("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+1$", info, re.M), info  # all 30 columns (and the 28 rows) on one page
    html = subprocess.run([_tool("pdftotext"), "-bbox", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    words = [(float(x0), float(y0), float(x1), float(y1), text) for x0, y0, x1, y1, text in WORD.findall(html)]
    header = [str(v) for v in XlsxBackend(book).read()[render.BALANCE][0]]
    first_state = XlsxBackend(book).read()[render.BALANCE][1][0]
    state_top = min(y0 for _x0, y0, _x1, _y1, text in words if text == str(first_state).split()[0])
    header_words = [w for title in header for w in title.split()]
    assert len(header_words) > 50
    above = [(y1, text) for _x0, y0, _x1, y1, text in words if y0 < state_top]  # the header row's band
    for word, count in Counter(header_words).items():
        printed = sum(text == word for _y1, text in above)
        assert printed >= count, f"the header word «{word}» is not printed whole in the header"
    for y1, text in above:
        assert y1 <= state_top + 0.5, f"«{text}» runs out of the header row into the first state's"
