"""A gettext catalogue (.po) read into the translations a `Domain` looks up, without babel.

Every command builds its argument parser in the GM's language, so a Russian run reads the Russian
catalogue of argparse's texts and an English campaign the English ones of the core and its game.
babel's reader costs an import of babel's catalogue, dates and locale data (about 25 ms, a twentieth
of a whole `check` of the demo) for a format that is a few keywords and quoted strings; this
reader takes what babel's `read_po` takes from the same file (tests/core/test_po_reader.py compares
them on every shipped catalogue): the non-obsolete messages, the first of two with the same id
and context (its flags joined with the later one's, as babel's catalogue merges them), C escapes
undone, the plural forms by the header's ``nplurals`` (else by its language's own count).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ESCAPE = re.compile(r'\\([\\abfnrtv"])')
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_NPLURALS = re.compile(r"^\s*Plural-Forms\s*:.*?\bnplurals\s*=\s*(\d+)", re.I | re.M)
_LANGUAGE = re.compile(r"^\s*Language\s*:\s*([A-Za-z]+)", re.I | re.M)
LANGUAGE_PLURALS = {"en": 2, "ru": 3}  # when a catalogue's header does not say


def _unquote(text: str) -> str:
    """A quoted .po string without its quotes, its escapes undone (babel's `unescape`)."""
    inner = text.strip()[1:-1]
    if "\\" not in inner:
        return inner
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), inner)


@dataclass
class Entry:
    """One message of a catalogue: its context, msgid (and msgid_plural), its msgstr by index, flags."""

    context: str | None = None
    ids: list[list[str]] = field(default_factory=list)  # each a list of quoted pieces
    strings: list[tuple[int, list[str]]] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, "".join(map(_unquote, self.ids[0])))

    def msgids(self) -> tuple[str, ...]:
        return tuple("".join(map(_unquote, pieces)) for pieces in self.ids)

    def string(self, nplurals: int) -> str | tuple[str, ...]:
        """msgstr, or for a plural message a msgstr per form ("" where the file has none)."""
        if len(self.ids) > 1:
            forms = [""] * nplurals
            for idx, pieces in sorted(self.strings):
                if idx < nplurals:
                    forms[idx] = "".join(map(_unquote, pieces))
            return tuple(forms)
        return "".join(map(_unquote, self.strings[0][1])) if self.strings else ""


def entries(text: str) -> list[Entry]:
    """The messages of a .po file's text in their order (obsolete ones marked), header included."""
    out: list[Entry] = []
    entry = Entry()
    flags: set[str] = set()
    target: list[str] | None = None  # the string that a continuation line ("...") extends
    context: list[str] | None = None

    def finish() -> None:
        """The message read so far is complete (a comment or the next msgid/msgctxt begins)."""
        nonlocal entry, flags, target, context
        if not entry.ids:  # flags and a context before a msgid belong to the message to come
            return
        if not entry.strings:
            entry.strings.append((0, []))
        entry.flags |= flags
        entry.context = "".join(map(_unquote, context)) if context is not None else None
        out.append(entry)
        entry, flags, target, context = Entry(), set(), None, None

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        obsolete = False
        if line.startswith("#~"):
            line, obsolete = line[2:].lstrip(), True
            if not line:
                continue
        elif line.startswith("#"):
            finish()
            if line.startswith("#,"):
                flags.update(f.strip() for f in line[2:].lstrip().split(","))
            continue
        if line.startswith('"'):
            if target is not None:
                target.append(line)
            continue
        keyword, _sep, arg = line.partition(" ")
        if keyword in ("msgid", "msgctxt"):
            finish()
        entry.obsolete = obsolete
        if keyword in ("msgid", "msgid_plural"):
            target = [arg]
            entry.ids.append(target)
        elif keyword == "msgctxt":
            target = context = [arg]
        elif keyword == "msgstr" or keyword.startswith("msgstr["):
            _kw, bracket, index = keyword.partition("[")
            target = [arg] if arg != '""' else []
            entry.strings.append((int(index[:-1]) if bracket else 0, target))
    finish()
    return out


def nplurals(header: str, lang: str) -> int:
    """The number of plural forms the header's Plural-Forms names, else that of the language its
    Language names, else of `lang`."""
    found = _NPLURALS.search(header)
    if found:
        return int(found.group(1))
    named = _LANGUAGE.search(header)
    return LANGUAGE_PLURALS.get((named.group(1) if named else lang).lower(), 2)


def translations(text: str, lang: str) -> tuple[dict[tuple[str | None, str], str],
                                                 dict[tuple[str | None, str], tuple[str, ...]]]:
    """(singular, plural): the translated, non-fuzzy messages of a catalogue in `lang`, keyed by
    (context, msgid) -- a plural one by its singular msgid, with a form for each plural."""
    merged: dict[tuple[str | None, str], Entry] = {}
    header = ""
    for e in entries(text):
        if e.obsolete:
            continue
        key = e.key
        if not key[1] and len(e.ids) == 1 and key[0] is None:
            header = str(e.string(1))
            continue
        current = merged.get(key)
        if current is None:
            merged[key] = e
            continue
        if len(e.ids) > 1 and len(current.ids) == 1:  # the later one adds the plural: it takes over
            current.ids, current.strings = e.ids, e.strings
        current.flags |= e.flags
    count = nplurals(header, lang)
    singular: dict[tuple[str | None, str], str] = {}
    plural: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for key, e in merged.items():
        if "fuzzy" in e.flags or (not key[1] and len(e.ids) == 1):
            continue
        string = e.string(count)
        if isinstance(string, tuple):
            if all(string):
                plural[key] = string
        elif string:
            singular[key] = string
    return singular, plural
