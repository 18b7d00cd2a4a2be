"""The rules tabs a new civ1 campaign gets, from the tables shipped in templates/civ1/.

Each tab is its CSV under its layout's header in the campaign's language; the rows are the
same in both languages (each named thing has its Russian and English name columns, and the
loaders accept the words of either language).
"""

from __future__ import annotations

import csv
from importlib import resources
from typing import Any

from engine.core.layout import Layout
from engine.core.tables import Cell, Grid, Tables

from .rules_loaders import TAB_LOADERS

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


def rules_grid(key: str, lang: str) -> Grid:
    """A rules tab as shipped: the header in the campaign's language, then the CSV rows."""
    _filename, layout = RULES_FILES[key]
    grid: Grid = [layout.header(lang)]
    for rec in rows(key):
        grid.append([_typed(rec.get(c.key) or "") for c in layout.columns])
    return grid


def rules_tables(lang: str = "ru") -> Tables:
    """Every rules tab of a new campaign, by its title in ``lang``."""
    return {layout.tab_name(lang): rules_grid(key, lang) for key, (_f, layout) in RULES_FILES.items()}
