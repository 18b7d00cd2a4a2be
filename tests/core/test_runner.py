"""Issue 24, point 1: the core's window runner (engine/core/runner.py), proved on «Дуэт»'s
`WindowGame` (tests/duo_game/game.py): the ledger audit fails loudly, per-line audiences land in
each side's own log (and nowhere else), the meta's «Ходят» row is read and checked, and a
non-participant's rows wait untouched while its player is told why."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from duo_game import game
from duo_game import rules as duo_rules
from duo_game.words import CALENDAR, NAME, PHASES, orders_tab

from engine import rulesets
from engine.core import meta, runner
from engine.core.audience import GM, player
from engine.core.errors import CampaignError
from engine.core.ruleset import Ruleset
from engine.core.tables import Tables, apply_changes
from engine.core.turn import Phase

SECRET = "s" * 32
ORDERS = {"A": [["сбор", "добыть", "зерно", 6]], "B": [["сбор", "добыть", "золото", 7]]}


@pytest.fixture(autouse=True)
def duo(monkeypatch: pytest.MonkeyPatch) -> Iterator[Ruleset]:
    monkeypatch.setitem(rulesets.RULESETS, NAME, "duo_game.game:RULESET")
    yield rulesets.get(NAME)


def _fresh(duo: Ruleset, orders: dict[str, Any] = ORDERS) -> Tables:
    spec = duo.new_workbook(secret=SECRET, campaign_id="c")
    tables: Tables = {t.name: [list(r) for r in t.rows] for t in spec.tabs}
    return duo.scenario.orders(tables, orders)


class Leaky(game.Duo):
    """«Дуэт» with a phase that moves a balance without a ledger posting: the audit must refuse it."""

    def phases(self, at: Any) -> tuple[Phase[Any], ...]:
        def steal(stocks: Any, orders: Any, dice: Any, rules: Any, report: Any) -> Any:
            stocks.set_balance("B", "gold", stocks.balance("B", "gold") + Fraction(3))
            return stocks

        return (*super().phases(at), Phase("кража", steal))


class Whisper(game.Duo):
    """«Дуэт» whose window tells A a secret line, the GM another and everyone a public one."""

    def after(self, j: runner.Judged[Any, Any]) -> None:
        j.report.tell("шпион видит склады B", to="A")
        j.report.tell("ведущему: проверить B", to=GM)
        j.report.tell("на рынке шумно")


def test_i24_p1_the_audit_refuses_a_balance_moved_without_a_posting(duo: Ruleset) -> None:
    tables = _fresh(duo)
    with pytest.raises(CampaignError, match=r"балансы окна «1:сбор» не сходятся с книгой \(B/gold: "):
        runner.resolve(Leaky(), tables, secret=SECRET)
    with pytest.raises(CampaignError, match="не сходятся с книгой"):
        runner.check(Leaky(), tables)
    j, _changes = runner.resolve(game.Duo(), tables, secret=SECRET)  # the honest game passes the same audit
    assert j.report.ledger.entries


def test_i24_p4_a_line_told_to_a_side_goes_to_its_own_log_only(duo: Ruleset) -> None:
    tables = _fresh(duo)
    _j, changes = runner.resolve(Whisper(), tables, secret=SECRET)
    own = Whisper().side_log("A", "ru").tab
    written = {b.tab: b for b in changes.all_blocks()}
    assert written[own].values == [["Окно", "Запись"], ["1:сбор", "шпион видит склады B"]]  # a new tab: its header
    assert changes.audiences[own] == player("A")
    assert Whisper().side_log("B", "ru").tab not in written  # B was told nothing
    chronicle = [row[1] for row in written["Летопись"].values]
    assert "на рынке шумно" in chronicle and "шпион видит склады B" not in chronicle
    gm = Whisper().gm_log("ru").tab
    assert written[gm].values[1:] == [["1:сбор", "ведущему: проверить B"]] and changes.audiences[gm] == GM
    assert not any("ведущему" in str(v) for b in changes.all_blocks() if b.tab != gm for row in b.values for v in row)
    after = apply_changes(tables, changes)  # the next window's line is appended below, the first one kept
    after = duo.scenario.orders(after, {"B": [["торг", "продать", "зерно", 1]]})
    _j, more = runner.resolve(Whisper(), after, secret=SECRET)
    later = apply_changes(after, more)
    assert [r[:2] for r in later[own][1:]] == [["1:сбор", "шпион видит склады B"], ["1:торг", "шпион видит склады B"]]
    assert duo.tab_audiences(later)[own] == player("A")
    assert duo.tab_audiences(later)[gm] == GM  # though «Дуэт» calls every tab it does not know public


def _with_movers(tables: Tables, movers: str) -> Tables:
    tab = meta.meta_tab(tables)
    assert tab is not None
    return {**tables, tab: meta.put(tables[tab], runner.PARTICIPANTS, movers, "ru")}


def test_i24_p2_a_non_participant_rows_wait_untouched_and_its_player_is_told_why(duo: Ruleset) -> None:
    tables = _with_movers(_fresh(duo), "A")
    j, checked = runner.check(game.Duo(), tables)
    assert j.window.participants == ("A",)
    strips = {(b.tab, b.col): b.values for b in checked.blocks}
    reason_b = strips[(orders_tab("B"), 7)]
    assert reason_b == [["не ваше окно: в «1:сбор» ходит A — строка ждёт вашего окна"]]
    j, changes = runner.resolve(game.Duo(), tables, secret=SECRET)
    written = {r.tab for r in changes.replace} | {b.tab for b in changes.all_blocks()}
    assert orders_tab("B") not in written and orders_tab("A") in written  # B's tab untouched: not written at all
    after = apply_changes(tables, changes)
    assert after[orders_tab("B")] == tables[orders_tab("B")]
    assert {e.state for e in j.report.ledger.entries} == {"A"}  # only the participant acted
    assert not j.stood_in  # a non-participant gets no stand-ins either


def test_i24_p2_the_meta_names_the_movers_and_refuses_an_unknown_side(duo: Ruleset) -> None:
    tables = _with_movers(_fresh(duo), "A, Z")
    with pytest.raises(CampaignError, match="«Ходят» нет такой стороны: Z; стороны: A, B"):
        runner.check(game.Duo(), tables)

    class OnlyB(game.Duo):
        def next_window(self, tables: Tables, j: runner.Judged[Any, Any]) -> runner.Window:
            return dataclasses.replace(super().next_window(tables, j), participants=("B",))

    _j, changes = runner.resolve(OnlyB(), _fresh(duo), secret=SECRET)
    after = apply_changes(_fresh(duo), changes)
    assert meta.text(after, runner.MOVER) == "B"  # one side: «Ходит»
    assert runner.participants(after, ["A", "B"]) == ("B",)
    _j, changes = runner.resolve(game.Duo(), after, secret=SECRET)  # every side again: the row goes
    assert meta.text(apply_changes(after, changes), runner.PARTICIPANTS) == ""


def test_i24_p1_the_progress_bar_counts_this_window_phases(duo: Ruleset) -> None:
    heard: list[str] = []
    duo.check(_fresh(duo), on_phase=heard.append)
    assert heard == list(duo.window_phases(_fresh(duo))) == list(PHASES)
    assert CALENDAR.format(meta.open_cursor(_fresh(duo), CALENDAR)) == "1:сбор"
    assert duo_rules.WORKERS == 10
