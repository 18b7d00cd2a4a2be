"""The core's, the bridge's and the CLI's message catalogue (domain ``strategos``); see `i18n`."""

from __future__ import annotations

from pathlib import Path

from engine.core.i18n import Domain

_ = Domain("strategos", Path(__file__).resolve().parent.parent / "locale")
