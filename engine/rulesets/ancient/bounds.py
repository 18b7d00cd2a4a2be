"""Every number a GM may edit in the ancient game, with the values it may take (issue 15, p. 12).

One declarative table: for each tab layout, the bound of each numeric column; for the rules
parameters, the bound of each key.  The readers (rules_loaders.load_rules, codec.decode) look every
number up here, and reading a numeric column that is not listed is an error of the program, so
no GM-editable number goes unchecked.  The table is the core's one declaration of a tab's
fields (:data:`FIELDS`, engine/core/fields.py), as every game's is; the readers keep this game's
own words for its problems.  A cost of −1000 Д, a price of −50 slaves, a probability
of 150 % or a blank treasury are refused with the tab, row and column.
"""

from __future__ import annotations

from engine.core.cells import BIG, Bound
from engine.core.fields import Field, TabFields, declared
from engine.core.layout import Layout

from .vocab import (
    ARMIES,
    DIPLOMACY,
    FLEETS,
    GM_EVENTS,
    LAND_UNITS,
    POPULATION,
    ROUTES,
    RULES_BUILDINGS,
    RULES_COMBAT,
    RULES_CONVERSIONS,
    RULES_EVENT_ODDS,
    RULES_EVENTS,
    RULES_GOVERNMENTS,
    RULES_PARAMS,
    RULES_STABILITY,
    RULES_TECHS,
    RULES_TRADE,
    RULES_TRANSITIONS,
    RULES_UNITS,
    SEAS,
    SHIPS,
    STATES,
    STRATA,
)

AMOUNT = Bound(-BIG, BIG)  # Д that may be negative: a government's bonus or malus, a treasury in debt
PRICE = Bound(0, BIG)  # a cost, a price, an upkeep, an income: never negative
COUNT = Bound(0, BIG, integer=True)  # people, units, turns, buildings
AT_LEAST_ONE = Bound(1, BIG, integer=True)  # a turn number, a sea zone, recruits per unit
STEP = Bound(-10, 10, integer=True)  # a change of stability or of strength (the scale is −3..+3)
PERCENT = Bound(0, 100)  # a chance or a share in per cent
SHARE = Bound(0, 1)  # a share as a fraction (battle losses)
WEIGHT = Bound(0, BIG)  # relative weights of event cards
FLAG = Bound(0, 1, integer=True)  # a 0/1 switch

_BOUNDS: dict[Layout, dict[str, Bound]] = {
    # ---- rules tabs
    RULES_GOVERNMENTS: {
        "tax": PRICE,
        "science": AMOUNT,
        "army": STEP,
        "stability_price": AMOUNT,
        "money_per_turn": AMOUNT,
        "money_per_aristocrat": AMOUNT,
        "money_per_province": AMOUNT,
        "money_per_route": AMOUNT,
        "stability_per_turn": STEP,
        "slave_to_citizen": PRICE,
        "citizen_to_aristocrat": PRICE,
        "people_per_turn": Bound(-BIG, BIG, integer=True),
        "peace_bonus": STEP,
    },
    RULES_STABILITY: {"stability": STEP, "tax_percent": PERCENT},
    RULES_TECHS: {"cost": PRICE},
    RULES_BUILDINGS: {"cost": PRICE, "cost_slaves": COUNT},
    RULES_TRANSITIONS: {
        "stability_min": STEP,
        "stability_max": STEP,
        "aristocrats_min": COUNT,
        "aristocrats_max": COUNT,
        "temples_min": COUNT,
        "forums_min": COUNT,
        "provinces_min": COUNT,
        "treasury_min": AMOUNT,
    },
    RULES_CONVERSIONS: {"cost": PRICE, "per_turn_max": COUNT},
    RULES_EVENTS: {"weight": WEIGHT},
    RULES_EVENT_ODDS: {"stability": STEP, "bad_weight": WEIGHT, "good_weight": WEIGHT},
    RULES_UNITS: {
        "recruits": AT_LEAST_ONE,
        "cost": PRICE,
        "upkeep": PRICE,
        "strength": COUNT,
        "moves": COUNT,
        "weight": COUNT,
        "capacity": COUNT,
        "value": COUNT,
    },
    RULES_COMBAT: {"ratio_min": Bound(0, BIG), "ratio_max": Bound(0, BIG), "attacker_loss": SHARE,
                   "defender_loss": SHARE},
    RULES_TRADE: {f"d{i}": PRICE for i in range(1, 11)},
    # ---- state tabs
    STATES: {
        "stability": Bound(-10, 10, integer=True, required=True),  # and within the parameters' −3..+3
        "treasury": Bound(-BIG, BIG, required=True),
        "science": PRICE,
        "missed": COUNT,
        "famine": COUNT,
        "peace": COUNT,
        "armed": COUNT,
    },
    POPULATION: {s: COUNT for s in STRATA},
    SEAS: {"zone": AT_LEAST_ONE},
    GM_EVENTS: {"turn": Bound(1, BIG, integer=True, required=True)},
    ARMIES: {u: COUNT for u in LAND_UNITS},
    FLEETS: {"zone": AT_LEAST_ONE, **{u: COUNT for u in SHIPS}},
    ROUTES: {"since": COUNT, "distance": COUNT, "seller_income": PRICE, "buyer_income": PRICE},
    DIPLOMACY: {"since": COUNT},
}

