"""The declared fields' fast path (TabReader.checked, a column at a time) gives what reading every cell
through TabReader.value gives: the same values and the same problems, in the same order, on damaged
copies of every civ1 state and rules tab."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core.errors import Problem
from engine.core.rules_tab import StateTabs, TabReader
from engine.core.tables import Tables
from engine.rulesets.civ1 import codec
from engine.rulesets.civ1.declared import RULES_FIELDS, STATE_FIELDS
from engine.rulesets.civ1.generate import generate
from engine.rulesets.civ1.workbook import new_workbook, tables_of

JUNK: list[Any] = [None, "", "  ", "abc", "да", "нет", "yes", 3, -1, 0, 10**9, 1.5, "3,4", "(1, 2)", "x; y",
                   "лес", "1/2", True, "Лес ", "—", " 7 ", 1, 5, 20, 100, 10_000, "Древние", 2.0]
GAME = StateTabs(codec.STATE_TEXTS, {**STATE_FIELDS, **RULES_FIELDS})


@pytest.fixture(scope="module")
def tables() -> Tables:
    return tables_of(new_workbook("fast", "ru", "f" * 32, "fast-path", data=generate(3, 20261202)))


def _slow(reader: TabReader, refs: Any) -> list[tuple[int, dict[str, Any]]]:
    spec = reader._spec()
    return [(row, {f.key: reader.value(row, rec, f, refs) for f in spec.fields}) for row, rec in reader.rows]


def test_checked_is_value_cell_by_cell(tables: Tables) -> None:
    rules = codec.read_rules(tables)
    refs: dict[str, Any] = {**codec._rules_refs(rules), "nations": {"x"}, "cities": set(), "map": set()}
    rnd = random.Random(23)
    compared = 0
    for _trial in range(60):
        damaged = {k: [list(r) for r in v] for k, v in tables.items()}
        for layout in [*STATE_FIELDS, *RULES_FIELDS]:
            name = next((k for k in damaged if k in (layout.ru, layout.en)), None)
            if name is None or len(damaged[name]) < 2:
                continue
            grid = damaged[name]
            for _ in range(rnd.randint(0, 6)):
                r = rnd.randrange(1, len(grid))
                if grid[r]:
                    grid[r][rnd.randrange(len(grid[r]))] = rnd.choice(JUNK)
            spec = GAME.fields[layout]
            edges = [(f.key, e) for f in spec.fields if f.kind == "whole" and f.bound is not None
                     for b in (f.bound.lo, f.bound.hi) if b is not None for e in (int(b) - 1, int(b), int(b) + 1)]
            header = [str(c).strip() for c in grid[0]]
            for key, edge in rnd.sample(edges, min(3, len(edges))):  # a whole number at its range's edges
                column = next(c for c in layout.columns if c.key == key)
                if column.ru in header and len(grid[1]) > header.index(column.ru):
                    grid[rnd.randrange(1, len(grid))][header.index(column.ru)] = edge
            if rnd.random() < 0.3 and len(grid) > 2:
                grid.append(list(grid[rnd.randrange(1, len(grid))]))  # a row written twice
            for given in (refs, None, {}):
                fast_problems: list[Problem] = []
                slow_problems: list[Problem] = []
                fast = TabReader(damaged, layout, fast_problems, GAME)
                slow = TabReader(damaged, layout, slow_problems, GAME)
                assert fast.checked(given) == _slow(slow, given), layout.ru
                assert [(row, fast.values(row, rec, given)) for row, rec in fast.rows] == _slow(slow, given)
                assert fast_problems == slow_problems, layout.ru
                compared += 1
    assert compared > 500
