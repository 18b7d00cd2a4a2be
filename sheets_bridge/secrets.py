"""The GM's campaign secrets, kept on the GM's machine for campaigns players can open.

A Google campaign is shared with the players; the secret that seeds the dice must not be in it
(docs/reliability.md). `strategos new --google` keeps it here, keyed by the spreadsheet id, and
check/resolve read it from here. The file is `$STRATEGOS_SECRETS` or
`~/.config/strategos/secrets.json`, readable by its owner only.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def path() -> Path:
    return Path(os.environ.get("STRATEGOS_SECRETS") or Path.home() / ".config" / "strategos" / "secrets.json")


def load(key: str) -> str | None:
    p = path()
    if not p.exists():
        return None
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = data.get(key)
    return str(value) if value else None


def save(key: str, secret: str) -> Path:
    p = path()
    p.parent.mkdir(parents=True, exist_ok=True)
    data = {}
    if p.exists():
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except ValueError:
            data = {}
    data[key] = secret
    tmp = p.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.chmod(tmp, 0o600)
    os.replace(tmp, p)
    return p
