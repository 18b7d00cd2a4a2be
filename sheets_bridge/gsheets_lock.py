"""A compare-and-swap built into every Google write, so two processes never revert each other.

Google has no lock and no conditional write, but it applies a ``batchUpdate`` all or nothing.
Each spreadsheet the program writes keeps a tiny hidden tab ``_strategos_lock_<n>``: ``n`` counts
the program's writes, its sheetId is chosen at random by the writer that created it.  The one
read of a sync sees that tab (its properties come with the read, no request is added); every
write's batch starts with ``deleteSheet`` of the id the read saw and ``addSheet`` of a fresh
``_strategos_lock_<n+1>``.  If another process wrote in between, the id is gone, Google refuses
the whole batch (400 ``No sheet with id``), nothing of it is applied, and the loser refuses with
:class:`GoogleConcurrentWrite`.  A first write on a campaign without the tab adds it; two such
writers collide on the title instead.

Why the id is random rather than the counter itself: after an ambiguous failure (a 5xx, a
dropped connection) the bridge must tell "my own attempt landed" from "somebody else wrote".
Two writers that read the same counter would both pick ``n + 1``; a random id per writer tells
them apart (:func:`verdict`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import BackendError
from engine.core.messages import _

#: Title prefix of the lock tab; the engine never sees it.
LOCK_PREFIX = "_strategos_lock_"
_TITLE = re.compile(rf"^{re.escape(LOCK_PREFIX)}(\d+)$")


class GoogleConcurrentWrite(BackendError):
    """Another run wrote the spreadsheet between this run's read and its write: nothing was written."""


@dataclass(frozen=True)
class Lock:
    """The lock tab of one spreadsheet: its sheetId and the write counter in its title."""

    sheet_id: int
    count: int

    @property
    def title(self) -> str:
        """The tab's title."""
        return f"{LOCK_PREFIX}{self.count}"


def parse(title: str, sheet_id: int) -> Lock | None:
    """The lock a tab is, or None for any other tab."""
    m = _TITLE.match(title)
    return Lock(sheet_id, int(m.group(1))) if m else None


def found(sheets: Sequence[Mapping[str, Any]]) -> Lock | None:
    """The lock among the ``sheets`` of a read or probe answer (the highest count if a copy made two)."""
    locks = [
        lock
        for s in sheets
        if (lock := parse(str((s.get("properties") or {}).get("title", "")),
                          int((s.get("properties") or {}).get("sheetId", 0)))) is not None
    ]
    return max(locks, key=lambda lock: lock.count) if locks else None


def swap(current: Lock | None, new_id: int) -> tuple[Lock, list[dict[str, Any]]]:
    """The next lock and the requests that open a batch: delete the lock the read saw, add the next."""
    nxt = Lock(new_id, (current.count if current else 0) + 1)
    requests: list[dict[str, Any]] = []
    if current is not None:
        requests.append({"deleteSheet": {"sheetId": current.sheet_id}})
    requests.append(
        {
            "addSheet": {
                "properties": {
                    "sheetId": nxt.sheet_id,
                    "title": nxt.title,
                    "hidden": True,
                    "gridProperties": {"rowCount": 1, "columnCount": 1},
                }
            }
        }
    )
    return nxt, requests


def verdict(now: Lock | None, before: Lock | None, mine: Lock, spreadsheet_id: str) -> bool:
    """After an ambiguous failure: True if this write landed (its own lock is there), False if
    nothing changed (the lock the read saw is still there: send again); another writer's lock
    means the campaign changed under us, whether or not this write landed first."""
    if now is not None and now.sheet_id == mine.sheet_id:
        return True
    if now == before:
        return False
    raise conflict(spreadsheet_id)


def conflict(spreadsheet_id: str) -> GoogleConcurrentWrite:
    """The refusal the loser of a race gets (Russian, says what happened and what to do)."""
    return GoogleConcurrentWrite(
        _(
            "Таблицу {id} изменил другой запуск Strategos (check, resolve или rollback) между "
            "чтением и записью этого запуска, поэтому Google отклонил эту запись целиком: поверх чужих изменений "
            "ничего не записано (ход, если он разрешался, остаётся открытым). Дождитесь, пока другой запуск "
            "закончит, и повторите команду: она прочитает таблицу заново."
        ).format(id=spreadsheet_id)
    )
