"""Who may open a Google campaign: what ``new`` set, and the audit that reports any drift.

``new --google`` turns Drive's "writers can share" off on every spreadsheet (so a player with
edit rights cannot add evil@example.com, remove the GM or demote another player: only the
program's account, the owner, changes sharing) and records in the hidden, protected tab
``_strategos`` what it shared: rows ``["#share", spreadsheet id, e-mail, role]``,
``["#link", spreadsheet id, role]`` (the public book of a split campaign is shared by its link,
not with each player by name, so that no player finds the others' addresses in its sharing list)
and ``["#name", spreadsheet id, title]``.  What Google cannot forbid an editor -- renaming the file --
and any drift of the permissions from that record are found by :func:`audit` with one Drive
``files.list`` (every spreadsheet the program owns, with its name, ``writersCanShare`` and
permissions) and reported by ``check`` / ``resolve`` as warnings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.messages import _

from . import google_http
from .google_http import GoogleError, StrategosClient

SHARE_ROW = "#share"
LINK_ROW = "#link"
NAME_ROW = "#name"
SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
LIST_FIELDS = ("nextPageToken,files(id,name,writersCanShare,"
               "permissions(type,role,emailAddress,domain,allowFileDiscovery))")


@dataclass
class Record:
    """What ``new`` set: per spreadsheet, its title and who has which role (the owner aside)."""

    names: dict[str, str] = field(default_factory=dict)
    shares: dict[str, dict[str, str]] = field(default_factory=dict)  # spreadsheet -> e-mail -> role
    links: dict[str, str] = field(default_factory=dict)  # spreadsheet -> role of "anyone with the link"

    def rows(self) -> list[list[str]]:
        """The rows of ``_strategos`` that keep it."""
        out = [[NAME_ROW, sid, name] for sid, name in self.names.items()]
        out += [[SHARE_ROW, sid, email, role] for sid, people in self.shares.items() for email, role in people.items()]
        out += [[LINK_ROW, sid, role] for sid, role in self.links.items()]
        return out

    def add(self, line: Sequence[Any]) -> bool:
        """Take one row of ``_strategos`` if it is a record row (True), else leave it (False)."""
        cells = [str(v).strip() if v is not None else "" for v in line]
        if len(cells) >= 3 and cells[0] == NAME_ROW:
            self.names[cells[1]] = cells[2]
            return True
        if len(cells) >= 4 and cells[0] == SHARE_ROW:
            self.shares.setdefault(cells[1], {})[cells[2].casefold()] = cells[3]
            return True
        if len(cells) >= 3 and cells[0] == LINK_ROW:
            self.links[cells[1]] = cells[2]
            return True
        return bool(cells) and cells[0].startswith("#")  # a record row of a later version: not a tab

    def __bool__(self) -> bool:
        return bool(self.names or self.shares or self.links)


def link_permission(role: str) -> dict[str, Any]:
    """Drive's "anyone with the link" permission: whoever has the address opens the spreadsheet
    with ``role``; it is not findable by search, and nobody is listed by name."""
    return {"type": "anyone", "role": role, "allowFileDiscovery": False}


def restrict(client: StrategosClient, spreadsheet_id: str) -> None:
    """Turn Drive's "writers can share" off (one idempotent ``files.update``)."""
    client.http_client.request(
        "patch", f"{google_http.GOOGLE_DRIVE_URL}/{spreadsheet_id}",
        params={"supportsAllDrives": "true", "fields": "id"}, json={"writersCanShare": False},
    )


