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


@pytest.fixture(autouse=True)
def _secrets_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The GM's secret store of Google campaigns goes to a temporary folder in tests."""
    monkeypatch.setenv("STRATEGOS_SECRETS", str(tmp_path_factory.mktemp("secrets") / "secrets.json"))
