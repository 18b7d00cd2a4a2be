"""Operating-system faults in the GM's words: disk full, no permission, read-only folder...

An `OSError` carries an errno and an English text from the C library; the GM needs to know, in
their language, what happened to which file and what to do about it. `os_message` is the one place
that words them: the .xlsx backend and its lock wrap their OS calls with it, and the CLI uses
it for any OSError that still reaches the top.
"""

from __future__ import annotations

import errno
import os

from engine.core.errors import BackendError
from engine.core.i18n import N_
from engine.core.messages import _

# errno -> (what happened, what to do); the path is named by the caller's `what`
_WORDS: dict[int, tuple[str, str]] = {
    errno.ENOSPC: (N_("на диске нет места"), N_("освободите место на диске и запустите команду снова")),
    errno.EDQUOT: (N_("исчерпана дисковая квота"),
                   N_("освободите место (или попросите увеличить квоту) и запустите снова")),
    errno.EROFS: (N_("диск или папка только для чтения"),
                  N_("скопируйте кампанию в папку, куда можно писать, и запускайте команды там")),
    errno.EACCES: (N_("нет прав доступа"),
                   N_("проверьте права на файл и папку (файл не должен быть «только для чтения») или скопируйте "
                      "кампанию в свою папку")),
    errno.EPERM: (N_("операция запрещена системой"),
                  N_("проверьте права на файл и папку или скопируйте кампанию в свою папку")),
    errno.ENOENT: (N_("файл или папка не найдены"), N_("проверьте путь")),
    errno.EISDIR: (N_("это папка, а не файл"), N_("укажите путь к файлу .xlsx")),
    errno.ENOTDIR: (N_("часть пути — не папка"), N_("проверьте путь")),
    errno.ENAMETOOLONG: (N_("слишком длинное имя файла"), N_("выберите имя или папку покороче")),
    errno.EIO: (N_("ошибка ввода-вывода: диск или сеть не ответили"),
                N_("проверьте диск (или сетевую папку) и запустите команду снова")),
    errno.EMFILE: (N_("открыто слишком много файлов"), N_("закройте лишние программы и запустите снова")),
    errno.EBUSY: (N_("файл занят другой программой"),
                  N_("закройте программу, которая держит файл, и запустите снова")),
    errno.EPIPE: (N_("вывод оборван: программа, читавшая вывод, закрылась"), N_("запустите команду без конвейера")),
}


def os_message(exc: OSError, what: str | os.PathLike[str] | None = None) -> str:
    """One sentence in the current language for an OS fault on `what` (a path or a words), with a hint."""
    target = what if what is not None else (exc.filename or "")
    words, hint = _WORDS.get(exc.errno or 0, (N_("системная ошибка"), N_("проверьте диск и права и запустите снова")))
    code = errno.errorcode.get(exc.errno or 0, exc.errno)
    detail = " " + _("(код {code})").format(code=code) if exc.errno else ""
    where = f"{target}: " if str(target) else ""
    return f"{where}{_(words)}{detail} — {_(hint)}"


def backend_error(exc: OSError, what: str | os.PathLike[str] | None = None, prefix: str = "") -> BackendError:
    """The OS fault as the project's BackendError (so the CLI prints it and exits with 1)."""
    return BackendError(f"{prefix}{os_message(exc, what)}")
