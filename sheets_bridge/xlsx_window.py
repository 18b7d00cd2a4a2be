"""Every book of an .xlsx campaign at the GM's window, whatever killed the last run (issue 23, p4).

A campaign with hidden information is the GM's workbook plus books written from it after its save
(xlsx_books): the public book and one per player.  The GM's save is the commit point; the books
are derived views of it.  A run killed between that save and the last book's leaves some books
one window behind, and the temporary file of the book it was saving.  So:

* every save of the GM's workbook gives it a fresh *window marker* (a custom document property,
  ``xlsx_books.MARKER_PROPERTY``), and every book written from it carries the same value;
* every command that takes the campaign's lock (check, resolve, rollback) first removes the
  books' temporary files (``.NAME.*.tmp`` beside each book) and rewrites each book whose marker is
  not the GM's (``bring_up``) -- before it reads, so it works on, and reports from, one window.

A player's book is where that player types: a stale one is never simply overwritten.  The cells
the player changed in it since it was written are found by comparing it with the GM's workbook
it was written from -- the previous save, kept as ``NAME.bak`` -- and keep the player's values in
the rewritten book.  When that base is not there (the book is two writes behind, or the ``.bak``
was removed), the stale book is kept beside as ``NAME.stale-<marker>.xlsx`` and the GM is told.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import zipfile
from collections.abc import Mapping
from pathlib import Path
from xml.etree import ElementTree

import openpyxl
from openpyxl.packaging.custom import StringProperty
from openpyxl.workbook.workbook import Workbook

from engine.core import audience
from engine.core.audience import GM, Audience
from engine.core.errors import BackendError
from engine.core.messages import _

from . import xlsx_books
from .xlsx_books import MARKER_PROPERTY, Save

_CUSTOM_XML = "docProps/custom.xml"
_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/custom-properties}"

Cells = dict[tuple[str, int, int], object]  # (tab, row, column) -> value


def marker_of(wb: Workbook) -> str | None:
    """The window marker a loaded workbook carries, or None."""
    for prop in wb.custom_doc_props.props:
        if str(prop.name) == MARKER_PROPERTY:
            return str(prop.value)
    return None


def set_marker(wb: Workbook, marker: str) -> None:
    """Give ``wb`` the window marker ``marker`` (replacing the one it had), for its next save."""
    for prop in list(wb.custom_doc_props.props):
        if str(prop.name) == MARKER_PROPERTY:
            wb.custom_doc_props.props.remove(prop)
    wb.custom_doc_props.append(StringProperty(name=MARKER_PROPERTY, value=marker))


def _properties(path: Path) -> dict[str, str]:
    """The custom properties of the workbook file ``path``, read from that part alone (not the
    whole book); none for a missing or unreadable file."""
    try:
        with zipfile.ZipFile(path) as z:
            root = ElementTree.fromstring(z.read(_CUSTOM_XML))
    except (OSError, KeyError, zipfile.BadZipFile, ElementTree.ParseError):
        return {}
    return {str(p.get("name")): "".join(p.itertext()).strip() for p in root.iter(f"{_NS}property")}


def file_marker(path: Path) -> str | None:
    """The window marker of the workbook file ``path``; None for a missing or unreadable file or
    one without a marker."""
    return _properties(path).get(MARKER_PROPERTY) or None


def keeps_books(path: Path) -> bool:
    """Whether ``path`` is a GM's workbook with books beside it (it records its tabs' audiences):
    a book itself carries a marker but no record."""
    return any(name.startswith(xlsx_books.PROPERTY_PREFIX) for name in _properties(path))


def readers(names: list[str], record: Mapping[str, Audience]) -> list[Audience]:
    """Whose books lie beside the GM's workbook: every audience but the GM with a tab."""
    return [who for who, tabs in audience.books(names, record).items() if who != GM and tabs]


def clean_temporaries(campaign: Path, record: Mapping[str, Audience], names: list[str]) -> list[Path]:
    """Remove the temporary files (``.NAME.*.tmp``) a killed save left beside each book; only call
    holding the campaign's lock (only a lock holder writes the books)."""
    removed: list[Path] = []
    for who in readers(names, record):
        book = xlsx_books.book_path(campaign, who)
        prefix = f".{book.name}."
        with contextlib.suppress(OSError):
            for name in os.listdir(book.parent):
                if name.startswith(prefix) and name.endswith(".tmp"):
                    with contextlib.suppress(OSError):
                        (book.parent / name).unlink()
                        removed.append(book.parent / name)
    return removed


def stale(campaign: Path, record: Mapping[str, Audience], names: list[str], marker: str) -> list[Audience]:
    """The readers whose book does not carry ``marker`` (missing, unreadable or behind)."""
    return [who for who in readers(names, record) if file_marker(xlsx_books.book_path(campaign, who)) != marker]


