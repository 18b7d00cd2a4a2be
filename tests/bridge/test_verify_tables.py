"""Issue 15, point 8: verify compares every table the turn wrote, and names a damaged snapshot.

Order statuses, reasons and echoes, «Архив приказов», the public «История» are compared besides
the state tabs (which tabs: read off the re-run's changeset, no list of a game's tabs); a damaged
history snapshot is reported in words naming the turn, the tab and the row.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import rulesets
from engine.core import history
from engine.core.errors import CampaignError
from engine.core.tables import Changeset, Tables, WriteBlock
from sheets_bridge import sync, timeline
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend


@pytest.fixture
def resolved(campaign: Path) -> Path:
    """The demo with its sample orders, turn 1 resolved."""
    backend = XlsxBackend(campaign)
    backend.write(rulesets.get("ancient").demo_changes(backend.read()))
    sync.resolve(XlsxBackend(campaign), turn=1)
    return campaign


def _find(tables: Tables, tab_start: str, text: str) -> tuple[str, int, int]:
    for name, grid in tables.items():
        if name.startswith(tab_start):
            for r, row in enumerate(grid):
                for c, v in enumerate(row):
                    if v == text:
                        return name, r, c
    raise AssertionError(f"no «{text}» in {tab_start}…")


def _edit(path: Path, tab: str, r: int, c: int, value: object) -> None:
    XlsxBackend(path).write(Changeset(blocks=[WriteBlock(tab, r + 1, c + 1, [[value]])]))


def test_i15_p8_a_status_changed_from_rejected_to_done_is_reported(resolved: Path) -> None:
    assert timeline.verify(XlsxBackend(resolved), 1).ok
    tab, r, c = _find(XlsxBackend(resolved).read(), "Приказы — ", "отклонён")
    _edit(resolved, tab, r, c, "выполнен")
    verdict = timeline.verify(XlsxBackend(resolved), 1)
    assert not verdict.ok
    assert f"«{tab}»" in verdict.message and f"ячейка {chr(65 + c)}{r + 1}" in verdict.message
    assert "'отклонён'" in verdict.message and "'выполнен'" in verdict.message


@pytest.mark.parametrize("tab_start", ["Архив приказов", "История"])
def test_i15_p8_the_archive_and_the_public_history_are_compared(resolved: Path, tab_start: str) -> None:
    tables = XlsxBackend(resolved).read()
    name = next(n for n in tables if n.startswith(tab_start))
    r = len(tables[name]) - 1
    c = next(i for i, v in enumerate(tables[name][r]) if isinstance(v, str) and v and i)
    _edit(resolved, name, r, c, "подделка")
    verdict = timeline.verify(XlsxBackend(resolved), 1)
    assert not verdict.ok and f"«{name}»" in verdict.message and "подделка" in verdict.message


def test_i15_p8_next_orders_and_their_check_are_not_a_difference(resolved: Path) -> None:
    backend = XlsxBackend(resolved)
    backend.write(rulesets.get("ancient").demo_changes(backend.read()))
    sync.check(XlsxBackend(resolved))
    assert timeline.verify(XlsxBackend(resolved), 1).ok


def test_i15_p8_a_damaged_snapshot_is_reported_in_words(resolved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    e = history.entries(sync.read_all(XlsxBackend(resolved)))[0]  # its chunks too (beside the campaign)
    _edit(resolved, history.HISTORY_TAB, e.row - 1, 3, "H4sIAAAAAAAA/этоне-base64")
    with pytest.raises(CampaignError, match=r"снимок хода 1 \(лист «_История», строка 2\) повреждён"):
        timeline.verify(XlsxBackend(resolved), 1)
    assert main(["rollback", str(resolved), "--to", "1"]) == 1
    err = capsys.readouterr().err
    assert "снимок хода 1" in err and "Traceback" not in err and "zlib" not in err
    good = e.chunks[0]
    _edit(resolved, history.HISTORY_TAB, e.row - 1, 3, good[:-8] + "AAAAAAAA")  # valid base64, broken gzip
    with pytest.raises(CampaignError, match="снимок хода 1"):
        timeline.verify(XlsxBackend(resolved), 1)
