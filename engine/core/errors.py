"""One error base for the whole project.

Only the CLI turns these into exit codes; everything below it raises or collects them.
Messages are written for the person who must act on them (Russian first) and quote the input.
"""

from __future__ import annotations

from dataclasses import dataclass


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

    def __str__(self) -> str:
        where = self.tab
        if self.row and self.column:
            where = f"{self.tab}!{self.column}{self.row}"
        elif self.row:
            where = f"{self.tab}, строка {self.row}"
        elif self.column:
            where = f"{self.tab}, столбец {self.column}"
        return f"{where}: {self.message}" if where else self.message


class CampaignError(StrategosError):
    """The campaign sheet itself is broken; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem] | Problem | str) -> None:
        if isinstance(problems, str):
            problems = [Problem("", 0, "", problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__(self.render())

    def render(self) -> str:
        if len(self.problems) == 1:
            return str(self.problems[0])
        lines = [f"Найдено проблем в таблице: {len(self.problems)}"]
        lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


class TurnMismatch(StrategosError):
    """`resolve --turn N` was asked for a turn that is not the open one; nothing is changed."""


class InvalidOrder(StrategosError):
    """An order row cannot be read: unknown word, bad number, formula in a cell."""


class IllegalOrder(StrategosError):
    """An order row was read but breaks a rule: not enough Д, building not allowed there."""


class BackendError(StrategosError):
    """The spreadsheet could not be read or written (file missing, no access, quota...)."""
