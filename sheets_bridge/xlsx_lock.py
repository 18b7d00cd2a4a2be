"""One writer at a time for an .xlsx campaign, and none while a spreadsheet application has it open.

Every command that writes a campaign (check, resolve, rollback, new --force, demo) holds an
exclusive lock on the workbook for its whole read–compute–write (`exclusive`), so two commands
can never interleave: without it, a `check` that read the pre-turn file and wrote after a
`resolve` put the campaign back to the pre-turn state.

Decision: a second command is refused at once (no waiting).  Waiting would make it act on a
campaign its user has not seen: a second `resolve` queued behind the first would resolve the
next turn as well.  The refusal names the file and the command, process and machine that hold
it; nothing is changed and the command can simply be run again.

The lock is `filelock` (an OS lock on `.NAME.strategos-lock` beside the workbook, released by
the system when a process dies, so a killed run never leaves the campaign locked).  Who holds
it is written to `.NAME.strategos-who` for the refusal message.  A workbook open in LibreOffice
(`.~lock.NAME#`) or Excel (`~$NAME`) is refused too: saving from Calc later would overwrite the
turn with what Calc loaded before it.  Holding the lock, the first thing done is to remove
temporary files a killed run left behind (`.NAME.*.tmp`): only a lock holder saves, so none of
them can belong to a save in progress.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from engine.core.errors import BackendError
from engine.core.messages import _

from .faults import backend_error

# test hook: called with "locked" right after the lock is taken and "unlocking" just before it is let go
_HOOK: Callable[[str], None] | None = None

_held: dict[tuple[str, int], int] = {}  # (workbook, thread) -> depth: a command's own save re-enters
_guard = threading.Lock()


def _hook(step: str) -> None:
    if _HOOK is not None:
        _HOOK(step)


def lock_file(path: Path) -> Path:
    """The lock file of a workbook: a hidden file beside it."""
    return path.with_name(f".{path.name}.strategos-lock")


def _holder_file(path: Path) -> Path:
    return path.with_name(f".{path.name}.strategos-who")


def office_locks(path: Path) -> list[Path]:
    """The lock files a spreadsheet application keeps beside a workbook it has open.

    LibreOffice: `.~lock.NAME#`.  Microsoft Office: the "owner file" `~$NAME` (Excel), or with
    `~$` over the first two letters of a long name (as Word does; checked too, to be safe).
    """
    names = [f".~lock.{path.name}#", f"~${path.name}"]
    if len(path.stem) > 2:
        names.append(f"~${path.name[2:]}")
    return [path.with_name(n) for n in names if path.with_name(n).exists()]


def _office_user(lock: Path) -> str:
    """Who has the file open, as the application wrote it, or '' if it cannot be read.

    LibreOffice writes `,user,host,date,url;`; Office's owner file starts with one byte of
    length and the user's display name in the system's code page.
    """
    with contextlib.suppress(OSError, UnicodeDecodeError):
        data = lock.read_bytes()[:4096]
        if lock.name.startswith(".~lock."):
            fields = data.decode("utf-8").split(",")
            who = ", ".join(f.strip() for f in fields[1:4] if f.strip()) if len(fields) >= 4 else ""
        else:
            who = data[1:1 + data[0]].decode("cp1251") if data else ""
        if who and who.isprintable():
            return f" ({who})"
    return ""


def refuse_if_open_elsewhere(path: Path) -> None:
    """Raise BackendError when LibreOffice or Excel has the workbook open (their lock file is beside it)."""
    for lock in office_locks(path):
        app = "LibreOffice" if lock.name.startswith(".~lock.") else "Excel"
        raise BackendError(
            _("файл {path} открыт в {app}{user}: рядом лежит {lock_name}. Закройте его там и запустите команду "
              "снова — иначе сохранение из {app} затрёт записанный ход. Если {app} уже закрыт (например, после "
              "сбоя), удалите {lock}. Ничего не изменено.")
            .format(path=path, app=app, user=_office_user(lock), lock_name=lock.name, lock=lock))


def _holder(path: Path) -> str:
    """Who holds the lock, from the holder file, in words; '' when unknown."""
    try:
        data = json.loads(_holder_file(path).read_text(encoding="utf-8"))
        return _("«strategos {command}», процесс {pid} на {host}, начата в {since}").format(
            command=data["command"], pid=data["pid"], host=data["host"], since=data["since"])
    except (OSError, ValueError, KeyError, TypeError):
        return ""


def _host() -> str:
    """This machine's name (uname's, which is what gethostname returns on POSIX; socket's elsewhere,
    imported only there)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket

    return socket.gethostname()


def _note_holder(path: Path, command: str) -> None:
    info = {"command": command, "pid": os.getpid(), "host": _host(),
            "since": time.strftime("%H:%M:%S %d.%m.%Y")}
    with contextlib.suppress(OSError):  # only the refusal message needs it
        _holder_file(path).write_text(json.dumps(info, ensure_ascii=False), encoding="utf-8")


def clean_stale_temporaries(path: Path) -> list[Path]:
    """Remove `.NAME.*.tmp` files a killed save left beside the workbook; only call holding the lock."""
    prefix, removed = f".{path.name}.", []
    with contextlib.suppress(OSError):
        for name in os.listdir(path.parent):
            if name.startswith(prefix) and name.endswith(".tmp"):
                with contextlib.suppress(OSError):
                    (path.parent / name).unlink()
                    removed.append(path.parent / name)
    return removed


@contextlib.contextmanager
def exclusive(path: str | os.PathLike[str], command: str) -> Iterator[None]:
    """Hold the workbook's exclusive lock for the body; refuse at once if another process holds it.

    Re-entrant within one thread: a command's own writes inside the body do not lock again.
    """
    target = Path(path).resolve()
    key = (str(target), threading.get_ident())
    with _guard:
        depth = _held.get(key, 0)
        if depth:
            _held[key] = depth + 1
    if depth:
        try:
            yield
        finally:
            with _guard:
                _held[key] -= 1
        return
    refuse_if_open_elsewhere(target)
    lock = FileLock(str(lock_file(target)))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        who = _holder(target) or _("другая команда strategos")
        raise BackendError(
            _("кампания {path} сейчас занята: её записывает {who}. Дождитесь, пока та команда закончит, и "
              "запустите эту снова. Ничего не изменено.").format(path=target, who=who)) from None
    except OSError as exc:
        raise backend_error(exc, target.parent, prefix=_("не удалось взять замок кампании — ")) from exc
    try:
        with _guard:
            _held[key] = 1
        _note_holder(target, command)
        clean_stale_temporaries(target)
        _hook("locked")
        yield
        _hook("unlocking")
    finally:
        with _guard:
            _held.pop(key, None)
        with contextlib.suppress(OSError):
            _holder_file(target).unlink()
        lock.release()
