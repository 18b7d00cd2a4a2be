"""Issue 16, point 3: in an English campaign even the program's hidden tabs have English titles
(«_История» is "_History", «_Листы» is "_Tabs"), and history, rollback and verify work on them;
a Russian campaign keeps its Russian titles."""

from __future__ import annotations

import re
from pathlib import Path

from engine import rulesets
from engine.core import history, tabs
from sheets_bridge import sync, timeline
from sheets_bridge.xlsx import XlsxBackend
from tests import test_google_support as support
from tests.test_google_support import GoogleEnv, demo_spec

emulator_server = support.emulator_server
google = support.google

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _english_xlsx(tmp_path: Path) -> Path:
    path = tmp_path / "en.xlsx"
    sync.create(str(path), scenario="demo", lang="en", secret="i16-english-tabs")
    backend = XlsxBackend(path)
    backend.write(rulesets.get("ancient").demo_changes(backend.read()))
    return path


def test_i16_p3_an_english_workbook_has_no_cyrillic_tab_title_and_its_history_works(tmp_path: Path) -> None:
    path = _english_xlsx(tmp_path)
    sync.resolve(XlsxBackend(path))
    titles = list(XlsxBackend(path).read())
    assert history.title("en") in titles and history.HISTORY_TAB not in titles
    assert not [t for t in titles if CYRILLIC.search(t)]
    assert [e.turn for e in history.entries(XlsxBackend(path).read())] == [1]
    assert timeline.verify(XlsxBackend(path), 1).ok
    first = XlsxBackend(path).read()
    timeline.rollback(XlsxBackend(path), 1)
    sync.resolve(XlsxBackend(path))  # the same dice: the same turn again
    again = XlsxBackend(path).read()
    # the rollback's own traces aside (issue 23, point 6): the emptied "_Kept orders" and the meta's "Last rollback"
    assert not again.pop("_Kept orders") and [r[0] for r in again["Campaign"] if r and r[0]][-1] == "Last rollback"
    again["Campaign"] = [r for r in again["Campaign"] if not r or r[0] != "Last rollback"]
    # and the chronicle's first line of the turn, in English, saying what the GM chose
    assert [line.split(":")[0] for line in support.recounts(again)] == ["Window 1 is resolved again after a rollback"]
    again = support.without_recounts(again)
    assert {k: v for k, v in again.items() if not history.is_history(k)} == {
        k: v for k, v in first.items() if not history.is_history(k)
    }


def test_i16_p3_a_russian_workbook_keeps_its_russian_hidden_tab(tmp_path: Path) -> None:
    path = tmp_path / "ru.xlsx"
    sync.create(str(path), scenario="demo", lang="ru", secret="i16-russian-tabs")
    sync.resolve(XlsxBackend(path))
    titles = list(XlsxBackend(path).read())
    assert history.HISTORY_TAB in titles and history.title("en") not in titles


def test_i16_p3_an_english_google_campaign_has_no_cyrillic_tab_title(google: GoogleEnv) -> None:
    created = google.create(demo_spec("en"), players={})
    backend = google.backend(created.spreadsheet_id)
    sync.resolve(backend)
    titles = [s["properties"]["title"] for s in google.emu.dump(created.spreadsheet_id)["sheets"]]
    assert tabs.registry_title("en") in titles and history.title("en") in titles  # hidden ones included
    assert not [t for t in titles if CYRILLIC.search(t)]
    assert timeline.verify(google.backend(created.spreadsheet_id), 1).ok
