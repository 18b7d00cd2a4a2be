#!/usr/bin/env python3
"""History that scales (issue 24, point 5): what a check and a resolve read and write after 10
windows and after 300, on .xlsx and on the local Google emulator.

    python scripts/bench_history.py [--game NAME] [--windows 10,300] [--json] [--no-google]

A long campaign is generated cheaply: the game's demo campaign is played in memory (the game's
sample orders, ``demo_changes``, written into every window, as ``strategos demo`` does), every
window resolved by the bridge as on any backend -- snapshots and log trimming included.
The campaign as it stands after W windows is then put on a real backend (an .xlsx folder; a
Google campaign on the emulator, private orders as ``new --google`` makes it) with the open
window's sample orders, and one real ``check`` and one real ``resolve`` are measured there:

* .xlsx: bytes of the workbooks the command reads (the GM's, the players' and the public book)
  and of the files it writes (each workbook it saves, the snapshot file beside the campaign), the
  cells of the GM's workbook, wall and CPU seconds;
* Google: bytes of the read answers and of the write requests the emulator saw, the number of
  requests, seconds.

The target: at window 300 each figure at most 1.5x its window-10 value.  The figures are in
docs/benchmarks.md («History that scales»).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import rulesets  # noqa: E402
from engine.core import history, meta  # noqa: E402
from engine.core.tables import Changeset, ReplaceTab, Tables, WorkbookSpec, WriteBlock  # noqa: E402
from sheets_bridge import secrets, sync  # noqa: E402
from sheets_bridge.memory import MemoryBackend  # noqa: E402
from sheets_bridge.xlsx import XlsxBackend, create_xlsx  # noqa: E402

os.environ.setdefault("STRATEGOS_SECRETS",
                      str(Path(tempfile.gettempdir()) / f"strategos-bench-history-{os.getpid()}.json"))
SECRET = "bench-history-secret".ljust(32, "x")
TARGET = 1.5


def spec_of(game: str) -> WorkbookSpec:
    """The game's demo campaign (its secret in the bench's throw-away store)."""
    spec = sync._spec(game, "demo", "ru", "bench", SECRET)
    secrets.keep(spec)
    return spec


def played(game: str, windows: list[int]) -> dict[int, Tables]:
    """The demo campaign after each of `windows` windows, played in memory with the sample orders."""
    rules = rulesets.get(game)
    backend = MemoryBackend.from_spec(spec_of(game))
    out: dict[int, Tables] = {}
    for w in range(1, max(windows) + 1):
        backend.write(rules.demo_changes(backend.read()))
        sync.resolve(backend)
        if w in windows:
            out[w] = backend.read()
    return out


def _content(tables: Tables) -> list[Changeset]:
    """Writes that put `tables` onto a new campaign: the tabs, then the history a few rows at a
    time (each row's chunks go where the backend keeps them)."""
    first = Changeset(replace=[ReplaceTab(t, g) for t, g in tables.items() if not history.is_store(t)])
    rest: list[Changeset] = []
    for tab, grid in tables.items():
        if history.is_store(tab):
            rest.append(Changeset(replace=[ReplaceTab(tab, grid[:1])]))
            for r in range(1, len(grid), 20):
                rest.append(Changeset(blocks=[WriteBlock(tab, r + 1, 1, [list(x) for x in grid[r : r + 20]])]))
    return [first, *rest]


def _declared(rules: Any, tables: Tables, changes: Changeset) -> Changeset:
    sync.declare_audiences(rules, tables, changes)
    return changes


def _files(folder: Path) -> dict[Path, tuple[int, int]]:
    """Every file of the campaign's folder (backups and lock files aside): size and mtime."""
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")
            if p.is_file() and not p.name.endswith((".bak", ".lock")) and not p.name.startswith(".")}


def _timed(fn: Any) -> tuple[float, float]:
    t, c = time.perf_counter(), time.process_time()
    fn()
    return round(time.perf_counter() - t, 2), round(time.process_time() - c, 2)


def on_xlsx(game: str, tables: Tables, folder: Path) -> dict[str, Any]:
    """One check and one resolve of `tables` (with the open window's sample orders) as an .xlsx campaign."""
    rules = rulesets.get(game)
    path = folder / "campaign.xlsx"
    create_xlsx(spec_of(game), str(path))
    for changes in _content(tables):
        backend = XlsxBackend(path)
        backend.read()
        backend.write(_declared(rules, tables, changes))
    backend = XlsxBackend(path)
    backend.write(rules.demo_changes(backend.read()))
    out: dict[str, Any] = {"cells": sum(1 for g in XlsxBackend(path).read().values() for r in g for v in r
                                        if v is not None)}
    for command in ("check", "resolve"):
        before = _files(folder)
        read = sum(size for p, (size, _m) in before.items() if p.suffix == ".xlsx")
        wall, cpu = _timed(lambda c=command: getattr(sync, c)(XlsxBackend(path)))
        after = _files(folder)
        written = sum(size for p, (size, m) in after.items() if before.get(p, (0, 0))[1] != m)
        out[command] = {"read_bytes": read, "written_bytes": written, "seconds": wall, "cpu": cpu}
    return out


