"""Who may see each tab of an ancient campaign (`Ruleset.tab_audiences`): the game's view per audience.

The ancient game hides nothing from its players but their order tabs' privacy on request, so the
view follows the tabs' titles alone: a state's order tab and its private report are that state's,
the GM's events, the order archive and the history snapshots the GM's, every other tab the program
makes public — the same audiences `new_workbook`'s specs declare, now also known for a campaign as
read.  A tab the program does not make (one added by hand) is not named: the backend gives it to
the GM alone (engine/core/audience.py: a mistake hides a tab, never shows one).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import history
from engine.core.audience import GM, PUBLIC, Audience, player
from engine.core.layout import Layout
from engine.core.tabs import REGISTRY_TITLES

from . import dropdowns, public, vocab
from .codec import order_state
from .tabset import PRIVATE_TAB
from .vocab import ARCHIVE, BALANCE_TAB, GM_EVENTS


def _titles(*layouts: Layout) -> set[str]:
    return {t.casefold() for lay in layouts for t in (lay.ru, lay.en, *lay.aliases)}


#: The GM's tabs by title (exact, case aside: «_История», the GM's snapshots, is not «История», the
#: public table of every state's figures, though the two normalise alike).
GM_TITLES = frozenset(_titles(GM_EVENTS, ARCHIVE) | {t.casefold() for t in history.HISTORY_TITLES.values()})

#: Every other tab the program makes, by title: the public ones.
PUBLIC_TITLES = frozenset(
    (_titles(*(v for v in vars(vocab).values() if isinstance(v, Layout) and v is not vocab.ORDERS), dropdowns.LISTS)
     | {t.casefold() for names in (BALANCE_TAB, public.HISTORY_TAB, public.CHARTS_TAB, REGISTRY_TITLES)
        for t in names.values()})
    - GM_TITLES
)


def report_state(tab: str) -> str | None:
    """The state whose private report a tab is («Отчёт — Египет»), or None."""
    for pattern in PRIVATE_TAB.values():
        head = pattern.format("")
        if tab.startswith(head) and tab[len(head):].strip():
            return tab[len(head):].strip()
    return None


def tab_audiences(tabs: Iterable[str]) -> dict[str, Audience]:
    """Tab title -> its audience, for every title of `tabs` the program makes (a campaign's
    `Tables` will do); a tab it does not make is left out."""
    out: dict[str, Audience] = {}
    for tab in tabs:
        side = order_state(tab) or report_state(tab)
        key = tab.strip().casefold()
        if side:
            out[tab] = player(side)
        elif key in GM_TITLES:
            out[tab] = GM
        elif key in PUBLIC_TITLES:
            out[tab] = PUBLIC
    return out
