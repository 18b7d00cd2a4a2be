"""Issue 15 point 4 (Google): merged cells over cells the program writes get a clear message.

Google shows only the first cell of a merge, so a status, a ledger line or the turn marker written
under one would be hidden or lost.  The read asks for each tab's merges (no extra request); a write
that would touch one is refused before anything is sent, naming the tab and the merged range --
as the .xlsx backend does.
"""

from __future__ import annotations

from typing import Any

import pytest
import test_google_support as support
from test_google_support import SA, GoogleEnv, meta, normal

from engine.core.errors import CampaignError
from sheets_bridge import google_http, sync
from sheets_bridge.cli import main

emulator_server = support.emulator_server
google = support.google

ORDERS = "Приказы — Египет"


def _merge(google: GoogleEnv, sid: str, tab: str, r0: int, r1: int, c0: int, c1: int) -> None:
    """Merge a range as a GM would in the browser (0-based, end-exclusive)."""
    client = google.client(SA)
    answer = client.http_client.request(
        "get", f"{google_http.GOOGLE_SHEETS_URL}/{sid}", params={"fields": "sheets(properties(sheetId,title))"}
    ).json()
    sheet_id = next(s["properties"]["sheetId"] for s in answer["sheets"] if s["properties"]["title"] == tab)
    body: dict[str, Any] = {"requests": [{"mergeCells": {"mergeType": "MERGE_ALL", "range": {
        "sheetId": sheet_id, "startRowIndex": r0, "endRowIndex": r1, "startColumnIndex": c0, "endColumnIndex": c1}}}]}
    client.http_client.request("post", f"{google_http.GOOGLE_SHEETS_URL}/{sid}:batchUpdate", json=body)


def test_i15_p4_a_merge_over_the_status_column_is_refused_naming_tab_and_range(google: GoogleEnv) -> None:
    sid = google.campaign()
    _merge(google, sid, ORDERS, 1, 3, 7, 8)  # H2:H3, the status of the first two orders
    before = normal(google.backend(sid).read())
    with pytest.raises(CampaignError) as caught:
        sync.check(google.backend(sid))
    text = str(caught.value)
    assert f"{ORDERS}: объединённые ячейки H2:H3" in text and "ничего не записано" in text
    assert normal(google.backend(sid).read()) == before


def test_i15_p4_resolve_over_a_merged_marker_changes_nothing_and_prints_no_traceback(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    sid = google.campaign()
    tables = google.backend(sid).read()
    row = next(i for i, r in enumerate(tables["Кампания"]) if r and r[0] == "Открытый ход")
    _merge(google, sid, "Кампания", row, row + 1, 1, 3)  # the open turn's value and the cell beside it
    before = normal(google.backend(sid).read())
    code = main(["resolve", sid, "--turn", "1", "--credentials", str(google.key(SA))])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert f"Кампания: объединённые ячейки B{row + 1}:C{row + 1}" in err
    after = google.backend(sid).read()
    assert normal(after) == before and meta(after)["Открытый ход"] == 1


def test_i15_p4_a_merge_where_nothing_is_written_is_left_alone(google: GoogleEnv) -> None:
    sid = google.campaign()
    _merge(google, sid, "Кампания", 0, 2, 6, 8)  # G1:H2, beside the meta table
    sync.resolve(google.backend(sid), turn=1)
    assert meta(google.backend(sid).read())["Открытый ход"] == 2
