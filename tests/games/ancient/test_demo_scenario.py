"""Data checks for the ancient demo scenario and the technology tree.

Covers templates/ancient/scenarios/demo.yaml and templates/ancient/technologies.csv against the seed facts
recorded in docs/rules-decisions.md (ANC-MISC-01, -02, -05, -06, -08, -09; ANC-SCI-08, -10, -11; ANC-GOV-04;
ANC-AGRI-02; ANC-AI-02). Uses only PyYAML and the standard library.
"""

from __future__ import annotations

import csv
import itertools
import re
from collections import deque

import pytest
import repo_paths
import yaml

ROOT = repo_paths.ROOT
SCENARIO_PATH = ROOT / "templates" / "ancient" / "scenarios" / "demo.yaml"
TECH_PATH = ROOT / "templates" / "ancient" / "technologies.csv"

GOVERNMENTS = {
    "despotism",
    "tyranny",
    "monarchy",
    "theocracy",
    "empire",
    "democracy",
    "anarchy",
    "aristocracy",
    "oligarchy",
}
# Forms that have at least one transition on each path (ANC-GOV-04 .. ANC-GOV-13).
PATH_FORMS = {
    "western": {"tyranny", "democracy", "anarchy", "aristocracy", "oligarchy", "monarchy", "empire"},
    "eastern": {"despotism", "tyranny", "monarchy", "theocracy", "empire"},
}
TERRAINS = {"равнина", "горы", "лес", "пустыня", "холмы"}
SPECIALISATIONS = {
    "зерно",
    "лён",
    "хлопчатник",
    "рыба",
    "овцеводство",
    "скот",
    "лошади",
    "слоны",
    "специи",
    "рабы",
    "вино",
    "оливковое масло",
    "лес",
    "железо",
    "серебро",
    "золото",
    "соль",
}
# ANC-AGRI-02: production building for each specialisation.
PRODUCTION_BUILDING = {
    "зерно": "Зерновая ферма",
    "лён": "Льноферма",
    "хлопчатник": "Хлопковое поле",
    "рыба": "Рыбацкая пристань",
    "овцеводство": "Овчарня",
    "скот": "Скотный двор",
    "лошади": "Скотный двор",
    "слоны": "Бивуак",
    "специи": "Амбар",
    "рабы": "Невольничий рынок",
    "вино": "Винокурня",
    "оливковое масло": "Маслобойня",
    "лес": "Лесорубка",
    "железо": "Шахта",
    "серебро": "Шахта",
    "золото": "Шахта",
    "соль": "Соляные копи",
}
BUILDINGS = {
    "Зерновая ферма",
    "Льноферма",
    "Хлопковое поле",
    "Рыбацкая пристань",
    "Овчарня",
    "Скотный двор",
    "Бивуак",
    "Амбар",
    "Невольничий рынок",
    "Винокурня",
    "Маслобойня",
    "Лесорубка",
    "Шахта",
    "Соляные копи",
    "Кузница",
    "Ткацкая артель",
    "Гончарная артель",
    "Писчее производство",
    "Ювелирная артель",
    "Верфь",
    "Монетный двор",
    "Храм",
    "Рынок",
    "Акведук",
    "Канализация",
    "Термы",
    "Госпиталь",
    "Библиотека",
    "Арена",
    "Порт",
    "Маяк",
    "Частокол",
    "Каменная стена",
    "Крепостная стена",
    "Ирригационная система",
    "Дорога",
    "Сенат",
}
STRATA = ("СГ", "раб", "ВС", "уч", "дух", "АР")
ADJ_KINDS = {"суша", "река", "пролив"}
# ANC-SCI-11: the 21 technologies the seed names.
SEED_TECHS = {
    "Акведук",
    "Архитектура",
    "Бюрократия",
    "Гончарный круг",
    "Деньги",
    "Деревянные строения",
    "Ирригация",
    "Каменные строения",
    "Караванная торговля",
    "Колесница",
    "Кораблестроение",
    "Литье",
    "Математика",
    "Медицина",
    "Навигация",
    "Натуральный обмен",
    "Образование",
    "Пергамент",
    "Прялка",
    "Служители культа",
    "Сыродувная печь",
}
# ANC-MISC-08: every place the seed names (Персия is a polity; its heartland province is Персида).
SEED_PROVINCES = {
    "Рим",
    "Карфаген",
    "Нижний Египет",
    "Верхний Египет",
    "Персида",
    "Пергам",
    "Галатия",
    "Месопотамия",
    "Сирия",
    "Иудея",
    "Сицилия",
    "Сардиния",
    "Апулия",
    "Фракия",
    "Вифиния",
    "Киликия",
    "Ликия",
    "Родос",
    "Крит",
    "Афины",
    "Спарта",
    "Армения",
    "Мидия",
    "Парфия",
    "Белгика",
    "Эвбея",
    "Китай",
}
SEED_STATES = {"Рим", "Карфаген", "Египет", "Персия", "Пергамское царство"}
SEED_ZONES = {16, 18, 22, 27, 28, 31, 33}
SILK_ROUTE = [
    "Китай",
    "Парфия",
    "Мидия",
    "Армения",
    "Киликия",
    "Ликия",
    27,
    22,
    18,
    "Апулия",
    "Рим",
]


