"""Drive v3 endpoints: files (create/get/list/update/delete/copy/export), permissions,
comments, plus the v2 media upload gspread's ``import_csv`` uses.

Visibility follows Drive: a file the caller has no role on is *not found* (404 with
``File not found: <id>.``), a write with too low a role answers 403
``insufficientFilePermissions``, and so does reading the permissions of a file the caller may
not share (a file's ``permissions`` field is then left out, as Drive documents).  Answers
honour ``fields`` and otherwise use Drive's default field sets (``kind,id,name,mimeType`` for a file).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from typing import Any

from . import fieldmask
from .errors import ApiError, drive_error, drive_forbidden, drive_not_found, sheets_error
from .http_types import ApiRequest, ApiResponse
from .model import Sheet, Spreadsheet, new_sheet, whole_sheet
from .protection import ROLE_LEVELS
from .sheets_api import create_spreadsheet_file
from .store import FOLDER_MIME, SPREADSHEET_MIME, DriveFile, Store, permission_id_for, root_folder_id
from .valueops import read_matrix
from .values import parse_user_entered

EXPORT_FORMATS = {
    "text/csv": ",",
    "text/tab-separated-values": "\t",
}
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _invalid(message: str, location: str | None = None, reason: str = "invalid") -> ApiError:
    """Drive-style 400."""
    return drive_error(400, message, reason, location=location)


def _visible(store: Store, file_id: str, identity: str | None, level: int = 1) -> DriveFile:
    """The file if the caller has at least ``level`` (404 when invisible, 403 when the role is too low)."""
    file = store.files.get(file_id)
    if file is None or store.role_level(file, identity) < 1:
        raise drive_not_found(file_id)
    if store.role_level(file, identity) < level:
        raise drive_forbidden(file_id)
    return file


def _user(email: str, me: bool) -> dict[str, Any]:
    """A Drive User resource for an e-mail."""
    return {
        "kind": "drive#user",
        "displayName": email,
        "me": me,
        "permissionId": permission_id_for(email),
        "emailAddress": email,
        "photoLink": "https://lh3.googleusercontent.com/a/default-user=s64",
    }


def _permission_out(perm: dict[str, Any]) -> dict[str, Any]:
    """A Permission resource (full form, as with ``fields=permissions``)."""
    out: dict[str, Any] = {"kind": "drive#permission", "id": perm["id"], "type": perm["type"]}
    if perm.get("emailAddress"):
        out["emailAddress"] = perm["emailAddress"]
        out["displayName"] = perm["emailAddress"]
    if perm.get("domain"):
        out["domain"] = perm["domain"]
        out["displayName"] = perm["domain"]
    out["role"] = perm["role"]
    if perm["type"] in ("anyone", "domain"):
        out["allowFileDiscovery"] = bool(perm.get("allowFileDiscovery"))
    if perm["type"] in ("user", "group"):
        out["photoLink"] = "https://lh3.googleusercontent.com/a/default-user=s64"
    out["deleted"] = False
    out["pendingOwner"] = False
    return out


def _all_permissions(file: DriveFile) -> list[dict[str, Any]]:
    """The owner's implicit permission followed by the explicit ones."""
    owner = {"id": permission_id_for(file.owner), "type": "user", "emailAddress": file.owner, "role": "owner"}
    return [owner, *file.permissions]


