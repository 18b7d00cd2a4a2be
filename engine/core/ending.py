"""The end of a campaign: the meta row that says the game is over, and the refusal of what it ends.

Why in the core: every game ends its own way (after a last turn once a top technology is known, at
a goal of gold), but what an ended campaign looks like is the same for all.
The game decides *when*: its `Ruleset.victory` is not None exactly when the game is over (the
winners may be none). The resolve of the window that ends it writes, as its marker and in the same
atomic write, the meta this module makes (`finished_grid`, via `session.finished_marker`): the row
«Игра окончена»/"Game over" with the winners and the reason in the campaign's words, right under
the header, and no commitment, for no window's dice will be drawn again. The cursor rows name the
window that would have followed, so history, report, verify and rollback read the campaign as they
always do (every window before the cursor is resolved).

After that the bridge refuses check and resolve (`refuse`: a `GameOver` naming why and what still
works). A rollback restores a snapshot's meta -- taken before the end -- so a rollback to the last
window reopens the game, and its resolve may end it again.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import history, i18n, meta
from .cursor import Calendar
from .errors import GameOver
from .messages import _
from .tables import Cell, Grid, Tables


@dataclass(frozen=True)
class Victory:
    """Who has won and why (`Ruleset.victory`): the winning sides (several for a shared victory)
    and the reason in the campaign's language, as the resolve's notice tells the GM."""

    winners: tuple[str, ...]
    reason: str


def words(won: Victory) -> str:
    """Why the game is over, in the current language: the winners, then the game's reason (a game
    that ends with no winner gives the reason alone)."""
    if not won.winners:
        return won.reason
    return _("победа — {winners}. {reason}").format(winners=", ".join(won.winners), reason=won.reason)


def finished_grid(grid: Grid, won: Victory, lang: str) -> Grid:
    """The meta grid `grid` (as the game would open its next window) made the meta of a finished
    campaign: the row «Игра окончена» with `words(won)` in `lang` right under the header (a row it
    had is rewritten in place), the commitment row gone. The height never grows by more than the
    new row, so the marker pads it to the tab's old height as any meta."""
    with i18n.using(lang):
        said: Cell = words(won)
    out = [list(r) for r in grid if not (r and meta.is_row(r, meta.COMMITMENT))]
    at = next((i for i, r in enumerate(out) if i and meta.is_row(r, meta.FINISHED)), None)
    if at is not None:
        out[at] = [out[at][0], said, *out[at][2:]]
        return out
    width = max(2, *(len(r) for r in out)) if out else 2
    row: list[Cell] = [meta.FINISHED[1 if lang == "en" else 0], said, *[None] * (width - 2)]
    return [*out[:1], row, *out[1:]]


def last_window(tables: Tables, calendar: Calendar, lang: str) -> str:
    """The last resolved window in the campaign's words («15:города», «7»; '' when none is kept)."""
    kept = history.entries(tables)
    if not kept:
        return ""
    at = kept[-1].cursor
    return calendar.format(at, lang) if at.stage else str(at.turn)


def refuse(tables: Tables, calendar: Calendar, command: str) -> None:
    """Refuse `command` («check», «resolve») on a finished campaign with a GameOver in the current
    language: why the game ended, that nothing was written, and what still works (history, report,
    verify, rollback -- the last of which reopens the game). Nothing while the game goes on."""
    why = meta.finished(tables)
    if why is None:
        return
    last = last_window(tables, calendar, i18n.current())
    said = _("Игра окончена: {why}").format(why=why) if why else _("Игра окончена.")
    raise GameOver(" ".join([said.rstrip(), _(
        "Команда {command} больше не выполняется: приказы не принимаются, ничего не записано. Работают history "
        "(снимки окон), report (отчёты, в том числе report --turn {last}), verify (перепроверка окон) и rollback; "
        "откат к последнему окну (rollback --to {last}) снова открывает игру.").format(command=command, last=last)]),
        why, last)