# ----------------------------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def scenario() -> dict:
    with SCENARIO_PATH.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module")
def techs() -> dict[str, dict]:
    with TECH_PATH.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return {row["name_ru"]: row for row in rows}


@pytest.fixture(scope="module")
def states(scenario) -> dict[str, dict]:
    return {s["name"]: s for s in scenario["states"]}


@pytest.fixture(scope="module")
def provinces(scenario) -> dict[str, dict]:
    return {p["name"]: p for p in scenario["provinces"]}


@pytest.fixture(scope="module")
def land(scenario) -> dict[str, dict[str, tuple]]:
    """province -> {neighbour: (kind, strait name or None)}"""
    graph: dict[str, dict[str, tuple]] = {p["name"]: {} for p in scenario["provinces"]}
    for entry in scenario["adjacency"]:
        a, b, kind = entry[0], entry[1], entry[2]
        extra = entry[3] if len(entry) > 3 else None
        graph.setdefault(a, {})[b] = (kind, extra)
        graph.setdefault(b, {})[a] = (kind, extra)
    return graph


@pytest.fixture(scope="module")
def sea(scenario) -> dict[int, set[int]]:
    graph: dict[int, set[int]] = {z["zone"]: set() for z in scenario["sea_zones"]}
    for z in scenario["sea_zones"]:
        for n in z["neighbours"]:
            graph[z["zone"]].add(n)
            graph.setdefault(n, set()).add(z["zone"])
    return graph


def prereqs(row: dict) -> list[str]:
    return [p.strip() for p in row["prerequisites"].split(";") if p.strip()]


def bfs(start, neighbours) -> dict:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in neighbours(node):
            if nxt not in dist:
                dist[nxt] = dist[node] + 1
                queue.append(nxt)
    return dist


# ----------------------------------------------------------------------------------------------- structure
def test_top_level_keys(scenario):
    assert set(scenario) >= {"name", "description", "states", "provinces", "adjacency", "sea_zones"}
    assert scenario["name"].strip()
    assert scenario["description"].strip()


def test_twenty_six_states(scenario, states):
    assert len(scenario["states"]) == 26  # ANC-MISC-01
    assert len(states) == 26, "state names must be unique"


def test_seed_states_present(states):
    assert set(states) >= SEED_STATES


def test_state_fields(states):
    keys = {
        "name",
        "name_en",
        "major",
        "government",
        "path",
        "capital",
        "stability",
        "treasury",
        "science",
        "techs",
        "ai",
        "player",
        "color",
    }
    colours = set()
    for name, s in states.items():
        assert keys <= set(s), name
        assert isinstance(s["major"], bool) and isinstance(s["ai"], bool), name
        assert s["government"] in GOVERNMENTS, name
        assert s["path"] in PATH_FORMS, name
        assert s["government"] in PATH_FORMS[s["path"]], (
            f"{name}: {s['government']} is a dead end on {s['path']}"
        )
        assert -3 <= s["stability"] <= 3, name
        assert 40 <= s["treasury"] <= 200, name
        assert s["science"] >= 0, name
        assert s["player"] == "", name
        assert re.fullmatch(r"#[0-9A-Fa-f]{6}", s["color"]), name
        colours.add(s["color"].upper())
    assert len(colours) == 26, "every state needs a distinct colour"


def test_ai_states(states):
    ai = [s for s in states.values() if s["ai"]]
    assert 6 <= len(ai) <= 12, "about a third of the states are AI"
    for s in ai:
        assert s["stability"] == 0, f"{s['name']}: AI stability must be 0 (ANC-AI-02)"


