"""Strategos' HTTP layer for gspread: API base switching, bounded retries, clear errors.

Why this exists
---------------
* **One code path for production and tests.**  Every URL gspread builds goes through
  :meth:`StrategosHTTPClient.request`; there it is rewritten to the base given by the
  environment variable ``STRATEGOS_GOOGLE_API_BASE`` (unset = real Google).  With
  ``STRATEGOS_GOOGLE_API_BASE=http://127.0.0.1:8765`` Sheets lives under
  ``/v4/spreadsheets``, Drive under ``/drive/v3/files``, uploads under ``/upload/...`` and
  the OAuth token endpoint at ``/token`` -- exactly what ``python -m
  sheets_bridge.emulator`` serves.
* **Bounded retries.**  gspread's ``BackOffHTTPClient`` retries forever without jitter.
  Here: exponential back-off with full jitter on 429/500/502/503/504, timeouts and
  connection errors, ``Retry-After`` honoured, at most ``max_attempts`` tries within
  ``max_total_seconds``; then :class:`GoogleRetryExhausted` (or :class:`GoogleQuotaError`).
  ``sleep``/``clock``/``rng`` are injectable so tests run instantly.
* **Paced to the quota.**  Before a request is sent, :class:`~sheets_bridge.google_quota.QuotaPacer`
  waits until Google's per-user bucket of its kind (Sheets read, Sheets write, Drive) has room,
  so a big campaign is slowed down rather than refused.  A 429 that still comes waits the
  ``Retry-After`` Google sent, or else a quota back-off long enough to outlast a full minute
  across the attempts (:meth:`~sheets_bridge.google_quota.QuotaLimits.backoff`).
* **A write never applies twice.**  Only idempotent requests (GET, PUT values.update,
  DELETE, ``:clear``, ``values:batchUpdate``/``batchClear``, permissions) are retried after
  an *ambiguous* failure (5xx, read timeout, connection dropped after sending).  A
  non-idempotent request (``:batchUpdate``, ``:append``, Drive create/copy) is retried
  only when it provably did not reach Google -- connection refused, connect timeout,
  token refresh failure, or a 429 (a rejected request is not executed) -- or when the
  caller supplies an idempotency check through :meth:`StrategosHTTPClient.write_guard`
  (the bridge checks its turn marker): the check answers "already applied?"; ``True``
  raises :class:`GoogleWriteAlreadyApplied`, ``False`` allows the retry.  Without a check
  an ambiguous failure raises :class:`GoogleAmbiguousWriteError` immediately.
* **Russian-first errors** with the service-account address, so a game master knows what
  to do («откройте доступ этому адресу»).  API errors also subclass gspread's ``APIError``
  (and ``SpreadsheetNotFound`` / ``PermissionError`` where gspread raises those), so code
  written against gspread keeps working.
"""

from __future__ import annotations

import contextlib
import email.utils
import json
import os
import random
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import google.auth.exceptions
import gspread
import requests
from google.auth.credentials import Credentials
from google.oauth2 import service_account
from gspread.exceptions import APIError, SpreadsheetNotFound
from gspread.http_client import FileType, HTTPClient, ParamsType
from gspread.spreadsheet import Spreadsheet

from engine.core.grammar import count
from engine.core.messages import _

from .google_quota import QuotaLimits, QuotaPacer, QuotaSettingError, kind_of
from .google_quota import wait as wait_quota

ENV_API_BASE = "STRATEGOS_GOOGLE_API_BASE"
ENV_CREDENTIALS = "GOOGLE_APPLICATION_CREDENTIALS"

GOOGLE_SHEETS_URL = "https://sheets.googleapis.com/v4/spreadsheets"
GOOGLE_DRIVE_URL = "https://www.googleapis.com/drive/v3/files"
GOOGLE_UPLOAD_URL = "https://www.googleapis.com/upload"
GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token"

DEFAULT_SCOPES: tuple[str, ...] = (
    "https://www.googleapis.com/auth/spreadsheets",
    "https://www.googleapis.com/auth/drive",
)
#: (connect, read) seconds; gspread's own default is "wait forever".
DEFAULT_TIMEOUT: tuple[float, float] = (10.0, 60.0)


# =========================================================================== errors


