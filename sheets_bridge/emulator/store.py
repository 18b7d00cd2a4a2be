"""The emulator's state: Drive files, spreadsheets, identities and tokens.

All access goes through one re-entrant lock, so the threaded HTTP server applies requests
one at a time (simple and enough for tests).  With a ``state_dir`` the data is written to
``state.json`` after every change and identities are shared through ``identities.json``,
which ``python -m sheets_bridge.emulator --write-credentials`` appends to while the server
runs (the server re-reads the file when it meets an unknown identity).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .auth import TOKEN_LIFETIME, Registration, new_access_token
from .model import Spreadsheet
from .protection import ROLE_LEVELS

SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
FOLDER_MIME = "application/vnd.google-apps.folder"
_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


class Clock:
    """Wall and monotonic time with an adjustable offset (``POST /_emulator/clock``)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        """Seconds since the epoch, shifted."""
        return time.time() + self.offset

    def monotonic(self) -> float:
        """Monotonic seconds, shifted (quota windows)."""
        return time.monotonic() + self.offset

    def rfc3339(self) -> str:
        """Current time as Drive prints it (``2023-07-25T15:45:45.745Z``)."""
        moment = datetime.fromtimestamp(self.now(), tz=timezone.utc)
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def permission_id_for(value: str) -> str:
    """Stable 20-digit permission id for an e-mail or domain (Google reuses ids per user)."""
    digest = int(hashlib.sha256(value.casefold().encode()).hexdigest()[:16], 16)
    return str(digest).rjust(20, "0")[:20]


def root_folder_id(email: str) -> str:
    """Id of an identity's "My Drive" root folder."""
    return "0A" + hashlib.sha256(email.casefold().encode()).hexdigest()[:17].upper()


@dataclass
class DriveFile:
    """A Drive file; spreadsheets share their id with a :class:`Spreadsheet`."""

    id: str
    name: str
    mime_type: str
    owner: str
    created: str
    modified: str
    parents: list[str] = field(default_factory=list)
    permissions: list[dict[str, Any]] = field(default_factory=list)
    description: str | None = None
    starred: bool = False
    trashed: bool = False
    content: bytes | None = None
    comments: list[dict[str, Any]] = field(default_factory=list)
    writers_can_share: bool = True  # Drive's writersCanShare: False = only the owner changes sharing

    def to_json(self) -> dict[str, Any]:
        """Serialise for persistence."""
        data = {k: v for k, v in self.__dict__.items() if k != "content"}
        data["content"] = base64.b64encode(self.content).decode() if self.content is not None else None
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DriveFile:
        """Inverse of :meth:`to_json`."""
        data = dict(data)
        content = data.pop("content", None)
        f = cls(**data)
        f.content = base64.b64decode(content) if content else None
        return f


