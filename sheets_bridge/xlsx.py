"""The embedded default backend: a local .xlsx workbook through openpyxl.

One read loads the workbook; one write applies every change to that loaded workbook and
saves it atomically: a temporary file in the same folder, fsync, the previous version kept
beside it as `<name>.bak`, then os.replace. A crash at any moment leaves either the old
file or the new one, never a broken one.

The save refuses when the file on disk is no longer the one that was read (another program
saved it meanwhile): replacing it would revert that program's work.  Commands hold the
workbook's lock for their whole read–compute–write (sheets_bridge/xlsx_lock.py); a write
outside a command takes it for the write.  OS faults (disk full, no permission, read-only
folder) and a file that is not a workbook reach the GM as a BackendError in words.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime
import errno
import hashlib
import io
import os
import re
import shutil
import stat
import tempfile
import uuid
import zipfile
from collections.abc import Callable, Iterator
from copy import copy
from pathlib import Path

import openpyxl
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.chart import Reference, ScatterChart, Series
from openpyxl.chart.marker import Marker
from openpyxl.comments import Comment
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from engine.core import audience, fit
from engine.core.audience import Audience
from engine.core.errors import BackendError, CampaignError, Problem
from engine.core.messages import _
from engine.core.tables import Cell, Changeset, Chart, Formula, Grid, Tables, TabSpec, Validation, WorkbookSpec

from . import store_rows, xlsx_books, xlsx_inputs, xlsx_lock, xlsx_store, xlsx_window, xlsx_writer
from .base import Backend
from .book_mark import BookMark
from .faults import backend_error

HEADER_FONT = Font(name="Calibri", size=11, bold=True, color="FFFFFF")  # the body's font: without a name
# LibreOffice draws the header in its default serif
HEADER_FILL = {"data": "3B5B7A", "rules": "6B5B3B", "orders": "4A7A3D", "report": "7A3B3B", "meta": "444444"}
INVALID_TITLE_CHARS = set('[]:*?/\\')
MAX_ROW = 1_048_576  # the last row of an Excel sheet

# test hook: called between the steps of the atomic save (crash tests kill the process there)
_SAVE_HOOK: Callable[[str], None] | None = None


def _hook(step: str) -> None:
    if _SAVE_HOOK is not None:
        _SAVE_HOOK(step)


def check_title(name: str) -> None:
    if len(name) > 31 or any(ch in INVALID_TITLE_CHARS for ch in name) or not name.strip():
        raise BackendError(_("имя листа «{name}» не подходит для Excel: не длиннее 31 знака и без []:*?/\\")
                           .format(name=name))


def _put(ws: Worksheet, row: int, col: int, value: Cell) -> None:
    """Write one value; an unchanged cell is left alone and an empty one is not created.

    Only a :class:`Formula` becomes a formula.  Any other string is stored as a string cell
    (data type 's'), whatever it starts with: openpyxl would otherwise make '=…' a formula and
    '#N/A' an error value.  Control characters, which the file format cannot hold, are replaced."""
    cell = ws._cells.get((row, col))
    if cell is None:
        if value is None:
            return
        cell = ws.cell(row=row, column=col)
        column = ws.column_dimensions.get(get_column_letter(col))  # .get: [] would add a dimension
        if column is not None and column.has_style:
            cell._style = copy(column._style)  # a new cell looks like its column (wrapped reasons)
    if isinstance(value, Formula):
        if cell.value != str(value) or cell.data_type != "f":
            cell.value = str(value)
        return
    if isinstance(value, str):
        value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
        if cell.value == value and cell.data_type == "s":
            return
        cell.value = value
        cell.data_type = "s"  # a player's '=…' or '#REF!' stays text
        return
    if cell.value == value and type(cell.value) is type(value) and cell.data_type != "f":
        return
    cell.value = value


def _grid_of(ws: Worksheet) -> Grid:
    """The tab's values as a grid, from the cells that exist.

    openpyxl's iter_rows() would create a cell object for every empty position of the used
    rectangle (and then save them all); reading its cell store directly keeps reads and saves
    proportional to the content.
    """
    cells = ws._cells
    if not cells:
        return []
    rows = max(r for r, _c in cells)
    width = max(c for _r, c in cells)
    grid: Grid = [[None] * width for _ in range(rows)]
    for (r, c), cell in cells.items():
        v = cell.value
        if v is None:
            continue
        if cell.data_type == "f" and isinstance(v, str):
            v = Formula(v)
        elif not isinstance(v, (str, int, float, bool)):
            v = str(v)  # dates and the like: as text
        grid[r - 1][c - 1] = v
    for line in grid:
        while line and line[-1] is None:
            line.pop()
    while grid and not grid[-1]:
        grid.pop()
    return grid


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _new_file_mode() -> int:
    """The mode a newly created file gets (0666 less the umask), as any program's open() would give it."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _keep_mode_and_owner(tmp: Path, was: os.stat_result | None) -> None:
    """Give the saved file the old file's mode and owner (mkstemp makes it 0600 and ours)."""
    if was is not None and hasattr(os, "chown"):
        now = tmp.stat()
        if (now.st_uid, now.st_gid) != (was.st_uid, was.st_gid):
            try:
                os.chown(tmp, was.st_uid, was.st_gid)
            except PermissionError:  # only root may give a file away; the group may still be kept
                with contextlib.suppress(OSError):
                    os.chown(tmp, -1, was.st_gid)
    os.chmod(tmp, stat.S_IMODE(was.st_mode) if was is not None else _new_file_mode())


