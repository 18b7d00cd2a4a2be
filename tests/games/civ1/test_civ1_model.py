"""«Civilization 1.0»'s world model (engine/rulesets/civ1/model.py): the city indexes `World` keeps
for the phases (issue 18 point 9: a scan of every city per nation made a turn quadratic) and its
copy.

The indexes are checked against a plain scan of `World.cities` after every kind of edit a phase,
a hook or a test makes — a city founded, destroyed, captured (its owner set), moved, a key
replaced, the dict rebuilt or swapped — so an index that went stale fails here, as does a copy that
shares a mutable object with its original.
"""

from __future__ import annotations

import copy
import random
from dataclasses import fields, is_dataclass, replace
from typing import Any

import pytest
from civ1_world import given, orders, run, world

from engine.core.layout import norm
from engine.rulesets.civ1 import codec
from engine.rulesets.civ1.generate import generate
from engine.rulesets.civ1.hexes import distance
from engine.rulesets.civ1.model import CONQUERED, City, CityEdits, Intention, Spy, Treaty, World
from engine.rulesets.civ1.ordertypes import Found
from engine.rulesets.civ1.phases import combat, state
from engine.rulesets.civ1.workbook import new_workbook, tables_of

NATIONS = ("Рим", "Греция", "Египет")


def scanned(w: World) -> dict[str, Any]:
    """What the indexes must answer, by a scan of every city (the code before the indexes)."""
    hexes = {c.hex for c in w.cities.values()} | {(q, r) for q in range(-1, 7) for r in range(-1, 7)}
    names = {*w.cities, *(k.upper() for k in list(w.cities)[::3]), "нет такого"}
    return {
        "of": {n: [c for c in w.cities.values() if c.nation == n] for n in (*NATIONS, "никто")},
        "at": {h: next((c for c in w.cities.values() if c.hex == h), None) for h in hexes},
        "named": {n: next((k for k in w.cities if norm(k) == norm(n)), None) for n in names},
        "near": {(h, r): [c for c in w.cities.values() if distance(c.hex, h) <= r]
                 for h in ((0, 0), (3, 3), (5, 1)) for r in (0, 1, 2, 4)},
    }


def indexed(w: World) -> dict[str, Any]:
    want = scanned(w)
    return {
        "of": {n: w.cities_of(n) for n in want["of"]},
        "at": {h: w.city_at(h) for h in want["at"]},
        "named": {n: w.city_named(n) for n in want["named"]},
        "near": {(h, r): w.cities_near(h, r) for h, r in want["near"]},
    }


def same(w: World) -> None:
    """The indexes answer what a scan answers, the very same city objects in the same order."""
    got, want = indexed(w), scanned(w)
    assert got == want
    for what in ("of", "near"):
        for k, cities in want[what].items():
            assert [id(c) for c in got[what][k]] == [id(c) for c in cities], (what, k)
    assert all(got["at"][h] is c for h, c in want["at"].items())


def random_edit(rnd: random.Random, w: World, k: int) -> World:
    """One edit of the kinds the engine, hooks and tests make; returns the world to go on with."""
    names = list(w.cities)
    a_hex = (rnd.randrange(6), rnd.randrange(6))
    kind = rnd.randrange(14) if len(names) < 25 else 3  # a small world: the scans stay quick
    if kind <= 2 or not names:  # found a city (sometimes on a hex that already has one)
        w.cities[f"Город {k}"] = City(f"Город {k}", rnd.choice(NATIONS), a_hex)
    elif kind in (3, 13):  # destroyed
        del w.cities[rnd.choice(names)]
    elif kind == 4:
        w.cities.pop(rnd.choice(names))
        w.cities.pop("нет такого", None)
    elif kind <= 6:  # captured, transferred
        w.cities[rnd.choice(names)].nation = rnd.choice(NATIONS)
    elif kind == 7:  # moved by the GM's setup
        w.cities[rnd.choice(names)].hex = a_hex
    elif kind == 8:  # a key given a new city (it keeps its place in the dict)
        key = rnd.choice(names)
        w.cities[key] = replace(w.cities[key], nation=rnd.choice(NATIONS), hex=a_hex)
    elif kind == 9:  # the dict changed otherwise
        rnd.choice([lambda: w.cities.update({f"Город {k}": City(f"Город {k}", NATIONS[0], a_hex)}),
                    lambda: w.cities.setdefault(f"Город {k}", City(f"Город {k}", NATIONS[1], a_hex)),
                    lambda: w.cities.popitem()])()
    elif kind == 10:  # a plain dict put in its place
        w.cities = {k2: c for k2, c in reversed(list(w.cities.items()))}
    elif kind == 11:  # a city edited after it left the world, then put back under another name
        key = rnd.choice(names)
        city = w.cities.pop(key)
        city.nation = rnd.choice(NATIONS)
        w.cities[key + "·"] = city
    elif kind == 12:  # go on with a copy; the original must keep its own answers
        other = w.copy() if rnd.random() < 0.5 else copy.deepcopy(w)
        before = indexed(w)
        for c in list(other.cities.values())[:2]:
            c.nation = NATIONS[2]
        other.cities[f"Копия {k}"] = City(f"Копия {k}", NATIONS[0], a_hex)
        assert indexed(w) == before
        same(other)
        return other
    return w


