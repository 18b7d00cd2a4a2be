"""Google clients for the backend: a service account or a person's own account (OAuth), and the
few facts about them and a spreadsheet's address the backend needs."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from . import google_http
from .google_http import StrategosClient
from .gsheets_errors import google_errors

URL_TEMPLATE = "https://docs.google.com/spreadsheets/d/{}/edit"


EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def default_token_cache() -> Path:
    """Where the OAuth refresh token is cached: ``$XDG_CONFIG_HOME/strategos`` or ``~/.config/strategos``."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "strategos" / "google-token.json"


def make_google_client(
    credentials: str | os.PathLike[str] | None = None,
    *,
    oauth_client_secrets: str | os.PathLike[str] | None = None,
    token_cache: str | os.PathLike[str] | None = None,
    **client_options: Any,
) -> StrategosClient:
    """A gspread client: a service account (``credentials`` or ``GOOGLE_APPLICATION_CREDENTIALS``)
    or, with ``oauth_client_secrets``, a person's own Google account (token cached on disk).

    ``client_options`` go to :func:`google_http.make_client` (retry policy, sleep, clock, timeout).
    """
    with google_errors():
        if oauth_client_secrets and not credentials:
            cache = token_cache or default_token_cache()
            return google_http.make_user_client(oauth_client_secrets, cache)
        return google_http.make_client(credentials, **client_options)


def account_email(client: StrategosClient) -> str | None:
    """The service account's e-mail, or None for a personal (OAuth) account."""
    auth = getattr(client.http_client, "auth", None)
    email = getattr(auth, "service_account_email", None)
    return str(email) if email and EMAIL.match(str(email)) else None


def spreadsheet_url(spreadsheet_id: str) -> str:
    """The browser URL of a spreadsheet."""
    return URL_TEMPLATE.format(spreadsheet_id)
