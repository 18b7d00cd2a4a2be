"""Transport-neutral request/response objects passed between the HTTP server and the APIs."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import orjson

from .errors import ApiError


@dataclass
class ApiRequest:
    """One decoded HTTP request."""

    method: str
    path: str
    segments: list[str]
    params: dict[str, list[str]]
    body: bytes
    headers: dict[str, str]
    identity: str | None = None

    def param(self, name: str, default: str | None = None) -> str | None:
        """Last value of a query parameter."""
        values = self.params.get(name)
        return values[-1] if values else default

    def param_list(self, name: str) -> list[str]:
        """All values of a repeated query parameter."""
        return list(self.params.get(name, []))

    def flat_params(self) -> dict[str, Any]:
        """Query parameters with their last values."""
        return {k: v[-1] for k, v in self.params.items() if v}

    def json(self) -> dict[str, Any]:
        """The JSON body as an object (``{}`` for an empty body)."""
        if not self.body or not self.body.strip():
            return {}
        try:
            data = json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            message = f"Invalid JSON payload received. {exc}"
            raise ApiError(400, {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}) from None
        if not isinstance(data, dict):
            raise ApiError(
                400,
                {
                    "error": {
                        "code": 400,
                        "message": "Invalid JSON payload received. Expected an object.",
                        "status": "INVALID_ARGUMENT",
                    }
                },
            )
        return data


@dataclass
class ApiResponse:
    """What to send back: JSON (dict/list), raw bytes, or nothing (204)."""

    status: int
    body: Any = None
    content_type: str = "application/json; charset=UTF-8"
    headers: dict[str, str] = field(default_factory=dict)

    def payload(self) -> bytes:
        """Serialised body."""
        if self.body is None:
            return b""
        if isinstance(self.body, bytes):
            return self.body
        # Google pretty-prints with two spaces; orjson does so at C speed (the standard
        # encoder falls back to pure Python when asked to indent).
        return orjson.dumps(self.body, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS)
