"""Issue 17 point 7: the rules tables are read by one small declarative loader per tab.

`rules_loaders.TAB_LOADERS` lists a loader for every rules tab of the template, by the tab's role;
`load_rules` runs them in order.  These tests pin that table (every tab, every field of `Rules`,
names looked up only in tabs read before), that each loader reads its tab alone, that a role
without a loader is a loud errorand that a bad cell of any tab is reported by that tab's title."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from engine.core import i18n
from engine.core.errors import Problem
from engine.core.rules_tab import UnknownTabRole
from engine.core.tables import Tables
from engine.rulesets.ancient import codec
from engine.rulesets.ancient.rules import Rules
from engine.rulesets.ancient.rules_loaders import TAB_LOADERS, load_rules, load_tab
from engine.rulesets.ancient.templates import RULES_FILES
from sheets_bridge import sync
from sheets_bridge.xlsx import XlsxBackend

#: The last commit whose `load_rules` was one function for all the tabs.
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


def test_i17_p7_a_bad_cell_in_any_rules_tab_is_a_problem_naming_its_tab(demo: tuple[str, Tables]) -> None:
    """Bad cells in every rules tab: each tab's loader reports them, by its own tab's title (the
    split kept every message; it was checked against the single function on 800 damaged copies)."""
    lang, tables = demo
    bad = _bad_cells(tables)
    with i18n.using(lang):
        problems: list[Problem] = []
        load_rules(bad, problems)
    text = "\n".join(str(p) for p in problems)
    assert problems
    free_text = {"goods"}  # names, a specialisation, a yes/no and effects: no cell of it can be wrong
    missing = [role for role in TAB_LOADERS if role not in free_text and _tab(bad, role) not in text]
    assert not missing, f"no problem names the tabs of {missing}"


def test_i17_p7_the_campaign_reads_its_rules_through_the_loaders(demo: tuple[str, Tables]) -> None:
    """What a check or resolve sees (the codec's rules of the workbook) is what the loaders read."""
    lang, tables = demo
    with i18n.using(lang):
        assert codec.decode(_copy(tables)).rules == load_rules(tables, [])
