"""Issue 23, point 6: a rollback never reopens orders under a seed players already know.

Before, `rollback` reopened a window whose seed was in the chronicle and the forum post, and
players could change orders knowing the dice. Now the GM chooses (engine/core/draw.py, kept.py):

* ``--keep-orders`` (the default): the window keeps its orders and its seed; its resolve refuses,
  naming tab and cell, while a player's cell differs from the kept copy; the windows after it get
  a new draw when a seed of theirs is out;
* ``--reopen-orders``: the orders are open again and the window gets a new draw at once, its new
  commitment published in the meta.

The meta's «Последний откат» says which. Shown on the three games, on .xlsx and the emulator.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import test_google_support as support
from test_google_support import GoogleEnv

from engine import rulesets
from engine.core import history, kept, meta
from engine.core.audience import PUBLIC
from engine.core.cursor import Cursor
from engine.core.tables import Changeset, Tables, WriteBlock
from sheets_bridge import sync, timeline
from sheets_bridge.cli import main
from sheets_bridge.google_http import GoogleNotFoundError, GooglePermissionError, make_client
from sheets_bridge.xlsx import XlsxBackend

emulator_server = support.emulator_server
google = support.google

EGYPT = "Приказы — Египет"


def _meta(tables: Tables) -> dict[object, object]:
    tab = meta.meta_tab(tables)
    assert tab is not None
    return {r[0]: r[1] if len(r) > 1 else None for r in tables[tab][1:] if r and r[0] is not None}


def _sha(seed: object) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _game_tabs(tables: Tables) -> Tables:
    """Every tab a turn computes: the meta, the history and the kept orders aside."""
    return {k: v for k, v in tables.items()
            if not history.is_history(k) and not kept.KEPT.owns(k) and k != meta.meta_tab(tables)}


@pytest.fixture
def two_turns(campaign: Path) -> tuple[Path, Tables]:
    """The ancient demo with its sample orders, turns 1 and 2 resolved; and the campaign as turn 1 left it."""
    backend = XlsxBackend(campaign)
    backend.write(rulesets.get("ancient").demo_changes(backend.read()))
    sync.resolve(XlsxBackend(campaign))
    after_first = XlsxBackend(campaign).read()
    sync.resolve(XlsxBackend(campaign))
    return campaign, after_first


def test_keep_orders_is_the_default_a_changed_order_is_refused_and_the_same_dice_give_the_same_turn(
    two_turns: tuple[Path, Tables], capsys: pytest.CaptureFixture[str]
) -> None:
    path, after_first = two_turns
    old = _meta(XlsxBackend(path).read())
    seed_2 = old["Раскрытое зерно последнего хода"]
    code, out, _err = _cli(capsys, "rollback", str(path), "--to", "1")
    assert code == 0 and "с его прежними приказами и зерном" in out and "новый жребий № 1" in out, out
    restored = XlsxBackend(path).read()
    said = _meta(restored)
    assert "приказы окна сохранены, зерно прежнее" in str(said["Последний откат"])
    assert said["Номер жребия со следующего окна"] == 1 and "Номер жребия" not in said
    assert said["Хэш зерна хода (sha256)"] == _sha(_meta(after_first)["Раскрытое зерно последнего хода"])
    assert kept.read(restored) is not None  # the copy, in the GM's hidden tab

    # a player who read turn 1's seed changes an order: the resolve refuses, naming the cell, and writes nothing
    row = next(r for r, line in enumerate(restored[EGYPT]) if r and line[0])
    XlsxBackend(path).write(Changeset(blocks=[WriteBlock(EGYPT, row + 1, 1, [["Нет действий"]])]))
    code, out, _err = _cli(capsys, "check", str(path), "--json")
    assert code == 0 and f"лист «{EGYPT}», ячейка A{row + 1}" in " ".join(json.loads(out)["warnings"])
    before = path.read_bytes()
    code, _out, err = _cli(capsys, "resolve", str(path))
    assert code == 1 and f"лист «{EGYPT}», ячейка A{row + 1}" in err and "--reopen-orders" in err, err
    assert "Traceback" not in err and path.read_bytes() == before

    XlsxBackend(path).write(Changeset(blocks=[WriteBlock(EGYPT, row + 1, 1, [[restored[EGYPT][row][0]]])]))
    assert _cli(capsys, "resolve", str(path))[0] == 0
    again = XlsxBackend(path).read()
    said = support.recounts(again)  # the chronicle says which choice the GM made (issue 23 point 6)
    assert len(said) == 1 and "приказы окна сохранены, зерно прежнее" in said[0], said
    # the same orders, the same seed: the same turn 1
    assert support.without_recounts(_game_tabs(again)) == _game_tabs(after_first)
    now = _meta(again)
    assert now["Раскрытое зерно последнего хода"] == _meta(after_first)["Раскрытое зерно последнего хода"]
    assert now["Номер жребия"] == 1 and "Номер жребия со следующего окна" not in now
    assert now["Хэш зерна хода (sha256)"] not in (old["Хэш зерна хода (sha256)"], _sha(seed_2))  # turn 2: new dice
    assert not kept.read(again)  # the copy goes with the resolve
    assert timeline.verify(XlsxBackend(path), 1).ok
    sync.resolve(XlsxBackend(path))
    assert _sha(_meta(XlsxBackend(path).read())["Раскрытое зерно последнего хода"]) == now["Хэш зерна хода (sha256)"]
    assert timeline.verify(XlsxBackend(path), 2).ok and timeline.verify(XlsxBackend(path), 1).ok


def test_keep_orders_of_the_last_window_keeps_the_draw_and_gives_the_same_campaign(
    campaign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No seed after the window is out: no new draw, and the campaign comes back cell for cell
    (the meta's «Последний откат» aside)."""
    backend = XlsxBackend(campaign)
    backend.write(rulesets.get("ancient").demo_changes(backend.read()))
    sync.resolve(XlsxBackend(campaign))
    first = XlsxBackend(campaign).read()
    code, out, _err = _cli(capsys, "rollback", str(campaign), "--to", "1")
    assert code == 0 and "жребий" not in out, out
    assert "жребий прежний" in str(_meta(XlsxBackend(campaign).read())["Последний откат"])
    sync.resolve(XlsxBackend(campaign))
    again = XlsxBackend(campaign).read()
    assert support.without_recounts(_game_tabs(again)) == _game_tabs(first) and support.recounts(again)
    assert {k: v for k, v in _meta(again).items() if k != "Последний откат"} == _meta(first)
    assert "Окно после отката" not in _meta(again)  # the resolve takes the row out: its chronicle said it


