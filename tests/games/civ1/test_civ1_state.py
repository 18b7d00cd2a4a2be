"""Issue 18, the state stage of «Civilization 1.0» (engine/rulesets/civ1/phases/state.py, hexes.py).

One test per mechanic, named by its rule id of docs/rules/civ1.yaml, quoting seed 004
(shared/seeds/004_5331bacb535053e2.txt); the golden cases of spec §4 reproduce the seed's numbers.
Each test builds a small world (tests/civ1_world.py), runs the phase and reads the world, the
row's status and reason, and the ledger lines the phase posted.
"""

from __future__ import annotations

import dataclasses

import pytest
from civ1_world import given, lines, orders, ref, rules, run, world

from engine.core.orders import OrderResult, Status
from engine.rulesets.civ1 import hexes
from engine.rulesets.civ1.facts import Report
from engine.rulesets.civ1.model import DESTROYED, FOUNDED, READY, TRANSFERRED, Card, Intention, Treaty
from engine.rulesets.civ1.ordertypes import (
    AnnounceWonder,
    ChangeGovernment,
    Disband,
    Found,
    Reorganise,
    Research,
    Restore,
    Transfer,
    Upgrade,
)
from engine.rulesets.civ1.phases import state
from engine.rulesets.civ1.phases.state import STATE_PHASES, order_of_play
from engine.rulesets.civ1.rules import Rules, Wonder

PHASE = {p.name: p for p in STATE_PHASES}
L1 = ["Верховая езда", "Гончарное дело", "Письменность", "Охота", "Навигация", "Обработка железа",
      "Философия", "Каменная кладка", "Деньги", "Свод законов"]
L2 = ["Строительство", "Монархия", "Рыцарство", "Печатный станок", "Инженерное дело", "Математика",
      "Астрономия", "Теология", "Стратегия", "Валюта"]
L3 = ["Химия", "Железные дороги", "Демократия", "Литье металла", "СМИ", "Паровая тяга", "Банки",
      "Военное дело", "Биология", "Полет"]
L4 = ["Коммунизм", "Ядерная теория", "Ракеты", "ДВС", "Логистика", "Универсализация", "Пропаганда",
      "Реактивные двигатели", "Компьютеры", "Биржевая экономика"]
FIVE = ("Вавилон", "Египет", "Греция", "Рим", "Китай")


def techs(*names: str) -> dict[str, int]:
    return {n: 1 for n in names}


def result(rep: Report, nation: str, row: int = 2) -> OrderResult:
    return rep.results[ref(nation, row)]


def test_state_phases_have_stable_unique_names() -> None:
    names = [p.name for p in STATE_PHASES]
    assert len(set(names)) == len(names)
    assert names[:2] == [state.FIRST_PLAYER, state.POWER_INCOME]
    assert [state.STEP_OF[n] for n in names] == sorted(state.STEP_OF[n] for n in names)
    assert {state.STEP_OF[n] for n in names} & {3, 4, 9} == set()  # villages, spies, attacks: C4's


# --- CIV-TURN-05 ------------------------------------------------------------------------------------


def test_CIV_TURN_05_first_player_moves_one_seat_and_even_turns_go_back() -> None:
    """«Право первого действия передаётся по часовой стрелке от первого игрока ко второму и т.д. в
    начале каждого хода. Заявки игроков в нечетный ход (1, 3, 5…) резолвится в порядке по
    возрастанию от игрока, начавшего ход, а в четный - по убыванию.»"""
    seats = list(FIVE)
    assert order_of_play(seats, 1) == ["Вавилон", "Египет", "Греция", "Рим", "Китай"]
    assert order_of_play(seats, 2) == ["Египет", "Вавилон", "Китай", "Рим", "Греция"]
    assert order_of_play(seats, 3) == ["Греция", "Рим", "Китай", "Вавилон", "Египет"]
    assert order_of_play(seats, 6) == ["Вавилон", "Китай", "Рим", "Греция", "Египет"]  # the circle closes
    # seats come from «Нации».место, not from the order the nations are listed in
    w = world(nations={n: {"seat": 5 - i} for i, n in enumerate(FIVE)}, turn=2)
    _w, rep = run(PHASE[state.FIRST_PLAYER], w)
    assert rep.facts.order == ["Рим", "Китай", "Вавилон", "Египет", "Греция"]
    assert "первым действует Рим" in rep.chronicle[0]


def test_CIV_TURN_05_later_steps_act_in_the_order_of_play() -> None:
    """«... а в четный - по убыванию»: on turn 2 Греция (seat 2) founds before Рим (seat 1), so the
    hex both want is Греция's and Рим is refused for the spacing."""
    w = world(nations={"Рим": {"power": 5}, "Греция": {"power": 5}}, turn=2,
              cities={"Рим": ("Рим", (0, 0)), "Афины": ("Греция", (6, 0))})
    o = orders(given("Рим", Found((3, 0), "Анций")), given("Греция", Found((3, 0), "Спарта")))
    w, rep = run([PHASE[state.FIRST_PLAYER], PHASE[state.FOUNDING]], w, o)
    assert rep.facts.order == ["Греция", "Рим"]
    assert w.cities["Спарта"].nation == "Греция" and "Анций" not in w.cities
    assert result(rep, "Рим").status is Status.REJECTED
    assert "«Спарта» 0 гекс." in result(rep, "Рим").reason


def test_CIV_TURN_05_a_new_turn_forgets_last_turns_statuses_and_intentions() -> None:
    """«вновь освоенные и только что переданные и завоеванные города эту фазу пропускают»: only the
    cities stage of their own turn; a wonder intention is for one turn's cities stage."""
    w = world(cities={"Рим": {"nation": "Рим", "hex": (0, 0), "status": FOUNDED}})
    w.intentions.append(Intention("Рим", "Рим", "Колосс"))
    w, _rep = run(PHASE[state.FIRST_PLAYER], w)
    assert w.cities["Рим"].status == "" and w.intentions == []


