"""Sheets that look finished (issue 16, points 7 and 8): headers that wrap in columns wide enough
for their words, reasons that wrap, print setup on the balance and the order tabs, charts with a
marker on every point that follow every played state -- on the .xlsx and in the Google requests.

LibreOffice's print of the balance is checked in tests/bridge/test_libreoffice.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils import get_column_letter

from engine.core.tables import Changeset, WriteBlock
from engine.rulesets.ancient import public, ruleset
from engine.rulesets.ancient.templates import load_scenario
from engine.rulesets.ancient.vocab import ARCHIVE, LEDGER, ORDERS
from sheets_bridge import gsheets, sync
from sheets_bridge.xlsx import XlsxBackend

SPEC = ruleset.new_workbook("demo", secret="looks")


def bold_width(word: str) -> float:
    """A width of a bold word in characters of the body font, independent of engine.core.fit: every
    letter or digit 1.15 wide (bold Cyrillic in DejaVu Sans, the widest usual font), and a
    character of margin."""
    return 1.15 * sum(ch.isalnum() for ch in word) + 1


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> openpyxl.Workbook:
    path = tmp_path_factory.mktemp("looks") / "demo.xlsx"
    sync.create(str(path), scenario="demo", secret="looks")
    return openpyxl.load_workbook(path)


def test_i16_p7_every_header_word_fits_its_column_and_the_header_row_holds_its_lines(book: Any) -> None:
    """«Расход: колонизация» in a column 12 wide was broken into «колонизаци/я»: no header word of
    any tab is wider than its column, and the header row is tall enough for its wrapped lines."""
    for ws in book.worksheets:
        header = [c.value for c in ws[1]]
        for col, title in enumerate(header, start=1):
            if not title:
                continue
            width = ws.column_dimensions[get_column_letter(col)].width
            for word in str(title).split():
                assert width >= bold_width(word), (ws.title, title, word, width)
            assert ws.cell(row=1, column=col).alignment.wrap_text, (ws.title, title)
    balance = book["Баланс"]
    assert balance.row_dimensions[1].height >= 3 * 14  # «Расход: / содержание / войск»
    colonisation = [c.value for c in balance[1]].index("Расход: колонизация") + 1
    assert balance.column_dimensions[get_column_letter(colonisation)].width >= bold_width("колонизация")


def test_i16_p7_google_gets_the_same_widths_and_wrapping(book: Any) -> None:
    """The Google requests of a new tab size every column as the .xlsx does (7 px a character) and
    wrap the header and the reason columns."""
    for name in ("Баланс", "Приказы — Рим", "Государства"):
        ws = book[name]
        requests = gsheets._format_requests(SPEC.tab(name), 7)
        pixels = {r["updateDimensionProperties"]["range"]["startIndex"] + 1:
                  r["updateDimensionProperties"]["properties"]["pixelSize"]
                  for r in requests if "updateDimensionProperties" in r}
        for col, px in pixels.items():
            assert px == int(ws.column_dimensions[get_column_letter(col)].width * 7 + 5), (name, col)
        header = [c.value for c in ws[1]]
        for col, title in enumerate(header, start=1):
            for word in str(title or "").split():
                assert pixels.get(col, 9 * 7 + 5) >= bold_width(word) * 7, (name, title)
    wrapped = {
        r["repeatCell"]["range"]["startColumnIndex"] + 1
        for r in gsheets._format_requests(SPEC.tab("Приказы — Рим"), 7)
        if "repeatCell" in r and r["repeatCell"]["cell"]["userEnteredFormat"].get("wrapStrategy") == "WRAP"
        and r["repeatCell"]["range"]["startRowIndex"] == 1
    }
    assert {ORDERS.col("reason"), ORDERS.col("understood")} <= wrapped


def test_i16_p7_a_long_reason_wraps_even_in_rows_written_later(campaign: Path) -> None:
    """The «Причина» column of an order tab, of the order archive and the ledger's «Основание» wrap:
    the prepared rows and a row the program writes later (its new cell takes the column's look)."""
    backend = XlsxBackend(campaign)
    backend.read()
    reason = "нужно 1 свободных людей в провинции, а там никого: приказ не выполнен; " * 3
    backend.write(Changeset(blocks=[WriteBlock("Приказы — Рим", 80, ORDERS.col("reason"), [[reason]]),
                                    WriteBlock("Архив приказов", 5, ARCHIVE.col("reason"), [[reason]]),
                                    WriteBlock("Казна", 5, LEDGER.col("reason"), [[reason]])]))
    wb = openpyxl.load_workbook(campaign)
    orders = wb["Приказы — Рим"]
    reason_col = get_column_letter(ORDERS.col("reason"))
    assert orders.column_dimensions[reason_col].alignment.wrap_text  # every empty cell of the column
    assert orders[f"{reason_col}80"].alignment.wrap_text
    assert orders.column_dimensions[reason_col].width >= 60
    assert wb["Архив приказов"].cell(row=5, column=ARCHIVE.col("reason")).alignment.wrap_text
    assert wb["Казна"].cell(row=5, column=LEDGER.col("reason")).alignment.wrap_text
    assert not orders.column_dimensions["A"].alignment.wrap_text  # the player's input cells do not
    states = wb["Государства"]  # content wider than MAX_WIDTH (the technologies) wraps where it is
    techs = [c.value for c in states[1]].index("Технологии") + 1
    assert states.cell(row=2, column=techs).alignment.wrap_text


def test_i16_p7_the_balance_and_the_order_tabs_print_landscape_one_page_wide_with_the_header(book: Any) -> None:
    printed = ["Баланс"] + [ws.title for ws in book.worksheets if ws.title.startswith("Приказы — ")]
    assert len(printed) == 18
    for name in printed:
        ws = book[name]
        assert ws.page_setup.orientation == "landscape", name
        assert ws.sheet_properties.pageSetUpPr.fitToPage, name
        assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 0), name
        assert ws.print_title_rows.replace("$", "") == "1:1", name
    assert book["Государства"].page_setup.orientation != "landscape"  # only the tabs asked for


