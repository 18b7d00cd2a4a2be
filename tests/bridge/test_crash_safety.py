"""Crash safety of the .xlsx save (issue 7): SIGKILL at random moments, at least 200 times.

Each try copies the pre-turn workbook, forks a child that resolves the turn, and kills it after
a random delay spread over the whole run (reading, resolving, saving). Afterwards the file on
disk must open and hold exactly the pre-turn or exactly the post-turn tables — never a mix.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import time
from pathlib import Path

import pytest

from engine.core.tables import WorkbookSpec
from engine.rulesets.ancient import ruleset
from sheets_bridge import secrets, sync, xlsx
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

TRIES = 200


def _kept(spec: WorkbookSpec) -> WorkbookSpec:
    """The spec with its secret in the GM's (temporary) store, as `strategos new` leaves it."""
    secrets.keep(spec)
    return spec


def _resolve_in_child(path: Path) -> int:
    pid = os.fork()
    if pid == 0:  # the child: resolve and leave without running the parent's cleanup
        try:
            sync.resolve(XlsxBackend(path))
        finally:
            os._exit(0)
    return pid


@pytest.mark.slow  # run first: a long pole (tests/conftest.py)
@pytest.mark.parametrize("half", [0, 1])  # two halves of the kills, so that parallel workers share them
def test_sigkill_during_resolve_never_leaves_a_partial_workbook(tmp_path: Path, half: int) -> None:
    pre = tmp_path / "pre.xlsx"
    create_xlsx(_kept(ruleset.new_workbook(scenario="generated:3", secret="kill-test")), pre)
    backend = XlsxBackend(pre)
    backend.write(ruleset.demo_changes(backend.read()))
    pre_tables = XlsxBackend(pre).read()
    post = tmp_path / "post.xlsx"
    shutil.copy(pre, post)
    started = time.perf_counter()
    sync.resolve(XlsxBackend(post))
    duration = time.perf_counter() - started
    post_tables = XlsxBackend(post).read()
    assert pre_tables != post_tables

    rng = random.Random(20261129 + half)
    outcomes = {"pre": 0, "post": 0, "partial": 0, "unreadable": 0}
    work = tmp_path / "work.xlsx"
    for _ in range(TRIES // 2):
        for stale in tmp_path.glob(".work.xlsx.*"):
            stale.unlink()
        shutil.copy(pre, work)
        pid = _resolve_in_child(work)
        time.sleep(rng.uniform(0, duration * 1.3))
        with contextlib.suppress(ProcessLookupError):  # the child may have finished already
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        try:
            got = XlsxBackend(work).read()
        except Exception:
            outcomes["unreadable"] += 1
            continue
        if got == pre_tables:
            outcomes["pre"] += 1
        elif got == post_tables:
            outcomes["post"] += 1
        else:
            outcomes["partial"] += 1
    print(f"\nSIGKILL × {TRIES // 2} (half {half + 1} of {TRIES}): {outcomes} (resolve takes {duration:.2f} s)")
    assert outcomes["partial"] == 0 and outcomes["unreadable"] == 0
    assert outcomes["pre"] > 0 and outcomes["post"] > 0  # the kills really landed on both sides


def test_the_save_steps_are_the_only_places_a_crash_can_land(tmp_path: Path, monkeypatch) -> None:
    """Between the save's steps the workbook is always whole (the deterministic complement)."""
    path = tmp_path / "c.xlsx"
    create_xlsx(_kept(ruleset.new_workbook(scenario="generated:3", secret="kill-test")), path)
    before = XlsxBackend(path).read()
    seen: list[str] = []

    def look(step: str) -> None:
        seen.append(step)
        now = XlsxBackend(path).read()
        assert now == before or step == "replaced"

    monkeypatch.setattr(xlsx, "_SAVE_HOOK", look)
    sync.resolve(XlsxBackend(path))
    assert seen == ["before-save", "saved-temp", "backup-kept", "replaced"]
