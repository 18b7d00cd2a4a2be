"""Checks across one state's orders of a turn, for the GM's warnings (issue 16, point 10).

A row is judged alone by `orders.parse`; some surprises show only beside the other rows: «Нет
действий» written above real orders says two things at once. The turn runs as written (the other
orders are carried out, «Нет действий» does nothing), and the GM is told, so the player can be asked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.core import i18n
from engine.core.orders import OrderRow

from .facts import Report
from .messages import _
from .orders import NoActions
from .turnorders import Orders
from .vocab import ACTIONS


def warn_no_actions_with_orders(rows: Iterable[tuple[str, Sequence[OrderRow]]], orders: Orders,
                                report: Report) -> None:
    """A warning per state whose rows (`rows`: state, its rows of the turn, understood or not) hold
    «Нет действий» and other orders (understood or not); `orders` are the rows read as orders."""
    for state, read in rows:
        quiet_refs = {g.row.ref for g in orders.get(state, ()) if isinstance(g.order, NoActions)}
        quiet = [row.row for row in read if row.ref in quiet_refs]
        others = [row.row for row in read if row.ref not in quiet_refs]
        if not quiet or not others:
            continue
        ru, en, _more = ACTIONS["none"]
        text = _("«{tab}»: «{none}» и другие приказы в одном ходу (строки {rows}) — другие приказы исполняются, "
                 "«{none}» ничего не меняет")
        numbers = ", ".join(str(r) for r in sorted(quiet + others))
        report.warn(text.format(tab=read[0].tab, none=en if i18n.current() == "en" else ru, rows=numbers))
