"""Issue 15, done-when: the figures of docs/reliability.md are measured by scripts/reliability.py.

Runs the script's quick mode (real campaigns: SIGKILLs, Google faults, interleaved commands,
hostile edits, injections, a player's access attempts) and checks that every category was
really tried and that every count that must be 0 — lost, leaked, partial, reverted, live
formulas, unescaped markup, successes of an attack, tracebacks — is 0.  The .xlsx half and the
emulator half run as two tests, so that two workers share them.
"""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest
import repo_paths

SCRIPT = repo_paths.ROOT / "scripts" / "reliability.py"
CATEGORIES = {
    "local": {"kills", "concurrent runs", "hostile edits", "injections", "rollback", "tracebacks"},
    "google": {"faults", "concurrent runs", "injections", "access attempts", "tracebacks"},
}


def _script():
    spec = importlib.util.spec_from_file_location("reliability_script", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # run first: a long pole (tests/conftest.py)
@pytest.mark.parametrize("part", sorted(CATEGORIES))
def test_i15_done_when_the_quick_run_tries_every_category_and_loses_leaks_nothing(
    part: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("STRATEGOS_GOOGLE_API_BASE", raising=False)
    code = _script().main(["--quick", "--json", "--part", part])
    figures = json.loads(capsys.readouterr().out)
    assert {f["category"] for f in figures} == CATEGORIES[part]
    for figure in figures:
        assert figure["tries"] > 0, figure
        assert figure["bad"], figure  # every row counts something that must stay 0
        assert all(n == 0 for n in figure["bad"].values()), figure
    assert code == 0
    tracebacks = next(f for f in figures if f["category"] == "tracebacks")
    assert tracebacks["good"]["CLI subprocesses"] > 0 and tracebacks["good"]["in-process CLI runs"] > 0
