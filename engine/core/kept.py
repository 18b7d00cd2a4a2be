"""The orders a rollback keeps: `rollback --keep-orders` reopens a window with the orders it had.

Why: the window's seed is already revealed. The GM may fix what was wrong (a number, a rule) and
resolve it again with the same, verifiable dice -- but only with the same orders, or a player who
has read the seed could change theirs. The rollback therefore keeps a copy of the window's order
tabs in the hidden, GM-only tab «_Приказы отката» ("_Kept orders"); the next resolve of that
window refuses, naming tab and cell, while any cell players type differs from the copy (nothing
a player typed is overwritten: the GM restores it, or rolls back with new dice instead), and
empties the tab when it resolves. A check says the same as a warning.

Which cells: the order tabs' input columns (`Ruleset.later_inputs`) less the columns a check
writes (statuses, reasons, echoes: a check after the rollback may word them anew). The copy is
packed like a history snapshot (engine/core/history.py), with the columns under the key "".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from . import history, i18n
from .audience import GM
from .cursor import Calendar, Cursor, from_key
from .errors import CampaignError
from .messages import _
from .tables import Cell, CoreTab, Grid, ReplaceTab, Tables, TabSpec, column_letter, is_blank

KEPT = CoreTab("_Приказы отката", "_Kept orders")
if TYPE_CHECKING:
    from .ruleset import Ruleset

SHOWN = 5  # changed cells named in a message; the rest are counted


def held_columns(rules: Ruleset, snapshot: Tables) -> dict[str, list[int]]:
    """Order tab -> the 0-based columns players type in it: the ruleset's `later_inputs` less the
    columns a check of the window writes (found by running the check on the snapshot: no game's
    layout is named here). A snapshot the check refuses keeps every input column."""
    inputs = rules.later_inputs(snapshot)
    try:
        checked = rules.check(snapshot).changes
    except CampaignError:
        return {tab: list(cols) for tab, cols in inputs.items()}
    written = {b.col - 1 + c for b in checked.all_blocks() if b.tab in inputs
               for c in range(max((len(r) for r in b.values), default=0))}
    return {tab: [c for c in cols if c not in written] for tab, cols in inputs.items()}


def keep(snapshot: Tables, at: Cursor, held: Mapping[str, Sequence[int]], tables: Tables,
         lang: str) -> ReplaceTab:
    """The kept-orders tab of window `at`: the order tabs of `snapshot` and their held columns."""
    data: Tables = {tab: [list(r) for r in snapshot.get(tab, [])] for tab in held}
    data[""] = [[tab, *cols] for tab, cols in held.items()]
    name = KEPT.found_in(tables) or KEPT.title(lang)
    grid: Grid = [history.header(), history.row_for(at, data)]
    return ReplaceTab(name, grid, TabSpec(name, [], hidden=True, kind="meta"), audience=GM)


def cleared(tables: Tables) -> list[ReplaceTab]:
    """The kept-orders tab emptied (its window resolved, or reopened with new dice); nothing when
    the campaign has none."""
    name = KEPT.found_in(tables)
    return [ReplaceTab(name, [], audience=GM)] if name and tables.get(name) else []


def without(tables: Tables) -> Tables:
    """The campaign without the kept-orders tab: what a ruleset resolves (its snapshot is not
    weighed down with a second copy of the order tabs)."""
    name = KEPT.found_in(tables)
    return {k: v for k, v in tables.items() if k != name} if name else tables


def read(tables: Tables) -> tuple[Cursor, Tables, dict[str, list[int]]] | None:
    """(the kept window, its order tabs, their held columns), or None when no orders are kept."""
    name = KEPT.found_in(tables)
    grid = tables.get(name or "", [])
    row = grid[1] if len(grid) > 1 else []
    if not row or is_blank(row[0]):
        return None
    where = _("лист «{tab}», строка 2").format(tab=name)
    try:
        at, n = from_key(row[0]), int(row[2])  # type: ignore[arg-type]
    except (TypeError, ValueError, IndexError):
        raise CampaignError(_("{where} повреждён: в столбцах A и C должны быть окно и число частей").format(
            where=where)) from None
    data = history.unpack([str(c or "") for c in row[3:3 + n]], str(row[1]), where)
    cols = {str(r[0]): [int(c) for c in r[1:] if isinstance(c, (int, float))] for r in data.pop("", []) if r}
    return at, data, cols


def _cell(grid: Grid, r: int, c: int) -> Cell:
    return grid[r][c] if r < len(grid) and c < len(grid[r]) else None


def changes(tables: Tables, open_: Cursor) -> list[str]:
    """Each cell players type that differs from the copy kept for the open window `open_`, in
    words: «лист «…», ячейка C3: при откате «…», теперь «…»» (a missing
    order tab is named too). Nothing when no orders are kept for that window."""
    found = read(tables)
    if found is None or found[0] != open_:
        return []
    _at, data, held = found
    out: list[str] = []
    for tab, cols in held.items():
        if tab not in tables:
            out.append(_("нет листа «{tab}»").format(tab=tab))
            continue
        was, now = data.get(tab, []), tables[tab]
        for r in range(1, max(len(was), len(now))):
            for c in cols:
                a, b = _cell(was, r, c), _cell(now, r, c)
                if not (is_blank(a) and is_blank(b)) and a != b:
                    out.append(_("лист «{tab}», ячейка {cell}: при откате {was}, теперь {now}").format(
                        tab=tab, cell=f"{column_letter(c + 1)}{r + 1}", was=_quoted(a), now=_quoted(b)))
    return out


def _quoted(value: Cell) -> str:
    return _("пусто") if is_blank(value) else f"«{value}»"


def summary(found: list[str]) -> str:
    """The first changed cells and how many more, for one message."""
    more = len(found) - SHOWN
    text = "; ".join(found[:SHOWN])
    return text + (_(" и ещё {n}").format(n=more) if more > 0 else "")


def refuse_changed(tables: Tables, calendar: Calendar, open_: Cursor) -> None:
    """A CampaignError naming the changed cells when the open window's kept orders were changed."""
    found = changes(tables, open_)
    if found:
        window = calendar.format(open_, i18n.current()) if open_.stage else str(open_.turn)
        raise CampaignError(_("окно {window} открыто откатом с сохранёнными приказами (--keep-orders): его разрешают с "
                              "теми же приказами и тем же зерном, а после отката изменено: {cells}. Верните прежнее "
                              "или откатите заново с --reopen-orders (приказы открыты, новый жребий). Ничего не "
                              "изменено.").format(window=window, cells=summary(found)))


def warning(tables: Tables, open_: Cursor) -> list[str]:
    """What a check says when the open window's kept orders were changed (its resolve will refuse)."""
    found = changes(tables, open_)
    if not found:
        return []
    return [_("приказы этого окна сохранены откатом (--keep-orders), а после отката изменено: {cells}. Разрешение "
              "откажет, пока не вернуть прежнее.").format(cells=summary(found))]