def file_resource(store: Store, file: DriveFile, identity: str | None) -> dict[str, Any]:
    """The full Drive v3 File resource as seen by ``identity``."""
    level = store.role_level(file, identity)
    me = (identity or "").casefold()
    out: dict[str, Any] = {
        "kind": "drive#file",
        "id": file.id,
        "name": file.name,
        "mimeType": file.mime_type,
        "starred": file.starred,
        "trashed": file.trashed,
        "explicitlyTrashed": file.trashed,
        "parents": list(file.parents),
        "spaces": ["drive"],
        "version": "1",
        "webViewLink": _web_link(file),
        "iconLink": f"https://drive-thirdparty.googleusercontent.com/16/type/{file.mime_type}",
        "hasThumbnail": False,
        "thumbnailVersion": "0",
        "viewedByMe": True,
        "createdTime": file.created,
        "modifiedTime": file.modified,
        "modifiedByMe": True,
        "owners": [_user(file.owner, file.owner.casefold() == me)],
        "lastModifyingUser": _user(file.owner, file.owner.casefold() == me),
        "shared": bool(file.permissions),
        "ownedByMe": file.owner.casefold() == me,
        "capabilities": {
            "canEdit": level >= ROLE_LEVELS["writer"],
            "canShare": _may_share(store, file, identity),
            "canCopy": True,
            "canComment": level >= ROLE_LEVELS["commenter"],
            "canDelete": level >= ROLE_LEVELS["owner"],
            "canRename": level >= ROLE_LEVELS["writer"],
            "canTrash": level >= ROLE_LEVELS["owner"],
            "canReadRevisions": level >= ROLE_LEVELS["writer"],
            "canDownload": True,
        },
        "viewersCanCopyContent": True,
        "copyRequiresWriterPermission": False,
        "writersCanShare": file.writers_can_share,
        "permissionIds": [p["id"] for p in _all_permissions(file)],
        "quotaBytesUsed": "0",
        "isAppAuthorized": False,
    }
    if file.description:
        out["description"] = file.description
    if _may_share(store, file, identity):  # Drive: "only available if the requesting user can share the file"
        out["permissions"] = [_permission_out(p) for p in _all_permissions(file)]
    if file.mime_type == SPREADSHEET_MIME:
        out["exportLinks"] = {
            mime: f"https://docs.google.com/spreadsheets/export?id={file.id}&exportFormat={ext}"
            for mime, ext in (
                ("text/csv", "csv"),
                ("text/tab-separated-values", "tsv"),
                ("application/pdf", "pdf"),
                (XLSX_MIME, "xlsx"),
            )
        }
    elif file.content is not None:
        out["size"] = str(len(file.content))
    return out


def _web_link(file: DriveFile) -> str:
    """``webViewLink`` by file type."""
    if file.mime_type == SPREADSHEET_MIME:
        return f"https://docs.google.com/spreadsheets/d/{file.id}/edit?usp=drivesdk"
    if file.mime_type == FOLDER_MIME:
        return f"https://drive.google.com/drive/folders/{file.id}"
    return f"https://drive.google.com/file/d/{file.id}/view?usp=drivesdk"


def _project(resource: dict[str, Any], fields: str | None, default: tuple[str, ...]) -> dict[str, Any]:
    """Apply ``fields`` or Drive's default field set."""
    if not fields:
        return {k: resource[k] for k in default if k in resource}
    try:
        tree = fieldmask.parse(fields)
    except fieldmask.MaskError:
        raise _invalid(f"Invalid field selection {fields}", "fields") from None
    return fieldmask.project(resource, tree)  # type: ignore[no-any-return]


FILE_DEFAULT = ("kind", "id", "name", "mimeType")
PERMISSION_DEFAULT = ("kind", "id", "type", "role")


# --------------------------------------------------------------------------- q parser