# --- CIV-POWER-01 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("known", "best"), [
    ((), 0),
    (("Философия",), 1),
    (("Философия", "Теология"), 2),
    (("Философия", "Теология", "СМИ"), 3),
    (("Философия", "Теология", "СМИ", "Пропаганда"), 4),
])
def test_CIV_POWER_01_palace_and_the_best_power_technology_only(known: tuple[str, ...], best: int) -> None:
    """«получение Власти от дворца, типа правления и технологии»; «Теология: +2 Власти в ход ...
    (Философия перестает давать бонус)», «СМИ: +3 Власть (философия и теология не дают прирост
    власти)», «Пропаганда: +4 Власть (прочие технологии не дают прирост власти)» → 1 → 2 → 3 → 4."""
    w = world(nations={"Рим": {"techs": techs(*known)}}, cities={"Рим": ("Рим", (0, 0))})
    w, rep = run(PHASE[state.POWER_INCOME], w)
    palace = rules().param("palace_power")
    expected = [("Рим", "власть", "дворец", palace)] + ([("Рим", "власть", "технологии", best)] if best else [])
    assert lines(rep) == expected
    assert w.nations["Рим"].power == palace + best


def test_CIV_POWER_01_government_power_and_no_palace_without_the_capital() -> None:
    """«получение Власти от дворца, типа правления ...»: the government's Power is its row of
    «Правила — Правления» (blank = 0, spec G1); a nation that lost its capital has no palace."""
    r = rules()
    gov = dataclasses.replace(r.governments["monarchy"], power=3)
    r2 = dataclasses.replace(r, governments={**r.governments, "monarchy": gov})
    w = world(nations={"Рим": {"government": "monarchy"}, "Греция": {}},
              cities={"Рим": ("Греция", (0, 0)), "Афины": ("Греция", (5, 5))})
    w.nations["Рим"].capital = "Рим"  # captured by Греция
    w, rep = run(PHASE[state.POWER_INCOME], w, r=r2)
    assert lines(rep, "Рим") == [("Рим", "власть", "правление", 3)]
    assert lines(rep, "Греция") == [("Греция", "власть", "дворец", r.param("palace_power"))]


# --- CIV-CITY-01, CIV-MAP-06 -------------------------------------------------------------------------


def test_CIV_CITY_01_founding_costs_one_power_per_city_owned() -> None:
    """«основание нового города (1 Власть за каждый существующий город ...)»: with two cities the
    third costs 2, and the fourth in the same turn 3."""
    w = world(nations={"Рим": {"power": 5}}, cities={"Рим": ("Рим", (0, 3)), "Остия": ("Рим", (3, 3))})
    o = orders(given("Рим", Found((6, 3), "Анций"), row=2), given("Рим", Found((3, 6), "Вейи"), row=3))
    w, rep = run(PHASE[state.FOUNDING], w, o)
    assert lines(rep) == [("Рим", "власть", "основание", -2), ("Рим", "власть", "основание", -3)]
    assert w.nations["Рим"].power == 0
    assert w.cities["Анций"].status == FOUNDED and w.cities["Анций"].population == rules().limit("city_size_new")
    assert rep.ledger.entries[0].reason == "основан город «Анций»: 2 городов × 1"
    assert "Рим основывает город «Анций» на гексе 6,3" in rep.chronicle


def test_CIV_CITY_01_not_enough_power_names_the_numbers() -> None:
    """«1 Власть за каждый существующий город»: two cities, 1 Власть → refused, nothing posted."""
    w = world(nations={"Рим": {"power": 1}}, cities={"Рим": ("Рим", (0, 3)), "Остия": ("Рим", (3, 3))})
    w, rep = run(PHASE[state.FOUNDING], w, orders(given("Рим", Found((6, 3), "Анций"))))
    r = result(rep, "Рим")
    assert r.status is Status.REJECTED
    assert r.reason.startswith("не хватает Власти: нужно 2, есть 1")
    assert lines(rep) == [] and "Анций" not in w.cities


def test_CIV_CITY_01_three_hexes_from_any_city_even_one_founded_this_turn() -> None:
    """«город нельзя основать ближе 3 клеток от другого, в т.ч. только что построенного, города»."""
    w = world(nations={"Рим": {"power": 9}, "Греция": {"power": 9}},
              cities={"Рим": ("Рим", (0, 0)), "Афины": ("Греция", (7, 0))})
    o = orders(given("Рим", Found((3, 0), "Анций")), given("Греция", Found((5, 0), "Спарта")))
    w, rep = run(PHASE[state.FOUNDING], w, o)
    assert w.cities["Анций"].nation == "Рим"
    r = result(rep, "Греция")
    assert r.status is Status.REJECTED
    assert r.reason == "до города «Анций» 2 гекс., а ближе 3 основать нельзя"
    # exactly 3 away is allowed
    w2 = world(nations={"Рим": {"power": 9}}, cities={"Рим": ("Рим", (0, 0))})
    w2, rep2 = run(PHASE[state.FOUNDING], w2, orders(given("Рим", Found((3, 0), "Анций"))))
    assert result(rep2, "Рим").status is Status.DONE


