"""Issue 17 point 7: the rules tables are read by one small declarative loader per tab.

`rules_loaders.TAB_LOADERS` lists a loader for every rules tab of the template, by the tab's role;
`load_rules` runs them in order.  These tests pin that table (every tab, every field of `Rules`,
names looked up only in tabs read before), that each loader reads its tab alone, that a role
without a loader is a loud error, and that the rules read are the ones the single function read
before the split (its code taken from git history and run on the same workbooks)."""

from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engine.core import i18n
from engine.core.errors import Problem
from engine.core.tables import Tables
from engine.rulesets.ancient import codec
from engine.rulesets.ancient.rules import Rules
from engine.rulesets.ancient.rules_loaders import TAB_LOADERS, UnknownTabRole, load_rules, load_tab
from engine.rulesets.ancient.templates import RULES_FILES
from sheets_bridge import sync
from sheets_bridge.xlsx import XlsxBackend

ROOT = Path(__file__).resolve().parent.parent
#: The last commit whose `load_rules` was one function for all the tabs.
BEFORE_SPLIT = "c1c9f31"
#: The longest a loader of one tab may grow before it is split in turn.
MAX_LOADER_LINES = 60


@pytest.fixture(scope="module", params=["ru", "en"])
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Tables]:
    """The demo campaign's workbook as read back from .xlsx, in each language."""
    lang: str = request.param
    path = tmp_path_factory.mktemp("loaders") / f"campaign-{lang}.xlsx"
    sync.create(str(path), scenario="demo", lang=lang, secret="test-secret")
    return lang, XlsxBackend(path).read()


def _copy(tables: Tables) -> Tables:
    return {name: [list(r) for r in grid] for name, grid in tables.items()}


def _tab(tables: Tables, role: str) -> str:
    layout = TAB_LOADERS[role].layout
    return next(t for t in tables if t in (layout.ru, layout.en))


def test_i17_p7_every_rules_tab_of_the_template_has_one_small_loader() -> None:
    assert list(TAB_LOADERS) and set(TAB_LOADERS) == set(RULES_FILES)
    for role, loader in TAB_LOADERS.items():
        assert loader.layout == RULES_FILES[role][1], role  # the template's tab of that role
    filled = [loader.fills for loader in TAB_LOADERS.values()]
    assert sorted(filled) == sorted(f.name for f in dataclasses.fields(Rules))  # each field by one loader
    read: set[str] = set()
    for role, loader in TAB_LOADERS.items():
        assert set(loader.needs) <= read, f"{role} looks names up in {set(loader.needs) - read}, read after it"
        read.add(role)
        length = len(inspect.getsource(loader.read).splitlines())
        assert length <= MAX_LOADER_LINES, f"the loader of {role} has {length} lines"
    assert len(inspect.getsource(load_rules).splitlines()) <= 8


def test_i17_p7_each_loader_reads_its_tab_alone(demo: tuple[str, Tables]) -> None:
    lang, tables = demo
    with i18n.using(lang):
        problems: list[Problem] = []
        whole = load_rules(tables, problems)
        assert not problems
        for role, loader in TAB_LOADERS.items():
            needed = {TAB_LOADERS[n].fills: getattr(whole, TAB_LOADERS[n].fills) for n in loader.needs}
            base = dataclasses.replace(Rules(), **needed)
            alone: list[Problem] = []
            got = load_tab(role, tables, alone, base)
            assert not alone, (role, alone)
            for f in dataclasses.fields(Rules):
                want = getattr(whole if f.name == loader.fills else base, f.name)
                assert getattr(got, f.name) == want, (role, f.name)
            assert getattr(got, loader.fills), f"{role} read nothing from the demo"


def test_i17_p7_a_loader_reports_only_its_own_tab(demo: tuple[str, Tables]) -> None:
    """Without its tab, a loader says so once, naming the tab; every other tab still loads."""
    lang, tables = demo
    with i18n.using(lang):
        whole = load_rules(tables, [])
        for role, loader in TAB_LOADERS.items():
            broken = _copy(tables)
            del broken[_tab(broken, role)]
            problems: list[Problem] = []
            got = load_rules(broken, problems)
            assert [(p.tab, p.row, p.column) for p in problems] == [(loader.layout.ru, 0, "")], (role, problems)
            dependents = {other.fills for other in TAB_LOADERS.values() if role in other.needs}
            for f in dataclasses.fields(Rules):
                if f.name != loader.fills and f.name not in dependents:
                    assert getattr(got, f.name) == getattr(whole, f.name), (role, f.name)


def test_i17_p7_an_unknown_tab_role_is_reported() -> None:
    with pytest.raises(UnknownTabRole) as caught:
        load_tab("harbours", {}, [])
    text = str(caught.value)
    assert "harbours" in text and all(role in text for role in TAB_LOADERS)


def _old_rules_module() -> ModuleType:
    """The rules module as it was before the split, from git history (skip without it)."""
    try:
        source = subprocess.run(
            ["git", "show", f"{BEFORE_SPLIT}:engine/rulesets/ancient/rules.py"],
            cwd=ROOT, capture_output=True, text=True, check=True, timeout=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        pytest.skip("the code before the split is not in this checkout's git history")
    name = "engine.rulesets.ancient._rules_before_i17"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "engine.rulesets.ancient"
    sys.modules[name] = module  # its dataclasses look their module up
    try:
        exec(compile(source, f"{BEFORE_SPLIT}:rules.py", "exec"), module.__dict__)
    finally:
        del sys.modules[name]
    return module


def _bad_cells(tables: Tables) -> Tables:
    """The demo with a bad cell in every rules tab: a word for a number, a blank, an unknown name."""
    out = _copy(tables)
    for role in TAB_LOADERS:
        grid = out[_tab(out, role)]
        for row in grid[1:3]:
            for i in range(len(row)):
                if i % 3 == 1:
                    row[i] = "непонятно"
                elif i % 3 == 2:
                    row[i] = None
    return out


def test_i17_p7_the_loaders_read_what_the_single_function_read(demo: tuple[str, Tables]) -> None:
    """The Rules and the problems (tab, row, column and wording) are the same as before the split,
    for the demo workbook and for one with bad cells in every rules tab."""
    lang, tables = demo
    old = _old_rules_module()
    with i18n.using(lang):
        for case in (tables, _bad_cells(tables)):
            before: list[Problem] = []
            after: list[Problem] = []
            was: Any = old.load_rules(case, before)
            now = load_rules(case, after)
            assert dataclasses.asdict(now) == dataclasses.asdict(was)
            assert after == before
        assert before, "the bad cells were found"


def test_i17_p7_the_campaign_reads_its_rules_through_the_loaders(demo: tuple[str, Tables]) -> None:
    """What a check or resolve sees (the codec's rules of the workbook) is what the loaders read."""
    lang, tables = demo
    with i18n.using(lang):
        assert codec.decode(_copy(tables)).rules == load_rules(tables, [])
