"""An English campaign speaks English (issue 18): five turns of the demo, both stages, with pinned
dice (villages, barbarians, a second city and its attack, research, a foiled spy), the texts made
in English as the CLI makes them (`adopt(lang)` once the campaign's meta is read).  No Cyrillic in
what the turn writes for people to read: the statuses, reasons and «understood as» of the order
tabs and the archive, the chronicle, the battles, the ledger's reasons, every cell of each nation's
«Realm» tab, and the reports made from them (`strategos report`: the forum post of each turn and each
nation's private report).

Allowed, and not checked: the cells a player or the GM typed (the orders' input columns, «Nations»'
leader names such as the demo's «Гримсон»), the GM's data tabs that decode reads back by the rules
tables' keys («Name (ru)»: «Technologies», «Units», «World map»), and the ledger's code columns
(resource, step, category: the keys the readback and the balance sheet group by).  Nothing is
allow-listed inside the checked cells.

«Каждый из 15 ходов разбит на две фазы, которые рассчитываются последовательно» (seed 004, CIV-TURN-02)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine import rulesets
from engine.core.i18n import using
from engine.core.tables import Cell, Changeset, Tables, apply_changes
from engine.rulesets.civ1.vocab import ARCHIVE, BATTLES, CHRONICLE, LEDGER, ORDERS
from engine.rulesets.civ1.workbook import new_workbook, tables_of

CYRILLIC = re.compile("[\u0400-\u04FF]")
PINNED = "s" * 32  # tests/games/civ1/test_civ1_demo.py's secret: barbarians, an attack and a foiled spy happen
REALMS = ("Realm — ",)
READ_COLUMNS = ("status", "reason", "understood")


def _columns(layout_columns: tuple, keys: tuple[str, ...]) -> list[int]:
    return [i for i, c in enumerate(layout_columns) if c.key in keys]


def _read_cells(changes: Changeset) -> Iterator[tuple[str, Cell]]:
    """(tab, cell) of every cell the window wrote for people to read (see the module's docstring)."""
    order_cols = _columns(ORDERS.columns, READ_COLUMNS)
    for t in changes.replace:
        if t.tab.startswith(REALMS):
            yield from ((t.tab, c) for row in t.rows for c in row)
        elif t.tab.startswith("Orders — "):
            yield from ((t.tab, row[i]) for row in t.rows[1:] for i in order_cols if i < len(row))
    wanted = {CHRONICLE.tab_name("en"): _columns(CHRONICLE.columns, ("text",)),
              LEDGER.tab_name("en"): _columns(LEDGER.columns, ("reason",)),
              ARCHIVE.tab_name("en"): _columns(ARCHIVE.columns, READ_COLUMNS),
              BATTLES.tab_name("en"): list(range(len(BATTLES.columns)))}
    for b in changes.blocks:
        if b.tab in wanted:
            yield from ((b.tab, row[i]) for row in b.values for i in wanted[b.tab] if i < len(row))


def _play(windows: int) -> tuple[Tables, list[tuple[str, Cell]], list[str]]:
    game = rulesets.get("civ1")
    tables = tables_of(new_workbook("demo", "en", PINNED, "demo"))
    cells: list[tuple[str, Cell]] = []
    reasons: list[str] = []
    with using("en"):
        for _w in range(windows):
            tables = apply_changes(tables, game.demo_changes(tables))
            checked = game.check(tables)  # the check's reasons and echoes too (it writes the order tabs)
            cells += list(_read_cells(checked.changes))
            reasons += [str(r.reason) for r in checked.report.results.values() if r.reason]
            result = game.resolve(tables, secret=PINNED)
            cells += list(_read_cells(result.changes))
            reasons += [str(r.reason) for r in result.report.results.values() if r.reason]
            tables = apply_changes(tables, result.changes)
    return tables, cells, reasons


def test_CIV_TURN_02_an_english_demo_writes_no_russian_in_what_people_read() -> None:
    tables, cells, reasons = _play(10)
    texts = [(tab, str(c)) for tab, c in cells if isinstance(c, str) and c.strip()]
    chronicle = [t for tab, t in texts if tab == "Chronicle"]
    assert any(t.startswith("Barbarians from the village") for t in chronicle), chronicle  # the pinned dice
    assert any("Horseback Riding" in t for tab, t in texts if tab.startswith("Realm — "))  # a tech by its name
    assert any(tab == "Battles" for tab, _t in texts) and reasons
    russian = sorted({(tab, t) for tab, t in texts if CYRILLIC.search(t)})
    russian += sorted({("reason", r) for r in reasons if CYRILLIC.search(r)})
    game = rulesets.get("civ1")
    with using("en"):
        post = game.reporter.forum_post
        reports = [("forum post", p) for turn in range(1, 6) for p in post(tables, turn, "markdown")]
        reports += [(f"report of {n}", game.reporter.player_report(tables, n, 5))
                    for n in ("Babylon", "Egypt", "Greece", "Rome", "China")]
    assert any("Barbarians" in text for _w, text in reports)
    russian += sorted({(what, line) for what, text in reports for line in text.splitlines() if CYRILLIC.search(line)})
    assert not russian, "\n".join(f"{tab}: {t}" for tab, t in russian[:40])


def test_the_same_demo_in_russian_still_names_items_by_their_keys() -> None:
    """The other side of the check: a Russian campaign's texts keep the rules tables' keys
    (a test that could not tell the languages apart would pass in both)."""
    game = rulesets.get("civ1")
    tables = tables_of(new_workbook("demo", "ru", PINNED, "demo"))
    with using("ru"):
        for _w in range(6):
            tables = apply_changes(tables, game.demo_changes(tables))
            tables = apply_changes(tables, game.resolve(tables, secret=PINNED).changes)
    realm = [str(c) for row in tables["Держава — Египет"] for c in row if c is not None]
    assert "Верховая езда" in realm and "Horseback Riding" not in realm
