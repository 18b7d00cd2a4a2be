"""Issue 24, point 3: game over. When a game ends (civ1 once a turn ≥ `last_turn` closes with a
top-level technology known, CIV-TURN-01; the test game at its goal of gold), the resolve that ends
it writes «Игра окончена» and why into «Кампания» instead of opening a window; check and resolve
are then refused in words (ru and en, and in --json), nothing written; history, report (of the
last window too), verify and rollback still work, and a rollback to the last window reopens the
game. A civ1 turn ≥ `last_turn` that closes with no top-level technology known does not end it.
On .xlsx (civ1) and on the Google emulator (the test game)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import test_google_support as support
from duo_game import game as duo_game
from duo_game import world as duo_world
from duo_game.words import NAME as DUO
from duo_game.words import RANKING, orders_tab, stock_tab
from test_google_support import GM, P1, P2, GoogleEnv

from engine import rulesets
from engine.core import ending, history, meta
from engine.core.cursor import Cursor
from engine.core.errors import GameOver
from engine.core.ruleset import Ruleset, Victory
from engine.core.tables import Changeset, ReplaceTab, Tables, WorkbookSpec, apply_changes
from engine.rulesets.civ1 import codec, hooks
from engine.rulesets.civ1.calendar import CALENDAR
from engine.rulesets.civ1.game import victory as civ1_victory
from sheets_bridge import sync
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend

emulator_server = support.emulator_server
google = support.google

TOP = "Технология будущего"  # the one technology of the top level (CIV-TECH-44)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 0, (argv, captured.err)
    return captured.out


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The command's refusal: exit code 1, its words on stderr (nothing on stdout)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 1, (argv, captured.out, captured.err)
    return captured.err


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _books(path: Path) -> dict[Path, str]:
    """Every workbook of the campaign (the GM's, the public one, each nation's) by its bytes."""
    return {p: _digest(p) for p in sorted(path.parent.rglob("*.xlsx"))}


def _ending_soon(tables: Tables, top: bool) -> Changeset:
    """What a GM edits to end a civ1 campaign early («может раньше»): `last_turn` 1 and, with `top`,
    the last nation knowing the top-level technology (in the GM's tabs and its own «Держава»)."""
    lang = meta.lang(tables) or "ru"
    out = dict(tables)
    hooks.patch_rules(out, {"parameters": {"last_turn": {"value": 1}}})
    rules = codec.read_rules(out)
    if top:
        world = codec.decode(out, rules=rules)
        world.nations[world.seats()[-1]].techs[TOP] = 0
        out.update(codec.encode(world, lang, rules))
        out.update(codec.all_realms(world, rules, {}, lang))
    heard = rulesets.get("civ1").tab_audiences(out)
    return Changeset(replace=[ReplaceTab(t, g, audience=heard[t]) for t, g in out.items() if g != tables.get(t)])


def _civ1_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, top: bool = True) -> Path:
    path = tmp_path / lang / "civ.xlsx"
    path.parent.mkdir()
    _run(capsys, "new", str(path), "--ruleset", "civ1", "--scenario", "demo", "--lang", lang)
    backend = XlsxBackend(path)
    backend.write(_ending_soon(backend.read(), top))
    return path


def test_a_civ1_campaign_past_its_end_refuses_resolve_in_words_and_history_report_verify_rollback_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _civ1_campaign(tmp_path, capsys, "ru")
    _run(capsys, "resolve", str(path), "--stage", "государство")
    assert meta.finished(XlsxBackend(path).read()) is None  # the state stage closes no turn
    ended = json.loads(_run(capsys, "resolve", str(path), "--stage", "города", "--json"))
    assert ended["victory"]["winners"] == ["Китай"]
    assert any(n.startswith("Игра окончена: победа — Китай. Итог после хода 1: Китай 7 ПО") for n in ended["notices"])
    tables = XlsxBackend(path).read()
    why = meta.finished(tables)
    assert why is not None and why.startswith("победа — Китай. Итог после хода 1: Китай 7 ПО (города 1, чудеса 0, "
                                              "эпохи 5")
    assert tables["Кампания"][1] == ["Игра окончена", why]  # said right under the header, in words
    assert meta.text(tables, meta.COMMITMENT) == ""  # no window's dice will be drawn: no hash promised
    assert meta.revealed_seed(tables)  # the last window's seed is out, as after any resolve

    books = _books(path)
    said = _refused(capsys, "resolve", str(path))
    assert said.startswith("strategos: Игра окончена: победа — Китай. Итог после хода 1") and (
        "Команда resolve больше не выполняется: приказы не принимаются, ничего не записано. Работают history" in said)
    assert "report --turn 1:города" in said and "rollback --to 1:города) снова открывает игру" in said
    said = _refused(capsys, "check", str(path))
    assert "Игра окончена: победа — Китай" in said and "Команда check больше не выполняется" in said
    assert main(["resolve", str(path), "--json"]) == 1
    told = json.loads(capsys.readouterr().out)
    assert told["refused"] is True and told["mode"] == "resolve"
    assert told["game_over"] == {"reason": why, "last_window": "1:города"} and "ничего не записано" in told["message"]
    assert _books(path) == books  # nothing written, in no book

    listed = json.loads(_run(capsys, "history", str(path), "--json"))
    assert [t["cursor"] for t in listed] == ["1:государство", "1:города"]
    post = tmp_path / "пост.txt"
    _run(capsys, "report", str(path), "--turn", "1:города", "--out", str(post), "--players", str(tmp_path / "отчёты"))
    assert "Игра окончена после хода 1." in post.read_text(encoding="utf-8")
    assert (tmp_path / "отчёты" / "Китай.md").read_text(encoding="utf-8")
    for window in ("1:государство", "1:города"):
        assert json.loads(_run(capsys, "verify", str(path), "--turn", window, "--json"))["ok"] is True

    _run(capsys, "rollback", str(path), "--to", "1:города")  # the last window: the game is open again
    tables = XlsxBackend(path).read()
    assert meta.finished(tables) is None and meta.open_cursor(tables, CALENDAR) == Cursor(1, "cities")
    assert meta.text(tables, meta.COMMITMENT)  # the window's promise is back
    _run(capsys, "check", str(path))
    _run(capsys, "resolve", str(path))  # the same orders and dice end it the same way
    assert meta.finished(XlsxBackend(path).read()) == why
    assert "Игра окончена" in _refused(capsys, "check", str(path))


