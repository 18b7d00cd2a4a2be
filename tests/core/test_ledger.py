"""Issue 17 point 4: a ledger per resource, and posting an entry is the one way a balance changes.

The core part runs on a fake game with two resources (money and grain) and a dict of balances;
the ancient part shows its one shown resource (money) unchanged and, with science added to the
shown resources, the same code paths give a line and columns per resource."""

from __future__ import annotations

import ast
import io
import re
from fractions import Fraction
from types import SimpleNamespace

import pytest
import repo_paths

from engine.core import i18n
from engine.core.cursor import Calendar, Cursor, Stage
from engine.core.ledger import Ledger, LedgerEntry, LedgerError, Resource, movements
from engine.core.money import amount
from engine.core.tables import apply_changes
from engine.core.turn import TurnReport
from engine.rulesets.ancient import codec
from engine.rulesets.ancient import report as report_mod
from engine.rulesets.ancient.demo import sample_orders
from engine.rulesets.ancient.game import RULESET
from engine.rulesets.ancient.public import HISTORY_TAB
from engine.rulesets.ancient.resources import MONEY, RESOURCES, SCIENCE
from engine.rulesets.ancient.scenario import FIXED_SECRET, build_tables, put_orders
from engine.rulesets.ancient.window import preview
from sheets_bridge.cli import _print_summary

ROOT = repo_paths.ROOT
GOLD = Resource("з", "золото", "gold", "з")
GRAIN = Resource("зерно", "зерно", "grain", "меры", decimals=0)


class Book:
    """Accounts of a fake game: a balance per (side, resource code)."""

    def __init__(self, balances: dict[tuple[str, str], Fraction]) -> None:
        self.balances = dict(balances)

    def balance(self, side: str, resource: str) -> Fraction:
        return self.balances[side, resource]

    def set_balance(self, side: str, resource: str, value: Fraction) -> None:
        self.balances[side, resource] = value


def test_a_posting_moves_only_its_side_and_resource_and_is_recorded() -> None:
    book = Book({("А", "з"): Fraction(10), ("А", "зерно"): Fraction(5), ("Б", "з"): Fraction(0),
                 ("Б", "зерно"): Fraction(0)})
    report: TurnReport[None] = TurnReport(turn=3, facts=None)
    report.bind(book)
    report.post(GOLD, "А", "налоги", "налоги", Fraction(7), "подати")
    report.post(GRAIN, "А", "урожай", "урожай", Fraction(-2), "съели")
    report.post(GOLD, "Б", "торговля", "торговля", Fraction(1, 3), "ярмарка", "Приказы — Б!4")
    assert book.balances == {("А", "з"): 17, ("А", "зерно"): 3, ("Б", "з"): Fraction(1, 3), ("Б", "зерно"): 0}
    assert [(e.side, e.resource, e.amount) for e in report.ledger] == [
        ("А", "з", 7), ("А", "зерно", -2), ("Б", "з", Fraction(1, 3))
    ]
    assert report.ledger.entries[-1] == LedgerEntry(3, "Б", "з", "торговля", "торговля", Fraction(1, 3), "ярмарка",
                                                    "Приказы — Б!4")
    assert report.ledger.total("А", "з") == 7 and report.ledger.total("А", "зерно") == -2
    assert [e.amount for e in report.ledger.of("зерно")] == [-2]
    assert report.ledger.by_category(3, "з") == {"А": {"налоги": 7}, "Б": {"торговля": Fraction(1, 3)}}


def test_i24_p6_an_entry_carries_its_window_and_its_side_with_the_old_names_readable() -> None:
    staged = Calendar((Stage("state", "государство", "state"), Stage("cities", "города", "cities")))
    at = staged.cursor(3, "cities")
    book = Book({("А", "з"): Fraction(0)})
    report: TurnReport[None] = TurnReport(at, facts=None)
    assert report.window == at and report.turn == 3
    report.bind(book)
    entry = report.post(GOLD, "А", "налоги", "налоги", Fraction(7), "подати")
    assert (entry.window, entry.side, entry.turn) == ("3:cities", "А", 3)
    assert entry.state == entry.side  # the old spelling reads the same
    assert entry == LedgerEntry(at, "А", "з", "налоги", "налоги", Fraction(7), "подати")  # a Cursor is kept as its key
    assert report.ledger.for_window(at) == [entry] and report.ledger.for_window("3:state") == []
    assert report.ledger.for_turn(3) == [entry]
    assert LedgerEntry(5, "Б", "з", "ф", "с", Fraction(1), "п").window == "5"  # a turn number: a one-stage window
    with pytest.raises(ValueError, match="cursor key"):
        LedgerEntry("города", "Б", "з", "ф", "с", Fraction(1), "п")