def owned_files(client: StrategosClient, wanted: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The spreadsheets the program's account owns, by id: one ``files.list`` (more only past
    1,000 files, and only until every wanted id is found)."""
    wanted = set(wanted)
    found: dict[str, dict[str, Any]] = {}
    token = ""
    while True:
        params = {"q": f"'me' in owners and trashed = false and mimeType = '{SPREADSHEET_MIME}'",
                  "fields": LIST_FIELDS, "pageSize": "1000", "supportsAllDrives": "true"}
        if token:
            params["pageToken"] = token
        answer = client.http_client.request("get", google_http.GOOGLE_DRIVE_URL, params=params).json()
        for f in answer.get("files", []):
            found[str(f.get("id"))] = f
        token = str(answer.get("nextPageToken") or "")
        if not token or wanted <= set(found):
            return found


def audit(client: StrategosClient, record: Record, owner: str | None) -> list[str]:
    """Warnings (in the campaign's language) about every way its spreadsheets differ from what ``new`` set."""
    if not record:
        return []
    ids = list(dict.fromkeys([*record.names, *record.shares, *record.links]))
    try:
        files = owned_files(client, ids)
    except GoogleError as exc:
        return [_("Не удалось проверить права доступа к таблицам кампании через Google Drive: {exc}").format(
            exc=exc)]
    out: list[str] = []
    for sid in ids:
        out += drift(sid, files.get(sid), record, owner)
    return out


def drift(sid: str, file: Mapping[str, Any] | None, record: Record, owner: str | None) -> list[str]:
    """What is wrong with one spreadsheet (its Drive file as listed, None if not listed)."""
    name = record.names.get(sid, sid)
    where = _("Таблица «{name}» ({url})").format(name=name, url=google_http_url(sid))
    if file is None:
        return [_(
            "{where} не найдена среди таблиц, которыми владеет {owner}: её удалили, "
            "переместили в корзину или передали владение другому — проверьте в Google Drive."
        ).format(where=where, owner=owner or _("аккаунт программы"))]
    out: list[str] = []
    if sid in record.names and str(file.get("name", "")) != record.names[sid]:
        out.append(_("{where} переименована в «{name}». Верните прежнее название, если это сделал не ведущий.").format(
            where=where, name=file.get("name", "")))
    if file.get("writersCanShare", True) is not False:
        out.append(_(
            "{where}: редакторам разрешено менять доступ (writersCanShare). Игрок с правом правки может "
            "открыть таблицу кому угодно; запретите это в настройках доступа (значок шестерёнки)."
        ).format(where=where))
    want = record.shares.get(sid, {})
    have: dict[str, str] = {}
    link = record.links.get(sid)
    linked = False
    for perm in file.get("permissions", []):
        kind, role = str(perm.get("type", "")), str(perm.get("role", ""))
        if role == "owner":
            continue
        if kind in ("user", "group"):
            have[str(perm.get("emailAddress", "")).casefold()] = role
        elif kind == "domain":
            out.append(_("{where}: доступ всему домену {domain} ({role}) — его не давала команда new.").format(
                where=where, domain=perm.get("domain", ""), role=_role(role)))
        elif link is None:
            out.append(_("{where}: доступ по ссылке для всех ({role}) — его не давала команда new.").format(
                where=where, role=_role(role)))
        else:
            linked = True
            if role != link:
                out.append(_("{where}: доступ по ссылке — роль «{role}» вместо «{wanted}».").format(
                    where=where, role=_role(role), wanted=_role(link)))
            if perm.get("allowFileDiscovery"):
                out.append(_("{where}: таблицу можно найти поиском в интернете (доступ «всем в интернете»), "
                             "а не только по ссылке; верните «всем, у кого есть ссылка».").format(where=where))
    if link is not None and not linked:
        out.append(_("{where}: доступа по ссылке больше нет (был «{role}») — игроки не могут открыть таблицу.").format(
            where=where, role=_role(link)))
    for email, role in sorted(have.items()):
        if email not in want:
            out.append(_("{where}: доступ у {email} ({role}) — его не давала команда new.").format(
                where=where, email=email, role=_role(role)))
        elif role != want[email]:
            out.append(_("{where}: у {email} роль «{role}» вместо «{wanted}».").format(
                where=where, email=email, role=_role(role), wanted=_role(want[email])))
    for email, role in sorted(want.items()):
        if email not in have:
            out.append(_("{where}: у {email} больше нет доступа (был «{role}»).").format(
                where=where, email=email, role=_role(role)))
    return out


def _role(role: str) -> str:
    """A Drive role in the campaign's language (an unknown one as Drive names it)."""
    words = {
        "owner": _.pgettext("Drive role", "владелец"),
        "writer": _.pgettext("Drive role", "редактор"),
        "commenter": _.pgettext("Drive role", "комментатор"),
        "reader": _.pgettext("Drive role", "читатель"),
    }
    return words.get(role, role)


def google_http_url(sid: str) -> str:
    """The spreadsheet's address, for messages."""
    return f"https://docs.google.com/spreadsheets/d/{sid}/edit"
