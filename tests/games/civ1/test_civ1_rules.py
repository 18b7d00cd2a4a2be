"""Issue 18 groundwork: the rules of «Civilization 1.0» are data, and the data are the seed's.

Each test is named by the rule id of docs/rules/civ1.yaml it checks; it reads the numbers from the
shipped «Правила — …» tabs (templates/civ1, loaded as a new campaign gets them) and compares them
with the seed's numbers, quoted with their line of seed 004 (shared/seeds/004_5331bacb535053e2.txt).
A broken cell must give a problem naming its tab, row and column.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from functools import cache

import pytest
import repo_paths
import yaml
from babel.messages.extract import extract_from_dir

from engine.core import i18n
from engine.core.errors import Problem
from engine.core.tables import Tables
from engine.rulesets.civ1.messages import _ as civ1_
from engine.rulesets.civ1.rules import Rules
from engine.rulesets.civ1.rules_loaders import TAB_LOADERS, load_rules
from engine.rulesets.civ1.templates import RULES_FILES, rules_tables

ROOT = repo_paths.ROOT
CATALOGUE = ROOT / "docs" / "rules" / "civ1.yaml"


@cache
def shipped(lang: str = "ru") -> Rules:
    problems: list[Problem] = []
    rules = load_rules(rules_tables(lang), problems)
    assert not problems, "\n".join(map(str, problems))
    return rules


def load(tables: Tables) -> tuple[Rules, list[Problem]]:
    problems: list[Problem] = []
    return load_rules(tables, problems), problems


def edited(tab: str, row: int, header: str, value: object) -> Tables:
    """The shipped Russian tabs with one cell changed (``row`` is the sheet row, 1 = header)."""
    tables = rules_tables("ru")
    grid = [list(r) for r in tables[tab]]
    grid[row - 1][grid[0].index(header)] = value
    tables[tab] = grid
    return tables


# --- the tables load ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_civ1_rules_tabs_load_without_problems(lang: str) -> None:
    rules = shipped(lang)
    assert len(rules.techs) == 41 and len(rules.eras) == 5 and len(rules.villages) == 7


def test_civ1_an_english_campaign_reads_the_same_rules() -> None:
    # the English tabs carry English headers, words and references («infantry», «Monarchy», «yes»)
    units = rules_tables("en")["Rules — Units"]
    assert units[2][:5] == ["мечники", "Swordsmen", "infantry", 2, "Monarchy"]
    assert shipped("en") == shipped("ru")


def test_civ1_every_tab_has_a_loader_and_a_shipped_file() -> None:
    assert set(RULES_FILES) == set(TAB_LOADERS)
    names = {p.name for p in (ROOT / "templates" / "civ1").glob("*.csv")}
    assert names == {f for f, _layout in RULES_FILES.values()}


def test_civ1_every_rule_id_cited_is_in_the_catalogue() -> None:
    ids = {e["id"] for e in yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))}
    bad = []
    for filename, _layout in RULES_FILES.values():
        with (ROOT / "templates" / "civ1" / filename).open(encoding="utf-8") as fh:
            for n, rec in enumerate(csv.DictReader(fh), start=2):
                cited = [x for x in re.split(r"[;|]", rec.get("rule_ids") or "") if x.strip()]
                if not cited:
                    bad.append(f"{filename}:{n}: no rule id")
                bad += [f"{filename}:{n}: {x} is not in the catalogue" for x in cited if x.strip() not in ids]
    assert not bad, "\n".join(bad)


def test_civ1_every_data_rule_of_the_catalogue_is_in_a_table() -> None:
    # CIV-MAP-01 is the map itself: a scenario's, not a rules tab's
    entries = yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))
    data = {e["id"] for e in entries if e["kind"] == "data"} - {"CIV-MAP-01"}
    rules = shipped()
    cited = {i for table in (rules.params, rules.limits, rules.prices, rules.eras, rules.techs, rules.terrain,
                             rules.classes, rules.units, rules.buildings, rules.governments, rules.spy_missions)
             for row in table.values() for i in row.rule_ids}
    listed = (*rules.terrain_modifiers, *rules.villages, *rules.combat)
    cited |= {i for row in listed for i in row.rule_ids}
    assert sorted(data - cited) == []


def test_civ1_every_proposal_is_recorded_in_the_decisions() -> None:
    text = (ROOT / "docs" / "rules-decisions.md").read_text(encoding="utf-8")
    civ1 = text[text.index("# Civilization 1.0"):]
    rules = shipped()
    proposals = [s.key for s in (*rules.params.values(), *rules.limits.values()) if s.source == "proposal"]
    assert proposals and [k for k in proposals if f"`{k}`" not in civ1] == []


# --- the seed's numbers ---------------------------------------------------------------------------


def test_CIV_TURN_01_the_game_ends_on_turn_15() -> None:
    # line 4: «Игра закончится в ход № 15»
    assert shipped().param("last_turn") == 15


def test_CIV_TECH_03_research_prices_by_era() -> None:
    # line 170: «Приобретение технологии стоит 2 / 5 / 10 / 20 / 30 очков науки (в зависимости от эпохи)»
    assert [e.tech_cost for e in shipped().eras.values()] == [2, 5, 10, 20, 30]


def test_CIV_TECH_03_every_technology_costs_its_eras_price() -> None:
    # line 170 again: the price depends on the era only;
    # line 173 «1й уровень (древний мир)» … line 221 «5й уровень (будущее)»
    rules = shipped()
    prices = {t.name_ru: rules.eras[t.era].tech_cost for t in rules.techs.values()}
    assert prices["Верховая езда"] == 2 and prices["Строительство"] == 5 and prices["Химия"] == 10
    assert prices["Коммунизм"] == 20 and prices["Технология будущего"] == 30
    assert all(t.era == t.level for t in rules.techs.values())


def test_CIV_TURN_04_unit_and_building_prices_by_era() -> None:
    # line 30: «цена строительства зависит от эпохи и составляет 2 / 4 / 6 / 8 молотков»
    # line 31: «цена строительства зданий 2 / 4 / 6 / 8 молотков в зависимости от эпохи»
    eras = [shipped().eras[level] for level in (1, 2, 3, 4)]
    assert [e.unit_cost for e in eras] == [2, 4, 6, 8]
    assert [e.building_cost for e in eras] == [2, 4, 6, 8]


def test_CIV_WONDER_01_wonder_prices_and_the_discount() -> None:
    # line 32: «Стоимость зависит от эпохи и составляет 6 / 12 / 18 / 24 молотка. …
    # со скидкой 40%, т.е. по цене 4 / 8 / 12 / 16»
    rules = shipped()
    eras = [rules.eras[level] for level in (1, 2, 3, 4)]
    assert [e.wonder_cost for e in eras] == [6, 12, 18, 24]
    assert [e.wonder_discounted_cost for e in eras] == [4, 8, 12, 16]
    assert rules.param("wonder_discount_percent") == 40


def test_CIV_TECH_01_the_pyramid_5_3_2() -> None:
    # line 168: «нормально, если у игрока 5 технологии древности, 3 технологии средневековья и 2 технологии
    # нового времени, при этом игрок может изучить технологию средневековья или современности, но не может
    # изучить технологию нового времени»
    rules = shipped()
    have = {1: 5, 2: 3, 3: 2}
    assert rules.may_research(have, 2)  # medieval: 4 < 5
    assert rules.may_research(have, 4)  # contemporary: 1 < 2
    assert not rules.may_research(have, 3)  # early modern: 3 is not fewer than 3
    assert rules.param("pyramid_last_level") == 4


@pytest.mark.parametrize(("level5", "level4"), [(1, 2), (2, 4), (3, 6)])
def test_CIV_TECH_02_the_level_5_counts(level5: int, level4: int) -> None:
    # line 171: «можно открыть 1 технологию 5го уровня имея 2 технологии 4го, 2 технологии 5го, имея 4
    # технологий 4го и 3 технологии 5го, имея 6 технологий 4го»
    rules = shipped()
    assert rules.param("level5_per_level4") == 2
    assert rules.may_research({4: level4, 5: level5 - 1}, 5)
    assert not rules.may_research({4: level4 - 1, 5: level5 - 1}, 5)
    assert rules.tech("Технология будущего").repeatable  # several level-5 techs, one listed (line 222)


def test_CIV_TURN_03_research_power_for_the_2nd_and_3rd_technology() -> None:
    # line 19: «2 Власти за 2ю технологию в ход, 4 Власти за 3ю технологию в ход и т.д»
    rules = shipped()
    assert [rules.research_power(k) for k in (1, 2, 3)] == [0, 2, 4]
    # three ancient techs in one turn: 3 × 2 science and 0 + 2 + 4 Power
    assert 3 * rules.eras[1].tech_cost == 6 and sum(rules.research_power(k) for k in (1, 2, 3)) == 6


def test_CIV_TURN_03_upgrade_and_restore_prices() -> None:
    # line 15: «апгрейд войск нации (по цене в монетах, равной удвоенной разнице стоимости юнитов в молотках»
    # line 16: «восстановление ранее уничтоженных войск нации (по цене в монетах, равной стоимости войска в молотках)»
    rules = shipped()
    assert rules.upgrade_price("ватага", "мечники") == 2 * (4 - 2)
    assert rules.upgrade_price("ватага", "стрелки") == 2 * (8 - 2)
    assert rules.restore_price("рыцари") == 4
    assert (rules.prices["upgrade"].resource, rules.prices["restore"].resource) == ("coins", "coins")


def test_CIV_POWER_02_power_prices() -> None:
    # lines 12-18, 26, 31, 161: разведка 1, шпион 1, город «1 Власть за каждый существующий город»,
    # реорганизация 1, атака 1, активация 1, постройка сверх первой 1, ОМП «стоит 2 Власти»,
    # правление «1 Власть за каждую достигнутую нацией эпоху» (line 22)
    p = shipped().prices
    got = {k: (p[k].resource, p[k].amount, p[k].per) for k in p}
    assert got["explore"] == ("power", 1, "once")
    assert got["spy"] == ("power", 1, "once")
    assert got["found_city"] == ("power", 1, "per_city")
    assert got["reorganise"] == ("power", 1, "once")
    assert got["attack"] == ("power", 1, "once")
    assert got["activate"] == ("power", 1, "once")
    assert got["extra_building"] == ("power", 1, "once")
    assert got["wmd"] == ("power", 2, "once")
    assert got["government"] == ("power", 1, "per_era")
    # line 68: «держать в городе в качестве контрразведчика (бесплатно)»
    assert got["counter_spy"][1] == 0


def test_CIV_MAP_03_a_worked_hex_gives_one_more_of_the_players_choice() -> None:
    # line 92: «Каждый обрабатываемый хекс кроме своего ресурса, дает либо ещё +1 молоток,
    # либо +1 монету, либо +1 науку»
    assert shipped().param("worked_hex_extra") == 1


def test_CIV_TURN_03_ranges_and_spacing() -> None:
    # line 12: «дистанция разведки … по умолчанию - 3»;
    # line 14: «по умолчанию - 3; город нельзя основать ближе 3 клеток»
    rules = shipped()
    assert (rules.param("explore_range"), rules.param("found_range"), rules.limit("city_spacing")) == (3, 3, 3)


def test_CIV_POWER_01_power_from_technologies() -> None:
    # line 180 «Философия: +1 Власть», 193 «Теология: +2 Власти … (Философия перестает давать бонус)»,
    # 202 «СМИ: +3 Власть (философия и теология не дают прирост власти)», 216 «Пропаганда: +4 Власть
    # (прочие технологии не дают прирост власти)»
    rules = shipped()
    known = ["Философия"]
    assert rules.tech_power(known) == 1
    assert rules.tech_power([*known, "Теология"]) == 2
    assert rules.tech_power([*known, "Теология", "СМИ"]) == 3
    assert rules.tech_power([*known, "Теология", "СМИ", "Пропаганда"]) == 4
    assert rules.tech_power(["Пропаганда", "Философия"]) == 4


def test_CIV_UNIT_01_army_size_from_2_to_6() -> None:
    # line 118: «в начале игры составляет 2 войска, по ходу игры может достичь 6 войск»
    # lines 175, 194, 201, 214: Гончарное дело, Стратегия, Литье металла, Логистика
    # «+1 к максимальной численности армий»
    rules = shipped()
    assert rules.army_size([]) == 2 == rules.limit("army_start")
    assert rules.army_size(["Гончарное дело", "Стратегия", "Литье металла", "Логистика"]) == 6
    assert rules.army_size(list(rules.techs)) == rules.limit("army_stated_max") == 6


def test_CIV_MAP_05_pottery_lets_a_city_reach_3() -> None:
    # line 175: «Гончарное дело: размер города может достигать 3»; line 103 «не более +1 к населению за ход»
    rules = shipped()
    assert rules.city_limit(["Гончарное дело"]) == 3
    assert rules.limit("growth_per_turn") == 1
    # lines 190, 206, 214: Инженерное дело, Биология, Логистика +1 each
    assert rules.city_limit(["Гончарное дело", "Инженерное дело", "Биология", "Логистика"]) == 6
    assert rules.tech("Универсализация").growth_per_turn == 2  # line 215 «на 2 единицы населения в ход»


def test_CIV_MAP_02_terrain() -> None:
    # lines 85-90: моря +1 монета, непроходимы до Навигации; равнины — рост; холмы +1 молоток;
    # лес и джунгли +1 молоток; горы непроходимы, не обрабатываются до Химии
    t = shipped().terrain
    assert (t["море"].coins, t["море"].passable, t["море"].workable_tech) == (1, False, "Навигация")
    assert (t["равнина"].growth, t["поле"].growth, t["пустыня"].growth) == (True, True, False)
    assert (t["холмы"].hammers, t["лес"].hammers, t["джунгли"].hammers) == (1, 1, 1)
    assert (t["горы"].passable, t["горы"].workable_tech) == (False, "Химия")
    assert all(x.hammers + x.coins + x.science == 0 for x in (t["равнина"], t["пустыня"], t["арктика"], t["горы"]))


def hex_yield(rules: Rules, terrain: str, known: list[str], what: str) -> int:
    """A worked hex's own yield of ``what`` with the techs ``known`` (the chosen +1 aside)."""
    base = getattr(rules.terrain[terrain], what)
    return base + sum(m.amount for m in rules.terrain_modifiers
                      if m.tech in known and terrain in m.terrains and m.yield_key == what and m.applies == "hex")


