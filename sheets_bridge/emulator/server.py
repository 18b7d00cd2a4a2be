"""The HTTP server: routing, authentication, statistics, quota and fault injection.

Every non-admin request gets a sequence number ``n`` (1, 2, ...) that statistics report
and that fault injection refers to (``--fail-on 7:500``).  Processing order per request:

1. fault for ``n`` (500/503/429 answered, ``timeout``/``drop``/``drop-before`` closing the
   socket *before* the request is applied; ``drop-after`` applies it, then closes);
2. authentication (``/token`` excepted) -> identity;
3. per-identity, per-kind quota over a rolling minute, as Google counts it (Sheets reads, Sheets
   writes, Drive: :mod:`.quota`);
4. the API itself.

Admin endpoints live under ``/_emulator/`` and are neither counted nor authenticated.
"""

from __future__ import annotations

import base64
import collections
import contextlib
import json
import socket
import threading
import time
import traceback
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from . import drive, sheets_api
from .auth import JWT_BEARER, Registration, TokenError, verify_assertion
from .errors import ApiError, quota_exceeded, server_error, unauthenticated
from .http_types import ApiRequest, ApiResponse
from .model import spreadsheet_out
from .protection import ROLE_LEVELS
from .quota import QuotaCounter, QuotaSettings
from .store import Store, permission_id_for

FAULT_KINDS = ("500", "503", "429", "timeout", "drop", "drop-before", "drop-after")


@dataclass
class Faults:
    """Runtime-adjustable failure settings."""

    fail_on: dict[int, str] = field(default_factory=dict)
    quota: QuotaSettings = field(default_factory=QuotaSettings)
    timeout_sleep: float = 5.0

    @property
    def quota_per_minute(self) -> int | None:
        """Sheets requests of each kind (read, write) per identity per window; None = unlimited."""
        return self.quota.sheets_per_minute

    @property
    def retry_after(self) -> int | None:
        """A fixed Retry-After on quota refusals and injected 429s (None: none on quota refusals)."""
        return self.quota.retry_after

    def to_json(self) -> dict[str, Any]:
        """Current settings as JSON."""
        return {
            "fail_on": [f"{n}:{kind}" for n, kind in sorted(self.fail_on.items())],
            "quota_per_minute": self.quota.sheets_per_minute,
            "drive_quota_per_minute": self.quota.drive_per_minute,
            "quota_window_seconds": self.quota.window_seconds,
            "timeout_sleep": self.timeout_sleep,
            "retry_after": self.quota.retry_after,
        }


def parse_fault(spec: str, current: int = 0) -> tuple[int, str]:
    """``"7:500"`` -> (7, "500"); ``"+2:drop"`` is relative to the last request number."""
    number, _, kind = spec.partition(":")
    kind = kind.strip().lower()
    if kind not in FAULT_KINDS:
        raise ValueError(f"unknown fault kind {kind!r}; expected one of {', '.join(FAULT_KINDS)}")
    number = number.strip()
    n = current + int(number[1:]) if number.startswith("+") else int(number)
    if n < 1:
        raise ValueError("request numbers start at 1")
    return n, kind


