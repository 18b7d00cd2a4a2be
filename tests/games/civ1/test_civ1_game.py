"""Issue 18: «Civilization 1.0» as a playable Ruleset on the core, end to end, and its hidden
information: a new demo campaign (5 nations, a 16×12 hex map, 12 villages), check, resolve of both
stages «государство» and «города», history, verify and rollback through the real CLI on .xlsx; the
rows of the cities stage typed during the state stage wait; and what a nation holds alone (its
coins, science, technologies, deck) is in no book another nation or the public can open.

«Каждый из 15 ходов разбит на две фазы, которые рассчитываются последовательно» (seed 004, CIV-TURN-02)."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
import test_google_support as support
from test_google_support import GoogleEnv

from engine import rulesets
from engine.core import history, meta
from engine.core.audience import GM, PUBLIC, player
from engine.core.cursor import Cursor
from engine.core.errors import CampaignError
from engine.core.ruleset import Ruleset
from engine.core.tables import Changeset, ReplaceTab, Tables, apply_changes
from engine.rulesets.civ1 import codec, hooks
from engine.rulesets.civ1.calendar import CALENDAR, LAST_TURN
from engine.rulesets.civ1.hexes import distance
from engine.rulesets.civ1.vocab import CITIES_TAB, MAP, TECHS, TREASURY, UNITS, orders_tab, realm_tab
from engine.rulesets.civ1.workbook import new_workbook, tables_of
from sheets_bridge import gsheets, xlsx_books
from sheets_bridge.cli import main
from sheets_bridge.google_http import GoogleNotFoundError, GooglePermissionError, make_client
from sheets_bridge.xlsx import XlsxBackend

NATIONS = ("Вавилон", "Египет", "Греция", "Рим", "Китай")
ROME_COINS, ROME_SCIENCE = 4321, 987  # numbers no other tab of a new campaign holds
ROME_TECH = "Письменность"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 0, (argv, captured.err)
    return captured.out


def _fresh() -> Tables:
    return tables_of(new_workbook("demo", "ru", "s" * 32, "c"))


def test_CIV_TURN_02_civ1_is_a_registered_ruleset_with_two_stages_and_hidden_information() -> None:
    game = rulesets.get("цивилизация")
    assert isinstance(game, Ruleset) and game is rulesets.get("civ1") and game.name == "civ1"
    assert [s.ru for s in game.calendar.stages] == ["государство", "города"] and game.calendar is CALENDAR
    assert [s.key for s in game.calendar.stages] == ["state", "cities"] and LAST_TURN == 15
    assert [r.code for r in game.resources] == ["власть", "монеты", "наука", "молотки", "по"]
    assert game.hidden_information and game.phases
    spec = game.new_workbook(secret="s" * 32, campaign_id="c")
    readers = {t.name: t.readers for t in spec.tabs}
    for nation in NATIONS:
        assert readers[orders_tab(nation)] == player(nation) and readers[realm_tab(nation)] == player(nation)
    for tab in ("Казна", "Технологии", "Войска", "Постройки", "Шпионы", "Почта", "Ресурсы", "Архив приказов",
                history.HISTORY_TAB):
        assert readers[tab] == GM, tab
    for tab in ("Кампания", "Порядок хода", "Нации", "Карта мира", "Города", "Бои", "Журнал", "Намерения",
                "Договоры", "Правила — Технологии"):
        assert readers[tab] == PUBLIC, tab
    tables = tables_of(spec)
    assert game.tab_audiences(tables) == readers  # as a write leaves them: the same audiences
    assert meta.open_cursor(tables, CALENDAR) == Cursor(1, "state")


def test_the_demo_scenario_has_five_nations_a_16x12_hex_map_and_12_villages_away_from_the_capitals() -> None:
    """Spec §7: «5 nations, a 16 × 12 hex map …, 12 villages on neutral workable hexes ≥ 3 from capitals»."""
    world = codec.decode(_fresh())
    assert world.seats() == list(NATIONS) and world.nations["Вавилон"].leader == "Гримсон"
    assert len(world.tiles) == 16 * 12 and {q for q, _r in world.tiles} == set(range(16))
    villages = [h for h, t in world.tiles.items() if t.village]
    capitals = [c.hex for c in world.cities.values()]
    assert len(villages) == 12 and len(capitals) == 5
    assert all(min(distance(v, c) for c in capitals) >= 3 for v in villages)
    assert all(world.tiles[v].terrain not in ("море", "горы") for v in villages)
    assert all(world.tiles[c].terrain == "равнина" for c in capitals)
    for n in world.nations.values():
        assert (n.power, n.coins, n.science, n.vp_honesty, n.techs) == (0, 0, 0, 1, {})
        assert [c.unit for c in world.decks[n.name].cards] == ["ватага", "ватага"]


def test_the_codec_reads_back_what_it_writes_and_names_a_bad_cell() -> None:
    tables = _fresh()
    world = codec.decode(tables)
    world.nations["Рим"].techs[ROME_TECH] = 1
    world.cities["Рим"].buildings = ["библиотека"]
    again = codec.decode({**tables, **codec.encode(world)})
    assert again.nations["Рим"].techs == {ROME_TECH: 1} and again.cities["Рим"].buildings == ["библиотека"]
    assert codec.encode(again) == codec.encode(world)
    bad = {**tables, MAP.ru: [list(r) for r in tables[MAP.ru]], UNITS.ru: [list(r) for r in tables[UNITS.ru]]}
    bad[MAP.ru][4][0] = "где-то"
    bad[UNITS.ru][2][3] = "в отпуске"
    with pytest.raises(CampaignError) as err:
        codec.decode(bad)
    text = str(err.value)
    assert "Карта мира!A5" in text and "«где-то»" in text
    assert "Войска!D3" in text and "«в отпуске»" in text


def _plant_rome(path: Path) -> None:
    """Rome's secrets, as the GM keeps them: coins, science and a technology in the GM's tabs."""
    backend = XlsxBackend(path)
    tables = backend.read()
    world = codec.decode(tables)
    rome = world.nations["Рим"]
    rome.coins, rome.science, rome.techs = ROME_COINS, ROME_SCIENCE, {ROME_TECH: 0}
    grids = codec.encode(world)
    backend.write(Changeset(replace=[ReplaceTab(t, grids[t], audience=GM) for t in (TREASURY.ru, TECHS.ru)]))


ORDERS = {  # each nation fills both stages at once: its «города» rows wait for the cities stage
    "Вавилон": [["государство", "Разведка", None, "3,4"], ["города", "Активировать", None, "Вавилон"]],
    "Рим": [["государство", "Нет действий"], ["города", "Активировать", None, "Рим"]],
    "Греция": [["государство", "Танцевать"], ["пир", "Нет действий"]],
    "Китай": [[None, "Активировать", None, "Пекин"]],  # no stage named: its order's stage, «города»
}


def _xlsx_values(path: Path) -> tuple[set[str], set[object]]:
    wb = openpyxl.load_workbook(path)
    cells = {c.value for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value is not None}
    return set(wb.sheetnames), cells


def test_CIV_TURN_02_xlsx_both_stages_history_verify_rollback_and_rome_hidden_from_greece(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "civ.xlsx"
    _run(capsys, "new", str(path), "--ruleset", "civ1", "--scenario", "demo")
    _plant_rome(path)
    backend = XlsxBackend(path)
    backend.write(Changeset(blocks=hooks.order_blocks(backend.read(), ORDERS)))

    checked = json.loads(_run(capsys, "check", str(path), "--json"))
    assert checked["cursor"] == "1:государство" and checked["waiting"] == 3
    tables = XlsxBackend(path).read()
    assert tables[orders_tab("Вавилон")][2][7:10] == [None, None, "ждёт фазы «1:города»"]
    greek = tables[orders_tab("Греция")]
    assert greek[1][8] == "отклонён" and "«Танцевать»" in greek[1][9] and "Приказы — Греция!B2" in greek[1][9]
    assert greek[2][8] == "отклонён" and greek[2][9] == "нет фазы «пир»; фазы хода: государство, города"

    assert main(["resolve", str(path), "--stage", "города"]) == 1  # the open window is «1:государство»
    assert "Открыт ход «1:государство»" in capsys.readouterr().err
    _run(capsys, "resolve", str(path), "--turn", "1", "--stage", "государство")
    tables = XlsxBackend(path).read()
    assert meta.open_cursor(tables, CALENDAR) == Cursor(1, "cities")
    assert tables[orders_tab("Вавилон")][2][:4] == ["города", "Активировать", None, "Вавилон"]  # it waited
    assert tables[orders_tab("Китай")][1][:4] == [None, "Активировать", None, "Пекин"]
    assert tables[orders_tab("Рим")][1][7] == "1:государство" and tables[orders_tab("Рим")][1][1] is None
    archive = [r for r in tables["Архив приказов"][1:] if r[1] == "Рим"]
    assert archive and archive[0][:5] == ["1:государство", "Рим", 2, "государство", "Нет действий"]
    assert [r[0] for r in tables["Журнал"][1:]] and all(r[0] == "1:государство" for r in tables["Журнал"][1:])
    after_state = {t: tables[t] for t in (CITIES_TAB.ru, TREASURY.ru, realm_tab("Рим"))}

    # the hidden facts: Rome's coins, science and technology in Rome's own book, in none Greece may open
    public, rome, greece = (xlsx_books.book_path(path, who) for who in (PUBLIC, player("Рим"), player("Греция")))
    assert set(tmp_path.rglob("*.xlsx")) == {path, public, *(xlsx_books.book_path(path, player(n)) for n in NATIONS)}
    names, cells = _xlsx_values(rome)
    assert names == {orders_tab("Рим"), realm_tab("Рим")}
    assert {ROME_COINS, ROME_SCIENCE, ROME_TECH} <= cells
    for opened_by_greece in (public, greece):
        names, cells = _xlsx_values(opened_by_greece)
        assert not names & {"Казна", "Технологии", "Войска", "Постройки", "Шпионы", "Ресурсы", history.HISTORY_TAB,
                            orders_tab("Рим"), realm_tab("Рим")}, opened_by_greece
        assert not {ROME_COINS, ROME_SCIENCE, str(ROME_COINS), "Держава: Рим"} & cells, opened_by_greece
    names, cells = _xlsx_values(greece)
    assert names == {orders_tab("Греция"), realm_tab("Греция")} and ROME_TECH not in cells

    _run(capsys, "check", str(path))
    resolved = json.loads(_run(capsys, "resolve", str(path), "--stage", "города", "--json"))
    assert resolved["cursor"] == "1:города"
    tables = XlsxBackend(path).read()
    assert meta.open_cursor(tables, CALENDAR) == Cursor(2, "state")
    assert tables[orders_tab("Вавилон")][2][7] == "1:города"  # the waiting row is judged now
    assert tables[orders_tab("Китай")][1][7] == "1:города"
    after_cities = {t: tables[t] for t in after_state}

    report_dir = tmp_path / "отчёты"
    _run(capsys, "report", str(path), "--out", str(tmp_path / "пост.txt"), "--players", str(report_dir))
    assert ROME_TECH in (report_dir / "Рим.md").read_text(encoding="utf-8")
    assert ROME_TECH not in (report_dir / "Греция.md").read_text(encoding="utf-8")
    post = (tmp_path / "пост.txt").read_text(encoding="utf-8")
    assert "Цивилизация 1.0, ход 1" in post and ROME_TECH not in post and str(ROME_COINS) not in post

    listed = json.loads(_run(capsys, "history", str(path), "--json"))
    assert [t["cursor"] for t in listed] == ["1:государство", "1:города"]
    for window in ("1:государство", "1:города"):
        assert json.loads(_run(capsys, "verify", str(path), "--turn", window, "--json"))["ok"] is True

    # verify can fail: Rome's treasury changed after the window is caught
    tampered = [list(r) for r in tables[TREASURY.ru]]
    tampered[4][2] = ROME_COINS + 100
    XlsxBackend(path).write(Changeset(replace=[ReplaceTab(TREASURY.ru, tampered, audience=GM)]))
    assert main(["verify", str(path), "--turn", "1:города"]) == 1
    assert "«Казна»" in capsys.readouterr().out

    _run(capsys, "rollback", str(path), "--to", "1:города")
    tables = XlsxBackend(path).read()
    assert meta.open_cursor(tables, CALENDAR) == Cursor(1, "cities")
    assert {t: tables[t] for t in after_state} == after_state
    _run(capsys, "resolve", str(path), "--stage", "города")
    tables = XlsxBackend(path).read()
    assert {t: tables[t] for t in after_state} == after_cities  # the same dice: the seed is the window's

    _run(capsys, "rollback", str(path), "--to", "1:государство")
    tables = XlsxBackend(path).read()
    assert meta.open_cursor(tables, CALENDAR) == Cursor(1, "state") and history.entries(tables) == []
    assert tables[orders_tab("Рим")][1][:2] == ["государство", "Нет действий"]  # the orders are back


def test_the_other_members_report_post_scenario_hooks_absence_and_victory() -> None:
    game = rulesets.get("civ1")
    tables = game.scenario.tables({"nations": {"Рим": {"coins": 5, "techs": [ROME_TECH]}}})
    assert codec.decode(tables).nations["Рим"].coins == 5
    tables = game.scenario.orders(tables, {"Рим": [["государство", "Нет действий"]]})
    result = game.resolve(tables, secret="s" * 32)
    after = apply_changes(tables, result.changes)
    back = game.scenario.readback(after, result)
    assert [o.status for o in back.orders["Рим"]] == ["выполнен"] and back.orders["Греция"] == []
    assert game.scenario.expect({"nations": {"Рим": {"coins": 6}}}, after, result) == [
        "у Рим coins = 5, ожидалось 6"]
    assert game.scenario.expect({"stoks": {}}, after, result) == ["неизвестный ключ ожидания «stoks»"]
    assert game.reporter.last_resolved(after) == 1 and game.reporter.sides(after) == sorted(NATIONS)
    report = game.reporter.player_report(after, "Рим")
    assert ROME_TECH in report and "Держава: Рим" in report and "монеты — 5" in report
    rich = codec.decode(after)
    rich.nations["Рим"].coins = 77
    grids = codec.encode(rich)
    later = apply_changes(after, Changeset(replace=[ReplaceTab(TREASURY.ru, grids[TREASURY.ru])]))
    closed = game.resolve(later, secret="s" * 32)  # «1:города»: the turn closes, the NMR ladder counts
    later = apply_changes(later, closed.changes)
    missed = {n: x.missed for n, x in codec.decode(later).nations.items()}
    assert missed == {"Вавилон": 1, "Египет": 1, "Греция": 1, "Рим": 0, "Китай": 1}  # Rome sent a row at 1:государство
    assert "Греция пропустил ход 1 (пропущено подряд: 1)" in closed.report.warnings
    later = apply_changes(later, game.resolve(later, secret="s" * 32).changes)  # «2:государство»
    assert "монеты — 77" in game.reporter.player_report(later, "Рим")  # as it stands
    assert "монеты — 77" in game.reporter.player_report(later, "Рим", 1)  # after turn 1: the snapshot of 2:государство
    assert "монеты — 5" in game.reporter.player_report(later, "Рим", 0)  # before turn 1
    post = "\n".join(game.reporter.forum_post(after, 1))
    assert "Цивилизация 1.0, ход 1" in post and ROME_TECH not in post
    mine = game.private_tabs(after, [orders_tab("Рим")])
    assert [(t.tab, t.audience, t.beside) for t in mine] == [(realm_tab("Рим"), player("Рим"), orders_tab("Рим"))]
    assert game.victory(after) is None and game.chronicle_seed(after, Cursor(1, "state")) is None
    assert isinstance(game.default_orders(after, "Рим", Cursor(1, "cities")), list)
    assert game.later_inputs(after)[orders_tab("Рим")][:6] == [0, 1, 2, 3, 4, 5]


# ------------------------------------------------------------------ Google (the emulator)

emulator_server = support.emulator_server
google = support.google


def test_google_rome_secrets_in_romes_spreadsheet_only_greece_opens_none_of_them(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str]
) -> None:
    """On the emulator, read as Greece's own identity: Greece's spreadsheet and the public one hold
    nothing of Rome's coins, science or technology; the GM's and Rome's refuse Greece."""
    creds = ["--credentials", str(google.sa_key)]
    made = json.loads(_run(capsys, "new", "--google", "--ruleset", "civ1", "--gm", support.GM,
                           "--player", f"Рим={support.P1}", "--player", f"Греция={support.P2}", *creds, "--json"))
    sid = made["spreadsheet_id"]
    gm_backend = google.backend(sid)
    tables = gm_backend.read()
    world = codec.decode(tables)
    rome = world.nations["Рим"]
    rome.coins, rome.science, rome.techs = ROME_COINS, ROME_SCIENCE, {ROME_TECH: 0}
    grids = codec.encode(world)
    gm_backend.write(Changeset(replace=[ReplaceTab(t, grids[t], audience=GM) for t in (TREASURY.ru, TECHS.ru)]))
    homes = google.backend(sid)
    homes.read()
    book_rome, book_greece = homes.tab_home[orders_tab("Рим")], homes.tab_home[orders_tab("Греция")]
    gm_book = homes.audience_home["gm"]
    assert homes.tab_home[realm_tab("Рим")] == book_rome and homes.tab_home[TREASURY.ru] == gm_book
    assert len({sid, gm_book, book_rome, book_greece}) == 4

    _run(capsys, "check", sid, *creds)
    _run(capsys, "resolve", sid, *creds, "--stage", "государство")
    assert meta.open_cursor(google.backend(sid).read(), CALENDAR) == Cursor(1, "cities")

    client_greece = make_client(google.key(support.P2))
    for closed in (gm_book, book_rome):
        with pytest.raises((GoogleNotFoundError, GooglePermissionError)):
            gsheets.get_spreadsheet(client_greece, closed, "*")
    for readable in (sid, book_greece):
        answer = gsheets.get_spreadsheet(client_greece, readable, "*")
        titles = {s["properties"]["title"] for s in answer["sheets"]}
        assert not titles & {"Казна", "Технологии", "Войска", orders_tab("Рим"), realm_tab("Рим"),
                             history.HISTORY_TAB}, readable
        leaves = support.leaves(answer)
        for value in (ROME_COINS, float(ROME_COINS), str(ROME_COINS), ROME_SCIENCE, float(ROME_SCIENCE),
                      "Держава: Рим"):
            assert value not in leaves, (readable, value)
    own = support.leaves(gsheets.get_spreadsheet(make_client(google.key(support.P1)), book_rome, "*"))
    assert ROME_TECH in own and (ROME_COINS in own or float(ROME_COINS) in own)  # the check can fail


