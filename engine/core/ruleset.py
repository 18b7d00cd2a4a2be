"""What a game is to the core, the bridge and the CLI: the `Ruleset` interface.

In the style of godip's ``Variant`` and python-chess's variant classes: one object per game, kept
in the registry (engine/rulesets/__init__.py) under its name and aliases.  The bridge and the CLI
hold a `Ruleset` and call only what is declared here, so a type checker follows every call from
them into a game, and nothing is looked up by ``getattr``.  A game implements it in its own
folder (engine/rulesets/<game>/game.py: ``RULESET = …``); docs/architecture.md says how.

Also here: the values that cross that line — `Resource` (engine/core/ledger.py: what a game counts),
`SyncResult` (what check and resolve hand back to be written and shown) and `Victory` (who has
won and why: the game is over).  The scenario hooks' `Readback` is engine/core/scenario.py's, whose runner calls them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from . import i18n, meta, runner
from .audience import Audience
from .cursor import Calendar, Cursor
from .ending import Victory
from .ledger import Resource
from .orders import OrderRow
from .runner import WindowGame
from .scenario import Readback
from .tables import Changeset, ReplaceTab, Tables, WorkbookSpec
from .turn import TurnReport

DEFAULT_POST_LIMIT = 60_000  # characters of one forum post (a forum's usual limit)


@dataclass
class SyncResult:
    """The outcome of check or resolve: what to write and what to tell the GM.

    ``mode`` is "check" or "resolve"; ``turn`` the turn judged; ``changes`` the one atomic write;
    ``report`` the turn's report; ``campaign`` the game's own world after the turn (its type is
    the game's: the bridge never looks inside); ``summary`` what the CLI prints and --json shows,
    made by engine/core/summary.py's `build` ("mode", "ruleset", "turn", "window", "sides" and its
    deprecated alias "states", "orders", "warnings", the game's optional words such as
    "open_tabs", and "notices" the bridge adds)."""

    mode: str
    turn: int
    changes: Changeset
    report: TurnReport[Any]
    campaign: Any
    summary: dict[str, Any] = field(default_factory=dict)




@runtime_checkable
class Reporter(Protocol):
    """A game's reporter, a record of its own beside the `Ruleset`: what `strategos report` reads."""

    def last_resolved(self, tables: Tables) -> int:
        """The last resolved turn (0 before the first)."""
        ...

    def sides(self, tables: Tables) -> list[str]:
        """The sides that get a player report (the played ones, not the program's), sorted."""
        ...

    def forum_post(self, tables: Tables, turn: int | Cursor, fmt: str = "bbcode",
                   limit: int = DEFAULT_POST_LIMIT) -> list[str]:
        """The public post of `turn` in `fmt` ("bbcode" or "markdown"), split into posts of at most
        `limit` (the bridge cuts any longer one: engine/core/posts.py).  `turn` is a turn number (every
        window of it) or, in a staged game, one window's cursor («3:города»: that window alone;
        `cursor.covers` says which rows belong to it).  The bridge asks only for resolved windows."""
        ...

    def player_report(self, tables: Tables, side: str, turn: int | Cursor | None = None) -> str:
        """`side`'s private report after `turn` (default: the last resolved; a window's cursor as in
        `forum_post`), in Markdown."""
        ...

    def chart_png(self, tables: Tables, path: Path) -> Path:
        """The public chart as a PNG file at `path`; returns the path written."""
        ...


@runtime_checkable
class ScenarioHooks(Protocol):
    """The parts of a conformance scenario that know the game's tabs (engine/core/scenario.py runs a
    tests/scenarios/<name>/*.yaml through check/resolve with them; docs/scenarios.md)."""

    def tables(self, setup: Mapping[str, Any]) -> Tables:
        """The campaign a scenario starts from: its `setup` (template, patches of the world and of
        the rules) made into tables, open for the first turn."""
        ...

    def orders(self, tables: Tables, orders: Mapping[str, Sequence[Any]]) -> Tables:
        """`tables` with each side's rows of `orders` (in players' notation) written below its order
        tab's last row; a StrategosError when a side has no order tab."""
        ...

    def readback(self, tables: Tables, result: SyncResult) -> Readback:
        """What the judged turn of `result` left in `tables` (the changes applied): each side's order
        rows of that turn, its chronicle lines and ledger entries, the balance sheet."""
        ...

    def expect(self, expect: Mapping[str, Any], tables: Tables, result: SyncResult) -> list[str]:
        """The game's own expectations of a turn (the keys of `expect` the core does not know:
        engine/core/scenario.py GENERIC_KEYS) against `tables` after it; one message per mismatch."""
        ...


