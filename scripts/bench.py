#!/usr/bin/env python3
"""Strategos benchmarks: engine scaling, .xlsx overhead over bare I/O, Google requests per sync,
peak memory, and a naive gspread flow as the anchor.

    python scripts/bench.py [--quick | --full] [--json] [--runs N]
    python scripts/bench.py --process [--runs N]   # only the whole check/resolve processes


Campaigns of 26, 260 and 2,600 states are generated deterministically (about 4 provinces each,
an army per state, fleets for coastal states, ~10 orders per player state). Every figure is the
median of at least 5 runs. Targets are printed as met or missed; timed unit tests never do this.
The whole `strategos check` and `resolve` processes on each game's demo are measured beside a bare
openpyxl load + save of the same workbooks (scripts/bench_process.py).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import openpyxl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import rulesets  # noqa: E402
from engine.core.tables import Changeset, ReplaceTab, apply_changes  # noqa: E402
from engine.rulesets.ancient import codec, ruleset  # noqa: E402
from engine.rulesets.ancient.game import RULESET  # noqa: E402
from engine.rulesets.ancient.generate import generate, generate_orders  # noqa: E402
from engine.rulesets.ancient.scenario import put_orders  # noqa: E402
from scripts import bench_process  # noqa: E402
from sheets_bridge import secrets, sync  # noqa: E402
from sheets_bridge.memory import MemoryBackend  # noqa: E402
from sheets_bridge.xlsx import XlsxBackend, create_xlsx  # noqa: E402

SEED = 20261129
# the bench's campaigns keep their secrets in a throw-away store, not the GM's ~/.config
os.environ.setdefault("STRATEGOS_SECRETS", str(Path(tempfile.gettempdir()) / f"strategos-bench-{os.getpid()}.json"))


def campaign_tables(states: int) -> dict:
    """A generated campaign with its orders, as tables."""
    spec = ruleset.new_workbook(data=generate(states, seed=SEED), secret=f"bench-{states}")
    tables = MemoryBackend.from_spec(spec).read()
    d = codec.decode(tables)
    put_orders(tables, generate_orders(d.campaign, d.rules, seed=SEED))
    return tables


def median_time(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def bench_engine(states: int, runs: int) -> dict[str, Any]:
    tables = campaign_tables(states)
    orders = sum(1 for n, g in tables.items() if codec.order_state(n) for r in g[1:] if r and r[0])
    seconds = median_time(lambda: RULESET.resolve(tables, secret=f"bench-{states}"), runs)
    return {"states": states, "orders": orders, "engine_s": seconds, "tables": tables}


def campaign_in_play(states: int, path: Path, turns: int = 3) -> None:
    """A workbook of a campaign in play: `turns` turns resolved with orders, orders for the next."""
    spec = ruleset.new_workbook(data=generate(states, seed=SEED), secret=f"bench-{states}")
    secrets.keep(spec)  # as `strategos new` does: the secret in the (bench's temporary) store
    create_xlsx(spec, path)
    for turn in range(turns + 1):
        backend = XlsxBackend(path)
        tables = backend.read()
        d = codec.decode(tables)
        staged = {n: [list(r) for r in g] for n, g in tables.items()}
        put_orders(staged, generate_orders(d.campaign, d.rules, seed=SEED + turn))
        backend.write(Changeset(replace=[ReplaceTab(n, staged[n]) for n in staged if codec.order_state(n)]))
        if turn < turns:
            sync.resolve(XlsxBackend(path))


def bench_xlsx(states: int, runs: int) -> dict[str, Any]:
    """A full resolve of turn 4 of a campaign in play against the bare load + save of that workbook."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base.xlsx"
        campaign_in_play(states, base)
        work = Path(tmp) / "work.xlsx"

        def bare() -> None:
            shutil.copy(base, work)
            wb = openpyxl.load_workbook(work)
            wb.save(work)

        def full() -> None:
            shutil.copy(base, work)
            sync.resolve(XlsxBackend(work))

        bare_s = median_time(bare, runs)
        full_s = median_time(full, runs)
        size = base.stat().st_size
    return {"bare_load_save_s": bare_s, "full_resolve_s": full_s, "ratio": full_s / bare_s, "bytes": size}


