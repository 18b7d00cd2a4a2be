"""Issue 18, point 8: civ1's reports — the forum post (with battles and every die), a nation's
private report, the balance of each resource, the chart — and hidden information: nothing a nation
may not see goes into the public post or another nation's report.

A generated world of five nations (engine/rulesets/civ1/generate.py) plays its first turn: every
nation explores a village and researches, two found a city, and Нация0000 attacks Нация0001's
capital, so the window has a battle with dice, private village findings and ledger postings."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from engine import rulesets
from engine.core.errors import CampaignError
from engine.core.ruleset import SyncResult
from engine.core.tables import Changeset, ReplaceTab, Tables, apply_changes
from engine.rulesets.civ1 import codec, hooks, reporter
from engine.rulesets.civ1.generate import generate, generate_orders, nation_name
from engine.rulesets.civ1.hexes import distance, parse
from engine.rulesets.civ1.vocab import CITIES_TAB, LEDGER, TECHS, TREASURY, realm_tab
from engine.rulesets.civ1.workbook import new_workbook, tables_of

GAME = rulesets.get("civ1")
SECRET = "r" * 32
ROME = nation_name(0)  # the attacker of the war pair
GREECE = nation_name(1)  # attacked
SECRET_COINS, SECRET_SCIENCE = 4321, 987  # numbers no public tab holds
SECRET_TECH = "Монархия"


def _resolve(tables: Tables, stage: str) -> tuple[Tables, SyncResult]:
    tables = hooks.put_orders(tables, generate_orders(codec.decode(tables), stage, seed=3))
    result = GAME.resolve(tables, secret=SECRET)
    return apply_changes(tables, result.changes), result


@cache
def _played() -> tuple[Tables, SyncResult, Tables, SyncResult]:
    """Turn 1 of five generated nations, Rome's treasury and a technology set to numbers and a name
    no public tab holds: the tables after each stage and each stage's result."""
    tables = tables_of(new_workbook("bench", "ru", SECRET, "reports", data=generate(5, seed=1)))
    world = codec.decode(tables)
    world.nations[ROME].coins, world.nations[ROME].science = SECRET_COINS, SECRET_SCIENCE
    world.nations[ROME].techs[SECRET_TECH] = 0
    grids = codec.encode(world, "ru", codec.read_rules(tables))
    tables = apply_changes(tables, Changeset(replace=[ReplaceTab(t, grids[t]) for t in (TREASURY.ru, TECHS.ru)]))
    after_state, state = _resolve(tables, "state")
    after_cities, cities = _resolve(after_state, "cities")
    return after_state, state, after_cities, cities


def test_i18_p8_the_generated_world_has_a_war_pair_and_villages_in_reach() -> None:
    data = generate(23, seed=1)
    assert len(data["nations"]) == 23 and len(data["villages"]) == 23
    hexes = {n["name"]: parse(n["hex"]) for n in data["nations"]}
    assert distance(hexes[nation_name(0)], hexes[nation_name(1)]) == 3  # the war pair: in army range
    assert distance(hexes[nation_name(2)], hexes[nation_name(3)]) == 5  # others: a block apart
    assert all(distance(parse(v), hexes[n["name"]]) == 2 for v, n in zip(data["villages"], data["nations"]))
    assert generate(23, seed=1) == data  # deterministic


def test_i18_p8_the_post_tells_every_battle_and_every_die_of_the_turn() -> None:
    _after_state, state, after_cities, _cities = _played()
    battles = state.report.facts.battles
    assert battles and all(b.duels for b in battles)  # the villages' barbarians (CIV-VILLAGE-02), the war pair
    post = "\n".join(GAME.reporter.forum_post(after_cities, 1))
    assert post.startswith("[b]Цивилизация 1.0, ход 1[/b]") and "[b]Бои[/b]" in post
    duel_lines = iter(x for x in post.splitlines() if x.startswith("  дуэль "))
    for b in battles:
        assert f"{b.attacker} ({b.origin}) атакует {b.target} ({b.defender})" in post
        for d in b.duels:  # in order: each duel's line names both dice lists, both totals, the outcome
            line = next(duel_lines)
            assert line.startswith(f"  дуэль {d.number}: {d.attacker_unit}")
            assert f"кубики [{', '.join(map(str, d.attacker_dice))}]" in line
            assert f"кубики [{', '.join(map(str, d.defender_dice))}]" in line
            assert f"итого {d.attacker_total} против" in line
            assert line.endswith(f"итого {d.defender_total} — {d.outcome}")
    assert next(duel_lines, None) is None
    for line in state.report.chronicle:
        assert line in post  # the public chronicle of both stages
    cities = {str(r[0]) for r in after_cities[CITIES_TAB.ru][1:]}
    assert all(c in post for c in cities)
    assert "\n".join(GAME.reporter.forum_post(after_cities, 2)).count("Бой") == 0  # a later turn: none of turn 1's


def test_i18_p8_hidden_information_nothing_private_in_the_post() -> None:
    """The post holds no nation's private lines (villages, technologies learned), none of its
    treasury, technologies or ledger — only the public tabs."""
    _after_state, state, after_cities, cities = _played()
    private = [line for result in (state, cities) for lines in result.report.private.values()
               for line in lines]
    assert private
    for fmt in ("bbcode", "markdown"):
        post = "\n".join(GAME.reporter.forum_post(after_cities, 1, fmt))
        leaked = [line for line in private if line in post]
        assert not leaked, leaked
        assert str(SECRET_COINS) not in post and str(SECRET_SCIENCE) not in post and SECRET_TECH not in post
        for row in after_cities[LEDGER.ru][1:]:
            assert str(row[6]) not in post  # no ledger reason («изучена … 2 науки», «разведка деревни …»)


