"""Check and resolve orchestration: one read, the ruleset's work, one atomic write.

Game-agnostic: the meta tab names the ruleset; the registry gives its `Ruleset` (engine/core/ruleset.py),
which does the rest.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine import rulesets
from engine.core import draw, ending, gc_pause, history, i18n, kept, logs, meta, window
from engine.core.audience import GM
from engine.core.cursor import Calendar, Cursor, CursorError
from engine.core.dice import commitment, cursor_seed
from engine.core.errors import BackendError, CampaignError, UsageError
from engine.core.layout import norm
from engine.core.messages import _
from engine.core.ruleset import Ruleset, SyncResult, Victory
from engine.core.tables import Changeset, Grid, ReplaceTab, Tables, WorkbookSpec, WriteBlock, apply_changes

from . import book_mark, secrets
from .base import Backend
from .progress import Progress, Silent
from .xlsx import XlsxBackend, create_xlsx

if TYPE_CHECKING:
    from .gsheets import CreatedCampaign

GOOGLE_URL = re.compile(r"docs\.google\.com/spreadsheets/d/([A-Za-z0-9_-]+)")
GOOGLE_ID = re.compile(r"^[A-Za-z0-9_-]{25,}$")


def google_id(target: str) -> str | None:
    """The spreadsheet id in a Google Sheets URL or a bare id; None for a file path."""
    m = GOOGLE_URL.search(target)
    if m:
        return m.group(1)
    if GOOGLE_ID.match(target) and not target.lower().endswith(".xlsx"):
        return target
    return None


@dataclass
class Options:
    """How to reach a backend: credentials for Google; nothing for .xlsx.

    ``credentials`` is a service-account JSON key (else ``GOOGLE_APPLICATION_CREDENTIALS``);
    ``oauth_client_secrets`` switches to a person's own Google account, whose refresh token is
    cached in ``token_cache`` (default ``~/.config/strategos/google-token.json``).
    """

    credentials: str | None = None
    oauth_client_secrets: str | None = None
    token_cache: str | None = None


def open_backend(target: str, options: Options | None = None, books: bool = False) -> Backend:
    """A backend for a workbook path or a Google spreadsheet id/URL.  ``books``: an .xlsx campaign
    also writes the players' and the public books beside it from now on (docs/audiences.md); a
    Google campaign has its books from `new --google`, so asking there is a UsageError."""
    sid = google_id(target)
    if sid is not None and books:
        raise UsageError(_("--player-books — только для кампании в .xlsx; в Google Таблицах книги игроков "
                           "создаёт new --google"))
    if sid is not None:
        from . import gsheets

        opts = options or Options()
        return gsheets.GoogleBackend.open(
            sid,
            credentials=opts.credentials,
            oauth_client_secrets=opts.oauth_client_secrets,
            token_cache=opts.token_cache,
        )
    return XlsxBackend(target, books=books)


def calendar_of(rules: Ruleset) -> Calendar:
    """The calendar of a ruleset (its stages per turn; engine/core/cursor.py)."""
    return rules.calendar


def cursor_of(tables: Tables, text: str | int | None = None) -> tuple[Calendar, Cursor]:
    """The campaign's calendar and a cursor of it: `text` («3», «3:города», «12:бой:2») read by that
    calendar, or the open cursor of the meta tab when `text` is None. A CursorError in words when
    `text` is not a cursor of this game."""
    calendar = calendar_of(ruleset_of(tables))
    if text is None:
        return calendar, meta.open_cursor(tables, calendar)
    return calendar, calendar.parse(text)


def ruleset_of(tables: Tables) -> Ruleset:
    """The ruleset named in the campaign's meta tab."""
    for name, grid in tables.items():
        if norm(name) in (norm("Кампания"), norm("Campaign")):
            for row in grid[1:]:
                if len(row) > 1 and norm(row[0]) in (norm("Правила"), norm("Ruleset"), "ruleset"):
                    return rulesets.get(str(row[1]))
            raise CampaignError(_("на листе «{tab}» нет строки «Правила» (Ruleset)").format(tab=name))
    raise CampaignError(_("нет листа «Кампания» (Campaign) — это не таблица кампании Strategos"))


