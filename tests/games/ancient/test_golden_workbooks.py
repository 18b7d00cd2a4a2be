"""The seed's worked examples through `strategos resolve` on real .xlsx workbooks.

Each scenario file's setup and orders are written into a workbook, the CLI resolves it, and the
expectations are checked on what the file then holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import repo_paths
import yaml

from engine import rulesets
from engine.core import meta
from engine.core import scenario as core_scenario
from engine.core.ruleset import SyncResult
from engine.core.tables import Changeset, TabSpec, WorkbookSpec
from engine.core.turn import TurnReport
from engine.rulesets.ancient import scenario
from sheets_bridge import secrets
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

ROOT = repo_paths.TESTS / "scenarios" / "ancient"
GOLDEN = [
    "ANC-COMBAT-06_egypt_rome_battle.yaml",
    "ANC-COMBAT-03_gm_edits_the_table.yaml",
    "ANC-MONEY-04_persia_plunder.yaml",
    "ANC-NAVY-14_two_triremes.yaml",
    "ANC-CRAFT-10_pergamon_mint.yaml",
    "ANC-TAX-03_tax_by_stability.yaml",
    "ANC-MOVE-09_no_elephants_aboard.yaml",
    "ANC-UPKEEP-03_bankrupt_desertion.yaml",
    "ANC-TRADE-10_syria_judea_weapons.yaml",
    "ANC-FOOD-03_belgica_meat_too_far.yaml",
]


@pytest.mark.parametrize("name", GOLDEN)
def test_worked_example_through_the_cli(name: str, tmp_path: Path, capsys) -> None:
    data = yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))
    tables = scenario.build_tables(data.get("setup") or {})
    turn = data["turns"][0]
    scenario.put_orders(tables, turn.get("orders") or {})
    book = tmp_path / "golden.xlsx"
    create_xlsx(WorkbookSpec("golden", [TabSpec(n, g) for n, g in tables.items()]), book)
    secrets.save(meta.text(tables, meta.CAMPAIGN_ID), (data.get("setup") or {}).get("secret", scenario.FIXED_SECRET))
    assert main(["resolve", str(book), "--turn", "1"]) == 0, capsys.readouterr().err
    after = XlsxBackend(book).read()
    # the CLI resolved turn 1 and wrote it: only its mode and turn are known here, not its report
    result = SyncResult("resolve", 1, Changeset(), TurnReport(1, facts=None), None)
    failures = core_scenario.check_turn(rulesets.get("ancient"), turn.get("expect") or {}, tables, after, result)
    assert not failures, "\n".join(failures)