def test_CIV_CITY_01_range_3_by_default_and_range_technologies() -> None:
    """«дистанция, на которой может быть основан город, ограничена имеющимися технологиями, по
    умолчанию - 3»; «Верховая езда: дальность движения 4»."""
    w = world(nations={"Рим": {"power": 9}}, cities={"Рим": ("Рим", (0, 3))})
    w, rep = run(PHASE[state.FOUNDING], w, orders(given("Рим", Found((4, 3), "Анций"))))
    assert result(rep, "Рим").reason == "гекс 4,3 дальше дальности основания: до «Рим» 4 гекс., дальность 3"
    w = world(nations={"Рим": {"power": 9, "techs": techs("Верховая езда")}}, cities={"Рим": ("Рим", (0, 3))})
    w, rep = run(PHASE[state.FOUNDING], w, orders(given("Рим", Found((4, 3), "Анций"))))
    assert result(rep, "Рим").status is Status.DONE


def test_CIV_CITY_01_only_on_passable_land_without_a_village() -> None:
    """«моря и океаны (... изначально непроходимы ...)», «горы (обычно непроходимы ...)»: no city on
    them; an unexplored village is explored first (decision in docs/rules-decisions.md)."""
    w = world(nations={"Рим": {"power": 9}}, cities={"Рим": ("Рим", (0, 3))},
              terrain={(3, 3): "море", (3, 2): "горы"}, villages=[(2, 5)])
    o = orders(given("Рим", Found((3, 3), "А"), row=2), given("Рим", Found((3, 2), "Б"), row=3),
               given("Рим", Found((2, 5), "В"), row=4), given("Рим", Found((30, 30), "Г"), row=5))
    w, rep = run(PHASE[state.FOUNDING], w, o)
    assert result(rep, "Рим", 2).reason == "гекс 3,3 — море: город основывают только на проходимой суше"
    assert result(rep, "Рим", 3).reason == "гекс 3,2 — горы: город основывают только на проходимой суше"
    assert result(rep, "Рим", 4).reason == "на гексе 2,5 неразведанная деревня: сначала разведайте её"
    assert result(rep, "Рим", 5).reason == "гекс 30,30 вне карты"
    assert lines(rep) == []


def _walled(terrain: str, width: int = 1) -> dict[hexes.Hex, str]:
    """Columns q = 1..width of `terrain` across the whole 10×8 map."""
    return {(q, r): terrain for q in range(1, 1 + width) for r in range(8)}


def test_CIV_MAP_06_mountains_block_until_logistics() -> None:
    """«Горы и моря блокируют перемещение через них армий (в отсутствие особых технологий)»;
    «Логистика: ... Войска могут преодолевать воду и горы»; «Полет: ... Дистанция для разведки и
    освоения новых считается по-прямой (горы, моря, океан не блокируют движение)»."""
    for known, ok in (((), False), (("Логистика",), True), (("Полет",), True)):
        w = world(nations={"Рим": {"power": 9, "techs": techs(*known)}}, cities={"Рим": ("Рим", (0, 3))},
                  terrain=_walled("горы"))
        w, rep = run(PHASE[state.FOUNDING], w, orders(given("Рим", Found((3, 3), "Анций"))))
        assert (result(rep, "Рим").status is Status.DONE) is ok, known
        if not ok:
            assert result(rep, "Рим").reason == ("до гекса 3,3 нет пути от «Рим»: дальность по суше 3, по воде 0; "
                                                 "горы или вода преграждают путь")


def test_CIV_MAP_06_water_along_the_coast_with_navigation_open_sea_with_astronomy() -> None:
    """«Навигация (можно исследовать прибрежные хексы) ... Дистанция движения по воде 6»;
    «Астрономия: позволяет войскам пересекать моря и океаны. Дистанция движения по воде 8»."""
    # a strait of two water columns: every water hex touches land, Навигация crosses it
    narrow = {"terrain": _walled("море", 2)}
    # three columns: the middle one is open sea, out of Навигация's reach
    wide = {"terrain": _walled("море", 3)}
    cases = [(narrow, (3, 3), (), False), (narrow, (3, 3), ("Навигация",), True),
             (wide, (4, 3), ("Навигация",), False), (wide, (4, 3), ("Навигация", "Астрономия"), True)]
    for kw, target, known, ok in cases:
        w = world(nations={"Рим": {"power": 9, "techs": techs(*known)}}, cities={"Рим": ("Рим", (0, 3))}, **kw)
        w, rep = run(PHASE[state.FOUNDING], w, orders(given("Рим", Found(target, "Анций"))))
        assert (result(rep, "Рим").status is Status.DONE) is ok, (target, known, result(rep, "Рим").reason)


def test_CIV_MAP_06_reach_counts_land_steps_against_the_land_range() -> None:
    """«дистанция движения по морю, как правило, значительно превышает дистанцию движения по суше»:
    a route over water may be as long as the water range, its land steps still within the land range."""
    terrain = {(q, 0): ("равнина" if q in (0, 6, 7, 8, 9) else "море") for q in range(10)}
    of = terrain.get
    sea = hexes.Crossing(land=3, water=6, sea=True)
    got = hexes.reach((0, 0), sea, of)
    assert got[(5, 0)] == 5 and got[(6, 0)] == 6  # five water steps, then land at the 6th
    assert (7, 0) not in got  # a 7th step is past the water range
    coast = hexes.reach((0, 0), hexes.Crossing(land=3, water=6), of)
    assert set(coast) == {(0, 0), (1, 0)}  # (2,0) touches no land: open sea, not the coast
    assert hexes.reach((0, 0), hexes.Crossing(land=3), of) == {(0, 0): 0}  # water blocks without a range
    assert hexes.crossing([rules().tech(t) for t in ("Верховая езда", "Математика", "Навигация")], 3) == \
        hexes.Crossing(land=5, water=6)
    assert hexes.crossing([rules().tech("Полет")], 3, straight=False).straight is False


# --- CIV-UNIT-03, CIV-COMBAT-06: upgrades and restores -----------------------------------------------


