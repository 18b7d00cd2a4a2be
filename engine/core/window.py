"""Refusing a command asked for a window that is not the open one: `check --turn/--stage` and
`resolve --stage` name the window they mean; when it is not the open cursor of the meta tab,
nothing is read further and nothing is written, and the message names both windows in the
campaign's language.

Why in the core: the bridge refuses before it calls the ruleset, and a ruleset told the window
(`Ruleset.check(expect=…)`) refuses the same way, with the same words, whatever the game.
"""

from __future__ import annotations

from . import i18n, meta
from .cursor import Calendar, Cursor
from .errors import TurnMismatch
from .messages import _
from .tables import Tables


def asked(calendar: Calendar, open_: Cursor, turn: int | None, stage: str | None,
          resolving: bool = False) -> Cursor | None:
    """The window `--turn`/`--stage` ask for, when it is the open one `open_` (None when neither is
    given). A stage alone is at the open turn; a turn alone, in a game with stages, asks only that
    the open window be of that turn. TurnMismatch (for a check) otherwise; CursorError for a stage
    this calendar has not."""
    if turn is None and stage is None:
        return None
    if stage is not None:
        wanted = calendar.parse(f"{open_.turn if turn is None else turn}:{str(stage).strip()}")
        if wanted != open_:
            raise refusal(calendar, open_, calendar.format(wanted, i18n.current()), wanted > open_, resolving)
        return open_
    assert turn is not None
    if not calendar.staged:
        calendar.cursor(turn)  # a turn before the first is a CursorError in words
    if turn != open_.turn:
        raise refusal(calendar, open_, str(turn), turn > open_.turn, resolving)
    return open_


def refusal(calendar: Calendar, open_: Cursor, wanted: str, later: bool, resolving: bool = False) -> TurnMismatch:
    """The error of a check (or a resolve) asked for `wanted` (in the campaign's words) while `open_`
    is open: a window before it is resolved already, one after it is not open yet."""
    why = _(" — он ещё не открыт") if later else _(" — он уже разрешён")
    text = (_("Открыт ход «{open}», а просили разрешить «{wanted}»{why}. Ничего не изменено.") if resolving
            else _("Открыт ход «{open}», а просили проверить «{wanted}»{why}. Ничего не изменено."))
    return TurnMismatch(text.format(open=calendar.format(open_, i18n.current()), wanted=wanted, why=why))


def expect(tables: Tables, calendar: Calendar, wanted: Cursor | None, resolving: bool = False) -> None:
    """For a ruleset told the window (``check(expect=…)``): TurnMismatch, in the campaign's
    language, unless `wanted` is the open cursor of the campaign's meta tab (nothing asked when
    `wanted` is None)."""
    if wanted is None:
        return
    with i18n.using(meta.lang(tables) or i18n.current()):  # in the campaign's words, whoever asks
        open_ = meta.open_cursor(tables, calendar)
        if wanted != open_:
            raise refusal(calendar, open_, calendar.format(wanted, i18n.current()), wanted > open_, resolving)
