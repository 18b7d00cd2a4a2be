"""The ancient game's counted resources: money (Д, the treasury) and science points.

Both are ledgered: a phase changes a state's treasury or science only by posting to the turn's
ledger (`TurnReport.post`).  `SHOWN` are the resources the balance sheet, the GM's summary and the
forum post show as balances; science is reported in its own sentence there instead (the post's
«наука» clause).  `BALANCED` are those the balance sheet shows from the ledger: both.
"""

from __future__ import annotations

from engine.core.ledger import Resource

MONEY = Resource("Д", "казна", "treasury", "Д", decimals=2)
SCIENCE = Resource("очки науки", "наука", "science", "очки науки", decimals=2)
RESOURCES: tuple[Resource, ...] = (MONEY, SCIENCE)
SHOWN: tuple[Resource, ...] = (MONEY,)
#: The resources the balance sheet shows from the ledger: money in its fixed layout of categories,
#: each other one in a block of its own to the right (opening, gained, spent, closing).
BALANCED: tuple[Resource, ...] = (MONEY, SCIENCE)
