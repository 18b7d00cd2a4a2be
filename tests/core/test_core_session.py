"""The core's generic session (engine/core/ordertab.py, engine/core/session.py) on a made-up order
tab: not the ancient game's fields, so what these functions do comes from their parameters alone."""

from __future__ import annotations

from engine.core import history, session
from engine.core.cursor import ONE_STAGE, Calendar, Cursor, Stage
from engine.core.orders import OrderResult, OrderRow, Status
from engine.core.ordertab import (
    OrderTab,
    archived_inputs,
    as_checked,
    candidate_rows,
    raw_echo,
    resolved_grid,
    result_cells,
    row_inputs,
    stamped_rows,
    status_of,
    status_strips,
)
from engine.core.tables import Formula, Grid, Tables

FIELDS = ("move", "target", "note")
INPUTS = ("move", "target")  # what the archive keeps; the note stays in the tab
COLS = {"move": 0, "target": 1, "note": 2, "window": 3, "status": 4, "reason": 5, "understood": 6}
HEADER = ["Ход фигуры", "Цель", "Заметка", "Окно", "Статус", "Причина", "Понято как"]
TAB = "Заявки — Синие"
CAL = Calendar((Stage("day", "день", "day"), Stage("night", "ночь", "night", rounds=2)))


def tab(*rows: list[object]) -> OrderTab:
    grid: Grid = [list(HEADER), *[list(r) + [None] * (len(HEADER) - len(r)) for r in rows]]
    return OrderTab(TAB, "Синие", dict(COLS), grid)


def test_order_tab_keeps_a_formula_as_text_and_says_where() -> None:
    ot = tab(["вперёд", Formula("=A1"), None])
    assert ot.cell(2, "target") == "=A1" and ot.cell(2, "move") == "вперёд"
    assert ot.formulas_in(2) == frozenset({"target"}) and ot.formulas_in(3) == frozenset()
    assert ot.cell(9, "move") is None and ot.cell(2, "nosuch") is None
    assert ot.side == ot.state == "Синие"


def test_candidate_rows_are_the_rows_with_input_and_their_stamps() -> None:
    ot = tab(["вперёд", "холм"], [None, None, "только заметка"], [], ["назад", None, None, 3])
    found = candidate_rows(ot, FIELDS, "window", notes=("note",))
    assert [(r.row, stamp) for r, stamp in found] == [(2, None), (5, 3)]
    row = found[0][0]
    assert row.cells == {"move": "вперёд", "target": "холм", "note": None}
    assert row.columns["target"] == "B" and row.state == "Синие" and row.ref == f"{TAB}!2"
    # without `notes` a note alone is an order
    assert [r.row for r, _s in candidate_rows(ot, FIELDS, "window")] == [2, 3, 5]


def test_a_staged_row_carries_its_window_in_its_ref() -> None:
    ot = tab(["вперёд"])
    (row, _stamp), = candidate_rows(ot, FIELDS, "window", cursor="3:night:2")
    assert row.ref == f"{TAB}!2@3:night:2"
    assert OrderRow(TAB, 2, "Синие", {}).ref == f"{TAB}!2"


def test_the_archive_tells_an_untouched_row_from_a_rewritten_one() -> None:
    archive: Grid = [
        ["Окно", "Сторона", "Строка", "Ход фигуры", "Цель"],
        [2, "Синие", 5, "назад", None],
        ["3:ночь:1", "Синие", 6, " в обход ", "лес"],
        [None, "Синие", 7, "x", "y"],  # no stamp: not kept
    ]
    cols = {"window": 0, "side": 1, "row": 2, "move": 3, "target": 4}
    kept = archived_inputs(archive, cols, INPUTS, "window", side_key="side")
    assert kept == {(2, "Синие", 5): ("назад", ""), ("3:ночь:1", "Синие", 6): ("в обход", "лес")}
    ot = tab(*[[]] * 3, ["назад", None, "заметка", 2], ["назад", "холм", None, 2])
    rows = {r.row: r for r, _s in candidate_rows(ot, FIELDS, "window")}
    assert row_inputs(rows[5], INPUTS) == kept[(2, "Синие", 5)]
    assert row_inputs(rows[6], INPUTS) != ("в обход", "лес")
    assert archived_inputs(archive, {k: v for k, v in cols.items() if k != "target"}, INPUTS, "window") == {}


def test_raw_echo_quotes_the_inputs_shortened() -> None:
    ot = tab(["x" * 30, None, "заметка"])
    (row, _s), = candidate_rows(ot, FIELDS, "window")
    assert raw_echo(row, FIELDS, part=10) == f"{'x' * 9}… | заметка"


def test_status_words_read_back_in_either_language() -> None:
    res = OrderResult(Status.DONE, "ок", "ход вперёд")
    assert result_cells(res, "ru") == ("выполнен", "ок", "ход вперёд")
    assert result_cells(res, "en")[0] == "done" and result_cells(None, "ru") == (None, None, None)
    assert status_of("Выполнен") is status_of("done") is Status.DONE and status_of("что-то") is None


