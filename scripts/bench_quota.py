#!/usr/bin/env python3
"""Google's per-user quotas (issue 23, point 13): the requests of `new`, `check` and `resolve` and the
minutes they take when the program paces itself to Google's 60 Sheets reads + 60 Sheets writes per
minute per user (Drive apart, 12,000), on the local emulator counting them the same way.

    python scripts/bench_quota.py [--json] [--only ancient|civ1] [--nations 26]

Two campaigns, each command run straight after the previous one (the worst case: the quota's
minute is still full of the last command's requests), each with a client of its own as the CLI
runs them (so a command does not know what the previous one spent and may meet a 429 first):

* the ancient demo, 17 players and the GM, private orders (a spreadsheet per player): `new`,
  `check` twice (a GM checks again after a fix), `resolve`, then `check` and `resolve` of turn 2;
* a civ1 campaign of `--nations` generated nations (engine/rulesets/civ1/generate.py), a player
  for each: `new`, then for both stages of turn 1 the orders, `check` and `resolve`.  The orders
  are written through the API by the program's account, on the same quota (players typing in
  Google's own editor spend none of it): the harder case.

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

from engine.core.tables import Changeset, WorkbookSpec  # noqa: E402
from engine.rulesets.civ1 import codec, hooks  # noqa: E402
from engine.rulesets.civ1.generate import generate, generate_orders  # noqa: E402
from engine.rulesets.civ1.workbook import new_workbook  # noqa: E402
from sheets_bridge import gsheets, secrets, sync  # noqa: E402
from sheets_bridge.emulator.quota import kind_of  # noqa: E402
from sheets_bridge.emulator.testing import Emulator, running_emulator  # noqa: E402
from sheets_bridge.google_http import StrategosClient, make_client  # noqa: E402

SA = "gm-bot@strategos-bench.iam.gserviceaccount.com"
GM = "gm@example.com"
SEED = 20261201
#: Google's per-user Sheets allowance (read and write each) per minute
SHEETS_PER_MINUTE = 60


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


@contextlib.contextmanager
def google_quota(nations_label: str) -> Iterator[tuple[Emulator, VirtualTime, Path]]:
    """An emulator counting Google's per-user quotas, a virtual clock and the program's key."""
    with running_emulator(quota_per_minute=SHEETS_PER_MINUTE) as emu, tempfile.TemporaryDirectory() as tmp:
        os.environ["STRATEGOS_GOOGLE_API_BASE"] = emu.base_url
        os.environ.setdefault("STRATEGOS_SECRETS", str(Path(tmp) / f"secrets-{nations_label}.json"))
        yield emu, VirtualTime(emu), emu.write_credentials(Path(tmp) / "sa.json", SA)


def measure(emu: Emulator, vt: VirtualTime, name: str, run: Callable[[StrategosClient], Any],
            key: Path) -> dict[str, Any]:
    """Run one command with a client of its own; its requests by kind, refusals and minutes."""
    before = emu.stats()["total"]
    waited, start = vt.waited, time.perf_counter()
    client = make_client(key, sleep=vt.sleep, clock=vt.clock)
    run(client)
    computed = time.perf_counter() - start
    requests = [r for r in emu.stats()["requests"] if r["n"] > before]
    kinds = collections.Counter(kind_of(r["endpoint"]) or "token" for r in requests)
    refused = sum(1 for r in requests if r["status"] in (429, 403) and kind_of(r["endpoint"]))
    wait = vt.waited - waited
    return {"command": name, "reads": kinds["sheets-read"], "writes": kinds["sheets-write"],
            "drive": kinds["drive"], "refused": refused, "waited_s": round(wait, 1),
            "computed_s": round(computed, 1), "minutes": round((wait + computed) / 60, 2)}


def ancient(players: int = 17) -> list[dict[str, Any]]:
    """The ancient demo with private orders: new, check, check again, resolve; check and resolve of turn 2."""
    rows: list[dict[str, Any]] = []
    with google_quota("ancient") as (emu, vt, key):
        spec = sync._spec("ancient", "demo", "ru", None, None)
        played = spec.played_sides()[:players]
        people = {side: f"p{i}@example.com" for i, side in enumerate(played)}
        secrets.keep(spec)
        made: dict[str, str] = {}

        def new(client: StrategosClient) -> None:
            made["sid"] = gsheets.create(spec, client=client, gm=GM, players=people,
                                         private_orders=True).spreadsheet_id

        rows.append(measure(emu, vt, "new", new, key))
        for name, command in (("check", sync.check), ("check", sync.check), ("resolve", sync.resolve),
                              ("check (turn 2)", sync.check), ("resolve (turn 2)", sync.resolve)):
            rows.append(measure(emu, vt, name, lambda c, f=command: f(gsheets.GoogleBackend(c, made["sid"])), key))
    return [dict(r, campaign=f"ancient demo, {len(people)} players, private orders") for r in rows]


def civ1(nations: int = 26) -> list[dict[str, Any]]:
    """A civ1 campaign of generated nations: new; orders, check and resolve of both stages of turn 1."""
    rows: list[dict[str, Any]] = []
    with google_quota(f"civ1-{nations}") as (emu, vt, key):
        spec: WorkbookSpec = new_workbook("bench", "ru", f"bench-quota-{nations}".ljust(32, "x"),
                                          f"bench-quota-{nations}", data=generate(nations, SEED))
        people = {side: f"n{i}@example.com" for i, side in enumerate(spec.played_sides())}
        secrets.keep(spec)
        made: dict[str, str] = {}

        def new(client: StrategosClient) -> None:
            made["sid"] = gsheets.create(spec, client=client, gm=GM, players=people).spreadsheet_id

        def orders(stage: str) -> Callable[[StrategosClient], None]:
            def write(client: StrategosClient) -> None:
                backend = gsheets.GoogleBackend(client, made["sid"])
                tables = backend.read()
                found = generate_orders(codec.decode(tables), stage, SEED)
                backend.write(Changeset(blocks=hooks.order_blocks(tables, found)))
            return write

        rows.append(measure(emu, vt, "new", new, key))
        for stage in ("state", "cities"):
            rows.append(measure(emu, vt, f"orders ({stage}), through the API", orders(stage), key))
            for name, command in (("check", sync.check), ("resolve", sync.resolve)):
                rows.append(measure(emu, vt, f"{name} ({stage})",
                                    lambda c, f=command: f(gsheets.GoogleBackend(c, made["sid"])), key))
    return [dict(r, campaign=f"civ1, {nations} nations") for r in rows]


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as the Markdown table of docs/benchmarks.md."""
    out = ["| campaign | command | Sheets reads | Sheets writes | Drive | refused (429) | waited, s | "
           "computed here, s | minutes |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['campaign']} | `{r['command']}` | {r['reads']} | {r['writes']} | {r['drive']} | "
                   f"{r['refused']} | {r['waited_s']} | {r['computed_s']} | {r['minutes']} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", action="store_true", help="the rows as JSON")
    p.add_argument("--only", choices=("ancient", "civ1"), help="one campaign only")
    p.add_argument("--nations", type=int, default=26, help="civ1 nations (default 26)")
    args = p.parse_args(argv)
    rows: list[dict[str, Any]] = []
    if args.only in (None, "ancient"):
        rows += ancient()
    if args.only in (None, "civ1"):
        rows += civ1(args.nations)
    print(json.dumps(rows, ensure_ascii=False, indent=1) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
