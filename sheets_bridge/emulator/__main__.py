"""Command line: run the emulator or write service-account credentials for it.

Run::

    python -m sheets_bridge.emulator --port 8765 --state-dir /tmp/emu

Create a key for an identity (registered through the shared ``--state-dir``, or by
``POST <base>/_emulator/identities`` to a running emulator when no state dir is given)::

    python -m sheets_bridge.emulator --write-credentials gm.json --identity gm@example.com \\
        --base http://127.0.0.1:8765 --state-dir /tmp/emu
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import requests

from .auth import generate_service_account
from .server import EmulatorApp, make_server
from .store import register_in_state_dir


def _parser() -> argparse.ArgumentParser:
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="python -m sheets_bridge.emulator", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765, help="TCP port (0 = any free port)")
    parser.add_argument("--state-dir", type=Path, help="persist data and identities here")
    parser.add_argument(
        "--quota-per-minute", type=int,
        help="Google's per-user Sheets quota: N read and N write requests per identity per minute "
             "(Google: 60); past it 429, as Google answers",
    )
    parser.add_argument(
        "--drive-quota-per-minute", type=int,
        help="Drive requests per identity per minute (default with --quota-per-minute: Google's 12000); "
             "past it 403 userRateLimitExceeded",
    )
    parser.add_argument(
        "--quota-window-seconds", type=float, default=60.0,
        help="the quota's window (Google: 60); shorter for tests that prove pacing in seconds",
    )
    parser.add_argument(
        "--retry-after", type=int,
        help="send Retry-After: N with quota refusals (Google documents none; default: none)",
    )
    parser.add_argument(
        "--fail-on",
        action="append",
        default=[],
        metavar="N:KIND",
        help="fail request number N with KIND (500, 503, 429, timeout, drop, drop-before, drop-after); repeatable",
    )
    parser.add_argument("--timeout-sleep", type=float, default=5.0, help="seconds a 'timeout' fault stalls")
    parser.add_argument(
        "--static-token",
        action="append",
        default=[],
        metavar="TOKEN=EMAIL",
        help="accept TOKEN as a bearer token of EMAIL (replaying recorded traffic); repeatable",
    )
    parser.add_argument("--seed", type=int, help="seed for generated ids (reproducible runs)")
    parser.add_argument("--write-credentials", type=Path, metavar="FILE", help="write a service-account JSON and exit")
    parser.add_argument("--identity", help="client_email for --write-credentials")
    parser.add_argument("--base", default=None, help="emulator base URL (default http://127.0.0.1:PORT)")
    return parser


def write_credentials(path: Path, identity: str, base: str, state_dir: Path | None) -> Path:
    """Generate a key for ``identity`` and register its public half with the emulator."""
    info, registration = generate_service_account(identity, base)
    if state_dir is not None:
        register_in_state_dir(state_dir, registration)
    else:
        response = requests.post(f"{base.rstrip('/')}/_emulator/identities", json=registration.to_json(), timeout=10)
        response.raise_for_status()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(info, indent=2), encoding="utf-8")
    path.chmod(0o600)
    return path


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = _parser().parse_args(argv)
    base = args.base or f"http://127.0.0.1:{args.port}"
    if args.write_credentials:
        if not args.identity:
            print("--identity is required with --write-credentials", file=sys.stderr)
            return 2
        write_credentials(args.write_credentials, args.identity, base, args.state_dir)
        print(f"wrote {args.write_credentials} for {args.identity} (token_uri {base.rstrip('/')}/token)")
        return 0
    static = {}
    for item in args.static_token:
        token, _, email = item.partition("=")
        static[token] = email
    emulator = EmulatorApp(
        state_dir=args.state_dir,
        quota_per_minute=args.quota_per_minute,
        fail_on=args.fail_on,
        static_tokens=static,
        timeout_sleep=args.timeout_sleep,
        seed=args.seed,
        drive_quota_per_minute=args.drive_quota_per_minute,
        quota_window_seconds=args.quota_window_seconds,
        retry_after=args.retry_after,
    )
    server = make_server(emulator, "127.0.0.1", args.port)  # loopback only, by design
    host, port = server.server_address[:2]
    print(f"Strategos Google API emulator on http://{host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
