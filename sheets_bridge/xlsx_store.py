"""The history's snapshots of a .xlsx campaign, in files beside it.

The GM's workbook keeps only the index of «_История» ([key, sha256, parts], engine/core/history.py);
each row's chunks (the snapshot, and the log rows its window moved out: engine/core/logs.py) are a
file of the folder ``<campaign>.history/`` named by the row's key and sha256
(``snapshot-3-cities-<sha256>.txt``).  Only history, rollback, verify and report open them
(``XlsxBackend.stored``), so what check and resolve load and save does not grow with the history.

Order of writing: the files first (each a temporary file, fsync, rename), the workbook after, in
its own atomic save.  A run killed in between leaves at most a file that no index row names: the
next read never looks at it, and the next resolve of that window, if its campaign is the same,
writes the very same name again.  Files are never deleted by the program: the workbook's ``.bak``
(the version before the last save) may name them.  The folder is the GM's, as the workbook is: no
player's book names it.

An old campaign (chunks in the cells of «_История») is read as it is, and moved to the files by
its next write of the history (:func:`migrated`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import tempfile
from pathlib import Path

from openpyxl.worksheet.worksheet import Worksheet

from engine.core import history
from engine.core.errors import BackendError
from engine.core.messages import _
from engine.core.tables import Cell, Changeset, Tables, WriteBlock

from . import store_rows
from .faults import backend_error

UNSAFE = re.compile(r"[^0-9A-Za-zА-Яа-яЁё_.-]+")


def folder(path: Path) -> Path:
    """The folder beside the campaign `path` where its store rows' chunks are."""
    return path.with_name(path.stem + ".history")


def file_of(path: Path, tab: str, key: Cell, digest: str) -> Path:
    """The file that holds the chunks of the store row (`tab`, `key`, `digest`)."""
    kind = "snapshot" if history.is_history(tab) else "logs"
    safe = UNSAFE.sub("-", str(key)).strip("-") or "0"
    return folder(path) / f"{kind}-{safe}-{UNSAFE.sub('', digest)[:64]}.txt"


def put(path: Path, payloads: list[store_rows.Payload]) -> None:
    """Write each payload's file (a file already there is the same content: kept).  Before the
    workbook's save: an OS fault here leaves the campaign as it was, told in words."""
    if not payloads:
        return
    where = folder(path)
    try:
        where.mkdir(exist_ok=True)
        for p in payloads:
            target = file_of(path, p.tab, p.key, p.digest)
            if target.exists():
                continue
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=where)
            try:
                with os.fdopen(fd, "w", encoding="ascii") as fh:
                    fh.write("".join(p.chunks))
                    fh.flush()
                    os.fsync(fh.fileno())
                os.replace(tmp, target)
            finally:
                with contextlib.suppress(OSError):
                    Path(tmp).unlink(missing_ok=True)
        with contextlib.suppress(OSError):  # the files are there; a folder that cannot be fsynced changes nothing
            dir_fd = os.open(where, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
    except OSError as exc:
        raise backend_error(exc, where, prefix=_("кампания не записана — ")) from exc


def clean(path: Path) -> None:
    """Remove the temporary files a run killed while writing the folder left there (under the
    campaign's lock: no other run is writing them)."""
    where = folder(path)
    if where.is_dir():
        for tmp in where.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                tmp.unlink()


def stored(path: Path, tables: Tables) -> Tables:
    """`tables` with the chunks of every index row of a store tab read from its file; a file that
    is gone is a BackendError naming it (the history of the campaign cannot be read without it)."""
    missing: list[Path] = []

    def chunks_of(tab: str, _row: int, line: list[Cell]) -> list[str] | None:
        target = file_of(path, tab, line[0], str(line[1]))
        try:
            return [target.read_text(encoding="ascii")]
        except FileNotFoundError:
            missing.append(target)
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise BackendError(_("не читается файл истории кампании {file}: {error}").format(
                file=target, error=exc)) from None

    out = store_rows.fill(tables, chunks_of)
    if missing:
        shown = ", ".join(str(m) for m in missing[:3]) + (_(" и ещё {n}").format(n=len(missing) - 3)
                                                          if len(missing) > 3 else "")
        raise BackendError(_("история кампании неполна: нет файлов {files} (папка {folder} рядом с кампанией "
                             "хранит снимки окон; верните её из резервной копии)").format(
            files=shown, folder=folder(path)))
    return out


def migrated(sheets: dict[str, Worksheet], changes: Changeset, grid_of: object) -> Changeset:
    """`changes` plus, when they write a store tab of a campaign that still keeps chunks in its
    cells (made before the files), those rows rewritten as they are: `lift` then moves them to files."""
    touched = {r.tab for r in changes.replace} | {b.tab for b in changes.blocks}
    extra = []
    for tab, ws in sheets.items():
        if not history.is_store(tab) or tab not in touched or ws.max_column <= 3:
            continue
        if any(r.tab == tab for r in changes.replace):
            continue  # rewritten whole by this write already
        grid = grid_of(ws)  # type: ignore[operator]
        for r, line in enumerate(grid[1:], start=2):
            if store_rows.packed(line):
                extra.append((tab, r, line))
    if not extra:
        return changes
    blocks = [WriteBlock(tab, r, 1, [list(line)]) for tab, r, line in extra]
    return dataclasses.replace(changes, blocks=blocks + list(changes.blocks))
