"""The civ1 rules tabs read into the typed :class:`~.rules.Rules`: one small loader per tab.

:data:`TAB_LOADERS` lists them by the tab's role (the keys of ``templates.RULES_FILES``) in the
order they run; a loader reads its one tab and returns the rules read so far with its own field
filled in.  The tabs whose names it looks up (``needs``: a unit's technology and class, a village
row's era) run before it.  The reading is the core's (:mod:`engine.core.rules_tab`): every problem
names its tab, row and column, in Russian (English in an English campaign), in the words of
:data:`TEXTS`; :data:`RULES_TABS` is the game's declaration of its tabs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from engine.core import rules_tab
from engine.core.errors import Problem
from engine.core.i18n import N_
from engine.core.layout import norm
from engine.core.rules_tab import Record, RulesTabs, RulesTabTexts, TabLoader, TabReader, code_of
from engine.core.tables import Cell, Tables

from .declared import RULES_FIELDS
from .messages import _
from .rules import (
    Building,
    CombatOutcome,
    Era,
    Government,
    Price,
    Resource,
    Rules,
    Setting,
    SpyMission,
    Technology,
    Terrain,
    TerrainModifier,
    UnitClass,
    UnitType,
    VillageOutcome,
    Wonder,
)
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
    TRANSFERS,
    YES_NO,
)

REQUIRED_PRICES = (
    "explore", "spy", "counter_spy", "found_city", "upgrade", "restore", "reorganise", "disband", "attack",
    "research_extra", "government", "activate", "extra_building", "wmd",
)

# «Особое» of a technology: key -> kind of its value (flag «да», a whole number, names of other
# technologies, or what may be transferred)
TECH_EFFECTS: dict[str, str] = {
    "explore_coast": "flag", "cross_sea": "flag", "cross_mountains": "flag", "straight_line": "flag",
    "wmd": "flag", "treaties": "flag", "repeatable": "flag",
    "free_buildings": "int", "growth_per_turn": "int", "convert_coins": "int", "convert_science": "int",
    "cancels_power": "techs", "transfer": "transfers",
}

LIST_SEPARATORS = ";|\n"  # a list cell of civ1 may part its items with «|» as well: «монеты|ресурсы»


def split_list(cell: Cell) -> tuple[str, ...]:
    """'лес; джунгли' or 'монеты|ресурсы' -> ('лес', 'джунгли')."""
    return rules_tab.split_list(cell, LIST_SEPARATORS)


def rule_ids(r: TabReader, rec: Record) -> tuple[str, ...]:
    """The rule ids the row cites («CIV-TECH-05;CIV-MAP-05»)."""
    return split_list(r.text(rec, "rule_ids"))


def unknown(r: TabReader, row: int, key: str, what: str, text: str) -> None:
    """An unknown name or word in a cell."""
    r.bad(row, key, _("неизвестное значение «{text}» ({what})").format(text=text, what=what))


def ref(r: TabReader, row: int, rec: Record, key: str, items: Mapping[str, object], what: str) -> str | None:
    """The Russian name (key) of the item of ``items`` named in column ``key``; None when blank;
    a problem when the name is none of them."""
    text = r.text(rec, key)
    if not text:
        return None
    n = norm(text)
    for k, item in items.items():
        if n in (norm(k), norm(getattr(item, "name_ru", k)), norm(getattr(item, "name_en", k))):
            return k
    unknown(r, row, key, what, text)
    return text


def era_of(r: TabReader, rules: Rules, row: int, rec: Record, key: str) -> int:
    """The era in column ``key``, by level (1–5) or by name («средневековье», «Medieval»)."""
    text = r.text(rec, key)
    for era in rules.eras.values():
        if norm(text) in (str(era.level), norm(era.name_ru), norm(era.name_en)):
            return era.level
    if text:
        unknown(r, row, key, _("эпоха: уровень 1–5 или название из «Правила — Эпохи»"), text)
    else:
        r.bad(row, key, _("пустая ячейка, нужна эпоха"))
    return 0


# --- the loaders, one per tab --------------------------------------------------------------------


def _settings(r: TabReader) -> dict[str, Setting]:
    """A key/value tab: each key's value within its declared range (declared.PARAM_BOUNDS,
    LIMIT_BOUNDS); an unknown, repeated or missing key is the reader's problem."""
    return {key: Setting(key, value, str(values["source"] or "seed"), split_list(values["rule_ids"]))
            for key, (_row, value, values) in r.settings().items()}


