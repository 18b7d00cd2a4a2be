"""Issue 17, point 8: a second game on the core — «Дуэт» (tests/duo_game/), two stages a turn
(«сбор», «торг»), two resources (gold, grain), side A's grain hidden from side B — played on
.xlsx and on the Google emulator through the real commands: new, check, resolve of both stages,
history, verify of a staged window, rollback to one; and its hidden fact is in no book B can
open (on Google, read as B's own identity: B's spreadsheets whole, hidden tabs included, and a
permission error for the GM's and A's)."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import repo_paths
import test_google_support as support
import yaml
from duo_game import game
from duo_game import scenario as hooks
from duo_game.words import CALENDAR, NAME, orders_tab, report_tab, stock_tab
from test_google_support import GM, P1, P2, GoogleEnv

from engine import rulesets
from engine.core import history, meta, scenario
from engine.core.absence import is_stand_in
from engine.core.audience import PUBLIC, player
from engine.core.cursor import Cursor
from engine.core.errors import TurnMismatch
from engine.core.ruleset import Ruleset, SyncResult, Victory
from engine.core.scenario import Readback
from engine.core.tables import Changeset, Formula, ReplaceTab, Tables, apply_changes
from sheets_bridge import gsheets, xlsx_books
from sheets_bridge.cli import main
from sheets_bridge.google_http import GoogleNotFoundError, GooglePermissionError, make_client
from sheets_bridge.xlsx import XlsxBackend

emulator_server = support.emulator_server
google = support.google

ORDERS = {  # A fills both stages at once: its «продать» row waits for «торг»
    "A": [["сбор", "добыть", "зерно", 6], ["сбор", "добыть", "золото", 4], [None, "продать", "зерно", 30]],
    "B": [["сбор", "добыть", "золото", 7], ["сбор", "добыть", "зерно", 5], ["торг", "продать", "зерно", 20]],
}


@pytest.fixture(autouse=True)
def duo(monkeypatch: pytest.MonkeyPatch) -> Iterator[Ruleset]:
    """The test game in the registry, for this test only."""
    monkeypatch.setitem(rulesets.RULESETS, NAME, "duo_game.game:RULESET")
    yield rulesets.get(NAME)


def _grain(tables: Tables, side: str) -> int:
    return int(next(r[1] for r in tables[stock_tab(side)][1:] if r[0] == "зерно"))


def _open(tables: Tables) -> Cursor:
    return meta.open_cursor(tables, CALENDAR)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 0, (argv, captured.err)
    return captured.out


def test_the_game_is_a_ruleset_with_two_stages_two_resources_and_hidden_information(duo: Ruleset) -> None:
    assert isinstance(duo, Ruleset) and rulesets.get("Дуэт") is duo
    assert [s.ru for s in duo.calendar.stages] == ["сбор", "торг"]
    assert [r.code for r in duo.resources] == ["gold", "grain"] and duo.hidden_information
    spec = duo.new_workbook(secret="s", campaign_id="c")
    by_name = {t.name: t.readers for t in spec.tabs}
    assert by_name[stock_tab("A")] == player("A") and by_name[orders_tab("B")] == player("B")
    assert by_name["Рейтинг"] == PUBLIC and by_name[history.HISTORY_TAB].kind == "gm"


SCENARIOS = sorted((repo_paths.TESTS / "duo_game" / "scenarios").glob("*.yaml"))


def _scenario(name: str) -> dict[str, Any]:
    path = next(p for p in SCENARIOS if p.name.startswith(name))
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_scenarios_play_through_the_core_runner(path: Path, duo: Ruleset) -> None:
    """Each file in the core's format (setup / turns with a window, orders, expect), played by
    `engine.core.scenario.run` with this game's four hooks: both stages, waiting rows, refusals,
    the ledger and the balance of both resources."""
    outcome = scenario.run(duo, yaml.safe_load(path.read_text(encoding="utf-8")))
    assert outcome.failures == [], "\n".join(outcome.failures)


def test_the_corpus_has_both_stages_a_waiting_row_a_refusal_and_both_resources() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in SCENARIOS)
    assert len(SCENARIOS) >= 2
    for needed in ('"1:сбор"', '"1:торг"', "ждёт этапа", "отклонён", "resource: grain", "resource: gold", "error:"):
        assert needed in text, needed


def _edit(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


WRONG: list[tuple[str, str, Callable[[dict[str, Any]], None], str]] = [
    ("grain ledger amount", "DUO-01", _edit(["turns", 1, "expect", "ledger", 0, "amount"], 13), "книге казны"),
    ("gold ledger resource", "DUO-01", _edit(["turns", 2, "expect", "ledger", 4, "resource"], "grain"), "книге казны"),
    ("open window", "DUO-01", _edit(["turns", 1, "expect", "open_turn"], "2:сбор"), "открыт ход 1:торг"),
    ("waiting row", "DUO-01", _edit(["turns", 1, "expect", "orders", "B", 1], {"status": "выполнен"}), "статус"),
    ("stock", "DUO-01", _edit(["turns", 2, "expect", "stocks", "B", "gold"], 21), "у B gold = 20, ожидалось 21"),
    ("unknown key", "DUO-01", _edit(["turns", 0, "expect", "stoks"], {}), "неизвестный ключ ожидания «stoks»"),
    ("refusal reason", "DUO-02", _edit(["turns", 3, "expect", "orders", "B", 0, "reason_contains"], "много"),
     "нет «много»"),
    ("error", "DUO-02", _edit(["turns", 0, "expect", "error"], "уже разрешён"), "ошибка Открыт ход «1:сбор»"),
]


@pytest.mark.parametrize(("label", "name", "edit", "word"), WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_expectation_fails(label: str, name: str, edit: Callable[[dict[str, Any]], None], word: str,
                                   duo: Ruleset) -> None:
    data = copy.deepcopy(_scenario(name))
    edit(data)
    found = scenario.run(duo, data).failures
    assert found, f"a wrong {label} passed"
    assert any(word in f for f in found), found


def test_a_wrong_balance_fails(duo: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    """The balance of each resource is checked: a ledger that lost a grain line no longer adds up."""
    real = hooks.readback

    def lossy(tables: Tables, result: SyncResult) -> Readback:
        back = real(tables, result)
        back.ledger = [e for e in back.ledger if e.category != "пропитание"]
        return back

    monkeypatch.setattr(hooks, "readback", lossy)
    data = _scenario("DUO-01")
    for expect in (t["expect"] for t in data["turns"]):  # the expectations of the lines dropped go too
        expect["ledger"] = [w for w in expect.get("ledger") or [] if w.get("category") != "пропитание"]
    found = scenario.run(duo, data).failures
    assert found == ["ход 3: A: 1219 + -30 ≠ 1188", "ход 3: B: 350 + -5 ≠ 344"], found


def test_the_core_the_bridge_and_the_scripts_name_nothing_of_this_game(duo: Ruleset) -> None:
    """The second game runs on the core as it is: no source of the core, the bridge or the scripts
    (but the first game's own tools, which name that game's tabs) names it, its package or, quoted,
    one of its tabs."""
    import test_core_knows_no_game as scan

    words = {NAME, *duo.aliases, "duo_game"}
    titles = {t.name for t in duo.new_workbook(secret="x" * 32).tabs} - scan.CORE_TABS
    assert {stock_tab("A"), "Рейтинг"} <= titles
    for path in scan.sources():
        if path.relative_to(scan.ROOT).as_posix() in scan.GAME_TOOLS:  # the ancient game's own tools
            continue
        text = path.read_text(encoding="utf-8")
        named = [w for w in words if re.search(rf"(?<![\w.]){re.escape(w)}(?!\w)", text, re.IGNORECASE)]
        named += [t for t in titles if re.search(rf"[\"'«]{re.escape(t)}[\"'»]", text)]
        assert not named, f"{path} names the test game: {named}"


def _fresh(duo: Ruleset) -> Tables:
    spec = duo.new_workbook(secret="s", campaign_id="c")
    return {t.name: [list(r) for r in t.rows] for t in spec.tabs}


def test_a_row_of_a_stage_gone_by_a_stage_that_is_none_or_a_formula_is_refused_in_words(duo: Ruleset) -> None:
    tables = _fresh(duo)
    tables = apply_changes(tables, duo.resolve(tables, secret="s").changes)  # «1:сбор» resolved
    rows = [["сбор", "добыть", "зерно", 2], ["пир", "продать", "зерно", 2], [None, "продать", "зерно", Formula("=1+1")],
            [None, "продать", "золото", 1], [None, "продать", "зерно", "много"], [None, "продать", "зерно", 3]]
    tables = apply_changes(tables, Changeset(blocks=game.order_blocks(tables, {"A": rows})))
    checked = duo.check(tables)
    assert checked.summary["orders"] == {"rejected": 5, "accepted": 1}
    reasons = {ref.split("@")[0]: r.reason for ref, r in checked.report.results.items()}
    tab = orders_tab("A")
    assert reasons[f"{tab}!2"] == "этап «1:сбор» уже разрешён"
    assert reasons[f"{tab}!3"] == "нет этапа «пир»; этапы хода: сбор, торг"
    assert reasons[f"{tab}!4"].startswith(f"в ячейке {tab}!D4 формула")
    assert reasons[f"{tab}!5"] == "на торгу продают только зерно"
    assert reasons[f"{tab}!6"] == "количество — целое больше нуля, а там «много»"
    assert not any(b.tab == stock_tab("A") for b in checked.changes.all_blocks())  # a check writes statuses only
    assert {b.col for b in checked.changes.blocks} == {6, 7, 8}


def test_i24_p6_the_report_and_every_ledger_entry_carry_the_window_and_the_summary_names_it(duo: Ruleset) -> None:
    tables = _fresh(duo)
    first = duo.resolve(tables, secret="s")
    at = CALENDAR.first()
    assert first.report.window == at and first.report.turn == at.turn == 1 and at.stage
    assert first.report.ledger.entries and {e.window for e in first.report.ledger} == {at.key()}
    assert {e.side for e in first.report.ledger} == {"A", "B"}
    assert (first.summary["window"], first.summary["turn"]) == (CALENDAR.format(at), 1)
    tables = apply_changes(tables, first.changes)
    second = duo.resolve(tables, secret="s")
    assert {e.window for e in second.report.ledger} == {CALENDAR.next(at).key()} != {at.key()}
    assert second.summary["window"] == CALENDAR.format(CALENDAR.next(at)) == "1:торг"


def test_the_members_other_helpers_add_audiences_check_at_a_window_victory_and_absence(duo: Ruleset) -> None:
    """Forward members (issue 17's H3, H4 and H5 add them to the Protocol): each real, each able to fail."""
    spec = duo.new_workbook(secret="s", campaign_id="c")
    tables = {t.name: [list(r) for r in t.rows] for t in spec.tabs}
    said = game.tab_audiences({**tables, report_tab("A"): []})
    assert said == {**{t.name: t.readers for t in spec.tabs}, report_tab("A"): player("A")}
    with pytest.raises(TurnMismatch, match="Открыт ход «1:сбор», а просили проверить «1:торг»"):
        duo.check(tables, expect=Cursor(1, "trade", 0, 1))
    assert duo.check(tables, expect=Cursor(1, "gather")).summary["cursor"] == "1:сбор"
    stood = duo.default_orders(tables, "A", Cursor(1, "gather"))
    assert [(is_stand_in(r), r.cells["action"], r.cells["amount"]) for r in stood] == [(True, "добыть", 10)]
    assert duo.default_orders(tables, "A", Cursor(1, "trade", 1)) == []
    assert game.victory(tables) is None
    rows = {"A": [["сбор", "добыть", "золото", 10]], "B": [["сбор", "добыть", "золото", 10]]}
    for _ in range(20):  # ten workers bring at least ten gold a turn: both reach 100 within ten turns
        tables = duo.scenario.orders(tables, rows if meta.open_cursor(tables, CALENDAR).stage == "gather" else {})
        tables = apply_changes(tables, duo.resolve(tables, secret="s").changes)
        if game.victory(tables) is not None:
            break
    won = game.victory(tables)
    gold = {side: _gold(tables, side) for side in ("A", "B")}
    assert won is not None and won.winners == tuple(s for s in ("A", "B") if gold[s] >= game.GOAL)
    assert all(gold[s] < game.GOAL for s in ("A", "B") if s not in won.winners)
    assert isinstance(won, Victory) and duo.victory(tables) == won
    assert hooks.expect_game({"stocks": {"A": {"gold": gold["A"] + 1}}}, tables) == [
        f"у A gold = {gold['A']}, ожидалось {gold['A'] + 1}"]


def _gold(tables: Tables, side: str) -> int:
    return int(next(r[1] for r in tables[stock_tab(side)][1:] if r[0] == "золото"))


# ------------------------------------------------------------------ .xlsx


def _xlsx_values(path: Path) -> tuple[set[str], set[object]]:
    """(sheet names, every cell value) of a workbook, hidden sheets included."""
    wb = openpyxl.load_workbook(path)
    cells = {c.value for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value is not None}
    return set(wb.sheetnames), cells


def test_xlsx_both_stages_history_verify_rollback_and_a_hidden_stock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], duo: Ruleset
) -> None:
    path = tmp_path / "дуэт.xlsx"
    _run(capsys, "new", str(path), "--ruleset", NAME)
    backend = XlsxBackend(path)
    backend.write(Changeset(blocks=game.order_blocks(backend.read(), ORDERS)))
    stocks_a = [_grain(XlsxBackend(path).read(), "A")]

    checked = json.loads(_run(capsys, "check", str(path), "--json"))
    assert checked["cursor"] == "1:сбор" and checked["orders"] == {"accepted": 4} and checked["waiting"] == 2
    tables = XlsxBackend(path).read()
    assert tables[orders_tab("A")][3][4:7] == [None, None, "ждёт этапа «1:торг»"]

    assert main(["resolve", str(path), "--stage", "торг"]) == 1  # the open window is «1:сбор»
    said = capsys.readouterr().err
    assert "Открыт ход «1:сбор», а просили разрешить «1:торг» — он ещё не открыт. Ничего не изменено." in said
    assert main(["resolve", str(path), "--turn", "2"]) == 1
    assert "Открыт ход «1:сбор», а просили разрешить «2» — он ещё не открыт" in capsys.readouterr().err
    printed = _run(capsys, "resolve", str(path), "--turn", "1", "--stage", "сбор")
    # the GM's summary names the window and the game's own side word, and no column of another game
    assert "Разрешён ход 1:сбор." in printed and "Сторона" in printed and "Ст " not in printed, printed
    tables = XlsxBackend(path).read()
    assert _open(tables) == Cursor(1, "trade")
    assert tables[orders_tab("A")][3][:4] == [None, "продать", "зерно", 30]  # the waiting row kept its input
    assert tables[orders_tab("A")][1][4:6] == ["1:сбор", "выполнен"] and tables[orders_tab("A")][1][0] is None
    stocks_a.append(_grain(tables, "A"))
    assert stocks_a[1] > stocks_a[0]
    after_gather = {t: tables[t] for t in (stock_tab("A"), stock_tab("B"), "Рейтинг")}

    resolved = json.loads(_run(capsys, "resolve", str(path), "--stage", "торг", "--json"))
    assert resolved["cursor"] == "1:торг" and resolved["orders"] == {"done": 2}
    tables = XlsxBackend(path).read()
    assert _open(tables) == Cursor(2, "gather")
    stocks_a.append(_grain(tables, "A"))
    assert stocks_a[2] == stocks_a[1] - 30 - 1  # sold 30, ate 1
    gold = {r[1]: r[2] for r in tables["Рейтинг"][1:]}
    sold = [r for r in tables["Книга"][1:] if r[0] == "1:торг" and r[1] == "A" and r[2] == "gold"]
    assert sold and gold["A"] == 5 + sum(r[5] for r in tables["Книга"][1:] if r[1] == "A" and r[2] == "gold")
    after_trade = {t: tables[t] for t in after_gather}

    listed = json.loads(_run(capsys, "history", str(path), "--json"))
    assert [t["cursor"] for t in listed] == ["1:сбор", "1:торг"]
    for window in ("1:сбор", "1:торг"):
        assert json.loads(_run(capsys, "verify", str(path), "--turn", window, "--json"))["ok"] is True

    # the hidden fact: A's grain, at every window, in no book B can open — but in A's own book
    public, book_a, book_b = (xlsx_books.book_path(path, who) for who in (PUBLIC, player("A"), player("B")))
    assert set(tmp_path.rglob("*.xlsx")) == {path, public, book_a, book_b}  # every book there is
    for opened_by_b in (public, book_b):
        names, cells = _xlsx_values(opened_by_b)
        assert not names & {stock_tab("A"), report_tab("A"), orders_tab("A"), "Книга", history.HISTORY_TAB}
        for value in stocks_a:
            assert value not in cells and str(value) not in cells, (opened_by_b, value)
    names_a, cells_a = _xlsx_values(book_a)
    assert {stock_tab("A"), report_tab("A"), orders_tab("A")} <= names_a and stocks_a[2] in cells_a
    assert _xlsx_values(book_b)[0] == {stock_tab("B"), report_tab("B"), orders_tab("B")}

    report_dir = tmp_path / "отчёты"
    _run(capsys, "report", str(path), "--out", str(tmp_path / "пост.txt"), "--players", str(report_dir))
    assert f"- зерно: {stocks_a[2]}" in (report_dir / "A.md").read_text(encoding="utf-8")
    post = (tmp_path / "пост.txt").read_text(encoding="utf-8")
    assert "цена зерна" in post and str(stocks_a[2]) not in post and (tmp_path / "пост.png").exists()

    # verify can fail: a stock changed after the window is caught
    tampered = [list(r) for r in tables[stock_tab("A")]]
    tampered[2][1] = stocks_a[2] + 100
    XlsxBackend(path).write(Changeset(replace=[ReplaceTab(stock_tab("A"), tampered)]))
    assert main(["verify", str(path), "--turn", "1:торг"]) == 1
    assert f"«{stock_tab('A')}»" in capsys.readouterr().out

    _run(capsys, "rollback", str(path), "--to", "1:торг")
    tables = XlsxBackend(path).read()
    assert _open(tables) == Cursor(1, "trade")
    assert {t: tables[t] for t in after_gather} == after_gather
    assert [e.cursor.key() for e in history.entries(tables)] == ["1:gather"]
    assert tables[orders_tab("B")][3][:4] == ["торг", "продать", "зерно", 20]
    _run(capsys, "resolve", str(path), "--stage", "торг")
    tables = XlsxBackend(path).read()
    assert {t: tables[t] for t in after_gather} == after_trade  # the same dice: the seed is the window's


