"""Check and resolve orchestration: one read, the ruleset's work, one atomic write.

Game-agnostic: the meta tab names the ruleset; the ruleset module does the rest.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine import rulesets
from engine.core.dice import new_secret
from engine.core.errors import CampaignError
from engine.core.layout import norm
from engine.core.tables import Changeset, Tables, WorkbookSpec, apply_changes

from . import secrets
from .base import Backend
from .progress import Progress, Silent
from .xlsx import XlsxBackend, create_xlsx

if TYPE_CHECKING:
    from .gsheets import CreatedCampaign

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
    """How to reach a backend: credentials for Google; nothing for .xlsx.

    ``credentials`` is a service-account JSON key (else ``GOOGLE_APPLICATION_CREDENTIALS``);
    ``oauth_client_secrets`` switches to a person's own Google account, whose refresh token is
    cached in ``token_cache`` (default ``~/.config/strategos/google-token.json``).
    """

    credentials: str | None = None
    oauth_client_secrets: str | None = None
    token_cache: str | None = None


def open_backend(target: str, options: Options | None = None) -> Backend:
    """A backend for a workbook path or a Google spreadsheet id/URL."""
    sid = google_id(target)
    if sid is not None:
        from . import gsheets

        opts = options or Options()
        return gsheets.GoogleBackend.open(
            sid,
            credentials=opts.credentials,
            oauth_client_secrets=opts.oauth_client_secrets,
            token_cache=opts.token_cache,
        )
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


def _secret(backend: Backend) -> str | None:
    """The GM's secret of a Google campaign, kept off the shared sheet (sheets_bridge/secrets.py)."""
    key = getattr(backend, "spreadsheet_id", None)
    return secrets.load(key) if key else None


def check(backend: Backend, progress: Progress | None = None) -> Any:
    """Judge every order of the open turn: one read, the ruleset's check, one write (statuses only)."""
    with exclusive(backend, "check"):
        return _check(backend, progress)


def _check(backend: Backend, progress: Progress | None) -> Any:
    p = progress or Silent()
    tables = _read(backend, p)
    rules = ruleset_of(tables)
    p.start("turn", "Проверка приказов", len(getattr(rules, "PHASES", ())) or 1)
    result = rules.check(tables, secret=_secret(backend), on_phase=lambda name: p.advance("turn", name))
    p.finish("turn")
    _write(backend, result.changes, p)
    return result


def resolve(backend: Backend, turn: int | None = None, progress: Progress | None = None) -> Any:
    """Resolve the open turn (only if it is ``turn``, when given): one read, one atomic write.

    A resolved turn asked again raises TurnMismatch before anything is written.
    """
    with exclusive(backend, "resolve"):
        return _resolve(backend, turn, progress)


def _resolve(backend: Backend, turn: int | None, progress: Progress | None) -> Any:
    p = progress or Silent()
    tables = _read(backend, p)
    rules = ruleset_of(tables)
    p.start("turn", "Разрешение хода", len(getattr(rules, "PHASES", ())) or 1)
    result = rules.resolve(tables, expect_turn=turn, secret=_secret(backend),
                           on_phase=lambda name: p.advance("turn", name))
    result.changes.replace += private_reports(backend, tables, result.changes, rules)
    p.finish("turn")
    _write(backend, result.changes, p)
    return result


def private_reports(backend: Backend, tables: Tables, changes: Changeset, rules: Any = None) -> list[Any]:
    """In a private-orders campaign, each player's own report on the campaign as ``changes`` leave
    it (a tab of their order book, written with the same write); nothing otherwise -- and then
    the changes are not even applied.  ``rules`` defaults to the ruleset the result names."""
    books = getattr(backend, "private_order_tabs", None)
    if not books:
        return []
    after = apply_changes(tables, changes)
    rules = rules or ruleset_of(after)
    if not hasattr(rules, "private_tabs"):
        return []
    return list(rules.private_tabs(after, order_tabs=books))


def exclusive(backend: Backend, command: str) -> contextlib.AbstractContextManager[Any]:
    """Hold the backend's exclusive lock for a command's whole read–compute–write, if it has one.

    An .xlsx campaign has one (XlsxBackend.exclusive, sheets_bridge/xlsx_lock.py): a second
    command on the same file is refused with a message naming the file and who holds it.
    """
    hold = getattr(backend, "exclusive", None)
    return hold(command) if hold is not None else contextlib.nullcontext()


def _read(backend: Backend, p: Progress) -> Tables:
    p.start("read", "Чтение таблицы")
    tables = backend.read()
    p.finish("read")
    return tables


def _write(backend: Backend, changes: Changeset, p: Progress) -> None:
    p.start("write", "Запись итогов")
    backend.write(changes)
    p.finish("write")


def create(target: str, ruleset: str = "ancient", scenario: str = "demo", lang: str = "ru",
           title: str | None = None, overwrite: bool = False, secret: str | None = None) -> str:
    """Create a new campaign workbook from a ruleset template and scenario."""
    spec = rulesets.get(ruleset).new_workbook(scenario=scenario, lang=lang, title=title, secret=secret)
    return create_xlsx(spec, target, overwrite=overwrite)


def create_google(ruleset: str = "ancient", scenario: str = "demo", lang: str = "ru", title: str | None = None,
                  gm: str | None = None, players: Mapping[str, str] | None = None, private_orders: bool = False,
                  options: Options | None = None, secret: str | None = None) -> CreatedCampaign:
    """Create a new campaign as Google spreadsheet(s), protected and shared (see gsheets.create_campaign)."""
    from . import gsheets

    secret = secret or new_secret()
    spec = rulesets.get(ruleset).new_workbook(scenario=scenario, lang=lang, title=title, secret=secret)
    spec = _without_secret(spec, secret)  # players can open the sheet: the dice's secret stays with the GM
    opts = options or Options()
    created = gsheets.create(spec, credentials=opts.credentials, oauth_client_secrets=opts.oauth_client_secrets,
                             token_cache=opts.token_cache, gm=gm, players=players, private_orders=private_orders)
    secrets.save(created.spreadsheet_id, secret)
    return created


def _without_secret(spec: WorkbookSpec, secret: str) -> WorkbookSpec:
    tabs = [dataclasses.replace(t, rows=[r for r in t.rows if secret not in r]) if t.kind == "meta" else t
            for t in spec.tabs]
    return WorkbookSpec(spec.title, tabs)