@pytest.mark.parametrize("keep", [CityEdits.KEEP, 3])
def test_city_indexes_follow_every_edit(keep: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Queries between edits (one, several, none at all) always see the world as it is; with a
    short log (`keep` 3) the index is rebuilt when the edits it missed are no longer kept."""
    monkeypatch.setattr(CityEdits, "KEEP", keep)
    rnd = random.Random(18_9)
    w = world(nations=list(NATIONS), cities={"Рим": ("Рим", (0, 0)), "Афины": ("Греция", (3, 0)),
                                             "Мемфис": ("Египет", (0, 3)), "Остия": ("Рим", (1, 0))})
    same(w)
    for k in range(300):
        w = random_edit(rnd, w, k)
        if rnd.random() < 0.4:
            same(w)
    same(w)


def test_city_founded_in_a_phase_is_seen_by_the_next_lookup() -> None:
    """CIV-CITY-01 through the index: a city founded in the step keeps a later founding 3 hexes
    away and is counted in the founder's price; a captured city is its new owner's at once."""
    w = world(nations={"Рим": {"power": 9}, "Греция": {"power": 9}},
              cities={"Рим": ("Рим", (0, 3)), "Афины": ("Греция", (9, 3))})
    assert [c.name for c in w.cities_of("Рим")] == ["Рим"]
    founding = next(p for p in state.STATE_PHASES if p.name == state.FOUNDING)
    w2, rep = run(founding, w, orders(given("Рим", Found((3, 3), "Анций")), given("Греция", Found((5, 3), "Коринф"))))
    assert [c.name for c in w2.cities_of("Рим")] == ["Рим", "Анций"]
    assert w2.city_at((3, 3)) is w2.cities["Анций"]
    assert "Коринф" not in w2.cities and "Анций" in str(list(rep.results.values()))
    combat.capture(w2, w2.cities["Анций"], "Греция", rep)
    assert w2.cities["Анций"].status == CONQUERED
    assert [c.name for c in w2.cities_of("Рим")] == ["Рим"]
    assert [c.name for c in w2.cities_of("Греция")] == ["Афины", "Анций"]
    combat.destroy(w2, w2.cities["Анций"])
    assert w2.city_at((3, 3)) is None and [c.name for c in w2.cities_of("Греция")] == ["Афины"]
    same(w2)


def _mutables(obj: Any, seen: dict[int, Any]) -> None:
    """Every list, dict, set and dataclass reachable from `obj`, by id."""
    if isinstance(obj, (list, dict, set)) or is_dataclass(obj):
        if id(obj) in seen:
            return
        seen[id(obj)] = obj
    if isinstance(obj, dict):
        for v in obj.values():
            _mutables(v, seen)
    elif isinstance(obj, (list, set, tuple)):
        for v in obj:
            _mutables(v, seen)
    elif is_dataclass(obj) and not isinstance(obj, type):
        for f in fields(obj):
            _mutables(getattr(obj, f.name), seen)


def test_copy_is_a_deepcopy_sharing_nothing_mutable() -> None:
    """`World.copy` (field by field since issue 18 point 9) equals `copy.deepcopy` and shares no
    list, dict, set or dataclass with the original: the turn changes the copy, the opening stays."""
    w = codec.decode(tables_of(new_workbook("model", "ru", "x" * 32, "model", data=generate(5, 18))))
    rome = next(iter(w.nations.values()))
    rome.techs["Бронза"], rome.stolen["Письменность"], rome.resources[:] = 1, 2, ["шёлк"]
    next(iter(w.cities.values())).buildings.append("казармы")
    w.spies.append(Spy(rome.name, 1, "", True))
    w.treaties.append(Treaty(1, (rome.name, "другая"), "не строить ближе 6", 2))
    w.intentions.append(Intention(rome.name, rome.capital, "Пирамиды"))
    w.letters.append((rome.name, "другая", "привет"))
    c = w.copy()
    assert c == copy.deepcopy(w) == w
    mine: dict[int, Any] = {}
    theirs: dict[int, Any] = {}
    _mutables(w, mine)
    _mutables(c, theirs)
    assert len(mine) > 50
    assert not set(mine) & set(theirs)
    assert type(c.cities) is type(w.cities)
