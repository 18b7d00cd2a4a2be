#!/usr/bin/env python3
"""What a GM runs from cron at the deadline: check, then resolve the open turn.

    python scripts/sync_and_resolve.py CAMPAIGN.xlsx [--turn N] [--check-only] [--credentials SA.json]

CAMPAIGN may be a workbook path or a Google spreadsheet id/URL. Exit codes as `strategos`.
"""

from __future__ import annotations

import argparse
import sys

from sheets_bridge.cli import main as strategos


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Проверить приказы и разрешить открытый ход.")
    p.add_argument("target")
    p.add_argument("--turn", type=int, help="разрешить, только если открыт именно этот ход")
    p.add_argument("--check-only", action="store_true", help="только проверить приказы")
    p.add_argument("--credentials", help="JSON сервисного аккаунта Google")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    extra = (["--credentials", args.credentials] if args.credentials else []) + (["--json"] if args.json else [])
    code = strategos(["check", args.target, *extra])
    if code or args.check_only:
        return code
    turn = ["--turn", str(args.turn)] if args.turn is not None else []
    return strategos(["resolve", args.target, *turn, *extra])


if __name__ == "__main__":
    sys.exit(main())