class _Query:
    """Tiny parser/evaluator for the Drive ``q`` language (the subset clients use)."""

    _TOKEN = re.compile(
        r"\s*(?:(?P<str>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")|(?P<op><=|>=|!=|=|<|>|\(|\))"
        r"|(?P<word>[A-Za-z_][A-Za-z0-9_.]*)|(?P<num>-?\d+(?:\.\d+)?))"
    )

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = self._TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(text)
            pos = m.end()
            kind = m.lastgroup or ""
            value = m.group(kind)
            if kind == "str":
                value = re.sub(r"\\(.)", r"\1", value[1:-1])
            self.tokens.append((kind, value))
        self.pos = 0
        self.tree = self._or() if self.tokens else ("true",)
        if self.pos != len(self.tokens):
            raise ValueError(text)

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _take(self) -> tuple[str, str]:
        tok = self._peek()
        if tok is None:
            raise ValueError("unexpected end")
        self.pos += 1
        return tok

    def _or(self) -> tuple[Any, ...]:
        node = self._and()
        while (tok := self._peek()) is not None and tok[0] == "word" and tok[1].lower() == "or":
            self.pos += 1
            node = ("or", node, self._and())
        return node

    def _and(self) -> tuple[Any, ...]:
        node = self._not()
        while (tok := self._peek()) is not None and tok[0] == "word" and tok[1].lower() == "and":
            self.pos += 1
            node = ("and", node, self._not())
        return node

    def _not(self) -> tuple[Any, ...]:
        tok = self._peek()
        if tok is not None and tok[0] == "word" and tok[1].lower() == "not":
            self.pos += 1
            return ("not", self._not())
        if tok == ("op", "("):
            self.pos += 1
            node = self._or()
            if self._take() != ("op", ")"):
                raise ValueError("unbalanced")
            return node
        return self._term()

    def _value(self) -> Any:
        kind, value = self._take()
        if kind == "str":
            return value
        if kind == "num":
            return float(value)
        if kind == "word" and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise ValueError(value)

    def _term(self) -> tuple[Any, ...]:
        tok = self._peek()
        if tok is None:
            raise ValueError("empty term")
        if tok[0] in ("str", "num"):
            value = self._value()
            word = self._take()
            if word[1].lower() != "in":
                raise ValueError(word[1])
            field_name = self._take()[1]
            return ("in", field_name, value)
        if tok[0] == "word" and tok[1] == "sharedWithMe":
            self.pos += 1
            return ("sharedWithMe",)
        field_name = self._take()[1]
        op = self._take()
        if op[0] == "word" and op[1].lower() in ("contains", "in", "has"):
            value = self._value()
            if op[1].lower() == "in":  # gspread writes ``parents in "<id>"``
                return ("in", field_name, value)
            return ("contains", field_name, value)
        if op[0] != "op":
            raise ValueError(op[1])
        return ("cmp", field_name, op[1], self._value())

    def match(self, store: Store, file: DriveFile, identity: str) -> bool:
        """Evaluate against a file."""
        return bool(self._eval(self.tree, store, file, identity))

    def _eval(self, node: tuple[Any, ...], store: Store, file: DriveFile, identity: str) -> bool:
        kind = node[0]
        if kind == "true":
            return True
        if kind == "and":
            return self._eval(node[1], store, file, identity) and self._eval(node[2], store, file, identity)
        if kind == "or":
            return self._eval(node[1], store, file, identity) or self._eval(node[2], store, file, identity)
        if kind == "not":
            return not self._eval(node[1], store, file, identity)
        if kind == "sharedWithMe":
            return file.owner.casefold() != identity.casefold()
        if kind == "in":
            _, field_name, value = node
            if field_name == "parents":
                target = root_folder_id(identity) if value == "root" else value
                return target in file.parents
            if field_name == "owners":
                who = identity if str(value) == "me" else str(value)
                return file.owner.casefold() == who.casefold()
            if field_name in ("writers", "readers"):
                need = ROLE_LEVELS["writer"] if field_name == "writers" else ROLE_LEVELS["reader"]
                return store.role_level(file, str(value)) >= need
            raise ValueError(field_name)
        actual = self._field(file, node[1])
        if kind == "contains":
            return str(node[2]).casefold() in str(actual).casefold()
        _, _, op, value = node
        if isinstance(actual, bool) or isinstance(value, bool):
            actual, value = bool(actual), bool(value)
        comparisons = {
            "=": actual == value,
            "!=": actual != value,
            "<": actual < value,
            "<=": actual <= value,
            ">": actual > value,
            ">=": actual >= value,
        }
        return comparisons[op]

    @staticmethod
    def _field(file: DriveFile, name: str) -> Any:
        mapping = {
            "name": file.name,
            "title": file.name,
            "mimeType": file.mime_type,
            "trashed": file.trashed,
            "starred": file.starred,
            "modifiedTime": file.modified,
            "createdTime": file.created,
            "fullText": f"{file.name} {file.description or ''}",
        }
        if name not in mapping:
            raise ValueError(name)
        return mapping[name]