def on_google(game: str, tables: Tables, emu: Any, folder: Path) -> dict[str, Any]:
    """The same on the emulator (private orders, a GM and the played sides as players)."""
    from sheets_bridge import gsheets

    rules = rulesets.get(game)
    spec = spec_of(game)
    players = {side: f"p{i}@example.com" for i, side in enumerate(spec.played_sides(), start=1)}
    made = gsheets.create(spec, credentials=str(folder / "gm.json"), gm="gm@example.com", players=players)
    sid = made.spreadsheet_id

    def backend() -> Any:
        return gsheets.GoogleBackend.open(sid, credentials=str(folder / "gm.json"))

    for changes in _content(tables):
        b = backend()
        b.read()
        b.write(_declared(rules, tables, changes))
    b = backend()
    b.write(rules.demo_changes(b.read()))
    out: dict[str, Any] = {}
    for command in ("check", "resolve"):
        emu.reset()
        wall, cpu = _timed(lambda c=command: getattr(sync, c)(backend()))
        calls = [r for r in emu.stats()["requests"] if r["endpoint"] != "oauth.token"]
        reads = [r for r in calls if r.get("method") == "GET"]
        writes = [r for r in calls if r.get("method") != "GET"]
        out[command] = {"read_bytes": sum(r.get("response_bytes", 0) for r in reads),
                        "written_bytes": sum(r.get("request_bytes", 0) for r in writes),
                        "requests": len(calls), "seconds": wall, "cpu": cpu}
    return out


def measure(game: str, windows: list[int], google: bool = True) -> dict[str, Any]:
    """The figures of every backend at every window count."""
    started = time.perf_counter()
    states = played(game, windows)
    result: dict[str, Any] = {"game": game, "windows": windows, "played_in_memory_s": 0.0, "xlsx": {}, "google": {}}
    result["played_in_memory_s"] = round(time.perf_counter() - started, 1)
    with tempfile.TemporaryDirectory() as tmp:
        for w, tables in states.items():
            folder = Path(tmp) / f"x{w}"
            folder.mkdir()
            result["xlsx"][w] = on_xlsx(game, tables, folder)
            result["xlsx"][w]["open_window"] = str(meta.open_cursor(tables, rulesets.get(game).calendar))
        if google:
            from sheets_bridge.emulator.testing import running_emulator

            with running_emulator() as emu:
                os.environ["STRATEGOS_GOOGLE_API_BASE"] = emu.base_url
                keys = Path(tmp) / "keys"
                keys.mkdir()
                emu.write_credentials(keys / "gm.json", "gm-bot@strategos.example")
                for w, tables in states.items():
                    result["google"][w] = on_google(game, tables, emu, keys)
    return result


def ratios(result: dict[str, Any]) -> list[tuple[str, float]]:
    """(figure, last window's value / first window's) for every byte and cell figure."""
    first, last = result["windows"][0], result["windows"][-1]
    out = []
    for backend in ("xlsx", "google"):
        a, b = result[backend].get(first), result[backend].get(last)
        if not a or not b:
            continue
        for command in ("check", "resolve"):
            for key in ("read_bytes", "written_bytes"):
                out.append((f"{backend} {command} {key}", b[command][key] / max(1, a[command][key])))
        if "cells" in a:
            out.append((f"{backend} cells", b["cells"] / max(1, a["cells"])))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--game", default=rulesets.DEFAULT, help="the ruleset to play (its demo campaign)")
    p.add_argument("--windows", default="10,300", help="window counts to measure, the first is the reference")
    p.add_argument("--no-google", action="store_true", help="the .xlsx figures only")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    windows = [int(x) for x in args.windows.split(",")]
    result = measure(args.game, windows, google=not args.no_google)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
    else:
        print(f"{args.game}: played {max(windows)} windows in memory in {result['played_in_memory_s']} s")
        print("| backend | windows | command | read, bytes | written, bytes | requests | wall s | CPU s |")
        print("|---|---|---|---|---|---|---|---|")
        for backend in ("xlsx", "google"):
            for w, f in result[backend].items():
                for command in ("check", "resolve"):
                    c = f[command]
                    print(f"| {backend} | {w} | {command} | {c['read_bytes']:,} | {c['written_bytes']:,} | "
                          f"{c.get('requests', '—')} | {c['seconds']} | {c['cpu']} |")
    missed = [(name, r) for name, r in ratios(result) if r > TARGET]
    for name, r in ratios(result):
        print(f"{name}: x{r:.2f} {'MISSED' if r > TARGET else 'met'} (target <= x{TARGET})")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
