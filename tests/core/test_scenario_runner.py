"""The core's scenario runner (engine/core/scenario.py) reports a wrong expectation.

A scenario that passes proves nothing unless one with a wrong expectation fails: so one GM case
of the corpus (ANC-TAX-01) is run as it is — it passes — and then with one expectation made
wrong at a time, a generic key the core checks (order status, chronicle, ledger, warnings, the
open turn, an expected error) and a game key the ruleset's `scenario_expect` checks (a state's
treasury, a province's people).  Each wrong copy must fail, naming what it found.  A ruleset
whose game hook says nothing shows the split: the generic checks still fail, the game's do not.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

import pytest
import repo_paths
import yaml

from engine import rulesets
from engine.core import scenario
from engine.core.ruleset import SyncResult
from engine.core.tables import Tables

CASE = repo_paths.TESTS / "scenarios" / "ancient" / "ANC-TAX-01_only_citizens_pay.yaml"
Edit = Callable[[dict[str, Any]], None]


def case() -> dict[str, Any]:
    return yaml.safe_load(CASE.read_text(encoding="utf-8"))


def expect_of(data: dict[str, Any]) -> dict[str, Any]:
    return data["turns"][0]["expect"]


def _set(key: str, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        expect_of(data)[key] = value

    return edit


def _wrong_treasury(data: dict[str, Any]) -> None:
    expect_of(data)["states"]["Полития"]["treasury"] = 67  # it is 66


def _wrong_people(data: dict[str, Any]) -> None:
    expect_of(data)["provinces"]["Полис"]["population"]["СГ"] = 4  # there are 5


def _wrong_ledger_amount(data: dict[str, Any]) -> None:
    expect_of(data)["ledger"][0]["amount"] = 17  # the line says 16


def _wrong_resource(data: dict[str, Any]) -> None:
    expect_of(data)["ledger"][0]["resource"] = "no-such-resource"


# (label, edit, a word the failure must contain)
GENERIC: list[tuple[str, Edit, str]] = [
    ("order status", _set("orders", {"Полития": ["отклонён"], "Знать": ["выполнен"]}), "статус"),
    ("order count", _set("orders", {"Полития": ["выполнен", "выполнен"]}), "строк приказов"),
    ("order reason", _set("orders", {"Знать": [{"status": "выполнен", "reason_contains": "никогда"}]}), "никогда"),
    ("no order tab", _set("orders", {"Атлантида": ["выполнен"]}), "Атлантида"),
    ("chronicle", _set("chronicle_contains", ["такого в журнале нет"]), "такого в журнале нет"),
    ("ledger amount", _wrong_ledger_amount, "книге казны"),
    ("ledger resource", _wrong_resource, "книге казны"),
    ("no ledger for", _set("no_ledger_for", ["Полития"]), "Полития"),
    ("warnings", _set("warnings_contains", ["такого предупреждения нет"]), "такого предупреждения нет"),
    ("open turn", _set("open_turn", 3), "открыт ход 2"),
    ("error", _set("error", "уже разрешён"), "ожидалась ошибка"),
]
GAME: list[tuple[str, Edit, str]] = [
    ("state treasury", _wrong_treasury, "Полития.treasury"),
    ("province people", _wrong_people, "Полис.СГ"),
]


def failures(data: dict[str, Any], ruleset: Any = None) -> list[str]:
    return scenario.run(ruleset or rulesets.get("ancient"), data).failures


def test_the_case_as_written_passes() -> None:
    data = case()
    assert expect_of(data)["states"] and expect_of(data)["ledger"], "the case lost the keys this test breaks"
    assert failures(data) == []


def test_i24_p6_a_ledger_line_names_its_side_as_side_or_as_state() -> None:
    data = case()
    line = expect_of(data)["ledger"][0]
    assert "state" in line and "side" not in line, "the case's ledger line changed its spelling"
    renamed = copy.deepcopy(data)
    new = expect_of(renamed)["ledger"][0]
    new["side"] = new.pop("state")
    assert failures(renamed) == []  # the new spelling reads the same line
    wrong = copy.deepcopy(renamed)
    expect_of(wrong)["ledger"][0]["side"] = "Атлантида"
    assert any("книге казны" in f for f in failures(wrong))  # and can fail


@pytest.mark.parametrize(("label", "edit", "word"), GENERIC + GAME, ids=[g[0] for g in GENERIC + GAME])
def test_a_wrong_expectation_fails(label: str, edit: Edit, word: str) -> None:
    data = copy.deepcopy(case())
    edit(data)
    found = failures(data)
    assert found, f"a wrong {label} passed"
    assert any(word in f for f in found), found


def test_warnings_are_checked_both_ways() -> None:
    """«Нет действий» beside another order warns the GM: `warnings_contains` finds it, `no_warnings`
    refuses it; the case as written warns of nothing."""
    quiet = copy.deepcopy(case())
    expect_of(quiet)["no_warnings"] = True
    assert failures(quiet) == []
    mixed = copy.deepcopy(case())
    mixed["turns"][0]["orders"]["Полития"] = [["Нет действий"], ["Построить", "Нет такой постройки", "Полис"]]
    expect_of(mixed)["warnings_contains"] = ["другие приказы в одном ходу"]
    assert failures(mixed) == []
    expect_of(mixed)["no_warnings"] = True
    assert [f for f in failures(mixed) if "лишние предупреждения" in f]


class SilentGame:
    """The ancient ruleset with a game hook that finds nothing, or always `says` one thing."""

    def __init__(self, says: list[str]) -> None:
        self.inner = rulesets.get("ancient")
        self.says = says

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property
    def scenario(self) -> Any:
        inner, says = self.inner.scenario, self.says

        class Hooks:
            tables, orders, readback = inner.tables, inner.orders, inner.readback

            def expect(self, expect: Mapping[str, Any], tables: Tables, result: SyncResult) -> list[str]:
                return list(says)

        return Hooks()


def test_game_keys_are_the_rulesets_and_generic_keys_the_cores() -> None:
    data = copy.deepcopy(case())
    _wrong_treasury(data)
    assert failures(data, SilentGame([])) == []  # the treasury is the game's to check
    expect_of(data)["chronicle_contains"] = ["такого в журнале нет"]
    assert failures(data, SilentGame([])) == ["ход 1: в журнале нет «такого в журнале нет»"]
    assert failures(case(), SilentGame(["свой ключ не сошёлся"])) == ["ход 1: свой ключ не сошёлся"]
