"""Issue 15, points 15 and 16: two rules of the ancient game the seed states and the engine got wrong.

Point 15 (ANC-AGRI-04, ANC-BLD-15): an irrigated farm is worked by three times the farm's crew —
6 slaves or 3 free citizens in all — and yields 3 grain; the irrigation system has no crew of its own.
Point 16 (ANC-STRATA-17): heavy cavalry go back to the aristocracy for free, by «Распустить ТК» or
«Перевести ТК → АР», to the army's province if it is the state's own, else to the capital.
"""

from __future__ import annotations

from typing import Any

from engine.rulesets.ancient import codec, scenario, staffing
from engine.rulesets.ancient.staffing import province_output, staff

QUIET = {"events_per_turn": {"value": 0}, "growth_chance_percent": {"value": 0}, "famine_stability_delta": {"value": 0}}


def _lower_egypt(buildings: list[str], population: dict[str, int]) -> tuple[Any, Any]:
    """Нижний Египет (grain) of a one-province Egypt with the given buildings and people, and the rules."""
    setup = {
        "base": "empty",
        "states": {"Египет": {"government": "monarchy", "treasury": 0, "capital": "Нижний Египет"}},
        "provinces": {
            "Нижний Египет": {
                "owner": "Египет",
                "specialisation": "зерно",
                "buildings": buildings,
                "population": population,
            }
        },
    }
    d = codec.decode(scenario.build_tables(setup))
    return d.campaign.provinces["Нижний Египет"], d.rules


IRRIGATED = ["Зерновая ферма", "Ирригационная система"]


def test_i15_p15_irrigated_farm_crew_is_three_times_the_farms_own() -> None:
    """6 slaves or 3 free citizens work an irrigated farm, in all, for 3 grain (it used to need 2 + 6)."""
    for people, workers in (({"раб": 6}, 6), ({"СГ": 3}, 3)):
        province, rules = _lower_egypt(IRRIGATED, people)
        s = staff(province, rules)
        assert s.staffed["Зерновая ферма"], people
        assert s.workers == {"Зерновая ферма": workers, "Ирригационная система": 0}, people
        assert sum(s.free.values()) == 0, people
        assert province_output(province, rules)["зерно"] == 3, people
        assert s.raised["Зерновая ферма"], people
        assert staffing.short_crews(province, rules) == [], people


def test_i15_p15_irrigation_has_no_crew_of_its_own_in_the_rules_tab() -> None:
    """The template says so: no «Работники» on the irrigation, `crew=3` beside `output=3`."""
    _province, rules = _lower_egypt([], {})
    b = rules.buildings["Ирригационная система"]
    assert b.workers == ()
    assert int(b.effect("crew")) == 3 and int(b.effect("output")) == 3


def test_i15_p15_more_people_than_the_crew_are_left_free() -> None:
    province, rules = _lower_egypt(IRRIGATED, {"раб": 8, "СГ": 1})
    s = staff(province, rules)
    assert s.workers["Зерновая ферма"] == 6
    assert s.free["раб"] == 2 and s.free["СГ"] == 1
    assert province_output(province, rules)["зерно"] == 3


def test_i15_p15_short_of_the_whole_crew_the_farm_yields_its_one_unit() -> None:
    """5 slaves: the farm works with its own 2 (1 grain), and the reason names the crew it lacks."""
    province, rules = _lower_egypt(IRRIGATED, {"раб": 5})
    s = staff(province, rules)
    assert s.staffed["Зерновая ферма"] and not s.raised["Зерновая ферма"]
    assert s.workers["Зерновая ферма"] == 2 and s.free["раб"] == 3
    assert province_output(province, rules)["зерно"] == 1
    (why,) = staffing.short_crews(province, rules)
    assert "6 раб или 3 СГ" in why and "обычный состав, и урожай — 1 единица" in why


def test_i15_p15_irrigation_without_a_farm_yields_nothing_and_says_so() -> None:
    province, rules = _lower_egypt(["Ирригационная система"], {"раб": 6})
    assert province_output(province, rules)["зерно"] == 0
    assert staffing.short_crews(province, rules) == ["в провинции нет фермы, которую можно орошать"]


def test_i15_p15_without_irrigation_the_farm_keeps_its_own_crew() -> None:
    province, rules = _lower_egypt(["Зерновая ферма"], {"раб": 6})
    s = staff(province, rules)
    assert s.workers["Зерновая ферма"] == 2 and s.free["раб"] == 4
    assert province_output(province, rules)["зерно"] == 1