@dataclass
class Secret:
    """The dice's secret of a campaign, and the campaign as the ruleset may see it: no cell holds
    the secret (an old campaign's meta row and history snapshots are rewritten in memory; the same
    write that resolves the turn puts them on the sheet)."""

    value: str
    campaign_id: str
    tables: Tables
    history: Grid | None = None  # the history tab without the secret, when it held one
    notice: str = ""


def _secret(backend: Backend, tables: Tables, need: bool = True, settle: bool = True) -> Secret:
    """Find the campaign's secret in the GM's store (sheets_bridge/secrets.py) by the campaign id
    of the meta tab (a Google campaign made before the id: by its spreadsheet id). An old campaign
    whose meta still holds the secret has it moved to the store now; it leaves the sheet with the
    next write. With ``need``, a missing secret, or one whose turn seed does not hash to the
    commitment published before the turn, is a CampaignError (issue 15, point 7). Without
    ``settle`` nothing is saved or rewritten: only looked up (a check, an export)."""
    cid = meta.text(tables, meta.CAMPAIGN_ID)
    in_sheet = meta.text(tables, meta.LEGACY_SECRET)
    sid = backend.secret_key()
    stored = (secrets.load(cid) if cid else None) or (secrets.load(sid) if sid else None)
    value = stored or in_sheet
    if in_sheet and stored != in_sheet and matches(tables, in_sheet) and not matches(tables, stored or ""):
        value = in_sheet  # the store has a stale one; the sheet's matches what the players were promised
    if not value:
        if need:
            raise secrets.missing(cid)
        return Secret("", cid, tables)
    if need and not matches(tables, value):
        turn = meta.text(tables, meta.OPEN_TURN)
        label = meta.COMMITMENT[1] if i18n.current() == "en" else meta.COMMITMENT[0]
        raise CampaignError(
            _("секрет ведущего кампании {campaign} не совпадает с опубликованным хэшем зерна хода {turn} («{label}» "
              "на листе «{tab}»): с ним жребий был бы не тем, что обещан игрокам. Ход не разрешён, ничего не "
              "изменено. Верните секрет, с которым кампания создана (strategos secret import CAMPAIGN FILE).")
            .format(campaign=cid or sid or "", turn=turn, label=label, tab=meta.meta_tab(tables))
        )
    if (cid and not in_sheet) or not settle:
        return Secret(value, cid, tables)
    cid = cid or meta.new_campaign_id()
    where = secrets.save(cid, value)  # before the write: the sheet never loses it first
    if in_sheet:
        notice = _("Секрет ведущего перенесён из листа «{tab}» в хранилище секретов ведущего ({where}) под "
                   "идентификатором кампании {cid}; из таблицы и из снимков истории он удалён. Прежние копии файла "
                   "(например, .bak) его ещё хранят — удалите их, когда они не нужны. Чтобы разрешать ходы на другой "
                   "машине, перенесите секрет: strategos secret export CAMPAIGN.").format(
            tab=meta.meta_tab(tables), where=where, cid=cid)
    else:
        notice = _("Кампании присвоен идентификатор {cid}; её секрет ведущего хранится под ним ({where}).").format(
            cid=cid, where=where)
    out = dict(tables)
    tab = meta.meta_tab(tables)
    if tab is not None:
        out[tab] = meta.settle(tables[tab], cid)
    grid = None
    hist_tab = history.tab_of(tables)
    if in_sheet and tables.get(hist_tab):
        grid = history.rewritten(tables[hist_tab], lambda t: settled(t, cid))
        out[hist_tab] = grid
    return Secret(value, cid, out, grid, notice)


def settled(tables: Tables, cid: str) -> Tables:
    """Tables (a snapshot, say) whose meta holds no secret and names the campaign id ``cid``."""
    tab = meta.meta_tab(tables)
    if tab is None or not meta.holds_secret(tables[tab]):
        return tables
    return {**tables, tab: meta.settle(tables[tab], cid)}