class GoogleError(Exception):
    """Base of every error raised when talking to Google (message in Russian first)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class GoogleCredentialsError(GoogleError):
    """No usable credentials (missing/invalid key file, token refused)."""


class GoogleConnectionError(GoogleError):
    """The request got no HTTP answer (connection refused/dropped, timeout)."""


class GoogleRetryExhausted(GoogleError):
    """Retries are used up; ``last_error`` holds the final failure."""

    def __init__(
        self, message: str, *, attempts: int = 0, elapsed: float = 0.0, last_error: BaseException | None = None
    ):
        GoogleError.__init__(self, message)
        self.attempts = attempts
        self.elapsed = elapsed
        self.last_error = last_error


class GoogleAmbiguousWriteError(GoogleError):
    """A non-idempotent write failed without a clear answer; it may or may not be applied."""


class GoogleWriteAlreadyApplied(GoogleError):
    """The caller's idempotency check says the failed write had in fact been applied."""


class GoogleApiError(GoogleError, APIError):
    """Google answered with an HTTP error.  Also a gspread ``APIError`` (``.response``, ``.code``)."""

    def __init__(
        self, message: str, response: requests.Response | None = None, *, error: Mapping[str, Any] | None = None
    ):
        if response is not None:
            APIError.__init__(self, response)
        else:
            Exception.__init__(self, message)
            self.response = None  # type: ignore[assignment]
            self.error = dict(error or {"code": 0, "message": message, "status": ""})
            self.code = int(self.error.get("code") or 0)
        self.args = (message,)
        self.message = message

    @property
    def status_code(self) -> int:
        """HTTP status."""
        return int(self.code)

    @property
    def google_status(self) -> str:
        """``error.status`` from Google's body (e.g. ``PERMISSION_DENIED``)."""
        return str(self.error.get("status", ""))

    @property
    def google_message(self) -> str:
        """``error.message`` from Google's body."""
        return str(self.error.get("message", ""))

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.message, self.response)


class GoogleBadRequestError(GoogleApiError):
    """400: Google refused the request as invalid."""


class GoogleAuthError(GoogleApiError):
    """401: the access token was refused."""


class GoogleNotFoundError(GoogleApiError, SpreadsheetNotFound):
    """404: no such spreadsheet/file, or it is not shared with the service account."""


class GooglePermissionError(GoogleApiError, PermissionError):
    """403: the caller lacks the role needed (e.g. reader trying to write)."""


class GoogleProtectedRangeError(GooglePermissionError):
    """The write touched a protected range the caller is not an editor of.

    Google answers this with 400 INVALID_ARGUMENT ("You are trying to edit a protected
    cell or object..."), not 403; it is still a permission problem for our callers.
    """


class GoogleQuotaError(GoogleApiError, GoogleRetryExhausted):
    """429 RESOURCE_EXHAUSTED after the retry budget was spent."""

    def __init__(
        self, message: str, response: requests.Response | None = None, *, error: Mapping[str, Any] | None = None
    ) -> None:
        GoogleApiError.__init__(self, message, response, error=error)
        self.attempts = 1
        self.elapsed = 0.0
        self.last_error: BaseException | None = None


class GoogleServerError(GoogleApiError):
    """5xx from Google (after retries when the request could be retried)."""


# =========================================================================== endpoints


@dataclass(frozen=True)
class ApiEndpoints:
    """Where the Google APIs live; ``base=None`` means the real Google."""

    base: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ApiEndpoints:
        """Read ``STRATEGOS_GOOGLE_API_BASE`` (empty = real Google)."""
        env = os.environ if environ is None else environ
        value = (env.get(ENV_API_BASE) or "").strip().rstrip("/")
        return cls(value or None)

    @property
    def sheets(self) -> str:
        """Sheets v4 spreadsheets collection URL."""
        return f"{self.base}/v4/spreadsheets" if self.base else GOOGLE_SHEETS_URL

    @property
    def drive(self) -> str:
        """Drive v3 files collection URL."""
        return f"{self.base}/drive/v3/files" if self.base else GOOGLE_DRIVE_URL

    @property
    def upload(self) -> str:
        """Upload root (``.../upload``)."""
        return f"{self.base}/upload" if self.base else GOOGLE_UPLOAD_URL

    @property
    def token(self) -> str:
        """OAuth token endpoint."""
        return f"{self.base}/token" if self.base else GOOGLE_TOKEN_URL

    def rewrite(self, url: str) -> str:
        """Map a URL gspread built for Google onto this base (identity for real Google)."""
        if not self.base:
            return url
        for prefix, target in (
            (GOOGLE_SHEETS_URL, self.sheets),
            (GOOGLE_DRIVE_URL, self.drive),
            (GOOGLE_UPLOAD_URL, self.upload),
            ("https://www.googleapis.com/drive/", f"{self.base}/drive/"),
            (GOOGLE_TOKEN_URL, self.token),
        ):
            if url.startswith(prefix):
                return target + url[len(prefix) :]
        return url


