"""Reading typed values out of raw cells, with problems located by tab, row and column.

A numeric column a GM may edit has a declared :class:`Bound` (the ruleset lists them in one
place); a reader given bounds checks every number it reads against its column's bound, and a
column read as a number without a declared bound is a programming error, not a silent pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from .errors import Problem
from .layout import norm
from .messages import _
from .money import amount, fmt
from .tables import Cell, Formula, column_letter, is_blank, shorten

BIG = 10**9  # no amount or count of a campaign comes near this; beyond it a value is a typo


@dataclass(frozen=True)
class Bound:
    """The values one numeric column may hold: ``lo``..``hi`` inclusive, whole numbers only when
    ``integer``; ``required`` makes a blank cell an error instead of the reader's default."""

    lo: Fraction | int | None = None
    hi: Fraction | int | None = None
    integer: bool = False
    required: bool = False

    def describe(self, crossed: Fraction | None = None) -> str:
        """«от 0 до 100», «не меньше 0», «не больше 3», in the current language.  An edge far out
        (±BIG, a typo guard) is left unsaid unless ``crossed``, the value refused, lies beyond it."""
        lo = None if self.lo is None or (self.lo <= -BIG and not (crossed is not None and crossed < self.lo)) \
            else fmt(Fraction(self.lo))
        hi = None if self.hi is None or (self.hi >= BIG and not (crossed is not None and crossed > self.hi)) \
            else fmt(Fraction(self.hi))
        if lo is not None and hi is not None:
            return _("от {lo} до {hi}").format(lo=lo, hi=hi)
        if lo is not None:
            return _("не меньше {lo}").format(lo=lo)
        if hi is not None:
            return _("не больше {hi}").format(hi=hi)
        return _("от {lo} до {hi}").format(lo=fmt(Fraction(-BIG)), hi=fmt(Fraction(BIG)))

    def problem(self, value: Fraction) -> str | None:
        """Why ``value`` does not fit, or None when it does."""
        if self.integer and value.denominator != 1:
            return _("нужно целое число, а не {value}").format(value=shorten(fmt(value), 24))
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            return _("{value} вне допустимого: {bounds}").format(value=shorten(fmt(value), 24),
                                                                   bounds=self.describe(value))
        return None


class UndeclaredBound(KeyError):
    """A numeric column is read without a declared bound (a bug: declare it with the others)."""

YES_WORDS = {"да", "yes", "y", "true", "1", "истина", "+", "x", "х", "д"}
NO_WORDS = {"нет", "no", "n", "false", "0", "ложь", "-", "н", ""}


class CellReader:
    """Typed getters for one tab; each bad cell adds a Problem and returns a safe default."""

    def __init__(
        self, tab: str, cols: dict[str, int], problems: list[Problem], bounds: Mapping[str, Bound] | None = None
    ) -> None:
        self.tab = tab
        self.cols = cols
        self.problems = problems
        self.bounds = bounds  # None: no declared bounds (only the lo/hi a caller passes)

    def _bound(self, key: str) -> Bound | None:
        if self.bounds is None:
            return None
        if key not in self.bounds:
            raise UndeclaredBound(f"{self.tab}: no declared bound for the numeric column {key!r}")
        return self.bounds[key]

    def checked(self, row: int, key: str, value: Fraction, default: Fraction) -> Fraction:
        """``value`` if it fits the column's declared bound; else a problem and ``default``."""
        bound = self._bound(key)
        why = bound.problem(value) if bound is not None else None
        if why:
            self.bad(row, key, why)
            return default
        return value

    def where(self, key: str) -> str:
        return column_letter(self.cols[key] + 1) if key in self.cols else ""

    def bad(self, row: int, key: str, message: str) -> None:
        self.problems.append(Problem(self.tab, row, self.where(key), message))

    def text(self, row: int, rec: dict[str, Cell], key: str, required: bool = False) -> str:
        value = rec.get(key)
        if isinstance(value, Formula):
            self.bad(row, key, _("формула {formula} вместо значения").format(formula=repr(str(value)[:40])))
            return ""
        if is_blank(value):
            if required:
                self.bad(row, key, _("пустая ячейка"))
            return ""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return str(value).strip()

    def integer(
        self, row: int, rec: dict[str, Cell], key: str, default: int = 0, lo: int | None = None, hi: int | None = None
    ) -> int:
        value = rec.get(key)
        bound = self._bound(key)
        if is_blank(value):
            if bound is not None and bound.required:
                self.bad(row, key, _("пустая ячейка, нужно целое число"))
            return default
        try:
            num = amount(value)
        except (ValueError, TypeError, ZeroDivisionError, OverflowError):
            self.bad(row, key, _("не число: {value}").format(value=repr(value)))
            return default
        if num.denominator != 1:
            self.bad(row, key, _("нужно целое число, а не {value}").format(value=repr(value)))
            return default
        out = int(num)
        if (lo is not None and out < lo) or (hi is not None and out > hi):
            self.bad(row, key, _("число {value} вне допустимого ({lo}…{hi})").format(value=out, lo=lo, hi=hi))
            return default
        return int(self.checked(row, key, Fraction(out), Fraction(default)))

    def number(self, row: int, rec: dict[str, Cell], key: str, default: Fraction = Fraction(0)) -> Fraction:
        value = rec.get(key)
        bound = self._bound(key)
        if is_blank(value):
            if bound is not None and bound.required:
                self.bad(row, key, _("пустая ячейка, нужно число"))
            return default
        try:
            num = amount(value)
        except (ValueError, TypeError, ZeroDivisionError, OverflowError):
            self.bad(row, key, _("не число: {value}").format(value=repr(value)))
            return default
        return self.checked(row, key, num, default)

    def flag(self, row: int, rec: dict[str, Cell], key: str) -> bool:
        value = rec.get(key)
        if isinstance(value, bool):
            return value
        n = norm(value)
        if n in {norm(w) for w in YES_WORDS}:
            return True
        if n in {norm(w) for w in NO_WORDS}:
            return False
        self.bad(row, key, _("ожидается «да» или «нет», а не {value}").format(value=repr(value)))
        return False

    def items(self, row: int, rec: dict[str, Cell], key: str) -> list[str]:
        text = self.text(row, rec, key)
        return [x.strip() for x in re.split(r"[;\n]", text) if x.strip()]

    def ints(self, row: int, rec: dict[str, Cell], key: str) -> tuple[int, ...]:
        value = rec.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return (int(value),)
        out: list[int] = []
        for part in re.split(r"[;,\s]+", self.text(row, rec, key)):
            if not part:
                continue
            if not part.isdigit():
                self.bad(row, key, _("не номер: {value}").format(value=repr(part)))
                continue
            out.append(int(part))
        return tuple(out)
