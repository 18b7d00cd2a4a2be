"""«Civilization 1.0»'s cities stage (engine/rulesets/civ1/phases/cities.py), the default orders of an
absent nation (absent.py) and the end of the game and its score (score.py), by rule id, each test
quoting the seed (/work/shared/seeds/004_*.txt)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from civ1_world import dice, given, lines, orders, ref, report, rules, world

from engine.core.orders import Status
from engine.rulesets.civ1.absent import stand_ins
from engine.rulesets.civ1.model import CONQUERED, DESTROYED, FOUNDED, TRANSFERRED, Card, Deck, Intention, Spy, World
from engine.rulesets.civ1.ordertypes import (
    CITIES,
    STATE,
    Activate,
    Build,
    BuildUnit,
    BuildWonder,
    Convert,
    CounterSpy,
    Given,
    Research,
    Restore,
    Upgrade,
    UseResource,
    Work,
)
from engine.rulesets.civ1.phases.cities import CITY_PHASES, wonder_price
from engine.rulesets.civ1.rules import Resource, Rules, Wonder
from engine.rulesets.civ1.score import Score, game_over, score, victory
from engine.rulesets.civ1.yields import hex_yield

ROME = "Рим"


def play(w: World, *rows: Given, rules_: Rules | None = None) -> tuple[World, Any]:
    """Run the cities stage on `w` with `rows`; the world and the report."""
    rep = report(w)
    for phase in CITY_PHASES:
        w = phase.run(w, orders(*rows), dice(), rules_ or rules(), rep)
    return w, rep


def rome(power: int = 5, coins: int = 0, techs: dict[str, int] | None = None, population: int = 1,
         hammers: int = 0, terrain: dict[tuple[int, int], str] | None = None, **city: Any) -> World:
    """Рим with one city «Рим» on (2,2) of a plain, its neighbours as `terrain` says."""
    return world(nations={ROME: {"power": power, "coins": coins, "techs": techs or {}}, "Греция": {}},
                 cities={ROME: {"nation": ROME, "hex": (2, 2), "population": population, "hammers": hammers,
                                **city}},
                 terrain=terrain, stage="cities")


def status(rep: Any, row: int = 2) -> Status:
    return rep.results[ref(ROME, row)].status


def reason(rep: Any, row: int = 2) -> str:
    return rep.results[ref(ROME, row)].reason


# --- activation (CIV-TURN-04) -------------------------------------------------------------------


def test_CIV_TURN_04_activation_costs_one_power() -> None:
    """«фаза городов (активация городов по цене 1 Власть …)»."""
    w, rep = play(rome(power=2), given(ROME, Activate(ROME)))
    assert status(rep) is Status.DONE and w.nations[ROME].power == 1
    assert (ROME, "власть", "активация", -1) in lines(rep)


def test_CIV_TURN_04_activation_without_power_is_refused() -> None:
    """«активация городов по цене 1 Власть»: with 0 Власть the city stays idle, and its rows too."""
    w, rep = play(rome(power=0), given(ROME, Activate(ROME)), given(ROME, Work(ROME, (3, 2), "hammers"), row=3))
    assert status(rep) is Status.REJECTED and "нужно 1, есть 0" in reason(rep)
    assert status(rep, 3) is Status.REJECTED and "не активирован" in reason(rep, 3)
    assert w.cities[ROME].hammers == 0


def test_CIV_TURN_04_new_transferred_conquered_cities_skip() -> None:
    """«вновь освоенные и только что переданные и завоеванные города эту фазу пропускают»."""
    for st in (FOUNDED, TRANSFERRED, CONQUERED):
        w, rep = play(rome(power=3, status=st), given(ROME, Activate(ROME)))
        assert status(rep) is Status.REJECTED and "пропускает" in reason(rep)
        assert w.nations[ROME].power == 3


def test_CIV_TURN_04_cities_activate_in_row_order_and_nations_in_the_order_of_play() -> None:
    """«Активация городов идет в произвольном (заданном игроком) порядке»: with Власть for one, the
    first row's city is activated; and nations follow the turn's order of play."""
    w = world(nations={ROME: {"power": 1}, "Греция": {"power": 1}},
              cities={"Анций": (ROME, (5, 5)), ROME: (ROME, (2, 2)), "Афины": ("Греция", (8, 2))}, stage="cities")
    rep = report(w)
    rep.facts.order = ["Греция", ROME]
    rows = orders(given(ROME, Activate("Анций"), 2), given(ROME, Activate(ROME), 3), given("Греция", Activate("Афины")))
    CITY_PHASES[0].run(w, rows, dice(), rules(), rep)
    assert rep.results[ref(ROME, 2)].status is Status.DONE
    assert rep.results[ref(ROME, 3)].status is Status.REJECTED
    assert [e.state for e in rep.ledger if e.category == "активация"] == ["Греция", ROME]


def test_CIV_TURN_04_a_city_not_of_the_nation_is_refused() -> None:
    """«активация городов» — one's own cities only."""
    w = rome()
    w.cities["Афины"] = replace(w.cities[ROME], name="Афины", nation="Греция", hex=(7, 2))
    _, rep = play(w, given(ROME, Activate("Афины")))
    assert status(rep) is Status.REJECTED and "нет города" in reason(rep)


