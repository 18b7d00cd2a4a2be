"""The request budget: check and resolve read once and write once, counted by the emulator.

Also what the write sends: player text as ``stringValue`` (never parsed), only ``Formula``
as ``formulaValue``; an oversized write staged so the campaign still changes in one batch,
with the turn marker last; and the 1,000-state campaign.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
import test_google_support as support
from test_google_support import SECRET, FakeTime, GoogleEnv, demo_spec, meta, normal, small_spec

from engine.core.cursor import Cursor
from engine.core.tables import Changeset, Formula, Grid, ReplaceTab, TabSpec, WorkbookSpec, WriteBlock
from engine.rulesets.ancient import ruleset
from engine.rulesets.ancient.game import RULESET
from sheets_bridge import gsheets, secrets, sync
from sheets_bridge.emulator.testing import running_emulator

emulator_server = support.emulator_server
google = support.google


def _only_staging(batches: list[gsheets.Batch]) -> None:
    """Every request of these batches adds a hidden staging tab or writes into one (cells, runs, numbers)."""
    stage_ids: set[int] = set()
    for batch in batches:
        for r in batch.requests:
            if "addSheet" in r:
                props = r["addSheet"]["properties"]
                assert props["hidden"] and props["title"].startswith(gsheets.STAGE_PREFIX)
                stage_ids.add(props["sheetId"])
            elif "repeatCell" in r:
                assert r["repeatCell"]["range"]["sheetId"] in stage_ids
            elif "pasteData" in r:
                assert r["pasteData"]["coordinate"]["sheetId"] in stage_ids
            else:
                body = r["updateCells"]
                assert (body.get("range") or body.get("start"))["sheetId"] in stage_ids


def _cell(dump: dict[str, Any], tab: str, row: int, col: int) -> dict[str, Any]:
    """userEnteredValue of a cell in the emulator's admin dump (0-based)."""
    sheet = next(s for s in dump["sheets"] if s["properties"]["title"] == tab)
    rows = sheet["data"][0].get("rowData", [])
    values = rows[row].get("values", []) if row < len(rows) else []
    return dict(values[col].get("userEnteredValue", {})) if col < len(values) else {}


def test_check_and_resolve_cost_one_read_and_one_write_on_the_demo(google: GoogleEnv) -> None:
    sid = google.campaign("demo")
    google.reset()
    result = sync.check(google.backend(sid))
    assert sum(result.summary["orders"].values()) >= 15
    # + the sharing audit (issue 15 p9): one Drive files.list
    assert google.counts() == {"sheets.get": 1, "sheets.batchUpdate": 1, "drive.files.list": 1}
    google.reset()
    sync.resolve(google.backend(sid), turn=1)
    assert google.counts() == {"sheets.get": 1, "sheets.batchUpdate": 1, "drive.files.list": 1}


def test_creation_request_count(google: GoogleEnv) -> None:
    google.reset()
    created = google.create(demo_spec())
    counts = google.counts()
    assert counts == {"sheets.create": 1, "sheets.batchUpdate": 1, "drive.files.update": 1,
                      "drive.permissions.create": 3}
    assert created.requests == 6


def test_player_text_is_written_as_text_and_only_formulas_as_formulas(google: GoogleEnv) -> None:
    sid = google.campaign("small", orders=False)
    backend = google.backend(sid)
    backend.read()
    column: Grid = [['=IMPORTXML("http://x","//a")'], [Formula("=1+1")], [42], [True], ["0042"], [1.5]]
    backend.write(Changeset(blocks=[WriteBlock("Журнал", 5, 2, column)]))
    dump = google.emu.dump(sid)
    assert _cell(dump, "Журнал", 4, 1) == {"stringValue": '=IMPORTXML("http://x","//a")'}
    assert _cell(dump, "Журнал", 5, 1) == {"formulaValue": "=1+1"}
    assert _cell(dump, "Журнал", 6, 1) == {"numberValue": 42}
    assert _cell(dump, "Журнал", 7, 1) == {"boolValue": True}
    assert _cell(dump, "Журнал", 8, 1) == {"stringValue": "0042"}
    tables = google.backend(sid).read()
    back = [r[1] for r in tables["Журнал"][4:10]]
    assert back == ['=IMPORTXML("http://x","//a")', "=1+1", 42, True, "0042", 1.5]
    assert isinstance(back[1], Formula) and not isinstance(back[0], Formula)


