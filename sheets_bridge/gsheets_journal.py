"""One transaction across the spreadsheets of a split Google campaign (issue 23, point 3).

A campaign with hidden information is several spreadsheets: the GM's (the *keeper*, which no
player can open), the public one and one per player.  Google applies one ``batchUpdate`` to one
spreadsheet atomically, never several.  Writing them one after another left, after a fault
between two of them, a campaign half in the new window and half in the old: stuck, or resolved
twice by the advised re-run.  So a write that changes two spreadsheets or more is a journaled one:

1. every spreadsheet's batches are planned first (all refusals before anything is sent);
2. the GM's spreadsheet is written first, and its batch also writes the hidden tab
   ``_strategos_journal``: every other spreadsheet's batches, as they will be sent.  This batch
   is the *commit point*: before it lands nothing was written anywhere; once it has landed the
   window is written, and what remains is to deliver it;
3. every other spreadsheet is written; its batch swaps that spreadsheet's write counter
   (gsheets_lock) to an id the journal names -- the *window marker* of that book.

The journal stays until the next such write replaces it (in its own commit batch): removing it
would cost a write request of its own, against Google's per-minute quota, and a journal whose
every book is at its marker or later is simply complete.  A write that does not touch the GM's
spreadsheet (a check writes only the statuses of the order books, which the next check rewrites)
is not journaled.

Every read of the campaign (any command) looks at the journal first: a book whose counter is
still the one the journal replaces gets the journal's batches now (exactly those: the same
compare-and-swap, so they can never land twice), a book already at the journal's counter is
done, and a book whose counter is anything else was written by somebody else in between -- that
is a refusal naming the book to restore, never a guess.  The journal lives in the GM's
spreadsheet, so what it holds of a player's book is read by nobody but the GM.
"""

from __future__ import annotations

import base64
import gzip
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.messages import _
from engine.core.tables import Grid

from . import gsheets_lock
from .gsheets_batch import PROBE_FIELDS as _PROBE
from .gsheets_batch import Batch, Evidence, get_spreadsheet, send_batch
from .gsheets_cells import _dumps, cell_data
from .gsheets_client import spreadsheet_url
from .gsheets_errors import GoogleBackendError
from .gsheets_lock import GoogleConcurrentWrite, Lock
from .gsheets_read import JOURNAL_TAB, BookState, _rid

#: Characters per cell of the journal (Google's limit is 50,000).
CHUNK = 45_000

DONE, PENDING, FOREIGN = "done", "pending", "foreign"


@dataclass
class Entry:
    """One spreadsheet's part of a journaled write: its batches, in order."""

    spreadsheet_id: str
    batches: list[Batch]

    @property
    def final(self) -> Batch:
        """The batch that changes the spreadsheet (it swaps the write counter); staging batches
        before it only fill hidden staging tabs."""
        return next(b for b in reversed(self.batches) if b.evidence.lock_to is not None)


@dataclass
class Journal:
    """What a journaled write still owes the other spreadsheets (read back from the GM's)."""

    write_id: str
    started: str
    entries: list[Entry]


def _lock(lock: Lock | None) -> list[int] | None:
    return [lock.sheet_id, lock.count] if lock is not None else None


def _unlock(data: Any) -> Lock | None:
    return Lock(int(data[0]), int(data[1])) if data else None


def encode(journal: Journal) -> Grid:
    """The journal as the cells of its tab: gzip, base64, cut into cells of :data:`CHUNK`."""
    payload = {
        "id": journal.write_id,
        "started": journal.started,
        "books": [
            {
                "sid": e.spreadsheet_id,
                "batches": [
                    {"requests": b.requests, "from": _lock(b.evidence.lock_from), "to": _lock(b.evidence.lock_to),
                     "added": sorted(b.evidence.added_sheets)}
                    for b in e.batches
                ],
            }
            for e in journal.entries
        ],
    }
    text = base64.b64encode(gzip.compress(_dumps(payload), mtime=0)).decode("ascii")
    return [[text[i:i + CHUNK]] for i in range(0, len(text), CHUNK)] or [[""]]