# --- collecting (CIV-MAP-02..05) ----------------------------------------------------------------


def test_CIV_MAP_02_terrain_yields_with_the_plus_one_of_choice() -> None:
    """«холмы (+1 молоток); лес и джунгли (+1 молоток); моря и океаны (+1 монета)»; «Каждый
    обрабатываемый хекс кроме своего ресурса, дает либо ещё +1 молоток, либо +1 монету, либо +1 науку»."""
    r = rules()
    assert hex_yield(r, "холмы", {}, "hammers").hammers == 2
    assert (hex_yield(r, "холмы", {}, "coins").hammers, hex_yield(r, "холмы", {}, "coins").coins) == (1, 1)
    assert hex_yield(r, "лес", {}, "science").science == 1 and hex_yield(r, "лес", {}, "science").hammers == 1
    assert hex_yield(r, "равнина", {}, "coins").coins == 1
    assert hex_yield(r, "пустыня", {}, "hammers").hammers == 1
    assert hex_yield(r, "море", {"Навигация": 1}, "hammers").coins == 2  # 1 + Навигация


def test_CIV_MAP_04_technologies_change_the_yields() -> None:
    """«при изученном строительстве, лес при обработке производит 2 молотка вместо одного»; «при изученной
    математике, хексы (кроме морей и океанов) производят 2 монеты вместо одной»; «при изученных железных
    дорогах, холмы производят 2 молотка»; «с навигацией - 3 монеты»; «джунгли производят +2 науки»."""
    r = rules()
    assert hex_yield(r, "лес", {"Строительство": 1}, "coins").hammers == 2
    assert hex_yield(r, "равнина", {"Математика": 1}, "coins").coins == 2
    assert hex_yield(r, "равнина", {"Математика": 1}, "hammers").coins == 0
    assert hex_yield(r, "холмы", {"Железные дороги": 1}, "coins").hammers == 2
    assert hex_yield(r, "море", {"Навигация": 1, "Астрономия": 1}, "science").coins == 3
    assert hex_yield(r, "море", {"Навигация": 1, "Математика": 1}, "coins").coins == 3  # 2 + choice, no Математика
    assert hex_yield(r, "джунгли", {"Биология": 1}, "science").science == 2


def test_CIV_MAP_03_collecting_posts_hammers_to_the_city_and_coins_science_to_the_nation() -> None:
    """«сбор жителями города молотков, монет, науки (от построек и от обработки прилегающих к городу гексов)»."""
    w = rome(population=2, terrain={(3, 2): "холмы", (2, 3): "лес"}, buildings=["библиотека"])
    w, rep = play(w, given(ROME, Activate(ROME)), given(ROME, Work(ROME, (3, 2), "hammers"), 3),
                  given(ROME, Work(ROME, (2, 3), "coins"), 4))
    assert w.cities[ROME].hammers == 3  # холмы 1+1, лес 1
    assert (w.nations[ROME].coins, w.nations[ROME].science) == (1, 1)  # the choice, the library
    assert (f"{ROME}/{ROME}", "молотки", "обработка", 2) in lines(rep)


def test_CIV_MAP_03_worked_hexes_no_more_than_the_population() -> None:
    """«количество обрабатываемых хексов определяется населением города»."""
    w, rep = play(rome(population=1), given(ROME, Activate(ROME)), given(ROME, Work(ROME, (3, 2), "hammers"), 3),
                  given(ROME, Work(ROME, (2, 3), "hammers"), 4))
    assert status(rep, 3) is Status.DONE
    assert status(rep, 4) is Status.REJECTED and "не больше 1" in reason(rep, 4)
    assert w.cities[ROME].hammers == 1


def test_CIV_MAP_02_sea_and_mountains_need_their_technology() -> None:
    """«моря и океаны (… не могут обрабатываться до открытия Навигации)»; «горы (… не могут обрабатываться
    до открытия Химии)»; a hex not next to the city is refused."""
    w, rep = play(rome(population=2, terrain={(3, 2): "море", (2, 3): "горы"}), given(ROME, Activate(ROME)),
                  given(ROME, Work(ROME, (3, 2), "coins"), 3), given(ROME, Work(ROME, (2, 3), "coins"), 4),
                  given(ROME, Work(ROME, (5, 5), "coins"), 5))
    assert "Навигация" in reason(rep, 3) and "Химия" in reason(rep, 4) and "не прилегает" in reason(rep, 5)
    w, rep = play(rome(population=2, techs={"Навигация": 1, "Химия": 1}, terrain={(3, 2): "море", (2, 3): "горы"}),
                  given(ROME, Activate(ROME)), given(ROME, Work(ROME, (3, 2), "coins"), 3),
                  given(ROME, Work(ROME, (2, 3), "science"), 4))
    assert (w.nations[ROME].coins, w.nations[ROME].science) == (3, 1)  # sea 2 + 1; mountains 0 + 1


