"""Issue 18, C2: the order vocabulary of «Civilization 1.0» (spec civ1.md §2) — parse, print, echo.

Orders are drawn from the shipped rules' tables (with a wonder and a resource the GM would add) and
a small world built here; each is printed (`cells`, `ORDER_TYPE.print`) and parsed again, in both
languages, and must come back as itself.  Then the words: every action word and synonym of the
spec's table, the seed's abbreviations (ПТО, РСЗО, ДВС, СМИ, ОМП, «В» for Власть), typos with the
nearest names, refusals naming the cell, the other stage's orders refused, English words in an
English campaign.
"""

from __future__ import annotations

import typing
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import i18n
from engine.core.errors import InvalidOrder
from engine.core.orders import OrderRow
from engine.core.ordertypes import OrderType, PrintableOrder, reparse, round_trips, without_row
from engine.core.tables import Formula
from engine.rulesets.civ1 import orders as o
from engine.rulesets.civ1 import ordertypes as t
from engine.rulesets.civ1.model import City, Nation, Tile, World
from engine.rulesets.civ1.rules import Resource, Rules, Wonder
from engine.rulesets.civ1.rules_loaders import load_rules
from engine.rulesets.civ1.templates import rules_tables

PLAYER = "Рим"
COLUMNS = dict(zip(("stage", "action", "object", "where", "to", "qty", "comment"), "ABCDEFG"))
LANGS = ("ru", "en")


@cache
def rules() -> Rules:
    problems: list = []
    shipped = load_rules(rules_tables("ru"), problems)
    assert not problems
    return replace(
        shipped,
        wonders={"Пирамиды": Wonder("Пирамиды", "Pyramids", 1, "", "", ""),
                 "Колосс": Wonder("Колосс", "Colossus", 1, "", "", "")},
        resources={"Шёлк": Resource("Шёлк", "Silk", True, "", "", ""),
                   "Железо": Resource("Железо", "Iron", False, "", "", "")},
    )


def world() -> World:
    tiles = {(q, r): Tile((q, r), "равнина") for q in range(-2, 6) for r in range(-2, 6)}
    tiles[(3, 3)].resource = "Шёлк"
    return World(
        "test", 1, t.STATE,
        nations={n: Nation(n, seat=i) for i, n in enumerate((PLAYER, "Греция", "Египет"))},
        tiles=tiles,
        cities={"Рим": City("Рим", PLAYER, (0, 0)), "Остия": City("Остия", PLAYER, (0, 3)),
                "Афины": City("Афины", "Греция", (4, 0)), "Мемфис": City("Мемфис", "Египет", (4, 4))},
    )


WORLD = world()
RULES = rules()
CITIES = sorted(WORLD.cities)
HEXES = sorted(WORLD.tiles)
UNITS = sorted(RULES.units)
OTHERS = sorted(n for n in WORLD.nations if n != PLAYER)


def row(n: int = 3, **cells: object) -> OrderRow:
    return OrderRow(tab=f"Приказы — {PLAYER}", row=n, state=PLAYER, cells=dict(cells), columns=COLUMNS)


def read(stage: str = t.STATE, **cells: object) -> t.Order:
    return o.parse(row(**cells), stage, RULES, WORLD)


def refused(stage: str = t.STATE, **cells: object) -> str:
    with pytest.raises(InvalidOrder) as e:
        read(stage, **cells)
    return str(e.value)


name = st.sampled_from
COUNT = st.integers(min_value=1, max_value=o.MAX_QTY)
hexes = name(HEXES)
cities = name(CITIES)
units = name(UNITS)
pair = st.lists(units, min_size=2, max_size=2, unique=True)
city_pair = st.lists(cities, min_size=2, max_size=2, unique=True)
wonders = name(sorted(RULES.wonders))
resources = name(sorted(RULES.resources))
governments = name(sorted(RULES.governments))

