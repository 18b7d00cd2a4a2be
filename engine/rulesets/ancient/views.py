"""Who may see each tab of an ancient campaign (`Ruleset.tab_audiences`): the game's view per audience.

The ancient game hides nothing from its players but their order tabs' privacy on request, so the
view follows the tabs' titles alone: a state's order tab and its private report are that state's,
the GM's events, the order archive and the history snapshots the GM's, every other tab public —
the same audiences `new_workbook`'s specs declare, now also known for a campaign as read.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import history
from engine.core.audience import GM, PUBLIC, Audience, player

from .codec import order_state
from .tabset import PRIVATE_TAB
from .vocab import ARCHIVE, GM_EVENTS

#: The GM's tabs by title (exact, case aside: «_История», the GM's snapshots, is not «История», the
#: public table of every state's figures, though the two normalise alike).
GM_TITLES = frozenset(
    t.casefold()
    for t in (GM_EVENTS.ru, GM_EVENTS.en, *GM_EVENTS.aliases, ARCHIVE.ru, ARCHIVE.en, *ARCHIVE.aliases,
              *history.HISTORY_TITLES.values())
)


def report_state(tab: str) -> str | None:
    """The state whose private report a tab is («Отчёт — Египет»), or None."""
    for pattern in PRIVATE_TAB.values():
        head = pattern.format("")
        if tab.startswith(head) and tab[len(head):].strip():
            return tab[len(head):].strip()
    return None


def tab_audiences(tabs: Iterable[str]) -> dict[str, Audience]:
    """Tab title -> its audience, for every title of `tabs` (a campaign's `Tables` will do)."""
    out: dict[str, Audience] = {}
    for tab in tabs:
        side = order_state(tab) or report_state(tab)
        if side:
            out[tab] = player(side)
        elif tab.strip().casefold() in GM_TITLES:
            out[tab] = GM
        else:
            out[tab] = PUBLIC
    return out