def test_CIV_MAP_04_technologies_change_the_yields() -> None:
    # line 96: «при изученной навигации, моря и океаны при обработке производят две монеты вместо одной»
    # line 97: «при изученной астрономии … ещё одну монету (с навигацией - 3 монеты)»
    # line 98: «при изученном строительстве, лес при обработке производит 2 молотка вместо одного»
    # line 100: «при изученных железных дорогах, холмы производят 2 молотка»
    rules = shipped()
    assert hex_yield(rules, "море", ["Навигация"], "coins") == 2
    assert hex_yield(rules, "океан", ["Навигация", "Астрономия"], "coins") == 3
    assert hex_yield(rules, "лес", ["Строительство"], "hammers") == 2
    assert hex_yield(rules, "джунгли", ["Строительство"], "hammers") == 1
    assert hex_yield(rules, "холмы", ["Железные дороги"], "hammers") == 2
    mods = {m.tech: m for m in rules.terrain_modifiers}
    # line 99 «хексы (кроме морей и океанов) производят 2 монеты вместо одной»: the chosen coin
    assert mods["Математика"].applies == "choice" and "море" not in mods["Математика"].terrains
    # line 101 «джунгли производят +2 науки вместо одной»; line 95 «лес и джунгли могут использоваться для роста»
    assert (mods["Биология"].terrains, mods["Биология"].yield_key) == (("джунгли",), "science")
    assert mods["Охота"].yield_key == "growth" and set(mods["Охота"].terrains) == {"лес", "джунгли"}


