"""openpyxl's workbook writer with each worksheet's XML kept in memory.

openpyxl writes every worksheet to a temporary file of its own, copies that file into the
archive and deletes it: three file operations per tab (the ancient demo has 51 tabs), a tenth of
the CPU of a save and more of its wall time on a slow or busy disk.  This writer hands each
worksheet's XML to the archive from memory; the parts and their bytes are the same
(tests/test_xlsx_writer.py).
"""

from __future__ import annotations

from io import BytesIO

from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter


class Writer(ExcelWriter):
    """`ExcelWriter` whose worksheets go to the archive from memory, not through temporary files."""

    def write_worksheet(self, ws: Worksheet) -> None:
        if self.workbook.write_only:  # a write-only workbook streams its own file: openpyxl's way
            super().write_worksheet(ws)
            return
        ws._drawing = SpreadsheetDrawing()
        ws._drawing.charts = ws._charts
        ws._drawing.images = ws._images
        writer = WorksheetWriter(ws, out=BytesIO())
        writer.write()
        ws._rels = writer._rels
        self._archive.writestr(ws.path[1:], writer.out.getvalue())
        self.manifest.append(ws)
