"""Backend-neutral spreadsheet data: what the bridge reads and what it is asked to write.

A tab is a grid of raw cell values (row-major, 0-based lists; sheet rows are 1-based).
`Formula` marks a cell that holds a formula rather than a value, so the codec can refuse
formulas in order rows and the writer can tell text that starts with '=' from a formula.
Only the program's own formulas may be written as formulas: text a player typed is turned into
plain text (:func:`as_text`) when it is read, so the writers store it as a string.

Every string the program writes is at most :data:`MAX_CELL_CHARS` long (Google refuses a write
with a longer cell); :meth:`Changeset.check_cells` is the writers' last-line guard.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Union

from .audience import GM, PUBLIC, Audience, of_spec
from .errors import BackendError
from .messages import _


class Formula(str):
    """A cell's formula text, e.g. '=SUM(A1:A3)'."""

    __slots__ = ()


Cell = Union[str, int, float, bool, Formula, None]  # noqa: UP007 - a runtime alias, Python 3.10
Grid = list[list[Cell]]
Tables = dict[str, Grid]

MAX_CELL_CHARS = 50_000  # Google Sheets' limit for one cell (an .xlsx cell keeps at most 32,767)


def as_text(value: Cell) -> Cell:
    """A cell as data: a formula becomes the plain string of its text, anything else is kept.

    Player input goes through this when it is read, so that whatever a player typed is written
    back as text (a string cell), never as a live formula."""
    if isinstance(value, Formula):
        return str.__str__(value)
    return value


def shorten(text: object, limit: int = 60) -> str:
    """Text for quoting in a message: at most ``limit`` characters, an ellipsis when cut."""
    s = str(text)
    return s if len(s) <= limit else s[: max(limit - 1, 0)] + "…"


def column_letter(index: int) -> str:
    """1 -> 'A', 27 -> 'AA'."""
    if index < 1:
        raise ValueError(f"column index must be >= 1, got {index}")
    letters = ""
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """'A' -> 1, 'AA' -> 27."""
    text = letters.strip().upper()
    if not text or not text.isalpha() or not text.isascii():
        raise ValueError(f"not a column: {letters!r}")
    index = 0
    for ch in text:
        index = index * 26 + (ord(ch) - 64)
    return index


def a1(row: int, col: int) -> str:
    """(7, 3) -> 'C7' (1-based)."""
    return f"{column_letter(col)}{row}"


def is_blank(value: Cell) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def trim(grid: Grid) -> Grid:
    """Drop trailing blank cells and rows, as Google does when it returns values."""
    rows = [list(r) for r in grid]
    for r in rows:
        while r and is_blank(r[-1]):
            r.pop()
    while rows and not rows[-1]:
        rows.pop()
    return rows


@dataclass(frozen=True)
class Validation:
    """A dropdown on a column block: options listed inline, or taken from a range of another tab."""

    first_row: int
    last_row: int  # 0: to the last row of the tab (rows a player adds below get the dropdown too)
    column: int
    options: tuple[str, ...] = ()
    source: str = ""  # A1 range like "'Лист'!A2:A60"; used when options would be too long
    strict: bool = False
    # a list that depends on another cell of the row, where the backend allows (.xlsx; Google offers
    # `source`): `depends_on` is that cell's column, `choices` a block (e.g. "'Lists tab'!$C$1:$P$130")
    # whose first row holds the values it may take, each above its own list; any other value: `source`
    depends_on: int = 0
    choices: str = ""


@dataclass(frozen=True)
class Highlight:
    """Conditional formatting: cells of `area` (A1, e.g. "I2:I200") turn `color` when the formula
    (written for the area's first cell, e.g. "=I2<B2") is true."""

    area: str
    formula: str
    color: str = "F4CCCC"


@dataclass(frozen=True)
class Chart:
    """A chart of lines over a block of a tab: x values (the turns) in the first column, a series
    per column (from `series_from` when the chart draws only a block of the columns); the rows
    without an x value are not drawn, so a block prepared for 60 turns shows the turns played."""

    title: str
    anchor: str  # top-left cell where the chart is drawn, e.g. "A30"
    first_row: int
    last_row: int
    first_col: int
    last_col: int
    y_title: str = ""
    series_from: int = 0  # first column of the series (0: the one right of the categories); a chart per
    # group of sides draws the same category column with a different block of series
    markers: bool = True  # a dot on every point: after the first turn a line is a single point