def test_demo_orders_formula_is_refused_and_archived_as_text(google: GoogleEnv) -> None:
    """The demo has a formula in an order row: it is refused, and resolve moves the row's input to
    «Архив приказов» (issue 15, point 1) as its text, never a live formula (point 11)."""
    sid = google.campaign("small")
    before = google.backend(sid).read()
    hits = [(t, r, c, str(v)) for t, g in before.items() if t.startswith("Приказы — ")
            for r, line in enumerate(g) for c, v in enumerate(line) if isinstance(v, Formula)]
    assert hits
    sync.resolve(google.backend(sid), turn=1)
    after = google.backend(sid).read()
    dump = google.emu.dump(sid)
    for tab, r, c, text in hits:
        assert "формул" in str(after[tab][r][8]).lower()
        archived = [line for line in after["Архив приказов"][1:]
                    if line[:3] == [1, tab.removeprefix("Приказы — "), r + 1]]
        assert len(archived) == 1 and archived[0][3 + c] == text
        assert not isinstance(archived[0][3 + c], Formula)
        at = after["Архив приказов"].index(archived[0])
        assert _cell(dump, "Архив приказов", at, 3 + c) == {"stringValue": text}


def _spy_batches(monkeypatch: pytest.MonkeyPatch) -> list[gsheets.Batch]:
    """Every batchUpdate body the backend sends from now on (they are still sent)."""
    sent: list[gsheets.Batch] = []
    real = gsheets.send_batch

    def spy(client: Any, spreadsheet_id: str, batch: gsheets.Batch) -> None:
        sent.append(batch)
        real(client, spreadsheet_id, batch)

    monkeypatch.setattr(gsheets, "send_batch", spy)
    return sent


def _pastes(requests: list[dict[str, Any]]) -> dict[tuple[int, int], list[list[str]]]:
    """The pasteData requests among ``requests``: (row, column) -> the fields of each line."""
    out: dict[tuple[int, int], list[list[str]]] = {}
    for r in requests:
        if "pasteData" in r:
            body = r["pasteData"]
            assert body["type"] == "PASTE_VALUES" and body["delimiter"] == ","
            at = (body["coordinate"]["rowIndex"], body["coordinate"]["columnIndex"])
            out[at] = [line.split(",") for line in body["data"].split("\n")]
    return out


def _log_block() -> Grid:
    """30 log rows: a turn, a state, a blank, a unit, a formula, text that looks like a number
    (then a number), a decimal every other row, a negative integer."""
    return [
        [7, f"Г{r % 3}", None, "Д", Formula("=1+1"), "0042" if r < 20 else 5, r * 1.5, r - 10]
        for r in range(30)
    ]


