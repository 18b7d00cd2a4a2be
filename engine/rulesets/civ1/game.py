"""«Civilization 1.0» as a `Ruleset` (engine/core/ruleset.py): every member of the Protocol.

A turn is two windows, «N:государство» and «N:города» (calendar.py); check and resolve of one of
them are the core's window runner driving window.py's `Civ1`; a new campaign is workbook.py's; the
tabs' layouts and audiences vocab.py's (hidden information: each nation's secrets in the GM's tabs
and in its own «Держава» and «Донесения» tabs only)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core import history, meta
from engine.core.audience import GM, PUBLIC, Audience, player
from engine.core.cursor import Cursor
from engine.core.dice import new_secret
from engine.core.errors import CampaignError
from engine.core.orders import OrderRow
from engine.core.ruleset import DEFAULT_POST_LIMIT, BaseRuleset, Ruleset, SyncResult, Victory
from engine.core.scenario import Readback
from engine.core.tables import Cell, Changeset, ReplaceTab, Tables, TabSpec, WorkbookSpec

from . import absent, codec, demo, hooks, reporter, score
from .calendar import CALENDAR
from .messages import _
from .vocab import (
    ALIASES,
    GM_LAYOUTS,
    NAME,
    ORDER_FIELDS,
    ORDERS,
    REPORT,
    TECHS,
    dispatches_tab,
    orders_tab,
    realm_tab,
)
from .window import Civ1
from .workbook import new_workbook


def _lang(tables: Tables) -> str:
    return meta.lang(tables) or "ru"


def _nations(tables: Tables) -> list[str]:
    """The nations of the campaign by their order tabs (read without decoding the whole world)."""
    lang = _lang(tables)
    prefix = orders_tab("", lang)
    return sorted(t[len(prefix):] for t in tables if t.startswith(prefix))


def tab_audiences(tables: Tables) -> dict[str, Audience]:
    """Who may see each tab: a nation's orders, «Держава» and «Донесения» are its own; the GM's tabs
    (every nation's secrets, the ledger, the archive, the history) the GM's; every other tab public."""
    lang = _lang(tables)
    own = {name(n, lang): player(n) for n in _nations(tables) for name in (orders_tab, realm_tab, dispatches_tab)}
    gm = {layout.tab_name(lang): GM for layout in GM_LAYOUTS} | {history.tab_of(tables): GM}
    return {tab: own.get(tab) or gm.get(tab) or PUBLIC for tab in tables}


def private_tabs(tables: Tables, order_tabs: Collection[str] | None = None) -> list[ReplaceTab]:
    """Each nation's «Держава» tab, to live beside its order tab in its own book."""
    lang = _lang(tables)
    out = []
    for n in _nations(tables):
        if order_tabs is not None and orders_tab(n, lang) not in order_tabs:
            continue
        name = realm_tab(n, lang)
        out.append(ReplaceTab(name, [list(r) for r in tables.get(name, [[name]])],
                              TabSpec(name, [], kind=REPORT, owner=n), beside=orders_tab(n, lang), audience=player(n)))
    return out


def last_resolved(tables: Tables) -> int:
    """The last turn a window of which is resolved (0 before any)."""
    kept = history.entries(tables)
    return kept[-1].turn if kept else 0


def demo_orders(tables: Tables) -> dict[str, list[list[Cell]]]:
    """The sample orders of the open window for every nation, in the campaign's language (demo.py)."""
    lang = _lang(tables)
    at = meta.open_cursor(tables, CALENDAR)
    rules = codec.read_rules(tables)
    world = codec.decode(tables, at, rules)
    if at == CALENDAR.first():
        world = demo.grant(world)
    rows = demo.sample_orders(world, rules, at, lang)
    return {n: r for n, r in rows.items() if orders_tab(n, lang) in tables}


def demo_changes(tables: Tables) -> Changeset:
    """The open window's sample orders; in the first window also the demo's head start (demo.grant:
    a spy technology in the GM's «Технологии» and in the two nations' own «Держава»)."""
    lang = _lang(tables)
    blocks = hooks.order_blocks(tables, demo_orders(tables))
    at = meta.open_cursor(tables, CALENDAR)
    if at != CALENDAR.first():
        return Changeset(blocks=blocks)
    rules = codec.read_rules(tables)
    world = demo.grant(codec.decode(tables, at, rules))
    techs = TECHS.tab_name(lang)
    replace = [ReplaceTab(techs, codec.encode(world, lang, rules)[techs], audience=GM)]
    for n, grid in codec.all_realms(world, rules, {}, lang).items():
        owner = n[len(realm_tab("", lang)):]
        replace.append(ReplaceTab(n, grid, TabSpec(n, [], kind=REPORT, owner=owner), beside=orders_tab(owner, lang),
                                  audience=player(owner)))
    return Changeset(blocks=blocks, replace=replace)


def victory(tables: Tables) -> Victory | None:
    """The verdict once the game is over (CIV-TURN-01): the open window is the state stage after a
    turn t ≥ `last_turn` whose close found a nation knowing a top-level technology (else the game
    goes on, turn after turn, until such a turn closes); score.py's table names the winners. The
    resolve that closes that turn ends the campaign with the same verdict (window.py `won`)."""
    at = meta.open_cursor(tables, CALENDAR)
    if at.stage != CALENDAR.stages[0].key:
        return None  # only a closed turn ends the game
    rules = codec.read_rules(tables)
    if at.turn - 1 < rules.param("last_turn"):
        return None
    return score.victory(codec.decode(tables, at, rules), rules, at.turn - 1)


class Civ1Reporter:
    """What `strategos report` reads of the game: its posts, reports and chart."""

    def last_resolved(self, tables: Tables) -> int:
        return last_resolved(tables)

    def sides(self, tables: Tables) -> list[str]:
        return _nations(tables)

    def forum_post(self, tables: Tables, turn: int | Cursor, fmt: str = "bbcode",
                   limit: int = DEFAULT_POST_LIMIT) -> list[str]:
        return reporter.forum_post(tables, turn, fmt, limit)

    def player_report(self, tables: Tables, side: str, turn: int | Cursor | None = None) -> str:
        if side not in _nations(tables):
            raise CampaignError(_("нет нации «{nation}»").format(nation=side))
        return "\n".join(reporter.report_lines(tables, side, turn))

    def chart_png(self, tables: Tables, path: Path) -> Path:
        return reporter.chart_png(tables, path)


class Civ1Scenarios:
    """The scenario hooks: engine/core/scenario.py plays the game's scenarios with them."""

    def tables(self, setup: Mapping[str, Any]) -> Tables:
        return hooks.build_tables(setup)

    def orders(self, tables: Tables, orders: Mapping[str, Sequence[Any]]) -> Tables:
        return hooks.put_orders(tables, orders)

    def readback(self, tables: Tables, result: SyncResult) -> Readback:
        return hooks.readback(tables, result)

    def expect(self, expect: Mapping[str, Any], tables: Tables, result: SyncResult) -> list[str]:
        return hooks.expect_game(expect, tables, result)


class Civ1Ruleset(BaseRuleset):
    """The game as the registry holds it: the core's runner drives `Civ1` (window.py) through check
    and resolve; only what differs from `BaseRuleset` is here."""

    reporter = Civ1Reporter()
    scenario = Civ1Scenarios()

    name = NAME
    aliases: tuple[str, ...] = ALIASES
    hidden_information = True
    game = Civ1()

    def new_workbook(self, scenario: str = "demo", lang: str = "ru", title: str | None = None,
                     secret: str | None = None, data: dict[str, Any] | None = None,
                     campaign_id: str | None = None) -> WorkbookSpec:
        return new_workbook(scenario, lang, secret or new_secret(), campaign_id or meta.new_campaign_id(), title,
                            data)

    def later_inputs(self, tables: Tables) -> dict[str, list[int]]:
        # the inputs, and the result columns too: a check after the window rewrites a waiting row's
        # words (the row of the cities stage typed during the state stage); the archive keeps the
        # results of every executed row, and verify compares it cell by cell
        cols = [ORDERS.col(f) - 1 for f in (*ORDER_FIELDS, "comment", "status", "reason", "understood")]
        return {orders_tab(n, _lang(tables)): cols for n in _nations(tables)}

    def private_tabs(self, tables: Tables, order_tabs: Collection[str] | None = None) -> list[ReplaceTab]:
        return private_tabs(tables, order_tabs)

    def demo_changes(self, tables: Tables) -> Changeset:
        return demo_changes(tables)

    def audiences(self, tables: Tables) -> dict[str, Audience]:
        return tab_audiences(tables)

    def default_orders(self, tables: Tables, side: str, cursor: Cursor) -> list[OrderRow]:
        return absent.default_orders(tables, side, cursor)

    def victory(self, tables: Tables) -> Victory | None:
        return victory(tables)


RULESET: Ruleset = Civ1Ruleset()