STRATEGIES: dict[type, st.SearchStrategy[t.Order]] = {
    t.Explore: st.builds(t.Explore, hexes),
    t.SendSpy: st.builds(t.SendSpy, name(sorted(RULES.spy_missions)), cities),
    t.Found: st.builds(t.Found, hexes, name(["Новгород", "Карфаген", "New York", "Сен-Мало", "Фивы 2"])),
    t.Upgrade: st.builds(lambda p, n: t.Upgrade(p[0], p[1], n), pair, COUNT),
    t.Restore: st.builds(t.Restore, units, COUNT),
    t.Reorganise: st.builds(lambda us: t.Reorganise(tuple(us)), st.lists(units, min_size=1, max_size=8)),
    t.Disband: st.builds(t.Disband, units, COUNT),
    t.Attack: st.builds(lambda p, w: t.Attack(p[0], p[1], w), city_pair, st.booleans()),
    t.Research: st.builds(t.Research, name(sorted(RULES.techs)), st.one_of(st.just(""), governments)),
    t.ChangeGovernment: st.builds(t.ChangeGovernment, governments),
    t.AnnounceWonder: st.builds(t.AnnounceWonder, wonders, cities),
    t.Transfer: st.one_of(
        st.builds(lambda c, to: t.Transfer("city", to, c, 1), cities, name(OTHERS)),
        st.builds(lambda r, to, n: t.Transfer("resource", to, r, n), resources, name(OTHERS), COUNT),
        st.builds(lambda w, to, n: t.Transfer(w, to, "", n), name(["coins", "power"]), name(OTHERS), COUNT),
    ),
    t.Activate: st.builds(t.Activate, cities),
    t.Work: st.builds(t.Work, cities, hexes, name(sorted(o.CHOICES))),
    t.BuildUnit: st.builds(t.BuildUnit, units, cities),
    t.Build: st.builds(t.Build, name(sorted(RULES.buildings)), cities),
    t.BuildWonder: st.builds(t.BuildWonder, wonders, cities),
    t.CounterSpy: st.builds(t.CounterSpy, cities),
    t.UseResource: st.builds(t.UseResource, resources, cities),
    t.Convert: st.builds(t.Convert, name(sorted(o.CONVERSIONS)), COUNT, st.one_of(st.just(""), cities)),
    t.Pass: st.just(t.Pass()),
}


def test_every_order_class_has_a_print_and_a_strategy() -> None:
    """A new order class without a word, a print or a strategy here fails."""
    every = set(typing.get_args(t.Order))
    assert set(o.ORDER_TYPE.kinds) == every == set(STRATEGIES) == set(o.ACTION_OF)
    assert isinstance(o.ORDER_TYPE, OrderType)
    read_row = o.ORDER_TYPE.parse(row(action="Пас"), o.Context(t.STATE, RULES, WORLD))
    assert isinstance(read_row, PrintableOrder) and isinstance(read_row, t.Given)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.one_of(*STRATEGIES.values()), lang=name(LANGS), n=st.integers(min_value=2, max_value=500))
def test_every_order_round_trips_through_its_cells(order: t.Order, lang: str, n: int) -> None:
    """parse(cells(o)) == o, in either language, through the core's OrderType."""
    stage = t.STAGE_OF.get(type(order), t.STATE)
    context = o.Context(stage, RULES, WORLD)
    with i18n.using(lang):
        printed = o.Read(row(n), order, RULES)
        cells = o.ORDER_TYPE.print(printed)
        again = reparse(o.ORDER_TYPE, printed, context)
        assert without_row(again) == without_row(printed), cells
        assert round_trips(o.ORDER_TYPE, printed, context)
        assert again.order == order
        # the plain functions agree with the pair
        assert o.parse(row(n, **o.cells(order, lang, RULES)), stage, RULES, WORLD) == order
        assert o.describe(order, lang, RULES)


@pytest.mark.parametrize("kind", list(STRATEGIES), ids=lambda k: k.__name__)
@pytest.mark.parametrize("lang", LANGS)
def test_each_kind_round_trips(kind: type, lang: str) -> None:
    """Every kind at least once (hypothesis may skip one in a short run)."""

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(order=STRATEGIES[kind])
    def check(order: t.Order) -> None:
        cells = o.cells(order, lang, RULES)
        with i18n.using(lang):
            assert o.parse(row(**cells), t.STAGE_OF.get(kind, t.STATE), RULES, WORLD) == order, cells

    check()


