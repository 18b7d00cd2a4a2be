"""Where the repository and the tests live, for tests in any folder under tests/ (core, bridge,
games/<game>, emulator): the fixtures, the scenarios and the test games are found from here."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
SCENARIOS = TESTS / "scenarios"
