"""Test helper: run the emulator in a background thread and drive it.

Usage::

    from sheets_bridge.emulator.testing import running_emulator

    with running_emulator(quota_per_minute=60) as emu:
        creds = emu.write_credentials(tmp_path / "gm.json", "gm@example.com")
        monkeypatch.setenv("STRATEGOS_GOOGLE_API_BASE", emu.base_url)
        client = make_client(creds)
        ...
        assert emu.stats()["by_endpoint"]["sheets.values.update"] == 1
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import requests

from .auth import generate_service_account
from .server import EmulatorApp as _App
from .server import make_server


class Emulator:
    """Handle on a running emulator (what :func:`running_emulator` yields)."""

    def __init__(self, app: _App, base_url: str, stop: Any) -> None:
        self.app = app
        self.base_url = base_url
        self._stop = stop
        self._session = requests.Session()

    def _admin(self, method: str, action: str, body: dict[str, Any] | None = None) -> Any:
        """Call an admin endpoint and return its JSON.  The timeout is generous: a dump of a big
        spreadsheet on a loaded 2-core CI machine can take well over ten seconds."""
        response = self._session.request(method, f"{self.base_url}/_emulator/{action}", json=body, timeout=120)
        response.raise_for_status()
        return response.json()

    def write_credentials(self, path: str | Path, identity: str) -> Path:
        """Write a service-account JSON for ``identity`` whose key this emulator accepts."""
        info, registration = generate_service_account(identity, self.base_url)
        self._admin("POST", "identities", registration.to_json())
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(info, indent=2), encoding="utf-8")
        return target

    def stats(self) -> dict[str, Any]:
        """``GET /_emulator/stats``."""
        return dict(self._admin("GET", "stats"))

    def reset(self) -> None:
        """Clear request counters (data stays)."""
        self._admin("POST", "reset")

    def wipe(self) -> None:
        """Clear data and counters."""
        self._admin("POST", "wipe")

    def set_faults(
        self,
        fail_on: list[str] | tuple[str, ...] = (),
        *,
        quota_per_minute: int | str | None = "keep",
        timeout_sleep: float | None = None,
        retry_after: int | str | None = "keep",
        clear: bool = False,
        drive_quota_per_minute: int | str | None = "keep",
        quota_window_seconds: float | None = None,
    ) -> dict[str, Any]:
        """Change faults at runtime (``"+1:500"`` = the next request fails with 500).  The quota
        is Google's per-user one: ``quota_per_minute`` Sheets reads and as many writes per
        ``quota_window_seconds`` (60), Drive ``drive_quota_per_minute`` (default 12,000)."""
        body: dict[str, Any] = {"fail_on": list(fail_on), "clear": clear}
        if quota_per_minute != "keep":
            body["quota_per_minute"] = quota_per_minute
        if drive_quota_per_minute != "keep":
            body["drive_quota_per_minute"] = drive_quota_per_minute
        if quota_window_seconds is not None:
            body["quota_window_seconds"] = quota_window_seconds
        if retry_after != "keep":
            body["retry_after"] = retry_after
        if timeout_sleep is not None:
            body["timeout_sleep"] = timeout_sleep
        return dict(self._admin("POST", "faults", body))

    def advance_clock(self, seconds: float) -> None:
        """Move the emulator's clock (quota windows, token expiry) forward."""
        self._admin("POST", "clock", {"advance": seconds})

    def add_static_token(self, token: str, email: str) -> None:
        """Accept ``token`` as a bearer token of ``email``."""
        self._admin("POST", "tokens", {"token": token, "email": email})

    def seed_spreadsheet(self, owner: str, title: str = "Seeded", **body: Any) -> str:
        """Create a spreadsheet owned by ``owner`` without going through its credentials."""
        return str(self._admin("POST", "spreadsheets", {"owner": owner, "title": title, **body})["spreadsheetId"])

    def share(self, file_id: str, email: str, role: str = "writer") -> None:
        """Grant ``role`` on a file to ``email`` (admin shortcut, not counted in stats)."""
        self._admin("POST", f"files/{file_id}/permissions", {"email": email, "role": role})

    def dump(self, spreadsheet_id: str) -> dict[str, Any]:
        """Full spreadsheet with grid data, owner and permissions (admin view)."""
        return dict(self._admin("GET", f"spreadsheets/{spreadsheet_id}"))

    def stop(self) -> None:
        """Shut the server down."""
        self._session.close()
        self._stop()


@contextlib.contextmanager
def running_emulator(**options: Any) -> Iterator[Emulator]:
    """Start an emulator on a free 127.0.0.1 port in a daemon thread; yields :class:`Emulator`.

    ``options`` are those of :class:`sheets_bridge.emulator.server.EmulatorApp`
    (``state_dir``, ``quota_per_minute``, ``drive_quota_per_minute``, ``quota_window_seconds``,
    ``retry_after``, ``fail_on``, ``static_tokens``, ``timeout_sleep``, ``seed``).
    """
    app = _App(**options)
    server = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, name="strategos-emulator", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    stopped = threading.Event()

    def stop() -> None:
        if not stopped.is_set():
            stopped.set()
            server.shutdown()
            server.server_close()

    handle = Emulator(app, f"http://{host}:{port}", stop)
    try:
        yield handle
    finally:
        handle.stop()
