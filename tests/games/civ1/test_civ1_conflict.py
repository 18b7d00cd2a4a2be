"""Issue 18, the state stage's steps 3, 4 and 9 of «Civilization 1.0»: villages, spies, attacks.

Each test is named by the rule id of docs/rules/civ1.yaml it checks and quotes seed 004
(shared/seeds/004_5331bacb535053e2.txt).  The phases run on small worlds of tests/civ1_world.py;
dice are pinned: `Pinned` hands out the rolls a test lists (and logs them as `Dice` does), or the
seeded `Dice` is used and its log is compared with what the facts show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import pytest
from civ1_world import given, lines, orders, ref, report, rules, run, world

from engine.core.dice import Dice, Roll
from engine.core.i18n import using
from engine.core.orders import Status
from engine.rulesets.civ1.model import DESTROYED, READY, RETREATED, ROUTED, Card, Spy, World
from engine.rulesets.civ1.ordertypes import Attack, Explore, SendSpy
from engine.rulesets.civ1.phases.combat import ATTACKS, battle_rows
from engine.rulesets.civ1.phases.explore import EXPLORE
from engine.rulesets.civ1.phases.spies import SPIES
from engine.rulesets.civ1.rules import Resource, Rules

T = TypeVar("T")


@dataclass
class Pinned(Dice):
    """Dice whose rolls the test lists per purpose («duel», «village»); a choice takes the listed
    pick or the first item.  Every draw is logged, as the seeded dice log it."""

    rolls: dict[str, list[int]] = field(default_factory=dict)
    picks: dict[str, list[Any]] = field(default_factory=dict)

    def roll(self, purpose: str, sides: int, subject: str = "") -> int:
        value = self.rolls[purpose].pop(0)
        assert 1 <= value <= sides
        self.log.append(Roll(purpose, subject, f"d{sides}={value}"))
        return value

    def choice(self, purpose: str, items: Sequence[T], weights: Sequence[float] | None = None,
               subject: str = "") -> T:
        value = self.picks[purpose].pop(0) if self.picks.get(purpose) else items[0]
        assert value in items, (value, items)
        self.log.append(Roll(purpose, subject, str(value)))
        return value


def pinned(duel: Sequence[int] = (), village: Sequence[int] = (), **picks: list[Any]) -> Pinned:
    return Pinned(seed="", rolls={"duel": list(duel), "village": list(village)},
                  picks={k.replace("_", ":"): v for k, v in picks.items()})


def war(attacker: Sequence[str | Card], defender: Sequence[str | Card], *, power: int = 3,
        techs: dict[str, int] | None = None, defender_techs: dict[str, int] | None = None,
        buildings: Sequence[str] = (), terrain: dict[tuple[int, int], str] | None = None,
        target_hex: tuple[int, int] = (2, 0)) -> World:
    """Рим (capital Рим at 0,0) against Карфаген (capital Карфаген at 2,0 unless moved)."""
    return world(
        nations={"Рим": {"power": power, "techs": techs or {}},
                 "Карфаген": {"power": 0, "techs": defender_techs or {}}},
        cities={"Рим": ("Рим", (0, 0)),
                "Карфаген": {"nation": "Карфаген", "hex": target_hex, "buildings": list(buildings)}},
        decks={"Рим": attacker, "Карфаген": defender},
        terrain=terrain,
    )


def attack(w: World, d: Dice, origin: str = "Рим", target: str = "Карфаген", wmd: bool = False):
    return run(ATTACKS, w, orders(given("Рим", Attack(origin, target, wmd))), d)


def states(w: World, nation: str) -> list[str]:
    return [c.state for c in w.decks[nation].cards]


# --- CIV-COMBAT: duels, outcomes, advantages --------------------------------------------------


@pytest.mark.parametrize(
    ("a", "d", "outcome", "a_state", "d_state", "result"),
    [
        (3, 3, "атакующий отступил", RETREATED, READY, "отбит"),  # «если результат равен, атакующее войско отступило»
        (4, 3, "защитник разгромлен", READY, ROUTED, "взят"),  # «выше на 1-3 балла … разгромлено»
        (6, 3, "защитник разгромлен", READY, ROUTED, "взят"),
        (6, 2, "защитник уничтожен", READY, DESTROYED, "взят"),  # «на 4 балла или более … уничтожено»
        (1, 6, "атакующий уничтожен", DESTROYED, READY, "отбит"),
        (2, 3, "атакующий разгромлен", ROUTED, READY, "отбит"),
    ],
)
def test_CIV_COMBAT_05_duel_thresholds_equal_1_to_3_and_4_or_more(a, d, outcome, a_state, d_state, result):
    """Spec §4.6: «если результат равен, атакующее войско отступило; если результат выше на 1-3
    балла, … разгромлено; … на 4 балла или более … уничтожено»."""
    w, rep = attack(war(["ватага"], ["ватага"]), pinned([a, d]))
    battle = rep.facts.battles[0]
    assert [(x.attacker_dice, x.defender_dice, x.outcome) for x in battle.duels] == [([a], [d], outcome)]
    # a retreated card is ready again after the battle («может участвовать в других боях того же хода»)
    assert states(w, "Рим") == [READY if a_state == RETREATED else a_state]
    assert states(w, "Карфаген") == [d_state]
    assert battle.result == result
    assert rep.results[ref("Рим")].status is Status.DONE


def test_CIV_COMBAT_05_the_winner_keeps_its_unit_in_play():
    """«победитель предыдущего раунда битвы использует ранее введенное войско»."""
    w, rep = attack(war(["ватага", "ватага"], ["ватага", "ватага"]), pinned([5, 1, 5, 4]))
    duels = rep.facts.battles[0].duels
    assert [(x.number, x.outcome) for x in duels] == [(1, "защитник уничтожен"), (2, "защитник разгромлен")]
    assert states(w, "Рим") == [READY, READY]
    assert states(w, "Карфаген") == [DESTROYED, ROUTED]
    assert w.cities["Карфаген"].nation == "Рим"


def test_CIV_COMBAT_02_class_triangle_adds_a_die():
    """«мобильные получают преимущество против пехоты» … «За каждое преимущество, войско получает
    дополнительный кубик»: всадники (1 die) against ватага roll 2."""
    _w, rep = attack(war(["всадники"], ["ватага"]), pinned([1, 1, 6]))
    duel = rep.facts.battles[0].duels[0]
    assert (duel.attacker_dice, duel.defender_dice) == ([1, 1], [6])
    _w, rep = attack(war(["ватага"], ["всадники"]), pinned([6, 1, 1]))
    duel = rep.facts.battles[0].duels[0]
    assert (duel.attacker_dice, duel.defender_dice) == ([6], [1, 1])
    # «заградительные получают преимущество против мобильных», «пехота … против заградительных»
    _w, rep = attack(war(["ватага"], ["копейщики"]), pinned([1, 1, 6]))
    assert len(rep.facts.battles[0].duels[0].attacker_dice) == 2


def test_CIV_COMBAT_02_aviation_over_all_and_it_cannot_capture():
    """«авиация получает преимущество против всех, однако, авиация не может захватывать города»."""
    w, rep = attack(war(["бипланы"], ["ватага"]), pinned([6, 6, 6, 6, 1]))
    battle = rep.facts.battles[0]
    assert len(battle.duels[0].attacker_dice) == 4  # 3 dice + 1 advantage
    assert battle.duels[0].outcome == "защитник уничтожен"
    assert battle.result == "отбит" and w.cities["Карфаген"].nation == "Карфаген"
    assert states(w, "Рим") == [READY]  # it withdrew («авиация также отступает»)


def test_CIV_COMBAT_07_a_unit_that_captures_follows_the_aviation_in():
    w, rep = attack(war(["бипланы", "ватага"], ["ватага"]), pinned([6, 6, 6, 6, 1]))
    assert rep.facts.battles[0].result == "взят" and w.cities["Карфаген"].nation == "Рим"


def test_CIV_COMBAT_02_defenders_get_an_advantage_against_an_attack_from_the_sea():
    """«обороняющиеся получают преимущество при атаках с моря»: a strait between the cities."""
    sea = {(1, r): "море" for r in range(-1, 8)} | {(1, -1): "море"}
    w = war(["ватага"], ["ватага"], techs={"Навигация": 1, "Астрономия": 2}, terrain=sea)
    _w, rep = attack(w, pinned([6, 1, 1]))
    duel = rep.facts.battles[0].duels[0]
    assert (duel.attacker_dice, duel.defender_dice) == ([6], [1, 1])


def test_CIV_COMBAT_03_support_adds_its_bonus_a_second_support_retreats_and_a_routed_units_support_dies():
    """«поддержка дает фиксированное преимущество своим войскам (от +1 для лучников до +4 РСЗО) …
    если это снова поддержка - она считается отступившей» and «в случае разгрома подразделения с
    поддержкой, сама поддержка уничтожена»."""
    w, rep = attack(war(["ватага"], ["лучники", "арбалетчики", "ватага"]), pinned([4, 2]))
    duel = rep.facts.battles[0].duels[0]
    assert (duel.defender_support, duel.defender_bonus, duel.defender_total) == ("лучники", 1, 3)
    assert duel.outcome == "защитник разгромлен"  # 4 against 2 + 1
    # арбалетчики retreated: ready again, at the bottom of the deck (spec G15)
    assert [(c.unit, c.state) for c in w.decks["Карфаген"].cards] == [
        ("лучники", DESTROYED), ("ватага", ROUTED), ("арбалетчики", READY)]


def test_CIV_COMBAT_03_the_deck_running_out_destroys_the_waiting_support():
    """«Если колода войск закончилась, последнее войско поддержки считается уничтоженным»."""
    w, _rep = attack(war(["ватага"], ["ватага", "лучники"]), pinned([1, 6]))
    assert states(w, "Карфаген") == [READY, DESTROYED]


def test_CIV_COMBAT_04_fortifications_give_defenders_plus_3():
    """«городские укрепления дают фиксированное преимущество обороняющимся +3»."""
    _w, rep = attack(war(["ватага"], ["ватага"], buildings=["укрепления"]), pinned([6, 3]))
    duel = rep.facts.battles[0].duels[0]
    assert (duel.defender_bonus, duel.defender_total, duel.outcome) == (3, 6, "атакующий отступил")


def test_CIV_COMBAT_06_protection_buildings_shift_the_defenders_losses():
    """«Некоторые городские постройки позволяют перевести … разгромленные войска в разряд
    отступивших, а уничтоженные - в разряд разгромленных»: казармы protect 1 unit."""
    w, rep = attack(war(["ватага"], ["ватага", "ватага"], buildings=["казармы"]), pinned([6, 1, 6, 1]))
    assert [d.outcome for d in rep.facts.battles[0].duels] == ["защитник разгромлен", "защитник уничтожен"]
    assert states(w, "Карфаген") == [ROUTED, DESTROYED]  # the first destroyed became routed, the second not


def test_CIV_COMBAT_07_capture_keeps_buildings_and_population_and_the_city_skips_its_stage():
    """«Если все войска защищающегося разгромлены или уничтожены, атакующий захватывает город»."""
    w = war(["ватага"], ["ватага"], buildings=["рынок"])
    w.cities["Карфаген"].population = 2
    w, rep = attack(w, pinned([5, 1]))
    city = w.cities["Карфаген"]
    assert (city.nation, city.buildings, city.population, city.status) == ("Рим", ["рынок"], 2, "conquered")
    assert w.nations["Карфаген"].capital == ""
    assert any("столица «Карфаген»" in x for x in rep.warnings)
    assert "взят" in rep.chronicle[-1]


def test_CIV_COMBAT_07_an_undefended_city_falls_without_a_duel():
    w, rep = attack(war(["ватага"], []), pinned([]))
    assert rep.facts.battles[0].duels == [] and w.cities["Карфаген"].nation == "Рим"


def test_CIV_COMBAT_01_the_deck_is_drawn_in_order_and_a_full_circle_skips_the_routed():
    """«Сами войска берутся из пула армии по-порядку (с самого первого). После того, как все войска
    проходят один “круг”, формируется новая “колода” (без учета разгромленных и уничтоженных армий)»."""
    deck = [Card("ватага"), Card("всадники", ROUTED), Card("копейщики")]
    w = war(deck, ["ватага", "ватага", "ватага"])
    w.decks["Рим"].next = 2
    w.nations["Рим"].techs = {}
    _w, rep = attack(w, pinned([3, 2, 1, 3, 3]))  # копейщики 1 die against ватага's 2, then ватага against ватага
    # копейщики (next=2), then over the circle to ватага; всадники stay out
    assert [d.attacker_unit for d in rep.facts.battles[0].duels] == ["копейщики", "ватага"]


# --- CIV-UNIT-01/02: the army size, one army per city -----------------------------------------


def test_CIV_UNIT_01_an_army_has_at_most_the_army_size():
    """«количество войск в атакующей армии и в гарнизоне конечно, в начале игры составляет 2
    войска»; Гончарное дело adds one."""
    _w, rep = attack(war(["ватага"] * 4, ["ватага"] * 4), pinned([3, 3] * 4))
    assert len(rep.facts.battles[0].duels) == 2  # two attackers, each retreating
    _w, rep = attack(war(["ватага"] * 4, ["ватага"] * 4, techs={"Гончарное дело": 1}), pinned([3, 3] * 4))
    assert len(rep.facts.battles[0].duels) == 3


def test_CIV_COMBAT_01_retreated_cards_go_to_the_bottom_of_the_deck_and_fight_again():
    """«Отступающее войско не участвует в дальнейшей атаке (но может участвовать в других боях того же
    хода)»; spec G15: to the bottom of the deck."""
    # an army of 2: ватага ties (3 : 3), всадники tie too (2 + 2 : 4); both go under копейщики
    w, rep = attack(war(["ватага", "всадники", "копейщики"], ["ватага"]), pinned([3, 3, 2, 2, 4]))
    assert [d.outcome for d in rep.facts.battles[0].duels] == ["атакующий отступил"] * 2
    assert [c.unit for c in w.decks["Рим"].cards] == ["копейщики", "ватага", "всадники"]
    assert w.decks["Рим"].next == 0 and states(w, "Рим") == [READY] * 3


def test_CIV_UNIT_02_one_army_per_city_and_several_cities_in_sequence():
    """«Один город может послать атаковать город противника только одну армию. Однако, один
    вражеский город может быть атакован армиями нескольких городов (последовательно)»."""
    w = war(["ватага"] * 4, ["ватага"] * 4)
    w.cities["Остия"] = replace(w.cities["Рим"], name="Остия", hex=(0, 2))
    rows = orders(given("Рим", Attack("Рим", "Карфаген")), given("Рим", Attack("Рим", "Карфаген"), row=3),
                  given("Рим", Attack("Остия", "Карфаген"), row=4))
    w, rep = run(ATTACKS, w, rows, pinned([3, 3] * 4))
    assert rep.results[ref("Рим", 2)].status is Status.DONE
    assert rep.results[ref("Рим", 3)].status is Status.REJECTED
    assert "уже послал армию" in rep.results[ref("Рим", 3)].reason
    assert rep.results[ref("Рим", 4)].status is Status.DONE
    assert [b.origin for b in rep.facts.battles] == ["Рим", "Остия"]


def test_CIV_TURN_03_an_attack_costs_1_power_and_needs_the_range():
    """«нападения на города других наций (1 Власть за каждую атаку)»."""
    w, rep = attack(war(["ватага"], ["ватага"], power=1), pinned([3, 3]))
    assert lines(rep, "Рим") == [("Рим", "власть", "атака", -1)]
    assert w.nations["Рим"].power == 0
    _w, rep = attack(war(["ватага"], ["ватага"], power=0), pinned([]))
    assert rep.results[ref("Рим")].reason == "не хватает Власти: нужно 1, есть 0"
    _w, rep = attack(war(["ватага"], ["ватага"], target_hex=(5, 0)), pinned([]))
    assert rep.results[ref("Рим")].status is Status.REJECTED and "вне досягаемости" in rep.results[ref("Рим")].reason
    _w, rep = attack(war([], ["ватага"]), pinned([]))
    assert rep.results[ref("Рим")].reason == "нет готовых войск для атаки"


def test_CIV_WMD_01_needs_both_techs_costs_2_more_doubles_the_advantage_and_destroys_the_city():
    """«необходимо изучить две технологии: “Ядерная теория” и “Ракеты”; Применение ОМП против города
    стоит 2 Власти и дает удвоенное преимущество … город не может быть аннексирован, только разрушен»."""
    _w, rep = attack(war(["ватага"], ["ватага"], techs={"Ракеты": 4}), pinned([]), wmd=True)
    assert "Ядерная теория" in rep.results[ref("Рим")].reason
    techs = {"Ядерная теория": 4, "Ракеты": 4}
    w, rep = attack(war(["ватага"], ["ватага"], techs=techs), pinned([2, 2, 2, 1]), wmd=True)
    battle = rep.facts.battles[0]
    assert battle.wmd and len(battle.duels[0].attacker_dice) == 3  # 1 + 2 advantages
    assert battle.result == "разрушен" and "Карфаген" not in w.cities
    assert lines(rep, "Рим") == [("Рим", "власть", "атака", -3)]


# --- the «Бои» tab and the seeded dice ---------------------------------------------------------


def test_CIV_COMBAT_05_every_die_is_a_seeded_named_roll_and_a_row_of_the_battles_tab():
    d = Dice(seed="civ1-conflict")
    _w, rep = attack(war(["всадники", "ватага"], ["ватага", "копейщики"]), d)
    battle = rep.facts.battles[0]
    logged = [int(r.result.split("=")[1]) for r in d.log if r.purpose == "duel"]
    assert logged == [x for duel in battle.duels for x in duel.attacker_dice + duel.defender_dice]
    assert all(r.subject.startswith("Рим→Карфаген: дуэль ") for r in d.log)
    grid = battle_rows(rep.facts, "ru")
    assert grid[0][:7] == ["Бой", "Атакующий", "Откуда", "Цель", "Защитник", "ОМП", "Дуэль"]
    assert len(grid) == 1 + len(battle.duels)
    first = battle.duels[0]
    assert grid[1][:8] == [1, "Рим", "Рим", "Карфаген", "Карфаген", "", 1, "всадники"]
    assert grid[1][9] == ", ".join(map(str, first.attacker_dice)) and grid[1][11] == first.attacker_total
    assert battle_rows(rep.facts, "en")[0][0] == "Battle"


# --- CIV-VILLAGE ----------------------------------------------------------------------------------


def village_world(**nation: Any) -> World:
    return world(nations={"Рим": {"power": 2, **nation}, "Греция": {"power": 2}},
                 cities={"Рим": ("Рим", (0, 0)), "Остия": ("Рим", (0, 5)), "Афины": ("Греция", (9, 7))},
                 villages=[(3, 0), (4, 0)], decks={"Рим": ["ватага"]})


def explore(w: World, d: Dice, h=(3, 0), r: Rules | None = None, nation: str = "Рим"):
    if r is None:
        return run(EXPLORE, w, orders(given(nation, Explore(h))), d)
    rep = report(w)
    for p in EXPLORE:
        w = p.run(w, orders(given(nation, Explore(h))), d, r, rep)
    return w, rep


def test_CIV_VILLAGE_01_one_power_range_3_and_the_village_disappears():
    """«разведка (1 Власть за каждую разведку деревни, дистанция разведки … по умолчанию - 3)»;
    «При любом исходе, после исследования, деревни пропадают»."""
    w, rep = explore(village_world(), pinned(village=[3]))
    assert ("Рим", "власть", "разведка", -1) in lines(rep, "Рим")
    assert not w.tiles[(3, 0)].village
    assert rep.results[ref("Рим")].status is Status.DONE
    _w, rep = explore(village_world(), pinned(village=[3]), h=(4, 0))  # 4 hexes from Рим
    assert "вне дальности разведки" in rep.results[ref("Рим")].reason
    _w, rep = explore(village_world(), pinned(), h=(5, 5))
    assert rep.results[ref("Рим")].reason == "на клетке 5,5 нет деревни"
    _w, rep = explore(village_world(power=0), pinned())
    assert rep.results[ref("Рим")].reason == "не хватает Власти: нужно 1, есть 0"


def test_CIV_VILLAGE_01_a_village_explored_earlier_in_the_turn_is_gone():
    w = village_world()
    w.cities["Коринф"] = replace(w.cities["Афины"], name="Коринф", hex=(5, 0))
    rows = orders(given("Рим", Explore((3, 0))), given("Греция", Explore((3, 0))))
    _w, rep = run(EXPLORE, w, rows, pinned(village=[3]))
    assert rep.results[ref("Греция")].reason == "на клетке 3,0 нет деревни"


@pytest.mark.parametrize("roll", [1, 2])
def test_CIV_VILLAGE_02_1_2_a_random_resource(roll):
    """«(1-2 на 1к10): нация получает случайный ресурс»."""
    r = replace(rules(), resources={"слоновая кость": Resource("слоновая кость", "ivory", True, "", "", "")})
    w, rep = explore(village_world(), pinned(village=[roll]), r=r)
    assert w.nations["Рим"].resources == ["слоновая кость"]
    assert "ресурс: слоновая кость" in rep.private["Рим"][0]
    _w, rep = explore(village_world(), pinned(village=[roll]))  # the shipped table is empty: the GM is told
    assert rep.warnings and "Правила — Ресурсы" in rep.warnings[0]


def test_CIV_VILLAGE_02_3_riches_4_coins():
    """«(3 на 1к10): найдены богатства (+4 монеты)»."""
    w, rep = explore(village_world(), pinned(village=[3]))
    assert ("Рим", "монеты", "деревня", 4) in lines(rep, "Рим") and w.nations["Рим"].coins == 4


def test_CIV_VILLAGE_02_4_an_ancient_unit_joins():
    """«(4 на 1к10): воины племени присоединились к нации (+1 случайное войско древности)»."""
    w, _rep = explore(village_world(), pinned(village=[4], village_unit=["всадники"]))
    assert [c.unit for c in w.decks["Рим"].cards] == ["ватага", "всадники"]


def test_CIV_VILLAGE_02_5_an_ancient_unit_gets_medieval_arms():
    """«(5 на 1к10): жители предоставили лучшее оружие (1 случайное войско древности нации получает
    вооружение средневековья)»: ватага (пехота, древность) → мечники (пехота, средневековье)."""
    w, rep = explore(village_world(), pinned(village=[5]))
    assert [c.unit for c in w.decks["Рим"].cards] == ["мечники"]
    assert "мечники" in rep.private["Рим"][0]


def test_CIV_VILLAGE_02_6_an_ancient_tech_or_2_science():
    """«(6 на 1к10): … +1 случайная технология древности ЛИБО, если науки древности исследованы, +2 науки»."""
    w, _rep = explore(village_world(), pinned(village=[6], village_tech=["Охота"]))
    assert w.nations["Рим"].techs == {"Охота": 1}
    ancient = {k: 1 for k, t in rules().techs.items() if t.era == 1}
    w, rep = explore(village_world(techs=ancient), pinned(village=[6]))
    assert ("Рим", "наука", "деревня", 2) in lines(rep, "Рим") and w.nations["Рим"].techs == ancient


def test_CIV_VILLAGE_02_7_population_in_the_nearest_city_below_its_limit_else_3_hammers():
    """«(7 на 1к10): … +1 к населению одного города, но не выше лимита, начиная с ближайшего города.
    Если лимит достигнут - в эту фазу городов +3 молотка в ближайшем городе»."""
    w, _rep = explore(village_world(), pinned(village=[7]))
    assert (w.cities["Рим"].population, w.cities["Остия"].population) == (2, 1)
    w0 = village_world()
    w0.cities["Рим"].population = 2  # the limit without technologies
    w, _rep = explore(w0, pinned(village=[7]))
    assert (w.cities["Рим"].population, w.cities["Остия"].population) == (2, 2)
    w0 = village_world()
    w0.cities["Рим"].population = w0.cities["Остия"].population = 2
    w, rep = explore(w0, pinned(village=[7]))
    assert ("Рим/Рим", "молотки", "деревня", 3) in lines(rep) and w.cities["Рим"].hammers == 3


@pytest.mark.parametrize("roll", [8, 9, 10])
def test_CIV_VILLAGE_02_8_10_barbarians_attack_the_nearest_city_at_once(roll):
    """«(8-10 на 1к10): агрессивные варвары (2 случайных войска древности …) немедленно атакуют
    ближайший город … В случае успешной атаки на город, варвары уничтожают его (в столице только
    снижается численность населения, но не ниже 1)»: the village at 0,4 is next to Остия."""
    w0 = village_world()
    w0.tiles[(0, 4)].village = True
    w, rep = explore(w0, pinned(village=[roll], duel=[6, 1, 6, 1]), h=(0, 4))
    battle = rep.facts.battles[0]
    assert (battle.attacker, battle.origin, battle.target, battle.defender) == ("варвары", "0,4", "Остия", "Рим")
    assert len(battle.duels) == 1 and battle.result == "разрушен"  # one defender: garrison of ватага
    assert "Остия" not in w.cities
    assert "Варвары" in rep.chronicle[-1]  # public
    # at the capital: the population falls, never below 1
    w, rep = explore(village_world(), pinned(village=[roll], duel=[6, 1]))
    assert rep.facts.battles[0].target == "Рим" and w.cities["Рим"].population == 1 and "Рим" in w.cities
    # repelled
    w, rep = explore(village_world(), pinned(village=[roll], duel=[1, 6, 1, 6]))
    assert rep.facts.battles[0].result == "отбит"


def test_CIV_VILLAGE_02_barbarians_are_2_ancient_units_or_3_once_medieval():
    """«2 случайных войска древности если нация в ещё в древней эпохе или 3 случайных войска
    древности, если нация достигла средневековья»."""
    for techs, count in (({}, 2), ({"Монархия": 1}, 3)):
        d = pinned(village=[9], duel=[1, 6] * count)
        _w, rep = explore(village_world(techs=techs), d)
        chosen = [r for r in d.log if r.purpose == "village:barbarians"]
        assert len(chosen) == count == len(rep.facts.battles[0].duels)
        assert all(rules().unit(r.result).era == 1 for r in chosen)


def test_CIV_VILLAGE_02_the_gain_is_private_and_the_roll_is_the_village_die():
    d = Dice(seed="village")
    _w, rep = explore(village_world(), d)
    roll = next(r for r in d.log if r.purpose == "village")
    assert roll.result.startswith("d10=")
    assert list(rep.private) == ["Рим"]
    assert f"1к10 = {roll.result[4:]}" in rep.private["Рим"][0]


# --- CIV-SPY ------------------------------------------------------------------------------------


def spy_world(**rome: Any) -> World:
    w = world(nations={"Рим": {"power": 2, "techs": {"Валюта": 2}, **rome},
                       "Греция": {"techs": {"Охота": 1, "Письменность": 1}, "resources": ["вино"]}},
              cities={"Рим": ("Рим", (0, 0)), "Афины": {"nation": "Греция", "hex": (9, 7), "buildings": ["рынок"]},
                      "Спарта": ("Греция", (9, 0))},
              decks={"Греция": ["лучники", "ватага"]})
    w.letters = [("Греция", "Рим", "мир"), ("Рим", "Египет", "секрет")]
    return w


def spy(w: World, mission: str, city: str = "Афины", d: Dice | None = None):
    return run(SPIES, w, orders(given("Рим", SendSpy(mission, city))), d or pinned())


def test_CIV_SPY_01_a_spy_costs_1_power_and_comes_from_the_technologies():
    """«Если у игрока есть шпионы, он может направлять их в города других наций (за 1 Власть)»;
    Валюта «Дает 1 шпиона»."""
    w, rep = spy(spy_world(), "city")
    assert lines(rep, "Рим") == [("Рим", "власть", "шпион", -1)]
    assert [s.busy for s in w.spies if s.nation == "Рим"] == [True]
    _w, rep = spy(spy_world(techs={}), "city")
    assert rep.results[ref("Рим")].reason == "нет свободного шпиона: всего 0, свободных 0"
    rows = orders(given("Рим", SendSpy("city", "Афины")), given("Рим", SendSpy("techs", "Афины"), row=3))
    _w, rep = run(SPIES, spy_world(), rows, pinned())
    assert rep.results[ref("Рим", 3)].status is Status.REJECTED


@pytest.mark.parametrize(
    ("mission", "city", "found"),
    [
        ("city", "Спарта", "построек нет"),
        ("city", "Афины", "рынок"),
        ("techs", "Спарта", "Охота, Письменность"),
        ("army", "Афины", "1. лучники (в строю); 2. ватага (в строю); следующая карта — №1"),
        ("resources", "Афины", "вино"),
        ("mail", "Афины", "письмо Греция → Рим: «мир»"),
        ("steal", "Афины", "похищены сведения о технологии «Охота»: в ход 2 она вдвое дешевле"),
    ],
)
def test_CIV_SPY_02_the_six_missions_report_only_to_the_spys_owner(mission, city, found):
    """«изучить город (имеющиеся постройки); узнать освоенные технологии; узнать состав армии (только
    в столице …); похитить сведения о технологии (только в столице …); узнать имеющиеся ресурсы
    (только в столице); перехват дипломатической почты (только в столице …)»."""
    w, rep = spy(spy_world(), mission, city)
    assert rep.results[ref("Рим")].status is Status.DONE
    assert list(rep.private) == ["Рим"]
    assert found in rep.private["Рим"][0]
    assert rep.chronicle == []
    if mission == "steal":
        assert w.nations["Рим"].stolen == {"Охота": 2}


@pytest.mark.parametrize("mission", ["army", "steal", "resources", "mail"])
def test_CIV_SPY_02_capital_only_missions(mission):
    _w, rep = spy(spy_world(), mission, "Спарта")
    assert rep.results[ref("Рим")].status is Status.REJECTED
    assert "только в столице" in rep.results[ref("Рим")].reason


def test_CIV_SPY_02_nothing_to_steal():
    """«Если таких технологий нет, заславший шпиона получает информацию о том, что подходящих технологий нет»."""
    _w, rep = spy(spy_world(techs={"Валюта": 2, "Охота": 1, "Письменность": 1}), "steal")
    assert "подходящих технологий нет" in rep.private["Рим"][0]


def test_CIV_SPY_03_a_counter_spy_foils_the_spy_and_the_victim_learns_only_of_a_catch():
    """«Если шпион направлен в город, в котором находится контрразведчик, операция сорвана, шпион
    возвращается ни с чем»."""
    w0 = spy_world()
    w0.spies.append(Spy("Греция", 1, where="Афины"))
    _w, rep = spy(w0, "city")
    assert "сорвана" in rep.private["Рим"][0] and "рынок" not in rep.private["Рим"][0]
    assert rep.private["Греция"] == ["В «Афины» пойман вражеский шпион"]
    assert "Рим" not in rep.private["Греция"][0]
    assert lines(rep, "Рим") == [("Рим", "власть", "шпион", -1)]


def test_CIV_SPY_03_a_counter_spy_cannot_spy():
    """«Этот шпион не может заниматься шпионажем в следующую фазу государства»."""
    w0 = spy_world()
    w0.spies.append(Spy("Рим", 1, where="Рим"))
    _w, rep = spy(w0, "city")
    assert rep.results[ref("Рим")].reason == "нет свободного шпиона: всего 1, свободных 0"


# --- a check's blind dice draw nothing ------------------------------------------------------------


def test_CIV_COMBAT_05_and_CIV_VILLAGE_02_a_check_draws_no_die():
    """A check knows no seed (engine/core/dice.py): the phases say the lot decides and draw nothing."""
    d = Dice.blind_dice()
    _w, rep = attack(war(["ватага"], ["ватага"]), d)
    assert rep.results[ref("Рим")].reason == "исход боя решит жребий" and rep.facts.battles[0].duels == []
    d = Dice.blind_dice()
    _w, rep = explore(village_world(), d)
    assert rep.results[ref("Рим")].reason == "что даст деревня, решит жребий"
    assert [r.purpose for r in d.withheld] == ["village"] and rep.private == {}


def test_CIV_COMBAT_05_the_battles_tab_in_english_names_the_units_in_english():
    """An English campaign resolves in English (the caller's `using`), and the tab names the units
    by «Правила — Войска»."""
    with using("en"):
        _w, rep = attack(war(["лучники", "всадники"], ["ватага"]), pinned([6, 6, 1]))
    grid = battle_rows(rep.facts, "en", rules())
    assert grid[0][:3] == ["Battle", "Attacker", "From"]
    assert grid[1][7:10] == ["Horsemen", "Archers", "6, 6"]
    assert grid[1][17:] == ["the defender destroyed", "taken"]


def test_CIV_SPY_03_a_spy_used_last_turn_is_free_again_in_this_state_stage():
    """«нельзя назначить шпиона, который в этот ход занимался шпионажем» — for that turn only."""
    w0 = spy_world()
    w0.spies.append(Spy("Рим", 1, busy=True))
    w, rep = spy(w0, "techs")
    assert rep.results[ref("Рим")].status is Status.DONE and w.spies[0].busy


def test_CIV_UNIT_02_an_army_crosses_water_only_with_a_technology_that_crosses_seas():
    """«Горы и моря блокируют перемещение через них армий (в отсутствие особых технологий)»."""
    sea = {(1, r): "море" for r in range(-1, 8)}
    _w, rep = attack(war(["ватага"], ["ватага"], techs={"Навигация": 1}, terrain=sea), pinned([]))
    assert "вне досягаемости" in rep.results[ref("Рим")].reason
    _w, rep = attack(war(["ватага"], ["ватага"], techs={"Астрономия": 2}, terrain=sea), pinned([6, 1, 1]))
    assert rep.results[ref("Рим")].status is Status.DONE
