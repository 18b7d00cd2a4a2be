"""Every field of every civ1 tab the GM may edit, with the values it may take (issue 23, point 9).

One declaration per tab (:class:`engine.core.fields.TabFields`), read by the core's one reader
(:mod:`engine.core.rules_tab`): the state tabs of spec §2 (:data:`STATE_FIELDS`, read by the
codec) and the «Правила — …» tabs (:data:`RULES_FIELDS`, read by the rules loaders).  A number out
of its range, a word of no vocabulary, a name the rules or the campaign do not know, a row written
twice and a parameter no rule reads are problems of `check`, each naming its tab, row and column,
so no such value reaches a resolve.
"""

from __future__ import annotations

from engine.core.cells import BIG, Bound
from engine.core.fields import Field, Keyed, TabFields, declared
from engine.core.i18n import N_
from engine.core.layout import Layout

from . import hexes
from .tabs import (
    RULES_BUILDINGS,
    RULES_CLASSES,
    RULES_COMBAT,
    RULES_ERAS,
    RULES_GOVERNMENTS,
    RULES_LIMITS,
    RULES_PARAMS,
    RULES_PRICES,
    RULES_RESOURCES,
    RULES_SPY,
    RULES_TECHS,
    RULES_TERRAIN,
    RULES_TERRAIN_MODS,
    RULES_UNITS,
    RULES_VILLAGES,
    RULES_WONDERS,
    WORD_COLUMNS,
)
from .vocab import (
    CARD_STATES,
    CITIES_TAB,
    INTENTIONS,
    MAIL,
    MAP,
    NATIONS,
    SPIES,
    TECHS,
    TREASURY,
    TREATIES,
    UNITS,
    WORKS,
)

COUNT = Bound(0, BIG, integer=True)  # a whole number ≥ 0
POSITIVE = Bound(1, BIG, integer=True)  # a seat, a card's or a spy's number, a divisor, a die
LEVEL = Bound(1, 5, integer=True)  # a technology level, an era
COST = Bound(0, 10_000, integer=True)
SMALL = Bound(0, 20, integer=True)
HUNDRED = Bound(0, 100, integer=True)
PERCENT = Bound(0, 100, integer=True)

#: «да» / «нет» in a state tab, as the codec has always read them (a blank cell is «нет»)
FLAG = {"yes": ("да", "yes", "+", "1", "true"), "no": ("нет", "no", "-", "0", "false", "—")}
#: a card's state (a blank cell is «готов»)
CARD_WORDS = {**CARD_STATES}


def _n(key: str, bound: Bound, required: bool = False, default: int | None = 0) -> Field:
    """A whole-number field."""
    return Field(key, "whole", bound=Bound(bound.lo, bound.hi, bound.integer, required), default=default)


def _words(layout: Layout, key: str, default: str | None = None) -> Field:
    """A word of the column's vocabulary (tabs.WORD_COLUMNS); blank is ``default`` (required if None)."""
    return Field(key, "word", words=WORD_COLUMNS[layout][key], required=default is None, default=default)


def _ref(key: str, ref: str, required: bool = False, many: bool = False, msgid: str | None = None) -> Field:
    """A name of the collection ``ref`` (given by the reader: the rules' terrains, the nations…)."""
    return Field(key, "name", ref=ref, required=required, many=many, unknown_msgid=msgid)


UNKNOWN_NATION = N_("нет нации «{text}»; нации: {known}")
UNKNOWN_TECH = N_("нет технологии «{text}» в «Правила — Технологии»; есть: {known}")
UNKNOWN_TERRAIN = N_("нет местности «{text}» в «Правила — Местность»; есть: {known}")
UNKNOWN_UNIT = N_("нет войска «{text}» в «Правила — Войска»; есть: {known}")
UNKNOWN_BUILDING = N_("нет постройки «{text}» в «Правила — Постройки»; есть: {known}")
UNKNOWN_CITY = N_("нет города «{text}» на листе «Города»")
OFF_MAP = N_("гекс {text} не на листе «Карта мира»")
HEX_FORM = N_("гекс пишут «q,r» (например «3,4»), а там «{value}»")


def _hex(key: str, on_map: bool) -> Field:
    """A hex «q,r»; ``on_map``: it must be a hex of «Карта мира»."""
    return Field(key, "form", parse=hexes.parse, form_msgid=HEX_FORM, required=True,
                 ref="map" if on_map else None, unknown_msgid=OFF_MAP)


def _flag(key: str) -> Field:
    return Field(key, "word", words=FLAG, default="no")


# ---------------------------------------------------------------- the state tabs (spec §2)

