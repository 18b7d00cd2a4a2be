"""The conformance corpus: every tests/scenarios/<ruleset>/*.yaml, run by one generic test.

A scenario file is named by the rule id it proves (ANC-TAX-04_….yaml); docs/scenarios.md
describes the format.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(ROOT.glob("*/*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    runner = importlib.import_module(f"engine.rulesets.{path.parent.name}.scenario")
    outcome = runner.run(data)
    assert not outcome.failures, "\n".join(outcome.failures)


def test_corpus_is_not_empty() -> None:
    assert len(FILES) >= 10