@pytest.mark.parametrize(("to", "tech", "price"), [("мечники", "Монархия", 4), ("стрелки", "Универсализация", 12)])
def test_CIV_UNIT_03_upgrade_costs_twice_the_hammer_difference(to: str, tech: str, price: int) -> None:
    """«апгрейд войск нации (по цене в монетах, равной удвоенной разнице стоимости юнитов в молотках
    без учета всех возможных скидок)»: ватага (2) → мечники (4) 4 монеты; ватага → стрелки (8) 12."""
    w = world(nations={"Рим": {"coins": 20, "techs": techs(tech)}}, decks={"Рим": ["ватага", "лучники", "ватага"]})
    w, rep = run(PHASE[state.UPGRADES], w, orders(given("Рим", Upgrade("ватага", to))))
    assert result(rep, "Рим").status is Status.DONE
    assert lines(rep) == [("Рим", "монеты", "апгрейд", -price)]
    assert [c.unit for c in w.decks["Рим"].cards] == [to, "лучники", "ватага"]
    assert w.nations["Рим"].coins == 20 - price


def test_CIV_UNIT_03_upgrade_refusals_and_part() -> None:
    """«Купленные ранее войска, игрок может улучшить до новых технологий за монеты»: the new unit's
    technology, the same kind of troops, a later era; as many as the coins pay for."""
    w = world(nations={"Рим": {"coins": 9, "techs": techs("Монархия", "Рыцарство")}},
              decks={"Рим": ["ватага", "ватага", "ватага", Card("ватага", DESTROYED)]})
    o = orders(given("Рим", Upgrade("ватага", "стрелки"), row=2), given("Рим", Upgrade("ватага", "рыцари"), row=3),
               given("Рим", Upgrade("мечники", "ватага"), row=4), given("Рим", Upgrade("ватага", "мечники", 3), row=5),
               given("Рим", Upgrade("всадники", "рыцари"), row=6))
    w, rep = run(PHASE[state.UPGRADES], w, o)
    assert result(rep, "Рим", 2).reason == "для «стрелки» нужна технология «Универсализация»"
    assert result(rep, "Рим", 3).reason == "«рыцари» (мобильные) не того же вида войск, что «ватага» (пехота)"
    assert result(rep, "Рим", 4).reason == "«ватага» (эпоха 1) не новее «мечники» (эпоха 2)"
    assert result(rep, "Рим", 6).reason == "в колоде нет годного войска «всадники»"
    r = result(rep, "Рим", 5)
    assert r.status is Status.PARTIAL
    assert r.reason == "улучшено 2 из 3: не хватает монет: нужно 12, есть 9"
    assert lines(rep) == [("Рим", "монеты", "апгрейд", -8)]
    assert [c.unit for c in w.decks["Рим"].cards] == ["мечники", "мечники", "ватага", "ватага"]


def test_CIV_COMBAT_06_restore_costs_the_hammer_cost() -> None:
    """«восстановление ранее уничтоженных войск нации (по цене в монетах, равной стоимости войска в
    молотках)»: рыцари (средневековье, 4 молотка) — 4 монеты."""
    w = world(nations={"Рим": {"coins": 5}}, decks={"Рим": [Card("рыцари", DESTROYED), Card("рыцари", DESTROYED)]})
    o = orders(given("Рим", Restore("рыцари", 2), row=2), given("Рим", Restore("ватага"), row=3))
    w, rep = run(PHASE[state.RESTORES], w, o)
    assert lines(rep) == [("Рим", "монеты", "восстановление", -4)]
    assert [c.state for c in w.decks["Рим"].cards] == [READY, DESTROYED]
    assert result(rep, "Рим", 2).reason == "восстановлено 1 из 2: не хватает монет: нужно 8, есть 5"
    assert result(rep, "Рим", 3).reason == "нет уничтоженных «ватага»"


# --- CIV-COMBAT-01: reorganisation and disbanding ------------------------------------------------------


def test_CIV_COMBAT_01_reorganisation_costs_one_power_once() -> None:
    """«реорганизация армии нации (изменение последовательности войск в колоде, а также роспуск войск
    по цене в монетах) (1 Власть)»; «Порядок войск в пуле можно изменить в фазе государства за Власть»."""
    w = world(nations={"Рим": {"power": 1}},
              decks={"Рим": ["ватага", "лучники", Card("всадники", DESTROYED), "копейщики", "ватага"]})
    w.decks["Рим"].next = 2
    o = orders(given("Рим", Reorganise(("копейщики", "ватага")), row=2), given("Рим", Disband("ватага"), row=3))
    w, rep = run(PHASE[state.REORGANISATION], w, o)
    assert result(rep, "Рим", 2).status is Status.DONE and result(rep, "Рим", 3).status is Status.DONE
    assert lines(rep) == [("Рим", "власть", "реорганизация", -1)]  # disbanding is free (price 0) and in the same act
    deck = w.decks["Рим"]
    assert [(c.unit, c.state) for c in deck.cards] == [
        ("копейщики", READY), ("ватага", READY), ("лучники", READY), ("всадники", DESTROYED)]
    assert deck.next == 0  # a new order is a new circle of the deck


def test_CIV_COMBAT_01_reorganisation_refusals() -> None:
    """«(1 Власть)»: without it nothing is reordered; the order can only name cards the deck has."""
    w = world(nations={"Рим": {"power": 0}, "Греция": {"power": 2}},
              decks={"Рим": ["ватага"], "Греция": ["ватага", Card("лучники", DESTROYED)]})
    o = orders(given("Рим", Reorganise(("ватага",))), given("Греция", Reorganise(("лучники", "ватага"))))
    w, rep = run(PHASE[state.REORGANISATION], w, o)
    assert result(rep, "Рим").reason == "не хватает Власти: нужно 1, есть 0 (реорганизация армии)"
    assert result(rep, "Греция").reason == "в колоде 0 × «лучники», а в новом порядке 1"
    assert lines(rep) == []


