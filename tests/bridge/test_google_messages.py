"""Issue 16 point 3 for the Google backend (sheets_bridge/gsheets*.py, google_http.py): every text a
GM or player reads -- errors, warnings of the sharing audit, what creation writes into the
spreadsheets -- comes from the ``strategos`` catalogue, so an English campaign gets it in English.

The first test closes the class: no Cyrillic literal in those files outside a catalogue call.
The others show the English of the messages a GM meets most (a refused key, HTTP errors, a lost
race, merged cells, a drifted sharing) and of what ``new --google`` writes."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
import repo_paths
import requests
import test_google_support as support
from test_google_support import GM, SA, GoogleEnv, small_spec

from engine.core import i18n
from engine.core.errors import CampaignError
from sheets_bridge import google_http, gsheets, gsheets_lock, gsheets_sharing

ROOT = repo_paths.ROOT
FILES = [*sorted((ROOT / "sheets_bridge").glob("gsheets*.py")), ROOT / "sheets_bridge" / "google_http.py"]
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
google = support.google
emulator_server = support.emulator_server
#: Calls whose first argument is a msgid (or, for ``count``, the noun the catalogue translates).
CATALOGUE_CALLS = {"_", "N_", "pgettext", "ngettext", "count"}


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring nodes of a module, its classes and functions."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _uncatalogued(path: Path) -> list[str]:
    """Cyrillic string literals of ``path`` that are neither docstrings nor catalogue arguments."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in CATALOGUE_CALLS:
                allowed |= {id(a) for a in node.args[:2] if isinstance(a, ast.Constant)}
    bad = []
    for node in ast.walk(tree):
        text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
        if CYRILLIC.search(text) and id(node) not in allowed:
            bad.append(f"{path.name}:{node.lineno}: {node.value[:60]!r}")
    return bad


def test_i16_p3_google_backend_texts_are_all_in_the_catalogue() -> None:
    bad = [line for path in FILES for line in _uncatalogued(path)]
    assert not bad, f"{len(bad)} texts outside the catalogue:\n" + "\n".join(bad)


def _english(text: str) -> str:
    assert text and not CYRILLIC.search(text), text
    return text


def test_i16_p3_a_missing_google_key_is_explained_in_english(tmp_path: Path) -> None:
    broken = tmp_path / "key.json"
    broken.write_text("{not json", encoding="utf-8")
    for key in (tmp_path / "absent.json", broken):
        with i18n.using("en"), pytest.raises(gsheets.GoogleCredentialsMissing) as exc:
            gsheets.make_google_client(key)
        assert "--credentials" in _english(str(exc.value))
    with pytest.raises(gsheets.GoogleCredentialsMissing) as exc:  # Russian stays Russian
        gsheets.make_google_client(tmp_path / "absent.json")
    assert "Нет учётных данных Google" in str(exc.value)


def _response(status: int, message: str, url: str) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response.url = url
    response._content = json.dumps({"error": {"code": status, "message": message, "status": "X"}}).encode()
    return response


@pytest.mark.parametrize("status", [400, 401, 403, 404, 429, 500, 418])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_i16_p3_google_http_errors_read_in_english(status: int, method: str) -> None:
    client = google_http.StrategosHTTPClient.__new__(google_http.StrategosHTTPClient)
    url = f"{google_http.GOOGLE_SHEETS_URL}/abc123:batchUpdate"
    with i18n.using("en"):
        err = client._error_for(_response(status, "boom", url), url, method)
        _english(str(err))
        protected = client._error_for(_response(400, "protected cell or object", url), url, method)
        assert "protected" in _english(str(protected))
        exhausted = client._exhausted(method, url, 3, 1.5, err)
        _english(str(exhausted))
        translated = gsheets.translate(err, "writing to the Google spreadsheet")
        _english(str(translated))


