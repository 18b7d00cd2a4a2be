"""Text from a sheet made inert in every output format: one helper per format, for every game.

Whatever a player or a GM typed — a city named ``<img src=x onerror=alert(1)>``, a ``[url=…]``,
a Markdown link or image, ``**``, ``</details>``, a formula such as ``=HYPERLINK(…)`` or
``@SUM(…)`` — shows in a report or a post exactly as typed, and opens no tag, no link, no image
and no formula, wherever the text is pasted next (issue 23, point 10).  A game never formats sheet
text into an output without one of these:

* :func:`bbcode` — a forum post in BBCode: a zero-width space after every ``[`` (no forum parser
  sees a tag then) and after every ``<`` (a forum that lets HTML through sees no tag either), line
  breaks as spaces (no forged line of the post);
  :func:`bbcode_arg` for a tag's argument (``[spoiler=…]``), where a ``]`` would close it;
* :func:`markdown` — a Markdown file or post: a backslash before each character that is markup
  (CommonMark reads ``\\<``, ``\\[``, ``\\!`` as the characters themselves);
* :func:`html` — HTML, and an HTML block inside Markdown (``<summary>``), where a backslash is no
  escape: ``<``, ``>``, ``&`` and quotes as entities;
* :func:`plain` — a plain-text line (a text file); :func:`terminal` — a line printed at a terminal;
* :func:`mathtext` — a label matplotlib draws (a ``$`` would start a formula there).

All of them drop control characters (a terminal's escape sequences, NUL) and the bidirectional
overrides that would show a text in another order than it is, and keep a text that begins with
``=``, ``+``, ``-`` or ``@`` (not a number) from being a formula when it is pasted into a
spreadsheet: an invisible zero-width space before it, a backslash in Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from .tables import is_blank

ZWSP = "\u200b"  # a zero-width space: invisible, and no parser sees a tag or a formula through it
FORMATS = ("bbcode", "markdown", "html", "plain")

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # \t and \n stay
_NEWLINES = re.compile(r"\r\n|\r|\n")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~!])")
_FORMULA_START = ("=", "+", "-", "@")


def _text(value: object) -> str:
    """The text of a cell: '' for a blank one, control characters and bidi overrides dropped."""
    return "" if is_blank(value) else _CONTROL.sub("", str(value))


def _number(text: str) -> bool:
    try:
        Fraction(text.strip().replace(",", ".").replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        return False
    return True


def _formula(text: str) -> bool:
    """Whether ``text`` would be a formula if pasted into a spreadsheet (a number is not)."""
    stripped = text.lstrip()
    return stripped.startswith(_FORMULA_START) and not _number(stripped)


def bbcode(value: object) -> str:
    """``value`` inert in a BBCode post (see the module's docstring); its line breaks are spaces, so
    a name cannot start a line of its own that reads as the post's (a forged chronicle entry)."""
    s = _NEWLINES.sub(" ", _text(value)).replace("[", "[" + ZWSP).replace("<", "<" + ZWSP)
    return ZWSP + s if _formula(s) else s


def bbcode_arg(value: object) -> str:
    """``value`` inert as a BBCode tag's argument (``[spoiler=…]``): no ``]`` closes the tag."""
    return bbcode(value).replace("]", ZWSP + "]")


def markdown(value: object) -> str:
    """``value`` inert in Markdown (see the module's docstring); its line breaks are spaces, so no
    line of it starts a heading («===» under it), a list or a quote."""
    s = _MD_SPECIAL.sub(r"\\\1", _NEWLINES.sub(" ", _text(value)))
    return "\\" + s if _formula(s) else s


def html(value: object) -> str:
    """``value`` inert in HTML (and in an HTML block of a Markdown file)."""
    import html as _html  # its entity table is imported only where HTML is written

    s = _html.escape(_text(value), quote=True)
    return ZWSP + s if _formula(s) else s


def plain(value: object) -> str:
    """``value`` inert as plain text."""
    s = _text(value)
    return ZWSP + s if _formula(s) else s


def terminal(value: object) -> str:
    """``value`` safe to print at a terminal: no escape sequence, NUL or direction override (a
    terminal is no spreadsheet: a leading ``-`` or ``=`` stays as it is)."""
    return _text(value)


def mathtext(value: object) -> str:
    """``value`` as a label matplotlib draws as typed (no ``$…$`` formula)."""
    return plain(value).replace("$", r"\$")


_BY_FORMAT: dict[str, Callable[[object], str]] = {"bbcode": bbcode, "markdown": markdown, "html": html,
                                                  "plain": plain}


def inert(value: object, fmt: str) -> str:
    """``value`` inert in the output format ``fmt`` (one of :data:`FORMATS`; another is plain)."""
    return _BY_FORMAT.get(fmt, plain)(value)