# --------------------------------------------------------------------------- handlers


def handle(store: Store, req: ApiRequest) -> ApiResponse:
    """Dispatch ``/drive/v3/files...``."""
    seg = req.segments[3:]  # after "drive", "v3", "files"
    identity = req.identity
    assert identity is not None
    method = req.method
    with store.lock:
        if not seg:
            if method == "GET":
                return _list(store, req, identity)
            if method == "POST":
                return _create(store, req, identity)
            raise drive_error(405, "Method not allowed", "methodNotAllowed")
        file_id = seg[0]
        if len(seg) == 1:
            if method == "GET":
                if req.param("alt") == "media":
                    file = _visible(store, file_id, identity)
                    if file.content is None:
                        raise drive_error(
                            403,
                            "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
                            "fileNotDownloadable",
                            location="alt",
                        )
                    return ApiResponse(200, file.content, content_type="application/octet-stream")
                file = _visible(store, file_id, identity)
                return ApiResponse(
                    200, _project(file_resource(store, file, identity), req.param("fields"), FILE_DEFAULT)
                )
            if method == "PATCH":
                return _update(store, req, identity, file_id)
            if method == "DELETE":
                file = _visible(store, file_id, identity)
                if store.role_level(file, identity) < ROLE_LEVELS["owner"]:
                    raise drive_forbidden(file_id)
                del store.files[file_id]
                store.spreadsheets.pop(file_id, None)
                store.save()
                return ApiResponse(204)
            raise drive_error(405, "Method not allowed", "methodNotAllowed")
        action = seg[1]
        if action == "copy" and method == "POST":
            return _copy(store, req, identity, file_id)
        if action == "export" and method == "GET":
            return _export(store, req, identity, file_id)
        if action == "permissions":
            return _permissions(store, req, identity, file_id, seg[2] if len(seg) > 2 else None)
        if action == "comments":
            return _comments(store, req, identity, file_id)
        return ApiResponse(404, b"Not Found", content_type="text/html; charset=UTF-8")


def _create(store: Store, req: ApiRequest, identity: str) -> ApiResponse:
    """``files.create`` (a spreadsheet gets its Sheet1, like Google)."""
    body = req.json()
    name = str(body.get("name") or "Untitled")
    mime = str(body.get("mimeType") or "application/octet-stream")
    parents = list(body.get("parents") or [])
    for parent in parents:
        if parent != "root":
            folder = store.files.get(parent)
            if folder is None or store.role_level(folder, identity) < 1:
                raise drive_not_found(parent)
    if mime == SPREADSHEET_MIME:
        ss = create_spreadsheet_file(store, identity, name)
        file = store.files[ss.id]
    else:
        now = store.clock.rfc3339()
        file = DriveFile(
            store.new_file_id(), name, mime, identity, now, now, content=b"" if mime != FOLDER_MIME else None
        )
        store.files[file.id] = file
    if parents:
        file.parents = [root_folder_id(identity) if p == "root" else p for p in parents]
    if body.get("description"):
        file.description = str(body["description"])
    if body.get("starred"):
        file.starred = True
    store.save()
    return ApiResponse(200, _project(file_resource(store, file, identity), req.param("fields"), FILE_DEFAULT))