def test_majors_and_minors_own_two_and_one(states, provinces):
    owned: dict[str, list[str]] = {}
    for p in provinces.values():
        if p["owner"]:
            owned.setdefault(p["owner"], []).append(p["name"])
    majors = [n for n, s in states.items() if s["major"]]
    assert 8 <= len(majors) <= 10
    for name, s in states.items():
        expected = 2 if s["major"] else 1  # ANC-MISC-02
        assert len(owned.get(name, [])) == expected, f"{name} owns {owned.get(name)}"


def test_capital_is_own_province(states, provinces):
    for name, s in states.items():
        assert s["capital"] in provinces, name
        assert provinces[s["capital"]]["owner"] == name, f"{name}: capital {s['capital']} not owned"


def test_owners_are_states(states, provinces):
    for p in provinces.values():
        assert p["owner"] == "" or p["owner"] in states, p["name"]


def test_grey_provinces_exist(provinces):
    grey = [p for p in provinces.values() if p["owner"] == ""]
    assert len(grey) >= 20
    assert 60 <= len(provinces) <= 80


def test_path_follows_capital(states):
    # ANC-GOV-04: the seed's own examples.
    expected = {
        "Рим": "western",
        "Карфаген": "western",
        "Египет": "eastern",
        "Персия": "eastern",
        "Пергамское царство": "eastern",
    }
    for name, path in expected.items():
        assert states[name]["path"] == path, name


def test_province_fields(provinces, sea):
    names = [p for p in provinces]
    assert len(names) == len(set(names))
    for name, p in provinces.items():
        assert p["terrain"] in TERRAINS, name
        assert p["specialisation"] in SPECIALISATIONS, name
        assert isinstance(p["coastal"], bool), name
        assert p["coastal"] == bool(p["sea_zones"]), name
        for z in p["sea_zones"]:
            assert z in sea, f"{name}: unknown sea zone {z}"
        for b in p["buildings"]:
            assert b in BUILDINGS, f"{name}: unknown building {b}"
        assert set(p["population"]) == set(STRATA), name
        assert all(isinstance(v, int) and v >= 0 for v in p["population"].values()), name
        assert sum(p["population"].values()) >= 1, name


def test_starting_buildings_match_specialisation_and_staff(provinces):
    for name, p in provinces.items():
        for b in p["buildings"]:
            assert p["owner"], f"{name}: grey provinces start without buildings"
            assert b == PRODUCTION_BUILDING[p["specialisation"]], f"{name}: {b} vs {p['specialisation']}"
            workers = p["population"]["раб"] + p["population"]["СГ"]
            assert workers >= (3 if b == "Шахта" else 1), f"{name}: {b} is not staffed"


def test_specialisation_spread(provinces):
    used = {p["specialisation"] for p in provinces.values()}
    assert used == SPECIALISATIONS, f"missing: {SPECIALISATIONS - used}"


def test_sea_zone_numbers(sea):
    assert set(sea) >= SEED_ZONES
    assert set(sea) == set(range(1, max(sea) + 1))
    for z, ns in sea.items():
        assert z not in ns


# ----------------------------------------------------------------------------------------------- adjacency
def test_adjacency_entries_valid(scenario, provinces):
    seen = set()
    for entry in scenario["adjacency"]:
        assert 3 <= len(entry) <= 4, entry
        a, b, kind = entry[:3]
        assert a in provinces and b in provinces, entry
        assert a != b, entry
        assert kind in ADJ_KINDS, entry
        assert (kind == "пролив") == (len(entry) == 4), entry
        key = frozenset((a, b))
        assert key not in seen, f"duplicate adjacency {entry}"
        seen.add(key)


def test_map_is_connected(provinces, land, sea):
    def neighbours(node):
        kind, value = node
        if kind == "p":
            yield from (("p", n) for n in land[value])
            yield from (("z", z) for z in provinces[value]["sea_zones"])
        else:
            yield from (("z", z) for z in sea[value])
            yield from (("p", p) for p, d in provinces.items() if value in d["sea_zones"])

    reached = bfs(("p", "Рим"), neighbours)
    missing = [p for p in provinces if ("p", p) not in reached] + [z for z in sea if ("z", z) not in reached]
    assert not missing


# ----------------------------------------------------------------------------------------------- seed facts
def test_seed_places_exist(provinces):
    assert set(provinces) >= SEED_PROVINCES, SEED_PROVINCES - set(provinces)


