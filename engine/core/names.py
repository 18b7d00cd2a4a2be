"""Matching what players type to known names: case, ё, look-alike Latin letters, typos."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

# Latin letters that look like Cyrillic ones; both sides of a match are folded the same way.
_CONFUSABLES = str.maketrans(
    {
        "a": "а",
        "c": "с",
        "e": "е",
        "o": "о",
        "p": "р",
        "x": "х",
        "y": "у",
        "k": "к",
        "m": "м",
        "t": "т",
        "b": "в",
        "h": "н",
        "ё": "е",
        "3": "з",
    }
)


def fold(text: object) -> str:
    """A key for matching: lower case, ё→е, Latin look-alikes→Cyrillic, quotes and spaces squeezed."""
    s = str(text or "").strip().lower()
    for ch in "«»\"'`.,;:!?":
        s = s.replace(ch, " ")
    s = " ".join(s.replace("-", " ").replace("—", " ").split())
    return s.translate(_CONFUSABLES)


class NameIndex:
    """Known names (with aliases) of one kind, e.g. provinces; finds exact and close matches."""

    def __init__(self, names: Iterable[tuple[str, Iterable[str]]]) -> None:
        self._by_key: dict[str, str] = {}
        for canonical, aliases in names:
            self._by_key.setdefault(fold(canonical), canonical)
            for alias in aliases:
                if alias:
                    self._by_key.setdefault(fold(alias), canonical)

    def get(self, text: object) -> str | None:
        return self._by_key.get(fold(text))

    def closest(self, text: object, n: int = 1) -> list[str]:
        keys = difflib.get_close_matches(fold(text), list(self._by_key), n=n * 3, cutoff=0.6)
        out: list[str] = []
        for k in keys:
            c = self._by_key[k]
            if c not in out:
                out.append(c)
        return out[:n]

    def __contains__(self, text: object) -> bool:
        return self.get(text) is not None

    def canonical(self) -> list[str]:
        return sorted(set(self._by_key.values()))