def test_i18_p8_a_nations_report_is_its_own_and_holds_nothing_of_another() -> None:
    after_state, state, _after_cities, _cities = _played()
    rome = GAME.reporter.player_report(after_state, ROME)
    greece = GAME.reporter.player_report(after_state, GREECE)
    assert f"монеты — {SECRET_COINS}" in rome and SECRET_TECH in rome
    mine, theirs = state.report.private[ROME], state.report.private[GREECE]
    assert mine and theirs
    for line in mine:
        assert line in rome and (line in theirs or line not in greece)  # «Изучена технология …» may be both's
    for line in theirs:
        assert line in greece and (line in mine or line not in rome)
    assert any(line not in theirs for line in mine)  # Rome's village is its own
    assert str(SECRET_COINS) not in greece and SECRET_TECH not in greece and str(SECRET_SCIENCE) not in greece
    with pytest.raises(CampaignError):
        GAME.reporter.player_report(after_state, "Атлантида")


def test_i18_p8_the_balance_of_each_resource_adds_up_and_agrees_with_the_ledger() -> None:
    """Each nation's «Держава» ends with its balance: for every resource the opening, what came in
    and went out (by ledger category) and the closing, with opening + in − out = closing."""
    after_state, _state, _after_cities, _cities = _played()
    grid = after_state[realm_tab(ROME)]
    start = next(i for i, r in enumerate(grid) if r[:1] == ["Баланс ресурсов за окно"])
    block = grid[start + 1:]
    totals = {str(r[0]): str(r[1]) for r in block if r and not str(r[0]).startswith(" ")}
    assert list(totals) == ["Власть", "монеты", "наука", "молотки", "ПО"]
    for name, text in totals.items():
        opening, gained, spent, closing = (int(x.replace("−", "-")) for x in text.split("; "))
        assert opening + gained + spent == closing, name
    assert totals["монеты"].startswith(f"{SECRET_COINS};")
    ledger = [r for r in after_state[LEDGER.ru][1:] if str(r[1]).partition("/")[0] == ROME]
    assert ledger
    spent_power = sum(-int(r[5]) for r in ledger if r[2] == "власть" and int(r[5]) < 0)
    assert spent_power and int(totals["Власть"].split("; ")[2].replace("−", "")) == spent_power
    by_category = {str(r[0]).strip(): r[1] for r in block if r and str(r[0]).startswith("  ")}
    for r in ledger:
        assert f"{'+' if int(r[5]) > 0 else '−'} {r[4]}" in by_category, r
    assert by_category["− разведка"] == 1  # CIV-TURN-03: exploring a village costs 1 Власть
    other = after_state[realm_tab(GREECE)]
    assert all(str(SECRET_COINS) not in str(c) for r in other for c in r)


def test_i18_p8_player_text_opens_no_tag_and_an_unknown_format_is_refused() -> None:
    _a, _s, after_cities, _c = _played()
    grid = [list(r) for r in after_cities[CITIES_TAB.ru]]
    grid[1][0] = "[url=http://x]**жми**[/url]"
    tampered = apply_changes(after_cities, Changeset(replace=[ReplaceTab(CITIES_TAB.ru, grid)]))
    bb = "\n".join(GAME.reporter.forum_post(tampered, 1, "bbcode"))
    assert "[url=" not in bb and "[\u200burl=http://x]" in bb
    md = "\n".join(GAME.reporter.forum_post(tampered, 1, "markdown"))
    assert r"\*\*жми\*\*" in md and md.startswith("**Цивилизация 1.0, ход 1**")
    with pytest.raises(CampaignError, match="bbcode или markdown"):
        GAME.reporter.forum_post(tampered, 1, "html")


def test_i18_p8_a_long_post_is_split_without_cutting_a_line() -> None:
    _a, _s, after_cities, _c = _played()
    whole = GAME.reporter.forum_post(after_cities, 1)
    parts = GAME.reporter.forum_post(after_cities, 1, limit=200)
    assert len(whole) == 1 and len(parts) > 1
    assert all(len(p) <= 200 or "\n" not in p for p in parts)
    assert "\n".join(parts).splitlines() == whole[0].splitlines()


def test_i18_p8_the_chart_is_public_population_and_cities_over_the_turns(tmp_path: Path) -> None:
    _a, _s, after_cities, _c = _played()
    series = reporter.chart_series(after_cities)
    assert [p[0] for p in series[ROME]] == [0, 1]  # the start (turn 1's first window) and after turn 1
    assert all(pts[0] == (0, 1, 1) for pts in series.values())  # the start: a capital of population 1 each
    now: dict[str, tuple[int, int]] = {}
    for r in after_cities[CITIES_TAB.ru][1:]:
        pop, count = now.get(str(r[1]), (0, 0))
        now[str(r[1])] = (pop + int(r[3]), count + 1)
    assert {n: pts[-1][1:] for n, pts in series.items()} == now  # after turn 1: the public «Города»
    png = GAME.reporter.chart_png(after_cities, tmp_path / "chart.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5_000