def test_an_english_campaign_is_told_the_game_is_over_in_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _civ1_campaign(tmp_path, capsys, "en")
    for _window in range(2):
        sync.resolve(XlsxBackend(path))
    tables = XlsxBackend(path).read()
    why = meta.finished(tables)
    assert why is not None and why.startswith("victory for China. The score after turn 1: China 7 ")
    assert tables["Campaign"][1] == ["Game over", why]
    said = _refused(capsys, "resolve", str(path))
    assert said.startswith("strategos: The game is over: victory for China.")
    assert "The command resolve is no longer run: no orders are taken, nothing was written." in said
    assert "rollback --to 1:cities) reopens the game" in said
    assert "The command check is no longer run" in _refused(capsys, "check", str(path))
    assert json.loads(_run(capsys, "verify", str(path), "--turn", "1:cities", "--json"))["ok"] is True


def test_a_turn_past_last_turn_without_a_top_technology_does_not_end_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """«теоретически возможно, позже, если никто не изучил технологию 5 уровня»: through the bridge
    on .xlsx, turn 1 (= `last_turn`) closes with no top technology known and turn 2 opens."""
    path = _civ1_campaign(tmp_path, capsys, "ru", top=False)
    for _window in range(2):
        result = sync.resolve(XlsxBackend(path))
        assert "victory" not in result.summary
    tables = XlsxBackend(path).read()
    assert meta.finished(tables) is None and meta.open_cursor(tables, CALENDAR) == Cursor(2, "state")
    assert meta.text(tables, meta.COMMITMENT)
    assert json.loads(_run(capsys, "check", str(path), "--json"))["cursor"] == "2:государство"


def test_civ1_ends_with_the_close_of_the_turn_in_which_the_top_technology_is_researched() -> None:
    """The extension of CIV-TURN-01 (the scenario of the same name, on tables): researched during
    2:государство, the game is not over at 2:города (the turn has not closed), then is, and the
    campaign says so."""
    game = rulesets.get("civ1")
    tables = hooks.build_tables({"rules": {"parameters": {"last_turn": {"value": 1}}},
                                 "nations": {"Китай": {"science": 30, "techs": ["Коммунизм", "Ядерная теория"]}}})
    chosen = {"1:государство": [["государство", "Нет действий"]], "1:города": [["города", "Нет действий"]],
              "2:государство": [["государство", "Изучить", TOP]]}  # China's own: a stand-in would research
    for stage, china in chosen.items():
        assert CALENDAR.format(meta.open_cursor(tables, CALENDAR)) == stage
        given = hooks.put_orders(tables, {"Китай": china})
        tables = apply_changes(tables, game.resolve(given, secret="s" * 32).changes)
        assert meta.finished(tables) is None and civ1_victory(tables) is None
    assert TOP in codec.decode(tables).nations["Китай"].techs  # known, yet the turn has not closed
    tables = apply_changes(tables, game.resolve(tables, secret="s" * 32).changes)
    won = civ1_victory(tables)
    assert won is not None and won.winners == ("Китай",) and "Итог после хода 2" in won.reason
    assert meta.finished(tables) == ending.words(won)
    with pytest.raises(GameOver, match="Игра окончена: победа — Китай"):
        ending.refuse(tables, CALENDAR, "resolve")


