"""Issue 15, points 1-3: which turn an order row belongs to, and which tabs are order and log tabs.

Point 1: a row with input is always an order of the open turn (resolve clears the input of the
rows it executes, after archiving it), however it got there: rewritten with or without a check,
twice, copied from another row with its old stamp and echo.  A row left alone is never executed
again.  Points 2 and 3: order and log tabs are found by what the program created, whatever their
titles went through; a tab someone else added is never read as orders and never stops a turn.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import openpyxl
import pytest

from engine.core.errors import CampaignError
from engine.core.tables import Cell, Changeset, Tables, WriteBlock
from engine.rulesets.ancient import codec
from engine.rulesets.ancient.model import Campaign
from sheets_bridge import sync
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend

EGYPT = "Приказы — Египет"
ROME = "Приказы — Рим"
PORT = ["Построить", "Порт", "Нижний Египет"]
NO_ACTIONS = ["Нет действий"]
TURN, STATUS, REASON, UNDERSTOOD = 6, 7, 8, 9  # 0-based columns of an order tab


def _put(path: Path, tab: str, row: int, values: list[Cell], col: int = 1) -> None:
    """A player types ``values`` into ``tab`` from column ``col`` of ``row`` (None clears a cell)."""
    backend = XlsxBackend(path)
    backend.read()
    backend.write(Changeset(blocks=[WriteBlock(tab, row, col, [values])]))


def _row(tables: Tables, tab: str, row: int) -> list[Cell]:
    grid = tables[tab]
    line = list(grid[row - 1]) if row - 1 < len(grid) else []
    return line + [None] * (10 - len(line))


def _world(path: Path) -> Campaign:
    return codec.decode(XlsxBackend(path).read()).campaign


def _archive(tables: Tables, turn: int, state: str) -> list[list[Cell]]:
    return [r for r in tables["Архив приказов"][1:] if r and r[0] == turn and r[1] == state]


def _resolved_turn_1_with(path: Path, values: list[Cell], row: int = 2) -> None:
    _put(path, EGYPT, row, values)
    sync.resolve(XlsxBackend(path), turn=1)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------- point 1: a row's turn


def _assert_port_built_in_turn_2(path: Path, row: int = 2) -> None:
    tables = XlsxBackend(path).read()
    line = _row(tables, EGYPT, row)
    assert line[TURN] == 2 and line[STATUS] == "выполнен", line
    assert "Порт" in str(line[UNDERSTOOD])
    assert "Порт" in _world(path).provinces["Нижний Египет"].buildings
    archived = _archive(tables, 2, "Египет")
    assert [r[2:6] for r in archived] == [[row, *PORT]]
    assert not any("Египет" in str(r[1]) and "Последнее предупреждение" in str(r[1]) for r in tables["Журнал"][1:])


def test_i15_p1_row_rewritten_after_check_is_an_order_of_the_open_turn(campaign: Path) -> None:
    """The issue's case: «Нет действий» resolved in turn 1, the row overwritten, checked, resolved."""
    _resolved_turn_1_with(campaign, NO_ACTIONS)
    _put(campaign, EGYPT, 2, PORT)
    checked = sync.check(XlsxBackend(campaign))
    line = _row(XlsxBackend(campaign).read(), EGYPT, 2)
    assert line[STATUS] == "принят" and line[TURN] is None  # the stale stamp of turn 1 is gone
    assert checked.summary["orders"] == {"accepted": 1}
    sync.resolve(XlsxBackend(campaign), turn=2)
    _assert_port_built_in_turn_2(campaign)


def test_i15_p1_row_rewritten_without_check_is_an_order_of_the_open_turn(campaign: Path) -> None:
    _resolved_turn_1_with(campaign, NO_ACTIONS)
    _put(campaign, EGYPT, 2, PORT)
    sync.resolve(XlsxBackend(campaign), turn=2)
    _assert_port_built_in_turn_2(campaign)


def test_i15_p1_row_rewritten_twice_executes_the_last_text_once(campaign: Path) -> None:
    _resolved_turn_1_with(campaign, NO_ACTIONS)
    _put(campaign, EGYPT, 2, ["Построить", "Храм", "Нижний Египет"])
    sync.check(XlsxBackend(campaign))
    _put(campaign, EGYPT, 2, PORT)
    sync.check(XlsxBackend(campaign))
    sync.resolve(XlsxBackend(campaign), turn=2)
    _assert_port_built_in_turn_2(campaign)
    assert "Храм" not in _world(campaign).provinces["Нижний Египет"].buildings