def typed_since(book: Path, base: Workbook) -> Cells:
    """The cells of ``book`` (a player's book) whose value differs from ``base`` (the GM's workbook
    it was written from): what its player typed.  A cell the base holds a formula in is the
    program's (the book shows its computed value), never the player's."""
    wb = openpyxl.load_workbook(book)
    typed: Cells = {}
    for ws in wb.worksheets:
        if ws.title not in base.sheetnames:
            continue
        theirs = base[ws.title]._cells
        mine = ws._cells
        for key in set(mine) | set(theirs):
            have = mine[key].value if key in mine else None
            was = theirs[key].value if key in theirs else None
            if was is not None and (theirs[key].data_type == "f" or not isinstance(was, (str, int, float, bool))):
                continue
            if have != was and not (have in (None, "") and was in (None, "")):
                typed[(ws.title, key[0], key[1])] = have
    return typed


def bring_up(campaign: Path, wb: Workbook, record: Mapping[str, Audience], save: Save) -> tuple[list[str], str]:
    """Rewrite every book beside ``campaign`` that is not at the GM's window (``wb``, the GM's
    workbook as on disk), keeping what a player typed in their stale book; the words for the GM
    (one line per book rewritten or kept aside) and, if the books could not be written, why (a
    later write of the books makes that one obsolete).  Nothing to do for a GM's workbook
    without a marker (written before markers existed: its next write gives every book one)."""
    marker = marker_of(wb)
    names = list(wb.sheetnames)
    clean_temporaries(campaign, record, names)
    if marker is None:
        return [], ""
    # a player's book that is no workbook at all is left as it is: the read names it (xlsx_inputs)
    behind = [who for who in stale(campaign, record, names, marker)
              if who.kind != "player" or _readable(xlsx_books.book_path(campaign, who))]
    if not behind:
        return [], ""
    base: Workbook | None = None
    bak = campaign.with_name(campaign.name + ".bak")
    kept: dict[Audience, Cells] = {}
    said: list[str] = []
    told: set[Audience] = set()  # books kept aside: said once, above
    missing = {who for who in behind if not xlsx_books.book_path(campaign, who).exists()}
    for who in behind:
        book = xlsx_books.book_path(campaign, who)
        if who.kind != "player" or not book.exists():
            continue
        was = file_marker(book)
        if base is None and was is not None and file_marker(bak) == was:
            with contextlib.suppress(Exception):  # an unreadable .bak is no base: the book is kept aside
                base = openpyxl.load_workbook(io.BytesIO(bak.read_bytes()))
        if base is not None and was is not None and marker_of(base) == was:
            with contextlib.suppress(Exception):  # a book the player broke is kept aside below
                kept[who] = typed_since(book, base)
        if who not in kept:
            aside = book.with_name(f"{book.stem}.stale-{(was or 'old')[:8]}.xlsx")
            with contextlib.suppress(OSError):
                shutil.copy2(book, aside)
                told.add(who)
                said.append((_("книга «{book}» не несёт отметки программы (её пересохранили в другой программе или "
                               "заменили), и что в ней набрал игрок, не узнать: она сохранена как «{aside}» — "
                               "сверьте её приказы с новой книгой") if was is None else
                             _("книга «{book}» отставала от книги ведущего, а что в ней набрал игрок, не узнать: "
                               "она сохранена как «{aside}» — сверьте её приказы с новой книгой")).format(
                                  book=book, aside=aside))
    try:
        xlsx_books.write_books(campaign, record, save, wb, marker=marker, only=behind, kept=kept)
    except BackendError as exc:
        return said, _("Книги игроков отстают от книги ведущего и не переписаны ({error}). Не отправляйте их "
                       "игрокам: следующая команда перепишет их снова.").format(error=exc)
    for who in behind:
        if who in told:
            continue
        if who in missing:
            said.append(_("книги «{book}» рядом с кампанией не было — она записана заново").format(
                book=xlsx_books.book_path(campaign, who)))
            continue
        typed = kept.get(who)
        where = ", ".join(f"{tab}!{_a1(col)}{row}" for tab, row, col in sorted(typed)[:5]) if typed else ""
        more = _(" и ещё {n}").format(n=len(typed) - 5) if typed and len(typed) > 5 else ""
        said.append(_("книга «{book}» отставала от книги ведущего (прерванная запись) и переписана{kept}").format(
            book=xlsx_books.book_path(campaign, who),
            kept=_("; набранное игроком сохранено: {cells}{more}").format(cells=where, more=more) if where else ""))
    return said, ""


def _readable(book: Path) -> bool:
    """Whether ``book`` is missing (to be written) or a workbook's zip; a file broken or replaced by
    something else is not rewritten, so that nothing its player put there is lost."""
    if not book.exists():
        return True
    try:
        with zipfile.ZipFile(book) as z:
            return "xl/workbook.xml" in z.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


def _a1(col: int) -> str:
    """A column's letters (1 -> A)."""
    out = ""
    while col:
        col, rest = divmod(col - 1, 26)
        out = chr(65 + rest) + out
    return out
