"""Russian grammar for the texts the program writes: names in a case, verbs agreeing with a name, counts.

Messages are built from names the game data holds in the nominative («Сардиния», «Пергамское царство»).
Russian needs them in other cases («из Сардинии в Рим») and needs the verb to agree with the name's
gender and number («Пергамское царство заплатило», «Афины заплатили»). This module does that with the
pymorphy3 morphology (OpenCorpora dictionaries) for the general case, a few rules for proper names the
dictionary does not know or reads as something else, and an override table loaded from data (a ruleset's
templates) for the names both get wrong.

A template marks what it needs with a format spec on a `Name`, so one mechanism serves f-strings,
``str.format`` and message catalogues alike (an English template simply does not use the specs):

    who, to = Name("Пергамское царство"), Name("Рим")
    f"{who} {who:заплатил} 5 Д государству {to}"   # «Пергамское царство заплатило 5 Д государству Рим»
    f"из {Name('Сардиния'):gent} в {to:accs}"        # «из Сардинии в Рим»
    f"{Name('Крит'):откуда} {to:куда}"                # «с Крита в Рим» (Крит takes «на» in the table)

Specs: a case code (nomn, gent, datv, accs, ablt, loct — OpenCorpora's); a place question (где, куда,
откуда) for the name with its preposition («в Сардинии», «на Крит», «с Кипра»); or a Russian word in its masculine
singular form (a past verb, a short participle, an adjective, a present verb or a pronoun) to agree with the
name. Text without Cyrillic letters (an English name) is never changed.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from engine.core import i18n

CASES = ("nomn", "gent", "datv", "accs", "ablt", "loct")
GENDERS = ("masc", "femn", "neut", "plur")
# Places with a preposition: where (в Риме / на Крите), where to (в Рим / на Крит), where from (из Рима / с Крита).
PLACES = {"где": ("в", "на", "loct"), "куда": ("в", "на", "accs"), "откуда": ("из", "с", "gent")}
_CONSONANTS = set("бвгджзйклмнпрстфхцчшщ")

_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_WORD = re.compile(r"^[А-Яа-яЁё]+$")

# Pronouns by the gender or number of the name they stand for (masculine form → the four forms).
_PRONOUNS: dict[str, tuple[str, str, str, str]] = {
    "он": ("он", "она", "оно", "они"),
    "его": ("его", "её", "его", "их"),
    "ему": ("ему", "ей", "ему", "им"),
    "ним": ("ним", "ней", "ним", "ними"),
    "нём": ("нём", "ней", "нём", "них"),
    "него": ("него", "неё", "него", "них"),
    "нему": ("нему", "ней", "нему", "ним"),
    "свой": ("свой", "своя", "своё", "свои"),
}

# Endings of proper names the dictionary does not know: (ending, gender, forms by case without the ending).
# Ordered longest first; the first ending that fits wins.
_PROPER_RULES: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("ия", "femn", {"nomn": "ия", "gent": "ии", "datv": "ии", "accs": "ию", "ablt": "ией", "loct": "ии"}),
    ("ея", "femn", {"nomn": "ея", "gent": "еи", "datv": "ее", "accs": "ею", "ablt": "еей", "loct": "ее"}),
    ("ий", "masc", {"nomn": "ий", "gent": "ия", "datv": "ию", "accs": "ий", "ablt": "ием", "loct": "ии"}),
    ("ка", "femn", {"nomn": "ка", "gent": "ки", "datv": "ке", "accs": "ку", "ablt": "кой", "loct": "ке"}),
    ("га", "femn", {"nomn": "га", "gent": "ги", "datv": "ге", "accs": "гу", "ablt": "гой", "loct": "ге"}),
    ("ха", "femn", {"nomn": "ха", "gent": "хи", "datv": "хе", "accs": "ху", "ablt": "хой", "loct": "хе"}),
    ("я", "femn", {"nomn": "я", "gent": "и", "datv": "е", "accs": "ю", "ablt": "ей", "loct": "е"}),
    ("а", "femn", {"nomn": "а", "gent": "ы", "datv": "е", "accs": "у", "ablt": "ой", "loct": "е"}),
    ("й", "masc", {"nomn": "й", "gent": "я", "datv": "ю", "accs": "й", "ablt": "ем", "loct": "е"}),
)
_HARD_CONSONANTS = set("бвгдзклмнпрстфх")


@lru_cache(maxsize=1)
def _analyzer() -> Any:
    """The pymorphy3 analyzer, made once (it loads its dictionaries, about 0.4 s).  Given the path of
    the Russian dictionaries' package, it does not look for them through every installed package's
    entry points (importlib.metadata: a tenth of the load); the variable that names another
    dictionary folder still wins, as pymorphy3 reads it."""
    import pymorphy3

    path = None
    if pymorphy3.MorphAnalyzer.DICT_PATH_ENV_VARIABLE not in os.environ:
        with contextlib.suppress(ImportError):
            import pymorphy3_dicts_ru

            path = pymorphy3_dicts_ru.get_path()
    return pymorphy3.MorphAnalyzer(path=path, lang="ru")


def _like(source: str, word: str) -> str:
    """`word` (lower case, from the dictionary) written like `source`: capitals and ё kept."""
    if source.isupper() and len(source) > 1:
        word = word.upper()
    elif source[:1].isupper():
        word = word[:1].upper() + word[1:]
    for i, ch in enumerate(source.lower()):
        if ch == "ё" and i < len(word) and word[i] in "еЕ":
            word = word[:i] + ("Ё" if word[i] == "Е" else "ё") + word[i + 1 :]
    return word


def _ending_gender(word: str) -> str | None:
    """The gender a proper name's ending suggests: «-а/-я» feminine, «-ы/-и» plural, «-о/-е» neuter,
    a hard consonant or «-й» masculine; None after «-ь» (either «Верфь» or «Кремль»)."""
    w = word.lower()
    if w.endswith("ь"):
        return None
    if w.endswith(("а", "я")):
        return "femn"
    if w.endswith(("ы", "и")):
        return "plur"
    if w.endswith(("о", "е", "ё")):
        return "neut"
    return "masc"


def _preposition(prep: str, word: str) -> str:
    """«в» → «во», «с» → «со» before a cluster that starts with the same sound: «во Фракию», «со Скироса»."""
    w = word.lower()
    clusters = {"в": "вф", "с": "сзшж"}
    if prep in clusters and len(w) > 1 and w[0] in clusters[prep] and w[1] in _CONSONANTS:
        return prep + "о"
    return prep


def _is_proper(word: str) -> bool:
    return word[:1].isupper()


def _noun_parse(word: str) -> Any | None:
    """The reading of `word` as a noun in the nominative that fits it best, or None.

    Capitalised words are read as proper names: the reading must be the word's own dictionary form
    (nominative, of the gender or number its ending suggests) and not an indeclinable one unless nothing
    else fits, so «Лузитания» is not taken for a form of a man's name «Лузитаний».
    """
    parses = [p for p in _analyzer().parse(word) if p.tag.POS == "NOUN" and "nomn" in p.tag]
    if not parses:
        return None
    if not _is_proper(word):
        return parses[0]
    expect = _ending_gender(word)

    def fits(p: Any) -> bool:
        number = "plur" if (p.tag.number == "plur" or "Pltm" in p.tag) else "sing"
        if expect == "plur":
            return number == "plur"
        gender = str(p.tag.gender) if p.tag.gender else None
        if expect is None:
            return number == "sing"
        return number == "sing" and (gender == expect or (expect == "masc" and gender in ("ms-f", None)))

    good = [p for p in parses if fits(p) and "Fixd" not in p.tag]
    if not good:
        return None

    def rank(p: Any) -> tuple[int, int, float]:
        place = 0 if "Geox" in p.tag else 1 if not ({"Name", "Surn", "Patr"} & set(p.tag.grammemes)) else 2
        return (place, 0 if "inan" in p.tag else 1, -p.score)

    return min(good, key=rank)


def _adjective_parse(word: str) -> Any | None:
    parses = [p for p in _analyzer().parse(word) if p.tag.POS == "ADJF" and "nomn" in p.tag]
    return parses[0] if parses else None


def _agrees(adj: Any, noun: Any | None, number: str) -> bool:
    """Whether an adjective after a noun agrees with it («Колосс Родосский»), unlike a possessive
    genitive that reads like one («Держава Селевкидов»)."""
    if number == "plur":
        return adj.tag.number == "plur"
    gender = noun.tag.gender if noun is not None else None
    return adj.tag.number == "sing" and (gender is None or adj.tag.gender == gender)


def _rule_forms(word: str) -> tuple[str, dict[str, str]] | None:
    """Gender and case forms of an unknown proper name by its ending, or None when no rule fits."""
    low = word.lower()
    for ending, gender, forms in _PROPER_RULES:
        if low.endswith(ending) and len(low) > len(ending) + 1:
            stem = word[: len(word) - len(ending)]
            return gender, {c: stem + forms[c] for c in CASES}
    if low[-1:] in _HARD_CONSONANTS:
        return "masc", {
            "nomn": word,
            "gent": word + "а",
            "datv": word + "у",
            "accs": word,
            "ablt": word + "ом",
            "loct": word + "е",
        }
    return None


class Grammar:
    """Inflection of names (single words or noun phrases), agreement and counts, with an override table.

    The table maps a name (nominative) to its forms: any of the case codes and ``gender`` (masc, femn,
    neut, plur). Forms it gives win; the rest are computed. Results are cached.
    """

    def __init__(self, forms: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self._forms: dict[str, dict[str, str]] = {}
        self._cache: dict[tuple[str, str], str] = {}
        if forms:
            self.add_forms(forms)

    def add_forms(self, forms: Mapping[str, Mapping[str, str]]) -> None:
        """Adds (or replaces) names' forms, e.g. from a ruleset's table; checks the keys."""
        for name, entry in forms.items():
            bad = [k for k in entry if k not in (*CASES, "gender", "prep")]
            if bad:
                raise ValueError(f"формы имени «{name}»: неизвестные ключи {', '.join(map(str, bad))}")
            if "gender" in entry and entry["gender"] not in GENDERS:
                raise ValueError(f"формы имени «{name}»: род {entry['gender']!r} не из {', '.join(GENDERS)}")
            if "prep" in entry and entry["prep"] not in ("в", "на"):
                raise ValueError(f"формы имени «{name}»: предлог {entry['prep']!r} — «в» или «на»")
            self._forms[str(name)] = {str(k): str(v) for k, v in entry.items()}
        self._cache.clear()

    # -- names ---------------------------------------------------------------------------------------

    def inflect(self, name: str, case: str) -> str:
        """`name` (nominative) in `case`: «Сардиния», gent → «Сардинии»; «Нижний Египет», loct → «Нижнем Египте»."""
        if case not in CASES:
            raise ValueError(f"падеж {case!r} не из {', '.join(CASES)}")
        text = str(name)
        if case == "nomn" or not _CYRILLIC.search(text):
            return text
        key = (text, case)
        if key not in self._cache:
            self._cache[key] = self._inflect(text, case)
        return self._cache[key]

    def place(self, name: str, question: str) -> str:
        """`name` with the preposition a place takes: question «где» → «в Риме», «на Крите»; «куда» →
        «в Рим», «во Фракию»; «откуда» → «из Рима», «с Крита». Islands take «на» (``prep`` in the table)."""
        inside, on, case = PLACES[question]
        text = str(name)
        form = self.inflect(text, case)
        prep = on if self._forms.get(text, {}).get("prep") == "на" else inside
        return f"{_preposition(prep, form)} {form}"

    def gender(self, name: str) -> str:
        """Gender of `name` for agreement: masc, femn, neut, or plur for plural names («Афины»)."""
        text = str(name)
        key = (text, "gender")
        if key not in self._cache:
            self._cache[key] = self._gender(text)
        return self._cache[key]

    def _inflect(self, text: str, case: str) -> str:
        entry = self._forms.get(text, {})
        if case in entry:
            return entry[case]
        words = text.split(" ")
        head = self._head(words)
        if head is None:
            return text
        i, noun = head
        number = "plur" if self.gender(text) == "plur" else "sing"
        out = list(words)
        out[i] = self._inflect_noun(words[i], noun, case, number)
        # Adjectives right before or after the noun agree with it; anything else (a genitive
        # complement like «Селевкидов», a number) stays as written.
        for j in [*range(i - 1, -1, -1), *range(i + 1, len(words))]:
            adj = _adjective_parse(words[j]) if _WORD.match(words[j]) else None
            if adj is None or (j > i and not _agrees(adj, noun, number)):
                if j < i:
                    break
                continue
            out[j] = self._inflect_adjective(words[j], adj, noun, case, number)
        return " ".join(out)

    def _head(self, words: list[str]) -> tuple[int, Any] | None:
        """The noun a phrase is about: its first word read as a noun, with that reading (None for a
        proper name the dictionary does not read, then rules by ending apply)."""
        for i, w in enumerate(words):
            if not _WORD.match(w):
                continue
            if i + 1 < len(words) and _WORD.match(words[i + 1]) and _adjective_parse(w) is not None:
                continue  # «Пергамское царство»: an adjective before a word is not the head
            return i, _noun_parse(w)
        return None

    def _inflect_noun(self, word: str, parse: Any | None, case: str, number: str) -> str:
        if parse is None:
            rule = _rule_forms(word)
            return rule[1][case] if rule else word
        if "Fixd" in parse.tag:
            return word
        grammemes = {case, number} if number == "plur" else {case}
        form = parse.inflect(grammemes)
        return _like(word, form.word) if form else word

    def _inflect_adjective(self, word: str, adj: Any, noun: Any | None, case: str, number: str) -> str:
        grammemes = {case, number}
        if number == "sing":
            gender = (noun.tag.gender if noun is not None else None) or adj.tag.gender or "masc"
            grammemes.add(gender)
        if case == "accs" and (number == "plur" or "masc" in grammemes):
            grammemes.add("anim" if noun is not None and "anim" in noun.tag else "inan")
        form = adj.inflect(grammemes)
        return _like(word, form.word) if form else word

    def _gender(self, text: str) -> str:
        entry = self._forms.get(text, {})
        if "gender" in entry:
            return entry["gender"]
        if not _CYRILLIC.search(text):
            return "masc"
        head = self._head(text.split(" "))
        if head is None:
            return "masc"
        i, noun = head
        if noun is None:
            word = text.split(" ")[i]
            rule = _rule_forms(word)
            return rule[0] if rule else (_ending_gender(word) or "masc")
        if noun.tag.number == "plur" or "Pltm" in noun.tag:
            return "plur"
        return {"femn": "femn", "neut": "neut"}.get(str(noun.tag.gender), "masc")

    # -- agreement -----------------------------------------------------------------------------------

    def agree(self, word: str, subject: str) -> str:
        """`word` (masculine singular: «заплатил», «построен», «новый», «объявляет», «он») agreeing with
        `subject`: «Персия» → «заплатила», «Афины» → «заплатили», «Пергамское царство» → «заплатило»."""
        gender = self.gender(subject)
        key = (word, "agree:" + gender)
        if key not in self._cache:
            self._cache[key] = self._agree(word, gender)
        return self._cache[key]

    def _agree(self, word: str, gender: str) -> str:
        if word in _PRONOUNS:
            return _PRONOUNS[word][GENDERS.index(gender)]
        if gender == "masc":
            return word
        parses = [p for p in _analyzer().parse(word) if p.tag.POS in ("VERB", "PRTS", "ADJF", "ADJS")]
        if not parses:
            return word
        p = parses[0]
        if p.tag.POS == "VERB" and p.tag.tense in ("pres", "futr"):
            form = p.inflect({"plur"}) if gender == "plur" else p  # present tense has no gender
        elif gender == "plur":
            form = p.inflect({"plur"} | ({"nomn"} if p.tag.POS == "ADJF" else set()))
        else:
            form = p.inflect({gender, "sing"} | ({"nomn"} if p.tag.POS == "ADJF" else set()))
        return _like(word, form.word) if form else word

    # -- counts --------------------------------------------------------------------------------------

    def count(self, n: int | float | Fraction, noun: str, shown: str | None = None, case: str = "nomn") -> str:
        """A number with its noun agreeing: 1 шаг, 2 шага, 5 шагов; 1,5 шага. `noun` is in the nominative
        singular («шаг», «мирный ход»); `shown` is how the number is written, if not ``str(n)``; `case` is
        the case the phrase stands in: «не дальше» + gent → «1 шага», «5 шагов»."""
        text = shown if shown is not None else str(n)
        other = i18n.counted_noun(n, noun)  # another language: its catalogue's plural forms
        return f"{text} {other if other is not None else self.counted(n, noun, case)}"

    def counted(self, n: int | float | Fraction, noun: str, case: str = "nomn") -> str:
        """The noun of `count` alone: «шагов» for 5."""
        if case not in CASES:
            raise ValueError(f"падеж {case!r} не из {', '.join(CASES)}")
        whole = Fraction(n).denominator == 1 if not isinstance(n, float) else float(n).is_integer()
        if not whole:
            form = "few"  # 1,5 шага: a fraction takes the genitive singular
        else:
            k = abs(int(n))
            if k % 10 == 1 and k % 100 != 11:
                form = "one"
            elif 2 <= k % 10 <= 4 and not 12 <= k % 100 <= 14:
                form = "few"
            else:
                form = "many"
        if case not in ("nomn", "accs"):
            # In an oblique case the number governs nothing: «1 шага», «2 шагов», «5 шагах».
            form = f"{case}:{'sing' if form == 'one' or not whole else 'plur'}"
        key = (noun, "count:" + form)
        if key not in self._cache:
            self._cache[key] = self._counted(noun, form)
        return self._cache[key]

    def _counted(self, noun: str, form: str) -> str:
        if form == "one" or not _CYRILLIC.search(noun):
            return noun
        if ":" in form:
            case, number = form.split(":")
            return self._phrase_in(noun, case, number)
        words = noun.split(" ")
        head = self._head(words)
        if head is None:
            return noun
        i, parse = head
        if parse is None:
            return noun
        # The noun: genitive singular after 2–4, genitive plural after 5+; adjectives genitive plural.
        noun_form = parse.inflect({"gent", "sing"} if form == "few" else {"gent", "plur"}) or parse
        out = list(words)
        out[i] = _like(words[i], noun_form.word)
        for j in range(i):
            adj = _adjective_parse(words[j])
            if adj is not None:
                f = adj.inflect({"gent", "plur"})
                out[j] = _like(words[j], f.word) if f else words[j]
        return " ".join(out)

    def _phrase_in(self, noun: str, case: str, number: str) -> str:
        """A common noun phrase («мирный ход») in a case and number, adjectives agreeing."""
        words = noun.split(" ")
        head = self._head(words)
        if head is None or head[1] is None:
            return noun
        i, parse = head
        out = list(words)
        form = parse.inflect({case, number})
        out[i] = _like(words[i], form.word) if form else words[i]
        for j in range(i):
            adj = _adjective_parse(words[j])
            if adj is not None:
                out[j] = self._inflect_adjective(words[j], adj, parse, case, number)
        return " ".join(out)


# The grammar every `Name` uses; a ruleset adds its names' forms to it (see `Grammar.add_forms`).
GRAMMAR = Grammar()


class Name(str):
    """A name that can be put into a template in a case or with a word agreeing with it (see module doc)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        if i18n.current() != i18n.SOURCE:  # cases and agreement are Russian's
            russian = spec in CASES or spec in PLACES or _CYRILLIC.search(spec)
            return str(self) if russian else format(str(self), spec)
        if spec in CASES:
            return GRAMMAR.inflect(str(self), spec)
        if spec in PLACES:
            return GRAMMAR.place(str(self), spec)
        if _CYRILLIC.search(spec):
            return GRAMMAR.agree(spec, str(self))
        return format(str(self), spec)


def inflect(name: str, case: str) -> str:
    """`name` in `case`, by the shared grammar."""
    return GRAMMAR.inflect(name, case)


def gender(name: str) -> str:
    """Gender (or plur) of `name`, by the shared grammar."""
    return GRAMMAR.gender(name)


def agree(word: str, subject: str) -> str:
    """`word` agreeing with `subject`, by the shared grammar."""
    return GRAMMAR.agree(word, subject)


def count(n: int | float | Fraction, noun: str, shown: str | None = None, case: str = "nomn") -> str:
    """`n` with `noun` agreeing (1 шаг, 2 шага, 5 шагов), by the shared grammar."""
    return GRAMMAR.count(n, noun, shown, case)