class Store:
    """Thread-safe container of everything the emulator knows."""

    def __init__(self, state_dir: Path | None = None, *, seed: int | None = None) -> None:
        self.lock = threading.RLock()
        self.clock = Clock()
        self.rng = random.Random(seed)
        self.files: dict[str, DriveFile] = {}
        self.spreadsheets: dict[str, Spreadsheet] = {}
        self.registrations: list[Registration] = []
        self.tokens: dict[str, dict[str, Any]] = {}
        self.static_tokens: dict[str, str] = {}
        self.state_dir = Path(state_dir) if state_dir else None
        self._identities_mtime = 0.0
        if self.state_dir:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            self._load()

    # ----------------------------------------------------------------- ids

    def new_file_id(self) -> str:
        """A 44-character id like Google's (``1`` + 43 url-safe characters)."""
        while True:
            fid = "1" + "".join(self.rng.choice(_ID_ALPHABET) for _ in range(43))
            if fid not in self.files:
                return fid

    def new_int_id(self) -> int:
        """A random positive 31-bit id (sheetId, protectedRangeId, chartId...)."""
        return self.rng.randint(1, 2**31 - 2)

    # ----------------------------------------------------------------- access

    def role_level(self, file: DriveFile, email: str | None) -> int:
        """The caller's access level on ``file`` (0 = none)."""
        if email is None:
            return 0
        folded = email.casefold()
        if file.owner.casefold() == folded:
            return ROLE_LEVELS["owner"]
        domain = folded.rpartition("@")[2]
        best = 0
        for perm in file.permissions:
            kind = perm.get("type")
            match = (
                (kind in ("user", "group") and str(perm.get("emailAddress", "")).casefold() == folded)
                or (kind == "domain" and str(perm.get("domain", "")).casefold() == domain)
                or kind == "anyone"
            )
            if match:
                best = max(best, ROLE_LEVELS.get(str(perm.get("role")), 0))
        return best

    # ----------------------------------------------------------------- identities and tokens

    def register(self, reg: Registration) -> None:
        """Accept a public key for an identity (replacing an older key with the same id)."""
        with self.lock:
            self.registrations = [
                r for r in self.registrations if not (r.email == reg.email and r.key_id == reg.key_id)
            ]
            self.registrations.append(reg)
            self._save_identities()

    def registrations_for(self, email: str) -> list[Registration]:
        """Keys registered for ``email`` (re-reading ``identities.json`` on a miss)."""
        with self.lock:
            found = [r for r in self.registrations if r.email.casefold() == email.casefold()]
            if not found and self.state_dir:
                self._load_identities()
                found = [r for r in self.registrations if r.email.casefold() == email.casefold()]
            return found

    def issue_token(self, email: str) -> dict[str, Any]:
        """Create an access token for ``email``."""
        with self.lock:
            token = new_access_token()
            self.tokens[token] = {"email": email, "expires": self.clock.now() + TOKEN_LIFETIME}
            self.save()
            return {"access_token": token, "expires_in": TOKEN_LIFETIME, "token_type": "Bearer"}

    def identity_for_token(self, token: str) -> str | None:
        """The identity behind a bearer token, or ``None`` when unknown/expired."""
        with self.lock:
            if token in self.static_tokens:
                return self.static_tokens[token]
            entry = self.tokens.get(token)
            if entry is None:
                return None
            if entry["expires"] < self.clock.now():
                return None
            return str(entry["email"])

    # ----------------------------------------------------------------- persistence

    def wipe(self) -> None:
        """Forget all files and spreadsheets (identities and tokens stay valid)."""
        with self.lock:
            self.files.clear()
            self.spreadsheets.clear()
            self.save()

    def save(self) -> None:
        """Write ``state.json`` atomically when a state directory is configured."""
        if not self.state_dir:
            return
        with self.lock:
            data = {
                "files": [f.to_json() for f in self.files.values()],
                "spreadsheets": [s.to_json() for s in self.spreadsheets.values()],
                "tokens": self.tokens,
                "static_tokens": self.static_tokens,
            }
            self._atomic_write(self.state_dir / "state.json", data)

    def _save_identities(self) -> None:
        """Merge our registrations into ``identities.json`` under an inter-process lock."""
        if not self.state_dir:
            return
        with _file_lock(self.state_dir / ".identities.lock"):
            current = _read_json(self.state_dir / "identities.json", [])
            known = {(r["email"], r.get("key_id", "")) for r in current}
            for reg in self.registrations:
                if (reg.email, reg.key_id) not in known:
                    current.append(reg.to_json())
            self._atomic_write(self.state_dir / "identities.json", current)

    def _load_identities(self) -> None:
        """Pick up keys written by ``--write-credentials`` since the last read."""
        assert self.state_dir is not None
        path = self.state_dir / "identities.json"
        if not path.exists() or path.stat().st_mtime == self._identities_mtime:
            return
        self._identities_mtime = path.stat().st_mtime
        have = {(r.email, r.key_id) for r in self.registrations}
        for item in _read_json(path, []):
            reg = Registration.from_json(item)
            if (reg.email, reg.key_id) not in have:
                self.registrations.append(reg)

    def _load(self) -> None:
        """Restore state from ``state.json``."""
        assert self.state_dir is not None
        data = _read_json(self.state_dir / "state.json", {})
        self.files = {f["id"]: DriveFile.from_json(f) for f in data.get("files", [])}
        self.spreadsheets = {s["id"]: Spreadsheet.from_json(s) for s in data.get("spreadsheets", [])}
        self.tokens = data.get("tokens", {})
        self.static_tokens.update(data.get("static_tokens", {}))
        self._load_identities()

    @staticmethod
    def _atomic_write(path: Path, data: Any) -> None:
        """Write JSON via a temporary file and rename, so readers never see half a file."""
        tmp = path.with_suffix(path.suffix + f".{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)


def register_in_state_dir(state_dir: Path, reg: Registration) -> None:
    """Append a registration to ``identities.json`` (used by ``--write-credentials``)."""
    state_dir.mkdir(parents=True, exist_ok=True)
    with _file_lock(state_dir / ".identities.lock"):
        path = state_dir / "identities.json"
        current = _read_json(path, [])
        current = [r for r in current if not (r["email"] == reg.email and r.get("key_id") == reg.key_id)]
        current.append(reg.to_json())
        Store._atomic_write(path, current)


def _read_json(path: Path, default: Any) -> Any:
    """Parse a JSON file, or return ``default`` when missing/corrupt."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return default


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Inter-process lock (``fcntl``); a no-op where it is unavailable."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - non-POSIX
        yield
        return
    with open(path, "a+") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
