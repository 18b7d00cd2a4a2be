"""Pacing to Google's per-user quotas, so that the quota never fails a command.

Google counts a user's requests per minute in separate buckets (figures of the usage-limits pages,
docs/google.md «Квоты Google»):

* Sheets API: **60 read** and **60 write** requests per minute per user (``get``/``values.get``/
  ``batchGet`` are reads; ``create``, ``batchUpdate``, ``values.update``/``append``/``clear``… are
  writes);
* Drive API: a separate and much larger allowance (12,000 queries per minute per user).

A campaign with private orders is a spreadsheet per player, so a command of a big campaign sends
more than a minute's worth of one kind.  Instead of running into 429 and failing, the client keeps,
per kind, the times of its last requests (a sliding window) and, when the window is full, waits
until its oldest request has left it.  The wait is reported to whoever listens (the CLI's progress
bar shows it, :func:`showing_waits`).  A 429 that still comes (another program of the same account)
is waited out by :mod:`sheets_bridge.google_http` (``Retry-After`` when Google sends one).

``STRATEGOS_GOOGLE_QUOTA`` changes the limits for a project whose quotas were raised, e.g.
``read=300,write=300,drive=12000,window=60``.
"""

from __future__ import annotations

import collections
import contextlib
import math
import os
import random
import threading
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, fields, replace

from engine.core.messages import _

ENV_QUOTA = "STRATEGOS_GOOGLE_QUOTA"

SHEETS_READ = "sheets-read"
SHEETS_WRITE = "sheets-write"
DRIVE = "drive"
KINDS = (SHEETS_READ, SHEETS_WRITE, DRIVE)

#: POST methods of the Sheets API that only read (Google counts them as read requests).
_READ_POSTS = ("values:batchGet", "values:batchGetByDataFilter", ":getByDataFilter")

#: Who hears about a wait: ``(seconds left, kind, limit)``; set by :func:`showing_waits`.
WaitListener = Callable[[float, str, int], None]
_listener: ContextVar[WaitListener | None] = ContextVar("strategos_quota_listener", default=None)


@dataclass(frozen=True)
class QuotaLimits:
    """Requests allowed per ``window`` seconds per user, for each kind."""

    read: int = 60
    write: int = 60
    drive: int = 12_000
    window: float = 60.0
    #: seconds added to every wait: Google's and our clocks are not the same clock
    margin: float = 1.0

    def backoff(self, hits: int, rng: random.Random) -> float:
        """The wait after the ``hits``-th quota refusal of one request that came without ``Retry-After``:
        Google's advice (exponential back-off), scaled to the window so that four attempts outlast it
        (5, 10, 20, 40 s of a 60-second window, each 80-100 % of it)."""
        return min(self.window * 2 / 3, self.window / 12 * 2 ** (hits - 1)) * rng.uniform(0.8, 1.0)

    def limit(self, kind: str) -> int:
        """The allowance of ``kind`` per window."""
        return {SHEETS_READ: self.read, SHEETS_WRITE: self.write, DRIVE: self.drive}[kind]

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> QuotaLimits:
        """Google's published limits, changed by ``STRATEGOS_GOOGLE_QUOTA`` (``read=300,window=60``)."""
        env = os.environ if environ is None else environ
        text = (env.get(ENV_QUOTA) or "").strip()
        if not text:
            return cls()
        known = {f.name: f.type for f in fields(cls)}
        values: dict[str, float] = {}
        for item in text.split(","):
            name, _sep, raw = item.partition("=")
            name = name.strip()
            try:
                number = float(raw)
            except ValueError:
                number = math.nan
            if name not in known or not math.isfinite(number) or number < 0:
                raise QuotaSettingError(
                    _("{env}: «{item}» не понято; пример: read=60,write=60,drive=12000,window=60").format(
                        env=ENV_QUOTA, item=item.strip())
                )
            values[name] = number
        limits = cls()
        ints = {k: int(v) for k, v in values.items() if k in ("read", "write", "drive")}
        floats = {k: v for k, v in values.items() if k in ("window", "margin")}
        return replace(limits, **ints, **floats)  # type: ignore[arg-type]


def kind_of(method: str, url: str) -> str | None:
    """Which of Google's buckets a request counts against (None: the token endpoint, not counted)."""
    path = url.split("?", 1)[0]
    if "/v4/spreadsheets" in path:
        if method.upper() == "GET" or path.endswith(_READ_POSTS):
            return SHEETS_READ
        return SHEETS_WRITE
    if "/drive/" in path or "/upload/" in path:
        return DRIVE
    return None


@contextlib.contextmanager
def showing_waits(listener: WaitListener) -> Iterator[None]:
    """Within the block, every quota wait of this thread/context is told to ``listener``."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)


def tell(seconds: float, kind: str, limit: int) -> None:
    """Report a wait (0 = the wait is over) to the listener, if any."""
    listener = _listener.get()
    if listener is not None:
        listener(seconds, kind, limit)


def wait(seconds: float, kind: str, limit: int, sleep: Callable[[float], None]) -> None:
    """Sleep ``seconds``, telling the listener as it goes (in one-second steps, so a bar counts down)."""
    if seconds <= 0:
        return
    if _listener.get() is None:
        sleep(seconds)
        return
    left = seconds
    while left > 0:
        tell(left, kind, limit)
        step = min(1.0, left)
        sleep(step)
        left -= step
    tell(0.0, kind, limit)


class QuotaSettingError(ValueError):
    """``STRATEGOS_GOOGLE_QUOTA`` cannot be understood."""


class QuotaPacer:
    """A sliding window per kind: at most ``limit`` answers in any ``window`` seconds.

    The time of a request is taken when its answer arrived (later than Google counted it), so a
    slot this pacer sees free is free at Google as well.  Thread-safe; one per HTTP client.
    """

    def __init__(self, limits: QuotaLimits, clock: Callable[[], float], sleep: Callable[[float], None]) -> None:
        self.limits = limits
        self.clock = clock
        self.sleep = sleep
        self.waited = 0.0  # seconds spent waiting, for benchmarks and tests
        self.sent: collections.Counter[str] = collections.Counter()
        self._log: dict[str, collections.deque[float]] = {k: collections.deque() for k in KINDS}
        self._lock = threading.Lock()

    def due(self, kind: str) -> float:
        """Seconds until a request of ``kind`` fits in the window (0 = now)."""
        limit = self.limits.limit(kind)
        if limit <= 0:  # no allowance configured: not paced (Google's answer decides)
            return 0.0
        now = self.clock()
        with self._lock:
            log = self._log[kind]
            while log and log[0] <= now - self.limits.window:
                log.popleft()
            if len(log) < limit:
                return 0.0
            oldest = log[len(log) - limit]
            return max(0.0, oldest + self.limits.window - now) + self.limits.margin

    def before(self, kind: str | None) -> None:
        """Wait, if needed, until a request of ``kind`` may be sent."""
        if kind is None:
            return
        for _attempt in range(3):  # once as a rule; bounded, should a clock not move while we sleep
            delay = self.due(kind)
            if delay <= 0:
                return
            self.waited += delay
            wait(delay, kind, self.limits.limit(kind), self.sleep)

    def answered(self, kind: str | None) -> None:
        """Count a request of ``kind`` that Google answered (now)."""
        if kind is None:
            return
        now = self.clock()
        with self._lock:
            self._log[kind].append(now)
            self.sent[kind] += 1