def _changed_on_disk(path: Path) -> BackendError:
    return BackendError(
        _("файл {path} изменился на диске после того, как strategos его прочитал (его сохранила другая программа — "
          "Excel, LibreOffice, синхронизация папки?). Чтобы не затереть эти изменения, ничего не записано: "
          "запустите команду снова.").format(path=path))


def save_workbook(wb: Workbook, path: Path) -> None:
    """openpyxl's ``Workbook.save`` with its zip archive closed by us whatever happens (and its
    worksheets written from memory: sheets_bridge/xlsx_writer.py).

    When the save fails half-way (a full disk), openpyxl leaves its ``ZipFile`` open; garbage
    collection then closes it, that close writes the archive's directory to the same full disk,
    and Python prints the failure ("Exception ignored in: ZipFile.__del__ … OSError") after the
    message the GM was given (issue 23, point 12).  Here a failed archive is dropped without
    writing anything more: the temporary file it was writing is removed by the caller anyway."""
    archive = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
    try:
        wb.properties.modified = datetime.datetime.now(tz=datetime.timezone.utc).replace(tzinfo=None)
        xlsx_writer.Writer(wb, archive).save()  # closes the archive when everything is written
    except BaseException:
        _abandon(archive)
        raise


def _abandon(archive: zipfile.ZipFile) -> None:
    """Close a half-written archive's file without writing its directory (the write that failed
    would fail again, and nothing later may try: ``ZipFile.close`` returns at once without a file)."""
    fp, archive.fp = archive.fp, None
    if fp is not None:
        with contextlib.suppress(OSError, ValueError):  # its buffer cannot be flushed to a full disk
            fp.close()