def test_persia_heartland(states):
    assert states["Персия"]["capital"] == "Персида"
    assert states["Персия"]["treasury"] == 120  # the looting example (3.1)


def test_mesopotamia_is_plain(provinces):
    assert provinces["Месопотамия"]["terrain"] == "равнина"


def test_syria_mesopotamia_across_river_and_judea(land):
    assert land["Сирия"]["Месопотамия"][0] == "река"
    assert "Иудея" in land["Сирия"]


def test_galatia_gold_in_pergamon(provinces):
    assert provinces["Галатия"]["specialisation"] == "золото"
    assert provinces["Галатия"]["owner"] == "Пергамское царство"
    assert provinces["Пергам"]["owner"] == "Пергамское царство"


def test_other_seed_specialisations(provinces):
    assert provinces["Сардиния"]["specialisation"] == "рыба"
    assert provinces["Белгика"]["specialisation"] == "скот"
    assert provinces["Сирия"]["specialisation"] == "железо"
    assert provinces["Нижний Египет"]["specialisation"] == "зерно"
    assert provinces["Месопотамия"]["specialisation"] == "зерно"


def test_sicily_example_population(provinces):
    pop = provinces["Сицилия"]["population"]
    assert (pop["раб"], pop["СГ"]) == (3, 2)


def test_euboea_island(provinces, land):
    euboea = provinces["Эвбея"]
    assert len(euboea["sea_zones"]) == 1, "an island inside one sea zone (ANC-MISC-06)"
    zone = euboea["sea_zones"][0]
    assert set(land["Эвбея"]) == {"Афины", "Спарта", "Крит", "Пергам"}
    same_zone = {n for n, p in provinces.items() if zone in p["sea_zones"]} - {"Эвбея"}
    assert same_zone == {"Афины", "Спарта", "Крит", "Пергам"}


def test_silk_route_is_valid_walk(provinces, land, sea):
    for here, there in itertools.pairwise(SILK_ROUTE):
        if isinstance(here, str) and isinstance(there, str):
            assert there in land[here], f"{here} - {there}"
            assert land[here][there][0] != "пролив", f"{here} - {there}"
        elif isinstance(here, str):
            assert there in provinces[here]["sea_zones"], f"{here} - zone {there}"
        elif isinstance(there, str):
            assert here in provinces[there]["sea_zones"], f"zone {here} - {there}"
        else:
            assert there in sea[here], f"zone {here} - zone {there}"


def _strait(land, a, b, name):
    assert b in land[a], f"{a} - {b}"
    assert land[a][b] == ("пролив", name)


def test_bosporus(provinces, land):
    _strait(land, "Фракия", "Вифиния", "Босфор")
    _strait(land, "Фракия", "Пергам", "Босфор")
    for p in ("Фракия", "Вифиния", "Пергам"):
        assert 28 in provinces[p]["sea_zones"], p


def _check_strait_zones(scenario, provinces, name, zones):
    pairs = [e for e in scenario["adjacency"] if e[2] == "пролив" and e[3] == name]
    assert pairs, name
    for a, b, *_ in pairs:
        for z in zones:
            assert z in provinces[a]["sea_zones"] and z in provinces[b]["sea_zones"], (
                f"{name}: {a}/{b} zone {z}"
            )


def test_messina(scenario, provinces, land):
    south_italy = {"Апулия", "Бруттий", "Кампания"}
    partners = {
        n for n, (kind, extra) in land["Сицилия"].items() if extra == "Мессинский" and kind == "пролив"
    }
    assert partners and partners <= south_italy
    _check_strait_zones(scenario, provinces, "Мессинский", (16, 18))


def test_kerch(scenario, provinces):
    _check_strait_zones(scenario, provinces, "Керченский", (31, 33))


def test_only_three_straits(scenario):
    names = {e[3] for e in scenario["adjacency"] if e[2] == "пролив"}
    assert names == {"Мессинский", "Босфор", "Керченский"}


def test_islands_have_no_other_land_links(land):
    # Islands touch land only where the seed says so: Euboea (island rule) and Sicily (Messina strait).
    for island in ("Сардиния", "Крит", "Родос", "Кипр", "Корсика", "Балеарские острова"):
        if island in land:
            others = {n for n in land[island] if n != "Эвбея"}
            assert not others, f"{island}: {others}"
    assert {k for k, _ in land["Сицилия"].values()} == {"пролив"}


