#!/usr/bin/env python3
"""«Civilization 1.0» benchmarks (issue 18, point 9), with the targets of
scripts/bench.py: engine time at 5, 50 and 500 nations (linear), Google requests per stage (one read
and one write per spreadsheet the stage touches, and the sharing audit), the .xlsx resolve against
the bare openpyxl load + save of the same workbook.

    python scripts/bench_civ1.py [--quick] [--json] [--runs N] [--sizes 5,50,500] [--engine-only]
    python scripts/bench_civ1.py --quota [NATIONS]   # Google's per-user quotas (scripts/bench_quota.py)

Worlds are generated deterministically (engine/rulesets/civ1/generate.py): a 5×5 block of land per
nation, its capital, a village two hexes away, a war in every tenth pair; orders for both stages
(explore, research, found a city, attack; activate, work a hex, build a unit).  A stage's figure is
the median of `--runs` resolves of the same tables: wall time (what the targets judge) and, beside
it, this process's CPU time (on a loaded machine the wall time counts the other processes' turns
too).  Timed unit tests never judge speed; only this script prints targets as met or missed
(docs/benchmarks.md, «Civilization 1.0»).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core import gc_pause  # noqa: E402
from engine.core.tables import Changeset, Tables, apply_changes  # noqa: E402
from engine.rulesets.civ1 import codec, game, hooks  # noqa: E402
from engine.rulesets.civ1.generate import generate, generate_orders  # noqa: E402
from engine.rulesets.civ1.workbook import new_workbook, tables_of  # noqa: E402
from sheets_bridge import secrets, sync  # noqa: E402
from sheets_bridge.xlsx import XlsxBackend, create_xlsx  # noqa: E402

SEED = 20261201
STAGES = ("state", "cities")
# the bench's campaigns keep their secrets in a throw-away store, not the GM's ~/.config
os.environ.setdefault("STRATEGOS_SECRETS",
                      str(Path(tempfile.gettempdir()) / f"strategos-bench-civ1-{os.getpid()}.json"))


def secret_of(nations: int) -> str:
    return f"bench-civ1-{nations}".ljust(32, "x")


def spec_of(nations: int) -> Any:
    return new_workbook("bench", "ru", secret_of(nations), f"bench-civ1-{nations}", data=generate(nations, SEED))


def with_orders(tables: Tables, stage: str) -> Tables:
    return hooks.put_orders(tables, generate_orders(codec.decode(tables), stage, SEED))


def median_time(fn: Callable[[], object], runs: int, cpu: list[float] | None = None) -> float:
    """The median wall time of `runs` calls; with `cpu`, the median CPU time of this process is
    appended to it (on a loaded machine the wall time also counts the other processes' turns)."""
    times, spent = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t)
        spent.append(time.process_time() - c)
    if cpu is not None:
        cpu.append(statistics.median(spent))
    return statistics.median(times)


def _resolve(tables: Tables, nations: int) -> object:
    """The engine as the bridge runs it (sheets_bridge/sync.py): the cyclic collector paused."""
    with gc_pause.paused():
        return game.RULESET.resolve(tables, secret=secret_of(nations))


def bench_engine(nations: int, runs: int) -> dict[str, Any]:
    """Each stage of turn 1 resolved in memory (decode, every phase, encode), with its orders."""
    out: dict[str, Any] = {"nations": nations}
    tables = tables_of(spec_of(nations))
    for stage in STAGES:
        tables = with_orders(tables, stage)
        ready = tables
        out[f"{stage}_orders"] = sum(len(rows) for rows in generate_orders(codec.decode(ready), stage, SEED).values())
        cpu: list[float] = []
        out[f"{stage}_s"] = median_time(lambda t=ready: _resolve(t, nations), runs, cpu)
        out[f"{stage}_cpu_s"] = cpu[0]
        tables = apply_changes(ready, game.RULESET.resolve(ready, secret=secret_of(nations)).changes)
    out["turn_s"] = out["state_s"] + out["cities_s"]
    out["turn_cpu_s"] = out["state_cpu_s"] + out["cities_cpu_s"]
    return out


def campaign_in_play(nations: int, path: Path, windows: int = 2) -> None:
    """A workbook with `windows` windows resolved with orders and the orders of the next written."""
    spec = spec_of(nations)
    secrets.keep(spec)
    create_xlsx(spec, path)
    for i in range(windows + 1):
        backend = XlsxBackend(path)
        tables = backend.read()
        stage = STAGES[i % 2]
        orders = generate_orders(codec.decode(tables), stage, SEED)
        backend.write(Changeset(blocks=hooks.order_blocks(tables, orders)))
        if i < windows:
            sync.resolve(XlsxBackend(path))