def atomic_save(wb: Workbook, path: Path, keep_backup: bool = True, expect: str | None = None,
                prefix: str | None = None) -> str:
    """Save `wb` to `path` so that `path` is always a whole workbook, old or new; returns the new file's sha256.

    `expect` is the sha256 of the file as it was read: if the file on disk is no longer that one
    (or is gone), nothing is replaced.  The new file keeps the old one's mode and owner.  Any OS
    fault becomes a BackendError in words (opening with ``prefix``: what was not written), and no
    temporary file is left behind.
    """
    path = path.resolve()
    temps: list[Path] = []
    try:
        try:
            was = path.stat() if path.exists() else None
            if was is not None and not os.access(path, os.W_OK):
                raise PermissionError(errno.EACCES, "the file is read-only", str(path))
            fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            os.close(fd)
            tmp = Path(tmp_name)
            temps.append(tmp)
            _hook("before-save")
            save_workbook(wb, tmp)
            with open(tmp, "rb") as fh:
                digest = _sha256(fh.read())
                os.fsync(fh.fileno())
            _hook("saved-temp")
            old = path.read_bytes() if path.exists() else None
            if expect is not None and (old is None or _sha256(old) != expect):
                raise _changed_on_disk(path)
            _keep_mode_and_owner(tmp, was)
            if keep_backup and old is not None:
                bak = path.with_name(path.name + ".bak")
                fd2, bak_name = tempfile.mkstemp(prefix=f".{path.name}.bak.", suffix=".tmp", dir=path.parent)
                temps.append(Path(bak_name))
                with os.fdopen(fd2, "wb") as fh:
                    fh.write(old)
                    fh.flush()
                    os.fsync(fh.fileno())
                shutil.copystat(path, bak_name)
                _keep_mode_and_owner(Path(bak_name), was)
                os.replace(bak_name, bak)
                _hook("backup-kept")
            os.replace(tmp, path)
            _hook("replaced")
        except OSError as exc:
            raise backend_error(exc, path, prefix=_("кампания не записана — ") if prefix is None else prefix) from exc
        with contextlib.suppress(OSError):  # the file is replaced; a folder that cannot be fsynced changes nothing
            dir_fd = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
    finally:
        for t in temps:
            with contextlib.suppress(OSError):
                t.unlink(missing_ok=True)
    return digest


def _merged_conflicts(sheets: dict[str, Worksheet], changes: Changeset) -> list[Problem]:
    """Cells this write sets that lie in a merged range but not at its top left (openpyxl cannot set them).

    Decision: refuse, naming the tab and range, rather than unmerge: the GM merged them on
    purpose, and the fix (unmerge) takes one click while a silent unmerge would change the layout.
    """
    touched: dict[str, dict[int, list[int]]] = {}

    def mark(tab: str, row: int, col: int) -> None:
        if tab in sheets and sheets[tab].merged_cells.ranges:
            touched.setdefault(tab, {}).setdefault(row, []).append(col)

    for rep in changes.replace:
        for r, line in enumerate(rep.rows, start=1):
            for c, v in enumerate(line, start=1):
                if v is not None:
                    mark(rep.tab, r, c)
    for block in changes.all_blocks():
        for dr, line in enumerate(block.values):
            for dc, v in enumerate(line):
                if v is not None:
                    mark(block.tab, block.row + dr, block.col + dc)
    for tab, row, col, _text in changes.notes:
        mark(tab, row, col)
    problems: list[Problem] = []
    for tab, by_row in touched.items():
        rows = sorted(by_row)
        for rng in sorted(sheets[tab].merged_cells.ranges, key=lambda m: (m.min_row, m.min_col)):
            hit = [f"{get_column_letter(c)}{r}"
                   for r in rows[bisect.bisect_left(rows, rng.min_row):bisect.bisect_right(rows, rng.max_row)]
                   for c in sorted(set(by_row[r]))
                   if rng.min_col <= c <= rng.max_col and (r, c) != (rng.min_row, rng.min_col)]
            if hit:
                cells = ", ".join(hit[:5]) + (_(" и ещё {n}").format(n=len(hit) - 5) if len(hit) > 5 else "")
                problems.append(Problem(tab, 0, "", _(
                    "ячейки {merged} объединены, а программа записывает в {cells} — разъедините их (Excel: "
                    "«Объединить и поместить в центре» ещё раз; LibreOffice: Формат → Объединить ячейки → "
                    "Разъединить) и запустите команду снова").format(merged=rng.coord, cells=cells)))
    return problems