def test_belgica_far_from_rome(land):
    dist = bfs("Рим", lambda p: land[p])
    assert dist["Белгика"] >= 4


def test_sardinia_fish_reach(provinces, sea):
    def zone_distance(a: str, b: str) -> int:
        best = 10**6
        for za in provinces[a]["sea_zones"]:
            dist = bfs(za, lambda z: sea[z])
            for zb in provinces[b]["sea_zones"]:
                best = min(best, dist.get(zb, 10**6) + 1)
        return best

    assert zone_distance("Сардиния", "Рим") <= 2
    assert zone_distance("Сардиния", "Карфаген") <= 2
    for east in ("Нижний Египет", "Сирия", "Афины", "Пергам"):
        assert zone_distance("Сардиния", east) >= 5, east


def test_china_is_grey_far_east(provinces, land):
    assert provinces["Китай"]["owner"] == ""
    assert "Парфия" in land["Китай"]


# ----------------------------------------------------------------------------------------------- technologies
def test_tech_columns():
    with TECH_PATH.open(encoding="utf-8", newline="") as fh:
        header = next(csv.reader(fh))
    # issue 16 p3: the English description beside the Russian one
    assert header == [
        "name_ru", "name_en", "cost", "prerequisites", "description_ru", "description_en", "effects", "rule_ids"
    ]


def test_all_seed_techs_present(techs):
    assert set(techs) >= SEED_TECHS, SEED_TECHS - set(techs)


def test_extra_techs_marked_proposal(techs):
    for name, row in techs.items():
        if name not in SEED_TECHS:
            assert row["description_ru"].startswith("PROPOSAL"), name


def test_tech_rows(techs):
    for name, row in techs.items():
        assert row["name_en"].strip(), name
        assert row["description_en"].strip(), name
        cost = int(row["cost"])
        assert 5 <= cost <= 100, name
        assert re.fullmatch(r"ANC-[A-Z]+-\d\d(;ANC-[A-Z]+-\d\d)*", row["rule_ids"]), name
        for p in prereqs(row):
            assert p in techs, f"{name}: unknown prerequisite {p}"
            assert p != name, name
        if not prereqs(row):
            assert cost <= 20, f"{name}: tier-1 technologies are cheap"
        else:
            top = max(int(techs[p]["cost"]) for p in prereqs(row))
            assert cost > top, f"{name}: must cost more than each prerequisite"


def test_tech_tree_is_dag(techs):
    state: dict[str, int] = {}

    def visit(name: str, trail: tuple[str, ...]) -> None:
        if name not in techs or state.get(name) == 2:
            return  # unknown prerequisites are reported by test_tech_rows
        assert state.get(name) != 1, f"cycle: {' -> '.join((*trail, name))}"
        state[name] = 1
        for p in prereqs(techs[name]):
            visit(p, (*trail, name))
        state[name] = 2

    for name in techs:
        visit(name, ())


def test_architecture_and_bureaucracy_prerequisites(techs):
    assert set(prereqs(techs["Архитектура"])) >= {"Каменные строения", "Математика"}
    assert "Образование" in prereqs(techs["Бюрократия"])


def test_starting_techs(states, techs):
    for name, s in states.items():
        known = s["techs"]
        assert 7 <= len(known) <= 12, f"{name}: {len(known)} starting techs (ANC-SCI-08)"
        assert len(set(known)) == len(known), name
        for t in known:
            assert t in techs, f"{name}: unknown technology {t}"
            missing = [p for p in prereqs(techs[t]) if p not in known]
            assert not missing, f"{name}: knows {t} without {missing}"


def test_the_demo_parsed_once_is_the_file_and_each_caller_gets_its_own_copy() -> None:
    """templates.load_scenario keeps the demo parsed once per process (the scenario tests build
    hundreds of campaigns from it): what it gives is what the standard parser reads from the file,
    and a caller that changes its copy changes nobody else's."""
    from engine.rulesets.ancient import templates

    first = templates.load_scenario("demo")
    assert first == yaml.safe_load(SCENARIO_PATH.read_text(encoding="utf-8"))
    first["states"][0]["name"] = "Атлантида"
    first["states"].append({})
    first.clear()
    again = templates.load_scenario("demo")
    assert again == yaml.safe_load(SCENARIO_PATH.read_text(encoding="utf-8"))
    assert again["states"][0]["name"] != "Атлантида"