def test_i16_p8_the_workbook_charts_follow_every_played_state_with_markers(book: Any) -> None:
    """Every played state (not only the twelve richest) is drawn, in groups of at most
    CHART_STATES lines; every series has a marker, so a single turn shows as points."""
    world = ruleset.campaign_from_scenario(load_scenario("demo"), "demo", "ru", "x")
    played = sorted(n for n, st in world.states.items() if not st.ai)
    assert len(played) > public.CHART_STATES and "Рим" in played
    ws = book["Графики"]
    header = [c.value for c in ws[1]]
    assert header[1:] == played
    for first in (0, 1):  # treasury charts, stability charts
        drawn: list[str] = []
        for chart in ws._charts[first::2]:
            assert 0 < len(chart.series) <= public.CHART_STATES
            for series in chart.series:
                assert series.marker.symbol == "circle"
                col = series.tx.strRef.f.split("!")[1].replace("$", "").rstrip("0123456789")
                drawn.append(header[openpyxl.utils.column_index_from_string(col) - 1])
        assert sorted(drawn) == played
    google = [gsheets._chart_request(ch, 3) for ch in SPEC.tab("Графики").charts]
    for request in google:
        for series in request["addChart"]["chart"]["spec"]["basicChart"]["series"]:
            assert series["pointStyle"]["size"] > 0 and series["lineStyle"]["width"] > 0


def test_i16_p8_groups_are_even_and_cover_every_state() -> None:
    assert public.chart_groups(17) == [(0, 8), (9, 16)]
    assert public.chart_groups(10) == [(0, 9)]
    assert public.chart_groups(0) == []
    for n in range(1, 60):
        groups = public.chart_groups(n)
        assert [i for a, b in groups for i in range(a, b + 1)] == list(range(n))
        assert max(b - a + 1 for a, b in groups) <= public.CHART_STATES
        assert max(b - a for a, b in groups) - min(b - a for a, b in groups) <= 1