class XlsxBackend(Backend):
    """A campaign in a local .xlsx file."""

    def __init__(self, path: str | os.PathLike[str], books: bool = False) -> None:
        self.path = Path(path)
        # also write the players' and the public books (xlsx_books) though the campaign records no
        # audiences yet (a game without hidden information, the GM's opt-in): from this write on it does
        self.player_books = books
        self.location = str(self.path)
        self._wb: Workbook | None = None
        self._digest: str | None = None  # sha256 of the file as read: the save refuses if it changed since
        # tab -> audience for a campaign with hidden information (xlsx_books): None, no extra books
        self._audiences: dict[str, Audience] | None = None
        self._warnings: list[str] = []  # what went wrong with those books (see audit)
        self._mark: BookMark | None = None  # this file is a public or a player's book (xlsx_books), not the campaign
        self._reading = xlsx_inputs.Reading()  # what the read found in the players' books
        self._worded: list[xlsx_inputs.Say] = []  # its warnings, worded when audit shows them
        self._books_checked = False  # whether the books were brought to the GM's window (xlsx_window)
        self._books_read = False  # whether the players' books were read into the loaded workbook (xlsx_inputs)
        self._books_failed = ""  # why they could not be (told unless a later write of the books says more)

    def exclusive(self, command: str) -> contextlib.AbstractContextManager[None]:
        """Hold the workbook's lock for a command's whole read–compute–write (see xlsx_lock).

        A missing workbook is named before any lock file is made beside it.
        """
        if not self.path.exists():
            raise BackendError(_("файл кампании не найден: {path}").format(path=self.path))
        return self._exclusive(command)

    @contextlib.contextmanager
    def _exclusive(self, command: str) -> Iterator[None]:
        """The lock, and first of all every book beside the campaign brought to the GM's window
        (xlsx_window: a run killed between the GM's save and its books left them behind)."""
        with xlsx_lock.exclusive(self.path, command):
            xlsx_store.clean(self.path)  # a killed run's half-written snapshot file
            self._bring_books_up()
            yield

    def _bring_books_up(self) -> None:
        """Rewrite the books a killed run left behind, remove their temporary files; what was done
        is told with the command's warnings (audit).  A workbook that does not load is left to the
        command's own read, which says so."""
        self._books_checked = True
        try:
            wb = self._load(books=False)  # the GM's workbook alone: a stale book's input is not yet to be read
        except BackendError:
            return
        if self._audiences is None:
            return
        said, self._books_failed = xlsx_window.bring_up(self.path, wb, self._audiences, atomic_save)
        self._warnings += said

    def _load(self, books: bool = True) -> Workbook:
        """The GM's workbook, loaded once; with ``books``, what the players typed in their own books
        read into it (once): a command brings stale books up first (``books=False``), so that a book a
        killed run left behind is never read as its player's input."""
        if self._wb is None:
            self._books_read = False
            try:
                data = self.path.read_bytes()
            except FileNotFoundError:
                raise BackendError(_("файл кампании не найден: {path}").format(path=self.path)) from None
            except OSError as exc:
                raise backend_error(exc, self.path, prefix=_("не удалось прочитать кампанию — ")) from exc
            try:
                self._wb = openpyxl.load_workbook(io.BytesIO(data))
            except zipfile.BadZipFile as exc:
                raise BackendError(self._not_a_workbook(_("это не zip-архив, каким должен быть .xlsx"))) from exc
            except KeyError as exc:  # a zip without the parts of a workbook
                raise BackendError(self._not_a_workbook(_("в zip-архиве нет частей книги Excel"))) from exc
            except Exception as exc:  # openpyxl raises many kinds for a broken file; its English text stays out
                raise BackendError(self._not_a_workbook(_("содержимое книги не разбирается"))) from exc
            self._digest = _sha256(data)
            self._mark = xlsx_books.mark_of(self._wb)
            self._audiences = xlsx_books.record_of(self._wb)
            if self._audiences is None and self.player_books:
                self._audiences = {}
        if books and not self._books_read:
            self._books_read = True
            if self._audiences:
                self._read_books(self._wb)
        return self._wb

    def _read_books(self, wb: Workbook) -> None:
        """What the players typed in their own books, into the workbook as read (xlsx_inputs): the
        ruleset then sees it, and the next save keeps it in the GM's workbook and in the books."""
        self._reading = xlsx_inputs.read_books(self.path, wb, self._audiences or {}, xlsx_books.book_path)
        sheets = {ws.title: ws for ws in wb.worksheets}
        for tab, row, col, value in self._reading.cells:
            _put(sheets[tab], row, col, value)  # a player's text stays text
        self._worded = list(self._reading.warnings)  # worded by audit, in the campaign's language

    def set_aside_typed(self) -> list[str]:
        """The books whose players' input this read took are kept as ``.bak`` by the next write of
        the books (a rollback puts their order tabs back): where each is, in words."""
        self._load()
        record = self._audiences or {}
        readers = {record[tab] for tab, _r, _c, _v in self._reading.cells if tab in record}
        self._reading.keep |= readers
        return [_("что игрок набрал в своей книге «{book}» после окна, к которому вернулась кампания, заменено её "
                  "приказами; книга, какой её оставил игрок, сохранена рядом: «{bak}»").format(
                      book=book, bak=book.with_name(book.name + ".bak"))
                for book in sorted(xlsx_books.book_path(self.path, who) for who in readers)]

    def _not_a_workbook(self, why: str) -> str:
        bak = self.path.with_name(self.path.name + ".bak")
        back = _("; предыдущая версия лежит рядом: {bak} — её можно вернуть на место").format(bak=bak) \
            if bak.exists() else ""
        return _("{path} не читается как книга Excel (.xlsx): файл повреждён или сохранён в другом формате "
                 "(.xls, .ods, .csv) ({why}). Откройте его в Excel или LibreOffice и сохраните как «Книга Excel "
                 "(.xlsx)»{back}").format(path=self.path, why=why, back=back)

    def stored(self, tables: Tables) -> Tables:
        """The store tabs' chunks, from the files beside the campaign (xlsx_store)."""
        return xlsx_store.stored(self.path, tables)

    def read(self) -> Tables:
        if not self._books_checked and self._wb is None and xlsx_window.keeps_books(self.path):
            # a reading command (history, verify, report) takes no lock of its own: the books are
            # brought up only if the lock is free (busy, or open in Calc: the next command does it)
            with contextlib.suppress(BackendError), xlsx_lock.exclusive(self.path, "read"):
                self._bring_books_up()
        wb = self._load()
        return {ws.title: _grid_of(ws) for ws in wb.worksheets}

    def write(self, changes: Changeset) -> None:
        if changes.is_empty():
            return
        changes.check_cells()  # the last-line guard: a cell Google would refuse is refused here too
        with xlsx_lock.exclusive(self.path, "write"):  # re-entered when a command already holds it
            xlsx_lock.refuse_if_open_elsewhere(self.path.resolve())
            self._apply(changes)

    def _apply(self, changes: Changeset) -> None:
        wb = self._load()
        sheets = {ws.title: ws for ws in wb.worksheets}  # openpyxl's wb[name] scans every tab
        merged = _merged_conflicts(sheets, changes)
        if merged:
            raise CampaignError(merged)
        # the store tabs' chunks go to files beside the campaign, before its save (xlsx_store)
        changes, payloads = store_rows.lift(xlsx_store.migrated(sheets, changes, _grid_of))
        xlsx_store.put(self.path, payloads)

        def sheet(name: str, spec: TabSpec | None = None) -> Worksheet:
            if name not in sheets:
                sheets[name] = _new_sheet(wb, spec or TabSpec(name, []))
            return sheets[name]

        for rep in changes.replace:
            ws = sheet(rep.tab, rep.spec)
            for r, line in enumerate(rep.rows, start=1):
                for c, v in enumerate(line, start=1):
                    _put(ws, r, c, v)
            height = len(rep.rows)
            widths = [len(line) for line in rep.rows]
            for (r, c), cell in list(ws._cells.items()):
                if cell.value is not None and (r > height or c > widths[r - 1]):
                    cell.value = None
        for block in changes.all_blocks():
            ws = sheet(block.tab)
            for dr, line in enumerate(block.values):
                for dc, v in enumerate(line):
                    _put(ws, block.row + dr, block.col + dc, v)
        for tab, n in changes.drop_rows:  # a log's oldest rows, archived by this write (engine/core/logs.py)
            if tab in sheets and n > 0:
                sheets[tab].delete_rows(2, n)
        for tab in changes.clear_notes:
            if tab in sheets:
                for cell in list(sheets[tab]._cells.values()):
                    if cell.comment is not None:
                        cell.comment = None
        for tab, row, col, text in changes.notes:
            if tab in sheets:
                cell = sheets[tab].cell(row=row, column=col)
                cell.comment = Comment(text[:30_000], "Strategos", width=420, height=220) if text else None
        if self._audiences is not None:
            known = dict(self._audiences)
            new = {rep.tab for rep in changes.replace if rep.tab not in self._audiences}
            made = {b.tab: b.audience for b in changes.blocks if b.tab not in self._audiences and b.tab not in new}
            if new or made:
                self._audiences = audience.extend(self._audiences, changes.replace)
                self._audiences.update((tab, who or audience.GM) for tab, who in made.items())
            self._audiences.update((t, who) for t, who in changes.audiences.items() if t in sheets)  # the game's view
            if self._audiences != known:
                xlsx_books.set_record(wb, self._audiences)
            blocks = xlsx_inputs.input_record(wb)
            typed = {rep.tab: rep.spec.editable_columns for rep in changes.replace if rep.tab not in blocks
                     and rep.spec is not None and rep.spec.kind == "orders" and rep.spec.editable_columns}
            if typed:  # an order tab made now: its input block is read from its player's book too
                xlsx_inputs.set_input_record(wb, {**blocks, **typed})
        if self._audiences is not None:  # a new window marker: the books written below carry it too
            xlsx_window.set_marker(wb, uuid.uuid4().hex)
        self._digest = atomic_save(wb, self.path, expect=self._digest)
        if self._audiences is not None:  # the books sent to the players follow the GM's workbook
            self._write_books()

    def _write_books(self) -> None:
        """The players' and the public books from the workbook just saved.  The campaign is written
        by then: a book that cannot be written is a warning (``audit``), not a failed command, and
        the next write (a ``check``) writes every book again."""
        self._books_failed = ""  # this write of the books tells its own outcome
        try:
            xlsx_books.write_books(self.path, self._audiences or {}, atomic_save, self._wb, self._reading,
                                   marker=xlsx_window.marker_of(self._wb) if self._wb is not None else None)
        except BackendError as exc:
            self._warnings.append(_(
                "Кампания записана, но книги для игроков рядом с ней не обновлены ({error}). Не отправляйте "
                "их игрокам: они будут записаны заново при следующей записи (например, check)."
            ).format(error=exc))
        finally:  # the books are ours now: a later write in this run keeps no .bak and expects no file
            self._reading = xlsx_inputs.Reading(skip=self._reading.skip)

    def other_book(self) -> tuple[BookMark, str] | None:
        """The mark of a public or a player's book (xlsx_books.write_books) and the GM's workbook it
        names, beside it: ``g.public.xlsx`` -> ``g.xlsx``, ``g.players/Рим.xlsx`` -> ``g.xlsx``."""
        self._load()
        if self._mark is None:
            return None
        folder = self.path.parent if self._mark.reader == audience.PUBLIC else self.path.parent.parent
        return self._mark, str(folder / self._mark.campaign)

    def audit(self) -> list[str]:
        """Warnings about the books beside the campaign since the last call (sync shows them): what
        the read found in the players' books first, then what went wrong writing them."""
        out = [say() for say in self._worded] + self._warnings + [w for w in [self._books_failed] if w]
        self._worded, self._warnings, self._books_failed = [], [], ""
        return out

    @property
    def private_order_tabs(self) -> frozenset[str]:
        """The tabs that belong to one player (a campaign with hidden information): each such
        player gets their own report in their book (sync.private_reports); none otherwise."""
        self._load()
        return frozenset(t for t, who in (self._audiences or {}).items() if who.kind == "player")

    def tab_names(self) -> list[str]:
        return list(self._load().sheetnames)


