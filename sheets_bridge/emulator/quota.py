"""Google's per-user quotas, counted the way Google counts them.

Google keeps, per user, separate per-minute allowances (its usage-limits pages, cited in
docs/emulator.md): the Sheets API **60 read** and **60 write** requests per minute per user, the
Drive API a separate, much larger one (12,000 queries per minute per user).  The emulator counts
each identity's requests of each kind over a rolling window (``window`` seconds, 60 like Google;
tests shorten it) and refuses the one past the allowance as Google does:

* Sheets: **429** ``RESOURCE_EXHAUSTED`` «Quota exceeded for quota metric 'Read requests' …»;
* Drive: **403** ``usageLimits`` / ``userRateLimitExceeded`` «User Rate Limit Exceeded».

Google documents no ``Retry-After`` on these answers (and the recorded cassettes hold no 429), so
none is sent unless a test asks for one (``retry_after``).  A refused request is not counted.
"""

from __future__ import annotations

import collections
import threading
from dataclasses import dataclass

from .errors import ApiError, drive_rate_limited, quota_exceeded

SHEETS_READ = "sheets-read"
SHEETS_WRITE = "sheets-write"
DRIVE = "drive"

#: Drive's published per-user allowance (queries per 60 seconds per user)
DRIVE_PER_MINUTE = 12_000
#: Sheets endpoints (as ``server.classify`` names them) that only read
_SHEETS_READS = frozenset({"sheets.get", "sheets.values.get", "sheets.values.batchGet",
                           "sheets.values.batchGetByDataFilter", "sheets.getByDataFilter"})


def kind_of(endpoint: str) -> str | None:
    """Which allowance a request counts against; None for the token endpoint (not counted)."""
    if endpoint.startswith("sheets."):
        return SHEETS_READ if endpoint in _SHEETS_READS else SHEETS_WRITE
    if endpoint.startswith("drive."):
        return DRIVE
    return None


@dataclass
class QuotaSettings:
    """The allowances (None = unlimited) and the window they are counted over."""

    sheets_per_minute: int | None = None  # each of read and write, per user
    drive_per_minute: int | None = None  # None with a Sheets quota set = Google's 12,000
    window_seconds: float = 60.0
    retry_after: int | None = None  # a fixed Retry-After on quota refusals; None = none, like Google

    def limit(self, kind: str) -> int | None:
        """The allowance of ``kind`` per window (None = not limited)."""
        if kind == DRIVE:
            if self.drive_per_minute is not None:
                return self.drive_per_minute
            return DRIVE_PER_MINUTE if self.sheets_per_minute is not None else None
        return self.sheets_per_minute


class QuotaCounter:
    """Rolling windows per (identity, kind); thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._windows: dict[tuple[str, str], collections.deque[float]] = collections.defaultdict(collections.deque)

    def check(self, settings: QuotaSettings, identity: str, endpoint: str, now: float) -> None:
        """Count the request, or raise Google's refusal when ``identity`` used its allowance."""
        kind = kind_of(endpoint)
        if kind is None:
            return
        limit = settings.limit(kind)
        if limit is None:
            return
        with self._lock:
            window = self._windows[(identity.casefold(), kind)]
            while window and window[0] <= now - settings.window_seconds:
                window.popleft()
            if len(window) >= limit:
                raise _refusal(kind, settings.retry_after)
            window.append(now)

    def reset(self) -> None:
        """Forget every window."""
        with self._lock:
            self._windows.clear()


def _refusal(kind: str, retry_after: int | None) -> ApiError:
    """Google's answer to a request past the allowance of ``kind``."""
    if kind == DRIVE:
        return drive_rate_limited(retry_after)
    return quota_exceeded("sheets.googleapis.com", kind == SHEETS_WRITE, retry_after)