def test_CIV_MAP_06_ranges_by_technology() -> None:
    # lines 174, 191, 203, 213: дальность 4 / 5 / 6 / 8; lines 178, 192, 203, 214: по воде 6 / 8 / 10 / 14
    t = shipped().techs
    land = {n: t[n].land_range for n in ("Верховая езда", "Математика", "Паровая тяга", "ДВС")}
    water = {n: t[n].water_range for n in ("Навигация", "Астрономия", "Паровая тяга", "Логистика")}
    assert list(land.values()) == [4, 5, 6, 8] and list(water.values()) == [6, 8, 10, 14]
    assert [n for n, x in t.items() if x.cross_sea] == ["Астрономия", "Паровая тяга", "Логистика"]
    assert t["Логистика"].cross_mountains and t["Полет"].straight_line


SEED_TECHS = [  # (line, name, level) as lines 174-222 of the seed list them
    (174, "Верховая езда", 1), (175, "Гончарное дело", 1), (176, "Письменность", 1), (177, "Охота", 1),
    (178, "Навигация", 1), (179, "Обработка железа", 1), (180, "Философия", 1), (181, "Каменная кладка", 1),
    (182, "Деньги", 1), (183, "Свод законов", 1), (186, "Строительство", 2), (187, "Монархия", 2),
    (188, "Рыцарство", 2), (189, "Печатный станок", 2), (190, "Инженерное дело", 2), (191, "Математика", 2),
    (192, "Астрономия", 2), (193, "Теология", 2), (194, "Стратегия", 2), (195, "Валюта", 2), (198, "Химия", 3),
    (199, "Железные дороги", 3), (200, "Демократия", 3), (201, "Литье металла", 3), (202, "СМИ", 3),
    (203, "Паровая тяга", 3), (204, "Банки", 3), (205, "Военное дело", 3), (206, "Биология", 3), (207, "Полет", 3),
    (210, "Коммунизм", 4), (211, "Ядерная теория", 4), (212, "Ракеты", 4), (213, "ДВС", 4), (214, "Логистика", 4),
    (215, "Универсализация", 4), (216, "Пропаганда", 4), (217, "Реактивные двигатели", 4), (218, "Компьютеры", 4),
    (219, "Биржевая экономика", 4), (222, "Технология будущего", 5),
]