def matches(tables: Tables, secret: str) -> bool:
    """Whether `secret` gives the seed whose hash the meta published for the open turn (True when
    the meta publishes none, or the open turn is not a number: the ruleset reports that)."""
    published = meta.text(tables, meta.COMMITMENT)
    if not published:
        return True
    try:
        _calendar, cursor = cursor_of(tables)
    except (CursorError, CampaignError):
        return True
    return commitment(cursor_seed(draw.secrets(tables, secret)[0], cursor)) == published  # after a rollback: its draw


def _holds(value: object, secret: str) -> bool:
    """Whether a cell shows the secret: the whole cell, or (for a secret long enough not to occur
    by chance in a word, as the 32 hex digits of `new` are) any part of it."""
    if not isinstance(value, str):
        return False
    return value.strip() == secret or (len(secret) >= 16 and secret in value)


def refuse_leak(tables: Tables, changes: Changeset, secret: str) -> None:
    """The last guard before a write: the secret in no cell written, and no meta row left holding
    it (an old campaign's secret row below what the ruleset rewrote is blanked)."""
    if not secret:
        return
    cells = [v for r in changes.replace for row in r.rows for v in row]
    cells += [v for b in changes.all_blocks() for row in b.values for v in row]
    cells += [n[3] for n in changes.notes]
    if any(_holds(v, secret) for v in cells):
        raise CampaignError(_("ошибка программы: секрет ведущего попал бы в ячейку таблицы — ничего не записано"))
    tab = meta.meta_tab(tables)
    if tab is None:
        return
    after = apply_changes({tab: tables[tab]}, Changeset(blocks=[b for b in changes.all_blocks() if b.tab == tab]))
    for r, row in enumerate(after.get(tab, []), start=1):
        if any(_holds(v, secret) for v in row):
            changes.marker.append(WriteBlock(tab, r, 1, [[None] * len(row)]))


def check(backend: Backend, progress: Progress | None = None, turn: int | None = None,
          stage: str | None = None) -> SyncResult:
    """Judge every order of the open window: one read, the ruleset's check, one write (statuses only).
    With ``turn`` and/or ``stage`` (as resolve takes them) only if that window is the open one: else
    TurnMismatch in the campaign's language, nothing written (engine/core/window.py).
    A check needs no secret: it draws no dice (issue 15, point 6). A finished campaign (its meta says
    «Игра окончена») is refused with a GameOver naming why and what still works (engine/core/ending.py)."""
    with gc_pause.paused(), exclusive(backend, "check"):  # the read and the write too (engine/core/gc_pause.py)
        return _check(backend, progress, turn, stage)


def _check(backend: Backend, progress: Progress | None, turn: int | None = None,
           stage: str | None = None) -> SyncResult:
    p = progress or Silent()
    tables = _read(backend, p)
    rules = ruleset_of(tables)
    ending.refuse(tables, rules.calendar, "check")  # a finished campaign: refused in words, nothing written
    told: dict[str, Any] = {}  # a check asked no window calls the ruleset as before
    if turn is not None or stage is not None:
        told["expect"] = window.asked(*cursor_of(tables), turn, stage)
    p.start("turn", _("Проверка приказов"), len(rules.window_phases(tables)) or 1)
    with gc_pause.paused():
        result = rules.check(tables, on_phase=lambda name: p.advance("turn", name), **told, **_tab_ids(backend))
    p.finish("turn")
    announce_victory(result, rules.victory(tables))  # a game already won says so at every check
    if not _secret(backend, tables, need=False, settle=False).value:
        result.summary.setdefault("notices", []).append(str(secrets.missing(meta.text(tables, meta.CAMPAIGN_ID))))
    declare_audiences(rules, tables, result.changes)
    _write(backend, result.changes, p)
    _warn(result, _audit(backend) + _kept_warning(tables))
    for line in backend.completed():
        result.summary.setdefault("notices", []).append(line)
    return result


def _open_label(tables: Tables) -> str:
    """The open window in the campaign's words («1:города»)."""
    calendar, open_ = cursor_of(tables)
    return calendar.format(open_, i18n.current())