def _list(store: Store, req: ApiRequest, identity: str) -> ApiResponse:
    """``files.list`` with ``q``, ``orderBy``, paging and ``fields``."""
    q = req.param("q") or ""
    try:
        query = _Query(q)
        matches = [f for f in store.files.values() if _listed(store, f, identity) and query.match(store, f, identity)]
    except (ValueError, TypeError):
        raise _invalid("Invalid Value", "q") from None
    order = req.param("orderBy") or "modifiedTime desc"
    for key in reversed([part.strip() for part in order.split(",") if part.strip()]):
        name, _, direction = key.partition(" ")
        attr = {"modifiedTime": "modified", "createdTime": "created", "name": "name", "folder": "mime_type"}.get(name)
        if attr is None:
            raise _invalid("Invalid Value", "orderBy")
        matches.sort(key=lambda f, a=attr: getattr(f, a), reverse=direction.strip().lower() == "desc")
    page_size = int(req.param("pageSize") or 100)
    if not 1 <= page_size <= 1000:
        raise _invalid("Invalid Value", "pageSize")
    start = int(req.param("pageToken") or 0) if (req.param("pageToken") or "").isdigit() else 0
    page = matches[start : start + page_size]
    resource: dict[str, Any] = {
        "kind": "drive#fileList",
        "incompleteSearch": False,
        "files": [file_resource(store, f, identity) for f in page],
    }
    if start + page_size < len(matches):
        resource["nextPageToken"] = str(start + page_size)
    fields = req.param("fields")
    if not fields:
        out = {
            "kind": "drive#fileList",
            "incompleteSearch": False,
            "files": [{k: f[k] for k in FILE_DEFAULT} for f in resource["files"]],
        }
        if "nextPageToken" in resource:
            out["nextPageToken"] = resource["nextPageToken"]
        return ApiResponse(200, out)
    return ApiResponse(200, _project(resource, fields, ()))


def _listed(store: Store, file: DriveFile, identity: str) -> bool:
    """Whether ``files.list`` shows ``file`` to ``identity``: a file they own or were given a role
    on by name or domain, or one shared with anyone *discoverably*.  A file open to "anyone with
    the link" (``allowFileDiscovery`` off) opens for whoever has its id, but is in nobody's list."""
    if store.role_level(file, identity) < 1:
        return False
    if file.owner.casefold() == identity.casefold():
        return True
    named = [p for p in file.permissions if p.get("type") != "anyone" or p.get("allowFileDiscovery")]
    return store.role_level(dataclasses.replace(file, permissions=named), identity) >= 1


def _update(store: Store, req: ApiRequest, identity: str, file_id: str) -> ApiResponse:
    """``files.update`` (rename keeps the spreadsheet title in sync)."""
    file = _visible(store, file_id, identity, ROLE_LEVELS["writer"])
    body = req.json()
    if body.get("name"):
        file.name = str(body["name"])
        ss = store.spreadsheets.get(file_id)
        if ss is not None:
            ss.props["title"] = file.name
    if "description" in body:
        file.description = body["description"] or None
    if "starred" in body:
        file.starred = bool(body["starred"])
    if "writersCanShare" in body:  # Drive lets only the owner decide who may share
        if store.role_level(file, identity) < ROLE_LEVELS["owner"]:
            raise drive_forbidden(file_id)
        file.writers_can_share = bool(body["writersCanShare"])
    if "trashed" in body:
        if store.role_level(file, identity) < ROLE_LEVELS["owner"]:
            raise drive_forbidden(file_id)
        file.trashed = bool(body["trashed"])
    add = [p for p in (req.param("addParents") or "").split(",") if p]
    remove = [p for p in (req.param("removeParents") or "").split(",") if p]
    file.parents = [p for p in file.parents if p not in remove] + [p for p in add if p not in file.parents]
    file.modified = store.clock.rfc3339()
    store.save()
    return ApiResponse(200, _project(file_resource(store, file, identity), req.param("fields"), FILE_DEFAULT))