def test_status_strips_write_results_and_blank_stale_ones() -> None:
    ot = tab(
        ["вперёд"],  # row 2: this window's order
        [None, None, None, None, "принят", "старое", "старое"],  # row 3: a check's result, input gone
        ["назад", None, None, 1],  # row 4: rewritten after turn 1
        [None, None, None, 1, "выполнен"],  # row 5: resolved history, left alone
    )
    ot.rows = [r for r, _s in candidate_rows(ot, FIELDS, "window")]
    results = {ot.rows[0].ref: OrderResult(Status.ACCEPTED, "", "вперёд"),
               ot.rows[1].ref: OrderResult(Status.REJECTED, "нельзя", "назад")}
    blocks = status_strips(ot, results, "ru", "window")
    assert [(b.row, b.col) for b in blocks] == [(2, 4), (2, 5), (2, 6), (2, 7)]
    window, status, reason, _echo = (b.values for b in blocks)
    assert window == [[None], [None], [None]]  # row 4's old stamp goes
    assert status == [["принят"], [None], ["отклонён"]] and reason == [[""], [None], ["нельзя"]]
    # nothing stamped among the orders: the stamp strip is not sent
    ot2 = tab(["вперёд"])
    ot2.rows = [r for r, _s in candidate_rows(ot2, FIELDS, "window")]
    assert [b.col for b in status_strips(ot2, {}, "en", "window")] == [5, 6, 7]
    assert status_strips(tab([None]), {}, "ru", "window") == []


def test_resolved_grid_stamps_clears_and_archives() -> None:
    ot = tab(
        ["вперёд", "холм", "заметка"],
        [None, None, "другая", None, "принят", "x", "y"],
        ["стоп", None, None, 1, "выполнен", "", "стоп"],  # history of an older campaign
    )
    ot.rows = [candidate_rows(ot, FIELDS, "window")[0][0]]
    results = {ot.rows[0].ref: OrderResult(Status.PARTIAL, "половина", "вперёд на холм")}
    grid, archive = resolved_grid(ot, results, "3:день", "ru", INPUTS, "window")
    assert grid[0] == HEADER
    assert grid[1] == [None, None, "заметка", "3:день", "частично", "половина", "вперёд на холм"]
    assert grid[2] == [None, None, "другая", None, None, None, None]
    assert grid[3] == [None] * 7
    assert archive == [["3:день", "Синие", 2, "вперёд", "холм", "частично", "половина", "вперёд на холм"]]
    _g, wider = resolved_grid(ot, results, 3, "en", INPUTS, "window", archived=FIELDS)
    assert wider == [[3, "Синие", 2, "вперёд", "холм", "заметка", "partial", "половина", "вперёд на холм"]]


def test_append_rows_goes_below_the_last_row_and_over_a_failed_attempt() -> None:
    header: Grid = [["Окно", "Запись"]]
    assert session.append_rows({}, "Журнал", header, []) == []
    (new,) = session.append_rows({}, "Журнал", header, [[1, "a"]])
    assert (new.row, new.values) == (1, [["Окно", "Запись"], [1, "a"]])
    tables: Tables = {"Журнал": [["Окно", "Запись"], [1, "a"], [2, "b"], [None, None]]}
    (more,) = session.append_rows(tables, "Журнал", header, [[3, "c"]])
    assert (more.row, more.values) == (4, [[3, "c"]])
    tables = {"Журнал": [["Окно", "Запись"], [1, "a"], [2, "b"], [2, "c"], [2, "d"]]}
    (again,) = session.append_rows(tables, "Журнал", header, [[2, "B"]])
    assert (again.row, again.values) == (3, [[2, "B"], [None, None], [None, None]])


def test_history_blocks_append_a_snapshot_of_the_window() -> None:
    tables: Tables = {"Поле": [["a", 1]], history.HISTORY_TAB: [history.header()]}
    at = CAL.parse("2:ночь:1")
    (block,) = session.history_blocks(tables, at)
    assert block.tab == history.HISTORY_TAB and block.row == 2
    kept = {**tables, history.HISTORY_TAB: [history.header(), *block.values]}
    (entry,) = history.entries(kept)
    assert entry.cursor == at and entry.tables()["Поле"] == [["a", 1]]
    (plain,) = session.history_blocks(tables, Cursor(4))
    assert plain.values[0][0] == 4


def test_meta_marker_blanks_rows_below_the_new_meta() -> None:
    tables: Tables = {"Кампания": [["k", "v"], ["a", 1], ["b", 2], ["c", 3]]}
    block = session.meta_marker(tables, "Кампания", [["k", "v"], ["a", 2]])
    assert (block.tab, block.row, block.col) == ("Кампания", 1, 1)
    assert block.values == [["k", "v"], ["a", 2], [None, None], [None, None]]
    assert session.meta_marker({}, "Кампания", [["k", "v"]]).values == [["k", "v"]]


