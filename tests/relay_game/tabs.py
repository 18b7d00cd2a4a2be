"""A new campaign's tabs, each with its audience, and the meta tab the core reads.

Public: the meta tab (the open window, who may act in it, its commitment), the ranking (glory),
the round, the chronicle. Each side's own: its order tab and its treasury (its silver: the hidden
fact). The GM's alone: the ledger, the order archive and the history."""

from __future__ import annotations

from fractions import Fraction

from engine.core import history, meta, runner
from engine.core.audience import GM, player
from engine.core.cursor import Cursor
from engine.core.dice import commitment, cursor_seed
from engine.core.tables import Grid, TabSpec, Validation, WorkbookSpec

from .rules import first_of
from .words import (
    ACTION_STAGE,
    ARCHIVE,
    ARCHIVE_HEADER,
    CALENDAR,
    CHRONICLE,
    CHRONICLE_HEADER,
    LEDGER,
    LEDGER_HEADER,
    META,
    NAME,
    ORDER_HEADER,
    ORDER_ROWS,
    RANKING,
    ROUND,
    SIDES,
    SILVER,
    START_SILVER,
    orders_tab,
    treasury_tab,
)
from .world import World, ranking_grid, round_grid, treasury_grid


def meta_grid(at: Cursor, secret: str | None, campaign_id: str, seed: str | None) -> Grid:
    """The meta tab with `at` open (the runner adds who may act in it)."""
    return [
        ["Параметр", "Значение"],
        [meta.RULESET[0], NAME],
        [meta.LANG[0], "ru"],
        *meta.cursor_rows(at, CALENDAR, "ru"),
        [meta.COMMITMENT[0], commitment(cursor_seed(secret, at)) if secret else None],
        [meta.CAMPAIGN_ID[0], campaign_id],
        [meta.REVEALED_SEED[0], seed],
    ]


def start_world() -> World:
    world = World(missed={s: 0 for s in SIDES})
    for side, silver in START_SILVER.items():
        world.set_balance(side, SILVER.code, Fraction(silver))
    return world


def order_spec(side: str) -> TabSpec:
    rows: Grid = [list(ORDER_HEADER), *[[None] * len(ORDER_HEADER) for _ in range(ORDER_ROWS)]]
    last = ORDER_ROWS + 1
    lists = (
        Validation(2, last, 1, tuple(s.ru for s in CALENDAR.stages)),
        Validation(2, last, 2, tuple(ACTION_STAGE)),
        Validation(2, last, 3, tuple(s for s in SIDES if s != side)),
    )
    return TabSpec(orders_tab(side), rows, kind="orders", owner=side, editable_columns=(1, 4),
                   validations=lists, widths={7: 40, 8: 30})


def new_workbook(secret: str, campaign_id: str, title: str | None = None) -> WorkbookSpec:
    """Every tab of a new campaign, «1:ход:1» open to its first mover."""
    world = start_world()
    first = first_of(CALENDAR.first_turn)
    grid = runner.put_participants(meta_grid(first.cursor, secret, campaign_id, None), first, SIDES, "ru")
    tabs = [
        TabSpec(META, grid, kind="meta"),
        TabSpec(RANKING, ranking_grid(world)),
        TabSpec(ROUND, round_grid(world)),
        TabSpec(CHRONICLE, [list(CHRONICLE_HEADER)]),
        *[order_spec(side) for side in SIDES],
        *[TabSpec(treasury_tab(s), treasury_grid(world, s), kind="report", audience=player(s)) for s in SIDES],
        TabSpec(LEDGER, [list(LEDGER_HEADER)], audience=GM),
        TabSpec(ARCHIVE, [list(ARCHIVE_HEADER)], audience=GM),
        TabSpec(history.HISTORY_TAB, [history.header()], hidden=True, audience=GM),
    ]
    return WorkbookSpec(title or "Эстафета", tabs, secret=secret, campaign_id=campaign_id, hidden_information=True)