def test_reopen_orders_publishes_a_new_commitment_and_plays_the_new_orders(
    two_turns: tuple[Path, Tables], capsys: pytest.CaptureFixture[str]
) -> None:
    path, after_first = two_turns
    old_seed_2 = _meta(XlsxBackend(path).read())["Раскрытое зерно последнего хода"]
    old_commitment_2 = _meta(after_first)["Хэш зерна хода (sha256)"]
    code, out, _err = _cli(capsys, "rollback", str(path), "--to", "2", "--reopen-orders")
    assert code == 0 and "жребий № 1" in out
    said = _meta(XlsxBackend(path).read())
    fresh = said["Хэш зерна хода (sha256)"]
    assert fresh != old_commitment_2 and fresh != _sha(old_seed_2) and str(fresh) in out
    assert said["Номер жребия"] == 1 and "приказы открыты заново" in str(said["Последний откат"])
    assert kept.read(XlsxBackend(path).read()) is None
    tables = XlsxBackend(path).read()
    row = next(r for r, line in enumerate(tables[EGYPT]) if r and not line[0])
    XlsxBackend(path).write(Changeset(blocks=[WriteBlock(EGYPT, row + 1, 1, [["Нет действий"]])]))
    assert _cli(capsys, "resolve", str(path))[0] == 0  # reopened: a changed order is played
    now = _meta(XlsxBackend(path).read())
    seed = now["Раскрытое зерно последнего хода"]
    assert seed != old_seed_2 and _sha(seed) == fresh
    chronicle = [r[1] for r in XlsxBackend(path).read()["Журнал"][1:] if r[0] == 2]
    assert any(str(line).startswith(f"Зерно хода 2: {seed}") for line in chronicle)
    assert timeline.verify(XlsxBackend(path), 2).ok and timeline.verify(XlsxBackend(path), 1).ok


def test_reopen_orders_without_the_secret_is_refused_in_words(
    two_turns: tuple[Path, Tables], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path
) -> None:
    path, _first = two_turns
    monkeypatch.setenv("STRATEGOS_SECRETS", str(tmp_path / "elsewhere.json"))
    before = path.read_bytes()
    code, _out, err = _cli(capsys, "rollback", str(path), "--to", "2", "--reopen-orders")
    assert code == 1 and "секрет" in err and "Traceback" not in err
    assert path.read_bytes() == before


# ------------------------------------------------------------------ civ1 on .xlsx (a book per player)