# --- growth (CIV-MAP-05) ------------------------------------------------------------------------


def test_CIV_MAP_05_a_plain_worked_for_growth_adds_one_up_to_the_limit() -> None:
    """«если обрабатываемый хекс равнины (или поля) не используется для получения ресурса, она позволяет
    увеличить численность населения города на 1 (но не выше лимита и не более +1 к населению за ход)»."""
    w, rep = play(rome(population=1), given(ROME, Activate(ROME)), given(ROME, Work(ROME, (3, 2), "growth"), 3))
    assert w.cities[ROME].population == 2 and status(rep, 3) is Status.DONE
    assert w.cities[ROME].hammers == 0 and w.nations[ROME].coins == 0  # no +1 of choice
    # size 2 is the limit without Гончарное дело
    w, rep = play(rome(population=2), given(ROME, Activate(ROME)), given(ROME, Work(ROME, (3, 2), "growth"), 3),
                  given(ROME, Work(ROME, (2, 3), "growth"), 4))
    assert w.cities[ROME].population == 2 and status(rep, 3) is Status.PARTIAL
    assert "предела населения 2" in reason(rep, 3)


def test_CIV_MAP_05_pottery_lets_a_city_reach_three_one_a_turn() -> None:
    """«Гончарное дело: размер города может достигать 3»; «не более +1 к населению за ход»."""
    w, _ = play(rome(population=2, techs={"Гончарное дело": 1}), given(ROME, Activate(ROME)),
                given(ROME, Work(ROME, (3, 2), "growth"), 3), given(ROME, Work(ROME, (2, 3), "growth"), 4))
    assert w.cities[ROME].population == 3


def test_CIV_MAP_05_universalisation_grows_two_with_two_plains() -> None:
    """«Универсализация: … Город может расти на 2 единицы населения в ход (требует обработки двух равнин)»."""
    techs = {"Гончарное дело": 1, "Инженерное дело": 1, "Биология": 1, "Логистика": 1, "Универсализация": 1}
    w, _ = play(rome(population=2, techs=techs), given(ROME, Activate(ROME)),
                given(ROME, Work(ROME, (3, 2), "growth"), 3), given(ROME, Work(ROME, (2, 3), "growth"), 4))
    assert w.cities[ROME].population == 4
    w, _ = play(rome(population=2, techs=techs), given(ROME, Activate(ROME)),
                given(ROME, Work(ROME, (3, 2), "growth"), 3), given(ROME, Work(ROME, (2, 3), "hammers"), 4))
    assert w.cities[ROME].population == 3


def test_CIV_MAP_04_forest_grows_only_with_hunting() -> None:
    """«при изученной охоте, лес и джунгли могут использоваться для роста населения города»."""
    w, rep = play(rome(terrain={(3, 2): "лес"}), given(ROME, Activate(ROME)),
                  given(ROME, Work(ROME, (3, 2), "growth"), 3))
    assert w.cities[ROME].population == 1 and status(rep, 3) is Status.PARTIAL
    w, _ = play(rome(techs={"Охота": 1}, terrain={(3, 2): "лес"}), given(ROME, Activate(ROME)),
                given(ROME, Work(ROME, (3, 2), "growth"), 3))
    assert w.cities[ROME].population == 2


# --- units (CIV-UNIT-03, CIV-TURN-04) -----------------------------------------------------------


def test_CIV_TURN_04_unit_prices_by_era_and_coins_pay_the_rest() -> None:
    """«формирование новых войск (цена строительства зависит от эпохи и составляет 2 / 4 / 6 / 8 молотков»;
    «Войска производятся городами за молотки (и/или монеты)» (spec G10: 1:1)."""
    w, rep = play(rome(hammers=1, coins=5), given(ROME, Activate(ROME)), given(ROME, BuildUnit("ватага", ROME), 3))
    assert status(rep, 3) is Status.DONE and w.decks[ROME].cards[-1].unit == "ватага"
    assert (w.cities[ROME].hammers, w.nations[ROME].coins) == (0, 4)
    w, rep = play(rome(hammers=3, techs={"Монархия": 1}), given(ROME, Activate(ROME)),
                  given(ROME, BuildUnit("мечники", ROME), 3))
    assert status(rep, 3) is Status.REJECTED and "нужно 4, есть 3 молотков и 0 монет" in reason(rep, 3)
    w, rep = play(rome(hammers=8, techs={"Монархия": 1}), given(ROME, Activate(ROME)),
                  given(ROME, BuildUnit("мечники", ROME), 3))
    assert status(rep, 3) is Status.DONE and w.cities[ROME].hammers == 4


