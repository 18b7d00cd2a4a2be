"""Names in the campaign's language: the names tables per language and putting a new campaign in one.

Every name the ruleset ships — states, provinces, sea zones, buildings, units, technologies, goods,
governments, strata, events, terrains, army and fleet names — is Russian in the templates, with its
English form beside it in the data: the ``name_en`` columns of templates/ancient/*.csv, the
``name_en`` fields of a scenario, and templates/ancient/names_en.csv for the words that have no
table of their own (terrains, strata, unit types, combat words). A campaign created in English is
written with the English names throughout and then runs on them: they are its names, as the
Russian ones are a Russian campaign's. The other language's names stay understood as aliases
(:func:`aliases`), so «Карфаген» is read in an English campaign and «Carthage» in a Russian one.

Strata and unit types are codes inside the program (``СГ``, ``ЛП``: the population and army
columns); :func:`code` reads either language's word for one, :func:`shown` writes it.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from engine.core.names import fold

# the rules tables with a Russian name column and an English one beside it
_NAMED_FILES = ("buildings.csv", "technologies.csv", "goods.csv", "governments.csv", "events.csv", "units.csv")
# the scenario's lists whose entries carry `name` and `name_en`
_NAMED_LISTS = ("states", "provinces", "sea_zones")
# kinds of names_<lang>.csv that are codes: translated only as a whole cell, never inside a text
CODE_KINDS = ("stratum", "unit")


def _files() -> Any:
    return resources.files("templates") / "ancient"


@cache
def _codes(lang: str) -> dict[str, dict[str, str]]:
    """{kind: {Russian code: word in `lang`}} for the code kinds of names_<lang>.csv."""
    out: dict[str, dict[str, str]] = {k: {} for k in CODE_KINDS}
    path = _files() / f"names_{lang}.csv"
    if not path.is_file():
        return out
    with path.open(encoding="utf-8") as fh:
        for rec in csv.DictReader(fh):
            if rec["kind"] in out:
                out[rec["kind"]][rec["ru"]] = rec[lang]
    return out


@cache
def template_table(lang: str) -> dict[str, str]:
    """Russian name → its name in `lang` for everything the rules templates name (no scenario)."""
    out: dict[str, str] = {}
    if lang == "ru":
        return out
    column = f"name_{lang}"
    for filename in _NAMED_FILES:
        with (_files() / filename).open(encoding="utf-8") as fh:
            for rec in csv.DictReader(fh):
                ru, other = (rec.get("name_ru") or "").strip(), (rec.get(column) or "").strip()
                if ru and other:
                    out.setdefault(ru, other)
    path = _files() / f"names_{lang}.csv"
    if path.is_file():
        with path.open(encoding="utf-8") as fh:
            for rec in csv.DictReader(fh):
                if rec["kind"] not in CODE_KINDS:
                    out.setdefault(rec["ru"], rec[lang])
    return out


def scenario_table(data: Mapping[str, Any], lang: str) -> dict[str, str]:
    """Russian name → its name in `lang` for a scenario's states, provinces and sea zones."""
    out: dict[str, str] = {}
    key = f"name_{lang}"
    for section in _NAMED_LISTS:
        for entry in data.get(section) or []:
            ru, other = str(entry.get("name") or "").strip(), str(entry.get(key) or "").strip()
            if ru and other:
                out.setdefault(ru, other)
    return out


@cache
def _shipped_pairs() -> tuple[tuple[str, str], ...]:
    """Every (Russian, English) pair the templates and the shipped scenarios hold."""
    import yaml

    pairs = dict(template_table("en"))
    for p in sorted((_files() / "scenarios").iterdir(), key=lambda p: p.name):
        if p.name.endswith(".yaml"):
            with p.open(encoding="utf-8") as fh:
                for ru, en in scenario_table(yaml.safe_load(fh) or {}, "en").items():
                    pairs.setdefault(ru, en)
    return tuple(pairs.items())


