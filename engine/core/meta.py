"""The campaign's meta tab as every ruleset writes it, and the rows the bridge itself relies on.

A campaign spreadsheet names its ruleset in the meta tab («Кампания»/«Campaign»); besides that the
bridge needs three rows that are no game's business: the campaign id (the key of the GM's secret
store, a random uuid written by `new`: not a secret), the published commitment of the open
turn's seed (sha256 of turn_seed(secret, turn)) with the open turn, and -- only to move it out of
old campaigns -- the GM's secret that campaigns made before issue 15 kept in a cell.
"""

from __future__ import annotations

import uuid

from . import i18n
from .layout import norm
from .tables import Cell, Grid, Tables, is_blank

META_TABS = ("Кампания", "Campaign")
RULESET = ("Правила", "Ruleset", "ruleset")
CAMPAIGN_ID = ("Идентификатор кампании", "Campaign id")
OPEN_TURN = ("Открытый ход", "Open turn")
COMMITMENT = ("Хэш зерна хода (sha256)", "Turn seed hash (sha256)")
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