def resolve(backend: Backend, turn: int | None = None, progress: Progress | None = None,
            stage: str | None = None) -> SyncResult:
    """Resolve the open window (only if it is turn ``turn`` and, in a game with stages, stage
    ``stage`` -- «города», or «бой:2» with its round -- when given): one read, one atomic write.

    A resolved window asked again raises TurnMismatch before anything is written; so does a secret
    that is missing here or does not match the published commitment (then nothing is written), and
    so does a finished campaign (GameOver: engine/core/ending.py).
    """
    with gc_pause.paused(), exclusive(backend, "resolve"):
        return _resolve(backend, turn, progress, stage)


def expect_open(tables: Tables, turn: int | None, stage: str | None) -> Cursor | None:
    """The window a resolve asks for (`--turn`, `--stage`), when it is the open one: TurnMismatch,
    naming both windows in the campaign's language, otherwise (engine/core/window.py); None when
    neither is given. A ``--stage`` in a game without stages is a CursorError."""
    return window.asked(*cursor_of(tables), turn, stage, resolving=True)


def _resolve(backend: Backend, turn: int | None, progress: Progress | None, stage: str | None = None) -> SyncResult:
    p = progress or Silent()
    tables = _read(backend, p)
    finished = backend.completed()
    if finished:  # the re-run of an interrupted resolve: that window is now written, nothing more
        over = meta.finished(tables)
        raise BackendError(" ".join([*finished, _(
            "Этот запуск больше ничего не разрешал. Открыто окно «{open}»: разрешите его, когда будут готовы "
            "приказы.").format(open=_open_label(tables)) if over is None else _(
            "Этот запуск больше ничего не разрешал. Игра окончена: {why}").format(why=over)]))
    rules = ruleset_of(tables)
    ending.refuse(tables, rules.calendar, "resolve")  # a finished campaign: refused in words, nothing written
    expect = expect_open(tables, turn, stage)
    sec = _secret(backend, tables)
    seed, secret = drawn(tables, sec.value)
    p.start("turn", _("Разрешение хода"), len(rules.window_phases(tables)) or 1)
    with gc_pause.paused():
        result = rules.resolve(kept.without(sec.tables), expect=expect, seed=seed, secret=secret,
                               on_phase=lambda name: p.advance("turn", name), **_tab_ids(backend))
    draw.carry(tables, result.changes)
    result.changes.replace += kept.cleared(tables)
    if sec.history is not None:  # an old campaign's snapshots, now without the secret
        result.changes.replace.insert(0, ReplaceTab(history.tab_of(tables), sec.history))
    announce_victory(result, rules.victory(applied_view(sec.tables, result.changes)))
    result.changes.replace += private_reports(backend, sec.tables, result.changes, rules)
    logs.trim(tables, result.changes)  # the logs keep their last windows; older rows ride in the history
    refuse_leak(tables, result.changes, sec.value)
    if sec.notice:
        result.summary.setdefault("notices", []).append(sec.notice)
    p.finish("turn")
    declare_audiences(rules, tables, result.changes)
    _write(backend, result.changes, p)
    _warn(result, _audit(backend))
    return result


def _kept_warning(tables: Tables) -> list[str]:
    """A check's warning when the open window's orders, kept by a rollback, were changed since."""
    try:
        return kept.warning(tables, cursor_of(tables)[1])
    except (CursorError, CampaignError):
        return []


def drawn(tables: Tables, secret: str) -> tuple[str | None, str]:
    """(the seed to resolve the open window with, the secret its ruleset derives the next windows'
    commitments from), after any rollback (engine/core/draw.py): the secret of the campaign's draw,
    and no seed, unless a rollback kept the window's orders and its seed while the windows after
    it get a new draw. A window whose kept orders were changed is refused here, before any work
    (engine/core/kept.py)."""
    try:
        calendar, at = cursor_of(tables)
    except (CursorError, CampaignError):
        return None, secret  # the ruleset says what is wrong with the meta
    kept.refuse_changed(tables, calendar, at)
    own, after = draw.secrets(tables, secret)
    return (cursor_seed(own, at) if own != after else None), after


