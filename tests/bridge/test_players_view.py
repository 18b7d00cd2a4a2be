"""What players look at (issue #8) is the same on .xlsx and Google: the balance sheet's number
formats, conditional highlights, frozen header and state column, the notes that lead from every
total to the ledger lines behind it, and the charts of treasury and stability.

The demo campaign (fixed secret, the sample orders, three resolved turns) is built on both
backends; the Google side is read back through the Sheets API of the emulator.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import openpyxl
import pytest
import test_google_support as support
from test_google_support import GoogleEnv, demo_spec

from engine.core.money import amount
from engine.rulesets.ancient import public, ruleset
from sheets_bridge import gsheets, sync
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

emulator_server = support.emulator_server
google = support.google

LOOK_FIELDS = (
    "sheets(properties(title,gridProperties(frozenRowCount,frozenColumnCount)),conditionalFormats,charts,"
    "data(rowData(values(note,userEnteredValue,userEnteredFormat(numberFormat)))))"
)


def _three_turns(backend_of: Any) -> None:
    backend = backend_of()
    backend.write(ruleset.demo_changes(backend.read()))
    for turn in (1, 2, 3):
        sync.resolve(backend_of(), turn=turn)


@pytest.fixture(scope="module")
def both(emulator_server: support.Shared, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The demo after three turns: the .xlsx workbook and the Google answer for its report tabs."""
    folder = tmp_path_factory.mktemp("look")
    path = folder / "demo.xlsx"
    create_xlsx(demo_spec(), path)
    _three_turns(lambda: XlsxBackend(path))
    mp = pytest.MonkeyPatch()
    try:
        mp.setenv("STRATEGOS_GOOGLE_API_BASE", emulator_server.emu.base_url)
        keys = emulator_server.keys
        env = GoogleEnv(emulator_server.emu, keys, keys / f"{support.SA}.json", support.FakeTime())
        sid = env.create(demo_spec()).spreadsheet_id
        _three_turns(lambda: env.backend(sid))
        answer = gsheets.get_spreadsheet(env.client(), sid, LOOK_FIELDS, ["'Баланс'", "'Графики'"])
    finally:
        mp.undo()
    sheets = {s["properties"]["title"]: s for s in answer["sheets"]}
    return {"xlsx": openpyxl.load_workbook(path), "google": sheets}