# --- the words of the spec's table ----------------------------------------------------------------

# cells that make a row of each action complete
SAMPLE: dict[str, dict[str, object]] = {
    "explore": {"where": "1,2"},
    "spy": {"object": "технологии", "to": "Афины"},
    "found": {"where": "2,2", "object": "Неаполь"},
    "upgrade": {"object": "ватага → мечники"},
    "restore": {"object": "рыцари"},
    "reorganise": {"object": "мечники, лучники, копейщики"},
    "disband": {"object": "ватага"},
    "attack": {"where": "Рим", "to": "Афины"},
    "wmd": {"where": "Рим", "to": "Афины"},
    "research": {"object": "Монархия"},
    "research_gov": {"object": "Монархия"},
    "government": {"object": "республика"},
    "announce": {"object": "Пирамиды", "where": "Рим"},
    "transfer": {"object": "монеты", "to": "Греция", "qty": 3},
    "activate": {"where": "Рим"},
    "work": {"where": "Рим", "object": "1,0", "to": "молоток"},
    "build_unit": {"object": "ватага", "where": "Рим"},
    "build": {"object": "библиотека", "where": "Рим"},
    "build_wonder": {"object": "Пирамиды", "where": "Рим"},
    "counter_spy": {"where": "Рим"},
    "use_resource": {"object": "Шёлк", "where": "Рим"},
    "convert": {"object": "молотки → монеты", "qty": 2},
    "pass": {},
}
KIND_OF = {
    "explore": t.Explore, "spy": t.SendSpy, "found": t.Found, "upgrade": t.Upgrade, "restore": t.Restore,
    "reorganise": t.Reorganise, "disband": t.Disband, "attack": t.Attack, "wmd": t.Attack, "research": t.Research,
    "research_gov": t.Research, "government": t.ChangeGovernment, "announce": t.AnnounceWonder,
    "transfer": t.Transfer, "activate": t.Activate, "work": t.Work, "build_unit": t.BuildUnit, "build": t.Build,
    "build_wonder": t.BuildWonder, "counter_spy": t.CounterSpy, "use_resource": t.UseResource, "convert": t.Convert,
    "pass": t.Pass,
}
WORDS = [(a.key, w) for a in o.ACTIONS for w in (a.ru, a.en, *a.synonyms)]


@pytest.mark.parametrize(("key", "word"), WORDS, ids=[f"{k}:{w}" for k, w in WORDS])
def test_every_word_and_synonym_of_the_spec(key: str, word: str) -> None:
    """Spec §2's table: «Разведка»/«Разведать деревню», «Атака»/«Атаковать»/«Напасть», «Улучшить»/
    «Апгрейд», … and the English words; any case, ё or е."""
    action = o.BY_KEY[key]
    stage = t.CITIES if action.stage == t.CITIES else t.STATE
    for spelling in (word, word.upper(), word.lower()):
        got = read(stage, action=spelling, **SAMPLE[key])
        assert type(got) is KIND_OF[key], spelling


