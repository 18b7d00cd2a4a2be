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

from .tables import Formula, TabSpec, is_blank

DEFAULT_WIDTH = 9.0  # a column the spec leaves alone (Excel's 8.43, rounded up)
MAX_WIDTH = 50.0  # wider content wraps instead of making a column that fills the screen
PAD = 1.5  # the cell's margins and the filter arrow's breathing room, in characters
BOLD = 1.12  # header letters are bold
LINE_POINTS = 15.0  # one line of the 11 pt body font, in points (row heights are in points)
NARROW = set(" .,:;'!|()[]{}ilIjtfr1-—–«»\"")
WIDE = set("шщжюыфмШЩЖЮЫФМWwmM%@")


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


def _cell_text(value: object) -> str:
    """What a cell shows, near enough to measure: numbers with a unit or separators, no formulas."""
    if isinstance(value, Formula) or is_blank(value):  # type: ignore[arg-type]
        return ""
    if isinstance(value, bool):
        return "FALSE"
    if isinstance(value, (int, float)):
        return f"{value:,.2f} Д" if isinstance(value, float) else f"{value:,} Д"
    return str(value)


def longest_word(text: str, bold: bool = True) -> float:
    return max((text_width(w, bold) for w in str(text).split()), default=0.0)


def column_widths(spec: TabSpec) -> dict[int, float]:
    """Every column's width (1-based -> characters): the spec's, widened so that no header word is
    broken and content up to MAX_WIDTH shows whole."""
    header = spec.rows[0] if spec.rows else []
    count = max([len(r) for r in spec.rows] + [max(spec.widths, default=0)])
    out: dict[int, float] = {}
    for c in range(1, count + 1):
        width = float(spec.widths.get(c, DEFAULT_WIDTH))
        title = header[c - 1] if c - 1 < len(header) and not is_blank(header[c - 1]) else ""
        if title:
            words = longest_word(str(title)) if spec.wrap_header else text_width(str(title), True)
            width = max(width, words + PAD)
        if c not in spec.wrap_columns:
            content = max((text_width(_cell_text(r[c - 1])) for r in spec.rows[1:] if c - 1 < len(r)), default=0.0)
            width = max(width, min(content + PAD, MAX_WIDTH))
        if width != spec.widths.get(c, DEFAULT_WIDTH) or c in spec.widths:
            out[c] = math.ceil(width * 10) / 10  # rounded up: content measured to fit still fits
    return out


def wrapped_columns(spec: TabSpec, widths: dict[int, float] | None = None) -> tuple[int, ...]:
    """The columns whose cells wrap: the spec's, and any whose content is wider than the column."""
    widths = widths if widths is not None else column_widths(spec)
    out = set(spec.wrap_columns)
    for c, width in widths.items():
        if any(c - 1 < len(r) and text_width(_cell_text(r[c - 1])) + PAD > width for r in spec.rows[1:]):
            out.add(c)
    return tuple(sorted(out))


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


def header_lines(spec: TabSpec, widths: dict[int, float] | None = None) -> int:
    """Lines the tallest header cell takes (1 when the header does not wrap)."""
    if not spec.rows or not spec.wrap_header:
        return 1
    widths = widths if widths is not None else column_widths(spec)
    return max(
        (lines(str(v), widths.get(c, DEFAULT_WIDTH), bold=True)
         for c, v in enumerate(spec.rows[0], start=1) if not is_blank(v)),
        default=1,
    )


def header_height(spec: TabSpec, widths: dict[int, float] | None = None) -> float:
    """The header row's height in points: its lines and a margin."""
    return header_lines(spec, widths) * LINE_POINTS + 4.0
