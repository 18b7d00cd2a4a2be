"""civ1's scenario hooks: engine/core/scenario.py plays a tests/scenarios/civ1/*.yaml through check
and resolve; these are the parts that know the game's tabs (docs/scenarios.md).

Setup keys: ``secret`` (fixes every die), ``scenario`` (default demo), ``nations`` (nation ->
{power, coins, science, techs: [..]} patched into the GM's tabs).  Order rows: ``[stage, action,
object, where, to, qty]`` or a mapping of those fields.  The game's own expectation: ``nations``
(nation -> {power|coins|science|vp: amount} as the world holds it after the window)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from engine.core import history, meta
from engine.core.cursor import Cursor
from engine.core.errors import CampaignError
from engine.core.ledger import LedgerEntry
from engine.core.ruleset import SyncResult
from engine.core.scenario import FIXED_SECRET, GENERIC_KEYS, Balance, Readback, ShownOrder
from engine.core.tables import Cell, Changeset, Grid, Tables, WriteBlock, apply_changes, is_blank

from . import codec
from .calendar import CALENDAR
from .model import World
from .resources import NATIONAL
from .vocab import CHRONICLE, LEDGER, ORDER_FIELDS, ORDERS, orders_tab
from .workbook import new_workbook, tables_of

OWN_KEYS = frozenset({"nations"})
BALANCE = {"power": "power", "coins": "coins", "science": "science"}


def build_tables(setup: Mapping[str, Any]) -> Tables:
    """A scenario's campaign («1:государство» open), the nations' balances and techs patched."""
    spec = new_workbook(str(setup.get("scenario", "demo")), "ru", str(setup.get("secret", FIXED_SECRET)), "scenario")
    tables = tables_of(spec)
    patch: Mapping[str, Mapping[str, Any]] = setup.get("nations") or {}
    if not patch:
        return tables
    world = codec.decode(tables)
    for nation, values in patch.items():
        if nation not in world.nations:
            raise CampaignError(f"setup.nations: нет нации «{nation}»")
        n = world.nations[nation]
        for key, value in values.items():
            if key == "techs":
                n.techs.update({str(t): 0 for t in value})
            elif key in BALANCE:
                setattr(n, BALANCE[key], int(value))
            else:
                raise CampaignError(f"setup.nations.{nation}: неизвестный ключ «{key}»")
    rules = codec.read_rules(tables)
    tables.update(codec.encode(world, "ru", rules))
    tables.update(codec.all_realms(world, rules, {}))  # each nation's view of the patch
    return tables


def _row(order: Any) -> list[Cell]:
    if isinstance(order, Mapping):
        return [order.get(k) for k in ORDER_FIELDS]
    return list(order) + [None] * (len(ORDER_FIELDS) - len(order))


def order_blocks(tables: Tables, orders: Mapping[str, Grid]) -> list[WriteBlock]:
    """`orders` (nation -> rows of the input fields) written below each tab's last input."""
    out = []
    lang = meta.lang(tables) or "ru"
    for nation, rows in orders.items():
        tab = orders_tab(nation, lang)
        if tab not in tables:
            raise CampaignError(f"у нации «{nation}» нет листа приказов «{tab}»")
        grid = tables[tab]
        used = [i for i, r in enumerate(grid) if i and any(not is_blank(v) for v in r[: len(ORDER_FIELDS)])]
        first = (max(used) + 2) if used else 2
        out.append(WriteBlock(tab, first, 1, [list(r) for r in rows]))
    return out


def put_orders(tables: Tables, orders: Mapping[str, Sequence[Any]]) -> Tables:
    rows = {n: [_row(o) for o in given] for n, given in orders.items() if given}
    return apply_changes(tables, Changeset(blocks=order_blocks(tables, rows)))


def _shown(grid: Grid, stamp: str) -> list[ShownOrder]:
    out = []
    col = {c.key: i for i, c in enumerate(ORDERS.columns)}
    for line in grid[1:]:
        cell = [*line, *[None] * (len(ORDERS.columns) - len(line))]
        typed = any(not is_blank(cell[col[k]]) for k in ORDER_FIELDS)
        mark = cell[col["turn"]]
        if mark == stamp or (is_blank(mark) and typed):
            out.append(ShownOrder(*(str(cell[col[k]] or "") for k in ("status", "reason", "understood"))))
    return out


def _entry(at: Cursor, r: list[Cell]) -> LedgerEntry:
    r = [*r, *[None] * (8 - len(r))]
    return LedgerEntry(at.turn, str(r[1]), str(r[2]), str(r[3]), str(r[4]), Fraction(str(r[5] or 0)),
                       str(r[6] or ""), str(r[7] or ""))


def _balances(tables: Tables, at: Cursor) -> dict[str, dict[str, Balance]]:
    opening: World = codec.decode(history.entry(tables, at).tables(), at)
    held = codec.decode(tables, CALENDAR.next(at))
    return {n: {r.code: Balance(Fraction(opening.balance(n, r.code)), Fraction(held.balance(n, r.code)),
                                Fraction(held.balance(n, r.code))) for r in NATIONAL} for n in held.seats()}


def readback(tables: Tables, result: SyncResult) -> Readback:
    at = Cursor(result.turn, result.campaign.stage) if isinstance(result.campaign, World) else Cursor(result.turn)
    stamp = CALENDAR.format(at)
    nations = result.campaign.seats() if isinstance(result.campaign, World) else []
    return Readback(
        orders={n: _shown(tables.get(orders_tab(n), []), stamp) for n in nations},
        chronicle=[str(r[1]) for r in tables.get(CHRONICLE.ru, [])[1:] if len(r) > 1 and r[0] == stamp],
        ledger=[_entry(at, r) for r in tables.get(LEDGER.ru, [])[1:] if r and r[0] == stamp],
        balances=_balances(tables, at) if result.mode == "resolve" else {},
    )


def expect_game(expect: Mapping[str, Any], tables: Tables) -> list[str]:
    out = [f"неизвестный ключ ожидания «{k}»" for k in expect if k not in GENERIC_KEYS | OWN_KEYS]
    if not expect.get("nations"):
        return out
    world = codec.decode(tables)
    codes = {"power": "власть", "coins": "монеты", "science": "наука", "vp": "по"}
    for nation, wanted in (expect.get("nations") or {}).items():
        for key, value in wanted.items():
            if nation not in world.nations or key not in codes:
                out.append(f"нет нации «{nation}» или счёта «{key}»")
            elif world.balance(nation, codes[key]) != int(value):
                out.append(f"у {nation} {key} = {world.balance(nation, codes[key])}, ожидалось {value}")
    return out
