"""Progress of a sync (read, resolve phase by phase, write) for people watching a terminal.

Sync code reports steps to a :class:`Progress`; the CLI passes :class:`RichProgress` (bars on
stderr, so stdout stays clean for ``--json``) or nothing (``--quiet``, ``--json``, no terminal).
A wait for Google's quota (sheets_bridge/google_quota.py) is shown on a bar of its own that counts
the seconds down (:meth:`RichProgress.quota_wait`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

from engine.core.messages import _

from .google_quota import DRIVE, SHEETS_READ

if TYPE_CHECKING:  # rich is imported by the bars themselves: a run nobody watches needs none of it
    from rich.console import Console
    from rich.progress import TaskID

QUOTA_TASK = "quota"


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

    def __init__(self, console: Console | None = None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RichBars

        console = console or Console(stderr=True, width=100)
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

    def quota_wait(self, seconds: float, kind: str, limit: int) -> None:
        """Show (``seconds`` > 0) or end (0) a wait for Google's quota of ``kind``."""
        if seconds <= 0:
            if QUOTA_TASK in self.tasks:
                self.bars.update(self.tasks[QUOTA_TASK], visible=False, detail="")
            return
        detail = quota_text(seconds, kind, limit)
        if QUOTA_TASK not in self.tasks:
            self.tasks[QUOTA_TASK] = self.bars.add_task(_("Квота Google"), total=1, detail=detail)
        self.bars.update(self.tasks[QUOTA_TASK], visible=True, detail=detail)

    @contextmanager
    def shown(self) -> Iterator[RichProgress]:
        """Draw the bars while the block runs."""
        with self.bars:
            yield self


def quota_text(seconds: float, kind: str, limit: int) -> str:
    """«пауза 12 с: Google разрешает 60 записей в Sheets в минуту» — what a quota wait is for."""
    if kind == SHEETS_READ:
        what = _("Google разрешает {limit} чтений Sheets в минуту").format(limit=limit)
    elif kind == DRIVE:
        what = _("Google разрешает {limit} запросов Drive в минуту").format(limit=limit)
    else:
        what = _("Google разрешает {limit} записей в Sheets в минуту").format(limit=limit)
    return _("пауза {seconds} с: {what}").format(seconds=max(1, round(seconds)), what=what)


def visible() -> bool:
    """Whether bars make sense: stderr is a terminal."""
    from rich.console import Console

    return Console(stderr=True).is_terminal
