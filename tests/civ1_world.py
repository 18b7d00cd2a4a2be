"""A small builder of «Civilization 1.0» worlds for the phase tests (issue 18, shared by C3–C5).

The phases are pure functions of a `World`, the parsed orders, the dice, the `Rules` and a report
(the phase contract of BRIEF18), so a test builds each of them here instead of reading a sheet:

    w = world(nations={"Рим": {"power": 3}, "Греция": {}}, cities={"Рим": ("Рим", (0, 0))})
    w2, rep = run(PHASE, w, orders(given("Рим", Found((3, 0), "Анций"))))

`rules()` are the shipped Russian rules tabs (templates/civ1, as a new campaign gets them) read by
`load_rules`; the map is a rectangle of `равнина` unless a test says otherwise; a `Given` carries a
fake `OrderRow` on the nation's order tab, so its `ref` is «Приказы — Рим!2».  Helpers may add
their own functions here; keep the existing signatures.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from engine.core.dice import Dice
from engine.core.errors import Problem
from engine.core.orders import OrderRow
from engine.core.turn import Phase
from engine.rulesets.civ1.facts import Report, new_report
from engine.rulesets.civ1.hexes import Hex
from engine.rulesets.civ1.model import Card, City, Deck, Nation, Tile, World
from engine.rulesets.civ1.ordertypes import STATE, Given, Order, Pass
from engine.rulesets.civ1.rules import Rules
from engine.rulesets.civ1.rules_loaders import load_rules
from engine.rulesets.civ1.templates import rules_tables

DEFAULT_NATIONS = ("Рим", "Греция")


@cache
def rules(lang: str = "ru") -> Rules:
    """The shipped rules tabs of a new campaign, read (they must load without a problem)."""
    problems: list[Problem] = []
    out = load_rules(rules_tables(lang), problems)
    assert not problems, "\n".join(map(str, problems))
    return out


def order_tab(nation: str) -> str:
    """The name of a nation's order tab, as the codec writes it."""
    return f"Приказы — {nation}"


def grid(width: int = 10, height: int = 8, terrain: str = "равнина") -> dict[Hex, str]:
    """A `width` × `height` rectangle of axial hexes (q in 0..width-1, r in 0..height-1) of one terrain."""
    return {(q, r): terrain for q in range(width) for r in range(height)}


def world(
    nations: Sequence[str] | Mapping[str, Mapping[str, Any]] = DEFAULT_NATIONS,
    map: Mapping[Hex, str] | None = None,
    cities: Mapping[str, tuple[str, Hex] | Mapping[str, Any]] | None = None,
    terrain: Mapping[Hex, str] | None = None,
    decks: Mapping[str, Iterable[str | Card]] | None = None,
    villages: Iterable[Hex] = (),
    turn: int = 1,
    stage: str = STATE,
    lang: str = "ru",
) -> World:
    """A world for a phase test.

    `nations`: names (seats 1, 2, … in the given order) or name -> `Nation` fields (e.g.
    ``{"power": 3, "techs": {"Философия": 1}}``; a missing ``seat`` is the position).  `map`: hex ->
    terrain (default: a 10×8 plain); `terrain` overrides some hexes of it.  `cities`: name ->
    (nation, hex) or name -> `City` fields with ``nation`` and ``hex``.  The first city named for a
    nation is its capital unless the nation's fields name one.  `decks`: nation -> unit keys (or
    `Card`s).  `villages`: hexes with an unexplored village."""
    w = World(title="test", turn=turn, stage=stage, lang=lang)
    specs: Mapping[str, Mapping[str, Any]] = (
        {n: {} for n in nations} if not isinstance(nations, Mapping) else nations
    )
    for i, (name, fields) in enumerate(specs.items(), start=1):
        kw = dict(fields)
        kw.setdefault("seat", i)
        kw.setdefault("leader", f"игрок {i}")
        kw["techs"] = dict(kw.get("techs", {}))
        w.nations[name] = Nation(name=name, **kw)
    tiles = dict(map) if map is not None else grid()
    tiles.update(terrain or {})
    w.tiles = {h: Tile(h, t) for h, t in tiles.items()}
    for h in villages:
        w.tiles[h].village = True
    for name, spec in (cities or {}).items():
        if isinstance(spec, Mapping):
            kw = dict(spec)
            city = City(name=name, nation=kw.pop("nation"), hex=tuple(kw.pop("hex")), **kw)  # type: ignore[arg-type]
        else:
            owner, h = spec
            city = City(name=name, nation=owner, hex=h)
        w.cities[name] = city
        n = w.nations[city.nation]
        if not n.capital:
            n.capital = name
    for name, units in (decks or {}).items():
        w.decks[name] = Deck([u if isinstance(u, Card) else Card(u) for u in units])
    return w


def row(nation: str, number: int = 2, cursor: str = "", **cells: Any) -> OrderRow:
    """A fake order row of `nation`'s tab (sheet row `number`) with the given cells."""
    return OrderRow(tab=order_tab(nation), row=number, state=nation, cells=dict(cells), cursor=cursor)


def given(nation: str, order: Order, row: int = 2, cursor: str = "") -> Given:
    """A parsed order of `nation` on sheet row `row` of its order tab."""
    return Given(OrderRow(tab=order_tab(nation), row=row, state=nation, cells={}, cursor=cursor), order)


def orders(*givens: Given) -> dict[str, list[Given]]:
    """The phase's `orders` argument: nation -> its rows in the order given."""
    out: dict[str, list[Given]] = {}
    for g in givens:
        out.setdefault(g.row.state, []).append(g)
    return out


def ref(nation: str, row: int = 2, cursor: str = "") -> str:
    """The report key of `given(nation, …, row=row)`."""
    return given(nation, Pass(), row, cursor).row.ref


def report(w: World) -> Report:
    """A fresh report of `w`'s turn, bound to its balances (as the caller of a phase binds it)."""
    rep = new_report(w.turn, w.lang)
    rep.bind(w)
    return rep


def dice(seed: str = "civ1-test") -> Dice:
    """Seeded dice: the same rolls each run (assert them through `dice.log`)."""
    return Dice(seed=seed)


def run(
    phase: Phase[World] | Iterable[Phase[World]],
    w: World,
    given_orders: Mapping[str, list[Given]] | None = None,
    d: Dice | None = None,
    rep: Report | None = None,
) -> tuple[World, Report]:
    """Run one phase (or several, in order) on `w` with a bound report; the new world and the report."""
    rep = rep if rep is not None else report(w)
    d = d if d is not None else dice()
    phases = [phase] if isinstance(phase, Phase) else list(phase)
    for p in phases:
        w = p.run(w, dict(given_orders or {}), d, rules(w.lang), rep)
        rep.bind(w)
    return w, rep


def lines(rep: Report, side: str | None = None, resource: str | None = None) -> list[tuple[str, str, str, int]]:
    """The ledger lines of `rep` as (side, resource, category, amount), optionally of one side/resource."""
    return [
        (e.state, e.resource, e.category, int(e.amount))
        for e in rep.ledger
        if (side is None or e.state == side) and (resource is None or e.resource == resource)
    ]