def test_i15_p1_row_copied_with_an_old_stamp_and_echo_is_an_order_of_the_open_turn(campaign: Path) -> None:
    """A resolved row pasted elsewhere with its stamp, status and echo, and the same order typed
    in: the echo matches what the row parses to, yet it is an order of the open turn."""
    _resolved_turn_1_with(campaign, NO_ACTIONS)
    old = _row(XlsxBackend(campaign).read(), EGYPT, 2)
    assert old[TURN] == 1 and old[STATUS] == "выполнен"
    _put(campaign, EGYPT, 5, [*NO_ACTIONS, None, None, None, None, None, *old[TURN:]])
    result = sync.resolve(XlsxBackend(campaign), turn=2)
    tables = XlsxBackend(campaign).read()
    assert _row(tables, EGYPT, 5)[TURN] == 2 and _row(tables, EGYPT, 5)[STATUS] == "выполнен"
    assert [r[2] for r in _archive(tables, 2, "Египет")] == [5]
    assert result.report.results[f"{EGYPT}!5"].status.value == "done"
    assert _world(campaign).states["Египет"].missed == 0  # the state sent orders


def test_i15_p1_row_left_untouched_is_not_executed_again(campaign: Path) -> None:
    _resolved_turn_1_with(campaign, PORT)
    after_1 = XlsxBackend(campaign).read()
    line = _row(after_1, EGYPT, 2)
    assert line[TURN] == 1 and line[STATUS] == "выполнен" and "Порт" in str(line[UNDERSTOOD])
    assert line[:5] == [None] * 5  # the input went to «Архив приказов»
    assert [r[3:6] for r in _archive(after_1, 1, "Египет")] == [PORT]
    result = sync.resolve(XlsxBackend(campaign), turn=2)
    tables = XlsxBackend(campaign).read()
    assert _row(tables, EGYPT, 2)[TURN:] == [None] * 4  # last turn's results go at the next resolve
    assert not _archive(tables, 2, "Египет")
    assert not [e for e in result.report.ledger if e.state == "Египет" and e.category == "строительство"]


def test_i15_p1_row_cleared_after_check_is_no_order_and_loses_its_status(campaign: Path) -> None:
    _resolved_turn_1_with(campaign, NO_ACTIONS)
    _put(campaign, EGYPT, 3, PORT)
    sync.check(XlsxBackend(campaign))
    assert _row(XlsxBackend(campaign).read(), EGYPT, 3)[STATUS] == "принят"
    _put(campaign, EGYPT, 3, [None, None, None])
    checked = sync.check(XlsxBackend(campaign))
    assert _row(XlsxBackend(campaign).read(), EGYPT, 3)[STATUS:] == [None] * 3  # no «принят» left behind
    assert not any(ref.startswith(EGYPT) for ref in checked.report.results)
    sync.resolve(XlsxBackend(campaign), turn=2)
    assert "Порт" not in _world(campaign).provinces["Нижний Египет"].buildings
    assert not _archive(XlsxBackend(campaign).read(), 2, "Египет")


def test_i15_p1_untouched_row_of_an_older_campaign_is_history_a_rewritten_one_an_order(campaign: Path) -> None:
    """A campaign resolved before this rule keeps the input of executed rows: such a row is history
    only while it still holds what «Архив приказов» kept for it."""
    _resolved_turn_1_with(campaign, PORT)
    _put(campaign, EGYPT, 2, PORT)  # as an older version left it: input, stamp 1, echo
    _put(campaign, EGYPT, 3, ["Построить", "Храм", "Нижний Египет", None, None, None, 1, "выполнен", None,
                              "Построить «Храм» в провинции Нижний Египет"])
    result = sync.resolve(XlsxBackend(campaign), turn=2)
    tables = XlsxBackend(campaign).read()
    assert _row(tables, EGYPT, 2) == [None] * 10  # history: cleared, not executed
    assert _row(tables, EGYPT, 3)[TURN] == 2  # never archived as row 3 of turn 1: an order of turn 2
    assert [r[2] for r in _archive(tables, 2, "Египет")] == [3]
    assert result.report.results[f"{EGYPT}!3"].status.value == "done"


# ---------------------------------------------------------------- points 2, 3: which tabs


def _rename(path: Path, old: str, new: str) -> None:
    wb = openpyxl.load_workbook(path)
    wb[old].title = new
    wb.save(path)


def _delete(path: Path, title: str) -> None:
    wb = openpyxl.load_workbook(path)
    del wb[title]
    wb.save(path)


def _add(path: Path, title: str, rows: list[list[Cell]]) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb.create_sheet(title)
    for line in rows:
        ws.append(line)
    wb.save(path)


HEADER = ["Действие", "Объект", "Где", "Куда", "Кол-во", "Комментарий", "Ход", "Статус", "Причина", "Понято как"]


@pytest.mark.parametrize(
    "title",
    ["Приказы - Египет", "Приказы—Египет", "Приказы — Египет ", "Пpикaзы — Египет", "приказы – египет"],
    ids=["hyphen", "dash-no-spaces", "trailing-space", "latin-look-alikes", "case-en-dash"],
)
def test_i15_p2_renamed_order_tab_is_still_the_states_tab(campaign: Path, title: str, capsys) -> None:
    _rename(campaign, EGYPT, title)
    _put(campaign, title, 2, PORT)
    assert main(["resolve", str(campaign), "--turn", "1"]) == 0, capsys.readouterr().err
    tables = XlsxBackend(campaign).read()
    assert _row(tables, title, 2)[STATUS] == "выполнен"
    assert "Порт" in _world(campaign).provinces["Нижний Египет"].buildings
    assert EGYPT not in tables  # no second, empty tab made beside it