@pytest.mark.parametrize(("n", "line", "name", "level"), [(i, *x) for i, x in enumerate(SEED_TECHS)])
def test_CIV_TECH_04_to_44_the_41_technologies(n: int, line: int, name: str, level: int) -> None:
    tech = shipped().tech(name)
    assert tech.level == level, f"line {line}"
    assert f"CIV-TECH-{n + 4:02d}" in tech.rule_ids
    assert tech.prerequisites == ()  # the seed names none: the pyramid decides (CIV-TECH-01)


def test_CIV_TECH_04_to_44_ten_technologies_per_level() -> None:
    assert Counter(t.level for t in shipped().techs.values()) == {1: 10, 2: 10, 3: 10, 4: 10, 5: 1}


def test_CIV_UNIT_04_classes_and_units_by_era() -> None:
    # line 126: «пехота (ватага / мечники / аркебузеры / стрелки), мобильные войска (всадники / рыцари /
    # кавалерия / танки), заградительные (копейщики / пикинеры / пулеметчики / ПТО), поддержка (лучники,
    # арбалетчики, пушки, РСЗО) и авиация ( [нет] / [нет] / бипланы / реактивные самолеты)»
    rules = shipped()
    by_class: dict[str, list[str]] = {}
    for u in sorted(rules.units.values(), key=lambda u: u.era):
        by_class.setdefault(u.unit_class, []).append(u.name_ru)
    assert by_class == {
        "пехота": ["ватага", "мечники", "аркебузеры", "стрелки"],
        "мобильные": ["всадники", "рыцари", "кавалерия", "танки"],
        "заградительные": ["копейщики", "пикинеры", "пулеметчики", "ПТО"],
        "поддержка": ["лучники", "арбалетчики", "пушки", "РСЗО"],
        "авиация": ["бипланы", "реактивные самолеты"],
    }
    # the technology that opens each (lines 174-217); the warband needs none
    opens = {u.name_ru: u.tech for u in rules.units.values()}
    assert opens["ватага"] is None and opens["всадники"] == "Верховая езда" and opens["ПТО"] == "Коммунизм"
    assert opens["лучники"] == opens["копейщики"] == "Охота" and opens["реактивные самолеты"] == "Реактивные двигатели"


