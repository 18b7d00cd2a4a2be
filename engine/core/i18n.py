"""Message catalogues: every text a player or GM reads comes from one gettext catalogue per language.

The program's texts are written in Russian, the campaigns' first language, so a Russian message
is its own msgid (the gettext convention: the source language is the key). Other languages are
`.po` catalogues beside the code that uses them, one *domain* per package (``strategos`` for the
core, the bridge and the CLI; one per ruleset, named after it), read with Babel and kept
complete by ``tests/core/test_catalogues.py`` (every extracted msgid translated, the same ``{fields}``).

The language is a context variable, set once where a command starts (``with using("en"): …``),
so a phase deep inside a turn writes ``_("Построено «{b}»").format(b=…)`` without passing the
language down. Templates use ``str.format`` fields, never ``%`` or f-strings (an f-string is
formatted before gettext could see it).

Extract and update a catalogue with Babel (see docs/i18n.md)::

    pybabel extract -F babel.cfg -k N_ -o /tmp/GAME.pot engine/rulesets/GAME
    pybabel update -i /tmp/GAME.pot -d engine/rulesets/GAME/locale -D GAME -l en
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from . import po

SOURCE = "ru"  # the language the msgids are written in
LANGUAGES = ("ru", "en")

_current: ContextVar[str] = ContextVar("strategos_lang", default=SOURCE)


def current() -> str:
    """The language texts are produced in now."""
    return _current.get()


@contextmanager
def using(lang: str | None) -> Iterator[str]:
    """Produce texts in `lang` inside the block (None or an unknown code: the source language)."""
    code = lang if lang in LANGUAGES else SOURCE
    token = _current.set(code)
    try:
        yield code
    finally:
        _current.reset(token)


def adopt(lang: str | None) -> str:
    """Produce texts in `lang` from now on, until the enclosing `using` block ends.

    For the moment a command learns its campaign's language (the bridge, once it has read the
    campaign's meta tab): the CLI prints the rest of the command in it. Outside any `using` block
    the change lasts for the whole context (a thread, or the test that made it)."""
    code = lang if lang in LANGUAGES else SOURCE
    _current.set(code)
    return code


def from_environment(env: Mapping[str, str] | None = None) -> str:
    """The language of the system locale, as gettext reads it (LANGUAGE, LC_ALL, LC_MESSAGES,
    LANG, the first one set); the source language when none names one of ours (C, POSIX, unset)."""
    env = os.environ if env is None else env
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            for part in value.split(":"):  # LANGUAGE may list several: en_GB:en
                code = part.split("_")[0].split(".")[0].split("@")[0].lower()
                if code in LANGUAGES:
                    return code
            if var != "LANGUAGE":
                return SOURCE  # the first set of LC_ALL/LC_MESSAGES/LANG decides, as in gettext
    return SOURCE


def N_(message: str) -> str:
    """Marks a constant for extraction without translating it yet; translate it where it is used."""
    return message


@dataclass(frozen=True)
class _Catalogue:
    """One language of one domain: singular and plural translations keyed by (context, msgid)."""

    singular: dict[tuple[str | None, str], str] = field(default_factory=dict)
    plural: dict[tuple[str | None, str], tuple[str, ...]] = field(default_factory=dict)


@cache
def _load(localedir: str, domain: str, lang: str) -> _Catalogue:
    """The translated, non-fuzzy entries of ``<localedir>/<lang>/LC_MESSAGES/<domain>.po`` (read by
    engine/core/po.py as babel reads them, without babel's import on every command)."""
    path = Path(localedir) / lang / "LC_MESSAGES" / f"{domain}.po"
    if not path.exists():
        return _Catalogue()
    singular, plural = po.translations(path.read_text(encoding="utf-8"), lang)
    return _Catalogue(singular, plural)


def _english_plural(n: float) -> int:
    return 0 if n == 1 else 1


def _russian_plural(n: float) -> int:
    if not float(n).is_integer():
        return 1
    k = abs(int(n))
    if k % 10 == 1 and k % 100 != 11:
        return 0
    return 1 if 2 <= k % 10 <= 4 and not 12 <= k % 100 <= 14 else 2


_PLURAL = {"en": _english_plural, "ru": _russian_plural}
_DOMAINS: dict[str, Domain] = {}


class Domain:
    """The translations of one package; an instance is the module's ``_``.

    ``_("текст")`` translates into the current language; ``_.ngettext("{n} ход", "{n} хода", n)`` picks
    the plural form; ``_.pgettext("контекст", "текст")`` tells apart two uses of the same words."""

    def __init__(self, name: str, localedir: Path | str, source: str = SOURCE) -> None:
        self.name = name
        self.localedir = str(localedir)
        self.source = source  # the language of the msgids: ours are Russian, a library's may be English
        _DOMAINS[name] = self

    def _catalogue(self, lang: str | None = None) -> _Catalogue | None:
        code = lang or current()
        return None if code == self.source else _load(self.localedir, self.name, code)

    def __call__(self, message: str) -> str:
        cat = self._catalogue()
        return message if cat is None else cat.singular.get((None, message), message)

    def pgettext(self, context: str, message: str) -> str:
        cat = self._catalogue()
        return message if cat is None else cat.singular.get((context, message), message)

    def ngettext(self, singular: str, plural: str, n: float, context: str | None = None) -> str:
        """The form for `n` in the current language. In Russian itself prefer `grammar.count`, which
        knows all three forms; here the source falls back to «one» (`singular`) or else `plural`."""
        code = current()
        cat = self._catalogue(code)
        if cat is not None:
            forms = cat.plural.get((context, singular))
            if forms:
                return forms[min(_PLURAL.get(code, _english_plural)(n), len(forms) - 1)]
        return singular if _PLURAL.get(self.source, _russian_plural)(n) == 0 else plural

    def translated(self, message: str, lang: str, context: str | None = None) -> bool:
        """Whether `lang` has `message` (for checks; the source language has every message)."""
        cat = self._catalogue(lang)
        return cat is None or (context, message) in cat.singular or (context, message) in cat.plural


def clear_cache() -> None:
    """Forget loaded catalogues (tests that edit a .po)."""
    _load.cache_clear()


def counted_noun(n: float, noun: str) -> str | None:
    """`noun` (Russian nominative singular, as `grammar.count` takes it) for the number `n` in the
    current language, from the first domain whose catalogue has it under the context ``noun``
    (msgid the noun, msgid_plural its plural); None in the source language or if none has it."""
    if current() == SOURCE:
        return None
    for domain in _DOMAINS.values():
        cat = domain._catalogue()
        forms = cat.plural.get(("noun", noun)) if cat is not None else None
        if forms:
            return forms[min(_PLURAL.get(current(), _english_plural)(n), len(forms) - 1)]
    return None
