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

from engine.core import history, meta
from engine.core.errors import CampaignError
from engine.core.layout import norm
from engine.core.messages import _
from engine.core.ruleset import Ruleset
from engine.core.tables import (
    Cell,
    Changeset,
    Grid,
    ReplaceTab,
    Tables,
    WriteBlock,
    apply_changes,
    column_letter,
    is_blank,
)

from .base import Backend
from .sync import _secret, exclusive, private_reports, read, refuse_leak, ruleset_of, settled

META_NAMES = {norm("Кампания"), norm("Campaign")}


def list_turns(backend: Backend) -> list[dict[str, Any]]:
    """The kept turns: number, snapshot hash and size."""
    tables = read(backend)
    return [{"turn": e.turn, "sha256": e.digest, "bytes": e.size} for e in history.entries(tables)]


def rollback(backend: Backend, to: int) -> int:
    """Restore the campaign exactly as it was when turn `to` was open; later snapshots are dropped.

    The dice's secret stays off the sheet: an old campaign's secret (in its meta or its snapshots)
    is moved to the GM's store first, and the restored meta keeps today's campaign id."""
    with exclusive(backend, "rollback"):
        return _rollback(backend, to)


def _rollback(backend: Backend, to: int) -> int:
    real = read(backend)
    sec = _secret(backend, real, need=False)
    tables = sec.tables
    snapshot = settled(history.entry(tables, to).tables(), sec.campaign_id)
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
        restored = meta.settle(snapshot[meta_tab], sec.campaign_id) if sec.campaign_id else snapshot[meta_tab]
        grid = [list(r) + [None] * (width - len(r)) for r in restored]
        grid += [[None] * width for _ in range(max(0, old_rows - len(grid)))]
        changes.marker.append(WriteBlock(meta_tab, 1, 1, grid))
    changes.replace += private_reports(backend, tables, changes)  # players' reports follow the campaign back
    refuse_leak(real, changes, sec.value)
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


def _cell(grid: Grid, r: int, c: int) -> Cell:
    return grid[r][c] if r < len(grid) and c < len(grid[r]) else None


def _differ(a: Cell, b: Cell) -> bool:
    return not (is_blank(a) and is_blank(b)) and a != b


def _first_difference(published: Tables, again: Tables, changes: Changeset, rules: Ruleset) -> str | None:
    """The first cell the turn wrote that the published campaign holds differently, in words.

    Which tabs and cells a turn wrote is read off the re-run's own changeset, so verify needs no
    list of a game's tabs: a replaced tab is compared whole, an appended block cell by cell. The
    history tab is the input of the re-run and is not compared. Rows of an order tab that players
    have rewritten since (the ruleset's ``later_inputs``) are their next orders, not the turn's."""
    inputs = rules.later_inputs(again)
    # the next turn's commitment needs the secret, which a re-run has not: that turn's verify checks it
    skip = {(m, r) for m in [meta.meta_tab(again)] if m
            for r, row in enumerate(again[m]) if r and meta.value_in([[], row], meta.COMMITMENT) is not None}
    whole = [r.tab for r in changes.replace if r.tab != history.HISTORY_TAB]
    for tab in dict.fromkeys(whole):
        a, b = published.get(tab, []), again.get(tab, [])
        cols = inputs.get(tab, [])
        for r in range(max(len(a), len(b))):
            if (tab, r) in skip or (cols and any(_differ(_cell(a, r, c), _cell(b, r, c)) for c in cols)):
                continue  # a row rewritten after the turn: the player's next order
            for c in range(max(len(a[r]) if r < len(a) else 0, len(b[r]) if r < len(b) else 0)):
                if _differ(_cell(a, r, c), _cell(b, r, c)):
                    return _where(tab, r, c, _cell(a, r, c), _cell(b, r, c))
    for block in changes.all_blocks():
        if block.tab == history.HISTORY_TAB or block.tab in whole:
            continue
        a, b = published.get(block.tab, []), again.get(block.tab, [])
        for dr, line in enumerate(block.values):
            for dc in range(len(line)):
                r, c = block.row - 1 + dr, block.col - 1 + dc
                if (block.tab, r) not in skip and _differ(_cell(a, r, c), _cell(b, r, c)):
                    return _where(block.tab, r, c, _cell(a, r, c), _cell(b, r, c))
    return None


def _where(tab: str, r: int, c: int, published: Cell, again: Cell) -> str:
    cell = f"{column_letter(c + 1)}{r + 1}"
    return _("лист «{tab}», ячейка {cell} ({ref}): опубликовано {published}, пересчёт даёт {again}").format(
        tab=tab, cell=cell, ref=f"{tab}!{cell}", published=repr(published), again=repr(again))


def verify(backend: Backend, turn: int) -> Verdict:
    """Re-run turn `turn` from its snapshot with the revealed seed and compare with what was published."""
    tables = read(backend)
    cid = meta.text(tables, meta.CAMPAIGN_ID)  # an old campaign's secret row reads as this id: never shown
    before = settled(history.entry(tables, turn).tables(), cid)
    seed = _seed_of(tables, turn)
    if seed is None:
        raise CampaignError(_("в журнале нет раскрытого зерна хода {turn} — ход ещё не разрешён?").format(turn=turn))
    published = _commitment(before)
    if published != hashlib.sha256(seed.encode()).hexdigest():
        return Verdict(False, _("зерно хода {turn} подменено: sha256({seed}…) ≠ опубликованному до хода {published}…")
                       .format(turn=turn, seed=seed[:12], published=(published or "—")[:12]))
    rules = ruleset_of(before)
    result = rules.resolve(before, expect_turn=turn, seed=seed)
    again = apply_changes(before, result.changes)
    later = [e for e in history.entries(tables) if e.turn == turn + 1]
    after = settled(later[0].tables() if later else tables, cid)
    diff = _first_difference(after, again, result.changes, rules)
    if diff:
        return Verdict(False, _("ход {turn} не совпадает с пересчётом: {diff}").format(turn=turn, diff=diff))
    return Verdict(True, _("ход {turn} подтверждён: зерно совпадает с опубликованным хэшем, пересчёт даёт те же "
                           "таблицы").format(turn=turn))