def test_CIV_COMBAT_02_advantages() -> None:
    # lines 134-137: пехота против заградительных, заградительные против мобильных, мобильные против
    # пехоты, авиация против всех, но не может захватывать города; line 133 «от 1 до 4 кубиков»
    rules = shipped()
    c = rules.classes
    assert c["пехота"].advantage_over == ("заградительные",)
    assert c["заградительные"].advantage_over == ("мобильные",)
    assert c["мобильные"].advantage_over == ("пехота",)
    assert {"пехота", "мобильные", "заградительные"} <= set(c["авиация"].advantage_over)
    assert not c["авиация"].captures and c["пехота"].captures
    assert {u.dice for u in rules.units.values() if u.dice is not None} == {1, 2, 3, 4}
    assert rules.param("advantage_dice") == 1 and rules.param("wmd_advantages") == 2  # line 139 «удвоенное»


def test_CIV_COMBAT_03_support_and_CIV_COMBAT_04_fortifications() -> None:
    # line 140: «поддержка дает фиксированное преимущество своим войскам (от +1 для лучников до +4 РСЗО)»
    # line 141: «городские укрепления дают фиксированное преимущество обороняющимся +3»
    rules = shipped()
    assert rules.unit("лучники").support == 1 and rules.unit("РСЗО").support == 4
    assert rules.buildings["укрепления"].defence == 3


