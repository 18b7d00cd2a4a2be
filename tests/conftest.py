"""Shared fixtures: a fresh demo campaign workbook in a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets_bridge import sync


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """A new demo campaign (.xlsx), open for orders for turn 1, with a fixed secret."""
    path = tmp_path / "campaign.xlsx"
    sync.create(str(path), scenario="demo", secret="test-secret")
    return path


@pytest.fixture(scope="session")
def _secret_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One GM's secret store per test process, in a temporary folder: campaigns a module prepares
    once and clones for each test (same campaign id) find their secret in every test."""
    return tmp_path_factory.mktemp("secrets") / "secrets.json"


@pytest.fixture(autouse=True)
def _secrets_in_tmp(_secret_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The GM's secret store goes to a temporary folder in tests: never the real ~/.config."""
    monkeypatch.setenv("STRATEGOS_SECRETS", str(_secret_store))