def bench_xlsx(nations: int, runs: int) -> dict[str, Any]:
    """A full resolve of the third window (2:государство) against the bare openpyxl load + save of
    the same files: with hidden information a save writes the GM's workbook and, beside it, the
    public book and one book per nation (sheets_bridge/xlsx_books.py), so the floor is the load +
    save of every one of them (and, for comparison, of the GM's workbook alone)."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        base.mkdir()
        campaign_in_play(nations, base / "c.xlsx")
        work = Path(tmp) / "work"
        books = sorted(p.relative_to(base) for p in base.rglob("*.xlsx"))

        def fresh() -> None:
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(base, work)

        def bare(files: list[Path]) -> None:
            fresh()
            for f in files:
                openpyxl.load_workbook(work / f).save(work / f)

        def full() -> None:
            fresh()
            sync.resolve(XlsxBackend(work / "c.xlsx"))

        gm_s = median_time(lambda: bare([Path("c.xlsx")]), runs)
        bare_s = median_time(lambda: bare(books), runs)
        full_s = median_time(full, runs)
        size = sum((base / f).stat().st_size for f in books)
    return {"gm_load_save_s": gm_s, "bare_load_save_s": bare_s, "full_resolve_s": full_s, "ratio": full_s / bare_s,
            "bytes": size, "files": len(books)}


SPREADSHEET = re.compile(r"/spreadsheets/([^/:?]+)")


def _count(emu: Any) -> dict[str, Any]:
    api = [r for r in emu.stats()["requests"] if not r["path"].startswith("/token")]
    sheets = [r for r in api if SPREADSHEET.search(r["path"])]
    touched = {SPREADSHEET.search(r["path"]).group(1) for r in sheets}  # type: ignore[union-attr]
    reads = sum(1 for r in sheets if r["method"] == "GET")
    writes = sum(1 for r in sheets if r["method"] == "POST")
    written = sum(r["request_bytes"] for r in sheets if r["method"] == "POST")
    return {"requests": len(api), "reads": reads, "writes": writes, "other": len(api) - len(sheets),
            "spreadsheets": len(touched), "written": written,
            "bytes": sum(r["request_bytes"] + r["response_bytes"] for r in api)}


def bench_google(nations: int) -> dict[str, Any] | None:
    """Requests of a check and a resolve of each stage of turn 1 on the local emulator: the campaign
    is split by audience (the public spreadsheet, the GM's, one per nation)."""
    try:
        from sheets_bridge import gsheets
        from sheets_bridge.emulator.testing import running_emulator
    except ImportError:
        return None
    result: dict[str, Any] = {}
    with running_emulator() as emu, tempfile.TemporaryDirectory() as tmp:
        creds = emu.write_credentials(Path(tmp) / "gm.json", "gm-bot@strategos.example")
        os.environ["STRATEGOS_GOOGLE_API_BASE"] = emu.base_url
        spec = spec_of(nations)
        secrets.keep(spec)
        sid = gsheets.create(spec, credentials=str(creds)).spreadsheet_id
        for stage in STAGES:
            backend = gsheets.GoogleBackend.open(sid, credentials=str(creds))
            tables = backend.read()
            backend.write(Changeset(blocks=hooks.order_blocks(tables, generate_orders(codec.decode(tables), stage,
                                                                                       SEED))))
            for mode in ("check", "resolve"):
                emu.reset()
                t = time.perf_counter()
                backend = gsheets.GoogleBackend.open(sid, credentials=str(creds))
                (sync.check if mode == "check" else sync.resolve)(backend)
                result[f"{stage} {mode}"] = {**_count(emu), "seconds": time.perf_counter() - t}
    return result


def bench_quota(nations: int) -> list[dict[str, Any]]:
    """Google's per-user quotas (issue 23, point 13; scripts/bench_quota.py): `new` of a campaign of
    `nations` with a player each, then for both stages of turn 1 the orders (through the API, by the
    program's account: the harder case), `check` and `resolve`, each straight after the last."""
    from bench_quota import quota_run

    spec = spec_of(nations)
    people = {side: f"n{i}@example.com" for i, side in enumerate(spec.played_sides())}

    def orders(stage: str) -> Callable[[Any], None]:
        def write(client: Any) -> None:
            backend = gsheets.GoogleBackend(client, sid)
            tables = backend.read()
            backend.write(Changeset(blocks=hooks.order_blocks(tables, generate_orders(codec.decode(tables), stage,
                                                                                      SEED))))
        return write

    from sheets_bridge import gsheets

    with quota_run(f"civ1-{nations}") as run:
        sid = run.new(spec, people, private_orders=False)  # a game with hidden information is split anyway
        for stage in STAGES:
            run.measure(f"orders ({stage}), through the API", orders(stage))
            run.sync(f"check ({stage})", sid)
            run.sync(f"resolve ({stage})", sid)
    return [dict(r, campaign=f"civ1, {nations} nations") for r in run.rows]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--quick", action="store_true", help="xlsx and Google at 5 nations only")
    p.add_argument("--json", action="store_true", help="print {targets: [...]} as JSON")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--sizes", default="5,50,500", help="engine sizes (nations), smallest first")
    p.add_argument("--engine-only", action="store_true", help="the engine figures only (no .xlsx, no Google)")
    p.add_argument("--quota", type=int, metavar="NATIONS", nargs="?", const=26,
                   help="only Google's per-user quotas at NATIONS (26): new, orders, check, resolve back to back")
    args = p.parse_args(argv)
    if args.quota:
        from bench_quota import table

        rows = bench_quota(args.quota)
        print(json.dumps(rows, ensure_ascii=False, indent=1) if args.json else table(rows))
        return 0
    runs = max(args.runs, 1)
    sizes = [int(x) for x in args.sizes.split(",")]
    engine = {n: bench_engine(n, runs) for n in sizes}
    small = [] if args.engine_only else sizes[:1] if args.quick else sizes[:2]
    xlsx = {n: bench_xlsx(n, runs) for n in small}
    google: dict[int, dict[str, Any] | None] = {}
    failed: dict[int, str] = {}
    for n in small:
        try:
            google[n] = bench_google(n)
        except Exception as e:  # a failure of the bridge is a figure too: printed, not hidden
            failed[n] = f"{type(e).__name__}: {e}"
    first, last = sizes[0], sizes[-1]
    targets = [
        {"name": f"engine turn (both stages) {first} nations, s", "value": round(engine[first]["turn_s"], 4),
         "target": 0.05},
        {"name": f"engine turn (both stages) {last} nations, s", "value": round(engine[last]["turn_s"], 3),
         "target": 5.0},
    ]
    for a, b in itertools.pairwise(sizes):  # linear: ten times the nations, at most 11 times the time
        targets.append({"name": f"engine time({b})/time({a})",
                        "value": round(engine[b]["turn_s"] / engine[a]["turn_s"], 2), "target": round(1.1 * b / a, 1)})
    for n, x in xlsx.items():
        targets.append({"name": f"xlsx resolve / bare load+save, {n} nations", "value": round(x["ratio"], 3),
                        "target": 1.5})
    for n, g in google.items():
        for what, c in (g or {}).items():
            # one read and one write per spreadsheet touched, the sharing audit (Drive files.list);
            # a write above 2 MB travels in ordered chunks (as in scripts/bench.py)
            chunks = max(1, math.ceil(c["written"] / (2 * 1024 * 1024)))
            allowed = 2 * c["spreadsheets"] + (chunks - 1) + 1
            targets.append({"name": f"Google requests per {what}, {n} nations ({c['spreadsheets']} spreadsheets)",
                            "value": c["requests"], "target": allowed})
    for n, why in failed.items():
        targets.append({"name": f"Google campaign of {n} nations created and played", "value": why,
                        "target": "no error"})
    for t in targets:
        t["met"] = isinstance(t["value"], (int, float)) and t["value"] <= t["target"]
    if args.json:
        print(json.dumps({"targets": targets}, ensure_ascii=False, indent=1))
        return 0
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
    print("| nations | state orders | state, s (CPU) | cities orders | cities, s (CPU) | turn, s (CPU) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n, e in engine.items():
        print(f"| {n} | {e['state_orders']} | {e['state_s']:.3f} ({e['state_cpu_s']:.3f}) | {e['cities_orders']} | "
              f"{e['cities_s']:.3f} ({e['cities_cpu_s']:.3f}) | {e['turn_s']:.3f} ({e['turn_cpu_s']:.3f}) |")
    for a, b in itertools.pairwise(sizes):  # not a target: what the wall-time ratio would be on an idle machine
        print(f"\nCPU time({b})/time({a}): {engine[b]['turn_cpu_s'] / engine[a]['turn_cpu_s']:.2f}", end="")
    print()
    if xlsx:
        print("\n| nations | files, MB | bare load+save: GM's workbook / every file, s | strategos resolve, s "
              "| ratio |")
        print("|---:|---|---|---:|---:|")
    for n, x in xlsx.items():
        print(f"| {n} | {x['files']}, {x['bytes'] / 1e6:.2f} | {x['gm_load_save_s']:.2f} / "
              f"{x['bare_load_save_s']:.2f} | {x['full_resolve_s']:.2f} | {x['ratio']:.2f} |")
    if google or failed:
        print("\n| nations | stage | spreadsheets | requests (reads + writes + other) | KB | s |")
        print("|---:|---|---:|---|---:|---:|")
    for n, g in google.items():
        for what, c in (g or {}).items():
            print(f"| {n} | {what} | {c['spreadsheets']} | {c['requests']} ({c['reads']} + {c['writes']} + "
                  f"{c['other']}) | {c['bytes'] / 1e3:.0f} | {c['seconds']:.2f} |")
    for n, why in failed.items():
        print(f"| {n} | — | — | failed: {why[:300]} | — | — |")
    print()
    for t in targets:
        print(f"{'met   ' if t['met'] else 'MISSED'}  {t['name']}: {t['value']} (target ≤ {t['target']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
