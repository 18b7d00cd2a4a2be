"""The campaign's meta tab as every ruleset writes it, and the rows the bridge itself relies on.

A campaign spreadsheet names its ruleset in the meta tab («Кампания»/«Campaign»); besides that the
bridge needs three rows that are no game's business: the campaign id (the key of the GM's secret
store, a random uuid written by `new`: not a secret), the published commitment of the open
turn's seed (sha256 of turn_seed(secret, turn)) with the open turn, and -- only to move it out of
old campaigns -- the GM's secret that campaigns made before issue 15 kept in a cell.

The open order window is a cursor (engine/core/cursor.py): «Открытый ход» holds its turn, as it
always has; a game whose calendar has stages adds «Открытый этап» (the stage's name in the
campaign's language) and, for a stage with rounds, «Открытый раунд». A one-stage game has neither
row, so its meta reads and writes exactly as before stages. «Раскрытое зерно последнего хода»
holds the seed of the last resolved window, written by the resolve that reveals it: `verify` reads
it there (in the snapshot taken when the next window was open) instead of parsing a ruleset's
chronicle. «Игра окончена» says why a finished campaign takes no more orders (engine/core/ending.py).
"""

from __future__ import annotations

import uuid

from . import i18n
from .cursor import Calendar, Cursor, CursorError
from .layout import norm
from .messages import _
from .tables import Cell, Grid, Tables, is_blank

META_TABS = ("Кампания", "Campaign")
RULESET = ("Правила", "Ruleset", "ruleset")
CAMPAIGN_ID = ("Идентификатор кампании", "Campaign id")
OPEN_TURN = ("Открытый ход", "Open turn")
COMMITMENT = ("Хэш зерна хода (sha256)", "Turn seed hash (sha256)")
OPEN_STAGE = ("Открытый этап", "Open stage")  # only in a game whose calendar has stages
OPEN_ROUND = ("Открытый раунд", "Open round")  # only at a stage with rounds
REVEALED_SEED = ("Раскрытое зерно последнего хода", "Revealed seed of the last turn")
DRAW = ("Номер жребия", "Draw number")  # only after a rollback drew new dice (engine/core/draw.py)
NEXT_DRAW = ("Номер жребия со следующего окна", "Draw number from the next window")  # a kept window's
ROLLBACK = ("Последний откат", "Last rollback")  # what the last rollback did, in words
RECOUNT = ("Окно после отката", "Window after the rollback")  # until it resolves: its chronicle says so
FINISHED = ("Игра окончена", "Game over")  # why, in words: written by the resolve that ends the game (ending.py)
LEGACY_SECRET = ("Секрет ведущего", "GM secret")  # read only: no campaign keeps it in a cell any more
LANG = ("Язык", "Language", "lang")


def new_campaign_id() -> str:
    """A fresh campaign id: random, so two campaigns never share a key in the secret store."""
    return uuid.uuid4().hex


def meta_tab(tables: Tables) -> str | None:
    """The name of the meta tab, or None when there is none."""
    names = {norm(n) for n in META_TABS}
    return next((name for name in tables if norm(name) in names), None)


def _is(row: list[Cell], labels: tuple[str, ...]) -> bool:
    return bool(row) and not is_blank(row[0]) and norm(str(row[0])) in {norm(x) for x in labels}


def is_row(row: list[Cell], labels: tuple[str, ...]) -> bool:
    """Whether a meta row is labelled with one of `labels` (whatever its value)."""
    return _is(row, labels)


def value_in(grid: Grid, labels: tuple[str, ...]) -> Cell:
    """The value beside the first row labelled with one of `labels` in a meta grid (None if absent)."""
    for row in grid[1:]:
        if _is(row, labels):
            return row[1] if len(row) > 1 else None
    return None


def value(tables: Tables, labels: tuple[str, ...]) -> Cell:
    """The value of a meta row of the campaign (None if the row or the tab is absent)."""
    tab = meta_tab(tables)
    return value_in(tables[tab], labels) if tab is not None else None


def text(tables: Tables, labels: tuple[str, ...]) -> str:
    """A meta value as trimmed text ('' when blank or absent)."""
    v = value(tables, labels)
    return "" if is_blank(v) else str(v).strip()


def lang(tables: Tables) -> str | None:
    """The campaign's language: its meta row «Язык»/«Language» («ru», «en»), else the language of
    the meta tab's own name («Campaign»: English); None when the tables hold no meta tab."""
    tab = meta_tab(tables)
    if tab is None:
        return None
    code = text(tables, LANG).lower()
    if code in i18n.LANGUAGES:
        return code
    return "en" if norm(tab) == norm(META_TABS[1]) else i18n.SOURCE