def test_the_spec_table_words_are_there() -> None:
    """The words spec §2 lists, each understood as its order."""
    listed = {
        "Разведка": t.Explore, "Разведать деревню": t.Explore, "Шпионаж": t.SendSpy, "Заслать шпиона": t.SendSpy,
        "Основать город": t.Found, "Основать": t.Found, "Улучшить": t.Upgrade, "Апгрейд": t.Upgrade,
        "Восстановить": t.Restore, "Реорганизация": t.Reorganise, "Порядок колоды": t.Reorganise,
        "Распустить": t.Disband, "Атака": t.Attack, "Атаковать": t.Attack, "Напасть": t.Attack,
        "Изучить": t.Research, "Исследовать": t.Research, "Сменить правление": t.ChangeGovernment,
        "Правление": t.ChangeGovernment, "Чудо": t.AnnounceWonder, "Заявить чудо": t.AnnounceWonder,
        "Передать": t.Transfer, "Нет действий": t.Pass, "Пас": t.Pass,
    }
    key_of = {w: a.key for a in o.ACTIONS for w in (a.ru, *a.synonyms)}
    for word, kind in listed.items():
        assert type(read(t.STATE, action=word, **SAMPLE[key_of[word]])) is kind, word
    cities = {
        "Активировать": t.Activate, "Обработка": t.Work, "Обрабатывать": t.Work, "Войско": t.BuildUnit,
        "Построить войско": t.BuildUnit, "Нанять": t.BuildUnit, "Построить": t.Build, "Постройка": t.Build,
        "Строить чудо": t.BuildWonder, "Контршпион": t.CounterSpy, "Ресурс": t.UseResource,
        "Использовать ресурс": t.UseResource, "Конвертировать": t.Convert, "Пас": t.Pass,
    }
    for word, kind in cities.items():
        assert type(read(t.CITIES, action=word, **SAMPLE[key_of[word]])) is kind, word


def test_names_in_any_case_with_or_without_yo() -> None:
    assert read(action="изучить", object="литье МЕТАЛЛА") == t.Research("Литье металла")
    assert read(action="изучить", object="Литьё металла") == t.Research("Литье металла")
    assert read(action="Изучить", object="полёт") == t.Research("Полет")
    assert read(action="Изучить", object="Chemistry") == t.Research("Химия")
    assert read(t.CITIES, action="Ресурс", object="шелк", where="рим") == t.UseResource("Шёлк", "Рим")


def test_seed_abbreviations() -> None:
    """The seed's ПТО, РСЗО (units), ДВС, СМИ (technologies), ОМП (an attack), «В» for Власть."""
    assert read(action="Восстановить", object="пто") == t.Restore("ПТО")
    assert read(action="Восстановить", object="противотанковые орудия") == t.Restore("ПТО")
    assert read(action="Улучшить", object="пушки → РСЗО", qty=2) == t.Upgrade("пушки", "РСЗО", 2)
    assert read(action="Изучить", object="двс") == t.Research("ДВС")
    assert read(action="Изучить", object="двигатель внутреннего сгорания") == t.Research("ДВС")
    assert read(action="Изучить", object="СМИ", to="федерация") == t.Research("СМИ", "federation")
    assert read(action="Передать", object="В", to="Греция", qty=2) == t.Transfer("power", "Греция", "", 2)
    assert read(action="Передать", object="Власть", to="Египет") == t.Transfer("power", "Египет", "", 1)


def test_CIV_WMD_01_an_attack_with_wmd() -> None:
    """«применение ядерного оружия дает удвоенное преимущество всем атакующим войскам»: ОМП as the
    action or as the attack's object."""
    want = t.Attack("Рим", "Афины", True)
    assert read(action="Атака", object="ОМП", where="Рим", to="Афины") == want
    assert read(action="Напасть", object="омп", where="Рим", to="Афины") == want
    assert read(action="ОМП", where="Рим", to="Афины") == want
    assert read(action="Атаковать", where="Рим", to="Афины") == t.Attack("Рим", "Афины", False)
    assert "ОМП" in refused(action="Атака", object="мечники", where="Рим", to="Афины")


def test_CIV_GOV_01_research_and_change_government() -> None:
    """«в ход открытия технологии, нация может бесплатно сменить тип правления на вновь открытый (это
    должно заявляться при изучении технологии)»: the government the tech opens, or the one in «Куда»."""
    assert read(action="Изучить и сменить правление", object="Теология") == t.Research("Теология", "theocracy")
    assert read(action="Изучить", object="Теология", to="Теократия") == t.Research("Теология", "theocracy")
    assert "не открывает правления" in refused(action="Изучить и сменить правление", object="Охота")


def test_CIV_COMBAT_01_deck_order_and_unit_forms() -> None:
    """«Порядок войск в пуле можно изменить в фазе государства за Власть»: the new order as a list;
    units also in the singular."""
    assert read(action="Распустить", object="мечник", qty=2) == t.Disband("мечники", 2)
    assert read(action="Реорганизация", object="мечники; лучник\nкопейщики") == t.Reorganise(
        ("мечники", "лучники", "копейщики"))
    assert read(action="Улучшить", object="ватага", to="стрелки") == t.Upgrade("ватага", "стрелки", 1)