def peak_memory_mb(states: int) -> float:
    """Peak resident memory of a fresh process that generates and resolves a campaign in memory
    (VmHWM: unlike ru_maxrss, Linux keeps no high-water mark of the parent across exec)."""
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from scripts.bench import campaign_tables\n"
        "from engine.rulesets.ancient.game import RULESET\n"
        f"t = campaign_tables({states}); RULESET.resolve(t, secret='bench-{states}')\n"
        "print([int(x.split()[1]) for x in open('/proc/self/status') if x.startswith('VmHWM')][0])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return int(out.stdout.strip().splitlines()[-1]) / 1024


def bench_google(states: int, runs: int) -> dict[str, Any] | None:
    """Requests and bytes per check and resolve against the local emulator; the naive flow beside."""
    try:
        from sheets_bridge import gsheets
        from sheets_bridge.emulator.testing import running_emulator
    except ImportError:
        return None
    result: dict[str, Any] = {}
    with running_emulator() as emu, tempfile.TemporaryDirectory() as tmp:
        creds = emu.write_credentials(Path(tmp) / "gm.json", "gm-bot@strategos.example")
        os.environ["STRATEGOS_GOOGLE_API_BASE"] = emu.base_url
        spec = ruleset.new_workbook(data=generate(states, seed=SEED), secret=f"bench-{states}")
        secrets.keep(spec)
        # one spreadsheet (the open mode): what this measures is one read and one write against the
        # naive flow; a split campaign costs that per spreadsheet (scripts/bench_google_modes.py)
        sid = gsheets.create(spec, credentials=str(creds), private_orders=False).spreadsheet_id
        backend = gsheets.GoogleBackend.open(sid, credentials=str(creds))
        tables = backend.read()
        d = codec.decode(tables)
        staged = {n: [list(r) for r in g] for n, g in tables.items()}
        put_orders(staged, generate_orders(d.campaign, d.rules, seed=SEED))
        from engine.core.tables import Changeset, ReplaceTab

        backend.write(Changeset(replace=[ReplaceTab(n, staged[n]) for n in staged if codec.order_state(n)]))
        for mode in ("check", "resolve"):
            emu.reset()
            t = time.perf_counter()
            backend = gsheets.GoogleBackend.open(sid, credentials=str(creds))
            if mode == "check":
                sync.check(backend)
            else:
                sync.resolve(backend)
            elapsed = time.perf_counter() - t
            stats = emu.stats()
            api = [r for r in stats["requests"] if not r["path"].startswith("/token")]
            written = sum(r["request_bytes"] for r in api if r["method"] == "POST")
            result[mode] = {"requests": len(api), "bytes": sum(r["request_bytes"] + r["response_bytes"] for r in api),
                            "written": written, "seconds": elapsed}
        result["naive"] = naive_flow(emu, creds, sid, spec.secret or "")
    return result