@cache
def _alias_index() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for ru, en in (*_shipped_pairs(), *_codes("en")["unit"].items()):
        out.setdefault(fold(ru), []).append(en)
        out.setdefault(fold(en), []).append(ru)
    return {k: tuple(v) for k, v in out.items()}


@cache
def _both_ways() -> tuple[Translator, Translator]:
    pairs = _shipped_pairs()
    return Translator(dict(pairs)), Translator({en: ru for ru, en in reversed(pairs)})


@lru_cache(maxsize=8192)
def aliases(name: str) -> tuple[str, ...]:
    """The name's equivalents in the other language that the templates know: «Рим» ↔ «Rome», and
    a composed name word by word, «Рим: 1-я армия» ↔ «Rome: 1st army».  Kept per name: it depends on
    the shipped templates alone, and every decode asks it for every name of the campaign (a search
    of the name for every template name, each time)."""
    out = list(_alias_index().get(fold(name), ()))
    for tr in _both_ways():
        other = tr.text(str(name))
        if other != name and other not in out:
            out.append(other)
    return tuple(out)


def means(text: str, template_name: str) -> bool:
    """Whether a campaign's word is a template's name in either language («forest» means «лес»)."""
    f = fold(text)
    return f == fold(template_name) or any(f == fold(a) for a in aliases(template_name))