# --- CIV-TECH-01..03: research ------------------------------------------------------------------------


def _pyramid(**more: object) -> dict[str, object]:
    return {"science": 100, "power": 100, "techs": techs(*L1[:5], *L2[:3], *L3[:2]), **more}


@pytest.mark.parametrize(("tech", "ok"), [(L2[5], True), (L4[0], True), (L3[5], False)])
def test_CIV_TECH_01_pyramid_5_3_2(tech: str, ok: bool) -> None:
    """«нормально, если у игрока 5 технологии древности, 3 технологии средневековья и 2 технологии
    нового времени, при этом игрок может изучить технологию средневековья или современности, но не
    может изучить технологию нового времени»."""
    w = world(nations={"Рим": _pyramid()})
    w, rep = run(PHASE[state.RESEARCH], w, orders(given("Рим", Research(tech))))
    r = result(rep, "Рим")
    assert (r.status is Status.DONE) is ok
    if not ok:
        assert r.reason == "пирамида: технологий 3-го уровня стало бы 3, а 2-го уровня 3 — выше должно быть меньше"
        assert tech not in w.nations["Рим"].techs and lines(rep) == []


@pytest.mark.parametrize(("level4", "level5", "ok"), [(2, 0, True), (1, 0, False), (3, 1, False), (4, 1, True),
                                                      (5, 2, False), (6, 2, True)])
def test_CIV_TECH_02_level_5_needs_two_level_4_per_tech(level4: int, level5: int, ok: bool) -> None:
    """«можно открыть 1 технологию 5го уровня имея 2 технологии 4го, 2 технологии 5го, имея 4
    технологий 4го и 3 технологии 5го, имея 6 технологий 4го»; Технология будущего is repeatable,
    +1 ПО each time."""
    known = techs(*L1, *L2[:9], *L3[:8], *L4[:level4], *(["Технология будущего"] if level5 else []))
    w = world(nations={"Рим": {"science": 30, "techs": known, "vp_tech": level5}})
    w, rep = run(PHASE[state.RESEARCH], w, orders(given("Рим", Research("Технология будущего"))))
    r = result(rep, "Рим")
    assert (r.status is Status.DONE) is ok, r.reason
    if ok:
        assert lines(rep) == [("Рим", "наука", "исследование", -30), ("Рим", "по", "технологии", 1)]
        assert w.nations["Рим"].vp_tech == level5 + 1 and w.nations["Рим"].vp_honesty == 1
    else:
        assert r.reason == (f"для {level5 + 1}-й технологии 5-го уровня нужно {2 * (level5 + 1)} технологий "
                            f"4-го уровня, есть {level4}")


def test_CIV_TECH_03_three_techs_in_a_turn_cost_6_science_and_6_power() -> None:
    """«стоимость технологии в зависимости от эпохи: 2 / 5 / 10 / 20 / 30. Вторая и последующие
    технологии в ход требуют траты Власти в дополнение к науке - 2 Власти за 2ю технологию в ход, 4
    Власти за 3ю технологию в ход» → three ancient ones: 6 науки + 0 + 2 + 4 = 6 Власти."""
    w = world(nations={"Рим": {"science": 6, "power": 6}})
    o = orders(*(given("Рим", Research(t), row=i) for i, t in enumerate(L1[:3], start=2)))
    w, rep = run(PHASE[state.RESEARCH], w, o)
    assert all(result(rep, "Рим", i).status is Status.DONE for i in (2, 3, 4))
    assert lines(rep) == [
        ("Рим", "наука", "исследование", -2),
        ("Рим", "наука", "исследование", -2), ("Рим", "власть", "исследование", -2),
        ("Рим", "наука", "исследование", -2), ("Рим", "власть", "исследование", -4),
    ]
    n = w.nations["Рим"]
    assert (n.science, n.power) == (0, 0) and set(L1[:3]) <= set(n.techs)
    assert rep.private["Рим"][0] == "Изучена технология «Верховая езда»"


@pytest.mark.parametrize(("level", "price"), [(1, 2), (2, 5), (3, 10), (4, 20), (5, 30)])
def test_CIV_TECH_03_prices_by_era(level: int, price: int) -> None:
    """«Приобретение технологии стоит 2 / 5 / 10 / 20 / 30 очков науки (в зависимости от эпохи)»."""
    tech = {1: L1[0], 2: L2[0], 3: L3[0], 4: L4[0], 5: "Технология будущего"}[level]
    below = {1: (), 2: L1[:2], 3: (*L1[:3], *L2[:2]), 4: (*L1[:4], *L2[:3], *L3[:2]),
             5: (*L1, *L2[:9], *L3[:8], *L4[:4])}[level]
    known = techs(*below)
    w = world(nations={"Рим": {"science": price - 1, "techs": known}})
    w, rep = run(PHASE[state.RESEARCH], w, orders(given("Рим", Research(tech))))
    assert result(rep, "Рим").reason == f"не хватает науки: нужно {price}, есть {price - 1}"
    w.nations["Рим"].science = price
    w, rep = run(PHASE[state.RESEARCH], w, orders(given("Рим", Research(tech))))
    assert lines(rep, resource="наука") == [("Рим", "наука", "исследование", -price)]


