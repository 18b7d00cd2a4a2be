"""The civ1 game's message catalogue (domain ``civ1``): the problems its rules tabs report."""

from __future__ import annotations

from pathlib import Path

from engine.core.i18n import Domain

_ = Domain("civ1", Path(__file__).resolve().parent / "locale")