def test_CIV_DIPLO_05_transfer_objects() -> None:
    """«передача городов, ресурсов, монет, Власти между нациями»: «Передать | город X / монеты /
    ресурс X / Власть | Куда: нация | Кол-во» (spec §2)."""
    assert read(action="Передать", object="город Остия", to="Греция") == t.Transfer("city", "Греция", "Остия")
    assert read(action="Передать", object="Остия", to="Греция") == t.Transfer("city", "Греция", "Остия")
    assert read(action="Передать", object="ресурс Железо", to="Греция") == t.Transfer("resource", "Греция", "Железо")
    assert read(action="Передать", object="Шёлк", to="Греция", qty=2) == t.Transfer("resource", "Греция", "Шёлк", 2)
    assert read(action="Передать", object="монеты", to="Греция", qty=5) == t.Transfer("coins", "Греция", "", 5)
    assert "другой нации" in refused(action="Передать", object="монеты", to="Рим", qty=5)
    assert "по одному" in refused(action="Передать", object="город Остия", to="Греция", qty=2)


def test_stage_dependent_readings() -> None:
    """«Чудо» in the cities stage builds the announced wonder; «Построить» with a unit or a wonder."""
    assert read(t.CITIES, action="Чудо", object="Колосс", where="Остия") == t.BuildWonder("Колосс", "Остия")
    assert read(t.CITIES, action="Построить", object="лучники", where="Рим") == t.BuildUnit("лучники", "Рим")
    assert read(t.CITIES, action="Построить", object="Пирамиды", where="Рим") == t.BuildWonder("Пирамиды", "Рим")
    assert read(t.CITIES, action="Пас") == t.Pass()
    assert read(t.STATE, action="Нет действий") == t.Pass()


# --- refusals -------------------------------------------------------------------------------------


def test_CIV_TURN_02_an_order_of_the_other_stage_is_refused() -> None:
    """«сначала игроки дают заявку на действия в фазу государства … а затем … на фазу городов»: an
    «Активировать» in the state stage, a «Разведка» in the cities stage are refused, naming the cell."""
    msg = refused(t.STATE, action="Активировать", where="Рим")
    assert msg.startswith(f"Приказы — {PLAYER}!B3:") and "фазы городов" in msg and "«города»" in msg
    msg = refused(t.CITIES, action="Разведка", where="1,1")
    assert "!B3" in msg and "фазы государства" in msg and "«государство»" in msg
    assert "фазы государства" in refused(t.STATE, action="Строить чудо", object="Колосс", where="Рим")


@pytest.mark.parametrize(
    ("cells", "cell", "near"),
    [
        ({"action": "Изучть", "object": "Охота"}, "B3", "Изучить"),
        ({"action": "Изучить", "object": "Монархя"}, "C3", "Монархия"),
        ({"action": "Восстановить", "object": "мечнки"}, "C3", "мечники"),
        ({"action": "Атака", "where": "Рим", "to": "Афны"}, "E3", "Афины"),
        ({"action": "Шпионаж", "object": "перехват почт", "to": "Афины"}, "C3", "перехват почты"),
        ({"action": "Сменить правление", "object": "монархя"}, "C3", "монархия"),
        ({"action": "Передать", "object": "монеты", "to": "Грецея"}, "E3", "Греция"),
        ({"action": "Апгрейт", "object": "ватага → мечники"}, "B3", "Улучшить"),
    ],
)
def test_a_typo_names_the_cell_and_the_nearest_name(cells: dict[str, object], cell: str, near: str) -> None:
    msg = refused(**cells)
    assert msg.startswith(f"Приказы — {PLAYER}!{cell}:"), msg
    assert f"«{near}»" in msg, msg


