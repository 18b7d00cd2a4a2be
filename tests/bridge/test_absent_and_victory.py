"""The Protocol's `default_orders` and `victory` (issue 17, point 1): the ancient game plays no
orders for an absent state and names no victory (seed 000); the bridge tells the GM when a game is
won, after a resolve and at a check, in the notices and in --json; and a game's default orders
reach the resolve through the core's `absence.attendance` (with the cursor toy)."""

from __future__ import annotations

import json
from pathlib import Path

import cursor_toy
import pytest

from engine import rulesets
from engine.core import absence, meta
from engine.core.cursor import Cursor
from engine.core.ruleset import Ruleset, SyncResult, Victory
from engine.core.tables import Changeset, ReplaceTab, WriteBlock, apply_changes, trim
from sheets_bridge import secrets, sync
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

SECRET = "0123456789abcdef0123456789abcdef"


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setitem(rulesets.RULESETS, cursor_toy.NAME, "cursor_toy:RULESET")
    path = tmp_path / "toy.xlsx"
    cid = meta.new_campaign_id()
    secrets.save(cid, SECRET)
    create_xlsx(cursor_toy.workbook(SECRET, cid), path)
    return path


def test_the_ancient_game_plays_nothing_for_the_absent_and_names_no_victory(campaign: Path) -> None:
    game = rulesets.get("ancient")
    assert isinstance(game, Ruleset)
    tables = XlsxBackend(campaign).read()
    sides = game.reporter.sides(tables)
    assert sides and all(game.default_orders(tables, side, Cursor(1)) == [] for side in sides)
    assert game.victory(tables) is None
    result = sync.resolve(XlsxBackend(campaign), turn=1)
    assert "victory" not in result.summary
    assert not any("Игра окончена" in str(n) for n in result.summary.get("notices", []))
    assert game.victory(XlsxBackend(campaign).read()) is None


def test_the_bridge_tells_when_the_game_is_won(toy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(cursor_toy.WINNING_WINDOWS - 1):
        assert "victory" not in sync.resolve(XlsxBackend(toy)).summary
    assert "victory" not in sync.check(XlsxBackend(toy)).summary
    assert main(["resolve", str(toy)]) == 0  # the fifth window: won as it leaves the campaign
    assert "Игра окончена: победа — Альфа. сыграно окон: 5" in capsys.readouterr().out
    assert main(["check", str(toy), "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["victory"] == {"winners": ["Альфа"], "reason": "сыграно окон: 5"}
    assert any("Игра окончена: победа — Альфа" in n for n in said["notices"])


def test_absent_sides_get_the_rulesets_default_orders(toy: Path) -> None:
    game = rulesets.get(cursor_toy.NAME)
    tables = XlsxBackend(toy).read()
    at = meta.open_cursor(tables, game.calendar)
    att = absence.attendance({}, ["Альфа", "Бета"], lambda side: game.default_orders(tables, side, at))
    assert att.present == frozenset() and att.stood_in == {"Альфа", "Бета"}
    assert [r.cells for r in att.rows["Бета"]] == [{"action": "копить", "window": "1:state"}]
    battle = game.calendar.cursor(1, "battle", 1)
    assert absence.attendance({}, ["Бета"], lambda side: game.default_orders(tables, side, battle)).rows == {"Бета": []}


def test_a_staged_resolve_plays_default_orders_and_counts_a_turn_once(toy: Path) -> None:
    """Through the bridge on .xlsx: «Альфа» writes one row for 1:государство only, «Бета» nothing.
    Each counting window plays the default order for whoever sent no row there, the battle rounds
    play nothing; the ladder judges turn 1 at 1:города (Альфа was present, Бета missed it) and turn 2
    hands «Бета» to the AI."""
    backend = XlsxBackend(toy)
    backend.read()
    backend.write(Changeset(blocks=[WriteBlock(cursor_toy.ORDERS, 2, 1, [["Альфа", "1:state", "строить"]])]))
    sync.resolve(XlsxBackend(toy))  # 1:state: Альфа's presence is remembered, nobody judged yet
    assert _sides(toy) == [("Альфа", 0, "да", None), ("Бета", 0, None, None)]
    for _ in range(3):  # 1:battle:1, 1:battle:2, 1:cities
        sync.resolve(XlsxBackend(toy))
    tables = XlsxBackend(toy).read()
    assert tables[cursor_toy.PLAYED][1:] == [
        ["1:state", "Альфа", "строить", "игрок"], ["1:state", "Бета", "копить", "по умолчанию"],
        ["1:cities", "Альфа", "копить", "по умолчанию"], ["1:cities", "Бета", "копить", "по умолчанию"]]
    assert _sides(toy) == [("Альфа", 0, None, None), ("Бета", 1, None, None)]
    sync.resolve(XlsxBackend(toy))  # 2:state: pending, nobody sent
    assert _sides(toy) == [("Альфа", 0, None, None), ("Бета", 1, None, None)]
    for _ in range(3):
        sync.resolve(XlsxBackend(toy))
    assert _sides(toy) == [("Альфа", 1, None, None), ("Бета", 2, None, "да")]


def _sides(path: Path) -> list[tuple[object, ...]]:
    """The toy's «Стороны» rows as (side, missed, present, AI), blanks as None."""
    rows = XlsxBackend(path).read()[cursor_toy.SIDES][1:]
    return [tuple((list(r) + [None] * 4)[:4]) for r in rows]


def test_the_view_asked_of_victory_is_the_campaign_after_the_changes() -> None:
    tables = {"A": [["x", 1], ["y", 2]], "B": [["b"]]}
    changes = Changeset(replace=[ReplaceTab("C", [["c"]])],
                        blocks=[WriteBlock("A", 2, 2, [[5], [6]]), WriteBlock("D", 1, 3, [["d"]])])
    view = sync.applied_view(tables, changes)
    assert {n: trim([list(r) for r in g]) for n, g in view.items()} == apply_changes(tables, changes)
    assert tables == {"A": [["x", 1], ["y", 2]], "B": [["b"]]}  # the tables read are left as read
    assert view["B"] is tables["B"]  # an untouched tab is shared, not copied


def test_a_victory_is_announced_once_in_words() -> None:
    result = SyncResult("resolve", 1, Changeset(), None, None, {})  # type: ignore[arg-type]
    sync.announce_victory(result, None)
    assert result.summary == {}
    sync.announce_victory(result, Victory(("Альфа", "Бета"), "союз удержал столицы"))
    assert result.summary["notices"] == ["Игра окончена: победа — Альфа, Бета. союз удержал столицы"]