STATE_FIELDS = declared([
    TabFields(NATIONS, (
        Field("name", required=True), Field("leader"), _n("seat", Bound(1, 1_000, integer=True), required=True),
        Field("capital"), Field("government"), _n("vp_honesty", Bound(-99, 999, integer=True)),
        _n("missed", COUNT), _flag("excused"), _flag("ai"),
    ), unique=("name",)),
    TabFields(TREASURY, (
        _ref("name", "nations", required=True, msgid=UNKNOWN_NATION),
        _n("power", COUNT, required=True), _n("coins", COUNT, required=True), _n("science", COUNT, required=True),
        _n("vp_tech", COUNT), _n("spies", COUNT), _n("next_card", COUNT),
        Field("resources", many=True, separators=","), Field("stolen"),
    ), unique=("name",)),
    TabFields(MAP, (
        _hex("hex", on_map=False), _ref("terrain", "terrain", required=True, msgid=UNKNOWN_TERRAIN),
        _flag("village"), Field("city"), Field("owner"), Field("resource"),
    ), unique=("hex",)),
    TabFields(CITIES_TAB, (
        Field("name", required=True), _ref("nation", "nations", required=True, msgid=UNKNOWN_NATION),
        _hex("hex", on_map=True), _n("population", POSITIVE, default=1), Field("wonders", many=True),
        Field("status"),
    ), unique=("name",)),
    TabFields(WORKS, (
        _ref("city", "cities", required=True, msgid=UNKNOWN_CITY),
        _ref("nation", "nations", msgid=UNKNOWN_NATION),
        _ref("buildings", "buildings", many=True, msgid=UNKNOWN_BUILDING), _n("hammers", COUNT),
        _flag("counter_spy"),
    ), unique=("city",)),
    TabFields(UNITS, (
        _ref("nation", "nations", required=True, msgid=UNKNOWN_NATION), _n("number", POSITIVE, required=True),
        _ref("unit", "units", required=True, msgid=UNKNOWN_UNIT), Field("state"), Field("class"), Field("era"),
    ), unique=("nation", "number")),
    TabFields(TECHS, (
        _ref("nation", "nations", required=True, msgid=UNKNOWN_NATION),
        _ref("tech", "techs", required=True, msgid=UNKNOWN_TECH), _n("turn", COUNT),
    ), unique=("nation", "tech")),
    TabFields(SPIES, (
        _ref("nation", "nations", required=True, msgid=UNKNOWN_NATION), _n("number", POSITIVE, required=True),
        Field("where"), _flag("busy"),
    ), unique=("nation", "number")),
    TabFields(TREATIES, (
        _n("turn", COUNT), _ref("parties", "nations", many=True, msgid=UNKNOWN_NATION), Field("kind"),
        _n("until", COUNT), Field("breached_by"),
    )),
    TabFields(INTENTIONS, (
        _ref("nation", "nations", required=True, msgid=UNKNOWN_NATION), Field("city"), Field("wonder"),
    )),
    TabFields(MAIL, (Field("sender"), Field("to"), Field("text"))),
])

# ---------------------------------------------------------------- the rules tabs («Правила — …»)

#: «Правила — Параметры»: every key a rule reads and the values it may take (a die or a divisor
#: of 0 would crash a resolve; a key not listed here is a GM's typo, not a silent no-op)
PARAM_BOUNDS: dict[str, Bound] = {
    "last_turn": Bound(1, 1_000, integer=True),
    "explore_range": Bound(0, 100, integer=True),
    "found_range": Bound(0, 100, integer=True),
    "army_range": Bound(0, 100, integer=True),
    "village_die": Bound(1, 100, integer=True),  # the village table's rows cover 1..village_die
    "die_sides": Bound(1, 100, integer=True),
    "advantage_dice": Bound(0, 20, integer=True),
    "wmd_advantages": Bound(0, 20, integer=True),
    "sea_defence_advantages": Bound(0, 20, integer=True),
    "wonder_discount_percent": PERCENT,
    "stolen_tech_divisor": Bound(1, 100, integer=True),  # a divisor
    "honesty_vp": Bound(0, 100, integer=True),
    "guarantee_turns": Bound(0, 100, integer=True),
    "no_city_guarantee_radius": Bound(0, 100, integer=True),
    "palace_power": HUNDRED,
    "start_power": HUNDRED,
    "level5_per_level4": Bound(1, 10, integer=True),
    "pyramid_last_level": LEVEL,
    "worked_hex_extra": SMALL,
    "score_per_city": HUNDRED,
    "score_per_wonder": HUNDRED,
    "score_per_era": HUNDRED,
}
REQUIRED_PARAMS = (
    "last_turn", "explore_range", "found_range", "army_range", "village_die", "die_sides", "advantage_dice",
    "wmd_advantages", "sea_defence_advantages", "wonder_discount_percent", "stolen_tech_divisor", "honesty_vp",
    "guarantee_turns", "no_city_guarantee_radius", "palace_power", "start_power", "level5_per_level4",
    "pyramid_last_level", "worked_hex_extra",
)
LIMIT_BOUNDS: dict[str, Bound] = {
    "army_start": Bound(1, 100, integer=True),
    "army_stated_max": Bound(1, 100, integer=True),
    "armies_per_city": Bound(0, 100, integer=True),
    "city_size_base": Bound(1, 100, integer=True),
    "city_size_new": Bound(1, 100, integer=True),
    "growth_per_turn": Bound(0, 100, integer=True),
    "city_spacing": Bound(0, 100, integer=True),
    "capital_min_population": Bound(0, 100, integer=True),
}
REQUIRED_LIMITS = tuple(LIMIT_BOUNDS)