# =========================================================================== retry policy


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded exponential back-off with full jitter."""

    max_attempts: int = 5
    #: Google's quota window is a minute: the budget lets a 429 be waited out across it
    max_total_seconds: float = 180.0
    base_delay: float = 0.5
    max_delay: float = 20.0
    retry_statuses: frozenset[int] = field(default_factory=lambda: frozenset({429, 500, 502, 503, 504}))

    def backoff(self, attempt: int, rng: random.Random) -> float:
        """Full-jitter delay before attempt ``attempt + 1``."""
        return rng.uniform(0.0, min(self.max_delay, self.base_delay * (2 ** (attempt - 1))))


_IDEMPOTENT_POST_SUFFIXES = (":clear", ":batchClear", "values:batchUpdate", "values:batchGet", "/permissions")


def is_idempotent(method: str, url: str) -> bool:
    """Whether repeating the request cannot change the outcome (safe to retry blindly)."""
    verb = method.upper()
    if verb in ("GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"):
        return True
    path = url.split("?", 1)[0]
    return verb == "POST" and path.endswith(_IDEMPOTENT_POST_SUFFIXES)


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` in seconds (delta-seconds or HTTP-date), ``None`` when absent/bad."""
    if not value:
        return None
    value = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    current = datetime.now(timezone.utc).timestamp() if now is None else now
    return max(0.0, when.timestamp() - current)


def _not_sent(exc: BaseException) -> bool:
    """True when the request provably never reached the server."""
    if isinstance(exc, google.auth.exceptions.RefreshError):
        return True  # the token fetch failed, the API request was never sent
    if isinstance(exc, google.auth.exceptions.TransportError):
        return True
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return True
    if isinstance(exc, requests.exceptions.ConnectionError):
        seen: set[int] = set()
        current: BaseException | None = exc
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            name = type(current).__name__
            if isinstance(current, ConnectionRefusedError) or name in ("NewConnectionError", "NameResolutionError"):
                return True
            current = current.__cause__ or current.__context__ or _first_arg_exception(current)
    return False


def _first_arg_exception(exc: BaseException) -> BaseException | None:
    """Find the wrapped exception urllib3/requests keep in ``args``/``reason``."""
    for arg in getattr(exc, "args", ()):
        if isinstance(arg, BaseException):
            return arg
        reason = getattr(arg, "reason", None)
        if isinstance(reason, BaseException):
            return reason
    reason = getattr(exc, "reason", None)
    return reason if isinstance(reason, BaseException) else None


# =========================================================================== the client


_SPREADSHEET_ID_RE = re.compile(r"/(?:spreadsheets|files)/([A-Za-z0-9_-]{10,})")


class _Guard(threading.local):
    """Per-thread idempotency check installed by :meth:`StrategosHTTPClient.write_guard`."""

    check: Callable[[], bool] | None = None


