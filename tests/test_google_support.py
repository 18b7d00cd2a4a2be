"""Shared helpers of the Google backend tests (no tests here; imported by tests/test_google_*.py).

Every Google test runs against the local emulator started in-process by ``running_emulator``;
``STRATEGOS_GOOGLE_API_BASE`` points the production code path (``google_http``) at it.
Retries sleep through a fake clock so fault tests take no time.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.core.tables import Cell, Formula, Tables, WorkbookSpec
from engine.rulesets.ancient import ruleset
from sheets_bridge import google_http, gsheets, secrets
from sheets_bridge.emulator.jsoncopy import jcopy
from sheets_bridge.emulator.model import Spreadsheet
from sheets_bridge.emulator.store import DriveFile
from sheets_bridge.emulator.testing import Emulator, running_emulator
from sheets_bridge.google_http import RetryPolicy, StrategosClient

SA = "gm-bot@strategos-demo.iam.gserviceaccount.com"
GM = "gm@example.com"
P1 = "p1@example.com"
P2 = "p2@example.com"
OUTSIDER = "outsider@example.com"
PLAYERS = {"Египет": P1, "Рим": P2}
SECRET = "test-secret"


@dataclass
class FakeTime:
    """Injectable clock/sleep: sleeping only advances the fake clock (and the emulator's, if asked)."""

    now: float = 1000.0
    sleeps: list[float] = field(default_factory=list)
    emulator: Emulator | None = None

    def clock(self) -> float:
        """Monotonic seconds."""
        return self.now

    def sleep(self, seconds: float) -> None:
        """Record the wait and move the clocks on."""
        self.sleeps.append(seconds)
        self.now += seconds
        if self.emulator is not None:
            self.emulator.advance_clock(seconds)


@dataclass(frozen=True)
class Frozen:
    """Drive files (JSON) and spreadsheets of the emulator as they were, shared with nothing."""

    files: dict[str, dict[str, Any]]
    spreadsheets: dict[str, Spreadsheet]


@dataclass
class GoogleEnv:
    """The emulator, the program's service-account key and a way to make clients and campaigns."""

    emu: Emulator
    folder: Path
    sa_key: Path
    fake: FakeTime
    templates: dict[str, str] = field(default_factory=dict)
    clients: dict[str, StrategosClient] = field(default_factory=dict)

    def key(self, identity: str) -> Path:
        """A service-account key the emulator accepts for ``identity``."""
        path = self.folder / f"{identity}.json"
        if not path.exists():
            self.emu.write_credentials(path, identity)
        return path

    def client(self, identity: str = SA, **options: Any) -> StrategosClient:
        """A client for ``identity`` with instant (fake) sleeps (one per identity and test, unless
        options are given: loading a key and signing a token cost more than a small request)."""
        if not options and identity in self.clients:
            return self.clients[identity]
        cache = not options
        options.setdefault("sleep", self.fake.sleep)
        options.setdefault("clock", self.fake.clock)
        options.setdefault("timeout", (2.0, 10.0))
        options.setdefault("retry_policy", RetryPolicy(max_attempts=5, max_total_seconds=600.0))
        client = gsheets.make_google_client(self.key(identity), **options)
        if cache:
            self.clients[identity] = client
        return client

    def backend(self, spreadsheet_id: str, **options: Any) -> gsheets.GoogleBackend:
        """A fresh backend (nothing cached from earlier reads) on ``spreadsheet_id``."""
        max_bytes = options.pop("max_write_bytes", gsheets.MAX_WRITE_BYTES)
        return gsheets.GoogleBackend(self.client(SA, **options), spreadsheet_id, max_write_bytes=max_bytes)

    def create(
        self, spec: WorkbookSpec, timeout: tuple[float, float] | None = None, **kwargs: Any
    ) -> gsheets.CreatedCampaign:
        """Create a campaign through the backend's own create, as the program's account.  A huge
        creation asks for a longer ``timeout``: a batch the client gave up on is still being
        applied, and its late answer would be counted after the test's next reset.  Unless a test
        asks for ``private_orders`` (the product's default), it gets the open mode, one spreadsheet:
        what most tests exercise (a write, a read, a fault) is the same there, at a fraction of the
        requests."""
        kwargs.setdefault("gm", GM)
        kwargs.setdefault("players", PLAYERS)
        kwargs.setdefault("notify", False)
        kwargs.setdefault("private_orders", False)
        client = self.client(SA, timeout=timeout) if timeout else self.client(SA)
        return gsheets.create_campaign(spec, client, **kwargs)

    def campaign(self, world: str = "demo", orders: bool = True) -> str:
        """A fresh campaign of ``world`` ("demo" or "small"), with the demo's sample orders if asked.

        Built once per test module through the backend's create, then cloned for each test
        with one Drive copy (tabs, dropdowns and protections included): the tests stay fast.
        """
        key = f"{world}:{orders}"
        if key not in self.templates:
            spec = demo_spec() if world == "demo" else small_spec()
            created = self.create(spec, players=PLAYERS if world == "demo" else {})
            if orders:
                backend = self.backend(created.spreadsheet_id)
                backend.write(ruleset.demo_changes(backend.read()))
            self.templates[key] = created.spreadsheet_id
        answer = self.client(SA).http_client.request(
            "post", f"{google_http.GOOGLE_DRIVE_URL}/{self.templates[key]}/copy", json={"name": key}
        )
        return str(answer.json()["id"])

    def files_now(self) -> set[str]:
        """The ids of every Drive file the emulator holds now (what a campaign made next adds to)."""
        with self.emu.app.store.lock:
            return set(self.emu.app.store.files)

    def freeze(self, ids: Iterable[str]) -> Frozen:
        """The Drive files ``ids`` (a campaign's spreadsheets, say) as they are now, for :meth:`thaw`."""
        store = self.emu.app.store
        with store.lock:
            return Frozen({fid: jcopy(store.files[fid].to_json()) for fid in ids},
                          {fid: store.spreadsheets[fid].copy() for fid in ids if fid in store.spreadsheets})

    def thaw(self, frozen: Frozen) -> None:
        """Put the frozen files back exactly as they were, under the same ids: a campaign of several
        spreadsheets that link to each other made again at the cost of a copy (a Drive copy of one
        of them would still link to the others), instead of creating all of them through the API."""
        store = self.emu.app.store
        with store.lock:
            for fid, data in frozen.files.items():
                store.files[fid] = DriveFile.from_json(jcopy(data))
            for fid, ss in frozen.spreadsheets.items():
                store.spreadsheets[fid] = ss.copy()

    def tabs(self, spreadsheet_id: str, *names: str) -> Tables:
        """Only the named tabs (one ranged read: cheaper than reading the whole campaign)."""
        ranges = [gsheets.quote_title(n) for n in names]
        answer = gsheets.get_spreadsheet(self.client(SA), spreadsheet_id, gsheets.READ_FIELDS, ranges)
        return gsheets._absorb(spreadsheet_id, answer)[0]

    def reset(self) -> None:
        """Zero the emulator's counters once every earlier answer has been recorded."""
        settled_stats(self.emu)
        self.emu.reset()

    def counts(self) -> dict[str, int]:
        """Requests per endpoint since the last reset, token requests excluded."""
        return {k: v for k, v in settled_stats(self.emu)["by_endpoint"].items() if k != "oauth.token"}


def leaves(answer: dict[str, Any]) -> set[object]:
    """Every value, formula and note of every cell of a spreadsheets.get answer (hidden tabs too):
    what a reader of the spreadsheet can see, searched by the hidden-information tests."""
    out: set[object] = set()
    for sheet in answer.get("sheets", []):
        for data in sheet.get("data", []):
            for row in data.get("rowData", []):
                for cell in row.get("values", []):
                    for key in ("userEnteredValue", "effectiveValue"):
                        out.update((cell.get(key) or {}).values())
                    out.update(v for v in (cell.get("formattedValue"), cell.get("note")) if v is not None)
    return out


def settled_stats(emu: Emulator) -> dict[str, Any]:
    """The emulator's statistics once the last answer has been recorded (it records just after
    sending, so a counter read right after an answer may miss it by a moment)."""
    previous = emu.stats()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        time.sleep(0.01)
        current = emu.stats()
        if current["total"] == previous["total"]:
            return current
        previous = current
    return previous


@dataclass
class Shared:
    """What the tests of one module share: the emulator, identity keys, prepared campaigns."""

    emu: Emulator
    keys: Path
    templates: dict[str, str] = field(default_factory=dict)


@pytest.fixture(scope="module")
def emulator_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shared]:
    """One emulator per test module (a thread of this process)."""
    with running_emulator(timeout_sleep=0.5) as emu:
        yield Shared(emu, tmp_path_factory.mktemp("google-keys"))