def _copy(store: Store, req: ApiRequest, identity: str, file_id: str) -> ApiResponse:
    """``files.copy``: deep copy owned by the caller, permissions not copied."""
    source = _visible(store, file_id, identity)
    body = req.json()
    name = body.get("name") or f"Copy of {source.name}"
    now = store.clock.rfc3339()
    new_id = store.new_file_id()
    file = DriveFile(
        new_id,
        str(name),
        source.mime_type,
        identity,
        now,
        now,
        parents=list(body.get("parents") or [root_folder_id(identity)]),
        description=source.description,
        content=source.content,
    )
    store.files[new_id] = file
    ss = store.spreadsheets.get(file_id)
    if ss is not None:
        clone = ss.copy()
        clone.id = new_id
        clone.props["title"] = str(name)
        store.spreadsheets[new_id] = clone
    store.save()
    return ApiResponse(200, _project(file_resource(store, file, identity), req.param("fields"), FILE_DEFAULT))


def _export(store: Store, req: ApiRequest, identity: str, file_id: str) -> ApiResponse:
    """``files.export`` to CSV/TSV (first sheet) or XLSX."""
    _visible(store, file_id, identity)
    ss = store.spreadsheets.get(file_id)
    mime = req.param("mimeType") or ""
    if ss is None:
        raise drive_error(403, "Export only supports Docs Editors files.", "fileNotExportable")
    if mime in EXPORT_FORMATS:
        sheet = ss.ordered()[0]
        rows = _sheet_rows(sheet)
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=EXPORT_FORMATS[mime], lineterminator="\n")
        writer.writerows(rows)
        return ApiResponse(200, buffer.getvalue().rstrip("\n").encode("utf-8"), content_type=f"{mime}; charset=UTF-8")
    if mime == XLSX_MIME:
        return ApiResponse(200, _xlsx(ss), content_type=XLSX_MIME)
    raise _invalid("The requested conversion is not supported.", "convertTo", "badRequest")


def _sheet_rows(sheet: Sheet) -> list[list[Any]]:
    """Formatted, trimmed values of a whole sheet."""
    return read_matrix(whole_sheet(sheet), "ROWS", "FORMATTED_VALUE", "SERIAL_NUMBER")


def _xlsx(ss: Spreadsheet) -> bytes:
    """Export every sheet's formatted values with openpyxl."""
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    for sheet in ss.ordered():
        ws = book.create_sheet(title=sheet.title[:31])
        for r, row in enumerate(_sheet_rows(sheet), start=1):
            for c, value in enumerate(row, start=1):
                if value != "":
                    ws.cell(row=r, column=c, value=value)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _permissions(store: Store, req: ApiRequest, identity: str, file_id: str, perm_id: str | None) -> ApiResponse:
    """``permissions`` list/get/update/delete.  Reading the list (or one entry of it) takes what
    changing it takes -- the right to share: a reader, or a writer while ``writersCanShare`` is
    off, gets Drive's 403 ``insufficientFilePermissions`` and learns nobody's address."""
    method = req.method
    file = _visible(store, file_id, identity)
    if method == "GET" and not _may_share(store, file, identity):
        raise drive_forbidden(file_id)
    if perm_id is None and method == "GET":
        perms = [_permission_out(p) for p in _all_permissions(file)]
        fields = req.param("fields")
        if not fields:
            perms = [{k: p[k] for k in PERMISSION_DEFAULT if k in p} for p in perms]
            return ApiResponse(200, {"kind": "drive#permissionList", "permissions": perms})
        return ApiResponse(200, _project({"kind": "drive#permissionList", "permissions": perms}, fields, ()))
    if perm_id is None and method == "POST":
        return _share(store, req, identity, file)
    if perm_id is None:
        raise drive_error(405, "Method not allowed", "methodNotAllowed")
    current = next((p for p in _all_permissions(file) if p["id"] == perm_id), None)
    if current is None:
        raise drive_error(404, f"Permission not found: {perm_id}.", "notFound", location="permissionId")
    if method == "GET":
        return ApiResponse(200, _project(_permission_out(current), req.param("fields"), PERMISSION_DEFAULT))
    if not _may_share(store, file, identity):
        raise drive_forbidden(file_id)
    if current["role"] == "owner":
        raise drive_error(403, "The owner of a file cannot be removed.", "cannotRemoveOwner")
    if method == "DELETE":
        file.permissions = [p for p in file.permissions if p["id"] != perm_id]
        store.save()
        return ApiResponse(204)
    if method == "PATCH":
        role = str(req.json().get("role") or current["role"])
        if role not in ROLE_LEVELS or role == "owner":
            raise _invalid("The provided role is invalid.", "permission.role")
        current["role"] = role
        store.save()
        return ApiResponse(200, _project(_permission_out(current), req.param("fields"), PERMISSION_DEFAULT))
    raise drive_error(405, "Method not allowed", "methodNotAllowed")


