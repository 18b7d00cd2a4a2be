"""Reading the cells of one civ1 rules tab: every problem names its tab, row and column (the
column's header as well as its letter), every number is checked against its column's bound
(:data:`.tabs.BOUNDS`), and every word against the words its column may hold."""

from __future__ import annotations

import re

from engine.core import i18n
from engine.core.cells import Bound, UndeclaredBound
from engine.core.errors import Problem
from engine.core.layout import Layout, find_tab, norm, records
from engine.core.money import amount
from engine.core.tables import Cell, Tables, column_letter, is_blank

from .messages import _
from .tabs import BOUNDS, YES_NO, Words, code_of


def split_list(cell: Cell) -> tuple[str, ...]:
    """'лес; джунгли' or 'монеты|ресурсы' -> ('лес', 'джунгли')."""
    return tuple(x.strip() for x in re.split(r"[;|\n]", str(cell or "")) if x.strip())


class TabReader:
    """Reads one rules tab by its Russian or English title and headers, collecting problems."""

    def __init__(self, tables: Tables, layout: Layout, problems: list[Problem]) -> None:
        self.layout = layout
        self.problems = problems
        self.bounds = BOUNDS.get(layout, {})
        self.tab = find_tab(tables, layout) or ""
        self.rows: list[tuple[int, dict[str, Cell]]] = []
        self.cols: dict[str, int] = {}
        self.lang = "ru"
        if not self.tab:
            problems.append(
                Problem(layout.ru, 0, "", _("нет листа правил «{tab}»").format(tab=layout.tab_name(i18n.current())))
            )
            return
        grid = tables[self.tab]
        if not grid:
            problems.append(Problem(self.tab, 0, "", _("лист пуст: нет даже строки заголовков")))
            return
        self.cols = layout.locate(self.tab, grid[0], problems)
        self.rows = records(grid, self.cols)
        self.lang = "en" if norm(self.tab) == norm(layout.en) else "ru"

    # --- problems -------------------------------------------------------------------------------

    def header(self, key: str) -> str:
        """The column's header in the tab's language (for messages)."""
        for c in self.layout.columns:
            if c.key == key:
                return c.header(self.lang)
        return key

    def bad(self, row: int, key: str, message: str) -> None:
        """A problem in the cell of ``row`` and column ``key``: «Лист!B3: столбец «…»: …»."""
        col = column_letter(self.cols[key] + 1) if key in self.cols else ""
        text = _("столбец «{column}»: {message}").format(column=self.header(key), message=message)
        self.problems.append(Problem(self.tab, row, col, text))

    # --- cells ----------------------------------------------------------------------------------

    def text(self, rec: dict[str, Cell], key: str) -> str:
        value = rec.get(key)
        return "" if is_blank(value) else str(value).strip()

    def name(self, rec: dict[str, Cell]) -> str:
        """The row's Russian name (its key in :class:`~.rules.Rules`), the English one when blank."""
        return self.text(rec, "name_ru") or self.text(rec, "name_en")

    def num(self, row: int, rec: dict[str, Cell], key: str, default: int | None = 0) -> int | None:
        """The whole number in column ``key`` within its declared bound; a blank cell is
        ``default`` unless the bound says the cell is required."""
        if key not in self.bounds:
            raise UndeclaredBound(f"{self.layout.ru}: no declared bound for the numeric column {key!r}")
        bound: Bound = self.bounds[key]
        value = rec.get(key)
        if is_blank(value):
            if bound.required:
                self.bad(row, key, _("пустая ячейка, нужно число"))
            return default
        try:
            num = amount(value)
        except (ValueError, TypeError, ZeroDivisionError, OverflowError):
            self.bad(row, key, _("не число: «{value}»").format(value=value))
            return default
        why = bound.problem(num)
        if why:
            self.bad(row, key, why)
            return default
        return int(num)

    def need(self, row: int, rec: dict[str, Cell], key: str) -> int:
        """A number that must be there (its bound is ``required``); 0 after a reported problem."""
        value = self.num(row, rec, key)
        return 0 if value is None else value

    def word(self, row: int, rec: dict[str, Cell], key: str, words: Words, default: str | None = None) -> str:
        """The code of the word in column ``key``; a blank cell is ``default`` (a problem if None)."""
        text = self.text(rec, key)
        if not text:
            if default is None:
                self.bad(row, key, _("пустая ячейка, нужно одно из: {known}").format(known=known(words, self.lang)))
                return ""
            return default
        code = code_of(words, text)
        if code is None:
            choices = known(words, self.lang)
            self.bad(row, key, _("непонятное «{text}»: нужно одно из: {known}").format(text=text, known=choices))
            return default or ""
        return code

    def yes(self, row: int, rec: dict[str, Cell], key: str, default: bool = False) -> bool:
        """«да» / «нет» (yes / no) in column ``key``; blank is ``default``."""
        return self.word(row, rec, key, YES_NO, "yes" if default else "no") == "yes"


def known(words: Words, lang: str) -> str:
    """The words a column accepts, in the tab's language, for a message."""
    return ", ".join(f"«{names[1] if lang == 'en' and len(names) > 1 else names[0]}»" for names in words.values())