@pytest.mark.parametrize(
    ("diff", "result", "loser"),
    [(0, "retreated", "attacker"), (1, "routed", "loser"), (3, "routed", "loser"), (4, "destroyed", "loser"),
     (9, "destroyed", "loser")],
)
def test_CIV_COMBAT_05_duel_thresholds(diff: int, result: str, loser: str) -> None:
    # lines 144-146: «если результат равен, атакующее войско отступило; если результат выше на 1-3 балла,
    # войско противника разгромлено; … выше на 4 балла или более, войско противника … уничтожено»
    o = shipped().outcome(diff)
    assert (o.result, o.loser) == (result, loser)


def test_CIV_CITY_03_buildings() -> None:
    # lines 176-219: библиотека 1 наука, кузница 1 молоток, рынок 1 монета, казармы 1 войско, мастерские 2,
    # оружейная 2, университет 2 науки (заменяет библиотеку), базар 2, лаборатория 3, фабрика 3, банк 3,
    # военная академия 3, производственный комплекс 4, военная база 4, научный центр 4, биржа 4
    b = shipped().buildings
    out = {n: (x.hammers, x.coins, x.science, x.protects) for n, x in b.items()}
    assert out["библиотека"] == (0, 0, 1, 0) and out["кузница"] == (1, 0, 0, 0) and out["рынок"] == (0, 1, 0, 0)
    assert [out[n][3] for n in ("казармы", "оружейная", "военная академия", "военная база")] == [1, 2, 3, 4]
    assert [out[n][0] for n in ("кузница", "мастерские", "фабрика", "производственный комплекс")] == [1, 2, 3, 4]
    assert [out[n][1] for n in ("рынок", "базар", "банк", "биржа")] == [1, 2, 3, 4]
    assert [out[n][2] for n in ("библиотека", "университет", "лаборатория", "научный центр")] == [1, 2, 3, 4]
    assert b["университет"].replaces == "библиотека"
    assert all(x.era == shipped().tech(x.tech).level for x in b.values())


def test_CIV_CITY_04_conversions() -> None:
    # line 204 «конвертировать молотки в монеты по курсу 1:1»; line 218 «2 молотка в обмен на 1 науку»
    t = shipped().techs
    assert t["Банки"].convert_coins == 1 and t["Компьютеры"].convert_science == 2
    assert t["Инженерное дело"].free_buildings == 2  # line 190 «2 строения за 1 ход без траты Власти»


def test_CIV_GOV_02_governments_and_their_technologies() -> None:
    # lines 180, 183, 187, 193, 200, 202, 210, 216
    g = {x.name_ru: x.tech for x in shipped().governments.values()}
    assert g == {
        "античная демократия": "Философия", "республика": "Свод законов", "монархия": "Монархия",
        "теократия": "Теология", "демократия": "Демократия", "федерация": "СМИ", "коммунизм": "Коммунизм",
        "тоталитаризм": "Пропаганда",
    }


def test_CIV_SPY_01_spies_and_CIV_SPY_02_missions() -> None:
    # lines 195, 200, 210: «Дает 1 шпиона» (Валюта, Демократия, Коммунизм)
    rules = shipped()
    assert {n: t.spies for n, t in rules.techs.items() if t.spies} == {"Валюта": 1, "Демократия": 1, "Коммунизм": 1}
    # lines 71-76: город и технологии — любой город; армия, похищение, ресурсы, почта — «только в столице»
    capital = {m.key: m.capital_only for m in rules.spy_missions.values()}
    assert capital == {"city": False, "techs": False, "army": True, "steal": True, "resources": True, "mail": True}
    assert rules.param("stolen_tech_divisor") == 2  # line 74 «снижает цену … вдвое»


def test_CIV_WMD_01_two_technologies() -> None:
    # line 159: «необходимо изучить две технологии: “Ядерная теория” и “Ракеты”»
    assert sorted(n for n, t in shipped().techs.items() if t.wmd) == ["Ракеты", "Ядерная теория"]


