"""Which tabs of the players' own spreadsheets a read takes (issue 23 p2).

In a campaign with hidden information each side's tabs live in a spreadsheet of that side's,
writable by its player (to type orders), who may therefore add sheets to it.  A tab is read from
such a spreadsheet only where the program put it for that side: its stable id (sheetId) is listed
for that spreadsheet in the keeper's ``_strategos`` (``TAB_ROW``), whatever its title says.  A tab
added by a player -- one titled as another side's order tab, in their own spreadsheet -- is
therefore never read, as orders or anything else, and the GM is told its name (``warnings``).

A campaign made before the ids were kept lists none: its tabs are taken by title as before, except
a title found in two players' spreadsheets (neither is taken) or one the campaign or the GM's book
already has.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping

from engine.core.messages import _
from engine.core.tables import Tables

from .gsheets_client import spreadsheet_url
from .gsheets_read import SheetInfo


class Gate:
    """The tabs a read takes from the players' spreadsheets, and those it refuses (``refused``)."""

    def __init__(self, placed: Mapping[str, Collection[int]], books: Mapping[str, Tables]) -> None:
        self.placed = placed  # spreadsheet -> ids of the tabs the program put there
        counts = Counter(title for tabs in books.values() for title in tabs)
        self.shared = {title for title, n in counts.items() if n > 1}  # (no ids) a title in two books
        self.refused: dict[str, list[str]] = {}  # spreadsheet -> titles not taken

    def admits(self, spreadsheet_id: str, info: SheetInfo, tables: Tables) -> bool:
        """Whether the tab ``info`` of the player's spreadsheet ``spreadsheet_id`` is read, beside
        ``tables`` (what the read took already); a refused tab is remembered for the warning."""
        by_id = info.sheet_id in self.placed.get(spreadsheet_id, ())
        ok = (by_id if self.placed else info.title not in self.shared) and info.title not in tables
        if not ok:
            self.refused.setdefault(spreadsheet_id, []).append(info.title)
        return ok


def warnings(foreign: Collection[tuple[str, str, str]]) -> list[str]:
    """The GM's warning for each tab a read refused: (spreadsheet, side, title)."""
    return [_("В таблице игрока «{side}» ({url}) лист «{tab}» не создан программой для этой стороны: он не "
              "читается — ни как приказы, ни как данные. Приказы стороны читаются только из её собственного "
              "листа; этот лист можно удалить.").format(side=side, url=spreadsheet_url(sid), tab=title)
            for sid, side, title in foreign]