class StrategosHTTPClient(HTTPClient):
    """gspread HTTP client with URL rewriting, bounded retries and Strategos errors."""

    def __init__(
        self,
        auth: Credentials | None,
        session: requests.Session | None = None,
        *,
        endpoints: ApiEndpoints | None = None,
        retry_policy: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        timeout: float | tuple[float, float] | None = DEFAULT_TIMEOUT,
        quota_limits: QuotaLimits | None = None,
    ) -> None:
        super().__init__(auth, session)  # type: ignore[arg-type]
        self.endpoints = endpoints or ApiEndpoints.from_env()
        self.retry_policy = retry_policy or RetryPolicy()
        self.sleep = sleep
        self.clock = clock
        self.rng = rng or random.Random()
        self.timeout = timeout
        self.quota = QuotaPacer(quota_limits or QuotaLimits.from_env(), clock, sleep)
        self._guard = _Guard()

    # ----------------------------------------------------------------- idempotency guard

    @contextlib.contextmanager
    def write_guard(self, already_applied: Callable[[], bool]) -> Iterator[None]:
        """Within the block, ambiguous failures of non-idempotent writes ask ``already_applied()``.

        ``already_applied`` must read the spreadsheet (e.g. the turn marker) and answer
        whether the write took effect.  ``True`` -> :class:`GoogleWriteAlreadyApplied` is
        raised (do not write again); ``False`` -> the write is retried.
        """
        previous = self._guard.check
        self._guard.check = already_applied
        try:
            yield
        finally:
            self._guard.check = previous

    # ----------------------------------------------------------------- identity for messages

    @property
    def account_email(self) -> str:
        """Service-account e-mail used in error messages."""
        auth = getattr(self, "auth", None)
        return str(getattr(auth, "service_account_email", None) or _("(неизвестный аккаунт)"))

    # ----------------------------------------------------------------- main entry

    def request(
        self,
        method: str,
        endpoint: str,
        params: ParamsType | None = None,
        data: bytes | None = None,
        json: Mapping[str, Any] | None = None,
        files: FileType = None,
        headers: MutableMapping[str, str] | None = None,
    ) -> requests.Response:
        """Send a request with URL rewriting and the bounded retry policy."""
        url = self.endpoints.rewrite(endpoint)
        idempotent = is_idempotent(method, url)
        policy = self.retry_policy
        kind = kind_of(method, url)
        self.quota.before(kind)  # Google's bucket of this kind has room: the time budget starts now
        start = self.clock()
        attempt = 0
        quota_hits = 0
        while True:
            attempt += 1
            retry_after: float | None = None
            quota_hit = False
            if attempt > 1:
                self.quota.before(kind)
            try:
                response = self.session.request(
                    method=method,
                    url=url,
                    json=json,
                    params=params,
                    data=data,
                    files=files,
                    headers=headers,
                    timeout=self.timeout,
                )
            except (requests.exceptions.RequestException, google.auth.exceptions.GoogleAuthError) as exc:
                if isinstance(exc, google.auth.exceptions.RefreshError) and not getattr(exc, "retryable", False):
                    raise GoogleCredentialsError(
                        _(
                            "Google не выдал токен для сервисного аккаунта {email}: {exc}. "
                            "Проверьте JSON-ключ (не отозван ли он) и системное время."
                        ).format(email=self.account_email, exc=exc)
                    ) from exc
                if not isinstance(
                    exc,
                    (
                        requests.exceptions.ConnectionError,
                        requests.exceptions.Timeout,
                        google.auth.exceptions.TransportError,
                        google.auth.exceptions.RefreshError,
                    ),
                ):
                    raise GoogleConnectionError(_("Запрос к Google не отправлен: {exc}").format(exc=exc)) from exc
                if not idempotent and not _not_sent(exc):
                    self._resolve_ambiguous(method, url, _("нет ответа: {error}").format(error=type(exc).__name__), exc)
                last_error: BaseException = GoogleConnectionError(
                    _("Нет ответа от Google ({error}: {exc})").format(error=type(exc).__name__, exc=exc)
                )
                last_error.__cause__ = exc
            else:
                drive_rate_limit = _is_drive_rate_limit(response)
                quota_hit = response.status_code == 429 or drive_rate_limit
                if not quota_hit:
                    self.quota.answered(kind)  # a refused request is not counted (nor does the emulator)
                if response.ok:
                    return response
                error = self._error_for(response, url, method)
                retryable = response.status_code in policy.retry_statuses or drive_rate_limit
                if not retryable:
                    raise error
                if response.status_code != 429 and not drive_rate_limit and not idempotent:
                    self._resolve_ambiguous(method, url, f"HTTP {response.status_code}", error)
                retry_after = parse_retry_after(response.headers.get("Retry-After"))
                last_error = error
            elapsed = self.clock() - start
            if attempt >= policy.max_attempts:
                raise self._exhausted(method, url, attempt, elapsed, last_error)
            if quota_hit:
                # Google refused for the quota (the request was not executed): wait what it asked, else
                # until our own window has room, and at least the quota back-off
                quota_hits += 1
                due = self.quota.due(kind) if kind else 0.0
                asked = retry_after if retry_after is not None else self.quota.limits.backoff(quota_hits, self.rng)
                delay = max(due, asked)
            else:
                delay = policy.backoff(attempt, self.rng)
                if retry_after is not None:
                    delay = max(delay, retry_after)
            if elapsed + delay > policy.max_total_seconds:
                raise self._exhausted(method, url, attempt, elapsed, last_error)
            if quota_hit and kind is not None:
                wait_quota(delay, kind, self.quota.limits.limit(kind), self.sleep)
            else:
                self.sleep(delay)

    # ----------------------------------------------------------------- helpers

    def _resolve_ambiguous(self, method: str, url: str, cause: str, exc: BaseException) -> None:
        """Decide about a non-idempotent write whose fate is unknown (returns = retry)."""
        check = self._guard.check
        short = _short_url(url)
        if check is None:
            raise GoogleAmbiguousWriteError(
                _(
                    "Запись {method} {url} могла примениться, но ответа нет ({cause}). "
                    "Повтор без проверки опасен: сверьте состояние таблицы (например, маркер хода) и повторите."
                ).format(method=method.upper(), url=short, cause=cause)
            ) from exc
        if check():
            raise GoogleWriteAlreadyApplied(
                _("Запись {method} {url} уже применена (проверка подтвердила), повтор не нужен.").format(
                    method=method.upper(), url=short
                )
            ) from exc

    def _exhausted(self, method: str, url: str, attempts: int, elapsed: float, last: BaseException) -> GoogleError:
        """The error raised when the retry budget (attempts or time) is spent."""
        short = _short_url(url)
        if isinstance(last, GoogleApiError) and (last.code == 429 or isinstance(last, GoogleQuotaError)):
            err = GoogleQuotaError(
                _(
                    "Квота Google исчерпана: {method} {url} отклонён (429 RESOURCE_EXHAUSTED) "
                    "{times} за {seconds} с. Подождите минуту и повторите; если повторяется — "
                    "уменьшите частоту запросов. Google: {google}"
                ).format(method=method.upper(), url=short, times=count(attempts, "раз"), seconds=f"{elapsed:.1f}",
                         google=last.google_message),
                last.response,
            )
            err.attempts, err.elapsed, err.last_error = attempts, elapsed, last
            return err
        exhausted = GoogleRetryExhausted(
            _("Google не ответил успешно на {method} {url} после {attempts} за {seconds} с: {error}").format(
                method=method.upper(), url=short, attempts=count(attempts, "попытка", case="gent"),
                seconds=f"{elapsed:.1f}", error=last,
            ),
            attempts=attempts,
            elapsed=elapsed,
            last_error=last,
        )
        exhausted.__cause__ = last
        return exhausted

    def _error_for(self, response: requests.Response, url: str, method: str = "GET") -> GoogleApiError:
        """Translate an HTTP error answer into a Strategos exception."""
        try:
            error = response.json().get("error", {})
        except ValueError:
            error = {}
        if not isinstance(error, dict):
            error = {"message": str(error)}
        google_message = str(error.get("message") or response.text[:200])
        status = response.status_code
        match = _SPREADSHEET_ID_RE.search(url)
        target = match.group(1) if match else None
        email_addr = self.account_email
        if target:
            unshared = _("Таблица {id} не найдена или не открыта для сервисного аккаунта {email}").format(
                id=target, email=email_addr)
            place = _("таблица {id}").format(id=target)
        else:
            unshared = _("Запрошенный объект не найден или не открыт для сервисного аккаунта {email}").format(
                email=email_addr)
            place = _("запрошенный объект")
        share_hint = _(": откройте доступ этому адресу (Настройки доступа → добавить {email} как редактора).").format(
            email=email_addr)
        tail = f" (Google: {status} {error.get('status', '')} {google_message})".replace("  ", " ")
        if status == 400 and "protected cell or object" in google_message:
            return GoogleProtectedRangeError(
                _(
                    "Запись отклонена: диапазон защищён в таблице {id}, а {email} не входит в редакторы этой "
                    "защиты. Попросите владельца добавить адрес в редакторы защиты или снять её."
                ).format(id=target or "?", email=email_addr) + tail,
                response,
            )
        if status == 400:
            return GoogleBadRequestError(
                _("Google отклонил запрос как некорректный: {google}").format(google=google_message) + tail, response
            )
        if status == 401:
            return GoogleAuthError(
                _("Google не принял токен сервисного аккаунта {email}: проверьте JSON-ключ и системное время.").format(
                    email=email_addr) + tail,
                response,
            )
        if status == 404:
            return GoogleNotFoundError(unshared + share_hint + tail, response)
        if status == 403 and _is_drive_rate_limit(response):
            return GoogleQuotaError(_("Квота Google Drive исчерпана.") + tail, response)
        if status == 403 and method.upper() == "GET":
            return GooglePermissionError(unshared + share_hint + tail, response)
        if status == 403:
            return GooglePermissionError(
                _(
                    "Сервисному аккаунту {email} не хватает прав на запись ({place}): выдайте этому адресу роль "
                    "«Редактор» в настройках доступа."
                ).format(email=email_addr, place=place) + tail,
                response,
            )
        if status == 429:
            return GoogleQuotaError(
                _("Квота Google исчерпана для {email}: слишком много запросов в минуту.").format(email=email_addr)
                + tail,
                response,
            )
        if status >= 500:
            return GoogleServerError(
                _("Сервер Google вернул ошибку {status}; попробуйте позже.").format(status=status) + tail, response
            )
        return GoogleApiError(_("Google вернул ошибку {status}.").format(status=status) + tail, response)