# «Правила — Параметры»: one row per key, so one bound per key
PARAM_BOUNDS: dict[str, Bound] = {
    "stability_min": Bound(-10, 0, integer=True),
    "stability_max": Bound(0, 10, integer=True),
    "stability_price": PRICE,
    "stability_price_min": PRICE,
    "stability_per_turn_max": COUNT,
    "mint_per_province": PRICE,
    "workshops_per_province": COUNT,
    "events_per_turn": COUNT,
    "growth_chance_percent": PERCENT,
    "growth_blocked_above_needs": FLAG,
    "move_cost_per_step": PRICE,
    "colonise_cost": PRICE,
    "colonise_settlers": COUNT,
    "food_provinces_per_unit": AT_LEAST_ONE,  # a divisor
    "famine_stability_mode": Bound(1, 2, integer=True),  # 2 = the second famine turn, 1 = every one
    "famine_stability_delta": STEP,
    "empire_peace_turns": COUNT,
    "government_change_stability": STEP,
    "science_base": PRICE,
    "science_government_mode": FLAG,
    "science_per_scholar": PRICE,
    "aristocrats_per_turn_max": COUNT,
    "priest_cost": PRICE,
    "arena_slaves_per_turn": COUNT,
    "missed_turns_to_ai": AT_LEAST_ONE,
    "ai_stability": STEP,
    "mine_min_workers": COUNT,
    "forest_defence": STEP,
    "river_attack": STEP,
    "landing_attack": STEP,
    "road_bonus": STEP,
    "war_move_cost": PRICE,
    "plunder_mode": Bound(1, 2, integer=True),  # 1 = treasury ÷ provinces, 2 = 1 Д per inhabitant
    "enslave_share_percent": PERCENT,
    "barbarian_slaves": COUNT,
    "declare_war_stability": STEP,
    "declare_war_on_vassal_stability": STEP,
    "break_vassal_stability": STEP,
    "become_vassal_stability": STEP,
    "capital_lost_stability": STEP,
    "ship_range_max": COUNT,
    "fair_share_percent": PERCENT,
    "internal_share_percent": PERCENT,
    "outgoing_routes": COUNT,
    "ai_routes_in": COUNT,
    "ai_routes_out": COUNT,
    "break_treaty_stability": STEP,
    "balance_sort": Bound(0, 3, integer=True),  # name, treasury, stability, provinces
}
OTHER_PARAM = AMOUNT  # a key the GM added that no rule reads: any ordinary number




def _numbers(bounds: dict[str, Bound]) -> tuple[Field, ...]:
    """A tab's numeric columns as fields of the core's declaration (whole where the bound says so)."""
    return tuple(Field(k, "whole" if b.integer else "number", bound=b) for k, b in bounds.items())


#: Every tab above as the core's one declaration of a tab's fields (engine/core/fields.py, shared
#: with every game); «Правила — Параметры» names a key once: a parameter written twice is a problem
#: at its second row, not a silent win of the last one (issue 23, point 9).
FIELDS = declared([
    *(TabFields(layout, _numbers(bounds)) for layout, bounds in _BOUNDS.items()),
    TabFields(RULES_PARAMS, (Field("key"),), unique=("key",)),
])
#: the bound of each numeric column by tab, as the readers (CellReader, TabReader) look them up
BOUNDS: dict[Layout, dict[str, Bound]] = {layout: spec.bounds() for layout, spec in FIELDS.items()}


def param_bound(key: str) -> Bound:
    """The bound of one parameter's value."""
    return PARAM_BOUNDS.get(key, OTHER_PARAM)


__all__ = ["BOUNDS", "FIELDS", "PARAM_BOUNDS", "param_bound"]