def test_CIV_UNIT_03_obsolete_and_unknown_units_are_barred() -> None:
    """«Устаревшие войска строить нельзя»; «Монархия: … Позволяет строить мечников»."""
    _, rep = play(rome(hammers=9), given(ROME, Activate(ROME)), given(ROME, BuildUnit("мечники", ROME), 3))
    assert "Монархия" in reason(rep, 3)
    _, rep = play(rome(hammers=9, techs={"Монархия": 1}), given(ROME, Activate(ROME)),
                  given(ROME, BuildUnit("ватага", ROME), 3))
    assert status(rep, 3) is Status.REJECTED and "устарело" in reason(rep, 3)


# --- buildings (CIV-CITY-02) --------------------------------------------------------------------


def test_CIV_CITY_02_building_prices_and_extra_power() -> None:
    """«цена строительства зданий 2 / 4 / 6 / 8 молотков в зависимости от эпохи»; «все постройки кроме
    первой, требуют дополнительно потратить 1 Власть каждая»."""
    techs = {"Письменность": 1, "Деньги": 1, "Обработка железа": 1}
    w, rep = play(rome(power=2, hammers=6, techs=techs), given(ROME, Activate(ROME)),
                  given(ROME, Build("библиотека", ROME), 3), given(ROME, Build("рынок", ROME), 4),
                  given(ROME, Build("кузница", ROME), 5))
    assert [status(rep, n) for n in (3, 4, 5)] == [Status.DONE, Status.DONE, Status.REJECTED]
    assert "нужно 1, есть 0" in reason(rep, 5)
    assert w.cities[ROME].buildings == ["библиотека", "рынок"] and w.cities[ROME].hammers == 2
    assert [a for s, res, cat, a in lines(rep, ROME, "власть")] == [-1, -1]


def test_CIV_CITY_02_engineering_gives_two_free_buildings() -> None:
    """«Инженерное дело: города могут возводить 2 строения за 1 ход без траты Власти» (spec G11: a third +1)."""
    techs = {"Письменность": 1, "Деньги": 1, "Обработка железа": 1, "Инженерное дело": 1}
    w, rep = play(rome(power=2, hammers=6, techs=techs), given(ROME, Activate(ROME)),
                  given(ROME, Build("библиотека", ROME), 3), given(ROME, Build("рынок", ROME), 4),
                  given(ROME, Build("кузница", ROME), 5))
    assert [status(rep, n) for n in (3, 4, 5)] == [Status.DONE] * 3
    assert w.nations[ROME].power == 0  # activation 1 + the third building 1


def test_CIV_CITY_02_a_similar_older_building_discounts_and_the_obsolete_is_barred() -> None:
    """«Ранее построенные здания аналогичного вида дают скидку на постройку нового в монетах в размере их
    стоимости в молотках»; «Устаревшие постройки строить нельзя»; «университеты (заменяет библиотеку)»."""
    techs = {"Письменность": 1, "Печатный станок": 1}
    w, rep = play(rome(hammers=2, techs=techs, buildings=["библиотека"]), given(ROME, Activate(ROME)),
                  given(ROME, Build("университет", ROME), 3))
    assert status(rep, 3) is Status.DONE and w.cities[ROME].hammers == 0  # 4 − 2
    assert w.cities[ROME].buildings == ["университет"]
    _, rep = play(rome(hammers=9, techs=techs), given(ROME, Activate(ROME)), given(ROME, Build("библиотека", ROME), 3))
    assert status(rep, 3) is Status.REJECTED and "устарела" in reason(rep, 3)


# --- wonders (CIV-WONDER-01) --------------------------------------------------------------------


def wonder_rules() -> Rules:
    return replace(rules(), wonders={"Пирамиды": Wonder("Пирамиды", "Pyramids", 1, "", "", ""),
                                     "Маяк": Wonder("Маяк", "Lighthouse", 2, "", "", "")},
                   resources={"Мрамор": Resource("Мрамор", "Marble", True, "", "", "")})


def test_CIV_WONDER_01_prices_with_and_without_a_resource() -> None:
    """«Стоимость зависит от эпохи и составляет 6 / 12 / 18 / 24 молотка. Определенные ресурсы позволяют
    строить Чудеса света со скидкой 40%, т.е. по цене 4 / 8 / 12 / 16»."""
    w = rome(hammers=12)
    w.intentions = [Intention(ROME, ROME, "Маяк")]
    w2, rep = play(w.copy(), given(ROME, Activate(ROME)), given(ROME, BuildWonder("Маяк", ROME), 3),
                   rules_=wonder_rules())
    assert status(rep, 3) is Status.DONE and w2.cities[ROME].hammers == 0 and w2.cities[ROME].wonders == ["Маяк"]
    w.tiles[(3, 2)].resource = "Мрамор"
    w2, rep = play(w, given(ROME, Activate(ROME)), given(ROME, UseResource("Мрамор", ROME), 3),
                   given(ROME, BuildWonder("Маяк", ROME), 4), rules_=wonder_rules())
    assert status(rep, 3) is Status.DONE and status(rep, 4) is Status.DONE and w2.cities[ROME].hammers == 4


