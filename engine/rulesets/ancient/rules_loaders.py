"""The campaign's rules tabs read into the typed :class:`~.rules.Rules`: one small loader per tab.

:data:`TAB_LOADERS` lists them by the tab's role (the keys of ``templates.RULES_FILES``), in the
order they run; :func:`load_rules` runs them.  A loader reads its one tab and returns the rules
read so far with its own field filled in; the tabs it looks names up in (``needs``: a building's
technologies, a transition's forms of government, a conversion's goods) run before it.  The
reading is the core's (:mod:`engine.core.rules_tab`): every problem of a cell names its tab, row
and column, in the words of :data:`TEXTS`; :data:`RULES_TABS` is the game's declaration of its tabs.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

from engine.core.errors import Problem
from engine.core.i18n import N_
from engine.core.layout import norm
from engine.core.rules_tab import RulesTabs, RulesTabTexts, TabLoader, TabReader, split_list
from engine.core.tables import Tables, is_blank

from . import conditions, naming
from .bounds import BOUNDS, FIELDS, param_bound
from .messages import _
from .rules import (
    PARAM_DEFAULTS,
    REQUIRED_PARAMS,
    Building,
    CombatBand,
    Conversion,
    Degradation,
    EventCard,
    Good,
    Government,
    Rules,
    Technology,
    Transition,
    UnitType,
)
from .rules_cells import gov_key, opt_int, parse_effects, parse_workers, path_of, with_roles
from .vocab import (
    RULES_BUILDINGS,
    RULES_COMBAT,
    RULES_CONVERSIONS,
    RULES_DEGRADATION,
    RULES_EVENT_ODDS,
    RULES_EVENTS,
    RULES_GOODS,
    RULES_GOVERNMENTS,
    RULES_PARAMS,
    RULES_STABILITY,
    RULES_TECHS,
    RULES_TRADE,
    RULES_TRANSITIONS,
    RULES_UNITS,
    STRATA,
    YES,
)


def read_governments(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Правление»: the forms of government, by key."""
    governments: dict[str, Government] = {}
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if not key:
            r.bad(row, "key", _("пустой ключ формы правления"))
            continue
        opt = {
            k: (None if is_blank(rec.get(k)) else r.num(row, rec, k))
            for k in ("slave_to_citizen", "citizen_to_aristocrat")
        }
        governments[key] = Government(
            key=key,
            name_ru=r.name(rec) or key,
            name_en=r.text(rec, "name_en") or key,
            tax=r.num(row, rec, "tax"),
            science=r.num(row, rec, "science", Fraction(0)),
            army=int(r.num(row, rec, "army", Fraction(0))),
            stability_price=r.num(row, rec, "stability_price", Fraction(0)),
            money_per_turn=r.num(row, rec, "money_per_turn", Fraction(0)),
            money_per_aristocrat=r.num(row, rec, "money_per_aristocrat", Fraction(0)),
            money_per_province=r.num(row, rec, "money_per_province", Fraction(0)),
            money_per_route=r.num(row, rec, "money_per_route", Fraction(0)),
            stability_per_turn=int(r.num(row, rec, "stability_per_turn", Fraction(0))),
            slave_to_citizen=opt["slave_to_citizen"],
            citizen_to_aristocrat=opt["citizen_to_aristocrat"],
            people_per_turn=int(r.num(row, rec, "people_per_turn", Fraction(0))),
            colonise=norm(r.text(rec, "colonise") or "да") in YES,
            annex=norm(r.text(rec, "annex")) in YES,
            peace_bonus=int(r.num(row, rec, "peace_bonus", Fraction(0))),
        )
    return replace(rules, governments=governments)


