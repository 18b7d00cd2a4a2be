"""The rules tabs a new civ1 campaign gets, from the tables shipped in templates/civ1/.

Each tab is its CSV under its layout's header in the campaign's language.  The CSV is written in
Russian; an English campaign gets its words («да», «Власть», «пехота») and its references to other
tabs («Монархия», «лес; джунгли») in English, so that its rules read the same as a Russian one's.
Each named thing keeps both its name columns.
"""

from __future__ import annotations

import csv
from importlib import resources
from typing import Any

from engine.core.layout import Layout, norm
from engine.core.tables import Cell, Grid, Tables

from .rules_loaders import TAB_LOADERS, split_list
from .tabs import TRANSFERS, WORD_COLUMNS, YES_NO, Words

#: The rules tabs by role: the shipped file and its layout (the order of TAB_LOADERS).
RULES_FILES: dict[str, tuple[str, Layout]] = {
    role: (f"{role}.csv", loader.layout) for role, loader in TAB_LOADERS.items()
}


def _files() -> Any:
    return resources.files("templates") / "civ1"


def _typed(text: str) -> Cell:
    t = text.strip()
    if not t:
        return None
    try:
        return int(t)
    except ValueError:
        return t


def rows(key: str) -> list[dict[str, str]]:
    """The shipped CSV rows of a rules tab, as text by column key."""
    filename, _layout = RULES_FILES[key]
    with (_files() / filename).open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


#: the columns that name things of another tab: role -> column -> the role of the tab named
REF_COLUMNS: dict[str, dict[str, str]] = {
    "technologies": {"era": "eras", "prerequisites": "technologies"},
    "terrain": {"workable_tech": "technologies"},
    "terrain_modifiers": {"tech": "technologies", "terrain": "terrain"},
    "classes": {"advantage_over": "classes"},
    "units": {"class": "classes", "tech": "technologies"},
    "buildings": {"tech": "technologies", "replaces": "buildings"},
    "governments": {"tech": "technologies"},
    "wonders": {"era": "eras"},
}


def _english_names(role: str) -> dict[str, str]:
    """{normalised Russian name: English name} of a shipped tab's rows."""
    return {norm(r["name_ru"]): r["name_en"] for r in rows(role) if r.get("name_ru") and r.get("name_en")}


def _english_word(words: Words, text: str) -> str:
    for names in words.values():
        if norm(text) in {norm(w) for w in names}:
            return names[1]
    return text


def _english_effects(text: str, techs: dict[str, str]) -> str:
    """«Особое» in English: the technologies, transfers and flags after «=» (the keys are English)."""
    parts = []
    for part in (p.strip() for p in text.split(";") if p.strip()):
        key, sep, value = part.partition("=")
        names = [techs.get(norm(v)) or _english_word({**TRANSFERS, **YES_NO}, v) for v in value.split("|")]
        parts.append(f"{key}{sep}{'|'.join(n.strip() for n in names)}" if sep else part)
    return "; ".join(parts)


def _english(role: str, rec: dict[str, str]) -> dict[str, str]:
    """A shipped row with its words and references in English."""
    out = dict(rec)
    layout = RULES_FILES[role][1]
    for col, words in WORD_COLUMNS.get(layout, {}).items():
        if out.get(col):
            out[col] = _english_word(words, out[col])
    for col, other in REF_COLUMNS.get(role, {}).items():
        if out.get(col):
            names = _english_names(other)
            out[col] = "; ".join(names.get(norm(x), x) for x in split_list(out[col]))
    if out.get("effects") and role == "technologies":
        out["effects"] = _english_effects(out["effects"], _english_names("technologies"))
    return out


def rules_grid(key: str, lang: str) -> Grid:
    """A rules tab as shipped: the header in the campaign's language, then the CSV rows (their
    words and references in English for an English campaign)."""
    _filename, layout = RULES_FILES[key]
    grid: Grid = [layout.header(lang)]
    for rec in rows(key):
        rec = _english(key, rec) if lang == "en" else rec
        grid.append([_typed(rec.get(c.key) or "") for c in layout.columns])
    return grid


def rules_tables(lang: str = "ru") -> Tables:
    """Every rules tab of a new campaign, by its title in ``lang``."""
    return {layout.tab_name(lang): rules_grid(key, lang) for key, (_f, layout) in RULES_FILES.items()}
