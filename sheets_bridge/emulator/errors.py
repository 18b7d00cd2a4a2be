"""Google-shaped API errors raised inside the emulator.

Every failure the emulator reports travels as an :class:`ApiError` up to the HTTP layer,
which serialises it exactly the way Google does, so that clients (gspread, our own
``google_http``) see the same status codes and JSON bodies as in production.  Two body
shapes exist: the Sheets v4 one (``{"error": {"code", "message", "status"}}``) and the
Drive v3 one, which adds an ``errors`` list with ``domain``/``reason``.
"""

from __future__ import annotations

from typing import Any

#: HTTP status -> canonical gRPC status name used by Google in ``error.status``.
STATUS_NAMES: dict[int, str] = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    409: "ALREADY_EXISTS",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    501: "UNIMPLEMENTED",
    503: "UNAVAILABLE",
}

#: Message Google uses when the caller has no access to a spreadsheet (recorded).
PERMISSION_DENIED_MESSAGE = "The caller does not have permission"
#: Message Google uses for an unknown spreadsheet id (recorded).
NOT_FOUND_MESSAGE = "Requested entity was not found."
#: Message Google uses when a write touches a protected range.
PROTECTED_MESSAGE = (
    "You are trying to edit a protected cell or object. "
    "Please contact the spreadsheet owner to remove protection if you need to edit."
)


class ApiError(Exception):
    """An error answer of the emulated API.

    ``body`` is the complete JSON document to send; ``headers`` are extra response
    headers (e.g. ``Retry-After``).
    """

    def __init__(self, code: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        super().__init__(body.get("error", {}).get("message", str(code)))
        self.code = code
        self.body = body
        self.headers = headers or {}


def sheets_error(code: int, message: str, *, details: list[dict[str, Any]] | None = None) -> ApiError:
    """Build a Sheets-v4-style error (``{"error": {"code", "message", "status"}}``)."""
    error: dict[str, Any] = {"code": code, "message": message, "status": STATUS_NAMES.get(code, "UNKNOWN")}
    if details:
        error["details"] = details
    return ApiError(code, {"error": error})


def bad_request(message: str) -> ApiError:
    """400 INVALID_ARGUMENT with Google's message text."""
    return sheets_error(400, message)


def invalid_request(index: int, kind: str, message: str) -> ApiError:
    """400 for a sub-request of ``spreadsheets.batchUpdate`` (``Invalid requests[i].kind: ...``)."""
    return bad_request(f"Invalid requests[{index}].{kind}: {message}")


def parse_error(field: str, value: Any, type_name: str = "type.googleapis.com/google.protobuf.ListValue") -> ApiError:
    """400 for a JSON body whose field has the wrong type, worded like Google's ESF front end."""
    rendered = _proto_repr(value)
    message = f"Invalid value at '{field}' ({type_name}), {rendered}"
    details = [
        {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            "fieldViolations": [{"field": field, "description": message}],
        }
    ]
    return sheets_error(400, message, details=details)


def _proto_repr(value: Any) -> str:
    """Render a scalar the way the ESF parser quotes it in error messages."""
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def permission_denied() -> ApiError:
    """403 PERMISSION_DENIED, the recorded Sheets answer for a file the caller cannot use."""
    return sheets_error(403, PERMISSION_DENIED_MESSAGE)


def not_found() -> ApiError:
    """404 NOT_FOUND, the recorded Sheets answer for an unknown spreadsheet id."""
    return sheets_error(404, NOT_FOUND_MESSAGE)


def drive_error(code: int, message: str, reason: str, *, location: str | None = None) -> ApiError:
    """Build a Drive-v3-style error with the ``errors`` list Google adds."""
    item: dict[str, Any] = {"message": message, "domain": "global", "reason": reason}
    if location:
        item["location"] = location
        item["locationType"] = "parameter"
    return ApiError(code, {"error": {"code": code, "message": message, "errors": [item]}})


def drive_not_found(file_id: str) -> ApiError:
    """404 for a Drive file that does not exist or is not visible to the caller."""
    return drive_error(404, f"File not found: {file_id}.", "notFound", location="fileId")


def drive_forbidden(file_id: str) -> ApiError:
    """403 for a Drive write by a caller whose role is too low."""
    return drive_error(
        403,
        f"The user does not have sufficient permissions for file {file_id}.",
        "insufficientFilePermissions",
    )


def unauthenticated(invalid: bool) -> ApiError:
    """401 for a missing (``invalid=False``) or unknown/expired (``invalid=True``) token."""
    if invalid:
        message = (
            "Request had invalid authentication credentials. Expected OAuth 2 access token, "
            "login cookie or other valid authentication credential. "
            "See https://developers.google.com/identity/sign-in/web/devconsole-project."
        )
    else:
        message = (
            "Request is missing required authentication credential. Expected OAuth 2 access token, "
            "login cookie or other valid authentication credential. "
            "See https://developers.google.com/identity/sign-in/web/devconsole-project."
        )
    err = sheets_error(401, message)
    err.headers["WWW-Authenticate"] = 'Bearer realm="https://accounts.google.com/"'
    return err


def quota_exceeded(service: str, write: bool, retry_after: int | None) -> ApiError:
    """429 RESOURCE_EXHAUSTED with the body Google sends for per-user rate limits."""
    kind = "Write" if write else "Read"
    limit = f"{kind}RequestsPerMinutePerUser"
    message = (
        f"Quota exceeded for quota metric '{kind} requests' and limit '{kind} requests per minute per "
        f"user' of service '{service}' for consumer 'project_number:0'."
    )
    details = [
        {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "RATE_LIMIT_EXCEEDED",
            "domain": "googleapis.com",
            "metadata": {
                "consumer": "projects/0",
                "quota_limit": limit,
                "quota_metric": f"{service}/{kind.lower()}_requests",
                "service": service,
            },
        }
    ]
    err = sheets_error(429, message, details=details)
    if retry_after is not None:
        err.headers["Retry-After"] = str(retry_after)
    return err


def drive_rate_limited(retry_after: int | None) -> ApiError:
    """403 ``userRateLimitExceeded``: Drive's answer past the per-user allowance (its error guide)."""
    message = "User Rate Limit Exceeded"
    err = ApiError(403, {"error": {"code": 403, "message": message, "errors": [
        {"message": message, "domain": "usageLimits", "reason": "userRateLimitExceeded"}]}})
    if retry_after is not None:
        err.headers["Retry-After"] = str(retry_after)
    return err


def server_error(code: int) -> ApiError:
    """Injected 5xx failure with Google's wording."""
    message = "Internal error encountered." if code == 500 else "The service is currently unavailable."
    return sheets_error(code, message)