def _new_sheet(wb: Workbook, spec: TabSpec) -> Worksheet:
    check_title(spec.name)
    ws = wb.create_sheet(spec.name)
    _format(ws, spec)
    return ws


def _format(ws: Worksheet, spec: TabSpec) -> None:
    """Apply a spec's looks to a new sheet: widths, panes, header, wrapping, dropdowns, number
    formats, highlights, charts, print setup, tab colour."""
    fitted = fit.measure(spec)
    for col, width in fitted.widths.items():
        ws.column_dimensions[get_column_letter(col)].width = width
    if spec.frozen_rows or spec.frozen_cols:
        ws.freeze_panes = ws.cell(row=spec.frozen_rows + 1, column=spec.frozen_cols + 1)
    fill = PatternFill("solid", fgColor=HEADER_FILL.get(spec.kind, "3B5B7A"))
    if spec.rows and spec.rows[0]:
        if spec.wrap_header:
            ws.row_dimensions[1].height = fitted.header_height
        for c in range(1, len(spec.rows[0]) + 1):
            cell = ws.cell(row=1, column=c)
            cell.font = HEADER_FONT
            cell.fill = fill
            cell.alignment = Alignment(wrap_text=spec.wrap_header, vertical="center")
    wrap = Alignment(wrap_text=True, vertical="top")
    for col in fitted.wrapped:  # the column's style: empty cells (typed in later) and new ones (_put)
        ws.column_dimensions[get_column_letter(col)].alignment = wrap
    wrapped = set(fitted.wrapped)
    for (r, c), cell in ws._cells.items():  # and the content already there
        if r > 1 and c in wrapped:
            cell.alignment = wrap
    _print_setup(ws, spec)
    for v in spec.validations:
        formula = '"' + ",".join(v.options) + '"' if v.options else _dependent_list(v) or v.source
        dv = DataValidation(type="list", formula1=formula, allow_blank=True, showErrorMessage=v.strict)
        last = v.last_row or MAX_ROW  # 0: every row below, typed in later too
        dv.add(f"{get_column_letter(v.column)}{v.first_row}:{get_column_letter(v.column)}{last}")
        ws.add_data_validation(dv)
    for col, fmt in spec.number_formats.items():
        for r in range(2, max(len(spec.rows), spec.format_rows, 2) + 1):
            ws.cell(row=r, column=col).number_format = fmt
        if fmt == "@":  # text: a cell typed in later, below the rows above, keeps what was typed too
            ws.column_dimensions[get_column_letter(col)].number_format = fmt
    for h in spec.highlights:
        fill_color = PatternFill("solid", fgColor=h.color, bgColor=h.color)
        ws.conditional_formatting.add(h.area, FormulaRule(formula=[h.formula.lstrip("=")], fill=fill_color))
    for ch in spec.charts:
        ws.add_chart(_chart(ws, ch), ch.anchor)
    if spec.tab_color:
        ws.sheet_properties.tabColor = spec.tab_color.lstrip("#")
    if spec.hidden:
        ws.sheet_state = "hidden"


