#!/usr/bin/env python3
"""Google's per-user quotas (issue 23, point 13): the requests of `new`, `check` and `resolve` and the
minutes they take when the program paces itself to Google's 60 Sheets reads + 60 Sheets writes per
minute per user (Drive apart, 12,000), on the local emulator counting them the same way.

    python scripts/bench_quota.py [--ruleset NAME] [--scenario demo] [--players 17] [--json]

A scenario of any game, private orders (a spreadsheet per player), `--players` players and the GM:
`new`, `check`, `check` again (a GM checks after a fix), `resolve`, then `check` and `resolve` of
the next window.  Each command runs straight after the previous one (the worst case: the quota's
minute is still full of the last command's requests) with a client of its own, as the CLI runs them
(so a command does not know what the previous one spent and may be refused first).
scripts/bench_civ1.py --quota runs a generated campaign of 26 nations with the same machinery.

The time is **virtual**: the client's clock and the emulator's move on together when the client
waits for the quota, so the run takes seconds, and a command's minutes are the seconds it waited
for the quota plus the seconds it computed here (the emulator answers faster than Google: with
Google's latency the waits shrink as much as the requests take longer).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import rulesets  # noqa: E402
from engine.core.tables import WorkbookSpec  # noqa: E402
from sheets_bridge import gsheets, secrets, sync  # noqa: E402
from sheets_bridge.emulator.quota import kind_of  # noqa: E402
from sheets_bridge.emulator.testing import Emulator, running_emulator  # noqa: E402
from sheets_bridge.google_http import StrategosClient, make_client  # noqa: E402

SA = "gm-bot@strategos-bench.iam.gserviceaccount.com"
GM = "gm@example.com"
#: Google's per-user Sheets allowance (read and write each) per minute
SHEETS_PER_MINUTE = 60
#: a command of the bench: its name and what it does with a client of its own
Command = tuple[str, Callable[[StrategosClient], Any]]


class VirtualTime:
    """A clock that runs with real time but jumps over waits, the emulator's clock jumping along."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.offset = 0.0
        self.waited = 0.0

    def clock(self) -> float:
        """Monotonic seconds, waits included."""
        return time.monotonic() + self.offset

    def sleep(self, seconds: float) -> None:
        """Skip ``seconds``: both clocks move on, nothing sleeps."""
        self.offset += seconds
        self.waited += seconds
        self.emu.app.store.clock.offset += seconds


class QuotaRun:
    """An emulator counting Google's per-user quotas, a virtual clock and the program's key."""

    def __init__(self, emu: Emulator, key: Path) -> None:
        self.emu = emu
        self.key = key
        self.time = VirtualTime(emu)
        self.rows: list[dict[str, Any]] = []

    def client(self) -> StrategosClient:
        """A client of its own (one CLI command), on the virtual clock."""
        return make_client(self.key, sleep=self.time.sleep, clock=self.time.clock)

    def measure(self, name: str, run: Callable[[StrategosClient], Any]) -> Any:
        """Run one command with a client of its own; keep its requests by kind, refusals and minutes."""
        before = self.emu.stats()["total"]
        waited, start = self.time.waited, time.perf_counter()
        result = run(self.client())
        computed = time.perf_counter() - start
        requests = [r for r in self.emu.stats()["requests"] if r["n"] > before]
        kinds = collections.Counter(kind_of(r["endpoint"]) or "token" for r in requests)
        refused = sum(1 for r in requests if r["status"] in (429, 403) and kind_of(r["endpoint"]))
        wait = self.time.waited - waited
        self.rows.append({"command": name, "reads": kinds["sheets-read"], "writes": kinds["sheets-write"],
                          "drive": kinds["drive"], "refused": refused, "waited_s": round(wait, 1),
                          "computed_s": round(computed, 1), "minutes": round((wait + computed) / 60, 2)})
        return result

    def new(self, spec: WorkbookSpec, players: dict[str, str], private_orders: bool = True) -> str:
        """`new --google` of ``spec``: the campaign's id."""
        secrets.keep(spec)
        return str(self.measure("new", lambda c: gsheets.create(spec, client=c, gm=GM, players=players,
                                                                private_orders=private_orders).spreadsheet_id))

    def sync(self, name: str, sid: str) -> None:
        """`check` or `resolve` (``name`` starts with the command) of the campaign's open window."""
        command = sync.check if name.startswith("check") else sync.resolve
        self.measure(name, lambda c: command(gsheets.GoogleBackend(c, sid)))


@contextlib.contextmanager
def quota_run(label: str) -> Iterator[QuotaRun]:
    """A :class:`QuotaRun` on an emulator of its own (``--quota-per-minute 60``)."""
    with running_emulator(quota_per_minute=SHEETS_PER_MINUTE) as emu, tempfile.TemporaryDirectory() as tmp:
        os.environ["STRATEGOS_GOOGLE_API_BASE"] = emu.base_url
        os.environ.setdefault("STRATEGOS_SECRETS", str(Path(tmp) / f"secrets-{label}.json"))
        yield QuotaRun(emu, emu.write_credentials(Path(tmp) / "sa.json", SA))


def scenario(ruleset: str, name: str, players: int) -> list[dict[str, Any]]:
    """A scenario with private orders: new, check, check again, resolve, check and resolve of the next window."""
    spec = sync._spec(ruleset, name, "ru", None, None)
    played = spec.played_sides()[:players]
    people = {side: f"p{i}@example.com" for i, side in enumerate(played)}
    with quota_run(f"{ruleset}-{name}") as run:
        sid = run.new(spec, people)
        for command in ("check", "check again", "resolve", "check (next window)", "resolve (next window)"):
            run.sync(command, sid)
    label = f"{ruleset} {name}, {len(people)} players, private orders"
    return [dict(r, campaign=label) for r in run.rows]


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as the Markdown table of docs/benchmarks.md."""
    out = ["| campaign | command | Sheets reads | Sheets writes | Drive | refused (429) | waited, s | "
           "computed here, s | minutes |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['campaign']} | {r['command']} | {r['reads']} | {r['writes']} | {r['drive']} | "
                   f"{r['refused']} | {r['waited_s']} | {r['computed_s']} | {r['minutes']} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default=rulesets.DEFAULT, help="the game (default: the default one)")
    p.add_argument("--scenario", default="demo")
    p.add_argument("--players", type=int, default=17, help="players, one per played side (default 17)")
    p.add_argument("--json", action="store_true", help="the rows as JSON")
    args = p.parse_args(argv)
    rows = scenario(args.ruleset, args.scenario, args.players)
    print(json.dumps(rows, ensure_ascii=False, indent=1) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
