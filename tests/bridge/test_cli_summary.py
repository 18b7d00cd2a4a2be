"""Issues 17 and 18: the CLI's end-of-window summary and closing line are generic across games.

- a game of many resources (civ1 counts five) gets one column per resource, «closing (change)»,
  which fits a 100-column terminal uncut; one or two resources keep the four columns each
  (tests/core/test_ledger.py);
- the summary dict is built by one core builder (engine/core/summary.py) for every game;
- the demo's closing line names the game's own tabs (its summary's "open_tabs") and the window;
- the bridge calls the backends' capabilities directly: `Backend` declares them with defaults.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
from fractions import Fraction

import pytest
import repo_paths
from rich.console import Console

from engine.core import i18n
from engine.core import summary as summaries
from engine.core.cursor import Cursor
from engine.core.ledger import Movement, Resource
from engine.core.orders import OrderResult, Status
from engine.core.tables import Changeset, Tables
from engine.core.turn import TurnReport
from sheets_bridge import sync
from sheets_bridge.base import Backend
from sheets_bridge.cli import closing_line, print_summary
from sheets_bridge.memory import MemoryBackend

ROOT = repo_paths.ROOT
FIVE = (Resource("В", "власть", "power", "В", 0), Resource("м", "монеты", "coins", "м", 0),
        Resource("н", "наука", "science", "н", 0), Resource("мол", "молотки", "hammers", "мол.", 0),
        Resource("ПО", "ПО", "VP", "ПО", 0))
SIDES = ("Вавилон", "Египет", "Персия", "Греция", "Рим")


def _moves(i: int) -> dict[str, Movement]:
    """Side i's movement in each of the five resources: different numbers everywhere, some falling."""
    out = {}
    for k, r in enumerate(FIVE):
        opening = Fraction(10 * (i + 1) + k)
        income, expenses = Fraction((i + k) % 4), Fraction((i * k) % 3)
        out[r.code] = Movement(opening, income, expenses, opening + income - expenses)
    return out


def _report(turn: int = 3) -> TurnReport[None]:
    report: TurnReport[None] = TurnReport(turn, "ru", facts=None)
    report.results = {"a!2": OrderResult(Status.DONE, ""), "a!3": OrderResult(Status.REJECTED, "нет"),
                      "b!2": OrderResult(Status.DONE, "")}
    report.warnings.append("осторожно")
    return report


def _five(mode: str = "resolve") -> dict:
    return summaries.build(mode, "toy", _report(), FIVE,
                           [summaries.SideLine(name, _moves(i)) for i, name in enumerate(SIDES)],
                           cursor="3:города", side_title="Нация")


def _rendered(s: dict, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, record=True, highlight=False)
    print_summary(s, console)
    return console.export_text()


def _cells(text: str) -> list[list[str]]:
    """The table's lines split at its vertical borders, each cell stripped."""
    return [[c.strip() for c in re.split(r"[│┃]", line)[1:-1]] for line in text.splitlines() if re.search("[│┃]", line)]


def _signed(value: Fraction) -> str:
    return f"+{value}" if value > 0 else str(value).replace("-", "\u2212")


def test_i18_a_summary_of_five_resources_fits_100_columns_with_every_title_and_value_uncut() -> None:
    with i18n.using("ru"):
        text = _rendered(_five())
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 100, text
    assert "Разрешён ход 3:города." in text and "осторожно" in text
    cells = _cells(text)
    header = cells[0]
    assert header == ["Нация", "Власть", "Монеты", "Наука", "Молотки", "ПО"], text
    rows = {row[0]: row[1:] for row in cells[1:] if row and row[0] in SIDES}
    assert set(rows) == set(SIDES), text
    for i, name in enumerate(SIDES):
        want = [f"{m.closing} ({_signed(m.closing - m.opening) if m.closing != m.opening else 0})"
                for m in _moves(i).values()]
        assert rows[name] == want, (name, text)
    total = next(row for row in cells if row and row[0] == "Итого")
    for k, r in enumerate(FIVE):
        opening = sum(_moves(i)[r.code].opening for i in range(len(SIDES)))
        closing = sum(_moves(i)[r.code].closing for i in range(len(SIDES)))
        assert total[k + 1] == f"{closing} ({_signed(closing - opening) if closing != opening else 0})", text
    assert "в скобках — изменение за ход" in text  # the caption says what the brackets hold
    assert "на начало" not in text and "Доход" not in text  # not the four-column layout


