"""Progress of a sync (read, resolve phase by phase, write) for people watching a terminal.

Sync code reports steps to a :class:`Progress`; the CLI passes :class:`RichProgress` (bars on
stderr, so stdout stays clean for ``--json``) or nothing (``--quiet``, ``--json``, no terminal).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichBars

from engine.core.messages import _


class Progress(Protocol):
    """Where a sync reports what it is doing."""

    def start(self, key: str, label: str, total: int = 1) -> None:
        """A step begins (``total`` units of work)."""
        ...

    def advance(self, key: str, detail: str = "") -> None:
        """One unit of a step is done (``detail`` names it, e.g. a phase)."""
        ...

    def finish(self, key: str) -> None:
        """A step is complete."""
        ...


class Silent:
    """Reports nothing."""

    def start(self, key: str, label: str, total: int = 1) -> None:
        pass

    def advance(self, key: str, detail: str = "") -> None:
        pass

    def finish(self, key: str) -> None:
        pass


class RichProgress:
    """Progress bars drawn by rich on stderr."""

    def __init__(self) -> None:
        console = Console(stderr=True, width=100)
        self.bars = RichBars(
            TextColumn("{task.description:<24}"),
            BarColumn(bar_width=30),
            MofNCompleteColumn(),
            TextColumn("{task.fields[detail]}"),
            TimeElapsedColumn(),
            console=console,
        )
        self.tasks: dict[str, TaskID] = {}

    def start(self, key: str, label: str, total: int = 1) -> None:
        self.tasks[key] = self.bars.add_task(label, total=total, detail="")

    def advance(self, key: str, detail: str = "") -> None:
        self.bars.update(self.tasks[key], advance=1, detail=detail)

    def finish(self, key: str) -> None:
        task = self.tasks[key]
        total = self.bars.tasks[task].total or 1
        self.bars.update(task, completed=total, detail=_("готово"))

    @contextmanager
    def shown(self) -> Iterator[RichProgress]:
        """Draw the bars while the block runs."""
        with self.bars:
            yield self


def visible() -> bool:
    """Whether bars make sense: stderr is a terminal."""
    return Console(stderr=True).is_terminal