def test_i16_p3_the_retry_count_is_counted_in_english() -> None:
    client = google_http.StrategosHTTPClient.__new__(google_http.StrategosHTTPClient)
    url = f"{google_http.GOOGLE_SHEETS_URL}/abc123"
    quota = client._error_for(_response(429, "slow down", url), url, "GET")
    with i18n.using("en"):
        text = str(client._exhausted("GET", url, 3, 2.0, quota))
    assert "3 times" in _english(text)
    assert "3 раза" in str(client._exhausted("GET", url, 3, 2.0, quota))


def test_i16_p3_a_lost_race_and_merged_cells_are_explained_in_english() -> None:
    with i18n.using("en"):
        assert "another run" in _english(str(gsheets_lock.conflict("abc123")))
        info = gsheets.SheetInfo("s", 1, "Orders", 10, 5, merges=[(0, 0, 2, 2)])
        piece = gsheets.Piece({"updateCells": {}}, (0, 0, 1, 1))
        with pytest.raises(CampaignError) as exc:
            gsheets._refuse_merges({"Orders": info}, {"Orders": [piece]}, [])
        [problem] = exc.value.problems
    assert problem.tab == "Orders" and "A1:B2" in _english(problem.message)


def test_i16_p3_the_sharing_audit_warns_in_english() -> None:
    record = gsheets_sharing.Record({"s1": "Campaign"}, {"s1": {"gm@example.com": "writer",
                                                                "p@example.com": "writer"}})
    drifted = {"name": "Renamed", "writersCanShare": True, "permissions": [
        {"type": "user", "role": "reader", "emailAddress": "gm@example.com"},
        {"type": "user", "role": "writer", "emailAddress": "evil@example.com"},
        {"type": "domain", "role": "reader", "domain": "example.com"},
        {"type": "anyone", "role": "reader"},
    ]}
    with i18n.using("en"):
        warnings = gsheets_sharing.drift("s1", drifted, record, "bot@example.com")
        warnings += gsheets_sharing.drift("s1", None, record, None)
    assert len(warnings) == 8  # seven drifts of one spreadsheet, one missing
    for text in warnings:
        _english(text.replace("Campaign", ""))
    assert any("“reader” instead of “editor”" in w for w in warnings), warnings


def test_i16_p3_new_google_writes_its_own_cells_in_english(google: GoogleEnv) -> None:
    """What creation itself writes (the bookkeeping tab's header, the GM book's title, the
    protections' descriptions) follows the campaign's language; the spec's own cells are the
    ruleset's (and its names helper's) business."""
    with i18n.using("en"):
        created = google.create(small_spec(), players={}, private_orders=True, gm=GM)
    answer = gsheets.get_spreadsheet(google.client(SA), created.spreadsheet_id,
                                     "sheets(properties(title),data(rowData(values(userEnteredValue))),"
                                     "protectedRanges(description))")
    backend = next(s for s in answer["sheets"] if s["properties"]["title"] == gsheets.BACKEND_TAB)
    header = [gsheets.cell_value(v) for v in backend["data"][0]["rowData"][0]["values"]]
    assert header == ["Tab", "Spreadsheet"]
    descriptions = [p["description"] for s in answer["sheets"] for p in s.get("protectedRanges", [])]
    assert descriptions and all(not CYRILLIC.search(d) for d in descriptions), descriptions
    gm_title = gsheets.get_spreadsheet(google.client(SA), created.gm_book, "properties(title)")
    assert gm_title["properties"]["title"] == f"{small_spec().title} — GM"


def test_i16_p2_google_errors_agree_in_russian() -> None:
    """«Запрошенный объект не найдена», «после 1 попыток», «(запрошенный )» were the old texts."""
    client = google_http.StrategosHTTPClient.__new__(google_http.StrategosHTTPClient)
    url = f"{google_http.GOOGLE_DRIVE_URL}/files"
    missing = str(client._error_for(_response(404, "gone", url), url, "GET"))
    assert missing.startswith("Запрошенный объект не найден или не открыт для сервисного аккаунта"), missing
    refused = str(client._error_for(_response(403, "no", url), url, "POST"))
    assert "(запрошенный объект)" in refused, refused
    once = str(client._exhausted("GET", url, 1, 0.5, RuntimeError("x")))
    assert "после 1 попытки за 0.5 с" in once, once
