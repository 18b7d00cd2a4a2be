"""Tab layouts: named columns with Russian and English headers, read back in either language.

A layout knows its fields and their header words; it finds the columns in a read tab by
header text, so a GM may reorder columns, and reports a missing column by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from . import i18n
from .errors import Problem
from .messages import _
from .tables import Cell, Grid, column_letter, is_blank
from .tabs import tab_key

_JUNK = re.compile(r"[\s\.,:;\-—–_()«»\"'/%№#]+")


def norm(text: object) -> str:
    """Normalise a header or a word for matching: case, ё, punctuation and spaces."""
    return _norm(str(text or ""))


@lru_cache(maxsize=65_536)
def _norm(text: str) -> str:
    return _JUNK.sub("", text.strip().lower().replace("ё", "е"))


@dataclass(frozen=True)
class Column:
    """One column: its key in code, its Russian and English headers, other accepted headers."""

    key: str
    ru: str
    en: str
    aliases: tuple[str, ...] = ()
    required: bool = True
    width: int = 14
    wrap: bool = False  # long text (a reason, a chronicle entry) wraps in its cell instead of being cut

    def header(self, lang: str) -> str:
        return self.en if lang == "en" else self.ru

    def names(self) -> frozenset[str]:
        return _column_names(self)


@lru_cache(maxsize=4096)
def _column_names(c: Column) -> frozenset[str]:
    return frozenset(norm(n) for n in (c.key, c.ru, c.en, *c.aliases))


@dataclass(frozen=True)
class Layout:
    """The columns of one kind of tab and its tab names in both languages."""

    ru: str
    en: str
    columns: tuple[Column, ...]
    aliases: tuple[str, ...] = ()

    def tab_name(self, lang: str) -> str:
        return self.en if lang == "en" else self.ru

    def tab_names(self) -> set[str]:
        return {norm(n) for n in (self.ru, self.en, *self.aliases)}

    def header(self, lang: str) -> list[Cell]:
        return [c.header(lang) for c in self.columns]

    def widths(self) -> dict[int, int]:
        return {i + 1: c.width for i, c in enumerate(self.columns)}

    def wrapped(self) -> tuple[int, ...]:
        """1-based positions of the columns whose cells wrap."""
        return tuple(i + 1 for i, c in enumerate(self.columns) if c.wrap)

    def col(self, key: str) -> int:
        """1-based position of a column in the layout as written by us."""
        for i, c in enumerate(self.columns):
            if c.key == key:
                return i + 1
        raise KeyError(key)

    def locate(self, tab: str, header: Sequence[Cell], problems: list[Problem]) -> dict[str, int]:
        """Map column keys to 0-based positions in a read header row; record missing ones."""
        found: dict[str, int] = {}
        seen: dict[str, int] = {}
        for i, cell in enumerate(header):
            if is_blank(cell):
                continue
            n = norm(cell)
            for c in self.columns:
                if n in c.names():
                    if c.key in found:
                        problems.append(
                            Problem(
                                tab,
                                1,
                                column_letter(i + 1),
                                _("столбец «{header}» повторяется (уже есть в {column})").format(
                                    header=cell, column=column_letter(found[c.key] + 1)),
                            )
                        )
                    else:
                        found[c.key] = i
                    break
            seen[n] = i
        for c in self.columns:
            if c.required and c.key not in found:
                name, other = (c.en, c.ru) if i18n.current() == "en" else (c.ru, c.en)
                problems.append(Problem(tab, 1, "", _("нет столбца «{name}» ({other})").format(name=name, other=other)))
        return found


def find_tab(tables: Iterable[str], layout: Layout) -> str | None:
    """The name of the read tab that matches a layout's names, if any: an exact title first,
    then one that differs only in what a person does not see (see engine.core.tabs.tab_key)."""
    titles = list(tables)
    for name in (layout.ru, layout.en, *layout.aliases):
        if name in titles:
            return name
    names = layout.tab_names()
    keys = {tab_key(n) for n in (layout.ru, layout.en, *layout.aliases)}
    for name in titles:
        if norm(name) in names or tab_key(name) in keys:
            return name
    return None


def records(grid: Grid, cols: dict[str, int]) -> list[tuple[int, dict[str, Cell]]]:
    """(sheet row, {key: cell}) for every non-blank data row below the header."""
    out: list[tuple[int, dict[str, Cell]]] = []
    where = list(cols.items())
    for r, row in enumerate(grid[1:], start=2):
        for v in row:  # a row of blank cells only is no record
            if v is not None and (not isinstance(v, str) or v.strip()):
                break
        else:
            continue
        n = len(row)
        out.append((r, {k: (row[i] if i < n else None) for k, i in where}))
    return out