def _setting_fields(layout: Layout) -> tuple[Field, ...]:
    return (Field("key", required=True), _words(layout, "source", "seed"), Field("description_ru"),
            Field("description_en"), Field("rule_ids"))


def _nums(bounds: dict[str, Bound]) -> tuple[Field, ...]:
    """Whole-number fields; a blank cell is None unless the bound says it is required."""
    return tuple(Field(k, "whole", bound=b, default=None) for k, b in bounds.items())


ERA_PRICES = ("unit_cost", "building_cost", "wonder_cost", "wonder_discounted_cost")

RULES_FIELDS = declared([
    TabFields(RULES_PARAMS, _setting_fields(RULES_PARAMS), unique=("key",),
              keyed=Keyed(PARAM_BOUNDS, REQUIRED_PARAMS)),
    TabFields(RULES_LIMITS, _setting_fields(RULES_LIMITS), unique=("key",),
              keyed=Keyed(LIMIT_BOUNDS, REQUIRED_LIMITS)),
    TabFields(RULES_PRICES, (Field("key", required=True), _words(RULES_PRICES, "resource"),
                             _words(RULES_PRICES, "per"),
                             *_nums({"amount": Bound(0, 1_000, integer=True, required=True)})), unique=("key",)),
    TabFields(RULES_ERAS, _nums({"level": Bound(1, 5, integer=True, required=True),
                                 "tech_cost": Bound(0, 10_000, integer=True, required=True),
                                 **{k: COST for k in ERA_PRICES}}), unique=("level",)),
    TabFields(RULES_TECHS, (Field("name_ru", required=True), *_nums({
        "level": Bound(1, 5, integer=True, required=True), "power": HUNDRED,
        "land_range": Bound(1, 100, integer=True), "water_range": Bound(1, 100, integer=True),
        **{k: SMALL for k in ("army_size", "city_size", "spies", "vp")}})), unique=("name_ru",)),
    TabFields(RULES_TERRAIN, (Field("name_ru", required=True), _words(RULES_TERRAIN, "growth", "no"),
                              _words(RULES_TERRAIN, "passable", "yes"),
                              *_nums({k: Bound(0, 20, integer=True, required=True)
                                      for k in ("hammers", "coins", "science")})), unique=("name_ru",)),
    TabFields(RULES_TERRAIN_MODS, (_words(RULES_TERRAIN_MODS, "yield"), _words(RULES_TERRAIN_MODS, "applies", "hex"),
                                   *_nums({"amount": Bound(-20, 20, integer=True, required=True)}))),
    TabFields(RULES_CLASSES, (Field("name_ru", required=True), _words(RULES_CLASSES, "captures", "yes"),
                              _words(RULES_CLASSES, "support", "no")), unique=("name_ru",)),
    TabFields(RULES_UNITS, (Field("name_ru", required=True),
                            *_nums({"era": LEVEL, "dice": SMALL, "support": SMALL})), unique=("name_ru",)),
    TabFields(RULES_BUILDINGS, (Field("name_ru", required=True), _words(RULES_BUILDINGS, "kind"), *_nums(
        {"era": LEVEL, **{k: HUNDRED for k in ("hammers", "coins", "science", "protects", "defence")}})),
              unique=("name_ru",)),
    TabFields(RULES_GOVERNMENTS, (Field("key", required=True), *_nums({"power": HUNDRED})), unique=("key",)),
    TabFields(RULES_VILLAGES, (_words(RULES_VILLAGES, "effect"), *_nums({
        "roll_min": Bound(1, BIG, integer=True, required=True), "roll_max": Bound(1, BIG, integer=True, required=True),
        "amount": Bound(0, 100, integer=True, required=True), "alt_amount": HUNDRED, "era": LEVEL,
        "to_era": LEVEL}))),
    TabFields(RULES_COMBAT, (_words(RULES_COMBAT, "result"), _words(RULES_COMBAT, "loser", "loser"), *_nums(
        {"diff_min": Bound(0, 1_000, integer=True, required=True), "diff_max": Bound(0, 1_000, integer=True)}))),
    TabFields(RULES_SPY, (Field("key", required=True), _words(RULES_SPY, "capital_only", "no")), unique=("key",)),
    TabFields(RULES_WONDERS, (Field("name_ru", required=True), *_nums({"era": LEVEL})), unique=("name_ru",)),
    TabFields(RULES_RESOURCES, (Field("name_ru", required=True), _words(RULES_RESOURCES, "wonder_discount", "no")),
              unique=("name_ru",)),
])

__all__ = ["LIMIT_BOUNDS", "PARAM_BOUNDS", "REQUIRED_LIMITS", "REQUIRED_PARAMS", "RULES_FIELDS", "STATE_FIELDS"]
