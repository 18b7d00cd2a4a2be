"""The Google backend's errors: ``google_http``'s errors turned into the project's, with a hint
on what to do (the CLI prints them and exits 1)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from engine.core.errors import BackendError
from engine.core.messages import _

from . import google_http
from .google_http import (
    GoogleAmbiguousWriteError,
    GoogleCredentialsError,
    GoogleError,
    GoogleNotFoundError,
    GooglePermissionError,
    GoogleProtectedRangeError,
    GoogleQuotaError,
    GoogleRetryExhausted,
)


class GoogleBackendError(BackendError):
    """Talking to Google failed; the message (Russian first) says what to do."""


class GoogleCredentialsMissing(GoogleBackendError):
    """No usable Google credentials (no key file, a broken one, a refused token)."""


class GoogleAccessError(GoogleBackendError):
    """The spreadsheet does not exist or is not shared with the service account."""


class GoogleQuotaExhausted(GoogleBackendError):
    """Google's per-minute quota stayed exhausted through every retry."""


class GoogleWriteUncertain(GoogleBackendError):
    """A write may or may not have landed and the check could not tell."""


def translate(exc: GoogleError, doing: str = "") -> GoogleBackendError:
    """The project's error for a ``google_http`` error (message kept, a hint added)."""
    prefix = f"{doing}: " if doing else ""
    text = f"{prefix}{exc}"
    if isinstance(exc, GoogleCredentialsError):
        return GoogleCredentialsMissing(
            text + "\n" + _(
                "Укажите ключ сервисного аккаунта: --credentials FILE или переменная "
                "{env}; для личного аккаунта — --oauth-client-secrets FILE."
            ).format(env=google_http.ENV_CREDENTIALS)
        )
    if isinstance(exc, GoogleQuotaError):
        return GoogleQuotaExhausted(text)
    if isinstance(exc, GoogleProtectedRangeError):
        return GoogleAccessError(text)
    if isinstance(exc, (GoogleNotFoundError, GooglePermissionError)):
        return GoogleAccessError(text)
    if isinstance(exc, GoogleAmbiguousWriteError):
        return GoogleWriteUncertain(
            text + "\n" + _(
                "Если это был resolve, повторите его с --turn N: уже разрешённый ход не будет разрешён дважды."
            )
        )
    if isinstance(exc, GoogleRetryExhausted) and isinstance(exc.last_error, GoogleQuotaError):
        return GoogleQuotaExhausted(text)
    return GoogleBackendError(text)


@contextlib.contextmanager
def google_errors(doing: str = "") -> Iterator[None]:
    """Turn ``google_http`` errors into :class:`GoogleBackendError` (the CLI prints them, exit 1)."""
    try:
        yield
    except GoogleError as exc:
        raise translate(exc, doing) from exc