def test_CIV_DIPLO_transfers_guarantees_and_honesty() -> None:
    # lines 60-63: Свод законов — договоры; Философия — города; Валюта — ресурсы и монеты; СМИ — Власть
    t = shipped().techs
    assert t["Свод законов"].treaties
    assert (t["Философия"].transfers, t["Валюта"].transfers, t["СМИ"].transfers) == (
        ("cities",), ("coins", "resources"), ("power",))
    # line 45 «не получает 1 Победное очко»; line 55 «на текущий и следующий ход»; line 50 «ближе 6 хексов»
    rules = shipped()
    assert (rules.param("honesty_vp"), rules.param("guarantee_turns"), rules.param("no_city_guarantee_radius")) == (
        1, 2, 6)
    assert t["Технология будущего"].vp == 1  # line 222 «(+1 ПО)»


VILLAGE = {  # roll: (effect, amount, alt_amount, era, to_era), lines 106-112
    1: ("resource", 1, None, None, None),  # 106 «(1-2 на 1к10): нация получает случайный ресурс»
    2: ("resource", 1, None, None, None),
    3: ("coins", 4, None, None, None),  # 107 «(3 на 1к10): найдены богатства (+4 монеты)»
    4: ("unit", 1, None, 1, None),  # 108 «(4 …): +1 случайное войско древности»
    5: ("arms", 1, None, 1, 2),  # 109 «(5 …): 1 случайное войско древности нации получает вооружение средневековья»
    6: ("tech", 1, 2, 1, None),  # 110 «(6 …): +1 случайная технология древности ЛИБО … +2 науки»
    7: ("people", 1, 3, None, None),  # 111 «(7 …): +1 к населению … Если лимит достигнут - … +3 молотка»
    8: ("barbarians", 2, 3, 1, None),  # 112 «(8-10 …): 2 случайных войска древности … или 3 …»
    9: ("barbarians", 2, 3, 1, None),
    10: ("barbarians", 2, 3, 1, None),
}


@pytest.mark.parametrize("roll", sorted(VILLAGE))
def test_CIV_VILLAGE_02_the_village_table_row_by_row(roll: int) -> None:
    v = shipped().village(roll)
    assert (v.effect, v.amount, v.alt_amount, v.era, v.to_era) == VILLAGE[roll]


def test_CIV_VILLAGE_01_the_die_and_the_price() -> None:
    # line 12: «1 Власть за каждую разведку деревни»; lines 106-112: 1к10
    rules = shipped()
    assert rules.param("village_die") == 10 and rules.prices["explore"].amount == 1
    assert rules.limit("capital_min_population") == 1  # line 112 «но не ниже 1»


def test_CIV_WONDER_01_and_CIV_CITY_05_the_gm_fills_wonders_and_resources() -> None:
    rules = shipped()
    assert rules.wonders == {} and rules.resources == {}  # the seed names none
    tables = rules_tables("ru")
    tables["Правила — Чудеса"] = [*tables["Правила — Чудеса"], ["Пирамиды", "Pyramids", "древний мир", "", "", "", ""]]
    tables["Правила — Ресурсы"] = [*tables["Правила — Ресурсы"], ["Мрамор", "Marble", "да", "", "", "", ""]]
    filled, problems = load(tables)
    assert not problems
    assert filled.wonders["Пирамиды"].era == 1 and filled.resources["Мрамор"].wonder_discount


# --- broken cells are named by tab, row and column -----------------------------------------------


def test_civ1_a_broken_number_names_tab_row_and_column() -> None:
    # «мечники» is row 3 of «Правила — Войска»; «Кубики» is column F
    _rules, problems = load(edited("Правила — Войска", 3, "Кубики", "много"))
    assert [(p.tab, p.row, p.column) for p in problems] == [("Правила — Войска", 3, "F")]
    assert "«Кубики»" in problems[0].message and "много" in problems[0].message
    assert str(problems[0]).startswith("Правила — Войска!F3: ")


def test_civ1_a_number_out_of_bounds_is_refused() -> None:
    _rules, problems = load(edited("Правила — Эпохи", 2, "Технология, наука", -2))
    assert [(p.tab, p.row, p.column) for p in problems] == [("Правила — Эпохи", 2, "D")]


def test_civ1_an_unknown_technology_is_named() -> None:
    _rules, problems = load(edited("Правила — Постройки", 2, "Технология", "Алхимия"))
    assert [(p.tab, p.row, p.column) for p in problems] == [("Правила — Постройки", 2, "C")]
    assert "Алхимия" in problems[0].message


def test_civ1_an_unknown_word_lists_the_known_ones() -> None:
    _rules, problems = load(edited("Правила — Цены", 2, "Ресурс", "золото"))
    assert [(p.tab, p.row, p.column) for p in problems] == [("Правила — Цены", 2, "D")]
    assert "«Власть»" in problems[0].message and "золото" in problems[0].message