def test_a_typo_in_the_cities_stage() -> None:
    msg = refused(t.CITIES, action="Построить", object="библиотке", where="Рим")
    assert "!C3" in msg and "«библиотека»" in msg
    msg = refused(t.CITIES, action="Обработка", where="Рим", object="1,1", to="монте")
    assert "!E3" in msg and "«монета»" in msg


@pytest.mark.parametrize(
    ("cells", "cell", "words"),
    [
        ({"action": ""}, "B3", "не указано действие"),
        ({"action": "Разведка"}, "D3", "не указан гекс"),
        ({"action": "Разведка", "where": "север"}, "D3", "не гекс"),
        ({"action": "Разведка", "where": "40,40"}, "D3", "нет на карте"),
        ({"action": "Основать город", "where": "1,1"}, "C3", "имя нового города"),
        ({"action": "Улучшить", "object": "ватага"}, "C3", "что во что"),
        ({"action": "Улучшить", "object": "ватага → ватага"}, "C3", "другое войско"),
        ({"action": "Атака", "where": "Рим", "to": "Рим"}, "E3", "сам себя"),
        ({"action": "Восстановить", "object": "рыцари", "qty": "1,5"}, "F3", "дробное"),
        ({"action": "Восстановить", "object": "рыцари", "qty": 0}, "F3", "больше нуля"),
        ({"action": "Восстановить", "object": "рыцари", "qty": "много"}, "F3", "не число"),
        ({"action": "Изучить", "object": Formula("=A1")}, "C3", "формула"),
        ({"action": "Изучить", "object": "x" * 2000}, "C3", "слишком длинный"),
        ({"action": "Реорганизация"}, "C3", "порядок колоды"),
        ({"action": "Передать", "object": "", "to": "Греция"}, "C3", "что передать"),
    ],
)
def test_refusals_name_the_cell(cells: dict[str, object], cell: str, words: str) -> None:
    msg = refused(**cells)
    assert msg.startswith(f"Приказы — {PLAYER}!{cell}:"), msg
    assert words in msg, msg


def test_cities_stage_refusals() -> None:
    assert "!F3" in refused(t.CITIES, action="Конвертировать", object="молотки → наука")
    assert "!C3" in refused(t.CITIES, action="Конвертировать", object="молотки → ПО", qty=2)
    assert "по одному" in refused(t.CITIES, action="Войско", object="ватага", where="Рим", qty=3)


def test_a_table_the_gm_has_not_filled() -> None:
    """No wonders in the shipped tables (G2): the refusal says the GM adds them."""
    bare = replace(RULES, wonders={})
    with pytest.raises(InvalidOrder, match="Ведущий"):
        o.parse(row(action="Чудо", object="Пирамиды", where="Рим"), t.STATE, bare, WORLD)


def test_a_world_that_changed_is_read_afresh() -> None:
    """A city founded in the state stage is a name in the cities stage (the indexes follow the world)."""
    w = world()
    with pytest.raises(InvalidOrder):
        o.parse(row(action="Активировать", where="Неаполь"), t.CITIES, RULES, w)
    w.cities["Неаполь"] = City("Неаполь", PLAYER, (2, 2))
    assert o.parse(row(action="Активировать", where="Неаполь"), t.CITIES, RULES, w) == t.Activate("Неаполь")


# --- an English campaign --------------------------------------------------------------------------


def test_english_words_in_an_english_campaign() -> None:
    with i18n.using("en"):
        assert read(action="Research", object="Mass Media") == t.Research("СМИ")
        assert read(action="Attack", object="WMD", where="Рим", to="Афины") == t.Attack("Рим", "Афины", True)
        assert read(action="Upgrade", object="Warband -> Riflemen", qty=2) == t.Upgrade("ватага", "стрелки", 2)
        assert read(action="Transfer", object="Power", to="Греция") == t.Transfer("power", "Греция", "", 1)
        assert read(action="Spy", object="steal a technology", to="Афины") == t.SendSpy("steal", "Афины")
        worked = read(t.CITIES, action="Work", where="Рим", object="1,1", to="hammers")
        assert worked == t.Work("Рим", (1, 1), "hammers")
        assert read(t.CITIES, action="Build", object="Library", where="Рим") == t.Build("библиотека", "Рим")
        msg = refused(action="Reserch", object="Pottery")
        assert "unknown action" in msg and "«Research»" in msg and "!B3" in msg
        msg = refused(action="Research", object="Poterry")
        assert "unknown technology" in msg and "«Pottery»" in msg
        msg = refused(action="Activate", where="Рим")
        assert "of the cities stage" in msg and "«cities»" in msg


