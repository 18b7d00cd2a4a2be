#!/usr/bin/env python3
"""The whole `strategos check` and `strategos resolve` processes on each game's demo against the
openpyxl floor: a process that only loads and saves the same workbooks (issue 24, point 7).

    python scripts/bench_process.py [--runs N] [--games NAME,NAME] [--json] [--baseline CHECKOUT]

For each registered game a fresh demo campaign is made as `strategos new` makes it, with the game's
sample orders written into it (what `strategos demo` checks and resolves).  Each run then times,
side by side on fresh copies of that folder, three processes of this Python:

- the floor: `import openpyxl`, then `load_workbook` + `save` of every book in the folder (the GM's
  workbook and, for a game with hidden information, the public book and each player's book, all
  of which a check or a resolve reads or writes);
- `python -m sheets_bridge.cli check CAMPAIGN.xlsx` and the same with `resolve`: the command line as
  the GM runs it (its summary printed, to a pipe here), imports included.

Wall time and CPU time (user + system of the child) are each the median of the runs; the ratio
is the command's median over the floor's.  The runs alternate the three processes, so a busy
machine slows all of them alike.  The children run with the bytecode cache on (an installed
program has its .pyc files; PYTHONDONTWRITEBYTECODE would make every command compile the whole
program again) in a cache folder of this run, after one run that fills it and is not counted.
With ``--baseline`` another checkout's commands (say, main's) run in the same rounds: A/B in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import rulesets  # noqa: E402
from sheets_bridge import sync  # noqa: E402
from sheets_bridge.xlsx import XlsxBackend  # noqa: E402

# the bench's campaigns keep their secrets in a throw-away store, not the GM's ~/.config
os.environ.setdefault("STRATEGOS_SECRETS",
                      str(Path(tempfile.gettempdir()) / f"strategos-bench-process-{os.getpid()}.json"))

FLOOR = "import sys, openpyxl\nfor f in sys.argv[1:]:\n    openpyxl.load_workbook(f).save(f)\n"
COMMANDS = ("check", "resolve")
TARGET = 1.5


def demo_folder(game: str, folder: Path) -> Path:
    """A fresh demo campaign of `game` in `folder` with the game's sample orders written: the state
    `strategos demo` checks and resolves its first window in."""
    path = folder / "demo.xlsx"
    sync.create(str(path), ruleset=game, scenario="demo")
    backend = XlsxBackend(path)
    backend.write(rulesets.get(game).demo_changes(backend.read()))
    return path


def child_env(cache: Path, root: Path = ROOT) -> dict[str, str]:
    """The children's environment: this one, with the bytecode cache on, in `cache`, and the
    program of the checkout `root` first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH", "")]))
    return env


def timed(args: list[str], env: dict[str, str], cwd: Path = ROOT) -> tuple[float, float]:
    """(wall, CPU) seconds of a child process; it must succeed."""
    before, start = os.times(), time.perf_counter()
    subprocess.run(args, check=True, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall, after = time.perf_counter() - start, os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def bench_game(game: str, runs: int, baseline: Path | None = None) -> dict[str, Any]:
    """The medians of `runs` runs of the floor, check and resolve on `game`'s demo, and the ratios;
    with `baseline`, that checkout's check and resolve too ("check@base", "resolve@base")."""
    roots = {"": ROOT, **({"@base": baseline} if baseline else {})}
    with tempfile.TemporaryDirectory() as tmp:
        base, work = Path(tmp) / "base", Path(tmp) / "work"
        base.mkdir()
        demo_folder(game, base)
        books = sorted(p.relative_to(base) for p in base.rglob("*.xlsx"))
        envs = {tag: child_env(Path(tmp) / f"pycache{tag}", root) for tag, root in roots.items()}
        seen: dict[str, list[tuple[float, float]]] = {"floor": []}
        seen.update({c + tag: [] for tag in roots for c in COMMANDS})
        for run in range(runs + 1):  # the first run fills the bytecode cache: not counted
            for what in seen:
                shutil.rmtree(work, ignore_errors=True)
                shutil.copytree(base, work)
                command, _at, tag = what.partition("@")
                tag = _at + tag
                if what == "floor":
                    args = [sys.executable, "-c", FLOOR, *(str(work / b) for b in books)]
                else:
                    args = [sys.executable, "-m", "sheets_bridge.cli", command, str(work / "demo.xlsx")]
                took = timed(args, envs.get(tag, envs[""]), roots.get(tag, ROOT))
                if run:
                    seen[what].append(took)
        size = sum((base / b).stat().st_size for b in books)
    out: dict[str, Any] = {"game": game, "books": len(books), "bytes": size, "runs": runs}
    for what, times in seen.items():
        out[what] = {"wall_s": statistics.median(w for w, _c in times),
                     "cpu_s": statistics.median(c for _w, c in times)}
        if what != "floor":
            out[what]["wall_ratio"] = out[what]["wall_s"] / out["floor"]["wall_s"]
            out[what]["cpu_ratio"] = out[what]["cpu_s"] / out["floor"]["cpu_s"] if out["floor"]["cpu_s"] else None
    return out


def targets(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Met or missed: each command's CPU and wall time at most 1.5 times the floor's."""
    out = []
    for r in results:
        for what in COMMANDS:
            for kind in ("cpu", "wall"):
                value = r[what][f"{kind}_ratio"]
                if value is not None:
                    out.append({"name": f"whole `strategos {what}` / bare openpyxl load+save, {r['game']} demo, "
                                        f"{kind.upper() if kind == 'cpu' else kind}",
                                "value": round(value, 2), "target": TARGET, "met": value <= TARGET})
    return out


def table(results: list[dict[str, Any]]) -> str:
    """The figures as the Markdown table of docs/benchmarks.md."""
    lines = ["| demo | books, KB | floor: wall / CPU, s | check: wall / CPU, s | check ratio: wall / CPU | "
             "resolve: wall / CPU, s | resolve ratio: wall / CPU |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        for tag in ("", "@base"):
            if "check" + tag not in r:
                continue
            name = f"{r['game']} ({r['books']} {'book' if r['books'] == 1 else 'books'})"
            cells = [name + (", baseline" if tag else ""), f"{r['bytes'] / 1024:.0f}",
                     f"{r['floor']['wall_s']:.2f} / {r['floor']['cpu_s']:.2f}"]
            for what in COMMANDS:
                x = r[what + tag]
                cpu = f"{x['cpu_ratio']:.2f}" if x["cpu_ratio"] is not None else "–"
                cells += [f"{x['wall_s']:.2f} / {x['cpu_s']:.2f}", f"{x['wall_ratio']:.2f} / {cpu}"]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=7, help="counted runs of each process (median; default 7)")
    p.add_argument("--games", default=",".join(rulesets.names()), help="games whose demo is measured (all)")
    p.add_argument("--json", action="store_true", help="print {results, targets} as JSON")
    p.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                   help="also time this checkout's check and resolve in the same runs (e.g. main's)")
    args = p.parse_args(argv)
    results = [bench_game(g.strip(), max(args.runs, 1), args.baseline) for g in args.games.split(",") if g.strip()]
    goals = targets(results)
    if args.json:
        print(json.dumps({"results": results, "targets": goals}, ensure_ascii=False, indent=1))
    else:
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores, {max(args.runs, 1)} runs\n")
        print(table(results) + "\n")
        for t in goals:
            print(f"{'met   ' if t['met'] else 'MISSED'}  {t['name']}: {t['value']} (target ≤ {t['target']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