def test_CIV_TECH_03_refusals_name_the_numbers() -> None:
    """«2 Власти за 2ю технологию в ход»: with 1 Власть the second one waits; a known one is not
    learned twice (no exchange of technologies: «Обмен технологиями между игроками невозможен»)."""
    w = world(nations={"Рим": {"science": 10, "power": 1, "techs": techs("Деньги")}})
    o = orders(given("Рим", Research("Деньги"), row=2), given("Рим", Research("Охота"), row=3),
               given("Рим", Research("Письменность"), row=4), given("Рим", Research("Алхимия"), row=5))
    w, rep = run(PHASE[state.RESEARCH], w, o)
    assert result(rep, "Рим", 2).reason == "«Деньги» уже изучена"
    assert result(rep, "Рим", 3).status is Status.DONE
    assert result(rep, "Рим", 4).reason == "не хватает Власти: нужно 2, есть 1 (2-я технология за ход)"
    assert result(rep, "Рим", 5).reason == "нет технологии «Алхимия»"
    assert lines(rep) == [("Рим", "наука", "исследование", -2)]


# --- CIV-GOV-01/02 --------------------------------------------------------------------------------------


def test_CIV_GOV_01_free_change_declared_with_the_research() -> None:
    """«в ход открытия технологии, нация может бесплатно сменить тип правления на вновь открытый (это
    должно заявляться при изучении технологии)»."""
    w = world(nations={"Рим": {"science": 4, "power": 0}, "Греция": {"science": 2}})
    o = orders(given("Рим", Research("Философия", "античная демократия")),
               given("Греция", Research("Деньги", "монархия")))
    w, rep = run(PHASE[state.RESEARCH], w, o)
    assert w.nations["Рим"].government == "ancient_democracy"
    assert lines(rep, "Рим") == [("Рим", "наука", "исследование", -2)]
    assert "Рим: новое правление — античная демократия" in rep.chronicle
    r = result(rep, "Греция")
    assert r.status is Status.PARTIAL and "Деньги" in w.nations["Греция"].techs
    assert r.reason == "правление «монархия» открывает «Монархия», а не «Деньги»: бесплатно не сменить"
    assert w.nations["Греция"].government == ""


def test_CIV_GOV_01_a_later_change_costs_one_power_per_era_reached() -> None:
    """«смена типа правления в ходе игры требует дополнительного расхода власти (1 Власть за каждую
    достигнутую нацией эпоху)»: a nation in the middle ages pays 2."""
    w = world(nations={"Рим": {"power": 3, "techs": techs("Философия", "Свод законов", "Монархия")},
                       "Греция": {"power": 1, "techs": techs("Философия", "Монархия")},
                       "Египет": {"power": 5}})
    o = orders(given("Рим", ChangeGovernment("монархия")), given("Греция", ChangeGovernment("монархия")),
               given("Египет", ChangeGovernment("республика")))
    w, rep = run(PHASE[state.GOVERNMENT], w, o)
    assert w.nations["Рим"].government == "monarchy"
    assert lines(rep) == [("Рим", "власть", "правление", -2)]
    assert result(rep, "Греция").reason == "не хватает Власти: нужно 2, есть 1 (1 за каждую из 2 эпох)"
    assert result(rep, "Египет").reason == "для правления «республика» нужна технология «Свод законов»"


# --- CIV-WONDER-01 ---------------------------------------------------------------------------------------


def _with_wonder() -> Rules:
    r = rules()
    return dataclasses.replace(r, wonders={"Колосс": Wonder("Колосс", "Colossus", 1, "", "", "")})


def test_CIV_WONDER_01_intentions_are_public_and_not_exclusive() -> None:
    """«объявление, какой город какое Чудо света планирует строить (не обязательно; кроме того, не
    обязывает нацию строить это Чудо света, не запрещает другим игрокам пытаться строить это Чудо в
    этот ход ...)»."""
    w = world(cities={"Рим": ("Рим", (0, 0)), "Афины": ("Греция", (6, 6))})
    o = orders(given("Рим", AnnounceWonder("Колосс", "Рим")), given("Греция", AnnounceWonder("Колосс", "Афины")),
               given("Греция", AnnounceWonder("Колосс", "Рим"), row=3),
               given("Греция", AnnounceWonder("Пирамиды", "Афины"), row=4))
    w, rep = run(PHASE[state.WONDERS], w, o, r=_with_wonder())
    assert w.intentions == [Intention("Рим", "Рим", "Колосс"), Intention("Греция", "Афины", "Колосс")]
    assert "Рим заявляет: город «Рим» будет строить чудо «Колосс»" in rep.chronicle
    assert result(rep, "Греция", 3).reason == "«Рим» — не ваш город"
    assert result(rep, "Греция", 4).reason == "нет чуда «Пирамиды» в «Правила — Чудеса»"
    assert lines(rep) == []
    w.cities["Рим"].wonders.append("Колосс")
    w.intentions = []
    w, rep = run(PHASE[state.WONDERS], w, orders(given("Греция", AnnounceWonder("Колосс", "Афины"))),
                 r=_with_wonder())
    assert result(rep, "Греция").reason == "чудо «Колосс» уже построено в «Рим»"


# --- CIV-DIPLO-05 ------------------------------------------------------------------------------------------


def test_CIV_DIPLO_05_transfers_need_the_technology_on_either_side() -> None:
    """«Для передачи достаточно, чтобы хотя бы один из лидеров двух наций (передающей либо
    принимающей) владел нужной технологией»; «после открытия валюты ... монетами», «после открытия
    СМИ, лидеры наций могут передавать и принимать Власть»."""
    w = world(nations={"Рим": {"coins": 5, "power": 3}, "Греция": {"techs": techs("Валюта")}, "Египет": {}})
    o = orders(given("Рим", Transfer("coins", "Греция", qty=3), row=2),
               given("Рим", Transfer("coins", "Египет", qty=1), row=3),
               given("Рим", Transfer("power", "Греция", qty=1), row=4),
               given("Рим", Transfer("coins", "Греция", qty=9), row=5))
    w, rep = run(PHASE[state.TRANSFERS], w, o)
    assert lines(rep) == [("Рим", "монеты", "передача", -3), ("Греция", "монеты", "передача", 3)]
    assert result(rep, "Рим", 3).reason == "для такой передачи хотя бы одна из сторон должна знать «Валюта»"
    assert result(rep, "Рим", 4).reason == "для такой передачи хотя бы одна из сторон должна знать «СМИ»"
    assert result(rep, "Рим", 5).reason == "не хватает монет: нужно 9, есть 2"
    assert rep.private["Греция"] == ["Рим передаёт вам: 3 монеты"]