@dataclass(frozen=True)
class CoreTab:
    """A hidden tab the core itself keeps (the history, the tab registry), titled in the campaign's
    language; either language's title is its, so a campaign reads whichever it was made with."""

    ru: str
    en: str

    @property
    def titles(self) -> dict[str, str]:
        return {"ru": self.ru, "en": self.en}

    def title(self, lang: str) -> str:
        """The title in a campaign of ``lang`` (Russian unless English)."""
        return self.en if lang == "en" else self.ru

    def owns(self, name: str) -> bool:
        """Whether ``name`` is this tab's title, in either language."""
        return name in (self.ru, self.en)

    def found_in(self, tables: Tables) -> str | None:
        """The title this tab has in ``tables``, or None when the campaign has no such tab yet."""
        return next((t for t in tables if self.owns(t)), None)


@dataclass(frozen=True)
class TabSpec:
    """How a tab looks when it is created: content, widths, frozen panes, dropdowns, protection,
    wrapping and print setup (each backend applies what it can: Google's API has no print setup)."""

    name: str
    rows: Grid
    widths: Mapping[int, int] = field(default_factory=dict)  # column (1-based) -> width in characters
    frozen_rows: int = 1
    frozen_cols: int = 0
    validations: Sequence[Validation] = ()
    hidden: bool = False
    kind: str = "data"  # data | rules | orders | report | meta
    owner: str = ""  # for order tabs: the side whose player may edit the input columns
    editable_columns: tuple[int, int] | None = None  # 1-based inclusive range players may edit
    number_formats: Mapping[int, str] = field(default_factory=dict)  # column -> Excel number format ("@": text)
    tab_color: str = ""
    highlights: Sequence[Highlight] = ()
    charts: Sequence[Chart] = ()
    format_rows: int = 0  # how many rows number formats cover (0 = the content)
    # who may read the tab (engine/core/audience.py): the GM alone, the public, or one side's player;
    # None: derived from `kind`/`owner` (an order tab is its owner's, any other public) -- see `readers`
    audience: Audience | None = None
    wrap_header: bool = True  # the header wraps at spaces; widths keep every header word whole
    wrap_columns: tuple[int, ...] = ()  # columns (1-based) whose cells wrap: long reasons and the like
    print_landscape: bool = False  # printed across the page
    print_fit_width: bool = False  # printed scaled to one page wide (as many pages tall as it takes)
    print_title_rows: int = 0  # the first N rows repeat at the top of every printed page

    @property
    def readers(self) -> Audience:
        """The tab's audience: the declared one, else derived (see :func:`audience.of_spec`)."""
        return of_spec(self)


@dataclass(frozen=True)
class WorkbookSpec:
    """Everything needed to create a new campaign spreadsheet."""

    title: str
    tabs: Sequence[TabSpec]
    # the dice's secret travels beside the tabs, never in a cell: the bridge keeps it in the GM's
    # secret store under `campaign_id`, which the meta tab names (sheets_bridge/secrets.py)
    secret: str = field(default="", repr=False)
    campaign_id: str = ""
    # the sides the program plays itself (no order tab): named to the GM when the campaign is made,
    # beside the sides with an order tab (TabSpec.owner)
    ai_sides: tuple[str, ...] = ()
    # the game hides facts from some players (Ruleset.hidden_information): every backend then keeps
    # each audience's tabs in a book of its own (Google: private spreadsheets; .xlsx: a workbook per
    # player and a public one beside the GM's)
    hidden_information: bool = False

    def played_sides(self) -> list[str]:
        """The sides with an order tab, in the tabs' order."""
        return list(dict.fromkeys(t.owner for t in self.tabs if t.kind == "orders" and t.owner))

    def tab(self, name: str) -> TabSpec:
        for t in self.tabs:
            if t.name == name:
                return t
        raise KeyError(name)


#: Audiences of a tab (TabSpec.audience): everyone who can open the campaign, or the GM alone
#: (a side's player: audience.player(side)).
AUDIENCE_PUBLIC = PUBLIC
AUDIENCE_GM = GM


@dataclass(frozen=True)
class ReplaceTab:
    """Replace a tab's whole content (formats of the tab are kept); creates the tab if missing."""

    tab: str
    rows: Grid
    spec: TabSpec | None = None  # used only when the tab must be created
    beside: str = ""  # keep the tab in the same spreadsheet as this one (a private order book)
    audience: Audience | None = None  # who may read it (see TabSpec.audience); None = the spec's, else public

    @property
    def readers(self) -> Audience:
        """The tab's audience: its own, else its spec's, else public (a tab written ``beside``
        another one lives in that one's book: audience.audiences resolves it)."""
        if self.audience is not None:
            return self.audience
        return self.spec.readers if self.spec is not None else AUDIENCE_PUBLIC


