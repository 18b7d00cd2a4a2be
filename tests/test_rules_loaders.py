"""Issue 17 point 7 (first part): `rules.load_rules` is one small loader per rules tab, listed in a
table (`rules.TAB_LOADERS`) instead of one 321-line function for 14 tabs -- so a game of another
ruleset declares its tabs the same way.  The rules read are the same as before (the rest of the
suite, goldens included, says so); these tests pin the structure and that each loader stands alone."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from engine.core.errors import Problem
from engine.core.layout import Layout
from engine.core.tables import Tables
from engine.rulesets.ancient import rules, vocab
from sheets_bridge import sync
from sheets_bridge.xlsx import XlsxBackend

#: The longest a loader of one tab may grow before it is split in turn.
MAX_LOADER_LINES = 50


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    path = tmp_path_factory.mktemp("loaders") / "campaign.xlsx"
    sync.create(str(path), scenario="demo", secret="test-secret")
    return XlsxBackend(path).read()


def test_i17_p7_every_rules_tab_has_one_small_loader() -> None:
    layouts = [layout for layout, _field, _loader in rules.TAB_LOADERS]
    declared = [v for name, v in vars(vocab).items() if name.startswith("RULES_") and isinstance(v, Layout)]
    assert sorted(lay.ru for lay in layouts) == sorted(lay.ru for lay in declared)  # each tab once
    filled = [name for _layout, name, _loader in rules.TAB_LOADERS]
    assert sorted(filled) == sorted(f.name for f in dataclasses.fields(rules.Rules))  # each field once
    for _layout, name, loader in rules.TAB_LOADERS:
        length = len(inspect.getsource(loader).splitlines())
        assert length <= MAX_LOADER_LINES, f"the loader of {name} has {length} lines"
    assert len(inspect.getsource(rules.load_rules).splitlines()) <= 15


def test_i17_p7_a_loader_reads_its_tab_alone_as_load_rules_does(demo: Tables) -> None:
    problems: list[Problem] = []
    whole = rules.load_rules(demo, problems)
    assert not problems
    got = rules._Loaded()
    for layout, name, loader in rules.TAB_LOADERS:
        alone: list[Problem] = []
        value = loader(rules._Reader(demo, layout, alone), got)
        assert value == getattr(whole, name) and not alone, name
        if hasattr(got, name):
            setattr(got, name, value)


def test_i17_p7_a_broken_tab_is_reported_once_and_the_others_still_load(demo: Tables) -> None:
    tables = {name: [list(r) for r in grid] for name, grid in demo.items()}
    goods_tab = next(lay for lay, name, _ in rules.TAB_LOADERS if name == "goods")
    tab = next(t for t in tables if t in (goods_tab.ru, goods_tab.en))
    del tables[tab]
    problems: list[Problem] = []
    loaded = rules.load_rules(tables, problems)
    assert len(problems) == 1 and problems[0].row == 0, problems  # the missing tab, nothing about the others
    assert loaded.goods == {} and loaded.buildings == rules.load_rules(demo, []).buildings
