"""A whole `strategos check` imports only what a check needs (docs/benchmarks.md, «Whole processes»):
no numpy (openpyxl would import it), no table or chart library, no Google client, no babel, no
progress bars without a terminal, no package metadata."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import repo_paths

from sheets_bridge import sync

ROOT = repo_paths.ROOT
NOT_NEEDED = ("numpy", "pandas", "matplotlib", "babel", "gspread", "google.auth", "requests", "rich.progress",
              "importlib.metadata")


@pytest.mark.parametrize("command", ["check", "resolve"])
def test_a_check_or_resolve_imports_nothing_it_does_not_need(command: str, tmp_path: Path) -> None:
    path = tmp_path / "demo.xlsx"
    sync.create(str(path), scenario="demo")
    code = (
        "import json, sys\n"
        "from sheets_bridge.cli import main\n"
        f"code = main([{command!r}, {str(path)!r}])\n"
        "print(json.dumps([code, sorted(sys.modules)]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    code_, modules = json.loads(out.stdout.strip().splitlines()[-1])
    assert code_ == 0, out.stderr
    assert "openpyxl" in modules and "engine.rulesets.ancient.game" in modules  # the check did run
    loaded = [m for m in NOT_NEEDED if m in modules]
    assert loaded == [], loaded


def test_numpy_stays_importable_after_the_bridge() -> None:
    code = "import sheets_bridge.xlsx, numpy, openpyxl.compat.numbers as n; print(numpy.__name__, n.NUMPY)"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert out.stdout.split() == ["numpy", "False"]
