"""Issue 16, point 9: an order tab's dropdowns — «Объект» offers what the actions take (buildings,
units, technologies, goods, strata, forms of government), «Куда» provinces and states — on every
row of the tab, in .xlsx and in Google (the emulator), one list per column for every action."""

from __future__ import annotations

import csv
import re
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import test_google_support as support
from test_google_support import GoogleEnv, demo_spec
from test_libreoffice import CSV_FILTER, soffice

from engine.core.tables import column_letter
from engine.rulesets.ancient import codec, dropdowns
from engine.rulesets.ancient.vocab import ORDERS, STRATA, STRATA_NAMES
from sheets_bridge import gsheets, sync

emulator_server = support.emulator_server
google = support.google

CYRILLIC = re.compile("[А-Яа-яЁё]")
RANGE = re.compile(r"^=?'(?P<tab>[^']+)'!\$?(?P<col>[A-Z]+)\$?(?P<r0>\d+):\$?[A-Z]+\$?(?P<r1>\d+)$")
FIELDS = "sheets(properties(title,gridProperties(rowCount)),data(rowData(values(dataValidation))))"


def _expected(path: Path, lang: str) -> tuple[set[str], set[str]]:
    """What «Объект» and «Куда» must offer, from the campaign's own rules and world."""
    d = codec.decode(_read(path))
    r, en = d.rules, lang == "en"
    things = {b.name_en if en else b.name_ru for b in r.buildings.values()}
    things |= {u.name_en if en else u.type for u in r.units.values()}
    things |= {t.name_en if en else t.name_ru for t in r.techs.values()}
    things |= {g.name_en if en else g.name_ru for g in r.goods.values()}
    things |= {STRATA_NAMES[s][1] if en else s for s in STRATA}
    things |= {g.name_en if en else g.name_ru for g in r.governments.values()}
    return things, {*d.campaign.provinces, *d.campaign.states}


def _read(path: Path) -> Any:
    from sheets_bridge.xlsx import XlsxBackend

    return XlsxBackend(path).read()


