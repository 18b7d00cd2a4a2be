"""Checks across one state's orders of a turn, for the GM's warnings (issue 16, point 10).

A row is judged alone by `orders.parse`; some surprises show only beside the other rows: «Нет
действий» written above real orders says two things at once. The turn runs as written (the other
orders are carried out, «Нет действий» does nothing), and the GM is told, so the player can be asked.
"""

from __future__ import annotations

from engine.core import i18n

from .facts import Report
from .messages import _
from .orders import NoActions
from .turnorders import TurnOrders
from .vocab import ACTIONS


def warn_no_actions_with_orders(orders: TurnOrders, report: Report) -> None:
    """A warning per state whose rows hold «Нет действий» and other orders (understood or not)."""
    for state in orders.rows:
        rows = orders.of(state)
        quiet = [row.row for row, parsed in rows if isinstance(parsed, NoActions)]
        others = [row.row for row, parsed in rows if not isinstance(parsed, NoActions)]
        if not quiet or not others:
            continue
        ru, en, _more = ACTIONS["none"]
        text = _("«{tab}»: «{none}» и другие приказы в одном ходу (строки {rows}) — другие приказы исполняются, "
                 "«{none}» ничего не меняет")
        numbers = ", ".join(str(r) for r in sorted(quiet + others))
        report.warn(text.format(tab=rows[0][0].tab, none=en if i18n.current() == "en" else ru, rows=numbers))
