"""«Эстафета»'s scenario hooks: the core's runner (engine/core/scenario.py) plays a
tests/relay_game/scenarios/*.yaml through check and resolve; these are the parts that know the tabs.

Setup keys: ``secret`` (fixes every die), ``silver`` and ``glory`` (side -> amount). Order rows:
``[stage, action, target, amount]``. The game's own expectations: ``silver`` and ``glory`` (side
-> what the world holds after the window), ``movers`` (who may act in the open window, as the meta
says) and ``missed`` (side -> missed move windows in a row); any other unknown key is reported."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from engine.core import history, meta, runner
from engine.core.cursor import Cursor
from engine.core.errors import CampaignError
from engine.core.ledger import LedgerEntry
from engine.core.ruleset import SyncResult
from engine.core.scenario import FIXED_SECRET, GENERIC_KEYS, Balance, Readback, ShownOrder
from engine.core.tables import Cell, Changeset, Grid, Tables, WriteBlock, apply_changes, is_blank

from . import tabs, world
from .words import (
    CALENDAR,
    CHRONICLE,
    COLS,
    GLORY,
    LEDGER,
    ORDER_FIELDS,
    RANKING,
    RESOURCES,
    SIDES,
    SILVER,
    orders_tab,
    treasury_tab,
)

OWN_KEYS = frozenset({"silver", "glory", "movers", "missed"})


def build_tables(setup: Mapping[str, Any]) -> Tables:
    """A scenario's campaign («1:ход:1» open), its silver and glory patched by `setup`."""
    spec = tabs.new_workbook(str(setup.get("secret", FIXED_SECRET)), "scenario")
    tables: Tables = {t.name: [list(r) for r in t.rows] for t in spec.tabs}
    held = world.read(tables)
    for resource in RESOURCES:
        for side, value in (setup.get(resource.code) or {}).items():
            if side not in SIDES:
                raise CampaignError(f"setup.{resource.code}: нет стороны «{side}»; стороны: {', '.join(SIDES)}")
            held.set_balance(side, resource.code, Fraction(value))
    for side in SIDES:
        tables[treasury_tab(side)] = world.treasury_grid(held, side)
    tables[RANKING] = world.ranking_grid(held)
    return tables


def order_blocks(tables: Tables, orders: Mapping[str, Grid]) -> list[WriteBlock]:
    """`orders` (side -> rows of stage, action, target, amount) written below each tab's last input."""
    out = []
    for side, rows in orders.items():
        tab = orders_tab(side)
        grid = tables.get(tab, [])
        used = [i for i, r in enumerate(grid) if i and any(not is_blank(v) for v in r[: len(ORDER_FIELDS)])]
        first = (max(used) + 2) if used else 2
        out.append(WriteBlock(tab, first, 1, [list(r) for r in rows]))
    return out


def put_orders(tables: Tables, orders: Mapping[str, Sequence[Any]]) -> Tables:
    """`tables` with each side's rows written below its order tab's last input, as a player types them."""
    unknown = sorted(set(orders) - set(SIDES))
    if unknown:
        raise CampaignError(f"у стороны «{unknown[0]}» нет листа приказов; стороны: {', '.join(SIDES)}")
    rows: dict[str, Grid] = {side: [[*o, *[None] * (len(ORDER_FIELDS) - len(o))] for o in given]
                             for side, given in orders.items() if given}
    return apply_changes(tables, Changeset(blocks=order_blocks(tables, rows)))


def readback(tables: Tables, result: SyncResult) -> Readback:
    """What the window of `result` left: each side's rows of it (stamped with it, or typed and not
    stamped: what a check judged, a row that waits), its chronicle and ledger lines, the balances."""
    at: Cursor = result.report.facts.cursor
    stamp = CALENDAR.format(at)
    return Readback(
        orders={side: _shown(tables.get(orders_tab(side), []), stamp) for side in SIDES},
        chronicle=[str(r[1]) for r in tables.get(CHRONICLE, [])[1:] if len(r) > 1 and r[0] == stamp],
        ledger=[_entry(at, r) for r in tables.get(LEDGER, [])[1:] if r and r[0] == stamp],
        balances=_balances(tables, at) if result.mode == "resolve" else {},
    )


def _shown(grid: Grid, stamp: str) -> list[ShownOrder]:
    out = []
    for line in grid[1:]:
        cell = [*line, *[None] * (len(COLS) - len(line))]
        typed = any(not is_blank(cell[COLS[k]]) for k in ORDER_FIELDS)
        mark = cell[COLS["window"]]
        if mark == stamp or (is_blank(mark) and typed):
            out.append(ShownOrder(*(str(cell[COLS[k]] or "") for k in ("status", "reason", "understood"))))
    return out


def _entry(at: Cursor, r: list[Cell]) -> LedgerEntry:
    r = [*r, *[None] * (8 - len(r))]
    return LedgerEntry(at.turn, str(r[1]), str(r[2]), str(r[3]), str(r[4]), Fraction(str(r[5] or 0)),
                       str(r[6] or ""), str(r[7] or ""))


def _balances(tables: Tables, at: Cursor) -> dict[str, dict[str, Balance]]:
    opening = world.read(history.entry(tables, at).tables())
    held = world.read(tables)
    ranked = {str(r[1]): r[2] for r in tables.get(RANKING, [])[1:] if len(r) > 2}
    out: dict[str, dict[str, Balance]] = {}
    for side in SIDES:
        shown = {SILVER.code: held.balance(side, SILVER.code), GLORY.code: Fraction(str(ranked.get(side, 0)))}
        out[side] = {code: Balance(opening.balance(side, code), shown[code], held.balance(side, code))
                     for code in shown}
    return out


def expect_game(expect: Mapping[str, Any], tables: Tables) -> list[str]:
    """The game's own expectations after a window (see the module docstring)."""
    out = [f"неизвестный ключ ожидания «{k}»" for k in expect if k not in GENERIC_KEYS | OWN_KEYS]
    held = world.read(tables)
    for resource in RESOURCES:
        for side, value in (expect.get(resource.code) or {}).items():
            if held.balance(side, resource.code) != Fraction(value):
                out.append(f"у {side} {resource.code} = {held.of(side, resource.code)}, ожидалось {value}")
    for side, value in (expect.get("missed") or {}).items():
        if held.missed.get(side) != value:
            out.append(f"у {side} пропущено {held.missed.get(side)}, ожидалось {value}")
    if "movers" in expect:
        movers = list(runner.participants(tables, SIDES))
        if movers != list(expect["movers"]):
            out.append(f"ходят {movers} («{meta.text(tables, (*runner.PARTICIPANTS, runner.MOVER[0]))}»), "
                       f"ожидались {list(expect['movers'])}")
    return out
