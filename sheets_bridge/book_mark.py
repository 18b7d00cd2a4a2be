"""Which book of a campaign a file or spreadsheet is, when it is not the one the GM's commands take.

A campaign with hidden information is several books (docs/audiences.md): the GM's, a public one and
one per player (.xlsx: ``g.xlsx``, ``g.public.xlsx``, ``g.players/Рим.xlsx``; Google: the campaign
spreadsheet, each player's own, the GM's hidden one).  A command given another book than the
campaign would read it as a broken campaign («нет листа …», «ни один ход не разрешён») or, worse,
write into it.  So every book but the campaign carries a small mark saying whose it is, where the
campaign is, and its language (a player's book has no meta tab to tell it), and every command
refuses such a book in words naming the right one (issue 23, point 11).

The mark is kept apart from everything else a book holds: on .xlsx one custom document property
(``strategos:book``), on Google one row of the book's hidden ``_strategos`` tab (``#book``).  Its
value is ``[audience key, campaign, language]`` as JSON on .xlsx and as three cells on Google.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.audience import GM, PUBLIC, Audience
from engine.core.errors import UsageError
from engine.core.messages import _

#: The .xlsx custom document property that marks a book.
PROPERTY = "strategos:book"
#: The first cell of the ``_strategos`` row that marks a Google spreadsheet.
ROW = "#book"


@dataclass(frozen=True)
class BookMark:
    """A book that is not the campaign: whose it is (``reader``), where the GM's commands go instead
    (``campaign``: the GM's workbook's file name, or the campaign spreadsheet's id) and the campaign's
    language (``lang``, "" when unknown)."""

    reader: Audience
    campaign: str
    lang: str = ""

    def cells(self) -> list[str]:
        """The mark as cells: ``[audience key, campaign, language]``."""
        return [self.reader.key, self.campaign, self.lang]

    def encode(self) -> str:
        """The mark as the text of a document property."""
        return json.dumps(self.cells(), ensure_ascii=False)

    @classmethod
    def from_cells(cls, cells: Sequence[object]) -> BookMark | None:
        """The mark a ``[audience key, campaign, language]`` row holds; None for anything else (a
        mark mangled by hand marks nothing: the command then reads the book as it is)."""
        values = [str(v).strip() if v is not None else "" for v in cells]
        if len(values) < 2 or not values[0]:
            return None
        reader = Audience.parse(values[0])
        if reader == GM and values[0] != GM.key:
            return None
        return cls(reader, values[1], values[2] if len(values) > 2 else "")

    @classmethod
    def decode(cls, text: object) -> BookMark | None:
        """The mark a document property's text holds; None when it holds none."""
        try:
            cells = json.loads(str(text))
        except (TypeError, ValueError):
            return None
        return cls.from_cells(cells) if isinstance(cells, list) else None


def refusal(mark: BookMark, book: str, campaign: str) -> UsageError:
    """What a command says when given ``book`` (a file or a spreadsheet's address), which ``mark``
    says is not the campaign; ``campaign`` is where the GM's commands go (the GM's workbook's path,
    the campaign spreadsheet's address).  Nothing has been written."""
    if mark.reader == PUBLIC:
        what = _("это публичная книга кампании, её получают все игроки")
    elif mark.reader.kind == "player":
        what = _("это книга игрока «{side}», её получает только он").format(side=mark.reader.side)
    else:
        what = _("это таблица ведущего со скрытыми листами кампании, а не сама кампания")
    return UsageError(_("{book}: {what}; команды ведущего — {campaign}. Ничего не изменено.").format(
        book=book, what=what, campaign=campaign))
