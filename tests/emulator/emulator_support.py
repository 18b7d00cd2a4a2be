"""Shared constants and helpers of the emulator tests (imported by conftest and tests)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

GM = "gm@strategos.example"
PLAYER = "player@strategos.example"
OUTSIDER = "outsider@strategos.example"


@dataclass
class FakeTime:
    """Injectable clock/sleep: sleeping advances the clock (and optionally the emulator's)."""

    now: float = 1000.0
    sleeps: list[float] = field(default_factory=list)
    on_sleep: Callable[[float], None] | None = None

    def clock(self) -> float:
        """Monotonic seconds."""
        return self.now

    def sleep(self, seconds: float) -> None:
        """Record and 'wait'."""
        self.sleeps.append(seconds)
        self.now += seconds
        if self.on_sleep is not None:
            self.on_sleep(seconds)
