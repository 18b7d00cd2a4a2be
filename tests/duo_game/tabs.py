"""A new campaign's tabs, each with its audience, and the meta tab the core reads.

Public: the meta tab (the open window and its commitment), the gold ranking, the chronicle.
Each side's own: its order tab and its stock tab (its grain: the hidden fact). The GM's alone:
the ledger, the order archive and the history (whose snapshots hold every tab)."""

from __future__ import annotations

from engine.core import history, meta
from engine.core.audience import GM, player
from engine.core.cursor import Cursor
from engine.core.dice import commitment, cursor_seed
from engine.core.tables import Grid, TabSpec, Validation, WorkbookSpec

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
    RESOURCES,
    SIDES,
    START,
    orders_tab,
    stock_tab,
)
from .world import Stocks, ranking_grid, stock_grid


def meta_grid(at: Cursor, secret: str | None, campaign_id: str, seed: str | None) -> Grid:
    """The meta tab with `at` open: its seed's commitment (none without the secret: a verify's
    re-run), the campaign id and the seed the last resolve revealed."""
    return [
        ["Параметр", "Значение"],
        [meta.RULESET[0], NAME],
        [meta.LANG[0], "ru"],
        *meta.cursor_rows(at, CALENDAR, "ru"),
        [meta.COMMITMENT[0], commitment(cursor_seed(secret, at)) if secret else None],
        [meta.CAMPAIGN_ID[0], campaign_id],
        [meta.REVEALED_SEED[0], seed],
    ]


def start_stocks() -> Stocks:
    stocks = Stocks()
    for side, values in START.items():
        for code, value in values.items():
            stocks.set_balance(side, code, value)
    return stocks


def order_spec(side: str) -> TabSpec:
    rows: Grid = [list(ORDER_HEADER), *[[None] * len(ORDER_HEADER) for _ in range(ORDER_ROWS)]]
    last = ORDER_ROWS + 1
    lists = (
        Validation(2, last, 1, tuple(s.ru for s in CALENDAR.stages)),
        Validation(2, last, 2, tuple(ACTION_STAGE)),
        Validation(2, last, 3, tuple(r.name_ru for r in RESOURCES)),
    )
    return TabSpec(orders_tab(side), rows, kind="orders", owner=side, editable_columns=(1, 4),
                   validations=lists, widths={7: 40, 8: 30})


def new_workbook(secret: str, campaign_id: str, title: str | None = None) -> WorkbookSpec:
    """Every tab of a new campaign, «1:сбор» open."""
    stocks = start_stocks()
    tabs = [
        TabSpec(META, meta_grid(CALENDAR.first(), secret, campaign_id, None), kind="meta"),
        TabSpec(RANKING, ranking_grid(stocks)),
        TabSpec(CHRONICLE, [list(CHRONICLE_HEADER)]),
        *[order_spec(side) for side in SIDES],
        *[TabSpec(stock_tab(side), stock_grid(stocks, side), kind="report", audience=player(side)) for side in SIDES],
        TabSpec(LEDGER, [list(LEDGER_HEADER)], audience=GM),
        TabSpec(ARCHIVE, [list(ARCHIVE_HEADER)], audience=GM),
        TabSpec(history.HISTORY_TAB, [history.header()], hidden=True, audience=GM),
    ]
    return WorkbookSpec(title or "Дуэт", tabs, secret=secret, campaign_id=campaign_id, hidden_information=True)
