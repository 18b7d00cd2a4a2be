"""Who may edit what: the caller (:class:`Actor`) and protected-range enforcement.

Google lets the file owner edit everything; anybody else with write access is refused
inside a protected range unless listed in its ``editors.users`` (or the range is
``warningOnly``).  A whole-sheet protection (a range with only ``sheetId``) may carve out
``unprotectedRanges``.  A refused write answers 400 INVALID_ARGUMENT with Google's
"You are trying to edit a protected cell or object..." message, prefixed like Google
(``Invalid requests[0].updateCells: ...`` in batchUpdate, ``Invalid data[0]: ...`` in
values.batchUpdate).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .errors import PROTECTED_MESSAGE, ApiError, bad_request
from .model import Rect, Sheet, Spreadsheet, gridrange_rect

#: Access levels of Drive roles, lowest first.
ROLE_LEVELS: dict[str, int] = {"reader": 1, "commenter": 2, "writer": 3, "fileOrganizer": 4, "organizer": 4, "owner": 5}


@dataclass(frozen=True)
class Actor:
    """The authenticated caller of a request."""

    email: str
    level: int
    is_owner: bool

    @property
    def can_write(self) -> bool:
        """Writer or owner."""
        return self.level >= ROLE_LEVELS["writer"]


def can_edit_protected(pr: dict[str, Any], actor: Actor) -> bool:
    """True when ``actor`` may edit inside the protected range ``pr``."""
    if pr.get("warningOnly") or actor.is_owner:
        return True
    editors = pr.get("editors") or {}
    users = {str(u).casefold() for u in editors.get("users") or []}
    # ``domainUsersCanEdit`` needs a Workspace domain, which service accounts never have.
    return actor.email.casefold() in users


def protected_area(ss: Spreadsheet, pr: dict[str, Any]) -> tuple[Rect, list[Rect]] | None:
    """The protected rectangle of ``pr`` and its unprotected holes."""
    gr = pr.get("range")
    if gr is None and pr.get("namedRangeId"):
        named = next((n for n in ss.named_ranges if n.get("namedRangeId") == pr["namedRangeId"]), None)
        gr = named["range"] if named else None
    if gr is None:
        return None
    try:
        rect = gridrange_rect(ss, gr, check_grid=False)
    except ApiError:
        return None
    holes = []
    for hole in pr.get("unprotectedRanges") or []:
        try:
            holes.append(gridrange_rect(ss, hole, check_grid=False))
        except ApiError:
            continue
    return rect, holes


def protected_error(prefix: str) -> ApiError:
    """The 400 answer for an edit of protected cells."""
    return bad_request(f"{prefix}{PROTECTED_MESSAGE}" if prefix else PROTECTED_MESSAGE)


def blocking_ranges(ss: Spreadsheet, sheet: Sheet, actor: Actor) -> list[tuple[Rect, list[Rect]]]:
    """Protected areas on ``sheet`` that ``actor`` may not edit."""
    out = []
    for pr in sheet.protected:
        if can_edit_protected(pr, actor):
            continue
        area = protected_area(ss, pr)
        if area is not None and area[0].sheet is sheet:
            out.append(area)
    return out


def check_rect(ss: Spreadsheet, rect: Rect, actor: Actor, prefix: str = "") -> None:
    """Refuse when ``rect`` touches a protected cell ``actor`` may not edit."""
    for area, holes in blocking_ranges(ss, rect.sheet, actor):
        if not area.intersects(rect):
            continue
        r0, r1 = max(area.r0, rect.r0), min(area.r1, rect.r1)
        c0, c1 = max(area.c0, rect.c0), min(area.c1, rect.c1)
        if not holes:
            raise protected_error(prefix)
        for r in range(r0, r1):
            for c in range(c0, c1):
                if not any(h.contains(r, c) for h in holes):
                    raise protected_error(prefix)


def check_cells(
    ss: Spreadsheet, sheet: Sheet, cells: Iterable[tuple[int, int]], actor: Actor, prefix: str = ""
) -> None:
    """Refuse when any of ``cells`` is protected against ``actor``."""
    blocking = blocking_ranges(ss, sheet, actor)
    if not blocking:
        return
    for r, c in cells:
        for area, holes in blocking:
            if area.contains(r, c) and not any(h.contains(r, c) for h in holes):
                raise protected_error(prefix)


def check_sheet_structure(ss: Spreadsheet, sheet: Sheet, actor: Actor, prefix: str = "") -> None:
    """Refuse structural edits of a sheet protected as a whole (no bounds given)."""
    for pr in sheet.protected:
        if can_edit_protected(pr, actor):
            continue
        gr = pr.get("range") or {}
        if all(gr.get(k) is None for k in ("startRowIndex", "endRowIndex", "startColumnIndex", "endColumnIndex")):
            raise protected_error(prefix)
