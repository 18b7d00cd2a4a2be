#!/usr/bin/env python3
"""What the default Google campaign costs beside the open mode (issue 23, point 8): requests and
seconds of `new`, `check` and `resolve` of the README's demo with a GM and two players, on the
local emulator, once with private orders (the default: a spreadsheet per player, the GM's, the
public one) and once with `--open-orders` (one spreadsheet).

    python scripts/bench_google_modes.py [--json]

Request counts do not depend on the machine; the seconds do (the emulator runs in this process).
The figures are in docs/benchmarks.md («Google: private orders by default»).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sheets_bridge.cli import main as strategos  # noqa: E402
from sheets_bridge.emulator.testing import Emulator, running_emulator  # noqa: E402

# the bench's campaigns keep their secrets in a throw-away store, not the GM's ~/.config
os.environ.setdefault("STRATEGOS_SECRETS",
                      str(Path(tempfile.gettempdir()) / f"strategos-bench-modes-{os.getpid()}.json"))
GM, PLAYERS = "gm@example.com", ("Египет=p1@example.com", "Рим=p2@example.com")


def _counted(emu: Emulator, argv: list[str]) -> tuple[dict[str, Any], str]:
    """Run one CLI command; its API requests by endpoint (token requests aside), seconds, output."""
    emu.reset()
    started = time.perf_counter()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = strategos(argv)
    seconds = time.perf_counter() - started
    if code != 0:
        raise SystemExit(f"strategos {' '.join(argv)}: exit {code}")
    endpoints = collections.Counter(r["endpoint"] for r in emu.stats()["requests"] if r["endpoint"] != "oauth.token")
    figures = {"requests": sum(endpoints.values()), "by_endpoint": dict(endpoints), "seconds": round(seconds, 2)}
    return figures, out.getvalue()


def measure() -> dict[str, dict[str, Any]]:
    """The three commands in each mode, on a fresh emulator."""
    result: dict[str, dict[str, Any]] = {}
    with running_emulator() as emu, tempfile.TemporaryDirectory() as tmp:
        os.environ["STRATEGOS_GOOGLE_API_BASE"] = emu.base_url
        creds = ["--credentials", str(emu.write_credentials(Path(tmp) / "gm.json", "gm-bot@strategos.example"))]
        people = ["--gm", GM, *(a for p in PLAYERS for a in ("--player", p))]
        for mode, flags in (("private (default)", []), ("open (--open-orders)", ["--open-orders"])):
            made, out = _counted(emu, ["new", "--google", *people, *flags, *creds, "--json"])
            sid = json.loads(out)["spreadsheet_id"]
            check, _ = _counted(emu, ["check", sid, *creds, "-q"])
            resolve, _ = _counted(emu, ["resolve", sid, "--turn", "1", *creds, "-q"])
            result[mode] = {"new": made, "check": check, "resolve": resolve}
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)
    figures = measure()
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=1))
        return 0
    print("| mode | `new`: requests / s | `check`: requests / s | `resolve`: requests / s |")
    print("|---|---|---|---|")
    for mode, f in figures.items():
        cells = [f"{f[c]['requests']} / {f[c]['seconds']:.1f}" for c in ("new", "check", "resolve")]
        print(f"| {mode} | " + " | ".join(cells) + " |")
    for mode, f in figures.items():
        for command in ("new", "check", "resolve"):
            print(f"{mode} {command}: {json.dumps(f[command]['by_endpoint'], sort_keys=True)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
