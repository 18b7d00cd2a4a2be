"""Shared fixtures: a fresh demo campaign workbook in a temporary folder."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core import i18n
from sheets_bridge import sync

# The tests are laid out like the code (core/, bridge/, emulator/, games/<game>/); a test imports
# another's helpers by module name wherever that file lives, so every test folder is importable.
for _folder in sorted({p.parent for p in Path(__file__).resolve().parent.rglob("test_*.py")}):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))


@pytest.fixture(scope="session")
def _demo_template(tmp_path_factory: pytest.TempPathFactory, _secrets_in_tmp: Path) -> Path:
    """The demo campaign made once per test process (its secret in the process's store): ~75 tests
    ask for it, and a byte copy of the file costs nothing beside a creation (~0.4 s of CPU)."""
    path = tmp_path_factory.mktemp("demo-template") / "campaign.xlsx"
    sync.create(str(path), scenario="demo", secret="test-secret")
    return path


@pytest.fixture
def campaign(tmp_path: Path, _demo_template: Path) -> Path:
    """A new demo campaign (.xlsx), open for orders for turn 1, with a fixed secret: a copy of the
    process's template, so each test has a file of its own."""
    path = tmp_path / "campaign.xlsx"
    shutil.copyfile(_demo_template, path)
    return path


@pytest.fixture(scope="session", autouse=True)
def _secrets_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The GM's secret store goes to a temporary folder in tests, never the real ~/.config: one
    store per test process, set before any fixture of any scope runs (a module that prepares a
    campaign once and clones it for each test finds its secret in every test)."""
    store = tmp_path_factory.mktemp("secrets") / "secrets.json"
    before = os.environ.get("STRATEGOS_SECRETS")
    os.environ["STRATEGOS_SECRETS"] = str(store)
    yield store
    if before is None:
        os.environ.pop("STRATEGOS_SECRETS", None)
    else:
        os.environ["STRATEGOS_SECRETS"] = before


@pytest.fixture(autouse=True)
def _source_language() -> Iterator[None]:
    """Each test starts in the source language, and a language one test's command adopted (the
    bridge adopts a campaign's language when it reads it) ends with that test."""
    with i18n.using(i18n.SOURCE):
        yield


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long poles (marked ``slow``) first: run last, one of them would keep a worker busy
    after the other had finished (with ``--dist worksteal``, as README.md's test command runs
    it, the idle worker takes over the rest of the busy one's queue)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