def _may_share(store: Store, file: DriveFile, identity: str | None) -> bool:
    """Whether ``identity`` may add, change or remove permissions: a writer only while the file's
    ``writersCanShare`` is on (Drive's default), the owner always."""
    level = store.role_level(file, identity)
    return level >= ROLE_LEVELS["owner"] or (file.writers_can_share and level >= ROLE_LEVELS["writer"])


def _share(store: Store, req: ApiRequest, identity: str, file: DriveFile) -> ApiResponse:
    """``permissions.create`` (update when the grantee already has a role)."""
    if not _may_share(store, file, identity):
        raise drive_forbidden(file.id)
    body = req.json()
    kind = body.get("type")
    role = body.get("role")
    if kind not in ("user", "group", "domain", "anyone"):
        raise _invalid(
            "The permission type field is required." if not kind else "Invalid permission type.",
            "permission.type",
            "required",
        )
    if role not in ROLE_LEVELS:
        raise _invalid(
            "The permission role field is required." if not role else "The provided role is invalid.",
            "permission.role",
            "required",
        )
    perm: dict[str, Any] = {"type": kind, "role": role}
    if kind in ("user", "group"):
        email = body.get("emailAddress")
        if not email or "@" not in str(email):
            raise _invalid("The permission emailAddress field is required.", "permission.emailAddress", "required")
        perm["emailAddress"] = str(email)
        perm["id"] = permission_id_for(str(email))
    elif kind == "domain":
        domain = body.get("domain")
        if not domain:
            raise _invalid("The permission domain field is required.", "permission.domain", "required")
        perm["domain"] = str(domain)
        perm["id"] = permission_id_for("@" + str(domain))
    else:
        perm["allowFileDiscovery"] = bool(body.get("allowFileDiscovery"))
        perm["id"] = "anyone" if perm["allowFileDiscovery"] else "anyoneWithLink"
    if role == "owner":
        if str(req.param("transferOwnership") or "").lower() != "true":
            raise drive_error(
                403,
                "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
                "forbidden",
                location="transferOwnership",
            )
        if kind != "user" or store.role_level(file, identity) < ROLE_LEVELS["owner"]:
            raise drive_forbidden(file.id)
        old_owner = file.owner
        file.owner = perm["emailAddress"]
        file.permissions = [p for p in file.permissions if p["id"] != perm["id"]]
        file.permissions.append(
            {"id": permission_id_for(old_owner), "type": "user", "emailAddress": old_owner, "role": "writer"}
        )
        store.save()
        return ApiResponse(200, _project(_permission_out(perm), req.param("fields"), PERMISSION_DEFAULT))
    if kind in ("user", "group") and str(perm.get("emailAddress", "")).casefold() == file.owner.casefold():
        perm = {"id": permission_id_for(file.owner), "type": "user", "emailAddress": file.owner, "role": "owner"}
        return ApiResponse(200, _project(_permission_out(perm), req.param("fields"), PERMISSION_DEFAULT))
    file.permissions = [p for p in file.permissions if p["id"] != perm["id"]]
    file.permissions.append(perm)
    store.save()
    return ApiResponse(200, _project(_permission_out(perm), req.param("fields"), PERMISSION_DEFAULT))


