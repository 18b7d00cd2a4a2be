"""Forum posts that keep to a length limit, whatever game wrote them (issue 23, point 11).

A game splits its post where it reads well (between sections, between a spoiler's lines); a line or a
block longer than the limit it cannot split.  `fit` is the bridge's guarantee on top: every post it
returns is at most ``limit`` characters.  A post still too long is cut between lines, a line between
words, a word anywhere but inside an escape; a BBCode tag (``[spoiler=Рим]`` … ``[/spoiler]``), a
Markdown ``<details>`` block or a code fence open at a cut is closed at the end of the piece and opened
again at the start of the next, so each post is well-formed on its own.  A player's text in a post is
already inert (``[`` followed by a zero-width space, ``\\<`` in Markdown), so no tag is ever read in it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

#: The shortest limit a command accepts: room for a spoiler's tags and some text in every piece.
MIN_LIMIT = 200

# a BBCode tag («[b]», «[spoiler=Рим]», «[/list]»; «[*]» is no pair), a Markdown spoiler's opening with
# its summary, its end, a code fence on a line of its own
_TAG = re.compile(r"\[(/?)([A-Za-z]+)(?:=[^\]\n]*)?\]|<details><summary>.*?</summary>|</details>|^```[^\n]*$",
                  re.MULTILINE | re.DOTALL)
_WORD = re.compile(r"\S+\s*|\s+")


@dataclass(frozen=True)
class _Open:
    """A tag open at some point of a post: its name, its text (to open it again) and its end."""

    name: str
    opening: str
    closing: str


@dataclass(frozen=True)
class _Token:
    text: str
    opens: _Open | None = None  # the tag this token opens
    closes: str = ""  # the name of the tag this token closes


def fit(posts: Sequence[str], limit: int) -> list[str]:
    """``posts`` with every post longer than ``limit`` characters cut into posts that are not."""
    out: list[str] = []
    for post in posts:
        out += [post] if len(post) <= limit else _cut(post, limit)
    return out


def _tokens(post: str) -> list[_Token]:
    """The post as tags (those closed later in the post) and words with their spaces."""
    out: list[_Token] = []
    at = 0
    fence = False
    for m in _TAG.finditer(post):
        out += [_Token(w) for w in _WORD.findall(post[at:m.start()])]
        text = m.group(0)
        if text.startswith("```"):
            out.append(_Token(text, closes="```") if fence else _Token(text, _Open("```", text + "\n", "\n```")))
            fence = not fence
        elif text.startswith("<details>"):
            out.append(_Token(text, _Open("details", text + "\n\n", "\n\n</details>")))
        elif text == "</details>":
            out.append(_Token(text, closes="details"))
        elif m.group(1):
            out.append(_Token(text, closes=m.group(2).lower()))
        elif f"[/{m.group(2).lower()}]" in post[m.end():].lower():
            out.append(_Token(text, _Open(m.group(2).lower(), text, f"[/{m.group(2)}]")))
        else:
            out.append(_Token(text))  # a tag with no end in the post: plain text here
        at = m.end()
    return out + [_Token(w) for w in _WORD.findall(post[at:])]


def _after(stack: list[_Open], token: _Token) -> list[_Open]:
    """The tags open once ``token`` is passed."""
    if token.opens is not None:
        return [*stack, token.opens]
    if token.closes:
        for i in range(len(stack) - 1, -1, -1):
            if stack[i].name == token.closes:
                return stack[:i] + stack[i + 1:]
    return stack


def _closing(stack: list[_Open]) -> str:
    return "".join(t.closing for t in reversed(stack))


def _opening(stack: list[_Open]) -> str:
    return "".join(t.opening for t in stack)


def _safe_cut(text: str, room: int) -> int:
    """Where to cut a word with ``room`` characters: never right after an escaping backslash nor
    right before the zero-width space that keeps a «[» inert (either half would become markup)."""
    at = max(1, min(room, len(text) - 1))
    while at > 1 and (text[at - 1] == "\\" or text[at] == "\u200b"):
        at -= 1
    return at


def _lines(tokens: list[_Token]) -> list[list[_Token]]:
    """The tokens grouped by line (a line ends with the token that holds its line break)."""
    out: list[list[_Token]] = [[]]
    for token in tokens:
        out[-1].append(token)
        if "\n" in token.text:
            out.append([])
    return [line for line in out if line]


def _cut(post: str, limit: int) -> list[str]:
    """One post too long for ``limit`` as several that are not (see the module's docstring): whole
    lines while they fit, a line longer than a piece word by word."""
    pieces: list[str] = []
    stack: list[_Open] = []
    current, fresh = "", True  # fresh: the piece holds only the tags it reopened

    def close() -> None:
        nonlocal current, fresh
        pieces.append(current.rstrip() + _closing(stack))
        current, fresh = _opening(stack), True
        if len(current) + len(_closing(stack)) >= limit // 2:  # tags too long for the limit: dropped
            stack.clear()
            current = ""

    def add(token: _Token) -> None:
        nonlocal current, fresh, stack
        if fresh and not token.text.strip():
            return  # no piece starts with the blank lines or spaces of a cut
        after = _after(stack, token)
        if not fresh and len(current) + len(token.text) + len(_closing(after)) > limit:
            close()
            after = _after(stack, token)
        text = token.text
        while len(current) + len(text) + len(_closing(after)) > limit:  # a word longer than a whole piece
            if token.opens is not None or token.closes:  # a tag that never fits: shown as text
                token, after = _Token(text), stack
            head = _safe_cut(text, limit - len(current) - len(_closing(stack)))
            current, fresh, text = current + text[:head], False, text[head:]
            close()
            after = _after(stack, token)
        current += text
        fresh = fresh and not text.strip()
        stack = after

    for line in _lines(_tokens(post)):
        after = stack
        for token in line:
            after = _after(after, token)
        text = "".join(t.text for t in line)
        if not fresh and len(current) + len(text) + len(_closing(after)) > limit:
            close()  # the line goes whole into the next piece if it fits there
        for token in line:
            add(token)
    if current.strip():
        pieces.append(current.rstrip() + _closing(stack))
    return [p for p in pieces if p.strip()]
