"""Fixtures for emulator tests.

One emulator server runs for the whole session (fast); every test gets it wiped, with
faults/quota cleared and ``STRATEGOS_GOOGLE_API_BASE`` pointing at it.  ``client_for``
builds gspread clients through :func:`sheets_bridge.google_http.make_client` -- the
production code path -- with an injected fake clock/sleep so retry tests take no time.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# Tests import ``emulator_support`` by name; make that work under any pytest import mode.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

from emulator_support import FakeTime

from sheets_bridge.emulator.testing import Emulator, running_emulator
from sheets_bridge.google_http import RetryPolicy, StrategosClient, make_client


@pytest.fixture(scope="session")
def emulator_server() -> Iterator[Emulator]:
    """The shared emulator process-thread."""
    with running_emulator(timeout_sleep=1.0) as emu:
        yield emu


@pytest.fixture
def emulator(emulator_server: Emulator, monkeypatch: pytest.MonkeyPatch) -> Emulator:
    """A clean emulator, selected through STRATEGOS_GOOGLE_API_BASE."""
    emulator_server.set_faults(clear=True, quota_per_minute=None, retry_after=None, timeout_sleep=1.0)
    emulator_server.wipe()
    monkeypatch.setenv("STRATEGOS_GOOGLE_API_BASE", emulator_server.base_url)
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    return emulator_server


@pytest.fixture
def fake_time() -> FakeTime:
    """A fresh fake clock."""
    return FakeTime()


@pytest.fixture
def credentials(emulator: Emulator, tmp_path: Path) -> Callable[[str], Path]:
    """``credentials(identity)`` -> path of a service-account JSON the emulator accepts."""
    cache: dict[str, Path] = {}

    def make(identity: str) -> Path:
        if identity not in cache:
            cache[identity] = emulator.write_credentials(tmp_path / f"{identity}.json", identity)
        return cache[identity]

    return make


@pytest.fixture
def client_for(credentials: Callable[[str], Path], fake_time: FakeTime) -> Callable[..., StrategosClient]:
    """``client_for(identity, **make_client_kwargs)`` -> gspread client via make_client."""

    def make(identity: str, **kwargs: Any) -> StrategosClient:
        kwargs.setdefault("sleep", fake_time.sleep)
        kwargs.setdefault("clock", fake_time.clock)
        kwargs.setdefault("timeout", (2.0, 5.0))
        kwargs.setdefault("retry_policy", RetryPolicy(max_attempts=4, max_total_seconds=300.0))
        return make_client(credentials(identity), **kwargs)

    return make
