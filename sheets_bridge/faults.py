"""Operating-system faults in the GM's words: disk full, no permission, read-only folder...

An `OSError` carries an errno and an English text from the C library; the GM needs to know, in
Russian, what happened to which file and what to do about it. `os_message` is the one place
that words them: the .xlsx backend and its lock wrap their OS calls with it, and the CLI uses
it for any OSError that still reaches the top.
"""

from __future__ import annotations

import errno
import os

from engine.core.errors import BackendError

# errno -> (what happened, what to do); the path is named by the caller's `what`
_WORDS: dict[int, tuple[str, str]] = {
    errno.ENOSPC: ("на диске нет места", "освободите место на диске и запустите команду снова"),
    errno.EDQUOT: ("исчерпана дисковая квота", "освободите место (или попросите увеличить квоту) и запустите снова"),
    errno.EROFS: ("диск или папка только для чтения",
                  "скопируйте кампанию в папку, куда можно писать, и запускайте команды там"),
    errno.EACCES: ("нет прав доступа",
                   "проверьте права на файл и папку (файл не должен быть «только для чтения») или скопируйте "
                   "кампанию в свою папку"),
    errno.EPERM: ("операция запрещена системой",
                  "проверьте права на файл и папку или скопируйте кампанию в свою папку"),
    errno.ENOENT: ("файл или папка не найдены", "проверьте путь"),
    errno.EISDIR: ("это папка, а не файл", "укажите путь к файлу .xlsx"),
    errno.ENOTDIR: ("часть пути — не папка", "проверьте путь"),
    errno.ENAMETOOLONG: ("слишком длинное имя файла", "выберите имя или папку покороче"),
    errno.EIO: ("ошибка ввода-вывода: диск или сеть не ответили",
                "проверьте диск (или сетевую папку) и запустите команду снова"),
    errno.EMFILE: ("открыто слишком много файлов", "закройте лишние программы и запустите снова"),
    errno.EBUSY: ("файл занят другой программой", "закройте программу, которая держит файл, и запустите снова"),
    errno.EPIPE: ("вывод оборван: программа, читавшая вывод, закрылась", "запустите команду без конвейера"),
}


def os_message(exc: OSError, what: str | os.PathLike[str] | None = None) -> str:
    """One Russian sentence for an OS fault on `what` (a path or a description), with a hint."""
    target = what if what is not None else (exc.filename or "")
    words, hint = _WORDS.get(exc.errno or 0, ("системная ошибка", "проверьте диск и права и запустите снова"))
    detail = f" (код {errno.errorcode.get(exc.errno or 0, exc.errno)})" if exc.errno else ""
    where = f"{target}: " if str(target) else ""
    return f"{where}{words}{detail} — {hint}"


def backend_error(exc: OSError, what: str | os.PathLike[str] | None = None, prefix: str = "") -> BackendError:
    """The OS fault as the project's BackendError (so the CLI prints it and exits with 1)."""
    return BackendError(f"{prefix}{os_message(exc, what)}")
