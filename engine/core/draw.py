"""The draw of a campaign's dice: which secret a window's seed comes from after rollbacks.

Why: a resolve reveals its window's seed (the chronicle, the forum post, the meta's «Раскрытое
зерно»). A rollback that reopened that window -- or a later one whose seed is out too -- with the
same seed would let players choose orders knowing the dice. So a rollback starts a new *draw*: the
windows it reopens for orders get seeds from `dice.drawn_secret(secret, n)`, unknown to players
until revealed, and their new commitments are published in the meta as always.

Two meta rows hold the draw (engine/core/meta.py), both absent in a campaign never rolled back,
whose meta and seeds stay exactly as before:

* «Номер жребия» -- the draw of the open window's seed (the one its published commitment hashes);
* «Номер жребия со следующего окна» -- only after a rollback that kept a window's orders and its
  seed (`rollback --keep-orders`): the draw of every window after it.

A game derives its seeds and its next commitment from the secret it is given, so the bridge gives
it the drawn secret (`secrets`) and carries the rows into the meta the game writes (`carry`):
no game knows of draws. «Последний откат» says in words what the last rollback did, and «Окно после
отката» names the window a rollback reopened until it resolves: that resolve's chronicle opens with
what the GM chose (`chronicle_line`, which every game tells first), so a re-run of it (verify) tells
the same.
"""

from __future__ import annotations

import dataclasses

from . import history, kept, meta
from .cursor import Cursor
from .dice import drawn_secret
from .errors import CampaignError
from .messages import _
from .tables import Changeset, Tables

#: The meta rows of the draw (and the rollback's words): verify does not hold a window to them,
#: they are the campaign's, not a window's result (the seed itself is checked against its hash).
ROWS = (meta.DRAW, meta.NEXT_DRAW, meta.ROLLBACK, meta.RECOUNT)


def _number(tables: Tables, labels: tuple[str, ...]) -> int | None:
    """The whole number of a draw row; None when the row is absent or blank. Anything else is a
    CampaignError naming the tab and the row (a hand-edited meta)."""
    text = meta.text(tables, labels)
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if value < 0 or value != int(value):
        raise CampaignError(_("на листе «{tab}» в строке «{label}» должно быть целое число не меньше 0, а там "
                              "«{value}»").format(tab=meta.meta_tab(tables), label=labels[0], value=text))
    return int(value)


def open_draw(tables: Tables) -> int:
    """The draw of the open window's seed (0: the campaign's first)."""
    return _number(tables, meta.DRAW) or 0


def next_draw(tables: Tables) -> int:
    """The draw of the windows after the open one: the open window's, unless a rollback kept it."""
    found = _number(tables, meta.NEXT_DRAW)
    return open_draw(tables) if found is None else found


def latest(tables: Tables) -> int:
    """The highest draw the campaign has used or promised: a new draw is one more."""
    return max(open_draw(tables), next_draw(tables))


def revealed_after(tables: Tables, at: Cursor) -> bool:
    """Whether the seed of some window after `at` may be out under the campaign's latest draw: a
    window after it is resolved (its snapshot follows `at`'s), or the open window is one a rollback
    kept with its revealed seed. Then a rollback to `at` that keeps its orders must still draw anew
    for the windows after it; otherwise their draw is unknown to players and stays."""
    return (history.following(tables, at) is not None or meta.value(tables, meta.NEXT_DRAW) is not None
            or kept.read(tables) is not None)


def secrets(tables: Tables, secret: str) -> tuple[str, str]:
    """(the secret of the open window's seed, the secret of the windows after it)."""
    return drawn_secret(secret, open_draw(tables)), drawn_secret(secret, next_draw(tables))


def carry(tables: Tables, changes: Changeset) -> None:
    """Put the draw rows into the meta a resolve writes (its marker): the next window's draw is
    «Номер жребия», the kept window's own row goes, «Последний откат» stays. Nothing changes for a
    campaign never rolled back."""
    tab = meta.meta_tab(tables)
    rows = {meta.DRAW: next_draw(tables) or None, meta.NEXT_DRAW: None,
            meta.ROLLBACK: meta.text(tables, meta.ROLLBACK) or None, meta.RECOUNT: None}
    if tab is None or not any(meta.value(tables, labels) is not None for labels in ROWS):
        return
    lang = meta.lang(tables) or "ru"
    for i, block in enumerate(changes.marker):
        if block.tab == tab and block.row == 1 and block.col == 1:
            grid = block.values
            for labels, value in rows.items():
                grid = meta.put(grid, labels, value, lang)
            changes.marker[i] = dataclasses.replace(block, values=grid)


def chronicle_line(tables: Tables) -> str | None:
    """The chronicle's first line for the window a rollback reopened (the open one, until it
    resolves): what the GM chose, in the campaign's language; None for every other window."""
    window = meta.text(tables, meta.RECOUNT)
    if not window:
        return None
    return _("Окно {window} разрешается заново после отката: {what}").format(
        window=window, what=meta.text(tables, meta.ROLLBACK) or "—")