def declare_audiences(rules: Ruleset, tables: Tables, changes: Changeset) -> None:
    """Give the backend the game's view at this write: who may see each tab the campaign holds once
    ``changes`` are written (`Ruleset.tab_audiences`), so a tab's audience is the game's to say
    after creation too (engine/core/audience.py).  Only titles matter here: new tabs get empty grids."""
    after = dict(tables)
    for tab in [*(r.tab for r in changes.replace), *(b.tab for b in changes.all_blocks())]:
        after.setdefault(tab, [])
    changes.audiences = {**rules.tab_audiences(after), **changes.audiences}
    # the history is the GM's, whatever a game says of the tabs it does not know
    changes.audiences.update((tab, GM) for tab in after if history.is_store(tab))


def _audit(backend: Backend) -> list[str]:
    """What the backend finds wrong around the campaign (on Google: sharing and names that drifted
    from what `new` set, issue 15 p9); nothing for a backend without such an audit."""
    return list(backend.audit())


def _warn(result: SyncResult, warnings: list[str]) -> None:
    """Add warnings to the result's summary (shown by the CLI, listed under "warnings" in --json)."""
    if warnings:
        result.summary.setdefault("warnings", []).extend(warnings)


def announce_victory(result: SyncResult, won: Victory | None) -> None:
    """Tell the GM that the game is won (a notice, and "victory" in --json: the winners and why);
    nothing while the game goes on."""
    if won is None:
        return
    result.summary["victory"] = {"winners": list(won.winners), "reason": won.reason}
    result.summary.setdefault("notices", []).append(_("Игра окончена: {why}").format(why=ending.words(won)))


def applied_view(tables: Tables, changes: Changeset) -> Tables:
    """The campaign as ``changes`` leave it, to be read only (what `Ruleset.victory` is asked of):
    unlike `apply_changes`, which copies every cell, it shares the untouched tabs and rows with
    ``tables`` and the replaced tabs with ``changes``, so asking costs next to nothing on a big
    campaign (a game that never wins does not pay a copy of the workbook each resolve)."""
    out: Tables = dict(tables)
    for rep in changes.replace:
        out[rep.tab] = rep.rows
    copied: set[str] = set()
    for block in changes.all_blocks():
        if block.tab not in copied:
            out[block.tab] = list(out.get(block.tab, []))
            copied.add(block.tab)
        grid = out[block.tab]
        for dr, line in enumerate(block.values):
            r = block.row - 1 + dr
            while len(grid) <= r:
                grid.append([])
            row = grid[r] = list(grid[r])
            for dc, v in enumerate(line):
                c = block.col - 1 + dc
                row.extend([None] * (c + 1 - len(row)))
                row[c] = v
    return out


def private_reports(backend: Backend, tables: Tables, changes: Changeset,
                    rules: Ruleset | None = None) -> list[ReplaceTab]:
    """In a private-orders campaign, each player's own report on the campaign as ``changes`` leave
    it (a tab of their order book, written with the same write); nothing otherwise -- and then
    the changes are not even applied.  ``rules`` defaults to the ruleset the result names."""
    books = backend.private_order_tabs
    if not books and backend.player_books:  # .xlsx books just opted into
        rules = rules or ruleset_of(tables)
        books = frozenset(t for t, who in rules.tab_audiences(tables).items() if who.kind == "player")
    if not books:
        return []
    after = apply_changes(tables, changes)
    rules = rules or ruleset_of(after)
    return list(rules.private_tabs(after, order_tabs=books))


def _tab_ids(backend: Backend) -> dict[str, Any]:
    """``tab_ids=`` for the ruleset when the backend knows stable tab ids (Google's sheetIds): a
    renamed tab is then followed exactly.  Nothing for .xlsx, whose tabs have no such id."""
    ids = backend.tab_ids
    return {"tab_ids": dict(ids)} if ids else {}


def exclusive(backend: Backend, command: str) -> contextlib.AbstractContextManager[Any]:
    """Hold the backend's exclusive lock for a command's whole read–compute–write, if it has one.

    An .xlsx campaign has one (XlsxBackend.exclusive, sheets_bridge/xlsx_lock.py): a second
    command on the same file is refused with a message naming the file and who holds it.
    """
    return backend.exclusive(command)