def test_CIV_WONDER_01_only_if_announced() -> None:
    """«Нельзя строить Чудо, если намерение не заявлено в фазу государства»."""
    _, rep = play(rome(hammers=12), given(ROME, Activate(ROME)), given(ROME, BuildWonder("Пирамиды", ROME), 3),
                  rules_=wonder_rules())
    assert status(rep, 3) is Status.REJECTED and "не заявлено" in reason(rep, 3)


def test_CIV_WONDER_01_two_nations_on_one_wonder_the_second_gets_coins() -> None:
    """«не запрещает другим игрокам пытаться строить это Чудо в этот ход, однако, при этом другие нации
    рискуют получить только монеты вместо Чуда света» (spec G2: the first in the order of play builds it)."""
    w = world(nations={ROME: {"power": 2}, "Греция": {"power": 2}}, stage="cities",
              cities={ROME: {"nation": ROME, "hex": (2, 2), "hammers": 6},
                      "Афины": {"nation": "Греция", "hex": (7, 2), "hammers": 6}})
    w.intentions = [Intention(ROME, ROME, "Пирамиды"), Intention("Греция", "Афины", "Пирамиды")]
    rep = report(w)
    rep.facts.order = ["Греция", ROME]
    rows = orders(given(ROME, Activate(ROME)), given(ROME, BuildWonder("Пирамиды", ROME), 3),
                  given("Греция", Activate("Афины")), given("Греция", BuildWonder("Пирамиды", "Афины"), 3))
    CITY_PHASES[0].run(w, rows, dice(), wonder_rules(), rep)
    assert w.cities["Афины"].wonders == ["Пирамиды"] and w.cities[ROME].wonders == []
    assert status(rep, 3) is Status.PARTIAL and w.nations[ROME].coins == 6 and w.cities[ROME].hammers == 0
    # a wonder built in an earlier turn cannot be started again
    _, rep = play(w, given(ROME, Activate(ROME)), given(ROME, BuildWonder("Пирамиды", ROME), 3), rules_=wonder_rules())
    assert status(rep, 3) is Status.REJECTED and "уже построено" in reason(rep, 3)


# --- conversions (CIV-CITY-04) ------------------------------------------------------------------


def test_CIV_CITY_04_banking_and_computers_convert_hammers() -> None:
    """«Банки: … Можно конвертировать молотки в монеты по курсу 1:1»; «Компьютеры: … Можно конвертировать
    молотки в науку по курсу 2:1 (2 молотка в обмен на 1 науку)»."""
    _, rep = play(rome(hammers=5), given(ROME, Activate(ROME)), given(ROME, Convert("coins", 3, ROME), 3))
    assert status(rep, 3) is Status.REJECTED and "Банки" in reason(rep, 3)
    w, rep = play(rome(hammers=5, techs={"Банки": 1, "Компьютеры": 1}), given(ROME, Activate(ROME)),
                  given(ROME, Convert("coins", 3, ROME), 3), given(ROME, Convert("science", 2, ROME), 4))
    assert (w.nations[ROME].coins, w.nations[ROME].science, w.cities[ROME].hammers) == (3, 1, 0)
    w, rep = play(rome(hammers=5, techs={"Компьютеры": 1}), given(ROME, Activate(ROME)),
                  given(ROME, Convert("science", 5, ROME), 3))
    assert status(rep, 3) is Status.PARTIAL and (w.nations[ROME].science, w.cities[ROME].hammers) == (2, 1)


# --- counter-spies (CIV-SPY-03) -----------------------------------------------------------------


def test_CIV_SPY_03_a_counter_spy_not_used_this_turn() -> None:
    """«назначение контршпиона в город (нельзя назначить шпиона, который в этот ход занимался шпионажем.
    Этот шпион не может заниматься шпионажем в следующую фазу государства)»."""
    w = rome()
    w.spies = [Spy(ROME, 1, busy=True)]
    _, rep = play(w.copy(), given(ROME, Activate(ROME)), given(ROME, CounterSpy(ROME), 3))
    assert status(rep, 3) is Status.REJECTED and "нет свободного шпиона" in reason(rep, 3)
    w.spies.append(Spy(ROME, 2))
    w, rep = play(w, given(ROME, Activate(ROME)), given(ROME, CounterSpy(ROME), 3))
    assert status(rep, 3) is Status.DONE and w.cities[ROME].counter_spy
    assert (w.spies[1].where, w.spies[1].busy) == (ROME, True)