def test_civ1_keep_orders_of_a_stage_refuses_a_changed_order_and_the_copy_is_in_the_gms_book_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sheets_bridge import xlsx_books

    path = tmp_path / "civ.xlsx"
    sync.create(str(path), ruleset="civ1", scenario="demo", secret="c" * 32)
    backend = XlsxBackend(path)
    backend.write(rulesets.get("civ1").demo_changes(backend.read()))
    sync.resolve(XlsxBackend(path))
    first = XlsxBackend(path).read()
    sync.resolve(XlsxBackend(path))
    assert _cli(capsys, "rollback", str(path), "--to", "1:государство")[0] == 0
    tables = XlsxBackend(path).read()
    assert meta.open_cursor(tables, rulesets.get("civ1").calendar) == Cursor(1, "state")
    name = kept.KEPT.found_in(tables)
    assert name is not None
    for book in sorted(path.parent.rglob("*.xlsx")):
        if book != path:
            assert name not in XlsxBackend(book).read(), book  # the copy of every order tab: the GM's alone
    assert xlsx_books.book_path(path, PUBLIC) in set(path.parent.rglob("*.xlsx"))  # the books are there
    tab = "Приказы — Рим"
    XlsxBackend(path).write(Changeset(blocks=[WriteBlock(tab, 2, 2, [["Нет действий"]])]))
    code, _out, err = _cli(capsys, "resolve", str(path))
    assert code == 1 and f"лист «{tab}», ячейка B2" in err and "1:государство" in err, err
    XlsxBackend(path).write(Changeset(blocks=[WriteBlock(tab, 2, 2, [[tables[tab][1][1]]])]))
    assert _cli(capsys, "resolve", str(path))[0] == 0
    assert support.without_recounts(_game_tabs(XlsxBackend(path).read())) == _game_tabs(first)
    assert timeline.verify(XlsxBackend(path), "1:государство").ok


def test_civ1_reopen_orders_of_a_stage_draws_a_new_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "civ.xlsx"
    sync.create(str(path), ruleset="civ1", scenario="demo", secret="d" * 32)
    backend = XlsxBackend(path)
    backend.write(rulesets.get("civ1").demo_changes(backend.read()))
    sync.resolve(XlsxBackend(path))
    seed = _meta(XlsxBackend(path).read())["Раскрытое зерно последнего хода"]
    assert _cli(capsys, "rollback", str(path), "--to", "1:государство", "--reopen-orders")[0] == 0
    fresh = _meta(XlsxBackend(path).read())["Хэш зерна хода (sha256)"]
    assert fresh != _sha(seed)
    sync.resolve(XlsxBackend(path))
    now = _meta(XlsxBackend(path).read())["Раскрытое зерно последнего хода"]
    assert now != seed and _sha(now) == fresh
    assert timeline.verify(XlsxBackend(path), "1:государство").ok


# ------------------------------------------------------------------ «Дуэт» on the emulator, as each player


def test_google_duo_both_modes_as_the_players_see_them(google: GoogleEnv, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from duo_game import game
    from duo_game.words import NAME, orders_tab

    monkeypatch.setitem(rulesets.RULESETS, NAME, "duo_game.game:RULESET")
    spec = support.kept(rulesets.get(NAME).new_workbook(secret="duo-dice-secret", campaign_id="duo-rollback"))
    sid = google.create(spec, players={"A": support.P1, "B": support.P2}).spreadsheet_id
    creds = ["--credentials", str(google.sa_key)]
    backend = google.backend(sid)
    backend.write(Changeset(blocks=game.order_blocks(backend.read(), {"A": [["сбор", "добыть", "золото", 4]],
                                                                     "B": [["сбор", "добыть", "зерно", 5]]})))
    for _ in range(2):
        sync.resolve(google.backend(sid))
    first_seed = _meta(history.entries(sync.read_all(google.backend(sid)))[1].tables())
    assert _cli(capsys, "rollback", sid, *creds, "--to", "1:сбор")[0] == 0
    gm = google.backend(sid)
    tables = gm.read()
    name = kept.KEPT.found_in(tables)
    assert name is not None and gm.tab_home.get(name) == gm.audience_home["gm"]  # the GM-only spreadsheet
    for who in (support.P1, support.P2):
        with pytest.raises((GoogleNotFoundError, GooglePermissionError)):
            make_client(google.key(who)).open_by_key(gm.audience_home["gm"]).worksheet(name)

    # A, with A's own credentials, changes its kept order in its own book: the resolve refuses
    book_a = gm.tab_home[orders_tab("A")]
    make_client(google.key(support.P1)).open_by_key(book_a).worksheet(orders_tab("A")).update([[9]], "D2")
    code, _out, err = _cli(capsys, "resolve", sid, *creds)
    assert code == 1 and f"лист «{orders_tab('A')}», ячейка D2" in err, err
    assert meta.open_cursor(google.backend(sid).read(), game.CALENDAR) == Cursor(1, "gather")

    # the GM chooses to reopen instead: a new commitment, A's new order played
    code, _out, err = _cli(capsys, "rollback", sid, *creds, "--to", "1:сбор", "--reopen-orders")
    assert code == 0, err
    said = _meta(google.backend(sid).read())
    assert said["Номер жребия"] == 2 and "приказы открыты заново" in str(said["Последний откат"])
    assert said["Хэш зерна хода (sha256)"] != _sha(first_seed["Раскрытое зерно последнего хода"])
    make_client(google.key(support.P1)).open_by_key(book_a).worksheet(orders_tab("A")).update([[9]], "D2")
    assert _cli(capsys, "resolve", sid, *creds)[0] == 0
    archive = google.backend(sid).read()["Архив приказов"]
    assert [r[6] for r in archive[1:] if r[0] == "1:сбор" and r[1] == "A"] == [9], archive
    assert timeline.verify(google.backend(sid), "1:сбор").ok