def with_aliases(names: Iterable[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Names with their other-language aliases, the shape :class:`engine.core.names.NameIndex` takes."""
    return [(n, aliases(n)) for n in names]


class Translator:
    """Puts Russian names into another language: a whole name, or every name inside a text
    («spec(зерно) | near(железо, 1)», «Рим: 1-я армия»), longest names first, on word boundaries."""

    def __init__(self, table: Mapping[str, str]) -> None:
        self.table = dict(table)
        keys = sorted(self.table, key=len, reverse=True)
        self._pattern = (
            re.compile("|".join(rf"(?<!\w){re.escape(k)}(?!\w)" for k in keys), re.IGNORECASE) if keys else None
        )
        self._folded = {k.lower(): v for k, v in self.table.items()}

    def name(self, text: str) -> str:
        """A whole name in the other language (the text itself when it is not a known name)."""
        return self.table.get(text, self._folded.get(str(text).lower(), text))

    def text(self, text: str) -> str:
        """Every known name inside `text` replaced."""
        if not self._pattern or not isinstance(text, str):
            return text
        return self._pattern.sub(lambda m: self.name(m.group(0)), text)


def translator(lang: str, data: Mapping[str, Any] | None = None) -> Translator:
    """The translator into `lang` for the rules templates and, if given, a scenario's names."""
    if data is None:
        return _template_translator(lang)
    return Translator({**template_table(lang), **scenario_table(data, lang)})


@cache
def _template_translator(lang: str) -> Translator:
    return Translator(template_table(lang))


# ------------------------------------------------------------------ codes (strata, unit types)


class Code(str):
    """A code the program keeps in Russian (a stratum «раб», a unit type «ЛП») that shows itself in
    the language texts are produced in: ``f"{n} {code}"`` gives «1 раб» in Russian, «1 Sl» in
    English. It is its own text otherwise (compares, hashes and is stored as the code), so the
    phases count and compare codes as before while every message they format reads in the language."""

    kind: str

    def __new__(cls, value: str, kind: str = "") -> Code:
        obj = super().__new__(cls, value)
        obj.kind = kind
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return (Code, (str(self), self.kind))

    def __format__(self, spec: str) -> str:
        from engine.core import i18n

        text = shown(self.kind, str(self), i18n.current()) if self.kind else str(self)
        return format(text, spec) if spec and not spec.isalpha() else text



def shown(kind: str, code_: str, lang: str) -> str:
    """A code as the campaign writes it: «СГ» in Russian, «citizens» in English."""
    if lang == "ru":
        return code_
    return _codes(lang)[kind].get(code_, code_)


@cache
def _code_index(kind: str) -> dict[str, str]:
    from .vocab import STRATA_NAMES

    out: dict[str, str] = {}
    if kind == "stratum":  # the strata's full names, either language («free citizens», «рабы»)
        for ru, words in STRATA_NAMES.items():
            for w in words:
                out[w.lower()] = ru
    for ru, en in _codes("en")[kind].items():
        out[ru.lower()] = ru
        out.setdefault(en.lower(), ru)
        out.setdefault(ru.lower().rstrip("."), ru)
    return out


def code(kind: str, text: str) -> Code | None:
    """The code a word of either language stands for («citizens», «СГ» → «СГ»); None if unknown."""
    t = str(text or "").strip().lower()
    found = _code_index(kind).get(t) or _code_index(kind).get(t.rstrip("."))
    return Code(found, kind) if found else None


# ------------------------------------------------------------------ rules tabs

# columns of the rules tables holding strata codes (inside a text: «2 раб | 1 СГ», «раб|СГ»)
_STRATA_COLUMNS = {"buildings": ("workers",), "units": ("strata",), "conversions": ("from", "to")}
# columns kept as they are: keys, rule ids, the other language's own texts
_KEPT_COLUMNS = {"key", "rule_ids", "name_en"}


@cache
def _shipped_translator(lang: str) -> Translator:
    """The rules templates name provinces of the shipped scenarios («province(Пергам)»)."""
    return Translator(dict(_shipped_pairs()) if lang == "en" else template_table(lang))


@cache
def _strata_translator(lang: str) -> Translator:
    return Translator(_codes(lang)["stratum"])


def localise_rules_row(key: str, row: Mapping[str, str], lang: str) -> dict[str, str]:
    """One row of a shipped rules table as an English (or other) campaign's rules tab holds it: its
    names in `lang`, the Russian name column left empty (the Russian names stay understood as
    aliases), a text column from its ``*_<lang>`` twin when the template has one."""
    if lang == "ru":
        return dict(row)
    names = _shipped_translator(lang)
    strata = _strata_translator(lang)
    out: dict[str, str] = {}
    for column, value in row.items():
        value = value or ""
        if column in _KEPT_COLUMNS or column.endswith(f"_{lang}") or not value.strip():
            out[column] = value
        elif column == "name_ru":
            out[column] = ""
        elif column.endswith("_ru"):  # a description: its translation, if the template has one
            out[column] = row.get(column[: -len("_ru")] + f"_{lang}") or value
        elif key == "units" and column == "type":
            out[column] = shown("unit", value, lang)
        elif column in _STRATA_COLUMNS.get(key, ()):
            out[column] = strata.text(value)
        else:
            out[column] = names.text(value)
    return out


# ------------------------------------------------------------------ a new campaign


def localise_campaign(c: Any, tr: Translator) -> None:
    """Rename every name of a new campaign (from a Russian scenario) through `tr`, in place:
    states, provinces, their owners, capitals, terrains, specialisations, buildings, technologies,
    borders and straits, sea zones, armies and fleets (their names, «Рим: 1-я армия» → «Rome: 1st army»)."""
    n = tr.name
    for st in c.states.values():
        st.name, st.capital = n(st.name), n(st.capital)
        st.techs = [n(t) for t in st.techs]
    c.states = {st.name: st for st in c.states.values()}
    for p in c.provinces.values():
        p.name, p.owner = n(p.name), n(p.owner) if p.owner else ""
        p.terrain, p.specialisation = n(p.terrain), n(p.specialisation)
        p.buildings = [n(b) for b in p.buildings]
    c.provinces = {p.name: p for p in c.provinces.values()}
    c.borders = [replace(b, a=n(b.a), b=n(b.b), strait=tr.text(b.strait)) for b in c.borders]
    c.seas = {k: replace(z, name=n(z.name)) for k, z in c.seas.items()}
    for a in c.armies.values():
        a.name, a.state, a.province = tr.text(a.name), n(a.state), n(a.province)
    c.armies = {a.name: a for a in c.armies.values()}
    for f in c.fleets.values():
        f.name, f.state = tr.text(f.name), n(f.state)
    c.fleets = {f.name: f for f in c.fleets.values()}
    for r in c.relations:
        r.a, r.b = n(r.a), n(r.b)
