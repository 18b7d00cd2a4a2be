"""The ancient game's calendar and the one place that knows how its chronicle names a turn's seed.

One stage per turn: every cursor is a stage-less turn number («3»), so the meta tab, the history,
the seed and the order tabs are exactly as they were before stages.
"""

from __future__ import annotations

import re

from engine.core.cursor import Calendar, Cursor
from engine.core.layout import norm
from engine.core.tables import Tables

from .vocab import CHRONICLE

CALENDAR = Calendar()

# «Зерно хода 3: <64 hex> (sha256 = …)», the chronicle line resolve writes for players (ruleset.resolve)
_SEED_LINE = re.compile(r"(?:Зерно хода|Seed of turn) \d+: ([0-9a-f]{64})")


def chronicle_seed(tables: Tables, cursor: Cursor) -> str | None:
    """The seed of `cursor`'s turn as the chronicle tells it to players: the fallback of `verify` for a
    campaign resolved before the meta kept the revealed seed in its own cell."""
    names = {norm(CHRONICLE.ru), norm(CHRONICLE.en)}
    for name, grid in tables.items():
        if norm(name) not in names:
            continue
        for row in grid[1:]:
            if len(row) > 1 and row[0] == cursor.turn:
                m = _SEED_LINE.search(str(row[1]))
                if m:
                    return m.group(1)
    return None