def test_the_finished_meta_and_the_refusal_are_the_cores() -> None:
    grid = [["Параметр", "Значение"], ["Правила", "x"], ["Открытый ход", 3], ["Хэш зерна хода (sha256)", "abc"],
            ["Раскрытое зерно последнего хода", "s"]]
    done = ending.finished_grid(grid, Victory(("Альфа", "Бета"), "союз удержал столицы"), "ru")
    assert done == [["Параметр", "Значение"], ["Игра окончена", "победа — Альфа, Бета. союз удержал столицы"],
                    ["Правила", "x"], ["Открытый ход", 3], ["Раскрытое зерно последнего хода", "s"]]
    again = ending.finished_grid(done, Victory((), "кончилось время"), "en")
    assert again[1] == ["Игра окончена", "кончилось время"] and len(again) == len(done)  # rewritten in place
    tables = {"Кампания": again}
    assert meta.finished(tables) == "кончилось время" and meta.finished({"Кампания": grid}) is None
    with pytest.raises(GameOver) as refused:
        ending.refuse(tables, CALENDAR, "check")
    assert refused.value.reason == "кончилось время" and refused.value.last == ""
    ending.refuse({"Кампания": grid}, CALENDAR, "check")  # the game goes on: nothing raised


# ------------------------------------------------------------------ the test game on the Google emulator


@pytest.fixture
def duo(monkeypatch: pytest.MonkeyPatch) -> Iterator[Ruleset]:
    """The test game in the registry, for this test only."""
    monkeypatch.setitem(rulesets.RULESETS, DUO, "duo_game.game:RULESET")
    yield rulesets.get(DUO)


def _near_the_goal(duo: Ruleset, gold: int) -> WorkbookSpec:
    """A new «Дуэт» campaign whose side A starts with `gold` (its stock tab and the public ranking)."""
    spec = duo.new_workbook(secret=support.SECRET, campaign_id="test-game-over")
    tables = {t.name: [list(r) for r in t.rows] for t in spec.tabs}
    stocks = duo_world.read(tables)
    stocks.set_balance("A", "gold", gold)
    grids = {stock_tab("A"): duo_world.stock_grid(stocks, "A"), RANKING: duo_world.ranking_grid(stocks)}
    return support.kept(replace(spec, tabs=[replace(t, rows=grids.get(t.name, t.rows)) for t in spec.tabs]))


def test_google_the_test_game_won_refuses_check_and_resolve_and_a_rollback_reopens_it(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str], duo: Ruleset
) -> None:
    creds = ["--credentials", str(google.sa_key)]
    made = google.create(_near_the_goal(duo, duo_game.GOAL - 5), gm=GM, players={"A": P1, "B": P2},
                         private_orders=True)
    sid = made.spreadsheet_id
    backend = google.backend(sid)
    backend.write(Changeset(blocks=duo_game.order_blocks(backend.read(), {"A": [["сбор", "добыть", "золото", 10]]})))
    _run(capsys, "resolve", sid, *creds)
    assert meta.finished(google.backend(sid).read()) is None  # «сбор» closes no turn
    _run(capsys, "resolve", sid, *creds)  # 1:торг: A has its goal
    tables = google.backend(sid).read()
    why = meta.finished(tables)
    assert why is not None and why.startswith("победа — A. A: золота не меньше 100")
    assert duo.victory(tables) == Victory(("A",), "A: золота не меньше 100")

    google.reset()
    said = _refused(capsys, "resolve", sid, *creds)
    assert "Игра окончена: победа — A." in said and "ничего не записано" in said and "rollback --to 1:торг" in said
    assert main(["check", sid, *creds, "--json"]) == 1
    told = json.loads(capsys.readouterr().out)
    assert told["mode"] == "check" and told["game_over"] == {"reason": why, "last_window": "1:торг"}
    assert "sheets.batchUpdate" not in google.counts()  # nothing written
    assert [t["cursor"] for t in json.loads(_run(capsys, "history", sid, *creds, "--json"))] == ["1:сбор", "1:торг"]
    assert "цена зерна" in _run(capsys, "report", sid, *creds, "--turn", "1:торг")
    for window in ("1:сбор", "1:торг"):
        assert json.loads(_run(capsys, "verify", sid, *creds, "--turn", window, "--json"))["ok"] is True

    _run(capsys, "rollback", sid, *creds, "--to", "1:торг")
    back = google.backend(sid).read()
    assert meta.finished(back) is None and meta.open_cursor(back, duo.calendar) == Cursor(1, "trade")
    assert [e.cursor.key() for e in history.entries(back)] == ["1:gather"]
    assert json.loads(_run(capsys, "check", sid, *creds, "--json"))["cursor"] == "1:торг"
    _run(capsys, "resolve", sid, *creds)
    assert meta.finished(google.backend(sid).read()) == why
    assert orders_tab("A") in back  # the campaign as the players see it is whole