def test_CIV_TURN_02_the_state_stage_runs_the_seeds_13_steps_in_order() -> None:
    """«1 first player; 2 Power income; 3 villages; 4 spies; 5 cities; 6 upgrades; 7 restores;
    8 reorganisation; 9 attacks; 10 research; 11 government; 12 wonder intentions; 13 transfers»
    (spec §1, CIV-TURN-03): the real phases in that order, the routed cards back before the
    villages, the honesty step after the transfers; the cities stage ends with the end-of-game check."""
    from engine.rulesets.civ1 import stages

    assert [p.name for p in stages.phases_of("state")] == [
        "первый игрок", "доход Власти", "войска в строю", "разведка", "шпионаж", "основание", "апгрейд",
        "восстановление", "реорганизация", "атаки", "исследования", "правление", "чудеса", "передачи",
        "честность"]
    from engine.rulesets.civ1.phases.cities import CITIES
    from engine.rulesets.civ1.score import END

    assert stages.phases_of("cities") == (CITIES, END)
    assert stages.phases_of("nonsense") == ()


def test_an_english_campaign_plays_both_stages_and_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same game in English: tabs and headers in English, nations by their English names, the
    stages «state» and «cities»; the demo's sample orders; both windows verified."""
    path = tmp_path / "civ-en.xlsx"
    _run(capsys, "new", str(path), "--ruleset", "civ1", "--lang", "en")
    backend = XlsxBackend(path)
    tables = backend.read()
    assert {"Orders — Rome", "Realm — Rome", "Treasury", "World map", "Cities", "Rules — Terrain and techs"} <= set(
        tables)
    backend.write(rulesets.get("civ1").demo_changes(tables))  # the open window's rows (demo.py)
    checked = json.loads(_run(capsys, "check", str(path), "--json"))
    assert checked["cursor"] == "1:state" and checked["waiting"] == 0
    resolved = json.loads(_run(capsys, "resolve", str(path), "--json"))
    assert resolved["cursor"] == resolved["window"] == "1:state" and resolved["turn"] == 1  # i24 p6: the window
    assert [line["name"] for line in resolved["sides"]] == [line["name"] for line in resolved["states"]]
    ledger = XlsxBackend(path).read()["Resources"][1:]
    assert ledger and {r[0] for r in ledger} == {"1:state"}  # every ledger row names its window
    greek = XlsxBackend(path).read()["Orders — Greece"][1]
    assert greek[7:9] == ["1:state", "done"] and str(greek[10]).startswith("Explore the village")  # English echo
    backend = XlsxBackend(path)
    backend.write(rulesets.get("civ1").demo_changes(backend.read()))
    assert json.loads(_run(capsys, "resolve", str(path), "--json"))["window"] == "1:cities"
    tables = XlsxBackend(path).read()
    assert {r[0] for r in tables["Resources"][1:]} == {"1:state", "1:cities"}
    assert meta.open_cursor(tables, CALENDAR) == Cursor(2, "state")
    assert tables["Orders — Babylon"][1][7:11] == ["1:cities", "done", None, "Activate Babylon"]
    for window in ("1:state", "1:cities"):
        assert json.loads(_run(capsys, "verify", str(path), "--turn", window, "--json"))["ok"] is True


def test_a_check_executes_nothing_and_says_so_the_resolve_does() -> None:
    """A check draws no die and executes nothing: the demo's rows are «принят» (or refused), never
    «выполнен»; the resolve of the same window executes them."""
    game = rulesets.get("civ1")
    tables = _fresh()
    tables = apply_changes(tables, game.demo_changes(tables))
    checked = game.check(tables)
    statuses = {r.status.value for r in checked.report.results.values()}
    assert "done" not in statuses and "accepted" in statuses, statuses
    resolved = game.resolve(tables, secret="demo-secret")
    assert "done" in {r.status.value for r in resolved.report.results.values()}
