"""Issue 24, point 5: history that scales.

A check or a resolve reads and writes as much after 25 windows as after 12: a snapshot keeps no
history, a log keeps its last `logs.KEEP` windows (the older rows ride in the history row of the
window that moved them out, in the same write), and the history's chunks live where the ordinary
read does not go (.xlsx: files beside the campaign; Google: the notes of its cells).  History,
rollback, verify and report still see every window; an old campaign (snapshots in the cells of
«_История») keeps working and moves them out with its next write; no player's book holds any of it.

The long campaigns are played in memory with civ1's sample orders (scripts/bench_history.py) and
put onto a real backend, where one real check and resolve are measured (by sizes, never by time).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import repo_paths
import test_google_support as support
from test_google_support import GoogleEnv

from engine import rulesets
from engine.core import history, logs
from engine.core.cursor import from_key
from engine.core.tables import Changeset, Tables, WriteBlock, trim
from sheets_bridge import gsheets, store_rows, sync, timeline, xlsx_store
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

sys.path.insert(0, str(repo_paths.ROOT / "scripts"))
import bench_history as bench

emulator_server = support.emulator_server
google = support.google
GAME = "civ1"
SHORT, LONG = 12, 25  # both past logs.KEEP windows: the logs hold as many windows in each


@pytest.fixture(scope="module")
def played() -> dict[int, Tables]:
    """The civ1 demo after SHORT and after LONG windows (played in memory, resolved by the bridge)."""
    return bench.played(GAME, [SHORT, LONG])


def _on_xlsx(tables: Tables, folder: Path) -> Path:
    """`tables` as an .xlsx campaign in `folder` (the store tabs' chunks go to files beside it)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "campaign.xlsx"
    create_xlsx(bench.spec_of(GAME), str(path))
    rules = rulesets.get(GAME)
    for changes in bench._content(tables):
        backend = XlsxBackend(path)
        backend.read()
        backend.write(bench._declared(rules, tables, changes))
    return path


# ------------------------------------------------------------------ the layout, in memory


def test_a_log_keeps_its_last_windows_and_the_older_rows_ride_in_the_history(played: dict[int, Tables]) -> None:
    tables = played[LONG]
    kept = history.entries(tables)
    assert len(kept) == LONG
    for tab in ("Журнал", "Ресурсы"):
        labels = list(dict.fromkeys(r[0] for r in tables[tab][1:]))
        assert len(labels) == logs.KEEP, (tab, labels)  # the last windows, no more
    moved = [e.cursor for e in kept if e.moved()]
    assert moved == [e.cursor for e in kept][logs.KEEP : LONG]  # from the window past KEEP on, each moves rows
    whole = logs.expanded(tables)
    chronicle = list(dict.fromkeys(r[0] for r in whole["Журнал"][1:]))
    assert len(chronicle) == LONG and chronicle[0] == "1:государство"  # every window, in order
    snapshot = history.entries(tables)[-1].tables()
    assert not any(history.is_store(t) or t == history.MOVED for t in snapshot)  # nor the history, nor moved rows


def test_a_snapshot_does_not_grow_with_the_windows(played: dict[int, Tables]) -> None:
    short, long = (history.entries(played[w])[-1].size for w in (SHORT, LONG))
    assert long <= short * 1.1, (short, long)


def test_excess_counts_the_runs_of_a_window_label() -> None:
    grid = [["Окно", "Строка"], [1, "a"], [1, "b"], [None, "c"], [2, "d"], [3, "e"], [3, "f"]]
    assert logs.excess(grid, 3) == 0
    assert logs.excess(grid, 2) == 3  # window 1's three rows (the blank label is window 1's)
    assert logs.excess(grid, 1) == 4


# ------------------------------------------------------------------ .xlsx


def _cells(grid: Any) -> list[list[Any]]:
    """A grid as a workbook keeps it: an empty text is an empty cell (the campaign was played in memory)."""
    return trim([[None if v == "" else v for v in row] for row in grid or []])


def _chunk_cells(ws: Any) -> int:
    """Cells right of the index (column D on) below the header: chunks kept in the workbook."""
    return sum(1 for row in ws.iter_rows(min_row=2, min_col=4) for c in row if c.value is not None)


def test_xlsx_check_and_resolve_read_and_write_as_much_at_window_25_as_at_12(
    played: dict[int, Tables], tmp_path: Path
) -> None:
    figures = {w: bench.on_xlsx(GAME, played[w], tmp_path / f"w{w}") for w in (SHORT, LONG)}
    for command in ("check", "resolve"):
        for key in ("read_bytes", "written_bytes"):
            short, long = figures[SHORT][command][key], figures[LONG][command][key]
            assert long <= short * 1.1, (command, key, short, long)
    assert figures[LONG]["cells"] <= figures[SHORT]["cells"] * 1.1
    # the workbook keeps the index of the store tabs only; the chunks are files beside it
    wb = openpyxl.load_workbook(tmp_path / f"w{LONG}" / "campaign.xlsx")
    assert not _chunk_cells(wb["_История"])
    assert wb["_История"].max_row == LONG + 2  # the header, the windows played, the one resolved
    files = sorted(xlsx_store.folder(tmp_path / f"w{LONG}" / "campaign.xlsx").glob("*.txt"))
    assert len([f for f in files if f.name.startswith("snapshot-")]) == LONG + 1


def test_xlsx_history_verify_rollback_and_report_of_archived_windows(
    played: dict[int, Tables], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _on_xlsx(played[LONG], tmp_path / "c")
    assert len(timeline.list_turns(XlsxBackend(path))) == LONG
    for window in ("1:государство", "2:города", "12:города"):  # rows archived long ago, and the last window
        verdict = timeline.verify(XlsxBackend(path), window)
        assert verdict.ok, verdict.message
    # a moved row changed in its file is caught: the snapshot's sha256 no longer matches
    line = XlsxBackend(path).read()["_История"][logs.KEEP + 1]  # the first window that moved rows out
    target = xlsx_store.file_of(path, "_История", line[0], str(line[1]))
    good = target.read_text(encoding="ascii")
    target.write_text(good[:-8] + "AAAAAAA=", encoding="ascii")
    with pytest.raises(Exception, match="повреждён"):
        timeline.verify(XlsxBackend(path), "2:государство")
    target.write_text(good, encoding="ascii")
    # a rollback to a window whose log rows are archived gives the campaign back as it was then
    at = from_key("8:cities")  # the 16th window: the windows from the 11th on moved log rows out
    full = sync.read_all(XlsxBackend(path))
    then = logs.expanded(full, history.entry(full, at).tables(), at)
    timeline.rollback(XlsxBackend(path), "8:города")
    now = logs.expanded(sync.read_all(XlsxBackend(path)))
    differ = [t for t in then if not history.is_store(t) and t != "Кампания" and _cells(then[t]) != _cells(now.get(t))]
    assert not differ
    assert len(history.entries(XlsxBackend(path).read())) == 15  # cut, and the rows its windows moved with it
    sync.resolve(XlsxBackend(path))
    assert timeline.verify(XlsxBackend(path), "8:города").ok
    assert timeline.verify(XlsxBackend(path), "2:города").ok
    capsys.readouterr()
    assert main(["report", str(path), "--turn", "2", "--format", "bbcode", "--out", str(tmp_path / "p.txt")]) == 0


def test_xlsx_an_old_campaign_with_snapshots_in_its_cells_keeps_working_and_moves_them_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Made before the files: «_История» holds every snapshot in its cells and no log is archived."""
    old = bench.played(GAME, [3])[3]
    assert not any(e.moved() for e in history.entries(old))
    with monkeypatch.context() as m:
        m.setattr(store_rows, "lift", lambda changes, size=None: (changes, []))  # the old writer
        path = _on_xlsx(old, tmp_path / "old")
    assert _chunk_cells(openpyxl.load_workbook(path)["_История"])  # chunks in the cells, as before
    assert not xlsx_store.folder(path).exists()
    assert [t["cursor"] for t in timeline.list_turns(XlsxBackend(path))] == ["1:государство", "1:города",
                                                                            "2:государство"]
    assert timeline.verify(XlsxBackend(path), "1:государство").ok
    assert timeline.verify(XlsxBackend(path), "2:государство").ok
    sync.resolve(XlsxBackend(path))  # the next write moves the old snapshots out of the cells
    assert not _chunk_cells(openpyxl.load_workbook(path)["_История"])
    assert len(list(xlsx_store.folder(path).glob("snapshot-*.txt"))) == 4
    assert timeline.verify(XlsxBackend(path), "1:государство").ok
    timeline.rollback(XlsxBackend(path), "1:города")
    assert [t["cursor"] for t in timeline.list_turns(XlsxBackend(path))] == ["1:государство"]
    sync.resolve(XlsxBackend(path))
    assert timeline.verify(XlsxBackend(path), "1:города").ok


def test_xlsx_no_players_book_holds_the_history(played: dict[int, Tables], tmp_path: Path) -> None:
    path = _on_xlsx(played[LONG], tmp_path / "c")
    sync.resolve(XlsxBackend(path))
    books = sorted([*path.parent.glob("*.public.xlsx"), *path.parent.glob("*.players/*.xlsx")])
    assert len(books) >= 3  # the public book and the players'
    for book in books:
        names = openpyxl.load_workbook(book).sheetnames
        assert not [n for n in names if history.is_store(n)], (book, names)
        assert not book.parent.samefile(xlsx_store.folder(path))
    assert xlsx_store.folder(path).parent == path.parent  # the GM's folder, beside the GM's workbook


# ------------------------------------------------------------------ Google (the emulator)


def _google(google: GoogleEnv, tables: Tables, folder: Path) -> tuple[str, Any]:
    """`tables` as a Google campaign (private orders); its id and what `new` made."""
    spec = bench.spec_of(GAME)
    players = {side: support.P1 if i % 2 else support.P2 for i, side in enumerate(spec.played_sides())}
    made = google.create(spec, players=players, private_orders=True)
    rules = rulesets.get(GAME)
    for changes in bench._content(tables):
        b = google.backend(made.spreadsheet_id)
        b.read()
        b.write(bench._declared(rules, tables, changes))
    b = google.backend(made.spreadsheet_id)
    b.write(rules.demo_changes(b.read()))
    return made.spreadsheet_id, made


def _bytes(google: GoogleEnv) -> tuple[int, int]:
    calls = [r for r in google.emu.stats()["requests"] if r["endpoint"] != "oauth.token"]
    return (sum(r.get("response_bytes", 0) for r in calls if r.get("method") == "GET"),
            sum(r.get("request_bytes", 0) for r in calls if r.get("method") != "GET"))


@pytest.mark.slow
def test_google_resolve_reads_and_writes_as_much_at_window_25_as_at_12_and_history_still_works(
    played: dict[int, Tables], google: GoogleEnv, tmp_path: Path
) -> None:
    sizes = {}
    made: dict[int, tuple[str, Any]] = {}
    for w in (SHORT, LONG):
        made[w] = _google(google, played[w], tmp_path)
        google.reset()
        sync.resolve(google.backend(made[w][0]))
        sizes[w] = _bytes(google)
    for i in (0, 1):
        assert sizes[LONG][i] <= sizes[SHORT][i] * 1.1, sizes
    sid, created = made[LONG]
    seen = google.backend(sid).read()  # the index only, in the cells: the chunks are notes
    assert all(len(r) <= 3 for r in seen["_История"][1:]) and len(seen["_История"]) == LONG + 2
    assert timeline.verify(google.backend(sid), "1:государство").ok  # its rows long archived
    timeline.rollback(google.backend(sid), "3:города")
    sync.resolve(google.backend(sid))
    assert timeline.verify(google.backend(sid), "3:города").ok
    # the store tabs are in the GM's spreadsheet: no player's spreadsheet, nor the public one, has them
    for book in [sid, *created.order_books.values()]:
        titles = {s["properties"]["title"] for s in gsheets.get_spreadsheet(
            google.client(support.SA), book, "sheets(properties(title))")["sheets"]}
        assert not [t for t in titles if history.is_store(t)], (book, titles)
    gm_titles = {s["properties"]["title"] for s in gsheets.get_spreadsheet(
        google.client(support.SA), created.gm_book, "sheets(properties(title))")["sheets"]}
    assert "_История" in gm_titles


def test_a_write_without_a_store_row_is_left_as_it_is() -> None:
    changes = Changeset(blocks=[WriteBlock("Журнал", 2, 1, [["1", "x"]])])
    assert store_rows.lift(changes) == (changes, [])