OnPhase = Callable[[str], None]  # hears each phase's name, in the campaign's language, as it ends


@runtime_checkable
class Ruleset(Protocol):
    """One game, as the core, the bridge and the CLI use it.  Every method takes the campaign as
    read (`Tables`: tab title -> grid) and returns values to write or show; none touches a sheet."""

    @property
    def name(self) -> str:
        """The registry name, written in the meta tab's «Правила»/"Ruleset" row."""
        ...

    @property
    def aliases(self) -> tuple[str, ...]:
        """Other names `engine.rulesets.get` accepts for this game (case-insensitive)."""
        ...

    @property
    def resources(self) -> tuple[Resource, ...]:
        """What the game counts per side, the main one (money) first."""
        ...

    @property
    def phases(self) -> tuple[str, ...]:
        """The phases of a turn in order, by name: the progress bar has one step per phase."""
        ...

    def window_phases(self, tables: Tables) -> tuple[str, ...]:
        """The open window's phases, by name: the progress bar of check and resolve has one step per phase."""
        ...

    @property
    def calendar(self) -> Calendar:
        """The stages of a turn (engine/core/cursor.py): what the open cursor of check and resolve
        can be; a one-stage game's cursors are plain turn numbers."""
        ...

    @property
    def hidden_information(self) -> bool:
        """Whether the game hides facts from some players (secret armies, spies' reports): then
        every backend keeps each audience's tabs in a book of its own (engine/core/audience.py) —
        Google private spreadsheets by default, .xlsx a workbook per player and a public one."""
        ...

    # ------------------------------------------------------------ the campaign's life

    def new_workbook(
        self,
        scenario: str = "demo",
        lang: str = "ru",
        title: str | None = None,
        secret: str | None = None,
        data: dict[str, Any] | None = None,
        campaign_id: str | None = None,
    ) -> WorkbookSpec:
        """Every tab of a new campaign of `scenario` (or of the scenario `data` given directly), open
        for the first turn, in `lang`; the secret travels beside the tabs, in no cell."""
        ...

    def check(
        self,
        tables: Tables,
        secret: str | None = None,
        on_phase: OnPhase | None = None,
        tab_ids: dict[str, str] | None = None,
        expect: Cursor | None = None,
    ) -> SyncResult:
        """Judge every order of the open turn as resolve would, drawing no dice; the changes write
        only the orders' status columns. ``tab_ids``: title -> stable id (Google), to follow renames.
        ``expect``: the window the GM asked to check (`check --turn/--stage`): TurnMismatch unless it
        is the open one (engine/core/window.py `expect`)."""
        ...

    def resolve(
        self,
        tables: Tables,
        expect: Cursor | None = None,
        seed: str | None = None,
        secret: str | None = None,
        on_phase: OnPhase | None = None,
        tab_ids: dict[str, str] | None = None,
    ) -> SyncResult:
        """Resolve the open window (TurnMismatch unless it is `expect`, when given) with the dice of
        `secret` (or of the revealed `seed`, for verify); the changes include the history snapshot."""
        ...

    def chronicle_seed(self, tables: Tables, cursor: Cursor) -> str | None:
        """The revealed seed of `cursor` as an old campaign's own pages tell it (before the meta kept
        it in a cell): verify's fallback, so the bridge never reads a game's wording."""
        ...

    def later_inputs(self, tables: Tables) -> dict[str, list[int]]:
        """Order tab -> its input columns (0-based): what players write after a turn, which verify
        does not hold against the turn."""
        ...

    def private_tabs(self, tables: Tables, order_tabs: Collection[str] | None = None) -> list[ReplaceTab]:
        """Each player's own report tab, to live beside their order tab (only those in `order_tabs`)."""
        ...

    def demo_changes(self, tables: Tables) -> Changeset:
        """Sample orders written into a fresh demo campaign (`strategos demo`)."""
        ...

    # ------------------------------------------------------------ views per audience (issue 17 p3, H5)

    def tab_audiences(self, tables: Tables) -> dict[str, Audience]:
        """Who may see each tab of the campaign as a write leaves it (`tables`: the tabs as read, and
        each tab the write adds with an empty grid): the GM, the public or one side's player
        (engine/core/audience.py).  The bridge hands it to the backend with every check and resolve
        (`Changeset.audiences`), so a game can say a tab's audience after the campaign was made (a
        spy's report, a map that fog of war hides); a tab it does not name keeps the audience it
        was given, and one nobody named is the GM's."""
        ...

    # ------------------------------------------------------------ the reporter and the scenario hooks

    @property
    def reporter(self) -> Reporter:
        """What `strategos report` (and the private report tabs) read: the game's posts, reports and chart."""
        ...

    @property
    def scenario(self) -> ScenarioHooks:
        """The four hooks engine/core/scenario.py plays a tests/scenarios/<name>/*.yaml with."""
        ...

    # ------------------------------------------------ absent players and victory (issue 17 p1/p2, H4 absence)

    def default_orders(self, tables: Tables, side: str, cursor: Cursor) -> list[OrderRow]:
        """The orders `side` gets at window `cursor` when it sent no rows there: order rows made with
        `engine.core.absence.stand_in`, read and judged like a player's. The resolve plays them for
        every absent side (`absence.attendance`); they are no presence for the NMR ladder. [] when
        the game plays none for an absent player."""
        ...

    def victory(self, tables: Tables) -> Victory | None:
        """Who has won and why, on the campaign as `tables` hold it (the bridge asks after each
        resolve, on the campaign as it leaves it); None while the game goes on. Not None means the
        game is over (winners may be none): the resolve of the window that ends it writes
        `session.finished_marker` with this verdict instead of opening a window, and the bridge
        refuses check and resolve from then on (engine/core/ending.py)."""
        ...