def test_i15_p2_deleted_order_tab_is_a_warning_in_check_and_an_error_in_resolve(campaign: Path, capsys) -> None:
    _delete(campaign, EGYPT)
    assert main(["check", str(campaign)]) == 0
    out = capsys.readouterr().out
    assert "Предупреждение" in out and "«Приказы — Египет»" in out and "Египет" in out
    sha = _sha(campaign)
    assert main(["resolve", str(campaign), "--turn", "1"]) == 1
    err = capsys.readouterr().err
    assert "«Приказы — Египет»" in err and "Ничего не изменено" in err and "Traceback" not in err
    assert _sha(campaign) == sha  # no turn resolved with Egypt silently sending nothing


@pytest.mark.parametrize("log", ["Казна", "Архив приказов", "Журнал"], ids=["ledger", "archive", "chronicle"])
def test_i15_p2_deleted_log_tab_is_recreated_with_a_warning(campaign: Path, log: str, capsys) -> None:
    _delete(campaign, log)
    _put(campaign, EGYPT, 2, PORT)
    assert main(["resolve", str(campaign), "--turn", "1"]) == 0
    out = capsys.readouterr().out
    assert "Предупреждение" in out and f"«{log}»" in out and "создаст его заново" in out
    tables = XlsxBackend(campaign).read()
    assert len([r for r in tables[log][1:] if r and r[0] == 1]) >= 1


def test_i15_p2_renamed_log_tab_keeps_being_written(campaign: Path) -> None:
    _rename(campaign, "Журнал", "Жypнaл ")  # Latin y, a; a trailing space
    sync.resolve(XlsxBackend(campaign), turn=1)
    tables = XlsxBackend(campaign).read()
    assert "Журнал" not in tables
    assert any(r and r[0] == 1 for r in tables["Жypнaл "][1:])


def test_i15_p3_tab_added_for_an_ai_state_is_never_orders(campaign: Path, capsys) -> None:
    """A player adds «Приказы — Кельтиберы» (Celtiberia is under AI) and orders a temple there."""
    _add(campaign, "Приказы — Кельтиберы", [HEADER, ["Построить", "Храм", "Кельтиберия"]])
    before = _world(campaign)
    capital = before.states["Кельтиберы"].capital
    assert main(["resolve", str(campaign), "--turn", "1"]) == 0
    out = capsys.readouterr().out
    assert "«Приказы — Кельтиберы»" in out and "не читаются" in out
    after = _world(campaign)
    assert after.provinces[capital].buildings == before.provinces[capital].buildings
    assert not _archive(XlsxBackend(campaign).read(), 1, "Кельтиберы")


def test_i15_p3_stray_look_alike_tab_beside_the_real_one_blocks_nothing(campaign: Path, capsys) -> None:
    """A stray «Приказы — Рим␠» next to Rome's tab: check and resolve run, Rome's real orders are
    executed, the stray's never, and the GM is told its name."""
    stray = ROME + " "
    _add(campaign, stray, [HEADER, ["Стабильность"]])
    _add(campaign, "Заметки", [["мои заметки"]])
    _put(campaign, ROME, 2, NO_ACTIONS)
    assert main(["check", str(campaign)]) == 0
    out = capsys.readouterr().out
    assert f"«{stray}»" in out and "«Заметки»" in out
    assert main(["resolve", str(campaign), "--turn", "1"]) == 0
    out = capsys.readouterr().out
    assert f"«{stray}»" in out
    tables = XlsxBackend(campaign).read()
    assert _row(tables, ROME, 2)[STATUS] == "выполнен"
    assert _row(tables, stray, 2)[:STATUS + 1] == ["Стабильность", None, None, None, None, None, None, None]
    assert [r[2] for r in _archive(tables, 1, "Рим")] == [2]


def test_i15_p2_two_look_alikes_and_no_exact_title_is_an_error_that_names_both(campaign: Path) -> None:
    _rename(campaign, EGYPT, "Приказы - Египет")
    _add(campaign, "Приказы — Египет ", [HEADER])
    with pytest.raises(CampaignError) as err:
        sync.resolve(XlsxBackend(campaign), turn=1)
    assert "«Приказы - Египет»" in str(err.value) and "«Приказы — Египет »" in str(err.value)


def test_i15_p3_warnings_of_an_english_campaign_are_in_english(tmp_path: Path) -> None:
    path = tmp_path / "en.xlsx"
    sync.create(str(path), scenario="demo", lang="en", secret="test-secret")
    _add(path, "Orders — Rome ", [["Action"], ["Stability"]])
    _delete(path, "Chronicle")
    result = sync.check(XlsxBackend(path))
    text = "\n".join(result.summary["warnings"])
    assert "tab «Orders — Rome » was not created by Strategos" in text
    assert "no tab «Chronicle»" in text
    assert not any("а" <= ch <= "я" for ch in text)