@dataclass(frozen=True)
class WriteBlock:
    """Write a rectangle of values at (row, col), 1-based; other cells untouched."""

    tab: str
    row: int
    col: int
    values: Grid
    # who may read the tab, when this block creates it (a log's first rows); None: public, or in a
    # campaign with hidden information the GM's alone (audience.py: an undeclared tab is the GM's)
    audience: Audience | None = None
    # rows appended to a log (chronicle, ledger, archive: session.append_rows): no later window
    # rewrites them, so `verify` of their window holds the campaign as it is now to them
    log: bool = False


@dataclass
class Changeset:
    """All changes of one sync, applied in one atomic write. `marker` goes last (turn marker)."""

    replace: list[ReplaceTab] = field(default_factory=list)
    blocks: list[WriteBlock] = field(default_factory=list)
    marker: list[WriteBlock] = field(default_factory=list)
    notes: list[tuple[str, int, int, str]] = field(default_factory=list)  # (tab, row, col, text): cell notes
    clear_notes: list[str] = field(default_factory=list)  # tabs whose notes are all removed before `notes`
    # the game's view at this write (Ruleset.tab_audiences, filled by the bridge): tab -> who may read
    # it, over what the tab was given at creation; empty: the backend keeps what it recorded
    audiences: dict[str, Audience] = field(default_factory=dict)
    # (tab, n): the n rows below a log's header deleted after every other change of the write, so the
    # rows under them move up (engine/core/logs.py: a log keeps only its last windows in the campaign)
    drop_rows: list[tuple[str, int]] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.replace or self.blocks or self.marker or self.notes or self.clear_notes or self.drop_rows)

    def all_blocks(self) -> Iterable[WriteBlock]:
        yield from self.blocks
        yield from self.marker

    def oversized(self, limit: int = MAX_CELL_CHARS) -> list[str]:
        """Where a string cell or a note is longer than ``limit``: «tab!A1 (N знаков)» for each."""
        found: list[str] = []

        def scan(tab: str, row: int, col: int, grid: Grid) -> None:
            for dr, line in enumerate(grid):
                for dc, v in enumerate(line):
                    if isinstance(v, str) and len(v) > limit:
                        found.append(_("{cell} ({n} знаков)").format(cell=f"{tab}!{a1(row + dr, col + dc)}", n=len(v)))

        for rep in self.replace:
            scan(rep.tab, 1, 1, rep.rows)
        for block in self.all_blocks():
            scan(block.tab, block.row, block.col, block.values)
        for tab, row, col, text in self.notes:
            if len(text) > limit:
                found.append(_("{cell}, примечание ({n} знаков)").format(cell=f"{tab}!{a1(row, col)}", n=len(text)))
        return found

    def check_cells(self, limit: int = MAX_CELL_CHARS) -> None:
        """Refuse the whole write when any cell is too long for Google (a bug upstream, never the
        player's: player text is refused or shortened long before); nothing is written then."""
        found = self.oversized(limit)
        if found:
            shown = "; ".join(found[:5]) + (_(" и ещё {n}").format(n=len(found) - 5) if len(found) > 5 else "")
            raise BackendError(
                _("запись отменена, ничего не изменено: в ячейке больше {limit} знаков (предел Google Таблиц): "
                  "{cells}").format(limit=limit, cells=shown)
            )


def apply_changes(tables: Tables, changes: Changeset) -> Tables:
    """The tables after a changeset, computed in memory (for tests and previews)."""
    out: Tables = {name: [list(r) for r in grid] for name, grid in tables.items()}
    for rep in changes.replace:
        out[rep.tab] = [list(r) for r in rep.rows]
    for block in changes.all_blocks():
        grid = out.setdefault(block.tab, [])
        for dr, line in enumerate(block.values):
            r = block.row - 1 + dr
            while len(grid) <= r:
                grid.append([])
            row = grid[r]
            for dc, v in enumerate(line):
                c = block.col - 1 + dc
                while len(row) <= c:
                    row.append(None)
                row[c] = v
    for tab, n in changes.drop_rows:
        if tab in out:
            del out[tab][1 : 1 + n]
    return {name: trim(grid) for name, grid in out.items()}
