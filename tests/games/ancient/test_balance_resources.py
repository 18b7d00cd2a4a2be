"""The balance sheet per resource (issue 17 p4, helper H5): money keeps its fixed layout of
categories; each further resource the ancient game ledgers (science) has a block of its own to
the right — opening, gained, spent, closing — taken from the ledger, with notes listing the lines."""

from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path

import openpyxl

from engine.core.ledger import LedgerEntry
from engine.core.money import amount
from engine.core.tables import Formula
from engine.rulesets.ancient import codec, public, ruleset
from engine.rulesets.ancient.resources import BALANCED, MONEY, SCIENCE
from sheets_bridge import sync
from sheets_bridge.xlsx import XlsxBackend


def test_the_money_part_keeps_its_columns_and_science_follows_in_a_block() -> None:
    head = public.columns("ru")
    assert head[0] == "Государство" and head[public.C_CLOSE - 1] == "Казна на конец, Д"
    assert head[public.WIDTH - 1] == "Наука"  # the old last column stays where it was
    assert len(head) == public.FULL_WIDTH == public.WIDTH + public.BLOCK * (len(BALANCED) - 1)
    start = public.block_start(1)
    assert head[start - 1:start + 3] == ["Наука на начало, очки науки", "Наука: получено", "Наука: потрачено",
                                         "Наука на конец, очки науки"]
    assert public.columns("en")[start - 1] == "Science at the start, science points"


def test_the_science_block_is_the_ledgers_and_its_notes_list_the_lines() -> None:
    spec = ruleset.new_workbook("demo", "ru", secret="s" * 32)
    before = codec.decode({t.name: t.rows for t in spec.tabs}).campaign
    after = copy.deepcopy(before)
    rome = after.states["Рим"]
    rome.science += Fraction(5) - Fraction(3)
    entries = [
        LedgerEntry(1, "Рим", SCIENCE.code, "наука", "наука", Fraction(5), "учёные"),
        LedgerEntry(1, "Рим", SCIENCE.code, "наука", "наука", Fraction(-3), "изучена технология «Колесо»"),
        LedgerEntry(1, "Рим", MONEY.code, "налоги", "налоги", Fraction(7), "налоги"),
    ]
    after.states["Рим"].treasury += 7
    grid, notes = public.balance(before, after, entries, "ru")
    row = next(r for r in grid if r[0] == "Рим")
    start = public.block_start(1)
    opening, gained, spent, closing = (row[c - 1] for c in range(start, start + 4))
    assert amount(opening) == before.states["Рим"].science and amount(closing) == rome.science
    assert amount(gained) == 5 and amount(spent) == 3
    assert amount(opening) + amount(gained) - amount(spent) == amount(closing)
    r = grid.index(row) + 1
    got = {(rr, c): text for rr, c, text in notes if text}
    assert "учёные" in got[(r, start + 1)] and "очки науки" in got[(r, start + 1)]
    assert "Колесо" in got[(r, start + 2)] and "учёные" not in got[(r, start + 2)]
    assert "налоги" in got[(r, public.C_INC_TOTAL)] and "учёные" not in got[(r, public.C_INC_TOTAL)]
    other = next(x for x in grid[1:-1] if x[0] != "Рим")
    assert other[start] is None and other[start + 1] is None  # nothing moved: blank
    total = grid[-1]
    assert total[start - 1] == Formula(f"=SUM({public.column_letter(start)}2:{public.column_letter(start)}"
                                       f"{len(grid) - 1})")


def test_a_resolved_turn_shows_each_states_science_from_the_ledger(campaign: Path) -> None:
    backend = XlsxBackend(campaign)
    backend.write(ruleset.demo_changes(backend.read()))
    sync.resolve(XlsxBackend(campaign), turn=1)
    tables = XlsxBackend(campaign).read()
    world = codec.decode(tables).campaign
    ledger = [r for r in tables["Казна"][1:] if r and r[0] == 1 and r[5] == SCIENCE.code]
    assert ledger  # science moved this turn: the check can fail
    start = public.block_start(1)
    seen = 0
    for row in tables["Баланс"][1:-1]:
        name = row[0]
        moved = sum((amount(r[4]) for r in ledger if r[1] == name), Fraction(0))
        opening, gained, spent, closing = (amount(row[c - 1] or 0) for c in range(start, start + 4))
        assert gained - spent == moved, name
        assert opening + moved == closing == world.states[name].science, name
        seen += bool(moved)
    assert seen
    ws = openpyxl.load_workbook(campaign)["Баланс"]
    assert any(ws.cell(r, start + 1).comment for r in range(2, ws.max_row))  # the gains are explained