def test_i24_p6_a_report_takes_a_turn_or_a_window() -> None:
    by_turn: TurnReport[None] = TurnReport(4, "en", facts=None)
    assert by_turn.window == Cursor(4) and by_turn.turn == 4
    at = Cursor(4, "cities")
    assert TurnReport(4, window=at, facts=None).window == at
    with pytest.raises(ValueError, match="another turn"):
        TurnReport(5, window=at, facts=None)


def test_a_posting_without_accounts_is_refused_and_records_nothing() -> None:
    ledger = Ledger()
    with pytest.raises(LedgerError):
        ledger.post(LedgerEntry(1, "А", "з", "налоги", "налоги", Fraction(1), "подати"))
    assert len(ledger) == 0


def test_movements_per_side_and_resource_close_on_the_postings() -> None:
    start = {("А", "з"): Fraction(10), ("А", "зерно"): Fraction(5), ("Б", "з"): Fraction(2),
             ("Б", "зерно"): Fraction(8)}
    book = Book(start)
    ledger = Ledger(accounts=book)
    for side, res, value in [("А", GOLD, 4), ("А", GOLD, -6), ("А", GRAIN, 3), ("Б", GRAIN, -8)]:
        ledger.post(LedgerEntry(1, side, res.code, "фаза", "статья", Fraction(value), "причина"))
    moved = movements(ledger, book, ["А", "Б"], (GOLD, GRAIN))
    assert moved["А"]["з"].opening == 10 and moved["А"]["з"].income == 4 and moved["А"]["з"].expenses == 6
    assert moved["А"]["з"].closing == 8 and moved["А"]["зерно"].closing == 8 and moved["А"]["зерно"].income == 3
    assert moved["Б"]["з"].opening == moved["Б"]["з"].closing == 2 and moved["Б"]["зерно"].expenses == 8
    for side in ("А", "Б"):
        for res in (GOLD, GRAIN):
            m = moved[side][res.code]
            assert m.opening == start[side, res.code]
            assert m.closing == m.opening + m.income - m.expenses == book.balance(side, res.code)
    assert movements(ledger, book, ["А"], (GOLD,), opening=Book(start))["А"]["з"].opening == 10


def _summary(resources: list[Resource], states: dict[str, dict[str, tuple[float, float, float, float]]]) -> dict:
    return {
        "mode": "resolve", "turn": 2, "orders": {}, "warnings": [],
        "columns": [{"key": "stability", "title": "Ст"}],  # the game's own figure after the resources
        "resources": [{"code": r.code, "name": r.name(i18n.current()), "unit": r.unit} for r in resources],
        "sides": [
            {"name": name, "ai": False, "stability": 1,
             "balances": {code: dict(zip(("opening", "income", "expenses", "closing"), v)) for code, v in b.items()}}
            for name, b in states.items()
        ],
    }


def _printed(summary: dict) -> str:
    out = io.StringIO()
    _print_summary(SimpleNamespace(summary=summary), out)
    return out.getvalue()


def test_the_cli_summary_has_four_columns_per_resource_and_their_totals() -> None:
    text = _printed(_summary([GOLD, GRAIN], {"Альфа": {"з": (10, 4, 6, 8), "зерно": (5, 3, 0, 8)},
                                             "Бета": {"з": (2, 0, 0, 2), "зерно": (8, 0, 8, 0)}}))
    flat = re.sub(r"[\s│┃┏┓┗┛━─┡┩└┘╇╈┼┠┨┯┷╿╽]+", " ", text)
    for title in ("Золото на начало", "Доход: золото", "Расход: золото", "Золото на конец",
                  "Зерно на начало", "Доход: зерно", "Расход: зерно", "Зерно на конец"):
        assert all(word in flat for word in title.split()), (title, text)
    alpha = next(line for line in text.splitlines() if "Альфа" in line)
    assert re.findall(r"\d+", alpha) == ["10", "4", "6", "8", "5", "3", "0", "8", "1"], alpha
    footer = next(line for line in text.splitlines() if "Итого" in line)
    assert re.findall(r"\d+", footer) == ["12", "4", "6", "10", "13", "3", "8", "8"], footer


