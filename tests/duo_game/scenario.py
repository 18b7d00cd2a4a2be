"""«Дуэт»'s scenario hooks: the core's runner (engine/core/scenario.py, docs/scenarios.md) plays a
tests/duo_game/scenarios/*.yaml through check and resolve; these are the parts that know the tabs.

Setup keys: ``secret`` (fixes every die) and ``stocks`` (side -> resource code -> amount, patched
into the stock tabs and the ranking). Order rows: ``[stage, action, resource, amount]`` or a
mapping of those fields (with ``formula`` in ``formula_in``: a formula cell). The game's own
expectation: ``stocks`` (side -> resource code -> what its stock tab holds after the window); any
other key the core does not know is reported, so a misspelt key cannot pass unseen.

A window's rows, chronicle and ledger lines are found by the window's stamp («1:торг»); its
balance is the side's stock in the history snapshot of the window (opening), what the tabs show
after it (closing: gold from the public ranking, grain from the side's own stock tab) and what the
world holds (the stock tab, read as the rules read it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from engine.core import history
from engine.core.cursor import Cursor
from engine.core.errors import CampaignError
from engine.core.ledger import LedgerEntry
from engine.core.ruleset import SyncResult
from engine.core.scenario import FIXED_SECRET, GENERIC_KEYS, Balance, Readback, ShownOrder
from engine.core.tables import Cell, Changeset, Formula, Grid, Tables, apply_changes, is_blank

from . import tabs, world
from .words import (
    CALENDAR,
    CHRONICLE,
    COLS,
    GOLD,
    LEDGER,
    ORDER_FIELDS,
    RANKING,
    RESOURCES,
    SIDES,
    orders_tab,
    stock_tab,
)

OWN_KEYS = frozenset({"stocks"})  # the expectations this game checks itself


def build_tables(setup: Mapping[str, Any]) -> Tables:
    """A scenario's campaign: the game's one world («1:сбор» open), its stocks patched by `setup`."""
    spec = tabs.new_workbook(str(setup.get("secret", FIXED_SECRET)), "scenario")
    tables: Tables = {t.name: [list(r) for r in t.rows] for t in spec.tabs}
    patch: Mapping[str, Mapping[str, Any]] = setup.get("stocks") or {}
    if not patch:
        return tables
    stocks = world.read(tables)
    codes = {r.code for r in RESOURCES}
    for side, values in patch.items():
        if side not in SIDES or not set(values) <= codes:
            raise CampaignError(f"setup.stocks: нет стороны «{side}» или ресурса из {sorted(values)}")
        for code, value in values.items():
            stocks.set_balance(side, code, Fraction(value))
    for side in SIDES:
        tables[stock_tab(side)] = world.stock_grid(stocks, side)
    tables[RANKING] = world.ranking_grid(stocks)
    return tables


def _row(order: Any) -> list[Cell]:
    """One order in players' notation as the cells of an order row's input columns."""
    if isinstance(order, Mapping):
        line: list[Cell] = [order.get(k) for k in ORDER_FIELDS]
        if "formula" in order:
            line[ORDER_FIELDS.index(order.get("formula_in", "amount"))] = Formula(str(order["formula"]))
        return line
    return list(order) + [None] * (len(ORDER_FIELDS) - len(order))


def put_orders(tables: Tables, orders: Mapping[str, Sequence[Any]]) -> Tables:
    """`tables` with each side's rows written below its order tab's last input, as a player types them."""
    from .game import order_blocks

    unknown = sorted(set(orders) - set(SIDES))
    if unknown:
        raise CampaignError(f"у стороны «{unknown[0]}» нет листа приказов; стороны: {', '.join(SIDES)}")
    rows = {side: [_row(o) for o in given] for side, given in orders.items() if given}
    return apply_changes(tables, Changeset(blocks=order_blocks(tables, rows)))


def _at(result: SyncResult) -> Cursor:
    at: Cursor = result.report.facts.cursor
    return at


def readback(tables: Tables, result: SyncResult) -> Readback:
    """What the window of `result` left in the tabs: each side's rows of it (the rows stamped with
    it, and the typed rows no resolve stamped: what a check judged, or a row waiting for a later
    stage), its chronicle and ledger lines, and after a resolve each side's balance of each resource."""
    at = _at(result)
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
    """A ledger tab row [window, side, resource, stage, category, amount, reason, order] as an entry."""
    r = [*r, *[None] * (8 - len(r))]
    return LedgerEntry(at, str(r[1]), str(r[2]), str(r[3]), str(r[4]), Fraction(str(r[5] or 0)),
                       str(r[6] or ""), str(r[7] or ""))


def _balances(tables: Tables, at: Cursor) -> dict[str, dict[str, Balance]]:
    opening = world.read(history.entry(tables, at).tables())
    held = world.read(tables)
    ranked = {str(r[1]): r[2] for r in tables.get(RANKING, [])[1:] if len(r) > 2}
    out: dict[str, dict[str, Balance]] = {}
    for side in SIDES:
        shown = {r.code: held.balance(side, r.code) for r in RESOURCES}
        shown[GOLD.code] = Fraction(str(ranked.get(side, 0)))  # gold as the public ranking shows it
        out[side] = {code: Balance(opening.balance(side, code), shown[code], held.balance(side, code))
                     for code in shown}
    return out


def expect_game(expect: Mapping[str, Any], tables: Tables) -> list[str]:
    """The game's own expectations after a window: ``stocks`` (side -> resource code -> amount);
    a key neither the core nor the game knows is a mismatch too."""
    out = [f"неизвестный ключ ожидания «{k}»" for k in expect if k not in GENERIC_KEYS | OWN_KEYS]
    stocks = world.read(tables)
    for side, wanted in (expect.get("stocks") or {}).items():
        for code, value in wanted.items():
            if side not in SIDES or code not in {r.code for r in RESOURCES}:
                out.append(f"нет стороны «{side}» или ресурса «{code}»")
            elif stocks.balance(side, code) != Fraction(value):
                out.append(f"у {side} {code} = {stocks.of(side, code)}, ожидалось {value}")
    return out