_BLOCK = re.compile(r"^(?P<tab>'(?:[^']|'')+'|[^!]+)!\$?(?P<c0>[A-Z]+)\$?(?P<r0>\d+):\$?(?P<c1>[A-Z]+)\$?(?P<r1>\d+)$")
MAX_LIST_FORMULA = 255  # Excel refuses a longer list source


def _dependent_list(v: Validation) -> str:
    """The list source of a dependent dropdown: the list under the heading of `v.choices` that the
    row's `v.depends_on` cell names (OFFSET over the heading MATCH finds, as long as the list's
    non-empty cells), `v.source` when it names none; "" when `v` depends on nothing or the formula
    would be too long for Excel (then the plain `source` stands)."""
    m = _BLOCK.match(v.choices.strip()) if v.depends_on and v.choices and v.source else None
    if not m:
        return ""
    tab, c0, c1, r0, r1 = m["tab"], m["c0"], m["c1"], int(m["r0"]), int(m["r1"])
    key = f"${get_column_letter(v.depends_on)}{v.first_row}"  # relative row: each row reads its own
    pick = f"MATCH({key},{tab}!${c0}${r0}:${c1}${r0},0)"
    column = f"OFFSET({tab}!${c0}${r0 + 1}:${c0}${r1},0,{pick}-1)"
    formula = (f'IF(ISNA({pick}),{v.source},OFFSET({tab}!${c0}${r0 + 1},0,{pick}-1,'
               f'MAX(1,COUNTIF({column},"?*")),1))')
    return formula if len(formula) <= MAX_LIST_FORMULA else ""