def test_civ1_power_may_be_written_v() -> None:
    rules, problems = load(edited("Правила — Цены", 2, "Ресурс", "В"))
    assert not problems and rules.prices["explore"].resource == "power"


def test_civ1_a_gap_in_the_village_table_is_named() -> None:
    tables = rules_tables("ru")
    tables["Правила — Деревни"] = [row for row in tables["Правила — Деревни"] if row[0] != 3]
    _rules, problems = load(tables)
    assert [(p.tab, p.row) for p in problems] == [("Правила — Деревни", 0)]
    assert "3" in problems[0].message


def test_civ1_an_era_that_contradicts_the_level_is_named() -> None:
    _rules, problems = load(edited("Правила — Технологии", 2, "Эпоха", "средневековье"))
    assert [(p.tab, p.row, p.column) for p in problems] == [("Правила — Технологии", 2, "D")]


def test_civ1_an_unknown_effect_is_named() -> None:
    _rules, problems = load(edited("Правила — Технологии", 2, "Особое", "летать=да"))
    assert [(p.tab, p.row, p.column) for p in problems] == [("Правила — Технологии", 2, "M")]
    assert "летать" in problems[0].message


def test_civ1_a_missing_tab_and_a_missing_column_are_named() -> None:
    tables = rules_tables("ru")
    del tables["Правила — Шпионаж"]
    grid = [list(r) for r in tables["Правила — Войска"]]
    tables["Правила — Войска"] = [r[:2] + r[3:] for r in grid]  # without «Класс»
    _rules, problems = load(tables)
    assert any(p.tab == "Правила — Шпионаж" and "нет листа правил" in p.message for p in problems)
    assert any(p.tab == "Правила — Войска" and p.row == 1 and "Класс" in p.message for p in problems)


def test_civ1_a_blank_required_number_is_named() -> None:
    _rules, problems = load(edited("Правила — Эпохи", 3, "Технология, наука", None))
    assert [(p.tab, p.row, p.column) for p in problems] == [("Правила — Эпохи", 3, "D")]
    assert "пустая ячейка" in problems[0].message


def test_civ1_a_roll_twice_in_the_village_table_is_named() -> None:
    _rules, problems = load(edited("Правила — Деревни", 3, "1к10 до", 4))  # row «3» now also covers 4
    assert [(p.tab, p.row, p.column) for p in problems] == [("Правила — Деревни", 4, "A")]


def test_civ1_a_russian_tab_may_have_english_headers() -> None:
    tables = rules_tables("ru")
    tables["Правила — Эпохи"] = [rules_tables("en")["Rules — Eras"][0], *tables["Правила — Эпохи"][1:]]
    rules, problems = load(tables)
    assert not problems and rules.eras[2].tech_cost == 5


def test_civ1_the_gm_may_reorder_columns() -> None:
    tables = rules_tables("ru")
    tables["Правила — Эпохи"] = [list(reversed(r)) for r in tables["Правила — Эпохи"]]
    rules, problems = load(tables)
    assert not problems and [e.tech_cost for e in rules.eras.values()] == [2, 5, 10, 20, 30]


def test_civ1_problems_read_in_english_in_an_english_campaign() -> None:
    tables = rules_tables("en")
    grid = [list(r) for r in tables["Rules — Units"]]
    grid[2][grid[0].index("Dice")] = "many"
    tables["Rules — Units"] = grid
    with i18n.using("en"):
        _rules, problems = load(tables)
    assert [(p.tab, p.row, p.column) for p in problems] == [("Rules — Units", 3, "F")]
    assert problems[0].message.startswith("column «Dice»: not a number")


# --- the catalogue -------------------------------------------------------------------------------

KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def test_civ1_every_message_has_an_english_translation() -> None:
    folder = ROOT / "engine" / "rulesets" / "civ1"
    msgids = {m[0] if isinstance(m, tuple) else m
              for _f, _l, m, _c, _ctx in extract_from_dir(folder, method_map=[("**.py", "python")], keywords=KEYWORDS)}
    missing = sorted(m for m in msgids if not civ1_.translated(m, "en"))
    assert msgids and not missing, missing
    cat = i18n._load(civ1_.localedir, civ1_.name, "en")
    assert not [t for t in cat.singular.values() if re.search(r"[А-Яа-яЁё]", t)]
