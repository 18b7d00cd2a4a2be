#!/usr/bin/env python3
"""Render the demo's balance sheet and charts after three turns into PNG files under docs/.

    python scripts/render_docs.py [--out docs]

The demo is resolved three times with sample orders; the balance sheet is printed by LibreOffice
Calc (headless) to PDF and turned into a PNG with pdftoppm (Debian: libreoffice-calc-nogui,
poppler-utils); the chart is drawn with matplotlib from the «История» tab.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import openpyxl
import openpyxl.utils

from engine.rulesets.ancient import codec
from engine.rulesets.ancient.demo import sample_orders
from engine.rulesets.ancient.report import chart_png
from engine.rulesets.ancient.scenario import put_orders
from sheets_bridge import sync
from sheets_bridge.xlsx import XlsxBackend


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", default="docs", help="folder for the PNG files")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "demo.xlsx"
        sync.create(str(book), scenario="demo", secret="docs-render", overwrite=True)
        for _turn in range(3):
            backend = XlsxBackend(book)
            tables = backend.read()
            d = codec.decode(tables)
            staged = {n: [list(r) for r in g] for n, g in tables.items()}
            put_orders(staged, sample_orders(d.campaign, d.rules))
            from engine.core.tables import Changeset, ReplaceTab

            backend.write(Changeset(replace=[ReplaceTab(n, staged[n]) for n in staged if codec.order_state(n)]))
            sync.resolve(XlsxBackend(book))
        chart_png(XlsxBackend(book).read(), out / "chart.png")
        # only the balance sheet, landscape, fitted to one page wide
        wb = openpyxl.load_workbook(book)
        for ws in wb.worksheets:
            if ws.title != "Баланс":
                ws.sheet_state = "hidden"
        balance = wb["Баланс"]
        wb.active = wb.worksheets.index(balance)
        header = [c.value for c in balance[1]]
        for i, title in enumerate(header, start=1):  # the picture keeps the totals; the sheet has every category
            if str(title).startswith(("Доход:", "Расход:")):
                balance.column_dimensions[openpyxl.utils.get_column_letter(i)].hidden = True
            else:
                balance.column_dimensions[openpyxl.utils.get_column_letter(i)].width = 22 if i == 1 else 15
        balance.page_setup.orientation = "landscape"
        balance.page_setup.fitToWidth = 1
        balance.page_setup.fitToHeight = 0
        balance.sheet_properties.pageSetUpPr.fitToPage = True
        only = Path(tmp) / "balance.xlsx"
        wb.save(only)
        soffice = shutil.which("soffice") or shutil.which("libreoffice")
        if soffice is None or shutil.which("pdftoppm") is None:
            print("LibreOffice and pdftoppm are needed for the balance picture", file=sys.stderr)
            return 1
        subprocess.run(
            [
                soffice,
                f"-env:UserInstallation=file://{tmp}/lo",
                "--headless",
                "--convert-to",
                "pdf",
                str(only),
                "--outdir",
                tmp,
            ],
            check=True,
            capture_output=True,
            timeout=240,
        )
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "110",
                "-f",
                "1",
                "-l",
                "1",
                str(Path(tmp) / "balance.pdf"),
                str(out / "balance"),
            ],
            check=True,
            timeout=120,
        )
        produced = sorted(out.glob("balance-*.png"))
        if produced:
            produced[0].replace(out / "balance.png")
            for extra in produced[1:]:
                extra.unlink()
    print(f"written: {out / 'balance.png'}, {out / 'chart.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