def read(backend: Backend) -> Tables:
    """Every tab of the campaign; from here on the command speaks the campaign's language
    (its meta tab's «Язык»/«Language»), until the CLI's `i18n.using` block ends.  One of the
    campaign's other books (a player's, the public one: `Backend.other_book`) is refused here, in
    words naming the campaign, before any command reads or writes anything of it (issue 23 p11)."""
    tables = backend.read()
    other = backend.other_book()
    i18n.adopt(meta.lang(tables) or (other[0].lang if other else "") or i18n.current())
    if other is not None:  # a player's or the public book given for the campaign: no command runs on it
        raise book_mark.refusal(other[0], backend.location, other[1])
    return tables


def read_all(backend: Backend) -> Tables:
    """`read`, and what only history, rollback, verify and report read: the chunks of the history's
    snapshots, where the backend keeps them (``Backend.stored``)."""
    return backend.stored(read(backend))


def _read(backend: Backend, p: Progress) -> Tables:
    p.start("read", _("Чтение таблицы"))
    tables = read(backend)
    p.finish("read")
    return tables


def _write(backend: Backend, changes: Changeset, p: Progress) -> None:
    p.start("write", _("Запись итогов"))
    backend.write(changes)
    p.finish("write")


def create(target: str, ruleset: str = rulesets.DEFAULT, scenario: str = "demo", lang: str = "ru",
           title: str | None = None, overwrite: bool = False, secret: str | None = None,
           books: bool = False) -> str:
    """Create a new campaign workbook from a ruleset template and scenario; its secret goes to the
    GM's store (before the file exists: a campaign is never made without it), in no cell.  With
    ``books`` the players' and the public books are written beside it (always for a game with
    hidden information), now and with every later write."""
    spec = _spec(ruleset, scenario, lang, title, secret)
    _no_secret_in_cells(spec)
    secrets.keep(spec)
    return create_xlsx(spec, target, overwrite=overwrite, books=books)


def create_google(ruleset: str = rulesets.DEFAULT, scenario: str = "demo", lang: str = "ru", title: str | None = None,
                  gm: str | None = None, players: Mapping[str, str] | None = None, private_orders: bool = True,
                  options: Options | None = None, secret: str | None = None,
                  on_spec: Callable[[WorkbookSpec], None] | None = None) -> CreatedCampaign:
    """Create a new campaign as Google spreadsheet(s), protected and shared (see gsheets.create_campaign):
    by default each player's orders in a spreadsheet of their own (``private_orders=False`` is the
    open mode, one spreadsheet every player reads); its secret goes to the GM's store under the
    campaign id, in no cell. `on_spec` sees the campaign's spec before anything is created (the CLI
    names the played and the AI sides from it, and refuses the open mode for hidden information)."""
    from . import gsheets

    spec = _spec(ruleset, scenario, lang, title, secret)
    _no_secret_in_cells(spec)
    if on_spec is not None:
        on_spec(spec)
    secrets.keep(spec)
    opts = options or Options()
    return gsheets.create(spec, credentials=opts.credentials, oauth_client_secrets=opts.oauth_client_secrets,
                          token_cache=opts.token_cache, gm=gm, players=players, private_orders=private_orders)


def _spec(ruleset: str, scenario: str, lang: str, title: str | None, secret: str | None) -> WorkbookSpec:
    """A new campaign's spec from the ruleset, marked ``hidden_information`` when the game hides
    facts from players: the backends then keep each audience's tabs in a book of its own."""
    game = rulesets.get(ruleset)
    spec = game.new_workbook(scenario=scenario, lang=lang, title=title, secret=secret)
    if game.hidden_information and not spec.hidden_information:
        spec = dataclasses.replace(spec, hidden_information=True)
    return spec


def _no_secret_in_cells(spec: WorkbookSpec) -> None:
    """A ruleset that put the dice's secret into a cell of a new campaign is refused (players could read it)."""
    if spec.secret and any(_holds(v, spec.secret) for t in spec.tabs for r in t.rows for v in r):
        raise CampaignError(_("ошибка правил: секрет ведущего оказался бы в ячейке новой кампании — она не создана"))
