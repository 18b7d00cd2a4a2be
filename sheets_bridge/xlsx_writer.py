"""openpyxl's workbook writer with each worksheet's XML kept in memory and its cells written fast.

openpyxl writes every worksheet to a temporary file of its own, copies that file into the
archive and deletes it: three file operations per tab (a demo campaign may have 51 tabs), a tenth of
the CPU of a save and more of its wall time on a slow or busy disk.  This writer hands each
worksheet's XML to the archive from memory.

Without lxml, openpyxl builds an ElementTree element for every cell and serialises it with
et_xmlfile's general writer: most of a save's time.  The cells this program writes -- text,
numbers, booleans, formulas, with or without a style -- are written here as the same XML text
directly; any other cell (rich text, a date, an error, an array formula, a hyperlink) still goes
through openpyxl's own code.  The parts and their bytes are the same as openpyxl's
(tests/bridge/test_xlsx_writer.py).
"""

from __future__ import annotations

from io import BytesIO
from typing import Any
from xml.etree.ElementTree import _escape_cdata  # what et_xmlfile escapes text with

import openpyxl
from openpyxl.cell._writer import write_cell
from openpyxl.cell.cell import Cell
from openpyxl.comments.comment_sheet import CommentRecord
from openpyxl.compat import safe_string
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter

KINDS = {"s": ' t="inlineStr"', "n": ' t="n"', "b": ' t="b"', "f": ""}  # the cell's t attribute


def cell_xml(cell: Cell) -> str | None:
    """The `<c>` element openpyxl's `etree_write_cell` writes for `cell`, as text; None for a cell
    it writes otherwise (left to it): rich text, a date, an error, an array or data-table formula,
    a hyperlink."""
    kind = KINDS.get(cell.data_type)
    value = cell._value
    if kind is None or cell.hyperlink:
        return None
    if cell.data_type in ("s", "f") and value is not None and value.__class__ is not str:
        return None
    head = f'<c r="{cell.coordinate}" s="{cell.style_id}"{kind}' if cell.has_style else \
        f'<c r="{cell.coordinate}"{kind}'
    if value is None or value == "":
        return head + " />"
    if cell.data_type == "s":
        stripped = value.strip()
        space = ' xml:space="preserve"' if stripped and stripped != value else ""
        return f"{head}><is><t{space}>{_escape_cdata(value)}</t></is></c>"
    if cell.data_type == "f":
        formula = value[1:]
        return f"{head}>" + (f"<f>{_escape_cdata(formula)}</f>" if formula else "<f />") + "<v /></c>"
    text = safe_string(value)
    return f"{head}>" + (f"<v>{_escape_cdata(text)}</v>" if text else "<v />") + "</c>"


class SheetWriter(WorksheetWriter):
    """openpyxl's worksheet writer, its cells written by `cell_xml` where it can."""

    def write_row(self, xf: Any, row: list[Cell], row_idx: int) -> None:
        attrs = {"r": f"{row_idx}"}
        dims = self.ws.row_dimensions
        attrs.update(dims.get(row_idx, {}))
        write = xf._file  # the text writer under the element being written: <row> is open on it
        with xf.element("row", attrs):
            for cell in row:
                if cell._comment is not None:
                    self.ws._comments.append(CommentRecord.from_cell(cell))
                if cell._value is None and not cell.has_style and not cell._comment:
                    continue
                text = cell_xml(cell)
                if text is None:
                    write_cell(xf, self.ws, cell, cell.has_style)
                else:
                    write(text)


class Writer(ExcelWriter):
    """`ExcelWriter` whose worksheets go to the archive from memory, not through temporary files."""

    def write_worksheet(self, ws: Worksheet) -> None:
        if self.workbook.write_only:  # a write-only workbook streams its own file: openpyxl's way
            super().write_worksheet(ws)
            return
        ws._drawing = SpreadsheetDrawing()
        ws._drawing.charts = ws._charts
        ws._drawing.images = ws._images
        # with lxml openpyxl writes through lxml (fast, and other XML text): left to it
        writer = (WorksheetWriter if openpyxl.LXML else SheetWriter)(ws, out=BytesIO())
        writer.write()
        ws._rels = writer._rels
        self._archive.writestr(ws.path[1:], writer.out.getvalue())
        self.manifest.append(ws)
