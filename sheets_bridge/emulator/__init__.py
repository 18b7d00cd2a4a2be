"""Local emulator of the Google Sheets v4 / Drive v3 HTTP APIs used by Strategos.

It serves the endpoints gspread 6 and ``sheets_bridge`` call, with Google's JSON shapes
(checked against recorded Google traffic, see ``tests/emulator/test_replay_cassettes.py``),
per-identity OAuth tokens, sharing and protected ranges, request statistics, quota and
fault injection.  Start it with ``python -m sheets_bridge.emulator`` or, in tests, with
:func:`sheets_bridge.emulator.testing.running_emulator`.  See ``docs/emulator.md``.
"""

from __future__ import annotations

from .server import EmulatorApp, make_server

__all__ = ["EmulatorApp", "make_server"]