def test_CIV_DIPLO_05_cities_but_not_the_capital_and_power_with_mass_media() -> None:
    """«после открытия философии, нации могут передавать другим нациям города»; «Философия: ...
    Позволяет передавать города (но не столицу)»; СМИ: Власть."""
    w = world(nations={"Рим": {"techs": techs("Философия", "СМИ"), "power": 2}, "Греция": {}},
              cities={"Рим": ("Рим", (0, 0)), "Анций": {"nation": "Рим", "hex": (4, 0), "hammers": 3}})
    o = orders(given("Рим", Transfer("city", "Греция", "Анций"), row=2),
               given("Рим", Transfer("city", "Греция", "Рим"), row=3),
               given("Рим", Transfer("power", "Греция", qty=2), row=4))
    w, rep = run(PHASE[state.TRANSFERS], w, o)
    city = w.cities["Анций"]
    assert (city.nation, city.status, city.hammers) == ("Греция", TRANSFERRED, 3)
    assert result(rep, "Рим", 3).reason == "«Рим» — столица: её передать нельзя"
    assert lines(rep) == [("Рим", "власть", "передача", -2), ("Греция", "власть", "передача", 2)]
    assert "Рим передаёт город «Анций» нации Греция" in rep.chronicle


# --- CIV-DIPLO-01..04 --------------------------------------------------------------------------------------


def test_CIV_DIPLO_04_a_confirmed_breach_costs_the_honesty_vp_once() -> None:
    """«Если факт осуждения подтверждается, Ведущий фиксирует списание 1 ПО с виновника (есть ещё не
    все ПО “за честность” списаны)»: the GM writes the breach in «Договоры»; the ledger moves 1 ПО."""
    w = world(nations={"Рим": {"vp_tech": 2}, "Греция": {}})
    w.treaties = [Treaty(1, ("Рим", "Греция"), "ненападение", 2, breached_by="Рим"),
                  Treaty(2, ("Рим", "Греция"), "без ОМП", 3, breached_by="Рим")]
    w, rep = run(PHASE[state.HONESTY], w)
    assert lines(rep) == [("Рим", "по", "честность", -1)]
    assert (w.nations["Рим"].vp_honesty, w.nations["Рим"].vp_tech) == (0, 2)
    assert w.balance("Рим", "по") == 2
    w, rep = run(PHASE[state.HONESTY], w)
    assert lines(rep) == []  # the honesty VP is gone; nothing more to lose


# --- the stage as a whole ------------------------------------------------------------------------------


def test_CIV_TURN_03_the_state_steps_run_in_order_on_one_world() -> None:
    """«Каждый из 15 ходов разбит на две фазы ...»: the state steps in the seed's order — income
    first, so the Power it brings pays for the city, the research and the reorganisation of the same
    turn; every balance change is a ledger line, and the balances are the ledger's sums."""
    w = world(nations={"Рим": {"power": 1, "coins": 4, "science": 4, "techs": techs("Монархия", "Философия")},
                       "Греция": {}},
              cities={"Рим": ("Рим", (0, 3)), "Афины": ("Греция", (9, 3))},
              decks={"Рим": ["ватага", "ватага"], "Греция": ["ватага"]})
    o = orders(given("Рим", Found((3, 3), "Анций"), row=2), given("Рим", Upgrade("ватага", "мечники"), row=3),
               given("Рим", Reorganise(("мечники",)), row=4), given("Рим", Research("Охота"), row=5),
               given("Рим", Research("Деньги"), row=6))
    w, rep = run(STATE_PHASES, w, o)
    assert all(r.status is Status.DONE for r in rep.results.values()), rep.results
    n = w.nations["Рим"]
    # 1 + palace 2 + Философия 1; the city −1 (one city owned); reorganisation −1; the 2nd technology −2
    assert (n.power, n.coins, n.science) == (0, 0, 0)
    assert [c.unit for c in w.decks["Рим"].cards] == ["мечники", "ватага"]
    for res in ("власть", "монеты", "наука"):
        start = {"власть": 1, "монеты": 4, "наука": 4}[res]
        assert w.balance("Рим", res) == start + rep.ledger.total("Рим", res)


def test_CIV_CITY_01_reasons_in_an_english_campaign() -> None:
    """The reasons are the campaign's language (the `civ1` catalogue's English)."""
    from engine.core import i18n

    w = world(nations={"Рим": {"power": 1}}, cities={"Рим": ("Рим", (0, 3)), "Остия": ("Рим", (3, 3))}, lang="en")
    with i18n.using("en"):
        w, rep = run(PHASE[state.FOUNDING], w, orders(given("Рим", Found((6, 3), "Анций"))))
    assert result(rep, "Рим").reason == "not enough Power: 2 needed, 1 held (1 Power for each of 2 cities)"