def decode(grid: Grid, keeper: str) -> Journal:
    """The journal its tab holds; a tab edited by hand is a refusal naming it."""
    text = "".join(str(line[0]) for line in grid if line and line[0] is not None)
    try:
        payload = json.loads(gzip.decompress(base64.b64decode(text.encode("ascii"), validate=True)))
        entries = [
            Entry(str(book["sid"]), [
                Batch(list(b["requests"]), Evidence(lock_from=_unlock(b["from"]), lock_to=_unlock(b["to"]),
                                                    added_sheets={int(x) for x in b["added"]}))
                for b in book["batches"]
            ])
            for book in payload["books"]
        ]
        return Journal(str(payload["id"]), str(payload["started"]), entries)
    except (ValueError, TypeError, KeyError, IndexError, OSError) as exc:
        raise GoogleBackendError(_(
            "Служебный лист «{tab}» в таблице ведущего {url} повреждён (его правили вручную?): по нему не "
            "дописать прерванную запись в остальные таблицы кампании. Восстановите таблицу ведущего из истории "
            "версий Google (Файл → История версий) на момент до правки и запустите команду снова."
        ).format(tab=JOURNAL_TAB, url=spreadsheet_url(keeper))) from exc


def requests(book: BookState, journal: Journal, rng: random.Random,
             taken: set[int]) -> tuple[list[dict[str, Any]], int]:
    """The requests that write ``journal`` into the GM's spreadsheet ``book`` (replacing the one
    there), to travel in the batch that commits the write, and the new tab's id (not in ``taken``,
    the ids that batch adds)."""
    cells = encode(journal)
    used = {s.sheet_id for s in book.sheets.values()} | set(book.stale_stages) | taken
    used |= {x for x in (book.journal_id, book.lock.sheet_id if book.lock else None) if x is not None}
    new_id = _rid(rng, used)
    out: list[dict[str, Any]] = []
    if book.journal_id is not None:
        out.append({"deleteSheet": {"sheetId": book.journal_id}})
    out.append({"addSheet": {"properties": {"sheetId": new_id, "title": JOURNAL_TAB, "hidden": True,
                                            "gridProperties": {"rowCount": len(cells), "columnCount": 1}}}})
    out.append({"updateCells": {"range": {"sheetId": new_id, "startRowIndex": 0, "endRowIndex": len(cells),
                                          "startColumnIndex": 0, "endColumnIndex": 1},
                                "rows": [{"values": [cell_data(line[0])]} for line in cells],
                                "fields": "userEnteredValue"}})
    return out, new_id


def new(entries: Sequence[Entry], rng: random.Random) -> Journal:
    """A journal for a write about to start."""
    return Journal(f"{rng.getrandbits(64):016x}", time.strftime("%H:%M:%S %d.%m.%Y"), list(entries))


def state(entry: Entry, now: Lock | None) -> str:
    """Where a book stands against the journal, from its write counter ``now``: DONE (the journal's
    write, or a later one), PENDING (untouched since the journal was written) or FOREIGN."""
    final = entry.final.evidence
    mine, before = final.lock_to, final.lock_from
    if now is not None and mine is not None and (now.sheet_id == mine.sheet_id or now.count > mine.count):
        return DONE
    if now == before:
        return PENDING
    return FOREIGN


def deliver(client: Any, entry: Entry, now: Lock | None, present: set[int]) -> None:
    """Send what ``entry`` still owes its spreadsheet (counter ``now``, tab ids ``present``): the
    staging batches whose tabs are not there yet, then the final one.  A book another run
    completed meanwhile (it sent these very batches) is done too."""
    sid = entry.spreadsheet_id
    for batch in entry.batches:
        if batch.evidence.lock_to is None:
            if batch.evidence.added_sheets and batch.evidence.added_sheets <= present:
                continue  # this staging batch landed before the interruption
            send_batch(client, sid, batch)
            continue
        try:
            send_batch(client, sid, batch)
        except GoogleConcurrentWrite:
            found = gsheets_lock.found(get_spreadsheet(client, sid, _PROBE).get("sheets", []))
            if state(entry, found) != DONE:
                raise foreign(sid, found) from None


def foreign(spreadsheet_id: str, _now: Lock | None = None) -> GoogleBackendError:
    """The refusal for a book somebody else wrote between the commit and its delivery."""
    return GoogleBackendError(_(
        "Последняя запись окна принята в таблице ведущего, но таблица {url} не в том состоянии, которого она "
        "ждёт: её изменил другой запуск Strategos или её вернули к старой версии, и дописать в неё окно нельзя, "
        "не затерев этих изменений. Восстановите эту таблицу из истории версий Google (Файл → История версий) "
        "на момент перед последней записью Strategos или после неё и запустите команду снова. Ничего не "
        "изменено."
    ).format(url=spreadsheet_url(spreadsheet_id)))