def test_advance_walks_the_calendar_and_skips_what_is_refused() -> None:
    assert session.advance(ONE_STAGE, Cursor(3)) == Cursor(4)
    day = CAL.parse("3:день")
    assert session.advance(CAL, day) == CAL.parse("3:ночь:1")
    assert session.advance(CAL, day, skip=lambda c: c.stage == "night") == CAL.parse("4:день")
    assert session.advance(CAL, day, skip=lambda c: True) > day  # a skip refusing all ends


def test_a_stamp_is_the_window_in_the_campaigns_words_and_reads_back() -> None:
    at = CAL.parse("3:night:2")
    assert session.stamp(at, CAL, "ru") == "3:ночь:2" and session.stamp(at, CAL, "en") == "3:night:2"
    assert session.stamp(Cursor(5), ONE_STAGE, "ru") == 5
    assert session.stamp_cursor("3:ночь:2", CAL) == at == session.stamp_cursor("3:night:2", CAL)
    assert session.stamp_cursor(5, ONE_STAGE) == Cursor(5) and session.stamp_cursor(5.0, ONE_STAGE) == Cursor(5)
    for bad in (None, "", True, "3:луна", 5):
        assert session.stamp_cursor(bad, CAL) is None
    assert session.stamp_cursor(0, ONE_STAGE) is None


def test_a_staged_games_stamps_read_back_as_windows() -> None:
    ot = tab(["вперёд", None, None, "3:ночь:1"], ["стоп", None, None, "3:night:2"], ["x", None, None, "3:луна"],
             ["назад"])
    found = stamped_rows(ot, FIELDS, CAL, "window", cursor="3:day")
    assert [(r.row, at) for r, at in found] == [
        (2, CAL.parse("3:ночь:1")), (3, CAL.parse("3:ночь:2")), (4, None), (5, None)]
    assert all(r.ref.endswith("@3:day") for r, _at in found)
    one = tab(["вперёд", None, None, 2])
    assert stamped_rows(one, FIELDS, ONE_STAGE, "window")[0][1] == Cursor(2)
    archive: Grid = [["Окно", "Сторона", "Строка", "Ход фигуры", "Цель"], ["3:ночь:1", "Синие", 2, "вперёд", None],
                     ["3:night:2", "Синие", 3, "стоп", None], ["3:луна", "Синие", 4, "x", None]]
    cols = {"window": 0, "side": 1, "row": 2, "move": 3, "target": 4}
    kept = archived_inputs(archive, cols, INPUTS, "window", side_key="side", calendar=CAL)
    night1, night2 = CAL.parse("3:ночь:1"), CAL.parse("3:ночь:2")
    assert kept == {(night1, "Синие", 2): ("вперёд", ""), (night2, "Синие", 3): ("стоп", "")}


def test_resolve_leaves_the_rows_that_wait_for_a_later_window() -> None:
    ot = tab(["вперёд"], ["в засаду", "лес", None, None, "принят", "", "ждёт ночи"])
    ot.rows = [candidate_rows(ot, FIELDS, "window")[0][0]]
    results = {ot.rows[0].ref: OrderResult(Status.DONE, "", "вперёд")}
    at = CAL.parse("3:день")
    grid, archive = resolved_grid(ot, results, session.stamp(at, CAL, "ru"), "ru", INPUTS, "window", waiting={3})
    assert grid[1][:5] == [None, None, None, "3:день", "выполнен"]
    assert grid[2] == ot.grid[2] and len(archive) == 1
    cleared, _a = resolved_grid(ot, results, "3:день", "ru", INPUTS, "window")
    assert cleared[2] == [None] * 7  # not waiting: cleared as a row of no window


def test_a_check_shows_an_order_that_would_be_done_as_accepted() -> None:
    done = OrderResult(Status.DONE, "построено", "стройка")
    shown = as_checked(done)
    assert (shown.status, shown.reason, shown.understood) == (Status.ACCEPTED, "построено", "стройка")
    assert result_cells(shown, "ru")[0] == "принят" and result_cells(shown, "en")[0] == "accepted"
    assert done.status is Status.DONE  # the resolve's result is not changed in place


def test_a_check_rewords_only_the_reason_of_an_accepted_row_and_keeps_the_other_statuses() -> None:
    def reword(reason: str) -> str:
        return f"при разрешении: {reason}"

    assert as_checked(OrderResult(Status.DONE, "ок", "x"), reword).reason == "при разрешении: ок"
    assert as_checked(OrderResult(Status.DONE, "", "x"), reword).reason == ""  # a blank reason stays blank
    for status in (Status.PARTIAL, Status.REJECTED, Status.ACCEPTED, Status.HISTORY):
        given = OrderResult(status, "почему", "что")
        assert as_checked(given, reword) == given, status
