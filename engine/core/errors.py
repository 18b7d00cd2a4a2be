"""One error base for the whole project.

Only the CLI turns these into exit codes; everything below it raises or collects them.
Messages are written for the person who must act on them (Russian first) and quote the input.
"""

from __future__ import annotations

from dataclasses import dataclass

from .messages import _

SCREENFUL = 20  # at most this many problems are listed in one message; the rest are counted


class StrategosError(Exception):
    """Base of every error the project raises on purpose."""


class UsageError(StrategosError):
    """The command line itself is wrong (exit code 2)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the sheet, located by tab, row and column (1-based; 0 = whole tab/row)."""

    tab: str
    row: int
    column: str
    message: str

    def where(self) -> str:
        """«Лист!B3», «Лист, строка 3», «Лист, столбец B», «Лист», or '' when
        the problem has no place; never a location with a part missing («!B3», «, строка 3»)."""
        tab = self.tab.strip()
        if not tab:
            if self.row and self.column:
                return _("ячейка {cell}").format(cell=f"{self.column}{self.row}")
            if self.row:
                return _("строка {row}").format(row=self.row)
            return _("столбец {column}").format(column=self.column) if self.column else ""
        if self.row and self.column:
            return f"{tab}!{self.column}{self.row}"
        if self.row:
            return _("{tab}, строка {row}").format(tab=tab, row=self.row)
        if self.column:
            return _("{tab}, столбец {column}").format(tab=tab, column=self.column)
        return tab

    @property
    def is_cause(self) -> bool:
        """A problem of a whole tab or of its header row: the problems of its rows often follow from it."""
        return self.row <= 1

    def __str__(self) -> str:
        where = self.where()
        message = self.message.strip()
        return f"{where}: {message}" if where else message


class CampaignError(StrategosError):
    """The campaign sheet itself is broken; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem] | Problem | str) -> None:
        if isinstance(problems, str):
            problems = [Problem("", 0, "", problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__(self.render())

    def render(self, limit: int | None = None) -> str:
        """One problem as itself; several as a count and the list. With a `limit` (the CLI's
        screenful), the causes first (whole tabs and headers: what the rest often follows from),
        at most `limit` of them in all and the rest counted by tab."""
        if len(self.problems) == 1:
            return str(self.problems[0])
        ordered = self.problems
        if limit is not None:
            ordered = [p for p in self.problems if p.is_cause] + [p for p in self.problems if not p.is_cause]
        shown, rest = ordered[:limit], ordered[len(ordered[:limit]):]
        lines = [_("Найдено проблем в таблице: {n}").format(n=len(self.problems))]
        lines += [f"  - {p}" for p in shown]
        if rest:
            by_tab: dict[str, int] = {}
            for p in rest:
                by_tab[p.tab] = by_tab.get(p.tab, 0) + 1
            tabs = ", ".join(_("«{tab}»: {n}").format(tab=tab, n=n) if tab else str(n) for tab, n in by_tab.items())
            lines.append(_("  … и ещё {n} не показаны ({tabs}): исправьте показанные, и команда назовёт "
                           "оставшиеся.").format(n=len(rest), tabs=tabs))
        return "\n".join(lines)


class TurnMismatch(StrategosError):
    """`resolve --turn N` was asked for a turn that is not the open one; nothing is changed."""


class GameOver(StrategosError):
    """check or resolve asked of a finished campaign (engine/core/ending.py): refused, nothing written.
    ``reason``: why the game ended, as the meta says it; ``last``: its last window, in the campaign's
    words (what `rollback` reopens the game at)."""

    def __init__(self, message: str, reason: str, last: str = "") -> None:
        super().__init__(message)
        self.reason = reason
        self.last = last


class InvalidOrder(StrategosError):
    """An order row cannot be read: unknown word, bad number, formula in a cell."""


class IllegalOrder(StrategosError):
    """An order row was read but breaks a rule: not enough Д, building not allowed there."""


class BackendError(StrategosError):
    """The spreadsheet could not be read or written (file missing, no access, quota...)."""