class Stats:
    """Request counters exposed at ``GET /_emulator/stats``."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counter = 0
        self.requests: list[dict[str, Any]] = []

    def next_number(self) -> int:
        """Allocate the next request number."""
        with self.lock:
            self.counter += 1
            return self.counter

    def record(self, entry: dict[str, Any]) -> None:
        """Append a finished request."""
        with self.lock:
            self.requests.append(entry)

    def reset(self) -> None:
        """Clear counters (request numbering restarts at 1)."""
        with self.lock:
            self.counter = 0
            self.requests = []

    def to_json(self) -> dict[str, Any]:
        """The stats document."""
        with self.lock:
            requests = sorted(self.requests, key=lambda r: r["n"])
            by_endpoint = collections.Counter(r["endpoint"] for r in requests)
            by_identity = collections.Counter(r["identity"] or "anonymous" for r in requests)
            return {
                "total": len(requests),
                "by_endpoint": dict(by_endpoint),
                "by_identity": dict(by_identity),
                "requests": [dict(r) for r in requests],
            }


def classify(method: str, path: str) -> str:
    """Canonical endpoint name used in statistics (e.g. ``sheets.values.update``)."""
    parts = [p for p in path.split("/") if p]
    if parts[:1] == ["token"]:
        return "oauth.token"
    if parts[:2] == ["v4", "spreadsheets"]:
        rest = parts[2:]
        if not rest:
            return "sheets.create"
        if len(rest) == 1:
            if rest[0].endswith(":batchUpdate"):
                return "sheets.batchUpdate"
            return "sheets.get"
        if rest[1].startswith("values:"):
            return "sheets.values." + rest[1].split(":", 1)[1]
        if rest[1] == "values":
            raw = "/".join(rest[2:])
            if raw.endswith(":append"):
                return "sheets.values.append"
            if raw.endswith(":clear"):
                return "sheets.values.clear"
            return "sheets.values.get" if method == "GET" else "sheets.values.update"
        if rest[1] == "sheets":
            return "sheets.sheets.copyTo"
        return "sheets.unknown"
    if parts[:3] == ["drive", "v3", "files"]:
        rest = parts[3:]
        if not rest:
            return "drive.files.list" if method == "GET" else "drive.files.create"
        if len(rest) == 1:
            return {"GET": "drive.files.get", "PATCH": "drive.files.update", "DELETE": "drive.files.delete"}.get(
                method, "drive.files.unknown"
            )
        action = rest[1]
        if action == "permissions":
            verb = {"GET": "list" if len(rest) == 2 else "get", "POST": "create", "DELETE": "delete", "PATCH": "update"}
            return f"drive.permissions.{verb.get(method, 'unknown')}"
        if action == "comments":
            return "drive.comments." + ("list" if method == "GET" else "create")
        return f"drive.files.{action}"
    if parts[:1] == ["upload"]:
        return "drive.upload"
    return "unknown"


class EmulatorApp:
    """The emulator application (independent of the socket server that runs it)."""

    def __init__(
        self,
        *,
        state_dir: Path | None = None,
        quota_per_minute: int | None = None,
        fail_on: list[str] | tuple[str, ...] = (),
        static_tokens: dict[str, str] | None = None,
        timeout_sleep: float = 5.0,
        seed: int | None = None,
        drive_quota_per_minute: int | None = None,
        quota_window_seconds: float = 60.0,
        retry_after: int | None = None,
    ) -> None:
        self.store = Store(state_dir, seed=seed)
        self.stats = Stats()
        quota = QuotaSettings(quota_per_minute, drive_quota_per_minute, quota_window_seconds, retry_after)
        self.faults = Faults(quota=quota, timeout_sleep=timeout_sleep)
        for spec in fail_on:
            n, kind = parse_fault(spec)
            self.faults.fail_on[n] = kind
        if static_tokens:
            self.store.static_tokens.update(static_tokens)
        self.quota = QuotaCounter()

    # ----------------------------------------------------------------- quota

    def check_quota(self, identity: str, endpoint: str) -> None:
        """Refuse as Google does when ``identity`` used its allowance of this kind (:mod:`.quota`)."""
        self.quota.check(self.faults.quota, identity, endpoint, self.store.clock.monotonic())

    def reset_quota(self) -> None:
        """Forget the rolling windows."""
        self.quota.reset()

    # ----------------------------------------------------------------- requests

    def authenticate(self, headers: dict[str, str]) -> str:
        """Map the Authorization header to an identity or raise 401."""
        value = headers.get("authorization", "").strip()
        if not value:
            raise unauthenticated(invalid=False)
        token = value[7:].strip() if value.lower().startswith("bearer ") else value
        identity = self.store.identity_for_token(token)
        if identity is None:
            raise unauthenticated(invalid=True)
        return identity

    def token(self, req: ApiRequest) -> ApiResponse:
        """The OAuth token endpoint (JWT-bearer grant)."""
        form = {k: v[-1] for k, v in parse_qs(req.body.decode("utf-8", "replace")).items()}
        grant = form.get("grant_type")
        if grant != JWT_BEARER:
            return ApiResponse(
                400, {"error": "unsupported_grant_type", "error_description": f"Invalid grant_type: {grant}"}
            )
        assertion = form.get("assertion", "")
        try:
            claims_peek = _peek_issuer(assertion)
            registrations = self.store.registrations_for(claims_peek)
            claims = verify_assertion(assertion, registrations, now=self.store.clock.now())
        except TokenError as err:
            return ApiResponse(400, {"error": err.error, "error_description": err.description})
        req.identity = str(claims["iss"])
        return ApiResponse(200, self.store.issue_token(str(claims["iss"])))

    def dispatch(self, req: ApiRequest) -> ApiResponse:
        """Route an authenticated API request."""
        seg = req.segments
        if seg[:2] == ["v4", "spreadsheets"]:
            return sheets_api.handle(self.store, req)
        if seg[:3] == ["drive", "v3", "files"]:
            return drive.handle(self.store, req)
        if seg[:1] == ["upload"]:
            return drive.handle_upload(self.store, req)
        return ApiResponse(404, b"Not Found", content_type="text/html; charset=UTF-8")

    # ----------------------------------------------------------------- admin

    def admin(self, req: ApiRequest) -> ApiResponse:
        """``/_emulator/...`` endpoints."""
        action = "/".join(req.segments[1:])
        method = req.method
        if action == "health":
            return ApiResponse(200, {"ok": True})
        if action == "stats" and method == "GET":
            return ApiResponse(200, self.stats.to_json())
        if action == "reset" and method == "POST":
            self.stats.reset()
            self.reset_quota()
            return ApiResponse(200, {"ok": True})
        if action == "wipe" and method == "POST":
            self.store.wipe()
            self.stats.reset()
            self.reset_quota()
            return ApiResponse(200, {"ok": True})
        if action == "faults":
            if method == "POST":
                return self._set_faults(req.json())
            return ApiResponse(200, self.faults.to_json())
        if action == "identities" and method == "POST":
            self.store.register(Registration.from_json(req.json()))
            return ApiResponse(200, {"ok": True})
        if action == "tokens" and method == "POST":
            body = req.json()
            with self.store.lock:
                self.store.static_tokens[str(body["token"])] = str(body["email"])
                self.store.save()
            return ApiResponse(200, {"ok": True})
        if action == "clock" and method == "POST":
            self.store.clock.offset += float(req.json().get("advance", 0))
            return ApiResponse(200, {"offset": self.store.clock.offset})
        if action == "spreadsheets" and method == "POST":
            body = req.json()
            with self.store.lock:
                ss = sheets_api.create_spreadsheet_file(
                    self.store, str(body["owner"]), str(body.get("title") or "Untitled spreadsheet"), body
                )
                self.store.save()
            return ApiResponse(200, {"spreadsheetId": ss.id})
        if req.segments[1:2] == ["spreadsheets"] and len(req.segments) == 3 and method == "GET":
            with self.store.lock:
                ss = self.store.spreadsheets.get(req.segments[2])
                file = self.store.files.get(req.segments[2])
                if ss is None or file is None:
                    return ApiResponse(404, {"error": "no such spreadsheet"})
                out = spreadsheet_out(ss, viewer_can_edit=lambda pr: True, include_grid=True)
                out["owner"] = file.owner
                out["permissions"] = file.permissions
                return ApiResponse(200, out)
        if req.segments[1:2] == ["files"] and len(req.segments) == 4 and req.segments[3] == "permissions":
            body = req.json()
            with self.store.lock:
                file = self.store.files.get(req.segments[2])
                if file is None:
                    return ApiResponse(404, {"error": "no such file"})
                email = str(body["email"])
                role = str(body.get("role", "writer"))
                if role not in ROLE_LEVELS:
                    return ApiResponse(400, {"error": f"bad role {role}"})
                file.permissions = [p for p in file.permissions if p.get("emailAddress") != email]
                file.permissions.append(
                    {"id": permission_id_for(email), "type": "user", "emailAddress": email, "role": role}
                )
                self.store.save()
            return ApiResponse(200, {"ok": True})
        return ApiResponse(404, {"error": f"unknown admin endpoint {method} /_emulator/{action}"})

    def _set_faults(self, body: dict[str, Any]) -> ApiResponse:
        """Apply a ``POST /_emulator/faults`` body (relative ``+N`` numbers count from now)."""
        with self.stats.lock:
            current = self.stats.counter
        if body.get("clear"):
            self.faults.fail_on.clear()
        try:
            for spec in body.get("fail_on") or []:
                n, kind = parse_fault(str(spec), current)
                self.faults.fail_on[n] = kind
        except ValueError as exc:
            return ApiResponse(400, {"error": str(exc)})
        quota = self.faults.quota
        if "quota_per_minute" in body:
            value = body["quota_per_minute"]
            quota.sheets_per_minute = None if value is None else int(value)
            self.reset_quota()
        if "drive_quota_per_minute" in body:
            value = body["drive_quota_per_minute"]
            quota.drive_per_minute = None if value is None else int(value)
            self.reset_quota()
        if "quota_window_seconds" in body:
            quota.window_seconds = float(body["quota_window_seconds"] or 60.0)
            self.reset_quota()
        if "timeout_sleep" in body:
            self.faults.timeout_sleep = float(body["timeout_sleep"])
        if "retry_after" in body:
            quota.retry_after = None if body["retry_after"] is None else int(body["retry_after"])
        return ApiResponse(200, self.faults.to_json())


def _peek_issuer(assertion: str) -> str:
    """Read ``iss`` from an unverified JWT to find the keys to verify it with."""
    try:
        body = assertion.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        return str(claims.get("iss", ""))
    except (IndexError, ValueError):
        raise TokenError("invalid_grant", "Invalid JWT: malformed assertion.") from None


class _Handler(BaseHTTPRequestHandler):
    """Thin adapter from http.server to :class:`EmulatorApp`."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # one small response must not wait for a delayed ACK
    server_version = "ESF"
    sys_version = ""
    emulator: EmulatorApp  # set on the subclass created by make_server

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def do_GET(self) -> None:
        """Serve GET."""
        self._serve()

    def do_POST(self) -> None:
        """Serve POST."""
        self._serve()

    def do_PUT(self) -> None:
        """Serve PUT."""
        self._serve()

    def do_PATCH(self) -> None:
        """Serve PATCH."""
        self._serve()

    def do_DELETE(self) -> None:
        """Serve DELETE."""
        self._serve()

    def _read_body(self) -> bytes:
        """Read the request body (Content-Length or chunked)."""
        length = self.headers.get("Content-Length")
        if length is not None:
            return self.rfile.read(int(length)) if int(length) > 0 else b""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        return b""

    def _drop(self) -> None:
        """Close the connection without answering (fault injection)."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def _send(self, response: ApiResponse, payload: bytes | None = None) -> int:
        """Write a response (its body serialised already, when given); returns the body size."""
        payload = response.payload() if payload is None else payload
        self.send_response(response.status)
        if response.status != 204:
            self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(payload)))
        for key, value in response.headers.items():
            self.send_header(key, value)
        self.end_headers()
        if payload:
            self.wfile.write(payload)
        return len(payload)

    def _serve(self) -> None:
        """Handle one request: admin, or faults -> auth -> quota -> API, recording statistics."""
        emulator = self.emulator
        split = urlsplit(self.path)
        raw_path = split.path
        segments = [unquote(s) for s in raw_path.split("/") if s]
        headers = {k.lower(): v for k, v in self.headers.items()}
        body = self._read_body()
        req = ApiRequest(
            method=self.command,
            path=raw_path,
            segments=segments,
            params=parse_qs(split.query, keep_blank_values=True),
            body=body,
            headers=headers,
        )
        if segments[:1] == ["_emulator"]:
            try:
                self._send(emulator.admin(req))
            except (ApiError, KeyError, ValueError, TypeError) as exc:
                self._send(ApiResponse(400, {"error": str(exc)}))
            return
        n = emulator.stats.next_number()
        endpoint = classify(self.command, raw_path)
        entry: dict[str, Any] = {
            "n": n,
            "method": self.command,
            "path": raw_path,
            "endpoint": endpoint,
            "identity": None,
            "request_bytes": len(body),
            "response_bytes": 0,
            "status": 0,
            "fault": None,
        }
        fault = emulator.faults.fail_on.pop(n, None)
        try:
            if fault in ("timeout", "drop", "drop-before"):
                entry["fault"] = fault
                if fault == "timeout":
                    time.sleep(emulator.faults.timeout_sleep)
                self._drop()
                return
            if fault in ("500", "503"):
                entry["fault"] = fault
                raise server_error(int(fault))
            if fault == "429":
                entry["fault"] = fault
                raise quota_exceeded("sheets.googleapis.com", self.command != "GET", emulator.faults.retry_after or 1)
            if endpoint == "oauth.token":
                response = emulator.token(req)
                entry["identity"] = req.identity
            else:
                req.identity = emulator.authenticate(headers)
                entry["identity"] = req.identity
                emulator.check_quota(req.identity, endpoint)
                response = emulator.dispatch(req)
        except ApiError as err:
            response = ApiResponse(err.code, err.body, headers=dict(err.headers))
        except Exception as exc:  # a bug must answer 500 (and be visible), not kill the thread
            traceback.print_exc()
            response = ApiResponse(
                500, {"error": {"code": 500, "message": f"emulator bug: {exc!r}", "status": "INTERNAL"}}
            )
        finally:
            if entry["fault"] in ("timeout", "drop", "drop-before"):
                emulator.stats.record(entry)
        if fault == "drop-after":
            entry["fault"] = fault
            entry["status"] = response.status
            emulator.stats.record(entry)
            self._drop()
            return
        entry["status"] = response.status
        payload = response.payload()
        entry["response_bytes"] = len(payload)
        emulator.stats.record(entry)  # before the answer: a client holding it always finds it counted
        self._send(response, payload)


class _Server(ThreadingHTTPServer):
    """Threaded server; handler threads do not block shutdown."""

    daemon_threads = True
    allow_reuse_address = True


def make_server(emulator: EmulatorApp, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """Bind a threaded HTTP server for ``emulator`` (port 0 = any free port).

    Only loopback addresses are accepted: the emulator has no real security and must never
    be reachable from the network.
    """
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError(f"the emulator binds to loopback only, not {host!r}")
    handler = type("EmulatorHandler", (_Handler,), {"emulator": emulator})
    return _Server((host, port), handler)