def test_CIV_TURN_04_the_steps_run_in_the_seeds_order() -> None:
    """«сбор … рост … формирование новых войск … возведение построек»: a unit is paid from what the
    city collected this turn, whatever the row order."""
    w, rep = play(rome(hammers=0, terrain={(3, 2): "холмы"}), given(ROME, Activate(ROME)),
                  given(ROME, BuildUnit("ватага", ROME), 3), given(ROME, Work(ROME, (3, 2), "hammers"), 4))
    assert status(rep, 3) is Status.DONE and w.cities[ROME].hammers == 0
    assert [c.unit for c in w.decks[ROME].cards] == ["ватага"]


def test_CIV_TURN_04_deck_cards_are_kept() -> None:
    """«Игрок покупает войска в “пул”»: a new card goes to the end of the deck."""
    w = rome(hammers=2)
    w.decks[ROME] = Deck([Card("ватага", DESTROYED)])
    w, _ = play(w, given(ROME, Activate(ROME)), given(ROME, BuildUnit("ватага", ROME), 3))
    assert [(c.unit, c.state) for c in w.decks[ROME].cards] == [("ватага", DESTROYED), ("ватага", "ready")]


# --- default orders of an absent nation (CIV-AFK-01) --------------------------------------------


class PinnedDice:
    """A dice stub: every roll gives `value`, logged as (purpose, sides, subject)."""

    blind = False

    def __init__(self, value: int) -> None:
        self.value, self.log = value, []

    def roll(self, purpose: str, sides: int, subject: str = "") -> int:
        self.log.append((purpose, sides, subject))
        return min(self.value, sides)


def test_CIV_AFK_01_state_stage_restores_most_modern_first_upgrades_and_researches() -> None:
    """«в фазу государства: за монеты - восстановление уничтоженных войск (начиная с самых современных),
    апгрейд войск, изучение случайной технологии максимально доступного уровня (при наличии ресурса)»."""
    w = world(nations={ROME: {"coins": 6, "science": 2, "techs": {"Монархия": 1, "Гончарное дело": 1,
                                                                    "Охота": 1}}})
    w.decks[ROME] = Deck([Card("ватага", DESTROYED), Card("мечники", DESTROYED), Card("ватага")])
    d = PinnedDice(2)
    rows = stand_ins(w, rules(), ROME, STATE, d)  # type: ignore[arg-type]
    got = [g.order for g in rows]
    # мечники (4) first, then one ватага (2) leaves 0 coins for upgrades
    assert got[:2] == [Restore("мечники", 1), Restore("ватага", 1)]
    assert not any(isinstance(o, Upgrade) for o in got)
    research = [o for o in got if isinstance(o, Research)]
    # 2 known of level 1 and 1 of level 2: a 2nd of level 2 (2 ≮ 2) or a 1st of level 3 (1 ≮ 1) breaks
    # the pyramid, so a level-1 one (2 науки): the 2nd of the unknown level-1 list by the pinned die
    level1 = [t.name_ru for t in rules().techs.values() if t.level == 1 and t.name_ru not in w.nations[ROME].techs]
    assert research == [Research(level1[1])] and d.log == [("afk:research", len(level1), ROME)]
    assert [g.row.row for g in rows] == [-1, -2, -3] and rows[0].row.cells["action"] == "Восстановить"


def test_CIV_AFK_01_state_stage_upgrades_with_coins_left() -> None:
    """«апгрейд войск» (upgrade price: «удвоенной разнице стоимости юнитов в молотках»: ватага → мечники 4)."""
    w = world(nations={ROME: {"coins": 9, "techs": {"Монархия": 1}}})
    w.decks[ROME] = Deck([Card("ватага"), Card("ватага"), Card("ватага")])
    got = [g.order for g in stand_ins(w, rules(), ROME, STATE, PinnedDice(1))]  # type: ignore[arg-type]
    assert got == [Upgrade("ватага", "мечники", 2)]


def test_CIV_AFK_01_cities_stage_activates_while_power_lasts_and_builds_the_best_unit() -> None:
    """«в фазу городов: активация городов, сбор науки, молотков и строительство лучших войск (упор на
    производство молотков, науки; монеты копятся)»."""
    w = world(nations={ROME: {"power": 1, "coins": 50, "techs": {"Монархия": 1}}}, stage="cities",
              cities={ROME: {"nation": ROME, "hex": (2, 2), "population": 3, "hammers": 1},
                      "Анций": {"nation": ROME, "hex": (6, 5), "population": 2}},
              terrain={(3, 2): "холмы"})
    rows = stand_ins(w, rules(), ROME, CITIES, PinnedDice(1))  # type: ignore[arg-type]
    got = [g.order for g in rows]
    assert got[0] == Activate(ROME) and Activate("Анций") not in got  # 1 Власть: the capital only
    assert Work(ROME, (3, 2), "hammers") in got  # 1 stored + холмы 2 + a plain 1 pay мечники (4)
    assert [o.choice for o in got if isinstance(o, Work)] == ["hammers", "hammers", "science"]
    assert got[-1] == BuildUnit("мечники", ROME)
    w2, rep = play(w, *rows)
    assert all(r.status is Status.DONE for r in rep.results.values())
    assert [c.unit for c in w2.decks[ROME].cards] == ["мечники"] and w2.nations[ROME].coins == 50
    assert w2.nations[ROME].science == 1


