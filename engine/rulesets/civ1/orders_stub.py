"""A stand-in for orders.py (helper C2's) until it is merged: `parse` of a few orders, enough for the
game to play a whole window on the core.  Same signature as orders.py's `parse`; the turn imports
orders.py when it exists and this module otherwise (stages.py `parser`).

Understood: «Разведка» (Где: гекс), «Основать город» (Где: гекс, Объект: имя), «Изучить» (Объект:
технология), «Активировать» (Где: город), «Нет действий»/«Пас».
"""

from __future__ import annotations

from engine.core.errors import InvalidOrder
from engine.core.layout import norm
from engine.core.orders import OrderRow

from . import hexes
from .calendar import CALENDAR
from .model import World
from .ordertypes import STAGE_OF, Activate, Explore, Found, Order, Pass, Research
from .rules import Rules

WORDS = {
    "разведка": "explore", "разведатьдеревню": "explore", "explore": "explore",
    "основатьгород": "found", "основать": "found", "found": "found",
    "изучить": "research", "исследовать": "research", "research": "research",
    "активировать": "activate", "activate": "activate",
    "нетдействий": "pass", "пас": "pass", "pass": "pass",
}


def _hex(row: OrderRow, key: str) -> hexes.Hex:
    h = hexes.parse(row.cells.get(key))
    if h is None:
        raise InvalidOrder(f"в ячейке {row.where(key)} гекс пишут «q,r» (например «3,4»), "
                           f"а там «{row.cells.get(key) or ''}»")
    return h


def parse(row: OrderRow, stage: str, rules: Rules, world: World) -> Order:
    """The order a row holds at the open stage `stage` (a calendar key); InvalidOrder, naming the
    cell, when it holds none or an order of the other stage."""
    if row.formulas:
        raise InvalidOrder(f"в ячейке {row.where(sorted(row.formulas)[0])} формула: приказ пишут словами")
    action = WORDS.get(norm(row.cells.get("action")))
    obj = str(row.cells.get("object") or "").strip()
    order: Order
    if action is None:
        raise InvalidOrder(f"в ячейке {row.where('action')} непонятный приказ «{row.cells.get('action') or ''}»")
    if action == "explore":
        order = Explore(_hex(row, "where"))
    elif action == "found":
        order = Found(_hex(row, "where"), obj)
    elif action == "research":
        try:
            order = Research(rules.tech(obj).name_ru)
        except KeyError:
            raise InvalidOrder(f"в ячейке {row.where('object')} нет технологии «{obj}»") from None
    elif action == "activate":
        city = str(row.cells.get("where") or "").strip()
        if city not in world.cities:
            raise InvalidOrder(f"в ячейке {row.where('where')} нет города «{city}»")
        order = Activate(city)
    else:
        order = Pass()
    own = STAGE_OF.get(type(order))
    if own is not None and own != stage:
        raise InvalidOrder(f"«{row.cells.get('action')}» — приказ фазы «{CALENDAR.stage(own).ru}»")
    return order


def describe(order: Order, lang: str, rules: Rules | None = None) -> str:
    """The echo «Понято как» of an order of this stand-in (orders.py's own is richer)."""
    en = lang == "en"
    match order:
        case Explore(hex=h):
            return f"{'explore the village on' if en else 'разведать деревню на гексе'} {hexes.text(h)}"
        case Found(hex=h, name=name):
            return f"{'found' if en else 'основать город'} «{name}» {'on' if en else 'на гексе'} {hexes.text(h)}"
        case Research(tech=tech):
            return f"{'research' if en else 'изучить'} {tech}"
        case Activate(city=city):
            return f"{'activate' if en else 'активировать'} {city}"
    return "no action" if en else "нет действий"
