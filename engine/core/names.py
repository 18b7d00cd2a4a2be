"""Matching what players type to known names: case, ё, look-alike Latin letters, typos.

Exact matches go through `fold` (case, ё, quotes, Latin look-alikes). Suggestions for a near miss
use rapidfuzz on three readings of the text: the whole string («Пострить» → «Построить»), each of
its words against each word of a name («Построит дворец» → «Построить»: a player often writes the
object into the action cell), and both sides in Latin letters («Carthage» → «Карфаген»: a name typed
in the other alphabet).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from .messages import _

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


# Russian letters in Latin, chosen so that a Latin spelling of the same name lands close: «Карфаген»
# → karfagen, «Carthage» → karfage (see `_latin`)
_TO_LATIN = str.maketrans(
    {
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z",
        "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
        "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "sch",
        "ъ": "", "ы": "i", "ь": "", "э": "e", "ю": "yu", "я": "ya",
    }
)
# Latin spellings that sound like one Russian letter (the longer ones first); «th» is «ф» as in the
# Greek names Russian took through Byzantium (Carthage — Карфаген, Parthia — Парфия, Athens — Афины)
_LATIN_SOUNDS = (("ph", "f"), ("th", "f"), ("ck", "k"), ("qu", "kv"), ("c", "k"), ("q", "k"), ("x", "ks"),
                 ("w", "v"), ("y", "i"), ("j", "i"))
_DOUBLED = re.compile(r"(.)\1+")  # «Massilia» — «Массилия», «Parfiia» — «Parthia»

WHOLE_CUTOFF = 65  # the whole text against a whole name (difflib's 0.6 before rapidfuzz: too loose)
WORD_CUTOFF = 80  # each word of a name against the typed word nearest it, on average
LATIN_CUTOFF = 75  # both sides spelled in Latin letters
MIN_WORD = 3  # shorter words («в», «на», «1») are not matched alone
FEW_CHOICES = 12  # an index with no more names than this lists them all after an unknown word


def _latin(text: str) -> str:
    """`text` (already lower case) in Latin letters, Latin spellings evened out: a key that does not
    care in which alphabet a name was typed."""
    s = text.replace("ё", "е").translate(_TO_LATIN)
    for src, dst in _LATIN_SOUNDS:
        s = s.replace(src, dst)
    return _DOUBLED.sub(r"\1", s)


def _words(key: str) -> list[str]:
    return [w for w in key.split() if len(w) >= MIN_WORD]


class NameIndex:
    """Known names (with aliases) of one kind, e.g. provinces; finds exact and close matches."""

    def __init__(self, names: Iterable[tuple[str, Iterable[str]]], labels: Mapping[str, str] | None = None) -> None:
        """`names`: (canonical, aliases) pairs; `labels`: how a canonical name is shown to the player
        when it is not itself a word of the campaign's language (a key such as «monarchy»)."""
        self._labels = dict(labels or {})
        self._by_key: dict[str, str] = {}
        # the spellings as given (before `fold` turns Latin look-alikes Cyrillic), for the Latin reading
        self._spelt: dict[str, str] = {}
        for canonical, aliases in names:
            for spelling in (canonical, *aliases):
                if spelling:
                    key = fold(spelling)
                    self._by_key.setdefault(key, canonical)
                    self._spelt.setdefault(key, str(spelling).strip().lower())

    def get(self, text: object) -> str | None:
        return self._by_key.get(fold(text))

    def closest(self, text: object, n: int = 1) -> list[str]:
        """Up to `n` names close to `text`, the closest first: by the whole text, by its words, or
        spelt in Latin letters (see the module's docstring); [] when nothing is near."""
        query = fold(text)
        if not query or not self._by_key:
            return []
        from rapidfuzz import fuzz, process  # only a name not found pays its import

        scores: dict[str, float] = {}

        def note(key: str, score: float) -> None:
            canonical = self._by_key[key]
            scores[canonical] = max(scores.get(canonical, 0.0), score)

        keys = list(self._by_key)
        for key, score, _i in process.extract(query, keys, scorer=fuzz.ratio, score_cutoff=WHOLE_CUTOFF, limit=None):
            note(key, score)
        typed = _words(query)
        if typed and (len(typed) > 1 or typed[0] != query):
            for key in keys:
                # every word of the name must be near some typed word: «построит дворец» is near
                # «построить», not «построить корабль»
                parts = _words(key)
                if parts:
                    score = sum(max(fuzz.ratio(w, k) for w in typed) for k in parts) / len(parts)
                    if score >= WORD_CUTOFF:
                        note(key, score)
        latin = _latin(str(text or "").strip().lower())
        spelt = [_latin(self._spelt[k]) for k in keys]
        for _s, score, i in process.extract(latin, spelt, scorer=fuzz.ratio, score_cutoff=LATIN_CUTOFF, limit=None):
            note(keys[i], score)
        return sorted(scores, key=lambda c: (-scores[c], c))[:n]

    def suggest(self, text: object) -> str:
        """What to append to «unknown …» in a message: the nearest name, and every name when there
        are few («республика» → the nine forms of government); "" when there is nothing to say."""
        close = self.closest(text)
        hint = " (" + _("может быть, «{name}»?").format(name=self.label(close[0])) + ")" if close else ""
        names = self.labels()
        if len(names) <= FEW_CHOICES:
            hint += "; " + _("варианты: {names}").format(names=", ".join(names))
        return hint

    def __contains__(self, text: object) -> bool:
        return self.get(text) is not None

    def canonical(self) -> list[str]:
        return sorted(set(self._by_key.values()))

    def label(self, canonical: str) -> str:
        """`canonical` as the player reads it (its label, or itself)."""
        return self._labels.get(canonical, canonical)

    def labels(self) -> list[str]:
        """Every name as the player reads it, in the order the names were given."""
        return [self.label(c) for c in dict.fromkeys(self._by_key.values())]
