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
    assert "6 раб или 3 СГ" in why and "даёт 1 ед." in why


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
                                    "стоит без работников",
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