class BaseRuleset:
    """A `Ruleset` with the defaults, so that a game writes only what differs (like a python-chess
    variant): check and resolve are the core's window runner (engine/core/runner.py) driving the
    game's `WindowGame` in ``game``; the rest answers "nothing" until the game says otherwise."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    hidden_information: bool = False
    game: WindowGame[Any, Any]

    @property
    def resources(self) -> tuple[Resource, ...]:
        return self.game.resources

    @property
    def calendar(self) -> Calendar:
        return self.game.calendar

    @property
    def phases(self) -> tuple[str, ...]:
        """Every phase name of every stage, in order of first appearance."""
        stages = [Cursor(1, s.key, 1 if s.rounds else 0) for s in self.calendar.stages] or [Cursor(1)]
        return tuple(dict.fromkeys(p.name for at in stages for p in self.game.phases(at)))

    def window_phases(self, tables: Tables) -> tuple[str, ...]:
        """The open window's phases: the progress bar has one step per phase of this window."""
        return tuple(p.name for p in self.game.phases(meta.open_cursor(tables, self.calendar)))

    def check(self, tables: Tables, secret: str | None = None, on_phase: OnPhase | None = None,
              tab_ids: dict[str, str] | None = None, expect: Cursor | None = None) -> SyncResult:
        """The runner's check, in the campaign's language whoever calls (its texts and summary)."""
        with i18n.using(self.game.lang(tables)):
            j, changes = runner.check(self.game, tables, on_phase, expect, tab_ids)
            return SyncResult("check", j.at.turn, changes, j.report, j.world, self.game.summary("check", j))

    def resolve(self, tables: Tables, expect: Cursor | None = None, seed: str | None = None,
                secret: str | None = None, on_phase: OnPhase | None = None,
                tab_ids: dict[str, str] | None = None) -> SyncResult:
        """The runner's resolve, in the campaign's language whoever calls (its texts and summary)."""
        with i18n.using(self.game.lang(tables)):
            j, changes = runner.resolve(self.game, tables, expect, seed, secret, on_phase, tab_ids)
            return SyncResult("resolve", j.at.turn, changes, j.report, j.world, self.game.summary("resolve", j))

    def chronicle_seed(self, tables: Tables, cursor: Cursor) -> str | None:
        return None  # the seed is in the meta's own cell

    def later_inputs(self, tables: Tables) -> dict[str, list[int]]:
        return {}

    def private_tabs(self, tables: Tables, order_tabs: Collection[str] | None = None) -> list[ReplaceTab]:
        return []

    def demo_changes(self, tables: Tables) -> Changeset:
        return Changeset()

    def audiences(self, tables: Tables) -> dict[str, Audience]:
        """The game's own word on its tabs' audiences (`tab_audiences` adds the sides' logs)."""
        return {}

    def tab_audiences(self, tables: Tables) -> dict[str, Audience]:
        """The game's word on its tabs, and each side's own log that side's whatever the game says
        (a game that calls every tab it does not know public must not publish a side's log)."""
        lang = meta.lang(tables) or "ru"
        # a side's own log is that side's whatever the game says of its other tabs
        return {**self.audiences(tables),
                **runner.side_log_audiences(self.game, tables, self.reporter.sides(tables), lang)}

    reporter: Reporter
    scenario: ScenarioHooks

    def default_orders(self, tables: Tables, side: str, cursor: Cursor) -> list[OrderRow]:
        return []

    def victory(self, tables: Tables) -> Victory | None:
        return None