def settle(grid: Grid, campaign_id: str) -> Grid:
    """A meta grid that holds no secret and names `campaign_id`: a secret row becomes the id row
    (in the secret's language, at its place) or a blank row when the id has one already; a grid
    with neither gets the id row appended. The height never shrinks, so a write of the settled
    grid over the old one leaves nothing of the old rows behind."""
    out = [list(r) for r in grid]
    has_id = any(_is(r, CAMPAIGN_ID) for r in out[1:])
    for i, row in enumerate(out):
        if i and _is(row, LEGACY_SECRET):
            if has_id:
                out[i] = [None] * len(row)
            else:
                label = CAMPAIGN_ID[1] if norm(str(row[0])) == norm(LEGACY_SECRET[1]) else CAMPAIGN_ID[0]
                out[i] = [label, campaign_id, *[None] * max(0, len(row) - 2)]
                has_id = True
    for row in out[1:]:
        if _is(row, CAMPAIGN_ID) and is_blank(row[1] if len(row) > 1 else None):
            row[1:2] = [campaign_id]
    if not has_id:
        english = any(_is(r, RULESET[1:2]) for r in out[1:])
        out.append([CAMPAIGN_ID[1] if english else CAMPAIGN_ID[0], campaign_id])
    return out


def holds_secret(grid: Grid) -> bool:
    """Whether a meta grid still has a secret row with a value."""
    return not is_blank(value_in(grid, LEGACY_SECRET))


def open_cursor(tables: Tables, calendar: Calendar) -> Cursor:
    """The open order window as the meta tab holds it: «Открытый ход» and, where the calendar has
    stages, «Открытый этап» (and «Открытый раунд»). A CursorError names the cells when they do
    not make a cursor of this calendar."""
    turn_text = text(tables, OPEN_TURN)
    try:
        turn = int(float(turn_text))
    except ValueError:
        raise CursorError(_("на листе «{tab}» в строке «{label}» должен быть номер хода, а там «{value}»")
                          .format(tab=meta_tab(tables) or META_TABS[0], label=OPEN_TURN[0], value=turn_text)) from None
    if not calendar.staged:
        return calendar.cursor(turn)
    round_text = text(tables, OPEN_ROUND)
    try:
        round_ = int(float(round_text)) if round_text else 0
    except ValueError:
        raise CursorError(_("на листе «{tab}» в строке «{label}» должен быть номер раунда, а там «{value}»")
                          .format(tab=meta_tab(tables) or META_TABS[0], label=OPEN_ROUND[0], value=round_text)
                          ) from None
    return calendar.cursor(turn, text(tables, OPEN_STAGE), round_)


def cursor_rows(cursor: Cursor, calendar: Calendar, lang: str) -> list[list[Cell]]:
    """The meta rows that hold `cursor` (label, value) in `lang`: the turn row alone for a one-stage
    game -- the same row as before stages -- plus the stage row (and the round row where the
    stage has rounds) for a staged one. A ruleset writes them where its meta layout puts them."""
    i = 1 if lang == "en" else 0
    rows: list[list[Cell]] = [[OPEN_TURN[i], cursor.turn]]
    if cursor.stage:
        rows.append([OPEN_STAGE[i], calendar.stage(cursor.stage).name(lang)])
        if calendar.has_rounds(cursor):
            rows.append([OPEN_ROUND[i], cursor.round])
    return rows


def finished(tables: Tables) -> str | None:
    """Why the game is over («Игра окончена»/"Game over": the winners and the reason, in the
    campaign's words), or None while it goes on -- and after a rollback, whose restored meta is a
    snapshot's from before the end (engine/core/ending.py)."""
    tab = meta_tab(tables)
    if tab is None:
        return None
    grid = tables[tab]
    if not any(_is(row, FINISHED) for row in grid[1:]):
        return None
    why = value_in(grid, FINISHED)
    return "" if is_blank(why) else str(why).strip()


def revealed_seed(tables: Tables) -> str | None:
    """The seed the last resolve revealed («Раскрытое зерно последнего хода»), or None when the meta
    has no such row (a campaign resolved before the row existed, or none resolved yet)."""
    seed = text(tables, REVEALED_SEED)
    return seed or None


def put(grid: Grid, labels: tuple[str, ...], value: Cell, lang: str) -> Grid:
    """A meta grid with the row labelled `labels` holding `value`: the row it has keeps its place
    and its label; a new one (labelled in `lang`) takes the first blank row below the last filled
    one, else is appended. ``None`` takes the row out (a blank row at the end keeps the height, so
    a write of the grid over the old one leaves nothing behind)."""
    out = [list(r) for r in grid]
    at = next((i for i, row in enumerate(out) if i and _is(row, labels)), None)
    if value is None:
        if at is not None:
            width = len(out[at])
            del out[at]
            out.append([None] * width)
        return out
    if at is not None:
        row = out[at]
        out[at] = [row[0], value, *row[2:]]
        return out
    width = max(2, *(len(r) for r in out)) if out else 2
    line = [labels[1] if lang == "en" else labels[0], value] + [None] * (width - 2)
    filled = [i for i, row in enumerate(out) if any(not is_blank(v) for v in row)]
    free = (filled[-1] + 1) if filled else len(out)
    if free < len(out):
        out[free] = line
    else:
        out.append(line)
    return out
