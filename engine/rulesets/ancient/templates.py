"""Loading the ruleset's templates (rules tables, scenarios) shipped in templates/ancient/."""

from __future__ import annotations

import csv
from functools import cache
from importlib import resources
from typing import Any

from engine.core import yamlload
from engine.core.errors import CampaignError
from engine.core.layout import Layout
from engine.core.tables import Cell, Grid

from .messages import _
from .naming import localise_rules_row
from .vocab import (
    RULES_BUILDINGS,
    RULES_COMBAT,
    RULES_CONVERSIONS,
    RULES_DEGRADATION,
    RULES_EVENT_ODDS,
    RULES_EVENTS,
    RULES_GOODS,
    RULES_GOVERNMENTS,
    RULES_PARAMS,
    RULES_STABILITY,
    RULES_TECHS,
    RULES_TRADE,
    RULES_TRANSITIONS,
    RULES_UNITS,
)

RULES_FILES: dict[str, tuple[str, Layout]] = {
    "governments": ("governments.csv", RULES_GOVERNMENTS),
    "stability": ("stability.csv", RULES_STABILITY),
    "buildings": ("buildings.csv", RULES_BUILDINGS),
    "technologies": ("technologies.csv", RULES_TECHS),
    "transitions": ("transitions.csv", RULES_TRANSITIONS),
    "degradation": ("degradation.csv", RULES_DEGRADATION),
    "conversions": ("conversions.csv", RULES_CONVERSIONS),
    "goods": ("goods.csv", RULES_GOODS),
    "events": ("events.csv", RULES_EVENTS),
    "event_odds": ("event_odds.csv", RULES_EVENT_ODDS),
    "units": ("units.csv", RULES_UNITS),
    "combat": ("combat.csv", RULES_COMBAT),
    "trade": ("trade.csv", RULES_TRADE),
    "parameters": ("parameters.csv", RULES_PARAMS),
}


def _files() -> Any:
    return resources.files("templates") / "ancient"


def _typed(text: str) -> Cell:
    t = text.strip()
    if not t:
        return None
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        return t


def rules_grid(key: str, lang: str) -> Grid:
    """A rules tab as shipped: the header in the campaign's language, then the CSV rows."""
    filename, layout = RULES_FILES[key]
    with (_files() / filename).open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    grid: Grid = [layout.header(lang)]
    for rec in (localise_rules_row(key, r, lang) for r in rows):
        grid.append([_typed(rec.get(c.key, "") or "") for c in layout.columns])
    return grid


def scenarios() -> list[str]:
    return sorted(p.name[:-5] for p in (_files() / "scenarios").iterdir() if p.name.endswith(".yaml"))


def load_scenario(name: str) -> dict[str, Any]:
    """The shipped scenario `name`, the caller's own copy (a campaign is built by changing it)."""
    path = _files() / "scenarios" / f"{name}.yaml"
    if not path.is_file():
        raise CampaignError(_("нет сценария «{name}»; есть: {known}").format(name=name, known=", ".join(scenarios())))
    return _copy(_parsed_scenario(name))


@cache
def _parsed_scenario(name: str) -> dict[str, Any]:
    """A shipped scenario parsed once per process: every new campaign (and each of the hundreds of
    scenario tests) starts from it, and parsing the demo's 45 KB cost far more than building from it.
    The C parser where PyYAML has it (the same data, a seventh of the time)."""
    with (_files() / "scenarios" / f"{name}.yaml").open(encoding="utf-8") as fh:
        data: dict[str, Any] = yamlload.safe_load(fh)
    return data


def _copy(value: Any) -> Any:
    """A copy of parsed YAML that shares no dict or list with it (its scalars are immutable)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