def test_runs_go_as_repeat_cells_numbers_as_pasted_text_and_the_cells_are_the_same(
    google: GoogleEnv, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cell costs ~40 bytes of JSON around its value.  So a run of one text down a column goes
    as one repeatCell and columns of numbers as one pasteData of their digits, both after the
    updateCells that clears those cells; the body shrinks and the tab ends up exactly as the block
    says -- blanks inside the block still clear what was there, formulas stay formulas, and text
    is never pasted (so "0042" stays text).  Pasted decimals need a locale that reads a point."""
    sid = google.campaign("small", orders=False)
    junk = [["старое"] * 8 for _ in range(30)]
    google.backend(sid).write(Changeset(blocks=[WriteBlock("Журнал", 3, 1, junk)]))
    block = _log_block()
    sent = _spy_batches(monkeypatch)
    backend = google.backend(sid)
    backend.read()
    assert backend.books[sid].locale == "en_US"
    backend.write(Changeset(blocks=[WriteBlock("Журнал", 3, 1, block)]))
    requests = [r for b in sent for r in b.requests]
    repeats = [r["repeatCell"] for r in requests if "repeatCell" in r]
    # the unit (30 rows) and the text "0042" (20); formulas and numbers never
    assert sorted((x["range"]["startColumnIndex"], x["range"]["endRowIndex"] - x["range"]["startRowIndex"])
                  for x in repeats) == [(3, 30), (5, 20)]
    assert all(set(x["cell"]["userEnteredValue"]) == {"stringValue"} for x in repeats)
    pastes = _pastes(requests)
    # the turn, the 5s under the text, and the decimal and negative columns side by side
    assert sorted(pastes) == [(2, 0), (2, 6), (22, 5)]
    assert pastes[(2, 0)] == [["7"]] * 30 and pastes[(22, 5)] == [["5"]] * 10
    assert pastes[(2, 6)][:3] == [["0", "-10"], ["1.5", "-9"], ["3", "-8"]]
    first = next(i for i, r in enumerate(requests) if "updateCells" in r)
    assert all(i > first for i, r in enumerate(requests) if "repeatCell" in r or "pasteData" in r)
    update = requests[first]["updateCells"]
    assert update["start"]["columnIndex"] == 1  # the turn column is left to its pasteData
    plain = gsheets._block_request(backend.books[sid].sheets["Журнал"].sheet_id, WriteBlock("Журнал", 3, 1, block))
    compact = gsheets._compact(plain, decimals=True)
    assert sum(len(gsheets._dumps(r)) for r in compact) < len(gsheets._dumps(plain)) * 0.6
    after = google.backend(sid).read()["Журнал"]
    assert normal({"t": after[2:32]}) == normal({"t": block})
    dump = google.emu.dump(sid)
    assert _cell(dump, "Журнал", 2, 5) == {"stringValue": "0042"}
    assert _cell(dump, "Журнал", 2, 4) == {"formulaValue": "=1+1"}
    assert _cell(dump, "Журнал", 3, 6) == {"numberValue": 1.5}
    assert _cell(dump, "Журнал", 2, 7) == {"numberValue": -10}


def test_a_spreadsheet_with_a_decimal_comma_gets_its_decimals_as_numbers_not_pasted_text(
    google: GoogleEnv, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a ru_RU spreadsheet "1.5" would be read as a date, so only integers are pasted there:
    the decimal column stays numberValue cells and lands as the same numbers."""
    sid = google.campaign("small", orders=False)
    locale = {"updateSpreadsheetProperties": {"properties": {"locale": "ru_RU"}, "fields": "locale"}}
    gsheets.send_batch(google.client(), sid, gsheets.Batch([locale]))
    sent = _spy_batches(monkeypatch)
    backend = google.backend(sid)
    backend.read()
    assert backend.books[sid].locale == "ru_RU" and not backend.books[sid].decimal_point
    block = _log_block()
    backend.write(Changeset(blocks=[WriteBlock("Журнал", 3, 1, block)]))
    requests = [r for b in sent for r in b.requests]
    pastes = _pastes(requests)
    assert sorted(pastes) == [(2, 0), (2, 7), (22, 5)]
    assert all("." not in field for lines in pastes.values() for line in lines for field in line)
    update = next(r["updateCells"] for r in requests if "updateCells" in r)
    assert {"userEnteredValue": {"numberValue": 1.5}} in update["rows"][1]["values"]
    after = google.backend(sid).read()["Журнал"]
    assert normal({"t": after[2:32]}) == normal({"t": block})  # a pasted "1.5" would be text here
    assert after[3][6] == 1.5


@pytest.mark.parametrize(
    ("rng", "skipped"),
    [
        ({"sheetId": 5}, False),  # the whole tab: what it is not given below is cleared
        ({"sheetId": 5, "startRowIndex": 0, "endRowIndex": 40, "startColumnIndex": 0, "endColumnIndex": 2}, False),
        ({"sheetId": 5, "startRowIndex": 0, "endRowIndex": 30, "startColumnIndex": 0, "endColumnIndex": 2}, True),
    ],
)
def test_a_range_starts_right_of_a_pasted_column_only_when_nothing_else_needs_clearing(
    rng: dict[str, int], skipped: bool,
) -> None:
    """A bounded updateCells clears every cell of its range it is not given.  Its leading column of
    numbers, pasted after it, may be left out of it only when the range is exactly as tall as its
    rows; otherwise the column stays in as blanks, so the cells below the rows are still cleared."""
    rows = [{"values": [gsheets.cell_data(r * 10), gsheets.cell_data(f"строка {r}")]} for r in range(30)]
    out = gsheets._compact({"updateCells": {"range": rng, "rows": rows, "fields": "userEnteredValue"}})
    update, paste = out[0]["updateCells"], out[1]["pasteData"]
    assert paste["coordinate"] == {"sheetId": 5, "rowIndex": 0, "columnIndex": 0}
    assert paste["data"].split("\n") == [str(r * 10) for r in range(30)]
    if skipped:
        assert update["range"]["startColumnIndex"] == 1
        assert update["rows"][3] == {"values": [{"userEnteredValue": {"stringValue": "строка 3"}}]}
    else:
        assert update["range"] == rng
        assert update["rows"][3] == {"values": [{}, {"userEnteredValue": {"stringValue": "строка 3"}}]}


def test_an_oversized_write_is_staged_and_lands_in_one_final_batch(
    google: GoogleEnv, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a tiny limit the same resolve goes out in several ordered batches: staging tabs
    first (hidden, the campaign untouched), then one batch that copies them in place, writes
    the marker last and deletes the staging tabs.  The result equals the one-batch write."""
    one = google.campaign("small")
    many = google.campaign("small")
    sync.resolve(google.backend(one), turn=1)
    sent: list[gsheets.Batch] = []
    real = gsheets.send_batch

    def spy(client: Any, sid: str, batch: gsheets.Batch) -> None:
        sent.append(batch)
        if len(sent) > 1:  # between two batches the campaign itself has not changed yet
            assert meta(google.backend(many).read())["Открытый ход"] == 1
        real(client, sid, batch)

    monkeypatch.setattr(gsheets, "send_batch", spy)
    limit = 40_000
    sync.resolve(google.backend(many, max_write_bytes=limit), turn=1)
    assert len(sent) >= 3
    assert all(len(b.body()) <= limit for b in sent)
    _only_staging(sent[:-1])
    last = sent[-1].requests
    assert any("copyPaste" in r for r in last)
    assert "deleteSheet" in last[-1]
    marker_at = max(i for i, r in enumerate(last) if "updateCells" in r)
    assert all("deleteSheet" in r for r in last[marker_at + 1:])
    a, b = google.backend(one).read(), google.backend(many).read()
    assert normal(a) == normal(b)
    titles = [s["properties"]["title"] for s in google.emu.dump(many)["sheets"]]
    assert not [t for t in titles if t.startswith(gsheets.STAGE_PREFIX)]


def test_a_staged_ragged_block_leaves_the_cells_past_its_short_rows_alone(
    google: GoogleEnv, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A WriteBlock writes each row as far as it reaches (as on .xlsx); staged, its copy pastes
    only that, not the blank tail of a short row's rectangle."""
    sid = google.campaign("small", orders=False)
    junk = [[f"старое {r}-{c}" for c in range(4)] for r in range(300)]
    google.backend(sid).write(Changeset(blocks=[WriteBlock("Журнал", 3, 1, junk)]))
    block: Grid = [
        [f"новое {r}: " + "летопись " * 6, r] + ([f"хвост {r}", None] if r % 3 == 0 else []) for r in range(300)
    ]
    sent = _spy_batches(monkeypatch)
    limit = 30_000
    backend = google.backend(sid, max_write_bytes=limit)
    backend.read()
    backend.write(Changeset(blocks=[WriteBlock("Журнал", 3, 1, block)]))
    assert len(sent) >= 2 and all(len(b.body()) <= limit for b in sent)
    assert any("copyPaste" in r for r in sent[-1].requests)
    after = google.backend(sid).read()["Журнал"]
    expected = [line + junk[r][len(line):] for r, line in enumerate(block)]
    assert normal({"t": after[2:302]}) == normal({"t": expected})


def test_notes_too_many_for_the_final_batch_follow_it(google: GoogleEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the notes alone would crowd the final batch of a staged write, they go in batches of
    their own right after it (the campaign has changed in one step already); all of it lands."""
    sid = google.campaign("small", orders=False)
    chronicle = [["Ход", "Запись"], *[[1, f"строка {i}: " + "летопись " * 12] for i in range(400)]]
    notes = [("Баланс", r, 11, f"примечание {r}: " + "строка казны " * 12) for r in range(2, 200)]
    changes = Changeset(replace=[ReplaceTab("Журнал", chronicle)], notes=notes, clear_notes=["Баланс"])
    sent = _spy_batches(monkeypatch)
    limit = 40_000
    backend = google.backend(sid, max_write_bytes=limit)
    backend.read()
    backend.write(changes)
    assert all(len(b.body()) <= limit for b in sent)
    final = max(i for i, b in enumerate(sent) if any("deleteSheet" in r for r in b.requests))
    late = sent[final + 1:]
    assert len(late) >= 2
    assert all(r["updateCells"]["fields"] == "note" for b in late for r in b.requests)
    assert not any(r.get("updateCells", {}).get("fields") == "note" for b in sent[:final + 1] for r in b.requests)
    fields = "sheets(data(rowData(values(note))))"
    answer = gsheets.get_spreadsheet(google.client(), sid, fields, ["'Баланс'!K1:K199"])
    rows = answer["sheets"][0]["data"][0]["rowData"]
    assert [(rows[r - 1].get("values") or [{}])[0].get("note") for r in range(2, 200)] == [n[3] for n in notes]
    assert normal({"t": google.backend(sid).read()["Журнал"]}) == normal({"t": chronicle})


def test_a_staged_write_cut_into_row_bands_still_clears_what_the_new_content_no_longer_covers(
    google: GoogleEnv, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only as much as must leave the final batch is staged, in row bands of a piece; the last
    band of a bounded piece still reaches its last row, so rows the new content dropped are cleared."""
    sid = google.campaign("small", orders=False)
    old = [["Ход", "Запись"], *[[1, f"старая {i}: " + "летопись " * 10] for i in range(600)]]
    google.backend(sid).write(Changeset(replace=[ReplaceTab("Журнал", old)]))
    new = [["Ход", "Запись"], *[[2, f"новая {i}: " + "хроника " * 10] for i in range(300)]]
    sent = _spy_batches(monkeypatch)
    limit = 30_000
    backend = google.backend(sid, max_write_bytes=limit)
    backend.read()
    backend.write(Changeset(replace=[ReplaceTab("Журнал", new)]))
    assert len(sent) >= 2 and all(len(b.body()) <= limit for b in sent)
    final = sent[-1].requests
    copies = [r["copyPaste"]["destination"] for r in final if "copyPaste" in r]
    kept = [r["updateCells"]["range"] for r in final if "updateCells" in r and "range" in r["updateCells"]]
    assert copies and kept  # part of the piece staged in bands, the rest written in the final batch
    spans = sorted((g["startRowIndex"], g["endRowIndex"]) for g in copies + kept)
    assert spans[0][0] == 1 and spans[-1][1] == 601  # together they reach the old content's last row
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))
    assert normal({"t": google.backend(sid).read()["Журнал"]}) == normal({"t": new})


def test_creation_in_chunks_builds_the_same_campaign(google: GoogleEnv) -> None:
    """Creation above the size limit goes out in several batches (content first, then dropdowns
    and protections) and builds exactly what one batch builds."""
    one = google.create(small_spec(), players={})
    google.reset()
    many = google.create(small_spec(), players={}, max_write_bytes=60_000)
    assert google.counts()["sheets.batchUpdate"] >= 3
    a, b = google.emu.dump(one.spreadsheet_id), google.emu.dump(many.spreadsheet_id)
    for sa, sb in zip(a["sheets"], b["sheets"]):
        assert sa["properties"]["title"] == sb["properties"]["title"]
        if sa["properties"]["title"] == gsheets.BACKEND_TAB:  # records its own spreadsheet's id
            text = json.dumps(sb["data"], ensure_ascii=False).replace(many.spreadsheet_id, one.spreadsheet_id)
            # its widths and wrapping are fitted to the random ids' letters, so only the values must agree
            def values(data: list[dict[str, Any]]) -> list[list[Any]]:
                return [[c.get("userEnteredValue") for c in r.get("values", [])]
                        for d in data for r in d.get("rowData", [])]

            assert values(sa["data"]) == values(json.loads(text))
            continue
        assert sa["data"] == sb["data"]
        assert len(sa.get("protectedRanges", [])) == len(sb.get("protectedRanges", []))


def test_staging_left_by_a_failed_write_is_cleaned_by_the_next_one(google: GoogleEnv) -> None:
    sid = google.campaign("small")
    backend = google.backend(sid, max_write_bytes=40_000)
    tables = backend.read()
    result = RULESET.resolve(tables, expect=Cursor(1), secret=SECRET)
    plan = backend._plan(sid, result.changes, tables)
    for batch in plan.batches[:2]:  # the program dies after two staging batches
        gsheets.send_batch(backend.client, sid, batch)
    titles = [s["properties"]["title"] for s in google.emu.dump(sid)["sheets"]]
    assert [t for t in titles if t.startswith(gsheets.STAGE_PREFIX)]
    assert meta(google.backend(sid).read())["Открытый ход"] == 1  # the campaign is untouched
    sync.resolve(google.backend(sid), turn=1)
    titles = [s["properties"]["title"] for s in google.emu.dump(sid)["sheets"]]
    assert not [t for t in titles if t.startswith(gsheets.STAGE_PREFIX)]
    assert meta(google.backend(sid).read())["Открытый ход"] == 2


def test_a_replace_writes_only_what_changed_and_clears_what_it_no_longer_covers(google: GoogleEnv) -> None:
    sid = google.campaign("small", orders=False)
    backend = google.backend(sid)
    tables = backend.read()
    states = tables["Государства"]
    new: Grid = [list(r) for r in states[:3]]
    new[2] = [*new[2][:3], "другое"]
    backend.write(Changeset(replace=[ReplaceTab("Государства", new)]))
    after = google.backend(sid).read()["Государства"]
    assert normal({"t": after}) == normal({"t": new})


def test_unchanged_cells_between_changes_are_not_sent_again(google: GoogleEnv) -> None:
    """A row whose first and last columns change around a long unchanged text is written as two
    rectangles (the text is not sent again); the sheet still ends up exactly as asked."""
    sid = google.campaign("small", orders=False)
    backend = google.backend(sid)
    tables = backend.read()
    states = tables["Государства"]
    techs = states[0].index("Технологии")
    new: Grid = [list(r) for r in states]
    for row in new[1:]:
        row[4] = int(row[4] or 0) + 1  # stability
        row[techs + 3] = 7  # a column right of the long technology list
    info = backend.books[sid].sheets["Государства"]
    pieces = gsheets._replace_pieces(info.sheet_id, states, new, info)
    assert len(pieces) == 2
    assert all(not (c0 <= techs < c1) for _r0, c0, _r1, c1 in (p.rect for p in pieces))
    backend.write(Changeset(replace=[ReplaceTab("Государства", new)]))
    after = google.backend(sid).read()["Государства"]
    assert normal({"t": after}) == normal({"t": new})


# ---------------------------------------------------------------- a 1,000-state campaign


def _scale_spec(spec: WorkbookSpec, n: int) -> WorkbookSpec:
    """The spec with one order in the first ``n`` order tabs (so check has statuses to write).

    Its dropdowns are left out: the emulator stores a dropdown rule in every cell and deep-copies
    the whole spreadsheet on each batchUpdate, so 800 order tabs × 120 dropdown cells would make
    every request of this test four times slower -- without changing a single request count.
    """
    tabs: list[TabSpec] = []
    seen = 0
    for tab in spec.tabs:
        if tab.kind == "orders":
            rows = [list(r) for r in tab.rows]
            if seen < n:
                rows[1][0] = "Стабильность"
                seen += 1
            tab = dataclasses.replace(tab, rows=rows, validations=())
        tabs.append(tab)
    return dataclasses.replace(spec, tabs=tabs)  # keeps the campaign id and the secret


@pytest.mark.slow  # run first: a long pole (tests/conftest.py)
def test_a_thousand_states_still_cost_one_read_and_one_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1,000 states (800 order tabs): check and resolve are each exactly 1 read + 1 write.  The
    resolve's new rows (ledger, chronicle, balance, history, notes) would be ~2.7 MB as plain
    cells; with runs as repeatCell and numbers as pasted text they fit one request under 2 MB, and
    the numbers land as numbers: every state's treasury in the balance equals «Государства»."""
    spec = _scale_spec(ruleset.new_workbook(scenario="generated:1000", secret="s1000"), 5)
    with running_emulator() as emu:
        monkeypatch.setenv("STRATEGOS_GOOGLE_API_BASE", emu.base_url)
        env = GoogleEnv(emu, tmp_path, tmp_path / "gm-bot.json", FakeTime())
        emu.write_credentials(env.sa_key, "gm-bot@strategos-demo.iam.gserviceaccount.com")
        # setup only: one creation batch instead of seven (creation chunking is tested on the demo)
        created = env.create(spec, timeout=(10.0, 300.0), players={}, max_write_bytes=64 * 1024 * 1024)
        secrets.save(spec.campaign_id, spec.secret)  # what `new` does: the dice's secret stays with the GM
        sid = created.spreadsheet_id
        env.reset()
        checked = sync.check(env.backend(sid, timeout=(10.0, 120.0)))
        assert checked.summary["orders"]
        assert env.counts() == {"sheets.get": 1, "sheets.batchUpdate": 1, "drive.files.list": 1}

        sent = _spy_batches(monkeypatch)
        env.reset()
        sync.resolve(env.backend(sid, timeout=(10.0, 120.0)), turn=1)
        assert env.counts() == {"sheets.get": 1, "sheets.batchUpdate": 1, "drive.files.list": 1}
        assert len(sent) == 1 and len(sent[0].body()) <= gsheets.MAX_WRITE_BYTES
        pasted = [r["pasteData"]["data"] for r in sent[0].requests if "pasteData" in r]
        assert any("." in data for data in pasted)  # en_US: fractions are pasted too
        client = env.client(timeout=(10.0, 120.0))
        ranges = ["'Кампания'!A1:B12", "'Баланс'!A:Y", "'Государства'!A:F"]
        answer = gsheets.get_spreadsheet(client, sid, gsheets.MARKER_FIELDS, ranges)
        marker, balance, states = (gsheets._grid_of(s["data"][0]) for s in answer["sheets"])
        assert meta({"Кампания": marker})["Открытый ход"] == 2
        treasury = {r[0]: r[5] for r in states[1:]}
        closing = {r[0]: r[24] for r in balance[1:] if r and str(r[0]).startswith("Г")}
        assert len(closing) == 1000 and closing == treasury
        assert any(isinstance(v, float) for v in closing.values())  # decimals too, pasted as text
