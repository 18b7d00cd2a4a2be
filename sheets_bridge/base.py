"""The backend protocol: read every tab in one go, write every change in one atomic go.

Besides `read` and `write`, a backend may have capabilities the bridge uses when they are there
(sheets_bridge/sync.py): a lock held for a whole command, stable tab ids, private order books, an
audit of the sharing, a legacy key for the GM's secret.  They are declared here with the answer
of a backend without them, so a backend that subclasses `Backend` inherits the defaults, the bridge
calls them directly (a type checker follows every call) and nothing is probed with ``getattr``.
"""

from __future__ import annotations

import contextlib
from typing import Any, Protocol

from engine.core.tables import Changeset, Tables, WorkbookSpec

from .book_mark import BookMark


class Backend(Protocol):
    """A campaign spreadsheet: an .xlsx file or a Google spreadsheet (or a dict, for tests)."""

    location: str
    #: (.xlsx) the GM opted into the players' and the public books for a game without hidden
    #: information (`--player-books`): from this write on they are written beside the campaign
    player_books: bool = False

    def read(self) -> Tables:
        """Every tab as a grid of raw cells (formulas as `Formula`)."""
        ...

    def write(self, changes: Changeset) -> None:
        """Apply all changes at once: afterwards the sheet is either unchanged or fully changed."""
        ...

    # ------------------------------------------------------------ capabilities, with their defaults

    def stored(self, tables: Tables) -> Tables:
        """`tables` (what `read` gave) with the chunks of the history's snapshots (engine/core/history.py)
        where the backend keeps them out of its
        ordinary read (.xlsx: files beside the campaign; Google: the cells' notes); by default the
        tables as they are (a backend that keeps everything in its tabs)."""
        return tables

    def exclusive(self, command: str) -> contextlib.AbstractContextManager[Any]:
        """A lock held for a command's whole read–compute–write (a second command is refused while
        it is held); none by default (Google: a compare-and-swap in the write instead)."""
        return contextlib.nullcontext()

    @property
    def tab_ids(self) -> dict[str, str]:
        """Each tab of the last read -> a stable id that survives a rename (Google's sheetIds), so
        the ruleset follows renamed tabs exactly; none by default (an .xlsx tab has no such id)."""
        return {}

    @property
    def private_order_tabs(self) -> frozenset[str]:
        """The tabs the last read found in books of one player each (their order tabs): each such
        player gets their own report there (sync.private_reports); none by default."""
        return frozenset()

    def set_aside_typed(self) -> list[str]:
        """Before a write that puts the order tabs back as they were (a rollback): keep what the
        players typed in their own books since, beside those books, and say where, in words; none
        by default (Google keeps every earlier version of a player's spreadsheet itself)."""
        return []

    def audit(self) -> list[str]:
        """Warnings about what surrounds the campaign (Google: sharing and names that drifted from
        what `new` set; .xlsx: the players' books not written); none by default."""
        return []

    def other_book(self) -> tuple[BookMark, str] | None:
        """When the last read found one of a campaign's other books (a player's, the public one; on
        Google the GM's hidden spreadsheet) rather than the campaign the GM's commands take: its
        mark and where the campaign is (a path, an address), so that every command refuses it in
        words (sync.read); None by default: the campaign itself."""
        return None

    def completed(self) -> list[str]:
        """What the reads so far finished of a write another run left half-delivered across the
        campaign's spreadsheets (Google: sheets_bridge/gsheets_journal.py), in words; none by default."""
        return []

    def secret_key(self) -> str | None:
        """A second key the GM's secret store may hold this campaign's secret under, for a campaign
        whose meta tab has no campaign id (a Google campaign made before ids: its spreadsheet id);
        None by default."""
        return None


class Creator(Protocol):
    def create(self, spec: WorkbookSpec) -> str:
        """Create a new spreadsheet from a spec; returns its location."""
        ...