def test_CIV_AFK_01_cities_stage_builds_nothing_hammers_do_not_pay() -> None:
    """«монеты копятся»: a unit the hammers do not pay is not bought with coins."""
    w = world(nations={ROME: {"power": 1, "coins": 50, "techs": {"Монархия": 1}}}, stage="cities",
              cities={ROME: {"nation": ROME, "hex": (2, 2), "population": 1}})
    got = [g.order for g in stand_ins(w, rules(), ROME, CITIES, PinnedDice(1))]  # type: ignore[arg-type]
    assert got == [Activate(ROME), Work(ROME, got[1].hex, "hammers")]  # type: ignore[union-attr]


# --- the end of the game and the score (CIV-TURN-01, CIV-WIN-01) --------------------------------


def test_CIV_TURN_01_the_game_ends_after_turn_15_once_a_level_5_tech_is_known() -> None:
    """«Игра закончится в ход № 15 (может раньше, а теоретически возможно, позже, если никто не изучил
    технологию 5 уровня)»."""
    w = world(nations={ROME: {"techs": {"Технология будущего": 14}}, "Греция": {}})
    w.last_resolved = "14:cities"
    assert not game_over(w, rules())
    w.last_resolved = "15:state"
    assert not game_over(w, rules())
    w.last_resolved = "15:cities"
    assert game_over(w, rules())
    w.nations[ROME].techs = {"Компьютеры": 12}
    assert not game_over(w, rules()) and victory(w, rules()) is None
    w.last_resolved = "17:cities"
    w.nations["Греция"].techs = {"Технология будущего": 17}
    assert game_over(w, rules())


def test_CIV_WIN_01_the_score_and_the_winner() -> None:
    """«Ну и, как минимум, он не получает 1 Победное очко в конце игры»; «Технология будущего (+1 ПО)»;
    spec G14: 1 ПО per city, per wonder, per era reached."""
    w = world(nations={ROME: {"vp_honesty": 1, "vp_tech": 1, "techs": {"Технология будущего": 15, "Охота": 1}},
                       "Греция": {"vp_honesty": 0, "techs": {"Компьютеры": 13}}},
              cities={ROME: (ROME, (1, 1)), "Афины": ("Греция", (6, 1)), "Спарта": ("Греция", (6, 5))})
    w.cities["Афины"].wonders = ["Пирамиды"]
    w.last_resolved = "15:cities"
    assert score(w, rules(), ROME) == Score(ROME, cities=1, wonders=0, eras=5, honesty=1, tech=1)
    assert score(w, rules(), "Греция").total == 2 + 1 + 4 + 0
    v = victory(w, rules())
    assert v is not None and v.winners == (ROME,) and "8 ПО" in v.reason and "хода 15" in v.reason
    w.nations["Греция"].vp_honesty = 1
    v = victory(w, rules())
    assert v is not None and v.winners == (ROME, "Греция")


def test_CIV_WIN_01_the_gm_edits_the_score_weights() -> None:
    """spec G14: «placeholder the GM edits» — the weights are rows of «Правила — Параметры»."""
    r = rules()
    params = dict(r.params)
    params["score_per_city"] = replace(params["score_per_city"], value=Fraction(3))
    w = world(nations={ROME: {}}, cities={ROME: (ROME, (1, 1))})
    assert score(w, replace(r, params=params), ROME).cities == 3


def test_CIV_MAP_03_a_hex_is_worked_by_one_city_a_turn() -> None:
    """«количество обрабатываемых хексов определяется населением города»: a hex counts once — a second
    city (or a second row) cannot work it again, nor a hex a city stands on."""
    w = world(nations={ROME: {"power": 2}, "Греция": {}}, stage="cities",
              cities={ROME: {"nation": ROME, "hex": (2, 2), "population": 2},
                      "Анций": {"nation": ROME, "hex": (4, 2), "population": 2},
                      "Остия": {"nation": "Греция", "hex": (2, 3)}})
    w, rep = play(w, given(ROME, Activate(ROME)), given(ROME, Activate("Анций"), 3),
                  given(ROME, Work(ROME, (3, 2), "hammers"), 4), given(ROME, Work("Анций", (3, 2), "hammers"), 5),
                  given(ROME, Work(ROME, (3, 2), "coins"), 6), given(ROME, Work("Анций", (4, 2), "coins"), 7),
                  given(ROME, Work(ROME, (2, 3), "coins"), 8))
    assert status(rep, 4) is Status.DONE
    assert "уже обрабатывает город Рим" in reason(rep, 5) and "уже обрабатывает" in reason(rep, 6)
    assert "не прилегает" in reason(rep, 7) and "стоит город" in reason(rep, 8)
    assert (w.cities[ROME].hammers, w.cities["Анций"].hammers) == (1, 0)