def _is_drive_rate_limit(response: requests.Response) -> bool:
    """Drive signals rate limits as 403 with ``domain=usageLimits``; treat them like 429."""
    if response.status_code != 403:
        return False
    try:
        errors = response.json().get("error", {}).get("errors") or []
    except ValueError:
        return False
    return any(e.get("domain") == "usageLimits" or "RateLimit" in str(e.get("reason", "")) for e in errors)


def _short_url(url: str) -> str:
    """URL without its query string, for messages."""
    return url.split("?", 1)[0]


# =========================================================================== gspread client


class StrategosClient(gspread.Client):
    """gspread Client whose open_* keep Strategos' errors (gspread would rewrap them)."""

    http_client: StrategosHTTPClient

    def open_by_key(self, key: str) -> Spreadsheet:
        """Open by id; raises :class:`GoogleNotFoundError` / :class:`GooglePermissionError`."""
        return Spreadsheet(self.http_client, {"id": key})

    def open(self, title: str, folder_id: str | None = None) -> Spreadsheet:
        """Open by title; raises :class:`GoogleNotFoundError` when no visible file has it."""
        try:
            return super().open(title, folder_id)
        except SpreadsheetNotFound as exc:
            if isinstance(exc, GoogleNotFoundError):
                raise
            email_addr = self.http_client.account_email
            raise GoogleNotFoundError(
                _(
                    "Таблица «{title}» не найдена среди файлов, открытых сервисному аккаунту {email}: "
                    "откройте доступ этому адресу или проверьте название."
                ).format(title=title, email=email_addr),
                error={"code": 404, "message": f"No spreadsheet named {title!r}", "status": "NOT_FOUND"},
            ) from exc