def test_i15_p15_building_irrigation_without_its_crew_says_so_in_the_reason() -> None:
    """5 slaves pay for the irrigation and nobody is left for the farm: built, and the row says why it idles."""
    data = {
        "setup": {
            "base": "empty",
            "states": {
                "Вавилония": {
                    "government": "monarchy",
                    "treasury": 200,
                    "techs": ["Ирригация"],
                    "capital": "Месопотамия",
                }
            },
            "provinces": {
                "Месопотамия": {
                    "owner": "Вавилония",
                    "specialisation": "зерно",
                    "buildings": ["Зерновая ферма"],
                    "population": {"раб": 5},
                }
            },
            "rules": {"parameters": QUIET},
        },
        "turns": [
            {
                "orders": {"Вавилония": [["Построить", "Ирригационная система", "Месопотамия"]]},
                "expect": {
                    "orders": {
                        "Вавилония": [
                            {
                                "status": "выполнен",
                                "reason_contains": [
                                    "построено за 200 Д и 5 раб.",
                                    "орошение пока не действует",
                                    "нужно 6 раб или 3 СГ в провинции Месопотамия",
                                    "пока работников нет",
                                ],
                            }
                        ]
                    },
                    "states": {"Вавилония": {"famine": 1}},
                },
            }
        ],
    }
    outcome = scenario.run(data)
    assert not outcome.failures, "\n".join(outcome.failures)


def _rome(armies: list[dict[str, Any]], orders: list[list[Any]], expect: dict[str, Any], **more: Any) -> list[str]:
    """Run a turn of Рим (aristocracy, 0 Д unless `treasury`; Рим and Апулия; neutral Сицилия), then any
    further `turns`, and return the failures."""
    provinces = {
        "Рим": {"owner": "Рим", "specialisation": "зерно", "buildings": ["Зерновая ферма"], "population": {"раб": 2}},
        "Апулия": {"owner": "Рим", "specialisation": "вино"},
        "Сицилия": {"owner": "", "specialisation": "зерно"},
        **more.get("provinces", {}),
    }
    data = {
        "setup": {
            "base": "empty",
            "states": {
                "Рим": {
                    "government": "aristocracy",
                    "path": "western",
                    "treasury": more.get("treasury", 0),
                    "capital": "Рим",
                }
            },
            "provinces": provinces,
            "adjacency": [["Рим", "Апулия"], ["Апулия", "Сицилия"]],
            "armies": armies,
            "fleets": [],
            "rules": {"parameters": QUIET},
        },
        "turns": [{"orders": {"Рим": orders}, "expect": expect}, *more.get("turns", [])],
    }
    return scenario.run(data).failures


def test_i15_p16_disbanded_heavy_cavalry_give_the_aristocrat_back() -> None:
    """«Распустить ТК»: the horseman is an aristocrat again in the army's province, for nothing, armed,
    and counts for this turn's aristocracy income (+3 Д) — it used to vanish."""
    failures = _rome(
        [{"name": "Легион", "state": "Рим", "province": "Апулия", "units": {"ТК": 1, "ЛП": 1}}],
        [["Распустить", "ТК", "Легион", None, 1]],
        {
            "orders": {"Рим": [{"status": "выполнен", "reason_contains": "+1 АР в провинции Апулия"}]},
            "provinces": {"Апулия": {"population": {"АР": 1}}, "Рим": {"population": {"АР": 0}}},
            "armies": {"Легион": {"units": {"ЛП": 1}}},
            # 5 Д − 1 Д the ЛП's upkeep (the ТК's 2 Д are not due) + 3 Д for the aristocrat
            "states": {"Рим": {"armed": 1, "treasury": 5 - 1 + 3}},
            "ledger": [{"state": "Рим", "category": "правление", "amount": 3, "reason_contains": "1 АР"}],
        },
        treasury=5,
    )
    assert not failures, "\n".join(failures)


def test_i15_p16_convert_heavy_cavalry_to_aristocrat_is_an_order() -> None:
    """«Перевести ТК → АР» (Где: the army, or the province it stands in) is understood and done, free;
    an army outside the state's provinces sends its aristocrats to the capital."""
    failures = _rome(
        [
            {"name": "Экспедиция", "state": "Рим", "province": "Сицилия", "units": {"ТК": 2}},
            {"name": "Гвардия", "state": "Рим", "province": "Апулия", "units": {"ТК": 1}},
        ],
        [["Перевести", "ТК → АР", "Экспедиция", None, 2], ["Перевести", "тяжёлая конница -> аристократы", "Апулия"]],
        {
            "orders": {
                "Рим": [
                    {
                        "status": "выполнен",
                        "reason_contains": "переведено 2 ТК; +2 АР в провинции Рим",
                        "understood_contains": "Перевести 2 ТК → АР из «Экспедиция»",
                    },
                    {
                        "status": "выполнен",
                        "reason_contains": "+1 АР в провинции Апулия",
                        "understood_contains": "Перевести 1 ТК → АР в провинции Апулия",
                    },
                ]
            },
            "provinces": {"Рим": {"population": {"АР": 2}}, "Апулия": {"population": {"АР": 1}}},
            "armies": {"Экспедиция": "gone", "Гвардия": "gone"},
            "states": {"Рим": {"armed": 3, "treasury": 9}},
        },
    )
    assert not failures, "\n".join(failures)


