#!/usr/bin/env python3
"""Render the demo's balance sheet as printed and its chart after three turns into PNG files under docs/.

    python scripts/render_docs.py [--out docs]

The demo is resolved three times with sample orders; the balance sheet is printed by LibreOffice
Calc (headless) to PDF with the page setup the campaign gives it (landscape, one page wide, the
header repeated) -- nothing is resized or hidden for the picture -- and its first page turned
into a PNG with pdftoppm (Debian: libreoffice-calc-nogui, poppler-utils); the chart is the
report's chart (`strategos report`), drawn with matplotlib from the «История» tab.
tests/bridge/test_libreoffice.py prints the balance the same way and checks it is one page wide.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import openpyxl

from engine.core.tables import Changeset, ReplaceTab
from engine.rulesets.ancient import codec
from engine.rulesets.ancient.demo import sample_orders
from engine.rulesets.ancient.report import chart_png
from engine.rulesets.ancient.scenario import put_orders
from sheets_bridge import sync
from sheets_bridge.xlsx import XlsxBackend

BALANCE = "Баланс"


def demo_after_turns(book: Path, turns: int = 3) -> Path:
    """A demo campaign at `book`, resolved `turns` times with the sample orders of every turn."""
    sync.create(str(book), scenario="demo", secret="docs-render", overwrite=True)
    for _turn in range(turns):
        backend = XlsxBackend(book)
        tables = backend.read()
        d = codec.decode(tables)
        staged = {n: [list(r) for r in g] for n, g in tables.items()}
        put_orders(staged, sample_orders(d.campaign, d.rules))
        backend.write(Changeset(replace=[ReplaceTab(n, staged[n]) for n in staged if codec.order_state(n)]))
        sync.resolve(XlsxBackend(book))
    return book


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def print_tab(book: Path, tab: str, folder: Path) -> Path:
    """The PDF LibreOffice prints of one tab of `book`, with the tab's own page setup (the other
    tabs are hidden in a copy, so that only this one is printed)."""
    exe = soffice()
    if exe is None:
        raise RuntimeError("LibreOffice is needed to print a tab: apt-get install libreoffice-calc-nogui")
    wb = openpyxl.load_workbook(book)
    for ws in wb.worksheets:
        if ws.title != tab:
            ws.sheet_state = "hidden"
    wb.active = wb.worksheets.index(wb[tab])
    wb[tab].sheet_state = "visible"
    only = folder / "printed.xlsx"
    wb.save(only)
    subprocess.run(
        [exe, f"-env:UserInstallation=file://{folder}/lo", "--headless", "--convert-to", "pdf", str(only),
         "--outdir", str(folder)],
        check=True,
        capture_output=True,
        timeout=240,
    )
    return folder / "printed.pdf"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", default="docs", help="folder for the PNG files")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if soffice() is None or shutil.which("pdftoppm") is None:
        print("LibreOffice and pdftoppm are needed for the balance picture "
              "(apt-get install libreoffice-calc-nogui poppler-utils)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        book = demo_after_turns(Path(tmp) / "demo.xlsx")
        chart_png(XlsxBackend(book).read(), out / "chart.png")
        pdf = print_tab(book, BALANCE, Path(tmp))
        subprocess.run(
            ["pdftoppm", "-png", "-r", "200", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(out / "balance")],
            check=True,
            timeout=120,
        )
    print(f"written: {out / 'balance.png'}, {out / 'chart.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
