"""History, rollback and verification of turns: the same for .xlsx and Google.

Every resolve appends the pre-turn snapshot to the hidden tab «_История» in its own atomic
write (engine/core/history.py). Rollback writes a snapshot back in one atomic write; verify
re-runs a published turn from its snapshot with the seed its resolve revealed.

Every one of them takes a cursor (engine/core/cursor.py): a turn number in a one-stage game,
«3:города» or «12:бой:2» where the ruleset's calendar has stages. The seed and the commitment are
read from the meta tab's own cells (engine/core/meta.py), never from a ruleset's wording: the seed
of window C is in the meta as it was when the window after C was open (the next snapshot, or
the live campaign for the last resolved window). A campaign resolved before that cell existed
has its seed looked up by the ruleset (``seed_lookup``; a game may read it from its chronicle).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core import draw, history, i18n, kept, logs, meta, tabs
from engine.core.cursor import Cursor
from engine.core.dice import commitment, cursor_seed, drawn_secret
from engine.core.errors import CampaignError, UsageError
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

from . import secrets
from .base import Backend
from .sync import _secret, cursor_of, exclusive, private_reports, read_all, refuse_leak, ruleset_of, settled

SeedLookup = Callable[[Tables, Cursor], "str | None"]


def list_turns(backend: Backend) -> list[dict[str, Any]]:
    """The kept windows: turn, cursor (in the campaign's words: «3», «3:города»), snapshot hash and size."""
    tables = read_all(backend)
    kept = history.entries(tables)
    if not kept:
        return []
    calendar, _open = cursor_of(tables)
    lang = i18n.current()
    out = []
    for e in kept:
        shown = calendar.format(e.cursor, lang) if e.cursor.stage else str(e.turn)
        out.append({"turn": e.turn, "cursor": shown, "sha256": e.digest, "bytes": e.size})
    return out


def reported(tables: Tables, rules: Ruleset, asked: str | None) -> int | Cursor:
    """What ``report --turn`` asks for, refused in words unless it has been played: nothing asked,
    the last resolved turn; a number, that turn (every window of it; it must be resolved, at least in
    part); «3:города», that window alone (it must be in the history: resolved and not rolled back)."""
    last = rules.reporter.last_resolved(tables)
    if last < 1:
        raise UsageError(_("ещё ни один ход не разрешён — отчитываться не о чем"))
    if asked is None:
        return last
    text = str(asked).strip()
    if text.isdigit():
        turn = int(text)
        if not 1 <= turn <= last:
            raise UsageError(_("ход {turn} ещё не сыгран: последний разрешённый ход — {last}. Отчёт о ходе "
                               "пишется после его разрешения; ничего не записано.").format(turn=turn, last=last))
        return turn
    calendar, at = cursor_of(tables, text)
    kept = [e.cursor for e in history.entries(tables)]
    if at not in kept:
        lang = i18n.current()
        raise UsageError(_("окно «{window}» ещё не разрешено (разрешены: {kept}). Отчёт об окне пишется после "
                           "его разрешения; ничего не записано.").format(
            window=calendar.format(at, lang), kept=", ".join(calendar.format(c, lang) for c in kept) or _("нет")))
    return at


@dataclass(frozen=True)
class Rolled:
    """What a rollback did: the window reopened, whether its orders were kept, the draw the
    windows now open for orders get their seeds from, and the open window's published commitment."""

    cursor: Cursor
    kept_orders: bool
    draw: int
    commitment: str
    redrawn: bool = True  # False: the orders kept and no seed after the window out, so no new draw
    set_aside: tuple[str, ...] = ()  # where what the players had typed since is kept (Backend.set_aside_typed)


def rollback(backend: Backend, to: Cursor | int | str, reopen_orders: bool = False) -> Rolled:
    """Restore the campaign exactly as it was when window `to` was open («3», «3:города»); later
    snapshots are dropped.

    The seeds of `to` and of the windows after it were revealed when they were resolved, so the
    windows reopened for orders get new dice (engine/core/draw.py). By default (``keep-orders``)
    window `to` keeps the orders it had and its seed: the GM fixes what was wrong and resolves it
    again with the same, verifiable dice, and its resolve refuses while a player's cell differs
    from the kept copy (engine/core/kept.py); the windows after it get a new draw. With
    ``reopen_orders`` players may change the orders of `to` too, and `to` gets a new draw at once:
    its new commitment is published now (this needs the GM's secret). The meta's «Последний откат»
    says which, in the campaign's language.

    The dice's secret stays off the sheet: an old campaign's secret (in its meta or its snapshots)
    is moved to the GM's store first, and the restored meta keeps today's campaign id."""
    with exclusive(backend, "rollback"):
        return _rollback(backend, to, reopen_orders)


def _cursor(tables: Tables, at: Cursor | int | str) -> Cursor:
    """`at` as a cursor: a number is a stage-less turn, as before stages; text («3:города», what the
    GM typed) is read by the campaign's calendar (a CursorError in words when it is not one of its)."""
    if isinstance(at, Cursor):
        return at
    if isinstance(at, int):
        return Cursor(at)
    return cursor_of(tables, at)[1]


def _rollback(backend: Backend, at: Cursor | int | str, reopen_orders: bool) -> Rolled:
    real = read_all(backend)
    to = _cursor(real, at)
    sec = _secret(backend, real, need=False)
    tables = sec.tables
    calendar, open_ = cursor_of(tables)
    lang = i18n.current()
    if reopen_orders and not sec.value:
        raise secrets.missing(sec.campaign_id)
    held = kept.read(tables)
    changes = Changeset()
    if reopen_orders and to == open_ and held is not None and held[0] == to:
        snapshot = tables  # the window a rollback kept, reopened now: the campaign stays, its dice change
        meta_tab = meta.meta_tab(snapshot)
    else:
        snapshot = settled(history.entry(tables, to, calendar, lang).tables(), sec.campaign_id)
        meta_tab = meta.meta_tab(snapshot)
        _restore(tables, snapshot, to, changes)
    new_draw = draw.latest(tables) + 1  # no window has had it: unknown to players until revealed
    if not reopen_orders and not draw.revealed_after(tables, to):
        new_draw -= 1  # no seed after `to` is out: the windows after it keep the campaign's draw
    window = calendar.format(to, lang) if to.stage else str(to.turn)
    if reopen_orders:
        changes.replace += kept.cleared(tables)
    else:
        held = kept.held_columns(ruleset_of(snapshot), snapshot)
        changes.replace.append(kept.keep(snapshot, to, held, tables, meta.lang(snapshot) or lang))
    published = meta.text(snapshot, meta.COMMITMENT)
    if meta_tab is not None:
        width = max((len(r) for r in tables.get(meta_tab, [])), default=2)
        old_rows = len(tables.get(meta_tab, []))
        restored = meta.settle(snapshot[meta_tab], sec.campaign_id) if sec.campaign_id else snapshot[meta_tab]
        restored, published = _redrawn(restored, to, new_draw, window, sec.value if reopen_orders else None,
                                       meta.lang(snapshot) or lang, draw.open_draw(snapshot))
        grid = [list(r) + [None] * (width - len(r)) for r in restored]
        grid += [[None] * width for _ in range(max(0, old_rows - len(grid)))]
        changes.marker.append(WriteBlock(meta_tab, 1, 1, grid))
    changes.replace += private_reports(backend, tables, changes)  # players' reports follow the campaign back
    refuse_leak(real, changes, sec.value)
    aside = tuple(backend.set_aside_typed())
    backend.write(changes)
    return Rolled(to, not reopen_orders, new_draw, published, reopen_orders or new_draw != draw.open_draw(snapshot),
                  aside)


def _restore(tables: Tables, snapshot: Tables, to: Cursor, changes: Changeset) -> None:
    """Every tab of the campaign back as `snapshot` holds it (a tab it has not is emptied; the
    meta is the caller's), the history cut before `to` (and with it the log rows the undone windows
    moved out: engine/core/logs.py), the undone turns' notes gone."""
    meta_tab = meta.meta_tab(snapshot)
    own = kept.KEPT.found_in(tables)
    for name, grid in snapshot.items():
        if name == meta_tab or kept.KEPT.owns(name) or history.is_store(name):
            continue
        changes.replace.append(ReplaceTab(name, [list(r) for r in grid]))
    for name in tables:
        if name not in snapshot and not history.is_store(name) and name != own:
            changes.replace.append(ReplaceTab(name, []))
    changes.replace.append(ReplaceTab(history.tab_of(tables), history.history_grid(tables, keep_before=to)))

    # notes explain the numbers of the undone turns: they go (the next resolve writes new ones)
    changes.clear_notes += [name for name in snapshot if name in tables and name != meta_tab]


def _redrawn(grid: Grid, to: Cursor, new_draw: int, window: str, secret: str | None, lang: str,
             own: int) -> tuple[Grid, str]:
    """The restored meta with the rollback's draw and its words, and the open window's commitment.
    With `secret` (orders reopened) window `to` itself gets draw `new_draw` and its new commitment;
    without, `to` keeps its draw `own` and its commitment, and the windows after it get `new_draw`."""
    with i18n.using(lang):
        if secret is None:
            grid = meta.put(grid, meta.NEXT_DRAW, new_draw if new_draw != own else None, lang)
            said = _("к окну {window}: приказы окна сохранены, зерно прежнее (его хэш не изменился), окно "
                     "разрешается заново с теми же приказами; ") + (
                _("со следующего окна — новый жребий № {draw}") if new_draw != own else
                _("зёрна следующих окон не раскрывались, жребий прежний"))
        else:
            grid = meta.put(grid, meta.DRAW, new_draw, lang)
            grid = meta.put(grid, meta.NEXT_DRAW, None, lang)
            fresh = commitment(cursor_seed(drawn_secret(secret, new_draw), to))
            grid = meta.put(grid, meta.COMMITMENT, fresh, lang)
            said = _("к окну {window}: приказы открыты заново, жребий № {draw} — новый хэш зерна опубликован "
                     "(прежнее зерно окна раскрыто и больше не действует)")
        grid = meta.put(grid, meta.ROLLBACK, said.format(window=window, draw=new_draw), lang)
        grid = meta.put(grid, meta.RECOUNT, window, lang)  # its resolve's chronicle says what was chosen
    return grid, str(meta.value_in(grid, meta.COMMITMENT) or "")


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str


def _seed_of(tables: Tables, at: Cursor, lookup: SeedLookup | None) -> str | None:
    """The seed window `at`'s resolve revealed: the meta's «Раскрытое зерно» as it stood when the
    next window was open (the snapshot after `at`'s, else the live campaign); for a campaign
    resolved before that cell existed, what the ruleset's `lookup` finds (in the live campaign)."""
    later = history.following(tables, at)
    after = later.tables() if later is not None else tables
    return meta.revealed_seed(after) or (lookup(logs.expanded(tables), at) if lookup is not None else None)


def _commitment(tables: Tables) -> str | None:
    """The commitment the meta published while the window was open (None without one)."""
    value = meta.value(tables, meta.COMMITMENT)
    return None if is_blank(value) else str(value)


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
    # the next turn's commitment needs the secret, which a re-run has not: that turn's verify checks it;
    # the revealed seed is checked against the commitment (and a campaign resolved before it has none)
    # the draw rows are the campaign's after a rollback, not a window's result (engine/core/draw.py)
    skip = {(m, r) for m in [meta.meta_tab(again), meta.meta_tab(published)] if m
            for grid in (again.get(m, []), published.get(m, [])) for r, row in enumerate(grid)
            if r and any(meta.is_row(row, labels) for labels in (meta.COMMITMENT, meta.REVEALED_SEED, *draw.ROWS))}
    whole = [r.tab for r in changes.replace if not history.is_history(r.tab)]
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
        if history.is_history(block.tab) or block.tab in whole:
            continue
        a, b = published.get(block.tab, []), again.get(block.tab, [])
        for dr, line in enumerate(block.values):
            for dc in range(len(line)):
                r, c = block.row - 1 + dr, block.col - 1 + dc
                if (block.tab, r) not in skip and _differ(_cell(a, r, c), _cell(b, r, c)):
                    return _where(block.tab, r, c, _cell(a, r, c), _cell(b, r, c))
    return None


def _shown(now: Tables, tab: str) -> Grid:
    """Tab `tab` as the campaign shows it now: by its title, else the one tab whose title reads the
    same to a person (a log retitled «Журнал », or with a look-alike letter, is still that log)."""
    if tab in now:
        return now[tab]
    same = [name for name in now if tabs.tab_key(name) == tabs.tab_key(tab)]
    return now[same[0]] if len(same) == 1 else []


def _log_difference(now: Tables, after: Tables, again: Tables, changes: Changeset, turn: str) -> str | None:
    """The first row a window appended to a log that the campaign shows differently now, in words.

    A log's rows (chronicle, ledger, battles, the order archive: the blocks `session.append_rows`
    marks `log`) are never rewritten by a later window, so each window's own rows must still be
    there, cell for cell, in the campaign as it is now -- not only in the snapshot taken right
    after the window, which a later edit does not reach. Below them the log ended when the window
    did (`after`: the next snapshot, or the campaign itself for the last window): a row found there
    was added by hand. The header row of a new log is not held (a retitled column is no result)."""
    for block in changes.blocks:
        if not block.log or history.is_history(block.tab):
            continue
        shown, b = _shown(now, block.tab), again.get(block.tab, [])
        for dr, line in enumerate(block.values):
            r = block.row - 1 + dr
            for c in range(len(line)) if r else ():
                if _differ(_cell(shown, r, c), _cell(b, r, c)):
                    return _where(block.tab, r, c, _cell(shown, r, c), _cell(b, r, c))
        end = block.row - 1 + len(block.values)
        grid = _shown(after, block.tab)
        extra = next((r for r in range(end, len(grid)) if not all(is_blank(v) for v in grid[r])), None)
        if extra is not None:
            text = _("лист «{tab}», строка {row}: ниже строк хода {turn} строка, которой не писал ни один ход: "
                     "{values}")
            return text.format(tab=block.tab, row=extra + 1, turn=turn,
                               values=repr([v for v in grid[extra] if not is_blank(v)]))
        forged = _labelled_later(shown, block, max(end, len(grid)))
        if forged is not None:
            text = _("лист «{tab}», строка {row}: строка с меткой хода {turn} ниже строк следующих ходов — этот ход "
                     "её не писал: {values}")
            return text.format(tab=block.tab, row=forged + 1, turn=turn,
                               values=repr([v for v in shown[forged] if not is_blank(v)]))
    return None


def _label(line: list[Cell]) -> str:
    """A log row's label: its first cell («1:города», a turn number) as text, '' when blank."""
    return "" if not line or is_blank(line[0]) else norm(str(line[0]))


def _labelled_later(shown: Grid, block: WriteBlock, start: int) -> int | None:
    """The first row from ``start`` on (below what the window and the windows after it wrote) that
    carries the label of one of ``block``'s rows: a row added by hand under the window's name (each
    window labels its log rows with its own cursor, so no later window writes that label)."""
    labels = {_label(line) for dr, line in enumerate(block.values) if block.row - 1 + dr} - {""}
    return next((r for r in range(start, len(shown)) if _label(shown[r]) in labels), None)


def _where(tab: str, r: int, c: int, published: Cell, again: Cell) -> str:
    cell = f"{column_letter(c + 1)}{r + 1}"
    return _("лист «{tab}», ячейка {cell} ({ref}): опубликовано {published}, пересчёт даёт {again}").format(
        tab=tab, cell=cell, ref=f"{tab}!{cell}", published=repr(published), again=repr(again))


def verify(backend: Backend, at: Cursor | int | str, seed_lookup: SeedLookup | None = None) -> Verdict:
    """Re-run window `at` («3», «3:города») from its snapshot with the revealed seed and compare with
    what was published. `seed_lookup` finds the seed of a campaign resolved before the meta kept it
    in its own cell (default: the ruleset's ``chronicle_seed``)."""
    tables = read_all(backend)
    at = _cursor(tables, at)
    turn = cursor_of(tables)[0].format(at, i18n.current()) if at.stage else str(at.turn)
    cid = meta.text(tables, meta.CAMPAIGN_ID)  # an old campaign's secret row reads as this id: never shown
    # the campaign as it was when `at` was open, its logs whole (the rows archived before `at` put back)
    before = settled(logs.expanded(tables, history.entry(tables, at, cursor_of(tables)[0], i18n.current()).tables(),
                                   at), cid)
    rules = ruleset_of(before)
    seed = _seed_of(tables, at, seed_lookup or rules.chronicle_seed)
    if seed is None:
        raise CampaignError(_("нет раскрытого зерна хода {turn} — ход ещё не разрешён?").format(turn=turn))
    published = _commitment(before)
    if published != hashlib.sha256(seed.encode()).hexdigest():
        return Verdict(False, _("зерно хода {turn} подменено: sha256({seed}…) ≠ опубликованному до хода {published}…")
                       .format(turn=turn, seed=seed[:12], published=(published or "—")[:12]))
    result = rules.resolve(before, expect=at, seed=seed)
    again = apply_changes(before, result.changes)
    later = history.following(tables, at)
    after = settled(logs.expanded(tables, later.tables(), later.cursor) if later is not None
                    else logs.expanded(tables), cid)
    diff = _first_difference(after, again, result.changes, rules) or _log_difference(
        settled(logs.expanded(tables), cid), after, again, result.changes, turn)
    if diff:
        return Verdict(False, _("ход {turn} не совпадает с пересчётом: {diff}").format(turn=turn, diff=diff))
    return Verdict(True, _("ход {turn} подтверждён: зерно совпадает с опубликованным хэшем, пересчёт даёт те же "
                           "таблицы").format(turn=turn))