def test_i15_p16_only_heavy_cavalry_go_back_to_a_stratum() -> None:
    """Other warriors leave their stratum for good (4.1): «ЛП → раб» and «ТК → СГ» are refused with the
    reason, «АР → ТК» points to «Набрать», a disbanded ЛП is gone, and more ТК than there are is partial."""
    failures = _rome(
        [{"name": "Легион", "state": "Рим", "province": "Рим", "units": {"ТК": 1, "ЛП": 2}}],
        [
            ["Перевести", "ЛП → раб", "Легион", None, 1],
            ["Перевести", "ТК → СГ", "Легион", None, 1],
            ["Перевести", "АР → ТК", "Рим", None, 1],
            ["Распустить", "ЛП", "Легион", None, 2],
            ["Перевести", "ТК → АР", "Легион", None, 3],
            ["Перевести", "ТК → АР", "Апулия", None, 1],
        ],
        {
            "orders": {
                "Рим": [
                    {"status": "отклонён", "reason_contains": ["перевод ЛП → раб не предусмотрен", "ТК → АР"]},
                    {"status": "отклонён", "reason_contains": "ТК возвращаются только в АР"},
                    {"status": "отклонён", "reason_contains": "приказом «Набрать»"},
                    {"status": "выполнен", "reason_contains": "распущено 2 ЛП"},
                    {"status": "частично", "reason_contains": "переведено 1 ТК из 3; +1 АР в провинции Рим"},
                    {"status": "отклонён", "reason_contains": "в провинции Апулия нет вашей армии"},
                ]
            },
            "provinces": {"Рим": {"population": {"АР": 1, "раб": 2}}},
            "armies": {"Легион": "gone"},
        },
    )
    assert not failures, "\n".join(failures)


def test_i15_p16_returned_aristocrats_ride_again_without_new_weapons() -> None:
    """A starting aristocrat paid for his arms; back from the cavalry he keeps them («вновь полученные
    аристократы считаются экипированными»): next turn he is heavy cavalry again with a horse and no weapons."""
    horses = {
        "Апулия": {"owner": "Рим", "specialisation": "лошади", "buildings": ["Скотный двор"], "population": {"раб": 1}}
    }
    failures = _rome(
        [{"name": "Легион", "state": "Рим", "province": "Рим", "units": {"ТК": 1}}],
        [["Перевести", "ТК → АР", "Рим", None, 1]],
        {"states": {"Рим": {"armed": 1}}, "provinces": {"Рим": {"population": {"АР": 1}}}},
        provinces=horses,
        treasury=30,
        turns=[
            {
                "orders": {"Рим": [["Набрать", "ТК", "Рим", None, 1]]},
                "expect": {
                    "orders": {"Рим": [{"status": "выполнен", "reason_contains": "набрано 1 ТК за 25 Д"}]},
                    "states": {"Рим": {"armed": 0}},
                    "provinces": {"Рим": {"population": {"АР": 0}}},
                    "armies": {"Рим: армия (Рим)": {"units": {"ТК": 1}}},
                },
            }
        ],
    )
    assert not failures, "\n".join(failures)


def test_i15_p16_where_the_aristocrats_go_home() -> None:
    """The army's province if it is the state's own, else the capital, else its most populous province;
    nowhere (the order is refused) for a state without provinces."""
    from engine.rulesets.ancient.forces import home_province

    d = codec.decode(
        scenario.build_tables(
            {
                "base": "empty",
                "states": {"Рим": {"government": "aristocracy", "capital": "Рим"}},
                "provinces": {
                    "Рим": {"owner": "Рим"},
                    "Апулия": {"owner": "Рим", "population": {"раб": 1}},
                    "Этрурия": {"owner": "Рим"},
                    "Сицилия": {"owner": ""},
                },
            }
        )
    )
    world, rome = d.campaign, d.campaign.states["Рим"]
    assert home_province(world, rome, "Этрурия").name == "Этрурия"
    assert home_province(world, rome, "Сицилия").name == "Рим"
    world.provinces["Рим"].owner = ""  # the capital lost this very turn
    assert home_province(world, rome, "Сицилия").name == "Апулия"
    for p in world.provinces.values():
        p.owner = ""
    assert home_province(world, rome, "Сицилия") is None


def test_i15_p16_disband_by_province_sends_them_home_too() -> None:
    """«Распустить ТК», Где: a province — the state's armies there give up their ТК, who become aristocrats."""
    failures = _rome(
        [
            {"name": "Алы", "state": "Рим", "province": "Апулия", "units": {"ТК": 1}},
            {"name": "Турма", "state": "Рим", "province": "Апулия", "units": {"ТК": 1}},
        ],
        [["Распустить", "ТК", "Апулия", None, 2]],
        {
            "orders": {
                "Рим": [
                    {
                        "status": "выполнен",
                        "reason_contains": "распущено 2 ТК; +2 АР в провинции Апулия",
                        "understood_contains": "Распустить 2 ТК в провинции Апулия",
                    }
                ]
            },
            "provinces": {"Апулия": {"population": {"АР": 2}}},
            "armies": {"Алы": "gone", "Турма": "gone"},
        },
    )
    assert not failures, "\n".join(failures)