def test_i18_the_compact_table_is_english_in_an_english_campaign_and_a_check_has_no_totals() -> None:
    with i18n.using("en"):
        s = summaries.build("check", "toy", TurnReport(1, "en", facts=None), FIVE,
                            [summaries.SideLine(name, _moves(i)) for i, name in enumerate(SIDES)])
        text = _rendered(s)
    cells = _cells(text)
    assert cells[0] == ["Side", "Power", "Coins", "Science", "Hammers", "VP"], text
    assert "the change over the turn in brackets" in text and "Total" not in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_i18_the_builder_gives_the_keys_the_cli_and_json_read() -> None:
    money = FIVE[1]
    sides = [summaries.SideLine("А", _moves(0), figures={"stability": 2}),
             summaries.SideLine("Б", _moves(1), ai=True, figures={"stability": 0})]
    s = summaries.build("check", "toy", _report(4), FIVE[:2], sides, unit=lambda r: r.unit.upper(), flat=money,
                        columns=[summaries.Column("stability", "Ст")], dice_note="без жребия", open_tabs="листы")
    assert s["mode"] == "check" and s["ruleset"] == "toy" and s["turn"] == 4 and "cursor" not in s
    assert s["orders"] == {"done": 2, "rejected": 1} and s["warnings"] == ["осторожно"]
    assert s["resources"] == [{"code": "В", "name": "власть", "unit": "В"},
                              {"code": "м", "name": "монеты", "unit": "М"}]
    assert s["window"] == "4"  # a one-stage window, in the campaign's words: the turn
    a, b = s["sides"]
    assert a["name"] == "А" and a["ai"] is False and a["stability"] == 2 and b["ai"] is True
    assert a["balances"]["м"] == {"opening": 11.0, "income": 1.0, "expenses": 0.0, "closing": 12.0}
    assert {k: a[k] for k in summaries.FIGURES} == a["balances"]["м"]  # the main resource at the top level too
    assert s["columns"] == [{"key": "stability", "title": "Ст"}]
    assert (s["dice_note"], s["open_tabs"]) == ("без жребия", "листы")
    bare = summaries.build("resolve", "toy", _report(), FIVE[:1], [summaries.SideLine("А", _moves(0))],
                           turn=7, cursor="7:бой", waiting=2)
    assert bare["turn"] == 7 and bare["cursor"] == bare["window"] == "7:бой" and bare["waiting"] == 2
    assert not {"side_title", "columns", "dice_note", "open_tabs"} & set(bare)  # the CLI's generic words then
    assert "opening" not in bare["sides"][0] and bare["resources"] == [{"code": "В", "name": "власть"}]


def test_i24_p6_states_is_the_deprecated_alias_of_sides_and_the_cli_still_reads_it() -> None:
    s = _five()
    assert s["states"] == s["sides"] and [line["name"] for line in s["sides"]] == list(SIDES)
    old = {k: v for k, v in s.items() if k != "sides"}  # a summary of before the rename: "states" only
    with i18n.using("ru"):
        assert _rendered(old) == _rendered(s)
        assert all(name in _rendered(old) for name in SIDES)


def test_i24_p6_the_window_of_a_report_of_a_staged_window_is_its_key_without_the_games_words() -> None:
    report: TurnReport[None] = TurnReport(Cursor(2, "cities"), "ru", facts=None)
    s = summaries.build("resolve", "toy", report, FIVE[:1], [summaries.SideLine("А", _moves(0))])
    assert (s["turn"], s["window"]) == (2, "2:cities")
    worded = summaries.build("resolve", "toy", report, FIVE[:1], [summaries.SideLine("А", _moves(0))],
                             cursor="2:города")
    assert worded["window"] == "2:города"


def test_i18_the_closing_line_names_the_games_tabs_and_the_window() -> None:
    with i18n.using("ru"):
        assert closing_line("d/demo.xlsx", {"turn": 2, "cursor": "2:города", "open_tabs": "листы городов"}) == (
            "Откройте d/demo.xlsx: листы городов показывают итоги хода 2:города.")
        assert closing_line("d/demo.xlsx", {"turn": 1}) == (
            "Откройте d/demo.xlsx: листы кампании показывают итоги хода 1.")
    with i18n.using("en"):
        assert closing_line("d.xlsx", {"turn": 1}) == "Open d.xlsx: the campaign's tabs show the results of turn 1."


@pytest.mark.parametrize("lang, words", [("ru", "Откройте {path}: листы баланса, журнала, казны и приказов показывают "
                                                 "итоги хода 1."),
                                         ("en", "Open {path}: the balance, chronicle, ledger and order tabs show the "
                                                "results of turn 1.")])
def test_i18_the_default_game_keeps_its_closing_line(lang: str, words: str) -> None:
    """The default game's summary names its tabs: the closing line reads as it always did."""
    from engine import rulesets

    game = rulesets.get(rulesets.DEFAULT)
    with i18n.using(lang):
        tables = MemoryBackend.from_spec(game.new_workbook(lang=lang, secret="s" * 32)).read()
        s = game.check(tables, secret="s" * 32).summary
        assert closing_line("demo.xlsx", {**s, "mode": "resolve"}) == words.format(path="demo.xlsx")


class Bare(Backend):
    """A backend with nothing but read and write: every capability is the default."""

    def __init__(self, tables: Tables) -> None:
        self.tables, self.location = tables, "bare"

    def read(self) -> Tables:
        return self.tables

    def write(self, changes: Changeset) -> None:
        raise AssertionError("not written here")


def test_i18_a_backend_without_capabilities_gets_the_defaults() -> None:
    bare = Bare({})
    assert isinstance(sync.exclusive(bare, "check"), contextlib.nullcontext)
    assert bare.tab_ids == {} and bare.private_order_tabs == frozenset() and bare.audit() == []
    assert bare.secret_key() is None and bare.player_books is False
    assert sync._tab_ids(bare) == {} and sync._audit(bare) == []
    assert sync.private_reports(bare, {}, Changeset()) == []


def test_i18_the_bridge_probes_no_backend_with_getattr() -> None:
    """sync.py calls what `Backend` declares: no getattr/hasattr on a backend is left in it."""
    tree = ast.parse((ROOT / "sheets_bridge" / "sync.py").read_text(encoding="utf-8"))
    probes = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and n.func.id in ("getattr", "hasattr") and n.args and ast.unparse(n.args[0]) == "backend"]
    assert not probes, probes
    declared = {n.name for n in ast.walk(ast.parse((ROOT / "sheets_bridge" / "base.py").read_text(encoding="utf-8")))
                if isinstance(n, ast.FunctionDef)}
    assert {"exclusive", "tab_ids", "private_order_tabs", "audit", "secret_key"} <= declared