@pytest.fixture
def google(emulator_server: Shared, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GoogleEnv:
    """The module's emulator with faults cleared and counters at zero, selected through
    STRATEGOS_GOOGLE_API_BASE; the program's key.  Data stays between the tests of a module
    (every test works on spreadsheets of its own), so prepared campaigns can be cloned."""
    emu = emulator_server.emu
    emu.set_faults(clear=True, quota_per_minute=None, retry_after=None)
    monkeypatch.setenv("STRATEGOS_GOOGLE_API_BASE", emu.base_url)
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    env = GoogleEnv(emu, emulator_server.keys, emulator_server.keys / f"{SA}.json", FakeTime(),
                    emulator_server.templates)
    env.key(SA)
    env.reset()
    return env


def kept(spec: WorkbookSpec) -> WorkbookSpec:
    """A spec whose secret is in the GM's (temporary) store, as `strategos new` leaves it."""
    secrets.keep(spec)
    return spec


def small_spec() -> WorkbookSpec:
    """A small generated world (5 states, 4 played): what the demo proves, at a third of the cost.
    A fixed campaign id, so that the .xlsx and the Google copies of it are alike cell for cell."""
    return kept(ruleset.new_workbook(scenario="generated:5", secret=SECRET, campaign_id="test-small"))


def demo_spec(lang: str = "ru") -> WorkbookSpec:
    """The demo campaign with the tests' fixed secret (and a fixed campaign id)."""
    return kept(ruleset.new_workbook(scenario="demo", lang=lang, secret=SECRET, campaign_id=f"test-demo-{lang}"))


def normal(tables: Tables) -> dict[str, list[list[Cell]]]:
    """Tables compared across backends: trailing blanks dropped, whole floats as ints, '' as blank."""
    out: dict[str, list[list[Cell]]] = {}
    for name, grid in tables.items():
        rows: list[list[Cell]] = []
        for line in grid:
            row: list[Cell] = []
            for v in line:
                if isinstance(v, float) and v.is_integer():
                    v = int(v)
                if isinstance(v, str) and not isinstance(v, Formula) and v == "":
                    v = None
                row.append(v)
            while row and row[-1] is None:
                row.pop()
            rows.append(row)
        while rows and not rows[-1]:
            rows.pop()
        out[name] = rows
    return out


def meta(tables: Tables) -> dict[str, Cell]:
    """The meta tab as {key: value} (Russian campaign)."""
    return {str(r[0]): (r[1] if len(r) > 1 else None) for r in tables["Кампания"][1:] if r}


RECOUNT_WORDS = ("разрешается заново после отката", "is resolved again after a rollback")


def recounts(tables: dict[str, list[list[Any]]]) -> list[str]:
    """The chronicle lines that say a window is resolved again after a rollback (engine/core/draw.py)."""
    return [str(v) for grid in tables.values() for row in grid for v in row
            if isinstance(v, str) and any(w in v for w in RECOUNT_WORDS)]


def without_recounts(tables: dict[str, list[list[Any]]]) -> dict[str, list[list[Any]]]:
    """``tables`` without the rows of those lines: what the window itself computed, to compare with
    the same window resolved before the rollback."""
    return {tab: [row for row in grid if not any(isinstance(v, str) and any(w in v for w in RECOUNT_WORDS)
                                                 for v in row)]
            for tab, grid in tables.items()}
