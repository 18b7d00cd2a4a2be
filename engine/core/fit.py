"""How wide a tab's columns must be and how tall its header row, so that nothing is cut.

Both backends size columns in "characters" (the width of '0' in the body font; Google: 7 px
each).  A header wraps at spaces, so its column must hold the longest header word whole (a
word wider than the column is broken mid-word: «колонизаци/я»); a content cell does not wrap,
so the column holds the longest content up to `MAX_WIDTH`; columns with longer content, and the
ones a layout asks for, wrap their cells instead.  The estimate of a text's width is
deliberately generous: LibreOffice without Calibri draws in DejaVu Sans, wider than Calibri, and
bold Cyrillic is wider still.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from .tables import Formula, TabSpec, is_blank

DEFAULT_WIDTH = 9.0  # a column the spec leaves alone (Excel's 8.43, rounded up)
MAX_WIDTH = 50.0  # wider content wraps instead of making a column that fills the screen
PAD = 1.5  # the cell's margins and the filter arrow's breathing room, in characters
BOLD = 1.12  # header letters are bold
LINE_POINTS = 15.0  # one line of the 11 pt body font, in points (row heights are in points)
NARROW = set(" .,:;'!|()[]{}ilIjtfr1-—–«»\"")
WIDE = set("шщжюыфмШЩЖЮЫФМWwmM%@")


@lru_cache(maxsize=65_536)  # a campaign repeats its names and numbers in many cells
def text_width(text: str, bold: bool = False) -> float:
    """The width of `text` on one line, in characters of the body font (an upper estimate)."""
    width = 0.0
    for ch in text:
        if ch in NARROW:
            width += 0.55
        elif ch in WIDE:
            width += 1.45
        elif ch.isupper():
            width += 1.2
        else:
            width += 1.05
    return width * (BOLD if bold else 1.0)


def _cell_width(value: object) -> float:
    """The width of what a cell shows, near enough: numbers with separators and a unit, text as it
    is, formulas and blanks nothing (their results are numbers the column already fits)."""
    if type(value) is str:
        return text_width(value) if value.strip() else 0.0
    if value is None or isinstance(value, (Formula, bool)):
        return 0.0 if not isinstance(value, bool) else text_width("FALSE")
    if isinstance(value, (int, float)):
        return text_width(f"{value:,.2f} Д" if isinstance(value, float) else f"{value:,} Д")
    return text_width(str(value))


def _content_widths(spec: TabSpec) -> dict[int, float]:
    """The widest content cell of each column (1-based), in one pass over the rows."""
    out: dict[int, float] = {}
    for row in spec.rows[1:]:
        for c, value in enumerate(row, start=1):
            if value is not None:
                w = _cell_width(value)
                if w > out.get(c, 0.0):
                    out[c] = w
    return out


def longest_word(text: str, bold: bool = True) -> float:
    return max((text_width(w, bold) for w in str(text).split()), default=0.0)


@dataclass(frozen=True)
class Fitted:
    """How a tab is sized: column widths (1-based -> characters; the spec's columns and the ones
    widened), the columns whose cells wrap, and the header row's lines and height (points)."""

    widths: dict[int, float]
    wrapped: tuple[int, ...]
    header_lines: int
    header_height: float


def measure(spec: TabSpec) -> Fitted:
    """The widths that keep every header word whole and content up to MAX_WIDTH on one line; the
    spec's wrapped columns and the ones whose content is wider still; the header's height."""
    header = spec.rows[0] if spec.rows else []
    content = _content_widths(spec)
    count = max([len(r) for r in spec.rows] + [max(spec.widths, default=0)])
    widths: dict[int, float] = {}
    wrapped = set(spec.wrap_columns)
    for c in range(1, count + 1):
        declared = float(spec.widths.get(c, DEFAULT_WIDTH))
        width = declared
        title = header[c - 1] if c - 1 < len(header) and not is_blank(header[c - 1]) else ""
        if title:
            words = longest_word(str(title)) if spec.wrap_header else text_width(str(title), True)
            width = max(width, words + PAD)
        if c not in spec.wrap_columns:
            width = max(width, min(content.get(c, 0.0) + PAD, MAX_WIDTH))
        width = math.ceil(width * 10) / 10  # rounded up: content measured to fit still fits
        if width != declared or c in spec.widths:
            widths[c] = width
        if content.get(c, 0.0) + PAD > width:
            wrapped.add(c)
    lines_needed = 1
    if spec.wrap_header:
        lines_needed = max(
            (lines(str(v), widths.get(c, DEFAULT_WIDTH), bold=True)
             for c, v in enumerate(header, start=1) if not is_blank(v)),
            default=1,
        )
    return Fitted(widths, tuple(sorted(wrapped)), lines_needed, lines_needed * LINE_POINTS + 4.0)


def lines(text: str, width: float, bold: bool = False) -> int:
    """How many lines `text` takes wrapped at spaces in a column `width` characters wide."""
    room = max(width - PAD, 1.0)
    count, used = 1, 0.0
    for word in str(text).split():
        w = text_width(word, bold)
        space = text_width(" ", bold) if used else 0.0
        if used and used + space + w > room:
            count, used = count + 1, 0.0
            space = 0.0
        if w > room and not used:  # a word wider than the column breaks over several lines
            count += math.ceil(w / room) - 1
            used = w - (math.ceil(w / room) - 1) * room
            continue
        used += space + w
    return count
