"""What a game is to the core, the bridge and the CLI: the `Ruleset` interface.

In the style of godip's ``Variant`` and python-chess's variant classes: one object per game, kept
in the registry (engine/rulesets/__init__.py) under its name and aliases.  The bridge and the CLI
hold a `Ruleset` and call only what is declared here, so a type checker follows every call from
them into a game, and nothing is looked up by ``getattr``.  A game implements it in its own
folder (engine/rulesets/<game>/game.py: ``RULESET = …``); docs/architecture.md says how.

Also here: the values that cross that line — `Resource` (engine/core/ledger.py: what a game counts),
`SyncResult` (what check and resolve hand back to be written and shown) and `ScenarioOutcome`
(what a conformance scenario found).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .audience import Audience
from .cursor import Calendar, Cursor
from .ledger import Resource
from .tables import Changeset, ReplaceTab, Tables, WorkbookSpec
from .turn import TurnReport

DEFAULT_POST_LIMIT = 60_000  # characters of one forum post (a forum's usual limit)


@dataclass
class SyncResult:
    """The outcome of check or resolve: what to write and what to tell the GM.

    ``mode`` is "check" or "resolve"; ``turn`` the turn judged; ``changes`` the one atomic write;
    ``report`` the turn's report; ``campaign`` the game's own world after the turn (its type is
    the game's: the bridge never looks inside); ``summary`` what the CLI prints and --json shows
    ("mode", "ruleset", "turn", "states", "orders", "warnings", and "notices" the bridge adds)."""

    mode: str
    turn: int
    changes: Changeset
    report: TurnReport[Any]
    campaign: Any
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass
class ScenarioOutcome:
    """What one conformance scenario (tests/scenarios/<ruleset>/*.yaml) found: its failures,
    empty when everything matched (docs/scenarios.md)."""

    failures: list[str] = field(default_factory=list)

    def expect(self, ok: bool, message: str) -> None:
        """Record `message` as a failure unless `ok`."""
        if not ok:
            self.failures.append(message)


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
    ) -> SyncResult:
        """Judge every order of the open turn as resolve would, drawing no dice; the changes write
        only the orders' status columns. ``tab_ids``: title -> stable id (Google), to follow renames."""
        ...

    def resolve(
        self,
        tables: Tables,
        expect_turn: int | None = None,
        seed: str | None = None,
        secret: str | None = None,
        on_phase: OnPhase | None = None,
        tab_ids: dict[str, str] | None = None,
    ) -> SyncResult:
        """Resolve the open turn (TurnMismatch unless it is `expect_turn`, when given) with the dice of
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

    # ------------------------------------------------------------ the reporter

    def last_resolved(self, tables: Tables) -> int:
        """The last resolved turn (0 before the first)."""
        ...

    def report_sides(self, tables: Tables) -> list[str]:
        """The sides that get a player report (the played ones, not the program's), sorted."""
        ...

    def forum_post(self, tables: Tables, turn: int, fmt: str = "bbcode", limit: int = DEFAULT_POST_LIMIT) -> list[str]:
        """The public post of `turn` in `fmt` ("bbcode" or "markdown"), split into posts of at most `limit`."""
        ...

    def player_report(self, tables: Tables, side: str, turn: int | None = None) -> str:
        """`side`'s private report of `turn` (default: the last resolved), in Markdown."""
        ...

    def chart_png(self, tables: Tables, path: Path) -> Path:
        """The public chart as a PNG file at `path`; returns the path written."""
        ...

    # ------------------------------------------------------------ scenario hooks

    def run_scenario(self, data: Mapping[str, Any]) -> ScenarioOutcome:
        """Run one conformance scenario (a tests/scenarios/<name>/*.yaml, loaded) and compare every
        turn with its expectations (docs/scenarios.md)."""
        ...
