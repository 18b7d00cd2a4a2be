"""A1 notation: parsing and Google-style formatting.

This module is purely syntactic: it splits ``'Sheet name'!A1:B2`` into a sheet part and a
cell part and turns the cell part into zero-based bounds, where a missing bound means "to
the edge of the grid" (``A:A``, ``A1:A``, ``2:2``).  Resolving names against a real
spreadsheet (sheet titles, named ranges, grid size) happens in :mod:`.model`.

Formatting follows what Google answers in ``range``/``updatedRange``: the sheet title is
quoted only when it has to be (``Sheet1!A1`` but ``'My sheet'!A1``), and a single cell is
written without a colon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CELL_RE = re.compile(r"^\$?([A-Za-z]{0,3})\$?(\d{0,7})$")
_PLAIN_TITLE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CELL_LIKE_RE = re.compile(r"^([A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*)$")


class A1SyntaxError(ValueError):
    """The text is not valid A1 notation."""


def column_letters(index: int) -> str:
    """Zero-based column index -> letters (0 -> ``A``, 26 -> ``AA``)."""
    if index < 0:
        raise ValueError("negative column index")
    letters = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """Column letters -> zero-based index (``A`` -> 0, ``AA`` -> 26)."""
    n = 0
    for ch in letters.upper():
        if not "A" <= ch <= "Z":
            raise A1SyntaxError(letters)
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def quote_title(title: str) -> str:
    """Quote a sheet title the way Google does in returned ranges (only when needed)."""
    if _PLAIN_TITLE_RE.match(title) and not _CELL_LIKE_RE.match(title) and title.upper() not in ("TRUE", "FALSE"):
        return title
    return "'" + title.replace("'", "''") + "'"


def cell_name(row: int, col: int) -> str:
    """Zero-based (row, col) -> ``B3``."""
    return f"{column_letters(col)}{row + 1}"


def format_range(title: str, r0: int, c0: int, r1: int, c1: int) -> str:
    """Half-open bounds -> ``Sheet1!A1:B2`` (``Sheet1!A1`` for one cell)."""
    start = cell_name(r0, c0)
    end = cell_name(r1 - 1, c1 - 1)
    cells = start if (r1 - r0 == 1 and c1 - c0 == 1) else f"{start}:{end}"
    return f"{quote_title(title)}!{cells}"


def split_sheet(text: str) -> tuple[str | None, str | None, bool]:
    """Split ``'Sheet'!A1`` into (sheet title, cell part, title_was_quoted).

    Returns ``(None, text, False)`` when no sheet part can be told apart; the caller then
    decides whether the text is a sheet title, a named range or cells of the first sheet.
    """
    text = text.strip()
    if text.startswith("'"):
        i = 1
        title_chars: list[str] = []
        while i < len(text):
            ch = text[i]
            if ch == "'":
                if i + 1 < len(text) and text[i + 1] == "'":
                    title_chars.append("'")
                    i += 2
                    continue
                break
            title_chars.append(ch)
            i += 1
        else:
            raise A1SyntaxError(text)
        rest = text[i + 1 :]
        if rest == "":
            return "".join(title_chars), None, True
        if not rest.startswith("!"):
            raise A1SyntaxError(text)
        return "".join(title_chars), rest[1:], True
    if "!" in text:
        title, _, cells = text.rpartition("!")
        return title, cells, False
    return None, text, False


@dataclass(frozen=True)
class CellBounds:
    """Zero-based inclusive bounds of an A1 cell part; ``None`` means open to the grid edge."""

    start_row: int | None
    start_col: int | None
    end_row: int | None
    end_col: int | None


def _parse_corner(text: str) -> tuple[int | None, int | None]:
    """One corner (``B3``, ``B`` or ``3``) -> (row, col), ``None`` = open."""
    m = _CELL_RE.match(text)
    if not m or (not m.group(1) and not m.group(2)):
        raise A1SyntaxError(text)
    col = column_index(m.group(1)) if m.group(1) else None
    if m.group(2):
        row_number = int(m.group(2))
        if row_number < 1:
            raise A1SyntaxError(text)
        row: int | None = row_number - 1
    else:
        row = None
    return row, col


def parse_cells(text: str) -> CellBounds:
    """Parse the cell part (``A1``, ``A1:B2``, ``A:C``, ``2:5``, ``A2:2``, ``D4:A1``)."""
    text = text.strip()
    if not text:
        raise A1SyntaxError(text)
    if ":" in text:
        first, _, second = text.partition(":")
        r0, c0 = _parse_corner(first)
        r1, c1 = _parse_corner(second)
        # ``A:B`` and ``1:2`` must be homogeneous pairs; ``A1:B`` / ``A1:2`` leave one side open.
        if r0 is None and c0 is not None and r1 is not None and c1 is None:
            raise A1SyntaxError(text)
        if c0 is None and r0 is not None and c1 is not None and r1 is None:
            raise A1SyntaxError(text)
        if r0 is not None and r1 is not None and r0 > r1:
            r0, r1 = r1, r0
        if c0 is not None and c1 is not None and c0 > c1:
            c0, c1 = c1, c0
        return CellBounds(r0, c0, r1, c1)
    r, c = _parse_corner(text)
    if r is None or c is None:
        # A bare ``A`` or ``5`` is not a range in Google's grammar.
        raise A1SyntaxError(text)
    return CellBounds(r, c, r, c)


def looks_like_cells(text: str) -> bool:
    """True when ``text`` parses as an A1 cell part."""
    try:
        parse_cells(text)
    except A1SyntaxError:
        return False
    return True