def read_stability(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Стабильность»: the share of taxes collected at each stability."""
    tax_percent: dict[int, Fraction] = {}
    for row, rec in r.rows:
        tax_percent[int(r.num(row, rec, "stability"))] = r.num(row, rec, "tax_percent")
    return replace(rules, tax_percent=tax_percent)


def read_techs(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Технологии»: the technologies, by name; each prerequisite must be one of them."""
    techs: dict[str, Technology] = {}
    for row, rec, name in r.named():
        techs[name] = Technology(
            name,
            r.text(rec, "name_en") or name,
            r.num(row, rec, "cost"),
            split_list(rec.get("prerequisites")),
            with_roles("technologies.csv", name, parse_effects(r.text(rec, "effects"))),
        )
    for t in techs.values():
        for pre in t.prerequisites:
            if pre not in techs:
                r.problems.append(
                    Problem(
                        RULES_TECHS.ru,
                        0,
                        "",
                        _("«{name_ru}» требует неизвестную технологию «{pre}»").format(name_ru=t.name_ru, pre=pre),
                    )
                )
    return replace(rules, techs=techs)


def read_buildings(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Постройки»: the buildings, by name; their technologies must be known ones."""
    buildings: dict[str, Building] = {}
    for row, rec, name in r.named():
        try:
            where = conditions.parse(r.text(rec, "where"))
        except conditions.ConditionSyntaxError as exc:
            r.bad(row, "where", str(exc))
            where = None
        try:
            workers = parse_workers(r.text(rec, "workers"))
        except ValueError as exc:
            r.bad(row, "workers", str(exc))
            workers = ()
        tech_list = split_list(rec.get("tech"))
        for t in tech_list:
            if rules.techs and t not in rules.techs:
                r.bad(row, "tech", _("неизвестная технология «{t}»").format(t=t))
        buildings[name] = Building(
            name_ru=name,
            name_en=r.text(rec, "name_en") or name,
            group=r.text(rec, "group"),
            cost=r.num(row, rec, "cost"),
            cost_slaves=int(r.num(row, rec, "cost_slaves", Fraction(0))),
            techs=tech_list,
            where_text=r.text(rec, "where"),
            where=where,
            workers=workers,
            workshop=norm(r.text(rec, "workshop")) in YES,
            unique=r.text(rec, "unique") or "province",
            produces=r.text(rec, "produces"),
            effects=with_roles("buildings.csv", name, parse_effects(r.text(rec, "effects"))),
            rule_ids=split_list(rec.get("rule_ids")),
        )
    return replace(rules, buildings=buildings)


def read_params(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Параметры»: the numeric parameters; the required ones must be there, the ones
    added later take their defaults in an older campaign."""
    params: dict[str, Fraction] = {}
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if key:
            params[key] = r.num(row, rec, "value", bound=param_bound(key))
    for key in REQUIRED_PARAMS:
        if r.tab and key not in params:
            r.problems.append(Problem(r.tab, 0, "", _("нет параметра «{key}»").format(key=key)))
    for key, value in PARAM_DEFAULTS.items():
        params.setdefault(key, value)
    return replace(rules, params=params)


def read_transitions(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Смена правления»: the voluntary steps of government and their conditions."""
    transitions: list[Transition] = []
    for row, rec in r.rows:
        transitions.append(
            Transition(
                src=gov_key(rules, r, row, rec, "from"),
                dst=gov_key(rules, r, row, rec, "to"),
                path=path_of(r, row, rec),
                stability_min=opt_int(r, row, rec, "stability_min"),
                stability_max=opt_int(r, row, rec, "stability_max"),
                peace=norm(r.text(rec, "peace")) in YES,
                war=norm(r.text(rec, "war")) in YES,
                aristocrats_min=opt_int(r, row, rec, "aristocrats_min"),
                aristocrats_max=opt_int(r, row, rec, "aristocrats_max"),
                temples_min=opt_int(r, row, rec, "temples_min"),
                forums_min=opt_int(r, row, rec, "forums_min"),
                provinces_min=opt_int(r, row, rec, "provinces_min"),
                treasury_min=None if is_blank(rec.get("treasury_min")) else r.num(row, rec, "treasury_min"),
                tech=r.text(rec, "tech"),
            )
        )
    return replace(rules, transitions=tuple(transitions))


def read_degradation(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Деградация»: where a government falls at the lowest stability."""
    degradation: list[Degradation] = []
    for row, rec in r.rows:
        cond = r.text(rec, "condition")
        if cond and not re.fullmatch(r"\s*\w+\s*(>=|<=|>|<|==|=)\s*\w+\s*", cond):
            r.bad(
                row,
                "condition",
                _("непонятное условие «{cond}»: ожидается, например, «provinces>=3»").format(cond=cond),
            )
        degradation.append(
            Degradation(
                gov_key(rules, r, row, rec, "from"), path_of(r, row, rec), gov_key(rules, r, row, rec, "to"), cond
            )
        )
    return replace(rules, degradation=tuple(degradation))


def read_goods(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Товары»: the goods, by name."""
    goods: dict[str, Good] = {}
    for _row, rec, name in r.named():
        goods[name] = Good(
            name,
            r.text(rec, "name_en") or name,
            r.text(rec, "specialisation"),
            norm(r.text(rec, "food")) in YES,
            with_roles("goods.csv", name, parse_effects(r.text(rec, "effects"))),
        )
    return replace(rules, goods=goods)


def read_conversions(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Страты»: moving people between strata; their goods must be known ones."""
    conversions: list[Conversion] = []
    for row, rec in r.rows:
        src, dst = r.text(rec, "from"), r.text(rec, "to")
        for key, value in (("from", src), ("to", dst)):
            if naming.code("stratum", value) is None:
                r.bad(
                    row,
                    key,
                    _("неизвестная страта «{value}» (есть: {known})").format(value=value, known=", ".join(STRATA)),
                )
        cost = r.text(rec, "cost")
        if not cost.startswith("gov:"):
            r.num(row, rec, "cost")
        goods_list = tuple(g.strip() for g in r.text(rec, "goods").split("|") if g.strip())
        for g in goods_list:
            if rules.goods and g not in rules.goods:
                r.bad(row, "goods", _("неизвестный товар «{g}»").format(g=g))
        conversions.append(
            Conversion(
                naming.code("stratum", src) or src,
                naming.code("stratum", dst) or dst,
                cost,
                goods_list,
                opt_int(r, row, rec, "per_turn_max"),
                tuple(
                    gov_key(rules, r, row, {"g": g}, "g")
                    for g in re.split(r"[;,]", r.text(rec, "governments"))
                    if g.strip()
                ),
                r.text(rec, "discount_effect"),
            )
        )
    return replace(rules, conversions=tuple(conversions))


def read_events(r: TabReader, rules: Rules) -> Rules:
    """«Правила — События»: the cards of the random-events deck, by key."""
    events: dict[str, EventCard] = {}
    for row, rec in r.rows:
        key = r.text(rec, "key")
        if not key:
            continue
        target = r.text(rec, "target")
        if target not in ("state", "province", "capital", "sea"):
            r.bad(
                row,
                "target",
                _("цель события должна быть state, province, capital или sea, а не «{target}»").format(target=target),
            )
        events[key] = EventCard(
            key,
            r.name(rec) or key,
            r.text(rec, "name_en") or key,
            r.text(rec, "kind") or "bad",
            r.num(row, rec, "weight", Fraction(1)),
            target,
            r.text(rec, "condition"),
            parse_effects(r.text(rec, "effects")),
            r.text(rec, "text_ru"),
        )
    return replace(rules, events=events)


def read_event_odds(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Шансы событий»: the weights of bad and good cards at each stability."""
    odds: dict[int, tuple[Fraction, Fraction]] = {}
    for row, rec in r.rows:
        odds[int(r.num(row, rec, "stability"))] = (r.num(row, rec, "bad_weight"), r.num(row, rec, "good_weight"))
    return replace(rules, event_odds=odds)


def read_units(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Войска»: the land units and ships, by type code («ЛП» whatever the language)."""
    units: dict[str, UnitType] = {}
    for row, rec in r.rows:
        t = r.text(rec, "type")
        if not t:
            continue
        t = naming.code("unit", t) or t  # a unit type is a code: «LI» in English is «ЛП»
        terrain: dict[str, int] = {}
        for part in re.split(r"[;,]", r.text(rec, "terrain")):
            if ":" in part:
                k, v = part.split(":", 1)
                try:
                    terrain[k.strip().lower()] = int(v.strip())
                except ValueError:
                    r.bad(row, "terrain", _("непонятный модификатор «{v}»: ожидается «горы:+1»").format(v=part.strip()))
        try:
            where = conditions.parse(r.text(rec, "where"))
        except conditions.ConditionSyntaxError as exc:
            r.bad(row, "where", str(exc))
            where = None
        strata = tuple(naming.code("stratum", x) or x for x in r.text(rec, "strata").split("|") if x.strip())
        for x in strata:
            if x not in STRATA:
                r.bad(row, "strata", _("неизвестная страта «{x}»").format(x=x))
        kind = "sea" if norm(r.text(rec, "kind")) in ("sea", "море", "флот") else "land"
        units[t] = UnitType(
            type=t,
            name_ru=r.name(rec) or t,
            name_en=r.text(rec, "name_en") or t,
            kind=kind,
            recruits=int(r.num(row, rec, "recruits", Fraction(1))),
            strata=strata,
            cost=r.num(row, rec, "cost"),
            goods=tuple(g.strip() for g in r.text(rec, "goods").split("+") if g.strip()),
            upkeep=r.num(row, rec, "upkeep", Fraction(0)),
            strength=int(r.num(row, rec, "strength")),
            moves=int(r.num(row, rec, "moves", Fraction(1))),
            terrain=terrain,
            weight=None if is_blank(rec.get("weight")) else int(r.num(row, rec, "weight")),
            capacity=int(r.num(row, rec, "capacity", Fraction(0))),
            value=int(r.num(row, rec, "value", Fraction(0))),
            where_text=r.text(rec, "where"),
            where=where,
            tech=r.text(rec, "tech"),
        )
    return replace(rules, units=units)


# the words of the combat table's «result» column, in either language
COMBAT_RESULTS: dict[str, str] = {
    "атакующий": "attacker",
    "attacker": "attacker",
    "победа атакующего": "attacker",
    "защитник": "defender",
    "defender": "defender",
    "победа защитника": "defender",
    "ничья": "draw",
    "draw": "draw",
}


def read_combat(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Таблица боя»: the bands of the БО ratio and their results, land and sea."""
    combat: list[CombatBand] = []
    for row, rec in r.rows:
        result = COMBAT_RESULTS.get(norm(r.text(rec, "result")), "")
        if not result:
            r.bad(
                row,
                "result",
                _("итог должен быть «атакующий», «защитник» или «ничья», а не «{v}»").format(v=r.text(rec, "result")),
            )
        kind = "море" if norm(r.text(rec, "kind")) in ("море", "sea", "морской") else "суша"
        combat.append(
            CombatBand(
                kind,
                r.num(row, rec, "ratio_min"),
                None if is_blank(rec.get("ratio_max")) else r.num(row, rec, "ratio_max"),
                result,
                r.num(row, rec, "attacker_loss"),
                r.num(row, rec, "defender_loss"),
                row,
            )
        )
    return replace(rules, combat=tuple(combat))


def read_trade(r: TabReader, rules: Rules) -> Rules:
    """«Правила — Торговля»: the seller's income of each good by distance (1 to 10 steps)."""
    trade: dict[str, tuple[Fraction | None, ...]] = {}
    for row, rec in r.rows:
        good = r.text(rec, "good")
        if not good:
            continue
        if rules.goods and good not in rules.goods:
            r.bad(row, "good", _("неизвестный товар «{good}»").format(good=good))
        trade[good] = tuple(None if is_blank(rec.get(f"d{i}")) else r.num(row, rec, f"d{i}") for i in range(1, 11))
    return replace(rules, trade=trade)


#: The rules tabs by role, in the order they are read (the order of their problems, too).
TAB_LOADERS: dict[str, TabLoader[Rules]] = {
    "governments": TabLoader(RULES_GOVERNMENTS, "governments", read_governments),
    "stability": TabLoader(RULES_STABILITY, "tax_percent", read_stability),
    "technologies": TabLoader(RULES_TECHS, "techs", read_techs),
    "buildings": TabLoader(RULES_BUILDINGS, "buildings", read_buildings, needs=("technologies",)),
    "parameters": TabLoader(RULES_PARAMS, "params", read_params),
    "transitions": TabLoader(RULES_TRANSITIONS, "transitions", read_transitions, needs=("governments",)),
    "degradation": TabLoader(RULES_DEGRADATION, "degradation", read_degradation, needs=("governments",)),
    "goods": TabLoader(RULES_GOODS, "goods", read_goods),
    "conversions": TabLoader(RULES_CONVERSIONS, "conversions", read_conversions, needs=("goods", "governments")),
    "events": TabLoader(RULES_EVENTS, "events", read_events),
    "event_odds": TabLoader(RULES_EVENT_ODDS, "event_odds", read_event_odds),
    "units": TabLoader(RULES_UNITS, "units", read_units),
    "combat": TabLoader(RULES_COMBAT, "combat", read_combat),
    "trade": TabLoader(RULES_TRADE, "trade", read_trade, needs=("goods",)),
}


#: How the problems of an ancient rules tab are worded (msgids of the ancient catalogue).
TEXTS = RulesTabTexts(
    _,
    no_tab=N_("нет листа правил «{tab}»"),
    empty_tab=N_("лист пуст"),
    blank_number=N_("пустая ячейка, нужно число"),
    not_a_number=N_("не число: {value!r}"),
)

#: The ancient rules tabs: a row's name is read in the campaign's language (its own names are in
#: its language's column; the other column holds aliases).
RULES_TABS: RulesTabs[Rules] = RulesTabs(TAB_LOADERS, BOUNDS, TEXTS, Rules, fields=FIELDS)


def load_tab(role: str, tables: Tables, problems: list[Problem], rules: Rules | None = None) -> Rules:
    """Read the one rules tab of ``role`` into ``rules`` (empty ones by default)."""
    return RULES_TABS.load_tab(role, tables, problems, rules)


def load_rules(tables: Tables, problems: list[Problem]) -> Rules:
    """Build the rules from the campaign's rules tabs; every problem is appended to `problems`."""
    return RULES_TABS.load(tables, problems)