def test_the_cli_summary_of_one_resource_keeps_the_treasury_titles() -> None:
    with i18n.using("ru"):
        ru = _printed(_summary([MONEY], {"Альфа": {"Д": (10, 4, 6, 8)}}))
    with i18n.using("en"):
        en = _printed(_summary([MONEY], {"Alpha": {"Д": (10, 4, 6, 8)}}))
    head_ru = " ".join(ru.split())
    for title in ("Казна на", "начало", "Доход", "Расход", "конец"):
        assert title in head_ru, ru
    assert "Доход:" not in head_ru and "Income" not in head_ru
    head_en = " ".join(en.split())
    for word in ("Opening", "treasury", "Income", "Expenses", "Closing"):
        assert word in head_en, en


@pytest.fixture(scope="module")
def two_turns() -> tuple[dict, list[dict]]:
    tables = build_tables({"rules": {"parameters": {"events_per_turn": {"value": 5}}}})
    summaries = []
    for _turn in range(2):
        d = codec.decode(tables)
        put_orders(tables, sample_orders(d.campaign, d.rules))
        result = RULESET.resolve(tables, secret=FIXED_SECRET)
        summaries.append(result.summary)
        tables = apply_changes(tables, result.changes)
    return tables, summaries


def _history(tables: dict, turn: int) -> dict[str, list]:
    return {str(r[1]): r for r in tables[HISTORY_TAB["ru"]][1:] if r and r[0] == turn}


def test_the_ancient_summary_lists_money_and_its_balances_match_the_state_row(two_turns) -> None:
    tables, summaries = two_turns
    s = summaries[1]
    assert s["resources"] == [{"code": "Д", "name": "казна", "unit": "Д"}]
    after = _history(tables, 2)
    assert s["states"] == s["sides"]  # the deprecated key, the same lines
    for st in s["sides"]:
        money = st["balances"]["Д"]
        assert {k: st[k] for k in money} == money
        assert money["closing"] == pytest.approx(float(amount(after[st["name"]][2])))
        assert money["closing"] == pytest.approx(money["opening"] + money["income"] - money["expenses"])


def test_the_forum_post_gives_each_shown_resource_its_line(two_turns, monkeypatch) -> None:
    tables, _summaries = two_turns
    before, after = _history(tables, 1), _history(tables, 2)
    one = "\n".join(report_mod.forum_post(tables, 2, "markdown"))
    assert "Наука:" not in one and "очки науки" not in one
    monkeypatch.setattr(report_mod, "SHOWN", (MONEY, SCIENCE))
    both = "\n".join(report_mod.forum_post(tables, 2, "markdown"))
    learnt = 0
    for name in after:
        block = both.split(f"<summary>{name}</summary>", 1)[1].split("</details>", 1)[0]
        for label, col in (("Казна", 2), ("Наука", 8)):
            m = re.search(rf"{label}: (\S+) → (\S+) ", block)
            assert m, (name, label, block)
            assert amount(m.group(1).replace("−", "-")) == amount(before[name][col]), (name, label, block)
            assert amount(m.group(2).replace("−", "-")) == amount(after[name][col]), (name, label, block)
        learnt += any(line.startswith("  ") and line.endswith(" очки науки") for line in block.splitlines())
        money_lines = [line for line in block.splitlines() if line.startswith("  ") and line.endswith(" Д")]
        assert money_lines and money_lines[0] in one  # the money's category lines are as before
    assert learnt  # some state's science moved: its category line is in science points


def test_the_structural_invariant_holds_for_every_ancient_resource(two_turns) -> None:
    tables, _summaries = two_turns
    d = codec.decode(tables)
    put_orders(tables, sample_orders(d.campaign, d.rules))
    d = codec.decode(tables)
    j = preview(tables, secret=FIXED_SECRET)
    world, report = j.world, j.report
    for name in world.states:
        for res in RESOURCES:
            assert world.balance(name, res.code) == d.campaign.balance(name, res.code) + report.ledger.total(
                name, res.code
            ), (name, res.code)
    assert {e.resource for e in report.ledger} == {MONEY.code, SCIENCE.code}


def test_no_ancient_code_changes_a_ledgered_balance_but_through_a_posting() -> None:
    """Outside the model's `set_balance` (which only the ledger calls) and the scenario runner's
    set-up, nothing in the ancient ruleset assigns a treasury or science."""
    allowed = {"model.py", "scenario.py"}
    bad = []
    for path in sorted((ROOT / "engine/rulesets/ancient").rglob("*.py")):
        if path.name in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AugAssign | ast.AnnAssign) else []
            for t in targets:
                if isinstance(t, ast.Attribute) and t.attr in ("treasury", "science"):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad, bad