def _client_factory(
    endpoints: ApiEndpoints,
    retry_policy: RetryPolicy | None,
    sleep: Callable[[float], None] | None,
    clock: Callable[[], float] | None,
    timeout: float | tuple[float, float] | None,
    quota_limits: QuotaLimits | None = None,
) -> Callable[[Credentials, requests.Session | None], StrategosHTTPClient]:
    """Build the callable gspread.Client uses to construct its HTTP client."""

    def build(auth: Credentials, session: requests.Session | None = None) -> StrategosHTTPClient:
        """Construct the HTTP client for gspread.Client."""
        return StrategosHTTPClient(
            auth,
            session,
            endpoints=endpoints,
            retry_policy=retry_policy,
            sleep=sleep or time.sleep,
            clock=clock or time.monotonic,
            timeout=timeout,
            quota_limits=quota_limits,
        )

    return build


def load_service_account_info(credentials_file: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """Read a service-account JSON key (argument or ``GOOGLE_APPLICATION_CREDENTIALS``)."""
    path_text = os.fspath(credentials_file) if credentials_file else os.environ.get(ENV_CREDENTIALS, "")
    if not path_text:
        raise GoogleCredentialsError(
            _(
                "Нет учётных данных Google: укажите JSON-ключ сервисного аккаунта (параметр credentials_file "
                "или переменная окружения {env})."
            ).format(env=ENV_CREDENTIALS)
        )
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise GoogleCredentialsError(_("Нет учётных данных Google: файл ключа {path} не найден.").format(path=path))
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise GoogleCredentialsError(
            _("Файл ключа Google {path} не читается как JSON: {exc}").format(path=path, exc=exc)
        ) from exc
    if not isinstance(info, dict) or info.get("type") != "service_account":
        kind = info.get("type") if isinstance(info, dict) else None
        hint = (
            " " + _("Это файл OAuth-клиента: используйте make_user_client().")
            if kind in (None, "authorized_user") or (isinstance(info, dict) and ("installed" in info or "web" in info))
            else ""
        )
        raise GoogleCredentialsError(
            _("Файл {path} — не ключ сервисного аккаунта Google (type={kind}).").format(path=path, kind=repr(kind))
            + hint
        )
    missing = [k for k in ("client_email", "private_key", "token_uri") if not info.get(k)]
    if missing:
        raise GoogleCredentialsError(
            _("В ключе {path} нет полей: {fields}.").format(path=path, fields=", ".join(missing))
        )
    return info


def make_client(
    credentials_file: str | os.PathLike[str] | None = None,
    *,
    scopes: Sequence[str] = DEFAULT_SCOPES,
    retry_policy: RetryPolicy | None = None,
    sleep: Callable[[float], None] | None = None,
    clock: Callable[[], float] | None = None,
    timeout: float | tuple[float, float] | None = DEFAULT_TIMEOUT,
    endpoints: ApiEndpoints | None = None,
    quota_limits: QuotaLimits | None = None,
) -> StrategosClient:
    """A gspread client for a service account, talking to Google or to the emulator.

    The key file comes from ``credentials_file`` or ``GOOGLE_APPLICATION_CREDENTIALS``;
    with ``STRATEGOS_GOOGLE_API_BASE`` set, the token endpoint is forced to
    ``<base>/token`` and every API URL to the same base.  ``quota_limits`` (default: Google's,
    or ``STRATEGOS_GOOGLE_QUOTA``) are what the client paces itself to.
    """
    limits = quota_limits or _limits_from_env()
    info = load_service_account_info(credentials_file)
    ends = endpoints or ApiEndpoints.from_env()
    if ends.base:
        info = dict(info, token_uri=ends.token)
    try:
        creds = service_account.Credentials.from_service_account_info(info, scopes=list(scopes))
    except (ValueError, KeyError) as exc:
        raise GoogleCredentialsError(_("Ключ сервисного аккаунта Google повреждён: {exc}").format(exc=exc)) from exc
    factory = _client_factory(ends, retry_policy, sleep, clock, timeout, limits)
    return StrategosClient(auth=creds, http_client=factory)  # type: ignore[arg-type]


def _limits_from_env() -> QuotaLimits:
    """The quota limits of ``STRATEGOS_GOOGLE_QUOTA`` (Google's published ones when unset)."""
    try:
        return QuotaLimits.from_env()
    except QuotaSettingError as exc:
        raise GoogleError(str(exc)) from exc


def make_user_client(
    client_secrets_file: str | os.PathLike[str],
    token_cache: str | os.PathLike[str],
    *,
    scopes: Sequence[str] = DEFAULT_SCOPES,
    retry_policy: RetryPolicy | None = None,
) -> StrategosClient:
    """A gspread client for a human Google account (OAuth "installed app" flow).

    The first run opens a browser (``InstalledAppFlow.run_local_server``); the refresh
    token is cached in ``token_cache``.  Not usable with the emulator (no consent screen).
    """
    from google.auth.transport.requests import Request
    from google.oauth2.credentials import Credentials as UserCredentials
    from google_auth_oauthlib.flow import InstalledAppFlow

    cache = Path(token_cache).expanduser()
    creds: UserCredentials | None = None
    if cache.is_file():
        creds = UserCredentials.from_authorized_user_file(str(cache), list(scopes))
    if creds is None or not creds.valid:
        if creds is not None and creds.expired and creds.refresh_token:
            creds.refresh(Request())
        else:
            secrets_path = Path(client_secrets_file).expanduser()
            if not secrets_path.is_file():
                raise GoogleCredentialsError(
                    _("Нет учётных данных Google: файл OAuth-клиента {path} не найден.").format(path=secrets_path)
                )
            flow = InstalledAppFlow.from_client_secrets_file(str(secrets_path), list(scopes))
            creds = flow.run_local_server(port=0)
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(creds.to_json(), encoding="utf-8")
    factory = _client_factory(ApiEndpoints.from_env(), retry_policy, None, None, DEFAULT_TIMEOUT, _limits_from_env())
    return StrategosClient(auth=creds, http_client=factory)  # type: ignore[arg-type]