# ------------------------------------------------------------------ Google (the emulator)


def _cell_leaves(answer: dict[str, Any]) -> set[object]:
    """Every value, formula and note of every cell of a spreadsheets.get answer (hidden tabs too)."""
    out: set[object] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif node is not None:
            out.add(node)

    for sheet in answer.get("sheets", []):
        for data in sheet.get("data", []):
            for row in data.get("rowData", []):
                for cell in row.get("values", []):
                    walk({k: cell.get(k) for k in ("userEnteredValue", "effectiveValue", "formattedValue", "note")})
    return out


def _per_spreadsheet(google: GoogleEnv) -> tuple[Counter[str], Counter[str]]:
    """(reads, writes) per spreadsheet id since the last reset."""
    reads: Counter[str] = Counter()
    writes: Counter[str] = Counter()
    for r in support.settled_stats(google.emu)["requests"]:
        sid = r["path"].rsplit("/", 1)[-1].split(":")[0]
        if r["endpoint"] == "sheets.get":
            reads[sid] += 1
        elif r["endpoint"] == "sheets.batchUpdate":
            writes[sid] += 1
    return reads, writes


def test_google_both_stages_through_the_cli_and_b_can_open_nothing_of_a(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    creds = ["--credentials", str(google.sa_key)]
    made = json.loads(_run(capsys, "new", "--google", "--ruleset", NAME, "--gm", GM, "--player", f"A={P1}",
                           "--player", f"B={P2}", *creds, "--json"))
    sid = made["spreadsheet_id"]
    gm_backend = google.backend(sid)
    gm_backend.read()
    books = {tab: home for tab, home in gm_backend.tab_home.items()}
    book_a, book_b = books[orders_tab("A")], books[orders_tab("B")]
    assert books[stock_tab("A")] == book_a and books[stock_tab("B")] == book_b and book_a != book_b
    gm_book = gm_backend.audience_home["gm"]
    every = {sid, gm_book, book_a, book_b}
    assert len(every) == 4 and books[history.HISTORY_TAB] == gm_book

    # each player types their own orders into their own spreadsheet, as themselves
    for side, who, book in (("A", P1, book_a), ("B", P2, book_b)):
        sheet = make_client(google.key(who)).open_by_key(book).worksheet(orders_tab(side))
        sheet.update([[v if v is not None else "" for v in row] for row in ORDERS[side]], "A2:D4")

    checked = json.loads(_run(capsys, "check", sid, *creds, "--json"))
    assert checked["orders"] == {"accepted": 4} and checked["waiting"] == 2
    _run(capsys, "resolve", sid, *creds, "--turn", "1", "--stage", "сбор")
    gathered = google.backend(sid).read()
    assert _open(gathered) == Cursor(1, "trade")
    google.reset()
    _run(capsys, "resolve", sid, *creds, "--stage", "торг")
    reads, writes = _per_spreadsheet(google)
    assert set(reads) == every and set(reads.values()) == {1}  # one read of each spreadsheet
    assert set(writes) == every and set(writes.values()) == {1}  # one write of each: all four changed
    traded = google.backend(sid).read()
    assert _open(traded) == Cursor(2, "gather")
    stocks_a = {1207, _grain(gathered, "A"), _grain(traded, "A")}
    assert len(stocks_a) == 3
    assert [t["cursor"] for t in json.loads(_run(capsys, "history", sid, *creds, "--json"))] == ["1:сбор", "1:торг"]
    for window in ("1:сбор", "1:торг"):
        assert json.loads(_run(capsys, "verify", sid, *creds, "--turn", window, "--json"))["ok"] is True

    # as B: B's own spreadsheet and the public one are readable whole, and hold nothing of A's grain
    client_b = make_client(google.key(P2))
    for closed in (gm_book, book_a):
        with pytest.raises((GoogleNotFoundError, GooglePermissionError)):
            gsheets.get_spreadsheet(client_b, closed, "*")
    for readable in (sid, book_b):
        answer = gsheets.get_spreadsheet(client_b, readable, "*")
        titles = {s["properties"]["title"] for s in answer["sheets"]}
        assert not titles & {stock_tab("A"), report_tab("A"), orders_tab("A"), "Книга", history.HISTORY_TAB}
        text = json.dumps(answer, ensure_ascii=False)
        assert stock_tab("A") not in text and report_tab("A") not in text, readable
        leaves = _cell_leaves(answer)
        for value in stocks_a:
            assert value not in leaves and float(value) not in leaves and str(value) not in leaves, (readable, value)
    own_b = gsheets.get_spreadsheet(client_b, book_b, "*")
    assert _grain(traded, "B") in _cell_leaves(own_b) or float(_grain(traded, "B")) in _cell_leaves(own_b)
    assert f"- зерно: {_grain(traded, 'B')}" in _cell_leaves(own_b)  # B's report, in B's book
    with pytest.raises(GooglePermissionError):  # B reads its stocks but cannot write itself more grain
        client_b.open_by_key(book_b).worksheet(stock_tab("B")).update([[9999]], "B3")
    own_a = _cell_leaves(gsheets.get_spreadsheet(make_client(google.key(P1)), book_a, "*"))
    assert _grain(traded, "A") in own_a or float(_grain(traded, "A")) in own_a  # the check can fail

    _run(capsys, "rollback", sid, *creds, "--to", "1:торг")
    back = google.backend(sid).read()
    assert _open(back) == Cursor(1, "trade") and _grain(back, "A") == _grain(gathered, "A")
    assert [e.cursor.key() for e in history.entries(back)] == ["1:gather"]
    _run(capsys, "resolve", sid, *creds, "--stage", "торг")
    again = google.backend(sid).read()
    assert _grain(again, "A") == _grain(traded, "A") and again["Рейтинг"] == traded["Рейтинг"]
