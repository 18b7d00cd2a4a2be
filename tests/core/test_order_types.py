"""Issue 17 point 5: order types as parse/print pairs — parse(print(o)) == o for every ancient order.

Orders are built from the demo campaign's names (its provinces, states, armies, fleets, and its
rules' buildings, technologies, units, goods, governments), in both languages; each is printed
(`Order.cells`, `ORDER_TYPE.print`) and parsed again with the turn's `Vocabulary`, and must come
back as the same order.  Hypothesis draws the names and the numbers; every order class `parse`
can make has a strategy, so a new order type without a print fails here.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import i18n
from engine.core.orders import OrderRow
from engine.core.ordertypes import OrderType, reparse, round_trips, without_row
from engine.rulesets.ancient import codec
from engine.rulesets.ancient import orders as o
from engine.rulesets.ancient.forces import RETURNS_TO
from engine.rulesets.ancient.scenario import build_tables
from engine.rulesets.ancient.vocab import STRATA

DEMO = codec.decode(build_tables({}))
WORLD, RULES = DEMO.campaign, DEMO.rules
PLAYER = next(name for name, s in WORLD.states.items() if not s.ai)
OTHERS = sorted(n for n in WORLD.states if n != PLAYER)
PROVINCES = sorted(WORLD.provinces)
ARMIES = sorted(WORLD.armies)
FLEETS = sorted(f for f in WORLD.fleets if f not in WORLD.armies)
FORCES = sorted({*ARMIES, *FLEETS})
COUNT = st.integers(min_value=1, max_value=o.MAX_QTY)
LANGS = ("ru", "en")


@cache
def vocabulary(lang: str) -> o.Vocabulary:
    with i18n.using(lang):
        return o.Vocabulary(WORLD, RULES)


def row(n: int = 2) -> OrderRow:
    return OrderRow(tab=f"orders {PLAYER}", row=n, state=PLAYER, cells={})


def pair(items: list[str]) -> st.SearchStrategy[tuple[str, str]]:
    """Two different items of `items`."""
    return st.lists(st.sampled_from(items), min_size=2, max_size=2, unique=True).map(tuple)


R = st.builds(row, st.integers(min_value=2, max_value=500))
name = st.sampled_from
buildings = name(sorted(b.name_ru for b in RULES.buildings.values()))
units = name(sorted(u.type for u in RULES.units.values()))
goods = name(sorted(g.name_ru for g in RULES.goods.values()))
strata = name(list(STRATA))
provinces = name(PROVINCES)
others = name(OTHERS)
# a province that names no army or fleet: «Распустить … | Где: провинция» means the armies standing there
bare_provinces = name([p for p in PROVINCES if p not in FORCES])
back = name(sorted(RETURNS_TO))

STRATEGIES: dict[type, st.SearchStrategy[o.Order]] = {
    o.Build: st.builds(o.Build, R, buildings, provinces),
    o.InvestStability: st.builds(o.InvestStability, R),
    o.NoActions: st.builds(o.NoActions, R),
    o.Research: st.builds(o.Research, R, name(sorted(t.name_ru for t in RULES.techs.values()))),
    o.Convert: st.builds(lambda r, ab, p, n: o.Convert(r, ab[0], ab[1], p, n), R, pair(list(STRATA)), provinces, COUNT),
    o.Move: st.builds(lambda r, s, ab, n: o.Move(r, s, ab[0], ab[1], n), R, strata, pair(PROVINCES), COUNT),
    o.Colonise: st.builds(o.Colonise, R, provinces, st.one_of(st.just(""), strata)),
    o.ChangeGovernment: st.builds(
        lambda r, g: o.ChangeGovernment(r, g.key, g.name_ru), R, name(list(RULES.governments.values()))
    ),
    o.Pay: st.builds(o.Pay, R, others, COUNT),
    o.Recruit: st.builds(o.Recruit, R, units, provinces, COUNT),
    o.March: st.one_of(
        st.builds(o.March, R, name(ARMIES), provinces),
        st.builds(lambda r, f, p: o.March(r, f, p, by_sea=True), R, name(FLEETS), provinces),
    ),
    o.Sail: st.builds(o.Sail, R, name(FLEETS), st.integers(min_value=1, max_value=99)),
    o.Embark: st.builds(o.Embark, R, name(ARMIES), name(FLEETS)),
    o.Disband: st.one_of(
        st.builds(o.Disband, R, name(FORCES), units, COUNT),
        st.builds(lambda r, u, n, p: o.Disband(r, "", u, n, province=p), R, units, COUNT, bare_provinces),
        st.builds(lambda r, a, u, n: o.Disband(r, a, u, n, RETURNS_TO[u]), R, name(ARMIES), back, COUNT),
        st.builds(lambda r, u, n, p: o.Disband(r, "", u, n, RETURNS_TO[u], p), R, back, COUNT, bare_provinces),
    ),
    o.Raze: st.builds(o.Raze, R, provinces, st.one_of(st.just(""), buildings)),
    o.Diplomacy: st.builds(o.Diplomacy, R, name(sorted(o.Diplomacy.WORDS)), others),
    o.Trade: st.builds(lambda r, g, ab: o.Trade(r, g, ab[0], ab[1]), R, goods, pair(PROVINCES)),
    o.CancelRoute: st.builds(
        lambda r, ab, g: o.CancelRoute(r, ab[0], ab[1], g), R, pair(PROVINCES), st.one_of(st.just(""), goods)
    ),
    o.AllowTransit: st.builds(o.AllowTransit, R, others),
}


def test_the_demo_has_every_kind_of_name() -> None:
    """The strategies draw from real names: an empty list would make a kind untestable."""
    for names in (OTHERS, PROVINCES, ARMIES, FLEETS, RETURNS_TO, RULES.buildings, RULES.techs, RULES.goods):
        assert names


def test_every_order_class_is_a_kind_with_a_strategy() -> None:
    assert isinstance(o.ORDER_TYPE, OrderType)
    classes = set(o.Order.__subclasses__())
    assert set(o.ORDER_TYPE.kinds) == classes
    assert set(STRATEGIES) == classes


@pytest.mark.parametrize("kind", list(STRATEGIES), ids=lambda k: k.__name__)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_print_then_parse_gives_the_order_back(kind: type, data: st.DataObject) -> None:
    order = data.draw(STRATEGIES[kind])
    lang = data.draw(st.sampled_from(LANGS))
    with i18n.using(lang):
        again = reparse(o.ORDER_TYPE, order, vocabulary(lang))
        assert without_row(again) == without_row(order), o.ORDER_TYPE.print(order)
        assert again.row.ref == order.row.ref  # read in the place of the row it came from
        assert round_trips(o.ORDER_TYPE, order, vocabulary(lang))


def test_a_print_that_loses_a_field_is_caught() -> None:
    """The check can fail: a print that drops the quantity parses back to one unit."""

    class Lossy(o.AncientOrderType):
        def print(self, order: o.Order) -> dict[str, object]:  # type: ignore[override]
            return {k: v for k, v in super().print(order).items() if k != "qty"}

    order = o.Recruit(row(), sorted(u.type for u in RULES.units.values())[0], PROVINCES[0], 7)
    assert round_trips(o.ORDER_TYPE, order, vocabulary("ru"))
    assert not round_trips(Lossy(), order, vocabulary("ru"))