def _comments(store: Store, req: ApiRequest, identity: str, file_id: str) -> ApiResponse:
    """``comments`` list/create (needed by gspread's copy)."""
    file = _visible(store, file_id, identity)
    fields = req.param("fields")
    if not fields:
        raise drive_error(400, "The 'fields' parameter is required for this method.", "required", location="fields")
    if req.method == "GET":
        comments = [
            c
            for c in file.comments
            if str(req.param("includeDeleted", "false")).lower() == "true" or not c.get("deleted")
        ]
        return ApiResponse(200, _project({"kind": "drive#commentList", "comments": comments}, fields, ()))
    if req.method == "POST":
        if store.role_level(file, identity) < ROLE_LEVELS["commenter"]:
            raise drive_forbidden(file_id)
        body = req.json()
        now = store.clock.rfc3339()
        comment = {
            "kind": "drive#comment",
            "id": f"AAAA{store.new_int_id()}",
            "content": str(body.get("content", "")),
            "createdTime": now,
            "modifiedTime": now,
            "author": {"kind": "drive#user", "displayName": identity, "me": True},
            "deleted": False,
            "resolved": False,
        }
        if body.get("anchor"):
            comment["anchor"] = body["anchor"]
        file.comments.append(comment)
        store.save()
        return ApiResponse(200, _project(comment, fields, ()))
    raise drive_error(405, "Method not allowed", "methodNotAllowed")


def handle_upload(store: Store, req: ApiRequest) -> ApiResponse:
    """``PUT /upload/drive/v2/files/{id}?uploadType=media&convert=true``: CSV import.

    Like Google, the spreadsheet is replaced by one sheet named after the file holding the
    CSV data (values parsed as if typed), and its time zone becomes America/Los_Angeles.
    """
    identity = req.identity
    assert identity is not None
    seg = req.segments
    if len(seg) != 5 or seg[1:4] != ["drive", "v2", "files"] or req.method != "PUT":
        raise sheets_error(501, "Only the Drive v2 media upload used by gspread.import_csv is emulated.")
    file_id = seg[4]
    with store.lock:
        file = _visible(store, file_id, identity, ROLE_LEVELS["writer"])
        ss = store.spreadsheets.get(file_id)
        if ss is None:
            raise drive_error(400, "Only spreadsheet conversion is supported.", "badRequest")
        text = req.body.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text)))
        n_rows = max(1000, len(rows))
        n_cols = max([26, *(len(r) for r in rows)])
        sheet = new_sheet(store.new_int_id(), file.name, 0, n_rows, n_cols)
        for r, row in enumerate(rows):
            for c, raw in enumerate(row):
                if raw == "":
                    continue
                value, number_format = parse_user_entered(raw)
                cell = sheet.ensure(r, c)
                cell.value = value
                if number_format:
                    cell.fmt = {"numberFormat": number_format}
        ss.sheets = [sheet]
        ss.named_ranges = []
        ss.props["timeZone"] = "America/Los_Angeles"
        file.modified = store.clock.rfc3339()
        store.save()
        resource = {
            "kind": "drive#file",
            "id": file.id,
            "title": file.name,
            "mimeType": file.mime_type,
            "ownerNames": [file.owner],
            "lastModifyingUserName": file.owner,
            "editable": True,
            "writersCanShare": True,
            "createdDate": file.created,
            "modifiedDate": file.modified,
            "shared": bool(file.permissions),
        }
        return ApiResponse(200, resource)
