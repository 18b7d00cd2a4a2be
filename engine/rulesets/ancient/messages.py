"""The ancient game's message catalogue (domain ``ancient``): reasons, statuses, chronicle, reports."""

from __future__ import annotations

from pathlib import Path

from engine.core.i18n import Domain

_ = Domain("ancient", Path(__file__).resolve().parent / "locale")