def _google_cells(sheet: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    out: dict[tuple[int, int], dict[str, Any]] = {}
    for r, row in enumerate(sheet["data"][0].get("rowData") or [], start=1):
        for c, cell in enumerate((row or {}).get("values") or [], start=1):
            out[(r, c)] = cell
    return out


def test_balance_notes_are_the_same_and_explain_every_total(both: dict[str, Any]) -> None:
    """Every income and expense total carries a note listing the ledger lines behind it (ANC-MONEY-02:
    every coin has a ledger line), which add up to the row's numbers; the notes on Google are the
    .xlsx comments, word for word."""
    ws = both["xlsx"]["Баланс"]
    xlsx_notes = {(c.row, c.column): c.comment.text for row in ws.iter_rows() for c in row if c.comment}
    google_notes = {rc: cell["note"] for rc, cell in _google_cells(both["google"]["Баланс"]).items() if "note" in cell}
    assert google_notes == xlsx_notes
    states = [ws.cell(row=r, column=1).value for r in range(2, ws.max_row + 1)]
    assert states.index("Итого") == 26
    explained = 0
    for r in range(2, 28):
        row = [ws.cell(row=r, column=c).value for c in range(1, public.WIDTH + 1)]
        income = sum((amount(v) for v in row[public.C_INC0 - 1 : public.C_INC_TOTAL - 1] if v), Fraction(0))
        spent = sum((amount(v) for v in row[public.C_EXP0 - 1 : public.C_EXP_TOTAL - 1] if v), Fraction(0))
        assert abs(amount(row[1]) + income - spent - amount(row[public.C_CLOSE - 1])) < Fraction(1, 100), row[0]
        for col, total in ((public.C_INC_TOTAL, income), (public.C_EXP_TOTAL, spent)):
            listed = xlsx_notes.get((r, col), "")
            assert bool(listed) == bool(total), (row[0], col, listed)
            lines = sum((abs(_line_amount(line)) for line in listed.splitlines()), Fraction(0))
            assert abs(lines - total) < Fraction(len(listed.splitlines()) + 1, 100), (row[0], listed)
            explained += bool(listed)
    assert explained >= 40


def _line_amount(line: str) -> Fraction:
    """«налоги: +12,5 Д — …» -> 12.5."""
    return amount(line.split(": ", 1)[1].split(" Д")[0])


def test_highlights_frozen_panes_and_number_formats_match(both: dict[str, Any]) -> None:
    ws = both["xlsx"]["Баланс"]
    sheet = both["google"]["Баланс"]
    xlsx_rules = sorted(
        (str(rng.sqref), "=" + rule.formula[0], rule.dxf.fill.fgColor.rgb[-6:])
        for rng in ws.conditional_formatting
        for rule in rng.rules
    )
    google_rules = []
    for rule in sheet["conditionalFormats"]:
        (grid,) = rule["ranges"]
        first = f"{gsheets._a1_column(grid['startColumnIndex'])}{grid['startRowIndex'] + 1}"
        last = f"{gsheets._a1_column(grid['endColumnIndex'] - 1)}{grid['endRowIndex']}"
        cond = rule["booleanRule"]["condition"]
        assert cond["type"] == "CUSTOM_FORMULA"
        rgb = rule["booleanRule"]["format"]["backgroundColorStyle"]["rgbColor"]
        color = "".join(f"{round(rgb.get(k, 0) * 255):02X}" for k in ("red", "green", "blue"))
        google_rules.append((f"{first}:{last}", cond["values"][0]["userEnteredValue"], color))
    assert sorted(google_rules) == xlsx_rules
    assert len(google_rules) == 4  # deficit, expenses above income, falling stability, growth
    grid = sheet["properties"]["gridProperties"]
    assert (grid.get("frozenRowCount"), grid.get("frozenColumnCount")) == (1, 1)
    assert ws.freeze_panes == "B2"
    cells = _google_cells(sheet)
    for c in (public.C_OPEN, public.C_CLOSE, public.C_ST):
        pattern = cells[(2, c)]["userEnteredFormat"]["numberFormat"]["pattern"]
        assert pattern == ws.cell(row=2, column=c).number_format == public.number_formats()[c]
    total_row = max(r for (r, _c), cell in cells.items() if "userEnteredValue" in cell)
    assert cells[(total_row, 1)]["userEnteredValue"]["stringValue"] == "Итого"
    assert cells[(total_row, public.C_CLOSE)]["userEnteredValue"]["formulaValue"].startswith("=SUM(")


def test_the_charts_are_the_same_on_both(both: dict[str, Any]) -> None:
    """Issue 16 point 8: a treasury and a stability chart per group of played states on both backends
    (scatter charts with lines, a marker on every point), the groups together cover every played
    state, each once."""
    ws = both["xlsx"]["Графики"]
    charts = both["google"]["Графики"]["charts"]
    xlsx_titles = [c.title.tx.rich.p[0].r[0].t for c in ws._charts]
    google_titles = [c["spec"]["title"] for c in charts]
    assert google_titles == xlsx_titles == ["Казна по ходам (1/2)", "Стабильность по ходам (1/2)",
                                            "Казна по ходам (2/2)", "Стабильность по ходам (2/2)"]
    header = [c.value for c in ws[1]]
    for kind in (0, 1):  # treasury, stability
        charted: list[str] = []
        for xc, gc in list(zip(ws._charts, charts))[kind::2]:
            basic = gc["spec"]["basicChart"]
            assert basic["chartType"] == "SCATTER" and xc.tagname == "scatterChart"
            assert len(basic["series"]) == len(xc.series) <= public.CHART_STATES
            assert basic["headerCount"] == 1
            for gs, xs in zip(basic["series"], xc.series):
                col = gs["series"]["sourceRange"]["sources"][0]["startColumnIndex"]
                assert xs.tx.strRef.f.split("!")[1].replace("$", "").rstrip("0123456789") == gsheets._a1_column(col)
                assert gs["pointStyle"]["shape"] == "CIRCLE" and xs.marker.symbol == "circle"
                charted.append(header[col])
        assert sorted(charted) == sorted(header[1:]) == sorted(public.chart_states(_demo_world()))
    cells = _google_cells(both["google"]["Графики"])
    assert [cells[(r, 1)]["userEnteredValue"]["numberValue"] for r in (2, 3, 4)] == [1, 2, 3]


def _demo_world() -> Any:
    from engine.rulesets.ancient.templates import load_scenario

    return ruleset.campaign_from_scenario(load_scenario("demo"), "demo", "ru", "x")


def test_a_chart_tab_of_a_campaign_made_on_google_is_wide_enough(google: GoogleEnv) -> None:
    """The charts' anchor column is inside the grid Google creates (else addChart is refused)."""
    spec = demo_spec()
    tab = spec.tab("Графики")
    assert gsheets._spec_width(tab) >= max(gsheets.a1_to_rowcol(c.anchor)[1] for c in tab.charts)
    created = google.create(spec)
    answer = gsheets.get_spreadsheet(google.client(), created.spreadsheet_id, "sheets(properties,charts)",
                                     ["'Графики'"])
    assert len(answer["sheets"][0]["charts"]) == 4  # two groups of played states, two charts each
