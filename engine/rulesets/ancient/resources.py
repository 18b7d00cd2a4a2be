"""The ancient game's counted resources: money (Д, the treasury) and science points.

Both are ledgered: a phase changes a state's treasury or science only by posting to the turn's
ledger (`TurnReport.post`).  `SHOWN` are the resources the balance sheet, the GM's summary and the
forum post show as balances; science is reported in its own column and sentence instead (the
balance sheet's fixed layout has a science column, the post a «наука» clause).
"""

from __future__ import annotations

from engine.core.ledger import Resource

MONEY = Resource("Д", "казна", "treasury", "Д", decimals=2)
SCIENCE = Resource("очки науки", "наука", "science", "очки науки", decimals=2)
RESOURCES: tuple[Resource, ...] = (MONEY, SCIENCE)
SHOWN: tuple[Resource, ...] = (MONEY,)
