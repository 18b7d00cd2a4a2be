"""History, rollback and verification of turns: the same for .xlsx and Google.

Every resolve appends the pre-turn snapshot to the hidden tab «_История» in its own atomic
write (engine/core/history.py). Rollback writes a snapshot back in one atomic write; verify
re-runs a published turn from its snapshot with the seed revealed in the chronicle.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from engine.core import history
from engine.core.errors import CampaignError
from engine.core.layout import norm
from engine.core.tables import (
    Changeset,
    ReplaceTab,
    Tables,
    WriteBlock,
    apply_changes,
    column_letter,
    is_blank,
    trim,
)

from .base import Backend
from .sync import exclusive, private_reports, ruleset_of

META_NAMES = {norm("Кампания"), norm("Campaign")}
# engine-owned tabs compared by verify (players' order tabs and the GM's rules are inputs)
OUTPUT_TABS = ("Государства", "States", "Провинции", "Provinces", "Население", "Population", "Армии", "Armies",
               "Флоты", "Fleets", "Дипломатия", "Diplomacy", "Маршруты", "Trade routes", "Баланс", "Balance")
LOG_TABS = ("Казна", "Ledger", "Журнал", "Chronicle")


def list_turns(backend: Backend) -> list[dict[str, Any]]:
    """The kept turns: number, snapshot hash and size."""
    tables = backend.read()
    return [{"turn": e.turn, "sha256": e.digest, "bytes": e.size} for e in history.entries(tables)]


def rollback(backend: Backend, to: int) -> int:
    """Restore the campaign exactly as it was when turn `to` was open; later snapshots are dropped."""
    with exclusive(backend, "rollback"):
        return _rollback(backend, to)


def _rollback(backend: Backend, to: int) -> int:
    tables = backend.read()
    snapshot = history.entry(tables, to).tables()
    changes = Changeset()
    meta_tab = next((n for n in snapshot if norm(n) in META_NAMES), None)
    for name, grid in snapshot.items():
        if name == meta_tab:
            continue
        changes.replace.append(ReplaceTab(name, [list(r) for r in grid]))
    for name in tables:
        if name not in snapshot and name != history.HISTORY_TAB:
            changes.replace.append(ReplaceTab(name, []))
    changes.replace.append(ReplaceTab(history.HISTORY_TAB, history.history_grid(tables, keep_before=to)))
    # notes explain the numbers of the undone turns: they go (the next resolve writes new ones)
    changes.clear_notes += [name for name in snapshot if name in tables and name != meta_tab]
    if meta_tab is not None:
        width = max((len(r) for r in tables.get(meta_tab, [])), default=2)
        old_rows = len(tables.get(meta_tab, []))
        grid = [list(r) + [None] * (width - len(r)) for r in snapshot[meta_tab]]
        grid += [[None] * width for _ in range(max(0, old_rows - len(grid)))]
        changes.marker.append(WriteBlock(meta_tab, 1, 1, grid))
    changes.replace += private_reports(backend, tables, changes)  # players' reports follow the campaign back
    backend.write(changes)
    return to


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str


def _seed_of(tables: Tables, turn: int) -> str | None:
    for name in tables:
        if norm(name) in (norm("Журнал"), norm("Chronicle")):
            for row in tables[name][1:]:
                if len(row) > 1 and row[0] == turn:
                    m = re.search(r"(?:Зерно хода|Seed of turn) \d+: ([0-9a-f]{64})", str(row[1]))
                    if m:
                        return m.group(1)
    return None


def _commitment(tables: Tables) -> str | None:
    for name in tables:
        if norm(name) in META_NAMES:
            for row in tables[name][1:]:
                if len(row) > 1 and norm(row[0]) in (norm("Хэш зерна хода (sha256)"), norm("Turn seed hash (sha256)")):
                    return str(row[1])
    return None


def _first_difference(expected: Tables, got: Tables, turn: int) -> str | None:
    for name in OUTPUT_TABS:
        if name not in expected and name not in got:
            continue
        a, b = expected.get(name, []), got.get(name, [])
        for r in range(max(len(a), len(b))):
            ra, rb = (a[r] if r < len(a) else []), (b[r] if r < len(b) else [])
            for c in range(max(len(ra), len(rb))):
                va = ra[c] if c < len(ra) else None
                vb = rb[c] if c < len(rb) else None
                if not (is_blank(va) and is_blank(vb)) and va != vb:
                    return f"{name}!{column_letter(c + 1)}{r + 1}: опубликовано {va!r}, пересчёт даёт {vb!r}"
    for name in LOG_TABS:
        rows_a = trim([r for r in expected.get(name, [])[1:] if r and r[0] == turn])
        rows_b = trim([r for r in got.get(name, [])[1:] if r and r[0] == turn])
        for i in range(max(len(rows_a), len(rows_b))):
            ra = rows_a[i] if i < len(rows_a) else None
            rb = rows_b[i] if i < len(rows_b) else None
            if ra != rb:
                return f"{name}, запись {i + 1} хода {turn}: опубликовано {ra!r}, пересчёт даёт {rb!r}"
    return None


def verify(backend: Backend, turn: int) -> Verdict:
    """Re-run turn `turn` from its snapshot with the revealed seed and compare with what was published."""
    tables = backend.read()
    before = history.entry(tables, turn).tables()
    seed = _seed_of(tables, turn)
    if seed is None:
        raise CampaignError(f"в журнале нет раскрытого зерна хода {turn} — ход ещё не разрешён?")
    published = _commitment(before)
    if published != hashlib.sha256(seed.encode()).hexdigest():
        return Verdict(False, f"зерно хода {turn} подменено: sha256({seed[:12]}…) ≠ опубликованному до хода "
                              f"{(published or '—')[:12]}…")
    result = ruleset_of(before).resolve(before, expect_turn=turn, seed=seed)
    again = apply_changes(before, result.changes)
    later = [e for e in history.entries(tables) if e.turn == turn + 1]
    after = later[0].tables() if later else tables
    diff = _first_difference(after, again, turn)
    if diff:
        return Verdict(False, f"ход {turn} не совпадает с пересчётом: {diff}")
    return Verdict(True, f"ход {turn} подтверждён: зерно совпадает с опубликованным хэшем, пересчёт даёт те же таблицы")