def _listed(wb: openpyxl.Workbook, formula: str) -> list[str]:
    m = RANGE.match(formula)
    assert m, formula
    ws = wb[m["tab"]]
    return [ws[f"{m['col']}{r}"].value for r in range(int(m["r0"]), int(m["r1"]) + 1)]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_i16_p9_xlsx_object_and_to_offer_what_orders_take_on_every_row(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "c.xlsx"
    sync.create(str(path), scenario="demo", lang=lang, secret="s")
    wb = openpyxl.load_workbook(path)
    tab = next(n for n in wb.sheetnames if n.startswith("Приказы — " if lang == "ru" else "Orders — "))
    ws = wb[tab]
    by_col = {str(dv.sqref).split(":")[0].rstrip("0123456789"): dv for dv in ws.data_validations.dataValidation}
    things, places = _expected(path, lang)
    for key in ("action", "object", "where", "to"):
        dv = by_col[column_letter(ORDERS.col(key))]
        assert str(dv.sqref) == f"{column_letter(ORDERS.col(key))}2:{column_letter(ORDERS.col(key))}1048576"
    # «Объект» lists what the row's action takes, and everything for no action or another word
    obj = by_col[column_letter(ORDERS.col("object"))].formula1
    dependent = re.match(r"^IF\(ISNA\(MATCH\(\$A2,.*?\)\),(?P<all>[^,]+),OFFSET\(", obj)
    assert dependent, obj
    objects = _listed(wb, dependent["all"])
    targets = _listed(wb, by_col[column_letter(ORDERS.col("to"))].formula1)
    assert set(objects) == things and len(objects) == len(things)
    assert set(targets) == places and len(targets) == len(places)
    if lang == "en":
        assert not [o for o in objects if CYRILLIC.search(str(o))]
    assert wb[dropdowns.LISTS.tab_name(lang)].sheet_state == "hidden"


def _validations(google: GoogleEnv, sid: str, tab: str) -> tuple[int, dict[tuple[int, int], dict[str, Any]]]:
    answer = gsheets.get_spreadsheet(google.client(), sid, FIELDS, [gsheets.quote_title(tab)])
    sheet = answer["sheets"][0]
    out = {}
    for r, row in enumerate(sheet["data"][0].get("rowData", [])):
        for c, cell in enumerate(row.get("values", [])):
            if cell.get("dataValidation"):
                out[(r + 1, c + 1)] = cell["dataValidation"]
    return sheet["properties"]["gridProperties"]["rowCount"], out


@pytest.mark.parametrize("private", [False, True])
def test_i16_p9_google_object_and_to_offer_what_orders_take_on_every_row(google: GoogleEnv, private: bool) -> None:
    spec = demo_spec()
    created = google.create(spec, private_orders=private)
    tab = next(t for t in spec.tabs if t.kind == "orders")
    sid = created.order_books.get(tab.name, created.spreadsheet_id)
    rows, rules = _validations(google, sid, tab.name)
    lists = spec.tab(dropdowns.LISTS.tab_name("ru")).rows
    objects = [r[0] for r in lists[1:] if r[0]]
    targets = [r[1] for r in lists[1:] if len(r) > 1 and r[1]]
    assert "Храм" in objects and "Рим" in targets and "Лузитания" in targets and "Карфаген" in targets
    assert rows == len(tab.rows)
    for key, wanted in (("object", objects), ("to", targets), ("action", None), ("where", None)):
        col = ORDERS.col(key)
        for r in range(2, rows + 1):
            rule = rules.get((r, col))
            assert rule, (key, r)
            cond = rule["condition"]
            if wanted is None:
                continue
            if private:  # a dropdown cannot read another spreadsheet: the values are listed
                assert cond["type"] == "ONE_OF_LIST" and [v["userEnteredValue"] for v in cond["values"]] == wanted
            else:
                assert cond["type"] == "ONE_OF_RANGE"
                m = RANGE.match(cond["values"][0]["userEnteredValue"])
                assert m and m["tab"] == dropdowns.LISTS.tab_name("ru") and int(m["r1"]) - 1 == len(wanted)


def test_i16_p9_xlsx_object_list_depends_on_the_action_in_libreoffice(tmp_path: Path) -> None:
    """The dependent list's formula, evaluated by LibreOffice Calc for three rows: a list per action,
    the combined list for a row with no action (the same formula the dropdown of «Объект» reads)."""
    path = tmp_path / "c.xlsx"
    sync.create(str(path), scenario="demo", secret="s")
    wb = openpyxl.load_workbook(path)
    ws = wb["Приказы — Египет"]
    obj = column_letter(ORDERS.col("object"))
    formula = next(dv.formula1 for dv in ws.data_validations.dataValidation if str(dv.sqref).startswith(f"{obj}2:"))
    assert "MATCH($A2" in formula
    ws["A2"], ws["A4"] = "Набрать", "Сменить правление"  # row 3: no action
    for r in (2, 3, 4):
        here = formula.replace("$A2", f"$A{r}")
        ws[f"L{r}"] = f"=ROWS({here})"
        ws[f"M{r}"] = f"=INDEX({here},1)"
    wb.save(path)
    out, profile = tmp_path / "csv", tmp_path / "lo-profile"
    proc = subprocess.run(
        [soffice(), f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", CSV_FILTER,
         str(path), "--outdir", str(out)],
        capture_output=True, text=True, timeout=180,
    )
    assert proc.returncode == 0, proc.stderr
    with open(out / "c-Приказы — Египет.csv", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    d = codec.decode(_read(path))
    n_all = len(dropdowns.objects(d.rules, "ru"))
    assert rows[1][11:13] == [str(len(d.rules.units)), "ЛП"], rows[1]
    assert rows[2][11:13] == [str(n_all), dropdowns.objects(d.rules, "ru")[0]], rows[2]
    assert rows[3][11:13] == [str(len(d.rules.governments)), "Деспотия"], rows[3]
