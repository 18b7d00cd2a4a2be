"""The conformance corpus: every tests/scenarios/<ruleset>/*.yaml, run by one generic test through
the registry: the folder's name is the ruleset's, and the core's runner (engine/core/scenario.py)
plays the file with it.

A scenario file is named by the rule id it proves (ANC-TAX-04_….yaml); docs/scenarios.md
describes the format.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import repo_paths
import yaml

from engine import rulesets
from engine.core import scenario

ROOT = repo_paths.TESTS / "scenarios"
FILES = sorted(ROOT.glob("*/*.yaml"))


#: libyaml's safe loader where PyYAML has it: the same data as yaml.safe_load, a seventh of its
#: time over the hundreds of scenario files
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    outcome = scenario.run(rulesets.get(path.parent.name), data)
    assert not outcome.failures, "\n".join(outcome.failures)


def test_corpus_is_not_empty() -> None:
    assert len(FILES) >= 10
