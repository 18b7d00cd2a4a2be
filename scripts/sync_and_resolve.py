#!/usr/bin/env python3
"""What a GM runs from cron at the deadline: check, then resolve the open turn.

    python3 /path/to/strategos/scripts/sync_and_resolve.py CAMPAIGN [--turn N] [--check-only]
            [--credentials SA.json | --oauth-client-secrets CLIENT.json] [--json]

CAMPAIGN may be a workbook path or a Google spreadsheet id/URL. Exit codes as `strategos`.

Cron starts a job in $HOME with a bare PATH and the system's python3, which has none of the
project's packages: so the script finds the checkout from its own path and, when the running
Python lacks them, runs itself again with the checkout's .venv (made by scripts/install.sh).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"


def _with_the_project() -> None:
    """Make the checkout importable; re-run under its .venv when this Python lacks the packages."""
    sys.path.insert(0, str(ROOT))
    try:
        import openpyxl  # noqa: F401  (the first of the project's packages a run needs)
    except ImportError:
        if VENV_PYTHON.exists() and Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
            os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), str(Path(__file__).resolve()), *sys.argv[1:]])
        sys.exit(f"strategos: не найдены пакеты Strategos — установите их: bash {ROOT}/scripts/install.sh "
                 f"(Strategos packages are missing: run bash {ROOT}/scripts/install.sh)")


def main(argv: list[str] | None = None) -> int:
    _with_the_project()
    from sheets_bridge.cli import main as strategos

    p = argparse.ArgumentParser(description="Проверить приказы и разрешить открытый ход (check, then resolve).")
    p.add_argument("target", help="CAMPAIGN.xlsx или id/URL таблицы Google")
    p.add_argument("--turn", type=int, help="разрешить, только если открыт именно этот ход")
    p.add_argument("--check-only", action="store_true", help="только проверить приказы")
    p.add_argument("--credentials", help="JSON-ключ сервисного аккаунта Google")
    p.add_argument("--oauth-client-secrets", help="OAuth-клиент Google для входа своим аккаунтом")
    p.add_argument("--json", action="store_true", help="вывод в JSON")
    args = p.parse_args(argv)
    extra = (["--credentials", args.credentials] if args.credentials else []) + (
        ["--oauth-client-secrets", args.oauth_client_secrets] if args.oauth_client_secrets else []) + (
        ["--json"] if args.json else [])
    code = strategos(["check", args.target, *extra])
    if code or args.check_only:
        return code
    turn = ["--turn", str(args.turn)] if args.turn is not None else []
    return strategos(["resolve", args.target, *turn, *extra])


if __name__ == "__main__":
    sys.exit(main())
