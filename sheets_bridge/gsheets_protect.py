"""Protections: a whole tab for the program and the GM, a player's input block for that player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.messages import _


def _protect_sheet(sheet_id: int, pid: int, editors: Sequence[str], holes: Sequence[dict[str, int]]) -> dict[str, Any]:
    """A whole-tab protection (not warning-only) with ``editors``, minus ``holes``."""
    pr: dict[str, Any] = {
        "protectedRangeId": pid,
        "range": {"sheetId": sheet_id},
        "description": _("Strategos: лист ведёт программа и ведущий"),
        "warningOnly": False,
        "editors": {"users": list(editors)},
    }
    if holes:
        pr["unprotectedRanges"] = list(holes)
    return {"addProtectedRange": {"protectedRange": pr}}


def _protect_block(pid: int, block: dict[str, int], editors: Sequence[str], who: str) -> dict[str, Any]:
    """A protection of a player's input block: that player, the GM and the program may edit it."""
    return {
        "addProtectedRange": {
            "protectedRange": {
                "protectedRangeId": pid,
                "range": dict(block),
                "description": _("Strategos: приказы — {side}").format(side=who),
                "warningOnly": False,
                "editors": {"users": list(editors)},
            }
        }
    }
