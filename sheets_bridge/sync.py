"""Check and resolve orchestration: one read, the ruleset's work, one atomic write.

Game-agnostic: the meta tab names the ruleset; the ruleset module does the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine import rulesets
from engine.core.errors import CampaignError
from engine.core.layout import norm
from engine.core.tables import Tables

from .base import Backend
from .xlsx import XlsxBackend, create_xlsx

GOOGLE_URL = re.compile(r"docs\.google\.com/spreadsheets/d/([A-Za-z0-9_-]+)")
GOOGLE_ID = re.compile(r"^[A-Za-z0-9_-]{25,}$")


def google_id(target: str) -> str | None:
    """The spreadsheet id in a Google Sheets URL or a bare id; None for a file path."""
    m = GOOGLE_URL.search(target)
    if m:
        return m.group(1)
    if GOOGLE_ID.match(target) and not target.lower().endswith(".xlsx"):
        return target
    return None


@dataclass
class Options:
    """How to reach a backend: credentials for Google; nothing for .xlsx."""

    credentials: str | None = None


def open_backend(target: str, options: Options | None = None) -> Backend:
    """A backend for a workbook path or a Google spreadsheet id/URL."""
    sid = google_id(target)
    if sid is not None:
        from . import gsheets

        return gsheets.GoogleBackend.open(sid, credentials=(options or Options()).credentials)
    return XlsxBackend(target)


def ruleset_of(tables: Tables) -> Any:
    """The ruleset module named in the campaign's meta tab."""
    for name, grid in tables.items():
        if norm(name) in (norm("Кампания"), norm("Campaign")):
            for row in grid[1:]:
                if len(row) > 1 and norm(row[0]) in (norm("Правила"), norm("Ruleset"), "ruleset"):
                    return rulesets.get(str(row[1]))
            raise CampaignError(f"на листе «{name}» нет строки «Правила» (ruleset)")
    raise CampaignError("нет листа «Кампания» — это не таблица кампании Strategos")


def check(backend: Backend) -> Any:
    tables = backend.read()
    result = ruleset_of(tables).check(tables)
    backend.write(result.changes)
    return result


def resolve(backend: Backend, turn: int | None = None) -> Any:
    tables = backend.read()
    result = ruleset_of(tables).resolve(tables, expect_turn=turn)
    backend.write(result.changes)
    return result


def create(target: str, ruleset: str = "ancient", scenario: str = "demo", lang: str = "ru",
           title: str | None = None, overwrite: bool = False, secret: str | None = None) -> str:
    """Create a new campaign workbook from a ruleset template and scenario."""
    spec = rulesets.get(ruleset).new_workbook(scenario=scenario, lang=lang, title=title, secret=secret)
    return create_xlsx(spec, target, overwrite=overwrite)
