"""Issue 16, point 10: small surprises — «Нет действий» beside other orders, the states `new --google
--player` makes played or AI, a date typed into an order cell."""

from __future__ import annotations

import json
import re
from pathlib import Path

import openpyxl
import test_google_support as support
from test_google_support import P1, P2, GoogleEnv, demo_spec

from engine.core import i18n
from engine.core.orders import OrderRow
from engine.core.runner import Given
from engine.core.tables import Cell, Changeset, WriteBlock, column_letter
from engine.rulesets.ancient import orders as om
from engine.rulesets.ancient import ruleset
from engine.rulesets.ancient.facts import new_report
from engine.rulesets.ancient.orderchecks import warn_no_actions_with_orders
from engine.rulesets.ancient.vocab import ORDER_INPUT_FIELDS, ORDER_ROWS, ORDERS
from sheets_bridge import sync
from sheets_bridge.cli import main
from sheets_bridge.google_http import make_client
from sheets_bridge.xlsx import XlsxBackend

emulator_server = support.emulator_server
google = support.google

EGYPT = "Приказы — Египет"
CYRILLIC = re.compile("[А-Яа-яЁё]")


def _put(path: Path, tab: str, row: int, values: list[Cell]) -> None:
    backend = XlsxBackend(path)
    backend.read()
    backend.write(Changeset(blocks=[WriteBlock(tab, row, 1, [values])]))


def test_i16_p10_no_actions_beside_other_orders_is_a_warning(campaign: Path, capsys) -> None:
    _put(campaign, EGYPT, 2, ["Нет действий"])
    _put(campaign, EGYPT, 3, ["Построить", "Порт", "Нижний Египет"])
    _put(campaign, EGYPT, 5, ["Пострить", "Порт", "Нижний Египет"])  # not understood: still an order written
    assert main(["check", str(campaign)]) == 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert "«Приказы — Египет»: «Нет действий» и другие приказы в одном ходу (строки 2, 3, 5)" in text, text


def test_i16_p10_no_actions_alone_is_no_warning(campaign: Path, capsys) -> None:
    _put(campaign, EGYPT, 2, ["Нет действий"])
    assert main(["check", str(campaign)]) == 0
    out = capsys.readouterr()
    assert "Нет действий»" not in out.out + out.err


def test_i16_p10_no_actions_warning_of_an_english_campaign_is_in_english() -> None:
    tab = "Orders — Egypt"
    rows = [OrderRow(tab, 2, "Egypt", {"action": "No actions"}), OrderRow(tab, 4, "Egypt", {"action": "Build"})]
    orders = {"Egypt": [Given(rows[0], om.NoActions(rows[0]))]}  # row 4 could not be read: no order
    report = new_report(1, lang="en")
    with i18n.using("en"):
        warn_no_actions_with_orders([("Egypt", rows)], orders, report)
    assert report.warnings == [
        "«Orders — Egypt»: «No actions» and other orders in one turn (rows 2, 4) — the other orders are "
        "carried out, «No actions» changes nothing"
    ]
    assert not CYRILLIC.search(report.warnings[0])


def test_i16_p10_new_google_names_the_played_the_unplayed_and_the_ai_states(google: GoogleEnv, capsys) -> None:
    argv = ["new", "--google", "--credentials", str(google.sa_key), "--player", f"Египет={P1}", "--player", f"Рим={P2}"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    spec = ruleset.new_workbook("demo", "ru", secret="x")
    played = [t.owner for t in spec.tabs if t.kind == "orders"]
    ai = [n for n in spec.ai_sides]
    assert len(played) > 2 and ai and not set(played) & set(ai)
    assert f"Ходят игроки ({len(played)}): {', '.join(played)}" in out, out
    idle = [s for s in played if s not in ("Египет", "Рим")]
    assert f"из них пока без игрока ({len(idle)}): {', '.join(idle)}" in out, out
    assert f"Ходит программа (ИИ, {len(ai)}): {', '.join(ai)}" in out, out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["played"] == played and data["ai"] == ai and data["without_player"] == idle


def test_i16_p10_new_google_player_for_an_ai_state_says_it_is_ai(google: GoogleEnv, capsys) -> None:
    spec = ruleset.new_workbook("demo", "ru", secret="x")
    ai = spec.ai_sides[0]
    code = main(["new", "--google", "--credentials", str(google.sa_key), "--player", f"{ai}=a@example.com"])
    err = capsys.readouterr().err
    assert code == 2 and f"«{ai}» в этом сценарии ходит программа (ИИ)" in err, err
    assert spec.played_sides()[0] in err
    assert google.counts() == {}  # nothing was created


def test_i16_p10_new_google_in_english_names_the_sides_in_english(google: GoogleEnv, capsys) -> None:
    assert main(["new", "--google", "--lang", "en", "--credentials", str(google.sa_key)]) == 0
    out = capsys.readouterr().out
    assert "Played by players (" in out and "Played by the program (AI, " in out, out


def test_i16_p10_xlsx_order_input_columns_are_text_on_every_row(campaign: Path) -> None:
    ws = openpyxl.load_workbook(campaign)[EGYPT]
    for key in ORDER_INPUT_FIELDS:  # what a player types stays what was typed: «1.2» is no date
        col = column_letter(ORDERS.col(key))
        assert ws.column_dimensions[col].number_format == "@", key
        assert all(ws[f"{col}{r}"].number_format == "@" for r in range(2, ORDER_ROWS + 2)), key
    assert ws[f"{column_letter(ORDERS.col('turn'))}2"].number_format != "@"  # the program's columns are not


def test_i16_p10_date_typed_into_a_google_order_cell_keeps_its_meaning(google: GoogleEnv) -> None:
    spec = demo_spec()
    sid = google.create(spec).spreadsheet_id
    qty = column_letter(ORDERS.col("qty"))
    own = make_client(google.key(P1)).open_by_key(sid).worksheet(EGYPT)
    own.update([["Набрать", "ЛП", "Нижний Египет", None, "1/2/2026"]], f"A2:{qty}2", raw=False)  # as typed
    row = google.backend(sid).read()[EGYPT][1]
    assert row[ORDERS.col("qty") - 1] == "1/2/2026"  # not the serial number of the 2nd of January
    result = sync.check(google.backend(sid))
    reason = str(google.backend(sid).read()[EGYPT][1][ORDERS.col("reason") - 1])
    assert result is not None and "«1/2/2026»" in reason, reason