def _chart(ws: Worksheet, ch: Chart) -> ScatterChart:
    """The chart a :class:`~engine.core.tables.Chart` describes: a line per series column over the
    numbers of the category column, with a marker on every point (after one turn a line is a
    single point).  A scatter chart with lines rather than a line chart: its x axis spans the rows
    that hold numbers, where a line chart gives every row of the block a category and squeezes
    three turns into the first twentieth of a 60-turn axis."""
    chart = ScatterChart(scatterStyle="lineMarker")
    chart.title = ch.title
    chart.y_axis.title = ch.y_title
    chart.height, chart.width = 9, 22
    chart.x_axis.majorUnit = 1  # turns are whole numbers
    chart.x_axis.number_format = "0"
    chart.x_axis.delete = chart.y_axis.delete = False  # openpyxl 3.1 hides the axes otherwise
    xs = Reference(ws, min_col=ch.first_col, min_row=ch.first_row + 1, max_row=ch.last_row)
    for col in range(ch.series_from or ch.first_col + 1, ch.last_col + 1):
        ys = Reference(ws, min_col=col, min_row=ch.first_row, max_row=ch.last_row)
        series = Series(ys, xs, title_from_data=True)
        series.smooth = False
        if ch.markers:
            series.marker = Marker(symbol="circle", size=6)
            series.graphicalProperties.line.width = 22_000  # EMU: about 1.75 pt
        chart.series.append(series)
    return chart