def naive_flow(emu: Any, creds: Path, sid: str, secret: str) -> dict[str, Any]:
    """The anchor: a plain gspread sync that reads each tab and writes each changed tab separately
    (with the GM's secret, which no cell holds)."""
    from sheets_bridge.google_http import make_client

    client = make_client(str(creds))
    emu.reset()
    t = time.perf_counter()
    book = client.open_by_key(sid)
    tables = {ws.title: ws.get_all_values() for ws in book.worksheets()}
    result = RULESET.resolve(tables, secret=secret)
    after = apply_changes(tables, result.changes)
    for ws in book.worksheets():
        if ws.title in after and after[ws.title] != tables.get(ws.title):
            rows = [[("" if v is None else str(v)) for v in row] for row in after[ws.title]] or [[""]]
            width = max(len(r) for r in rows)
            if len(rows) > ws.row_count or width > ws.col_count:
                ws.resize(rows=max(len(rows), ws.row_count), cols=max(width, ws.col_count))
            ws.update([r + [""] * (width - len(r)) for r in rows], "A1", raw=True)
    elapsed = time.perf_counter() - t
    api = [r for r in emu.stats()["requests"] if not r["path"].startswith("/token")]
    return {"requests": len(api), "seconds": elapsed}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--quick", action="store_true", help="smaller xlsx and Google sizes; under two minutes")
    p.add_argument("--json", action="store_true", help="print {targets: [...]} as JSON")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--full", action="store_true", help="also .xlsx at 2,600 states and Google at 1,000 (long)")
    p.add_argument("--process", action="store_true",
                   help="only the whole check and resolve processes on each game's demo against the openpyxl floor")
    args = p.parse_args(argv)
    runs = max(args.runs, 5)
    if args.process:
        return bench_process.main(["--runs", str(runs), *(["--json"] if args.json else [])])
    engine = {n: bench_engine(n, runs) for n in (26, 260, 2600)}
    xlsx_sizes = (26,) if args.quick else (26, 260, 2600) if args.full else (26, 260)
    xlsx = {n: bench_xlsx(n, runs) for n in xlsx_sizes}
    google_sizes = (26,) if args.quick else (26, 260, 1000) if args.full else (26, 260)
    google = {n: bench_google(n, runs) for n in google_sizes}
    memory = peak_memory_mb(2600)
    processes = [bench_process.bench_game(g, runs) for g in rulesets.names()]
    targets = [
        {"name": "engine 26 states, s", "value": round(engine[26]["engine_s"], 4), "target": 0.05},
        {"name": "engine 2600 states, s", "value": round(engine[2600]["engine_s"], 3), "target": 5.0},
        {"name": "engine time(2600)/time(260)", "value": round(engine[2600]["engine_s"] / engine[260]["engine_s"], 2),
         "target": 11.0},
    ]
    for n, x in xlsx.items():
        targets.append({"name": f"xlsx resolve / bare load+save, {n} states", "value": round(x["ratio"], 3),
                        "target": 1.5})
    for n, g in google.items():
        if g is None:
            continue
        for mode in ("check", "resolve"):
            # one read, one write and the sharing audit (issue 15 p9: one Drive files.list); a write
            # above 2 MB travels in ordered chunks (issue 9)
            chunks = max(1, math.ceil(g[mode]["written"] / (2 * 1024 * 1024)))
            allowed = (2 if chunks == 1 else 1 + chunks + 1) + 1
            label = "" if chunks == 1 else f" (write {g[mode]['written'] / 1e6:.1f} MB: split)"
            targets.append({"name": f"Google requests per {mode}, {n} states{label}", "value": g[mode]["requests"],
                            "target": allowed})
    targets.append({"name": "peak memory 2600 states, MB", "value": round(memory, 1), "target": 1024})
    targets += [{k: v for k, v in t.items() if k != "met"} for t in bench_process.targets(processes)]
    for t in targets:
        t["met"] = t["value"] <= t["target"]
    if args.json:
        print(json.dumps({"targets": targets}, ensure_ascii=False, indent=1))
    else:
        print("| size | orders | engine resolve, s |")
        print("|---:|---:|---:|")
        for n, e in engine.items():
            print(f"| {n} | {e['orders']} | {e['engine_s']:.3f} |")
        print("\n| size | workbook, MB | bare openpyxl load+save, s | strategos resolve, s | ratio |")
        print("|---:|---:|---:|---:|---:|")
        for n, x in xlsx.items():
            print(f"| {n} | {x['bytes'] / 1e6:.1f} | {x['bare_load_save_s']:.2f} | {x['full_resolve_s']:.2f} | "
                  f"{x['ratio']:.2f} |")
        print("\n| size | check: requests / KB / s | resolve: requests / KB / s | naive gspread: requests / s |")
        print("|---:|---|---|---|")
        for n, g in google.items():
            if g:
                c, r, nv = g["check"], g["resolve"], g["naive"]
                print(f"| {n} | {c['requests']} / {c['bytes'] / 1e3:.0f} / {c['seconds']:.2f} | "
                      f"{r['requests']} / {r['bytes'] / 1e3:.0f} / {r['seconds']:.2f} | "
                      f"{nv['requests']} / {nv['seconds']:.2f} |")
        print(f"\npeak memory at 2600 states: {memory:.0f} MB\n")
        print(bench_process.table(processes) + "\n")
        for t in targets:
            print(f"{'met   ' if t['met'] else 'MISSED'}  {t['name']}: {t['value']} (target ≤ {t['target']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
