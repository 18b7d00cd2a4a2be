"""Rulesets by name. A ruleset module provides `NAME`, `new_workbook`, `check` and `resolve`.

Adding a game: write engine/rulesets/<name>/ with the same functions and register it here;
nothing in the core, the bridge or the CLI changes.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.core.errors import CampaignError

RULESETS: dict[str, str] = {
    "ancient": "engine.rulesets.ancient.ruleset",
}


def get(name: str) -> ModuleType:
    """The ruleset module registered under `name`."""
    key = (name or "").strip().lower()
    if key not in RULESETS:
        raise CampaignError(f"неизвестные правила «{name}»; есть: {', '.join(sorted(RULESETS))}")
    return importlib.import_module(RULESETS[key])