def _print_setup(ws: Worksheet, spec: TabSpec) -> None:
    """Orientation, fit to one page wide, the header repeated on every page."""
    if spec.print_landscape:
        ws.page_setup.orientation = "landscape"
    if spec.print_fit_width:
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0  # as many pages tall as the rows need
        ws.page_margins = PageMargins(left=0.4, right=0.4, top=0.5, bottom=0.5)  # inches: a wide table
        ws.print_options.horizontalCentered = True  # prints as large as the page allows
    if spec.print_title_rows:
        ws.print_title_rows = f"1:{spec.print_title_rows}"


def create_xlsx(spec: WorkbookSpec, path: str | os.PathLike[str], overwrite: bool = False, books: bool = False) -> str:
    """Create a campaign workbook from a spec; refuses to overwrite unless asked (and while it is in use).
    With ``books`` (or for a spec with hidden information) the players' and the public books are
    written beside it, now and with every later write (xlsx_books)."""
    target = Path(path)
    if target.suffix.lower() != ".xlsx":
        raise BackendError(_("файл кампании должен оканчиваться на .xlsx: {path}").format(path=target))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise backend_error(exc, target.parent, prefix=_("не удалось создать папку кампании — ")) from exc
    with xlsx_lock.exclusive(target, "new"):
        if target.exists() and not overwrite:
            raise BackendError(_("файл {path} уже есть — выберите другое имя (или --force, чтобы заменить)")
                               .format(path=target))
        wb = openpyxl.Workbook()
        wb.remove(wb.active)
        for tab in spec.tabs:
            check_title(tab.name)
            ws = wb.create_sheet(tab.name)
            for r, line in enumerate(tab.rows, start=1):
                for c, v in enumerate(line, start=1):
                    if v is not None:
                        _put(ws, r, c, v)
            _format(ws, tab)
        wb.properties.title = spec.title
        record = {t.name: t.readers for t in spec.tabs} if spec.hidden_information or books else None
        marker = uuid.uuid4().hex
        if record is not None:
            xlsx_books.set_record(wb, record)
            xlsx_inputs.set_input_record(wb, {t.name: t.editable_columns for t in spec.tabs
                                              if t.kind == "orders" and t.editable_columns})
            xlsx_window.set_marker(wb, marker)
        atomic_save(wb, target, keep_backup=False)
        if record is not None:  # the players' and the public books, ready to send from the start
            try:
                xlsx_books.write_books(target, record, atomic_save, wb, marker=marker)
            except BackendError:  # `new` makes the whole campaign or none of it
                with contextlib.suppress(OSError):
                    target.unlink()
                raise
    return str(target)