def read_params(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Параметры»: the numbers of the seed that belong to no table."""
    return replace(rules, params=_settings(r))


def read_limits(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Пределы»: army and city sizes, growth, spacing."""
    return replace(rules, limits=_settings(r))


def read_prices(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Цены»: what actions cost (Власть, монеты) and per what."""
    prices: dict[str, Price] = {}
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if not key:
            r.bad(row, "key", _("пустой ключ"))
            continue
        prices[key] = Price(
            key,
            r.text(rec, "name_ru") or key,
            r.text(rec, "name_en") or key,
            r.word(row, rec, "resource"),
            r.need(row, rec, "amount"),
            r.word(row, rec, "per"),
            rule_ids(r, rec),
        )
    for key in REQUIRED_PRICES:
        if r.tab and key not in prices:
            r.problems.append(Problem(r.tab, 0, "", _("нет строки с ключом «{key}»").format(key=key)))
    return replace(rules, prices=prices)


PRICED = ("unit_cost", "building_cost", "wonder_cost", "wonder_discounted_cost")  # blank: no such thing


def read_eras(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Эпохи»: the five eras (technology levels) and their prices."""
    eras: dict[int, Era] = {}
    for row, rec in r.rows:
        level = r.need(row, rec, "level")
        if level in eras:
            r.bad(row, "level", _("эпоха {level} уже есть выше").format(level=level))
        eras[level] = Era(
            level,
            r.text(rec, "name_ru") or str(level),
            r.text(rec, "name_en") or str(level),
            r.need(row, rec, "tech_cost"),
            *(r.whole(row, rec, k, None) for k in PRICED),
            rule_ids=rule_ids(r, rec),
        )
    return replace(rules, eras=dict(sorted(eras.items())))


def _tech_effects(r: TabReader, row: int, text: str) -> dict[str, object]:
    """«Особое»: 'cross_sea=да; cancels_power=Философия|Теология' -> typed fields of Technology."""
    out: dict[str, object] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        key, _sep, value = (x.strip() for x in part.partition("="))
        kind = TECH_EFFECTS.get(key)
        if kind is None or not _sep:
            r.bad(row, "effects", _("непонятный эффект «{part}»: известны {known}").format(
                part=part, known=", ".join(TECH_EFFECTS)))
        elif kind == "flag":
            out[key] = code_of(YES_NO, value) != "no"
        elif kind == "int":
            if not value.lstrip("+").isdigit():
                r.bad(row, "effects", _("«{key}» ждёт целое число, а не «{value}»").format(key=key, value=value))
            else:
                out[key] = int(value.lstrip("+"))
        elif kind == "techs":
            out[key] = tuple(x.strip() for x in value.split("|") if x.strip())
        else:
            codes = [code_of(TRANSFERS, x) for x in value.split("|") if x.strip()]
            if None in codes:
                r.bad(row, "effects", _("«{key}»: можно передавать города, монеты, ресурсы или Власть, а не «{value}»")
                      .format(key=key, value=value))
            out["transfers"] = tuple(c for c in codes if c)
    return out


def read_techs(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Технологии»: the technologies, their level, era and effects; the names they
    refer to (prerequisites, cancelled Power) must be technologies of the tab."""
    techs: dict[str, Technology] = {}
    rows: dict[str, int] = {}
    for row, rec in r.rows:
        name = r.name(rec)
        if not name:
            r.bad(row, "name_ru", _("пустое название"))
            continue
        level = r.need(row, rec, "level")
        era = era_of(r, rules, row, rec, "era")
        if era and level and era != level:
            r.bad(row, "era", _("эпоха {era} не совпадает с уровнем {level}").format(era=era, level=level))
        rows[name] = row
        techs[name] = Technology(
            name_ru=name,
            name_en=r.text(rec, "name_en") or name,
            level=level,
            era=era,
            prerequisites=split_list(rec.get("prerequisites")),
            power=r.need(row, rec, "power"),
            land_range=r.whole(row, rec, "land_range", None),
            water_range=r.whole(row, rec, "water_range", None),
            army_size=r.need(row, rec, "army_size"),
            city_size=r.need(row, rec, "city_size"),
            spies=r.need(row, rec, "spies"),
            vp=r.need(row, rec, "vp"),
            description_ru=r.text(rec, "description_ru"),
            description_en=r.text(rec, "description_en"),
            rule_ids=rule_ids(r, rec),
            **_tech_effects(r, row, r.text(rec, "effects")),  # type: ignore[arg-type]
        )
    def keys(name: str, column: str, names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(ref(r, rows[name], {column: n}, column, techs, _("технология")) or n for n in names)

    techs = {
        n: replace(t, prerequisites=keys(n, "prerequisites", t.prerequisites),
                   cancels_power=keys(n, "effects", t.cancels_power))
        for n, t in techs.items()
    }
    return replace(rules, techs=techs)


def read_terrain(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Местность»: each terrain's yield, growth, passability, the tech to work it."""
    terrain: dict[str, Terrain] = {}
    for row, rec, name in r.named():
        terrain[name] = Terrain(
            name,
            r.text(rec, "name_en") or name,
            r.need(row, rec, "hammers"),
            r.need(row, rec, "coins"),
            r.need(row, rec, "science"),
            r.yes(row, rec, "growth"),
            r.yes(row, rec, "passable", True),
            ref(r, row, rec, "workable_tech", rules.techs, _("технология")),
            rule_ids(r, rec),
        )
    return replace(rules, terrain=terrain)


def read_terrain_modifiers(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Местность и технологии»: what a technology adds to a terrain's yield."""
    mods: list[TerrainModifier] = []
    for row, rec in r.rows:
        tech = ref(r, row, rec, "tech", rules.techs, _("технология")) or ""
        terrains = []
        for name in split_list(rec.get("terrain")):
            found = ref(r, row, {"terrain": name}, "terrain", rules.terrain, _("местность"))
            terrains.append(found or name)
        if not terrains:
            r.bad(row, "terrain", _("пустая ячейка, нужна местность"))
        mods.append(
            TerrainModifier(
                tech,
                tuple(terrains),
                r.word(row, rec, "yield"),
                r.need(row, rec, "amount"),
                r.word(row, rec, "applies"),
                rule_ids(r, rec),
            )
        )
    return replace(rules, terrain_modifiers=tuple(mods))


def read_classes(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Классы войск»: the classes and the triangle of advantages."""
    classes: dict[str, UnitClass] = {}
    rows: dict[str, int] = {}
    for row, rec, name in r.named():
        rows[name] = row
        classes[name] = UnitClass(
            name,
            r.text(rec, "name_en") or name,
            split_list(rec.get("advantage_over")),
            r.yes(row, rec, "captures", True),
            r.yes(row, rec, "support"),
            rule_ids(r, rec),
        )
    fixed: dict[str, UnitClass] = {}
    for name, c in classes.items():
        over = tuple(ref(r, rows[name], {"advantage_over": o}, "advantage_over", classes, _("класс войск")) or o
                     for o in c.advantage_over)
        fixed[name] = replace(c, advantage_over=over)
    return replace(rules, classes=fixed)


def read_units(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Войска»: the units, their class, era, technology, dice and support bonus."""
    units: dict[str, UnitType] = {}
    for row, rec, name in r.named():
        cls = ref(r, row, rec, "class", rules.classes, _("класс войск"))
        if cls is None:
            r.bad(row, "class", _("пустая ячейка, нужен класс войск"))
        support_class = cls in rules.classes and rules.classes[cls].support
        dice = r.whole(row, rec, "dice", None)
        if not r.text(rec, "dice") and not support_class:
            r.bad(row, "dice", _("пустая ячейка: войску нужны кубики (только поддержке их не нужно)"))
        units[name] = UnitType(
            name,
            r.text(rec, "name_en") or name,
            cls or "",
            era_of(r, rules, row, rec, "era"),
            ref(r, row, rec, "tech", rules.techs, _("технология")),
            dice,
            r.need(row, rec, "support"),
            rule_ids(r, rec),
        )
    return replace(rules, units=units)


def read_buildings(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Постройки»: buildings, their technology, era, kind, yields and protection."""
    buildings: dict[str, Building] = {}
    replaces: dict[str, tuple[int, str]] = {}
    for row, rec, name in r.named():
        tech = ref(r, row, rec, "tech", rules.techs, _("технология"))
        if tech is None:
            r.bad(row, "tech", _("пустая ячейка, нужна технология"))
        if r.text(rec, "replaces"):
            replaces[name] = (row, r.text(rec, "replaces"))
        buildings[name] = Building(
            name,
            r.text(rec, "name_en") or name,
            tech or "",
            era_of(r, rules, row, rec, "era"),
            r.word(row, rec, "kind"),
            *(r.need(row, rec, k) for k in ("hammers", "coins", "science", "protects", "defence")),
            replaces=None,
            rule_ids=rule_ids(r, rec),
        )
    for name, (row, old) in replaces.items():
        found = ref(r, row, {"replaces": old}, "replaces", buildings, _("постройка"))
        buildings[name] = replace(buildings[name], replaces=found)
    return replace(rules, buildings=buildings)


def read_governments(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Правления»: governments, the technology that opens each, Power a turn."""
    governments: dict[str, Government] = {}
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if not key:
            r.bad(row, "key", _("пустой ключ"))
            continue
        tech = ref(r, row, rec, "tech", rules.techs, _("технология"))
        if tech is None:
            r.bad(row, "tech", _("пустая ячейка, нужна технология"))
        governments[key] = Government(
            key,
            r.text(rec, "name_ru") or key,
            r.text(rec, "name_en") or key,
            tech or "",
            r.need(row, rec, "power"),
            rule_ids(r, rec),
        )
    return replace(rules, governments=governments)


def read_villages(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Деревни»: the village die's table; its rows must cover 1..village_die once."""
    villages: list[VillageOutcome] = []
    seen: dict[int, int] = {}
    for row, rec in r.rows:
        lo, hi = r.need(row, rec, "roll_min"), r.need(row, rec, "roll_max")
        if lo > hi:
            r.bad(row, "roll_max", _("«до» {hi} меньше «от» {lo}").format(hi=hi, lo=lo))
        for roll in range(lo, hi + 1):
            if roll in seen:
                r.bad(row, "roll_min", _("бросок {roll} уже есть в строке {other}").format(roll=roll, other=seen[roll]))
            seen[roll] = row
        eras = [None if not r.text(rec, k) else era_of(r, rules, row, rec, k) for k in ("era", "to_era")]
        villages.append(
            VillageOutcome(
                lo,
                hi,
                r.word(row, rec, "effect"),
                r.need(row, rec, "amount"),
                r.whole(row, rec, "alt_amount", None),
                eras[0],
                eras[1],
                r.text(rec, "text_ru"),
                r.text(rec, "text_en"),
                rule_ids(r, rec),
            )
        )
    die = int(rules.params["village_die"].value) if "village_die" in rules.params else 0
    missing = [str(n) for n in range(1, die + 1) if n not in seen]
    if r.tab and missing:
        r.problems.append(Problem(r.tab, 0, "", _("нет строк для бросков: {rolls}").format(rolls=", ".join(missing))))
    return replace(rules, villages=tuple(villages))


def read_combat(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Исход боя»: what a duel's difference of totals does to the losing unit."""
    combat: list[CombatOutcome] = []
    for row, rec in r.rows:
        combat.append(
            CombatOutcome(
                r.need(row, rec, "diff_min"),
                r.whole(row, rec, "diff_max", None),
                r.word(row, rec, "result"),
                r.word(row, rec, "loser"),
                rule_ids(r, rec),
            )
        )
    return replace(rules, combat=tuple(combat))


def read_spy(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Шпионаж»: the missions a spy may be sent on."""
    missions: dict[str, SpyMission] = {}
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if not key:
            r.bad(row, "key", _("пустой ключ"))
            continue
        missions[key] = SpyMission(
            key,
            r.text(rec, "name_ru") or key,
            r.text(rec, "name_en") or key,
            r.yes(row, rec, "capital_only"),
            r.text(rec, "description_ru"),
            r.text(rec, "description_en"),
            rule_ids(r, rec),
        )
    return replace(rules, spy_missions=missions)


def read_wonders(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Чудеса»: the wonders the GM lists (the seed names none); the era sets the price."""
    wonders: dict[str, Wonder] = {}
    for row, rec, name in r.named():
        wonders[name] = Wonder(
            name,
            r.text(rec, "name_en") or name,
            era_of(r, rules, row, rec, "era"),
            r.text(rec, "effects"),
            r.text(rec, "description_ru"),
            r.text(rec, "description_en"),
            rule_ids(r, rec),
        )
    return replace(rules, wonders=wonders)


def read_resources(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Ресурсы»: the special resources the GM lists (the seed names none)."""
    resources: dict[str, Resource] = {}
    for row, rec, name in r.named():
        resources[name] = Resource(
            name,
            r.text(rec, "name_en") or name,
            r.yes(row, rec, "wonder_discount"),
            r.text(rec, "effects"),
            r.text(rec, "description_ru"),
            r.text(rec, "description_en"),
            rule_ids(r, rec),
        )
    return replace(rules, resources=resources)


#: The rules tabs by role, in the order they are read (the order of their problems, too).
TAB_LOADERS: dict[str, TabLoader[Rules]] = {
    "parameters": TabLoader(RULES_PARAMS, "params", read_params),
    "limits": TabLoader(RULES_LIMITS, "limits", read_limits),
    "prices": TabLoader(RULES_PRICES, "prices", read_prices),
    "eras": TabLoader(RULES_ERAS, "eras", read_eras),
    "technologies": TabLoader(RULES_TECHS, "techs", read_techs, needs=("eras",)),
    "terrain": TabLoader(RULES_TERRAIN, "terrain", read_terrain, needs=("technologies",)),
    "terrain_modifiers": TabLoader(
        RULES_TERRAIN_MODS, "terrain_modifiers", read_terrain_modifiers, needs=("technologies", "terrain")
    ),
    "classes": TabLoader(RULES_CLASSES, "classes", read_classes),
    "units": TabLoader(RULES_UNITS, "units", read_units, needs=("classes", "eras", "technologies")),
    "buildings": TabLoader(RULES_BUILDINGS, "buildings", read_buildings, needs=("eras", "technologies")),
    "governments": TabLoader(RULES_GOVERNMENTS, "governments", read_governments, needs=("technologies",)),
    "villages": TabLoader(RULES_VILLAGES, "villages", read_villages, needs=("parameters", "eras")),
    "combat": TabLoader(RULES_COMBAT, "combat", read_combat),
    "spy_missions": TabLoader(RULES_SPY, "spy_missions", read_spy),
    "wonders": TabLoader(RULES_WONDERS, "wonders", read_wonders, needs=("eras",)),
    "resources": TabLoader(RULES_RESOURCES, "resources", read_resources),
}


#: How the problems of a civ1 rules tab are worded (msgids of the civ1 catalogue).
TEXTS = RulesTabTexts(
    _,
    no_tab=N_("нет листа правил «{tab}»"),
    empty_tab=N_("лист пуст: нет даже строки заголовков"),
    blank_number=N_("пустая ячейка, нужно число"),
    not_a_number=N_("не число: «{value}»"),
    blank_word=N_("пустая ячейка, нужно одно из: {known}"),
    unknown_word=N_("непонятное «{text}»: нужно одно из: {known}"),
    in_column=N_("столбец «{column}»: {message}"),
)

#: The civ1 rules tabs: a row's name is its Russian one whatever the campaign's language (the
#: rules are keyed by it), the English column giving the name shown in an English campaign.
RULES_TABS: RulesTabs[Rules] = RulesTabs(TAB_LOADERS, {}, TEXTS, Rules, names_by_language=False, fields=RULES_FIELDS)


def load_tab(role: str, tables: Tables, problems: list[Problem], rules: Rules | None = None) -> Rules:
    """Read the one rules tab of ``role`` into ``rules`` (empty ones by default)."""
    return RULES_TABS.load_tab(role, tables, problems, rules)


def load_rules(tables: Tables, problems: list[Problem]) -> Rules:
    """Build the rules from the campaign's rules tabs; every problem is appended to ``problems``."""
    return RULES_TABS.load(tables, problems)