def test_CIV_MAP_06_ranges_by_purpose() -> None:
    """«дистанция разведки ограничена имеющимися технологиями, по умолчанию - 3»; «Полет: ...
    Дистанция для разведки и освоения новых считается по-прямой»; armies: «При направлении армий
    учитывается характеристика “максимальная дистанция движения”»; water for armies only once they
    may cross seas (spec G7)."""
    from engine.rulesets.civ1 import reach

    nav = world(nations={"Рим": {"techs": techs("Навигация", "Полет", "Верховая езда")}}).nations["Рим"]
    assert reach.crossing_for(nav, rules(), reach.EXPLORE) == hexes.Crossing(land=4, water=6, straight=True)
    assert reach.crossing_for(nav, rules(), reach.ARMY) == hexes.Crossing(land=4)
    sea = world(nations={"Рим": {"techs": techs("Навигация", "Астрономия")}}).nations["Рим"]
    assert reach.crossing_for(sea, rules(), reach.ARMY) == hexes.Crossing(land=3, water=8, sea=True)
    w = world(nations={"Рим": {"techs": techs("Навигация")}}, cities={"Рим": ("Рим", (0, 3))},
              terrain=_walled("море", 2))
    assert (3, 3) in reach.reached(w, w.nations["Рим"], rules(), reach.FOUND)
    assert (3, 3) not in reach.reached(w, w.nations["Рим"], rules(), reach.ARMY)


def test_CIV_DIPLO_02_founding_near_a_guaranteed_nation_warns_the_gm() -> None:
    """«гарантии не создавать новые города рядом с другой нацией (одностороннее): неприемлемо
    основывать города ближе 6 хексов от другого освоенного города второй стороны»; «Все гарантии
    действуют исключительно на текущий и следующий ход»: breaking one is allowed, so the GM is warned."""
    w = world(nations={"Рим": {"power": 9}, "Греция": {}}, turn=3,
              cities={"Рим": ("Рим", (0, 3)), "Афины": ("Греция", (7, 3))})
    w.treaties = [Treaty(2, ("Рим", "Греция"), "не строить ближе 6", 3)]
    w, rep = run(PHASE[state.FOUNDING], w, orders(given("Рим", Found((3, 3), "Анций"))))
    assert result(rep, "Рим").status is Status.DONE
    assert rep.warnings == ["Рим основал город в 4 гекс. от «Афины» (Греция) при гарантии «не строить ближе 6» "
                            "хода 2: проверьте, нарушено ли слово"]
    w = world(nations={"Рим": {"power": 9}, "Греция": {}}, turn=4,
              cities={"Рим": ("Рим", (0, 3)), "Афины": ("Греция", (7, 3))})
    w.treaties = [Treaty(2, ("Рим", "Греция"), "не строить ближе 6", 3)]  # expired after turn 3
    w, rep = run(PHASE[state.FOUNDING], w, orders(given("Рим", Found((3, 3), "Анций"))))
    assert rep.warnings == []


def test_CIV_POWER_02_prices_are_the_rules_tab() -> None:
    """«Правила — Цены» is what the GM edits: a founding price made «раз» (once) no longer grows
    with the cities; an empty new order of the deck is refused and costs nothing."""
    r = rules()
    once = dataclasses.replace(r.prices["found_city"], amount=2, per="once")
    r2 = dataclasses.replace(r, prices={**r.prices, "found_city": once})
    w = world(nations={"Рим": {"power": 5}}, cities={"Рим": ("Рим", (0, 3)), "Остия": ("Рим", (3, 3))},
              decks={"Рим": ["ватага"]})
    w, rep = run(PHASE[state.FOUNDING], w, orders(given("Рим", Found((6, 3), "Анций"))), r=r2)
    assert lines(rep) == [("Рим", "власть", "основание", -2)]
    w, rep = run(PHASE[state.REORGANISATION], w, orders(given("Рим", Reorganise(()))))
    assert result(rep, "Рим").reason == "не указан новый порядок колоды" and lines(rep) == []


def test_CIV_SPY_02_a_stolen_technology_costs_half_next_turn() -> None:
    """«похитить сведения о технологии (только в столице, в случае успеха в следующий ход снижает
    цену похищенной технологии* вдвое)»: the spies phase marks the turn (`Nation.stolen`); 5 → 3
    (spec G18: rounded up), only on that turn."""
    w = world(nations={"Рим": {"science": 5, "techs": techs(*L1[:2])}}, turn=4)
    w.nations["Рим"].stolen = {"Монархия": 4, "Рыцарство": 3}
    o = orders(given("Рим", Research("Монархия"), row=2))
    w, rep = run(PHASE[state.RESEARCH], w, o)
    assert lines(rep) == [("Рим", "наука", "исследование", -3)]
    assert rep.ledger.entries[0].reason == "изучена «Монархия» (уровень 2): 3 науки (вдвое дешевле: похищена шпионом)"
    w.nations["Рим"].techs["Охота"] = 1
    w.nations["Рим"].power = 2
    w, rep = run(PHASE[state.RESEARCH], w, orders(given("Рим", Research("Рыцарство"))))
    assert result(rep, "Рим").reason == "не хватает науки: нужно 5, есть 2"  # last turn's theft is over


def test_CIV_DIPLO_05_resources_move_between_stocks_with_currency() -> None:
    """«после открытия валюты, лидеры наций могут обмениваться ресурсами и монетами без ограничений
    (в т.ч. передавать безвозмездно)»: a token of the giver's stock goes to the receiver's."""
    w = world(nations={"Рим": {"techs": techs("Валюта")}, "Греция": {}})
    w.nations["Рим"].resources = ["Уголь", "Шёлк"]
    w.nations["Греция"].resources = []
    o = orders(given("Рим", Transfer("resource", "Греция", "шёлк"), row=2),
               given("Рим", Transfer("resource", "Греция", "Нефть"), row=3))
    w, rep = run(PHASE[state.TRANSFERS], w, o)
    assert result(rep, "Рим", 2).status is Status.DONE
    assert (w.nations["Рим"].resources, w.nations["Греция"].resources) == (["Уголь"], ["Шёлк"])
    assert result(rep, "Рим", 3).reason == "у нации нет ресурса «Нефть»; есть: Уголь"
    assert rep.private["Греция"] == ["Рим передаёт вам ресурс «Шёлк»"]
