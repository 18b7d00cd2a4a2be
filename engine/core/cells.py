"""Reading typed values out of raw cells, with problems located by tab, row and column."""

from __future__ import annotations

import re
from fractions import Fraction

from .errors import Problem
from .layout import norm
from .money import amount
from .tables import Cell, Formula, column_letter, is_blank

YES_WORDS = {"да", "yes", "y", "true", "1", "истина", "+", "x", "х", "д"}
NO_WORDS = {"нет", "no", "n", "false", "0", "ложь", "-", "н", ""}


class CellReader:
    """Typed getters for one tab; each bad cell adds a Problem and returns a safe default."""

    def __init__(self, tab: str, cols: dict[str, int], problems: list[Problem]) -> None:
        self.tab = tab
        self.cols = cols
        self.problems = problems

    def where(self, key: str) -> str:
        return column_letter(self.cols[key] + 1) if key in self.cols else ""

    def bad(self, row: int, key: str, message: str) -> None:
        self.problems.append(Problem(self.tab, row, self.where(key), message))

    def text(self, row: int, rec: dict[str, Cell], key: str, required: bool = False) -> str:
        value = rec.get(key)
        if isinstance(value, Formula):
            self.bad(row, key, f"формула {str(value)[:40]!r} вместо значения")
            return ""
        if is_blank(value):
            if required:
                self.bad(row, key, "пустая ячейка")
            return ""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return str(value).strip()

    def integer(
        self, row: int, rec: dict[str, Cell], key: str, default: int = 0, lo: int | None = None, hi: int | None = None
    ) -> int:
        value = rec.get(key)
        if is_blank(value):
            return default
        try:
            num = amount(value)
        except (ValueError, TypeError, ZeroDivisionError, OverflowError):
            self.bad(row, key, f"не число: {value!r}")
            return default
        if num.denominator != 1:
            self.bad(row, key, f"нужно целое число, а не {value!r}")
            return default
        out = int(num)
        if (lo is not None and out < lo) or (hi is not None and out > hi):
            self.bad(row, key, f"число {out} вне допустимого ({lo}…{hi})")
            return default
        return out

    def number(self, row: int, rec: dict[str, Cell], key: str, default: Fraction = Fraction(0)) -> Fraction:
        value = rec.get(key)
        if is_blank(value):
            return default
        try:
            return amount(value)
        except (ValueError, TypeError, ZeroDivisionError, OverflowError):
            self.bad(row, key, f"не число: {value!r}")
            return default

    def flag(self, row: int, rec: dict[str, Cell], key: str) -> bool:
        value = rec.get(key)
        if isinstance(value, bool):
            return value
        n = norm(value)
        if n in {norm(w) for w in YES_WORDS}:
            return True
        if n in {norm(w) for w in NO_WORDS}:
            return False
        self.bad(row, key, f"ожидается «да» или «нет», а не {value!r}")
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
                self.bad(row, key, f"не номер: {part!r}")
                continue
            out.append(int(part))
        return tuple(out)
