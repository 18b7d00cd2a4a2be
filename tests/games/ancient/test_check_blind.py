"""Issue 15, point 6: a check shows no outcome of the turn's dice.

Two campaigns that differ only in their secret must check identically: every cell the check
writes and the summary it prints. A forecast the dice may change says so, without the outcome.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import rulesets
from engine.core.dice import BlindDraw, Dice
from engine.core.tables import Changeset
from sheets_bridge import sync
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend

SECRETS = ("alpha", "beta", "gamma", "ещё-один-секрет")


def _checked(tmp_path: Path, secret: str, capsys: pytest.CaptureFixture[str]) -> tuple[Changeset, dict, str]:
    """The demo with its sample orders, checked: (what check writes, its JSON summary, its table)."""
    path = tmp_path / f"{abs(hash(secret))}.xlsx"
    sync.create(str(path), scenario="demo", secret=secret)
    backend = XlsxBackend(path)
    backend.write(rulesets.get("ancient").demo_changes(backend.read()))
    changes = sync.check(XlsxBackend(path)).changes
    capsys.readouterr()
    assert main(["check", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert main(["check", str(path)]) == 0
    return changes, summary, capsys.readouterr().out


@pytest.mark.slow  # run first: a long pole (tests/conftest.py)
def test_i15_p6_campaigns_differing_only_in_their_secret_check_identically(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = [_checked(tmp_path, s, capsys) for s in SECRETS]
    first_changes, first_summary, first_table = runs[0]
    assert first_changes.blocks, "the check must write statuses"
    for changes, summary, table in runs[1:]:
        assert changes.blocks == first_changes.blocks  # every cell the check writes
        assert summary == first_summary  # the JSON it prints
        assert table == first_table  # the table it prints


def test_i15_p6_the_resolve_still_uses_the_secret(tmp_path: Path) -> None:
    """The secrets above do make different turns: the test above would see a leak."""
    incomes = []
    for secret in SECRETS[:2]:
        path = tmp_path / f"{secret}.xlsx"
        sync.create(str(path), scenario="demo", secret=secret)
        backend = XlsxBackend(path)
        backend.write(rulesets.get("ancient").demo_changes(backend.read()))
        incomes.append(sync.resolve(XlsxBackend(path), turn=1).summary["sides"])
    assert incomes[0] != incomes[1]


def test_i15_p6_a_forecast_the_dice_may_change_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    changes, summary, table = _checked(tmp_path, "alpha", capsys)
    reasons = [str(v) for b in changes.blocks for line in b.values for v in line if v]
    assert any("при разрешении:" in r and "исход зависит от жребия хода" in r for r in reasons)
    assert not any("Богатый урожай" in r or "Событие" in r for r in reasons)
    played = [st for st in summary["sides"] if not st["ai"]]
    assert all("события" in st["dice"] for st in played)
    assert "исход зависит от жребия хода" in table


def test_i15_p6_blind_dice_refuse_to_invent_an_outcome() -> None:
    dice = Dice.blind_dice()
    assert dice.shuffle("жребий", ["b", "a", "c"]) == ["b", "a", "c"]
    assert Dice.blind_dice(reverse=True).shuffle("жребий", ["b", "a", "c"]) == ["c", "a", "b"]
    for draw in (lambda: dice.roll("прирост", 100), lambda: dice.choice("событие", [1, 2]),
                 lambda: dice.chance("x", 0.5)):
        with pytest.raises(BlindDraw):
            draw()