def test_the_echo_in_the_campaigns_language() -> None:
    research = t.Research("Теология", "theocracy")
    assert o.describe(research, "ru", RULES) == "Изучить «Теология» и сменить правление на «теократия»"
    assert o.describe(research, "en", RULES) == "Research «Theology» and change the government to «Theocracy»"
    assert o.describe(t.Attack("Рим", "Афины", True), "ru") == "Атака из города Рим на город Афины с ОМП"
    assert o.describe(t.Pass(), "en") == "No actions"
    assert o.describe(t.Transfer("power", "Греция", "", 2), "ru") == "Передать Власть (2) нации Греция"
    assert o.cells(research, "en", RULES) == {"stage": "state", "action": "Research", "object": "Theology",
                                               "to": "Theocracy"}
    assert o.cells(t.Upgrade("ватага", "мечники", 2), "ru") == {
        "stage": "государство", "action": "Улучшить", "object": "ватага → мечники", "qty": 2}


def test_action_lists_per_stage() -> None:
    """The «Действие» dropdown of each stage: its own words and «Нет действий», not the other's."""
    state, towns = o.action_words(t.STATE), o.action_words(t.CITIES, "en")
    assert "Разведка" in state and "Нет действий" in state and "Активировать" not in state
    assert "Activate" in towns and "No actions" in towns and "Explore" not in towns


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stage", [t.STATE, t.CITIES])
def test_every_dropdown_option_parses(stage: str, lang: str) -> None:
    """Whatever a dropdown of the order tab offers is a word some order of that stage reads."""
    from engine.rulesets.civ1.dropdowns import lists

    options = lists(stage, RULES, WORLD, lang)
    keys = [a.key for a in o.ACTIONS if a.stage in (stage, o.ANY)]
    with i18n.using(lang):
        for action in options["action"]:
            key = next(k for k in keys if o.action_word(k, lang) == action)
            o.parse(row(action=action, **SAMPLE[key]), stage, RULES, WORLD)
        for column in ("object", "to"):
            for option in options[column]:
                def reads(key: str, option: str = option, column: str = column) -> bool:
                    try:
                        o.parse(row(action=o.action_word(key, lang), **{**SAMPLE[key], column: option}),
                                stage, RULES, WORLD)
                    except InvalidOrder:
                        return False
                    return True

                assert any(reads(k) for k in keys if k != "found"), (column, option)
        assert set(options["where"]) == set(WORLD.cities)
        assert {o.stage_word(t.STATE, lang), o.stage_word(t.CITIES, lang)} == set(options["stage"])


CELL = st.one_of(st.none(), st.text(max_size=30), st.integers(min_value=-5, max_value=10**7),
                 st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(["1,2", "Рим", "ОМП", "В", "→"]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(action=st.one_of(st.sampled_from([w for _k, w in WORDS]), st.text(max_size=20)),
       obj=CELL, where=CELL, to=CELL, qty=CELL, stage=st.sampled_from([t.STATE, t.CITIES]), lang=name(LANGS))
def test_any_row_is_an_order_or_a_refusal_naming_a_cell(action: str, obj: object, where: object, to: object,
                                                        qty: object, stage: str, lang: str) -> None:
    """Whatever is typed, parse gives an order whose print reads back the same, or an InvalidOrder
    that names a cell of the row — never another exception."""
    with i18n.using(lang):
        try:
            order = read(stage, action=action, object=obj, where=where, to=to, qty=qty)
        except InvalidOrder as e:
            assert str(e).startswith(f"Приказы — {PLAYER}!"), str(e)
            return
        assert o.parse(row(**o.cells(order, lang, RULES)), stage, RULES, WORLD) == order