def test_CIV_CITY_05_a_resource_token_of_the_nation_is_used_up() -> None:
    """«заявка на использование ресурса» (spec G3: «a resource is a token consumed when used»)."""
    w = rome(hammers=8)
    w.intentions = [Intention(ROME, ROME, "Маяк")]
    w.nations[ROME].resources = ["Мрамор"]  # type: ignore[attr-defined]
    w, rep = play(w, given(ROME, Activate(ROME)), given(ROME, UseResource("Мрамор", ROME), 3),
                  given(ROME, BuildWonder("Маяк", ROME), 4), rules_=wonder_rules())
    assert status(rep, 3) is Status.DONE and status(rep, 4) is Status.DONE and w.cities[ROME].hammers == 0
    assert w.nations[ROME].resources == []  # type: ignore[attr-defined]
    _, rep = play(w, given(ROME, Activate(ROME)), given(ROME, UseResource("Мрамор", ROME), 3), rules_=wonder_rules())
    assert status(rep, 3) is Status.REJECTED and "нет ресурса" in reason(rep, 3)


def test_CIV_TURN_04_each_city_runs_its_steps_before_the_next_is_activated() -> None:
    """«Активация городов идет в произвольном (заданном игроком) порядке» and «все постройки кроме первой,
    требуют дополнительно потратить 1 Власть»: the first city's second building spends the Власть the
    second activation needed."""
    w = world(nations={ROME: {"power": 2, "techs": {"Письменность": 1, "Деньги": 1}}}, stage="cities",
              cities={ROME: {"nation": ROME, "hex": (2, 2), "hammers": 4}, "Анций": (ROME, (6, 5))})
    w, rep = play(w, given(ROME, Activate(ROME)), given(ROME, Activate("Анций"), 3),
                  given(ROME, Build("библиотека", ROME), 4), given(ROME, Build("рынок", ROME), 5),
                  given(ROME, Work("Анций", (6, 4), "hammers"), 6))
    assert [status(rep, n) for n in (2, 4, 5)] == [Status.DONE] * 3
    assert status(rep, 3) is Status.REJECTED and "нужно 1, есть 0" in reason(rep, 3)
    assert status(rep, 6) is Status.REJECTED and "не активирован" in reason(rep, 6)


def test_CIV_TURN_01_the_cities_stage_of_the_last_turn_ends_the_game() -> None:
    """«Игра закончится в ход № 15»: the cities stage's last step marks the end in the facts."""
    w = rome()
    w.nations[ROME].techs = {"Технология будущего": 15}
    w.turn = 14
    _, rep = play(w.copy())
    assert not rep.facts.ended
    w.turn = 15
    _, rep = play(w)
    assert rep.facts.ended and rep.chronicle[-1] == "Игра окончена после хода 15."


@pytest.mark.parametrize(("unit", "tech", "price"), [("ватага", None, 2), ("мечники", "Монархия", 4),
                                                      ("аркебузеры", "Химия", 6), ("стрелки", "Универсализация", 8)])
def test_CIV_UNIT_03_a_unit_costs_its_eras_price(unit: str, tech: str | None, price: int) -> None:
    """«цена строительства зависит от эпохи и составляет 2 / 4 / 6 / 8 молотков»."""
    w, rep = play(rome(hammers=price + 1, techs={tech: 1} if tech else {}), given(ROME, Activate(ROME)),
                  given(ROME, BuildUnit(unit, ROME), 3))
    assert status(rep, 3) is Status.DONE and w.cities[ROME].hammers == 1
    assert (f"{ROME}/{ROME}", "молотки", "войска", -price) in lines(rep)


@pytest.mark.parametrize(("building", "tech", "price"), [("рынок", "Деньги", 2), ("базар", "Валюта", 4),
                                                          ("банк", "Банки", 6), ("биржа", "Биржевая экономика", 8)])
def test_CIV_CITY_02_a_building_costs_its_eras_price(building: str, tech: str, price: int) -> None:
    """«цена строительства зданий 2 / 4 / 6 / 8 молотков в зависимости от эпохи»."""
    w, rep = play(rome(hammers=price, techs={tech: 1}), given(ROME, Activate(ROME)),
                  given(ROME, Build(building, ROME), 3))
    assert status(rep, 3) is Status.DONE and w.cities[ROME].hammers == 0 and w.cities[ROME].buildings == [building]


@pytest.mark.parametrize(("era", "full", "discounted"), [(1, 6, 4), (2, 12, 8), (3, 18, 12), (4, 24, 16)])
def test_CIV_WONDER_01_the_seeds_wonder_prices(era: int, full: int, discounted: int) -> None:
    """«6 / 12 / 18 / 24 молотка … со скидкой 40%, т.е. по цене 4 / 8 / 12 / 16»."""
    assert (wonder_price(rules(), era, False), wonder_price(rules(), era, True)) == (full, discounted)
