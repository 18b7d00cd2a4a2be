"""The only place that knows both the ancient game's tab layouts and its types.

decode: Tables (raw grids) -> Campaign + Rules + the turn's order rows, every problem listed.
encode: new Campaign + TurnReport -> a Changeset for one atomic write.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from engine.core import i18n, ordertab
from engine.core.cells import Bound, CellReader
from engine.core.errors import CampaignError, Problem
from engine.core.layout import Layout, find_tab, norm, records
from engine.core.ledger import LedgerEntry
from engine.core.money import to_cell
from engine.core.names import NameIndex
from engine.core.orders import OrderRow
from engine.core.ordertab import OrderTab
from engine.core.tables import Cell, Grid, Tables, is_blank

from . import naming, tabset
from .bounds import BOUNDS
from .messages import _
from .model import BARBARIANS, Army, Border, Campaign, Fleet, GMEvent, Province, Relation, Route, SeaZone, State
from .rules import Rules
from .rules_loaders import load_rules
from .vocab import (
    ADJACENCY,
    ARCHIVE,
    ARMIES,
    BORDER_KINDS,
    BORDER_TEXT,
    DIPLOMACY,
    FLEETS,
    GM_EVENTS,
    LAND_UNITS,
    META,
    META_KEYS,
    ORDER_INPUT_FIELDS,
    ORDER_TAB_PREFIX,
    ORDERS,
    PATH_TEXT,
    PATHS,
    POPULATION,
    PROVINCES,
    RELATION_TEXT,
    RELATIONS,
    ROUTES,
    SEAS,
    SHIPS,
    STATES,
    STRATA,
    TRANSIT,
)


@dataclass
class Decoded:
    """Everything read from a campaign sheet."""

    campaign: Campaign
    rules: Rules
    meta_tab: str
    tabs: dict[str, str]  # layout key -> actual tab name
    order_tabs: dict[str, OrderTab]
    meta: dict[str, Cell]
    found: tabset.CampaignTabs | None = None  # which read tab is which (engine.core.tabs), warnings for the GM
    archived: dict[tuple[int | str, str, int], tuple[str, ...]] = field(default_factory=dict)  # see archived_inputs

    @property
    def warnings(self) -> list[str]:
        return list(self.found.warnings) if self.found else []


LAYOUTS: dict[str, Layout] = {
    "states": STATES,
    "provinces": PROVINCES,
    "population": POPULATION,
    "adjacency": ADJACENCY,
    "seas": SEAS,
}


def _meta(tables: Tables, problems: list[Problem]) -> tuple[str, dict[str, Cell]]:
    tab = find_tab(tables, META)
    if tab is None:
        problems.append(Problem(META.ru, 0, "", _("нет листа «Кампания» — это не таблица кампании Strategos")))
        return "", {}
    by_label = {norm(k): key for key, labels in META_KEYS.items() for k in (key, *labels)}
    out: dict[str, Cell] = {}
    for row in tables[tab][1:]:
        if row and not is_blank(row[0]):
            key = by_label.get(norm(row[0]))
            if key:
                out[key] = row[1] if len(row) > 1 else None
    return tab, out


def read_meta(tables: Tables) -> dict[str, Cell]:
    """The meta tab alone (which ruleset, which turn), for the sync layer."""
    problems: list[Problem] = []
    _tab, meta = _meta(tables, problems)
    if problems:
        raise CampaignError(problems)
    return meta


def _grid(tables: Tables, key: str, problems: list[Problem]) -> tuple[str, Grid, dict[str, int]]:
    layout = LAYOUTS[key]
    tab = find_tab(tables, layout)
    if tab is None:
        problems.append(Problem(layout.ru, 0, "", _("нет листа «{tab}»").format(tab=layout.tab_name(i18n.current()))))
        return layout.ru, [], {}
    grid = tables[tab]
    if not grid:
        problems.append(Problem(tab, 1, "", _("лист пуст: нет строки заголовков")))
        return tab, [], {}
    return tab, grid, layout.locate(tab, grid[0], problems)


def _known(name: str, known: dict[str, object]) -> str:
    """A name the rules know, also when the GM typed it in the other language («Порт» in an English
    campaign is its «Port»); the name itself otherwise (then reported unknown)."""
    if name in known or not known:
        return name
    return next((a for a in naming.aliases(name) if a in known), name)


def _bounds(layout: Layout) -> dict[str, Bound]:
    """The declared bounds of a state tab's numeric columns (none declared: it has none)."""
    return BOUNDS.get(layout, {})


class _Hints:
    """Name indexes of the rules for the suggestions after an unknown name in a tab (issue 16,
    point 4): the nearest name, or all of them when they are few (the forms of government)."""

    def __init__(self, rules: Rules, lang: str) -> None:
        en = lang == "en"
        self.buildings = NameIndex((n, (b.name_en,)) for n, b in rules.buildings.items())
        self.techs = NameIndex((n, (t.name_en,)) for n, t in rules.techs.items())
        self.governments = NameIndex(
            ((g.key, (g.name_ru, g.name_en)) for g in rules.governments.values()),
            {g.key: g.name_en if en else g.name_ru for g in rules.governments.values()},
        )



def lang_of(tables: Tables) -> str:
    """The campaign's language from its meta tab («Язык»): "en" or "ru" (the default)."""
    _tab, meta = _meta(tables, [])
    return "en" if str(meta.get("lang") or "").strip().lower() == "en" else "ru"


P = ParamSpec("P")
R = TypeVar("R")


def in_campaign_language(fn: Callable[Concatenate[Tables, P], R]) -> Callable[Concatenate[Tables, P], R]:
    """Runs `fn(tables, ...)` with the texts in the campaign's own language (i18n.using): the
    entry points of the ruleset (check, resolve, report) speak the language of the campaign."""

    @wraps(fn)
    def run(tables: Tables, *args: P.args, **kwargs: P.kwargs) -> R:
        with i18n.using(lang_of(tables)):
            return fn(tables, *args, **kwargs)

    return run


@in_campaign_language
def decode(tables: Tables, tab_ids: dict[str, str] | None = None) -> Decoded:
    """Read and check the whole campaign; raise CampaignError listing every problem (in the
    campaign's language). ``tab_ids`` (read title -> stable id, on Google) lets renamed tabs be
    followed exactly."""
    problems: list[Problem] = []
    meta_tab, meta = _meta(tables, problems)
    rules = load_rules(tables, problems)
    turn = 0
    if meta_tab:
        try:
            turn = int(str(meta.get("turn", "")).strip().split(".")[0])
            if turn < 1:
                raise ValueError
        except ValueError:
            problems.append(
                Problem(
                    meta_tab, 0, "B", _("открытый ход должен быть целым ≥ 1, а не {v!r}").format(v=meta.get("turn"))
                )
            )
    campaign = Campaign(
        title=str(meta.get("title") or ""),
        turn=turn,
        lang="en" if str(meta.get("lang")) == "en" else "ru",
        scenario=str(meta.get("scenario") or ""),
        secret=str(meta.get("secret") or ""),
        campaign_id=str(meta.get("campaign_id") or "").strip(),
        last_resolved=int(meta.get("last_resolved") or 0) if str(meta.get("last_resolved") or "0").isdigit() else 0,
    )
    tabs: dict[str, str] = {}
    hints = _Hints(rules, campaign.lang)

    # provinces first: states refer to them
    tab, grid, cols = _grid(tables, "provinces", problems)
    tabs["provinces"] = tab
    rd = CellReader(tab, cols, problems, _bounds(PROVINCES))
    for row, rec in records(grid, cols):
        name = rd.text(row, rec, "name", required=True)
        if not name:
            continue
        if name in campaign.provinces:
            rd.bad(
                row,
                "name",
                _("провинция «{name}» записана дважды (первый раз в строке {row})").format(
                    name=name, row=campaign.provinces[name].row
                ),
            )
            continue
        buildings = [_known(b, rules.buildings) for b in rd.items(row, rec, "buildings")]
        for b in buildings:
            if rules.buildings and b not in rules.buildings:
                rd.bad(row, "buildings", _("неизвестная постройка «{b}»").format(b=b) + hints.buildings.suggest(b))
        campaign.provinces[name] = Province(
            name=name,
            owner=rd.text(row, rec, "owner"),
            terrain=rd.text(row, rec, "terrain"),
            specialisation=rd.text(row, rec, "specialisation"),
            coastal=rd.flag(row, rec, "coastal"),
            sea_zones=rd.ints(row, rec, "sea_zones"),
            buildings=buildings,
            row=row,
        )

    tab, grid, cols = _grid(tables, "states", problems)
    tabs["states"] = tab
    rd = CellReader(tab, cols, problems, _bounds(STATES))
    for row, rec in records(grid, cols):
        name = rd.text(row, rec, "name", required=True)
        if not name:
            continue
        if name in campaign.states:
            rd.bad(
                row,
                "name",
                _("государство «{name}» записано дважды (первый раз в строке {row})").format(
                    name=name, row=campaign.states[name].row
                ),
            )
            continue
        gov_text = rd.text(row, rec, "government", required=True)
        gov = rules.government(gov_text) if gov_text else None
        if gov_text and gov is None and rules.governments:
            rd.bad(
                row,
                "government",
                _("неизвестная форма правления «{gov_text}»").format(gov_text=gov_text)
                + hints.governments.suggest(gov_text),
            )
        techs = [_known(t, rules.techs) for t in rd.items(row, rec, "techs")]
        for t in techs:
            if rules.techs and t not in rules.techs:
                rd.bad(row, "techs", _("неизвестная технология «{t}»").format(t=t) + hints.techs.suggest(t))
        path_text = rd.text(row, rec, "path")
        path = PATHS.get(norm(path_text), "") if path_text else "eastern"
        if not path:
            rd.bad(
                row,
                "path",
                _("путь должен быть «западный» или «восточный», а не «{path_text}»").format(path_text=path_text),
            )
        lo, hi = (int(rules.params.get("stability_min", -3)), int(rules.params.get("stability_max", 3)))
        campaign.states[name] = State(
            name=name,
            government=gov.key if gov else gov_text,
            capital=rd.text(row, rec, "capital"),
            stability=rd.integer(row, rec, "stability", 0, lo, hi),
            treasury=rd.number(row, rec, "treasury"),
            science=rd.number(row, rec, "science"),
            techs=techs,
            player=rd.text(row, rec, "player"),
            path=path or "eastern",
            ai=rd.flag(row, rec, "ai"),
            missed=rd.integer(row, rec, "missed", 0, 0),
            excused=rd.flag(row, rec, "excused") if "excused" in cols else False,
            famine=rd.integer(row, rec, "famine", 0, 0),
            peace=rd.integer(row, rec, "peace", 0, 0),
            armed=rd.integer(row, rec, "armed", 0, 0),
            color=rd.text(row, rec, "color"),
            row=row,
        )
    owners = {p.owner for p in campaign.provinces.values()}
    for st in campaign.states.values():
        cap = campaign.provinces.get(st.capital)
        if not st.capital and st.name in owners:
            problems.append(
                Problem(
                    tab,
                    st.row,
                    rd.where("capital"),
                    _("у государства «{name}» есть провинции, но не указана столица").format(name=st.name),
                )
            )
        elif st.capital and cap is None:
            problems.append(
                Problem(
                    tab,
                    st.row,
                    rd.where("capital"),
                    _("столица «{capital}» — нет такой провинции").format(capital=st.capital),
                )
            )
        elif cap is not None and cap.owner != st.name:
            problems.append(
                Problem(
                    tab,
                    st.row,
                    rd.where("capital"),
                    _("столица «{capital}» принадлежит «{owner}», а не «{name}»").format(
                        capital=st.capital, owner=cap.owner, name=st.name
                    )
                    if cap.owner
                    else _("столица «{capital}» ничья: провинция должна принадлежать «{name}»").format(
                        capital=st.capital, name=st.name
                    ),
                )
            )
    prov_tab = tabs["provinces"]
    for p in campaign.provinces.values():
        if p.owner and p.owner not in campaign.states:
            problems.append(
                Problem(
                    prov_tab,
                    p.row,
                    "",
                    _("владелец «{owner}» провинции «{name}» — нет такого государства").format(
                        owner=p.owner, name=p.name
                    ),
                )
            )

    tab, grid, cols = _grid(tables, "population", problems)
    tabs["population"] = tab
    rd = CellReader(tab, cols, problems, _bounds(POPULATION))
    seen: dict[str, int] = {}
    for row, rec in records(grid, cols):
        name = rd.text(row, rec, "province", required=True)
        if not name:
            continue
        prov = campaign.provinces.get(name)
        if prov is None:
            rd.bad(
                row,
                "province",
                _("нет такой провинции «{name}» на листе «{prov_tab}»").format(name=name, prov_tab=prov_tab),
            )
            continue
        if name in seen:
            rd.bad(
                row,
                "province",
                _("население «{name}» записано дважды (строки {seen} и {row})").format(
                    name=name, seen=seen[name], row=row
                ),
            )
            continue
        seen[name] = row
        prov.population = {s: rd.integer(row, rec, s, 0, 0) for s in STRATA}

    tab, grid, cols = _grid(tables, "adjacency", problems)
    tabs["adjacency"] = tab
    rd = CellReader(tab, cols, problems, _bounds(ADJACENCY))
    for row, rec in records(grid, cols):
        a, b = rd.text(row, rec, "a", required=True), rd.text(row, rec, "b", required=True)
        for key, name in (("a", a), ("b", b)):
            if name and name not in campaign.provinces:
                rd.bad(row, key, _("нет такой провинции «{name}»").format(name=name))
        kind_text = rd.text(row, rec, "kind") or "суша"
        kind = BORDER_KINDS.get(norm(kind_text))
        if kind is None:
            rd.bad(
                row,
                "kind",
                _("граница должна быть «суша», «река» или «пролив», а не «{kind_text}»").format(kind_text=kind_text),
            )
        if a in campaign.provinces and b in campaign.provinces and kind:
            campaign.borders.append(Border(a, b, kind, rd.text(row, rec, "strait")))

    tab, grid, cols = _grid(tables, "seas", problems)
    tabs["seas"] = tab
    rd = CellReader(tab, cols, problems, _bounds(SEAS))
    for row, rec in records(grid, cols):
        zone = rd.integer(row, rec, "zone", 0, 1)
        if zone:
            campaign.seas[zone] = SeaZone(zone, rd.text(row, rec, "name"), rd.ints(row, rec, "neighbours"))

    gm_tab = find_tab(tables, GM_EVENTS)
    if gm_tab is not None and tables[gm_tab]:
        cols = GM_EVENTS.locate(gm_tab, tables[gm_tab][0], problems)
        rd = CellReader(gm_tab, cols, problems, _bounds(GM_EVENTS))
        for row, rec in records(tables[gm_tab], cols):
            event = rd.text(row, rec, "event", required=True)
            if event and rules.events and not _event_key(rules, event):
                rd.bad(
                    row,
                    "event",
                    _("неизвестное событие «{event}» (есть: {known})").format(
                        event=event, known=", ".join(rules.events)
                    ),
                )
                continue
            campaign.gm_events.append(
                GMEvent(
                    rd.integer(row, rec, "turn", 0, 1),
                    _event_key(rules, event) or event,
                    rd.text(row, rec, "target"),
                    row,
                )
            )
    _read_forces(tables, campaign, rules, problems)
    found = tabset.locate(tables, campaign, tab_ids)
    order_tabs = _order_tabs(tables, found, problems)
    archived = archived_inputs(tables, found)
    if problems:
        raise CampaignError(problems)
    return Decoded(campaign, rules, meta_tab, tabs, order_tabs, meta, found, archived)


def _read_forces(tables: Tables, c: Campaign, rules: Rules, problems: list[Problem]) -> None:
    """Armies, fleets and diplomacy (tabs optional in a campaign made before war existed)."""
    known_states = set(c.states) | {BARBARIANS}
    tab = find_tab(tables, ARMIES)
    if tab is not None and tables[tab]:
        cols = ARMIES.locate(tab, tables[tab][0], problems)
        rd = CellReader(tab, cols, problems, _bounds(ARMIES))
        for row, rec in records(tables[tab], cols):
            name = rd.text(row, rec, "name", required=True)
            state, prov = rd.text(row, rec, "state", required=True), rd.text(row, rec, "province", required=True)
            if name in c.armies:
                rd.bad(row, "name", _("армия «{name}» записана дважды").format(name=name))
                continue
            if state and state not in known_states:
                rd.bad(row, "state", _("нет такого государства «{state}»").format(state=state))
            if prov and prov not in c.provinces:
                rd.bad(row, "province", _("нет такой провинции «{prov}»").format(prov=prov))
            units = {u: rd.integer(row, rec, u, 0, 0) for u in LAND_UNITS}
            c.armies[name] = Army(name, state, prov, {u: n for u, n in units.items() if n}, row)
    tab = find_tab(tables, FLEETS)
    if tab is not None and tables[tab]:
        cols = FLEETS.locate(tab, tables[tab][0], problems)
        rd = CellReader(tab, cols, problems, _bounds(FLEETS))
        for row, rec in records(tables[tab], cols):
            name = rd.text(row, rec, "name", required=True)
            state = rd.text(row, rec, "state", required=True)
            if name in c.fleets:
                rd.bad(row, "name", _("флот «{name}» записан дважды").format(name=name))
                continue
            if state and state not in known_states:
                rd.bad(row, "state", _("нет такого государства «{state}»").format(state=state))
            zone = rd.integer(row, rec, "zone", 0, 1)
            if zone and c.seas and zone not in c.seas:
                rd.bad(row, "zone", _("нет морской зоны {zone}").format(zone=zone))
            ships = {u: rd.integer(row, rec, u, 0, 0) for u in SHIPS}
            cargo = parse_units(rd.text(row, rec, "cargo"))
            if cargo is None:
                rd.bad(row, "cargo", _("непонятные войска на борту: пишите «2 ТП, 1 ЛК»"))
                cargo = {}
            c.fleets[name] = Fleet(name, state, zone, {u: n for u, n in ships.items() if n}, cargo, row)
    tab = find_tab(tables, ROUTES)
    if tab is not None and tables[tab]:
        cols = ROUTES.locate(tab, tables[tab][0], problems)
        rd = CellReader(tab, cols, problems, _bounds(ROUTES))
        for row, rec in records(tables[tab], cols):
            route = Route(
                rd.text(row, rec, "seller", required=True),
                rd.text(row, rec, "src", required=True),
                rd.text(row, rec, "good", required=True),
                rd.text(row, rec, "dst", required=True),
                rd.text(row, rec, "buyer"),
                rd.integer(row, rec, "since", 0, 0),
                rd.integer(row, rec, "distance", 0, 0),
                rd.text(row, rec, "path"),
                rd.text(row, rec, "state"),
                rd.number(row, rec, "seller_income"),
                rd.number(row, rec, "buyer_income"),
                row,
            )
            for key, name in (("src", route.src), ("dst", route.dst)):
                if name and name not in c.provinces:
                    rd.bad(row, key, _("нет такой провинции «{name}»").format(name=name))
            if route.seller and route.seller not in c.states:
                rd.bad(row, "seller", _("нет такого государства «{seller}»").format(seller=route.seller))
            c.routes.append(route)
    tab = find_tab(tables, TRANSIT)
    if tab is not None and tables[tab]:
        cols = TRANSIT.locate(tab, tables[tab][0], problems)
        rd = CellReader(tab, cols, problems, _bounds(TRANSIT))
        for row, rec in records(tables[tab], cols):
            owner, to = rd.text(row, rec, "owner", required=True), rd.text(row, rec, "to", required=True)
            for key, name in (("owner", owner), ("to", to)):
                if name and name not in c.states:
                    rd.bad(row, key, _("нет такого государства «{name}»").format(name=name))
            c.transit.add((owner, to))
    tab = find_tab(tables, DIPLOMACY)
    if tab is not None and tables[tab]:
        cols = DIPLOMACY.locate(tab, tables[tab][0], problems)
        rd = CellReader(tab, cols, problems, _bounds(DIPLOMACY))
        for row, rec in records(tables[tab], cols):
            a, b = rd.text(row, rec, "a", required=True), rd.text(row, rec, "b", required=True)
            for key, name in (("a", a), ("b", b)):
                if name and name not in c.states:
                    rd.bad(row, key, _("нет такого государства «{name}»").format(name=name))
            kind = RELATIONS.get(norm(rd.text(row, rec, "relation")))
            if kind is None:
                rd.bad(row, "relation", _("отношение должно быть «война», «мир», «союз» или «вассалитет»"))
                continue
            c.relations.append(Relation(a, b, kind, rd.integer(row, rec, "since", 0, 0)))


def parse_units(text: str) -> dict[str, int] | None:
    """«2 ТП, 1 ЛК» -> {"ТП": 2, "ЛК": 1}; None if unreadable."""
    out: dict[str, int] = {}
    for part in re.split(r"[;,]", text or ""):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(\d+)\s*(\S+)", part)
        if not m:
            return None
        unit = naming.code("unit", m.group(2))
        if unit not in LAND_UNITS:
            return None
        out[unit] = out.get(unit, 0) + int(m.group(1))
    return out


def units_text(units: dict[str, int], order: tuple[str, ...] = LAND_UNITS, lang: str | None = None) -> str:
    """«2 ТП, 1 ЛК», the types as the campaign's language writes them («2 HI, 1 LC» in English)."""
    lang = lang or i18n.current()
    return ", ".join(f"{units[u]} {naming.shown('unit', u, lang)}" for u in order if units.get(u))


def armies_grid(c: Campaign, lang: str) -> Grid:
    grid: Grid = [ARMIES.header(lang)]
    for a in c.armies.values():
        if a.size():
            grid.append([a.name, a.state, a.province, *[a.units.get(u) or None for u in LAND_UNITS]])
    return grid


def fleets_grid(c: Campaign, lang: str) -> Grid:
    grid: Grid = [FLEETS.header(lang)]
    for f in c.fleets.values():
        if f.size():
            ships = [f.ships.get(u) or None for u in SHIPS]
            grid.append([f.name, f.state, f.zone, *ships, units_text(f.cargo, lang=lang)])
    return grid


def diplomacy_grid(c: Campaign, lang: str) -> Grid:
    grid: Grid = [DIPLOMACY.header(lang)]
    i = 1 if lang == "en" else 0
    for r in c.relations:
        grid.append([r.a, r.b, RELATION_TEXT[r.kind][i], r.since or None])
    return grid


def routes_grid(c: Campaign, lang: str) -> Grid:
    grid: Grid = [ROUTES.header(lang)]
    for r in c.routes:
        grid.append(
            [
                r.seller,
                r.src,
                r.good,
                r.dst,
                r.buyer,
                r.since,
                r.distance or None,
                r.path,
                r.status,
                to_cell(r.seller_income),
                to_cell(r.buyer_income),
            ]
        )
    return grid


def transit_grid(c: Campaign, lang: str) -> Grid:
    return [TRANSIT.header(lang), *[[owner, to, None] for owner, to in sorted(c.transit)]]


def _event_key(rules: Rules, text: str) -> str | None:
    for key, card in rules.events.items():
        if norm(text) in (norm(key), norm(card.name_ru), norm(card.name_en)):
            return key
    return None


def order_state(tab: str) -> str | None:
    """The state named by an order tab's title («Приказы — Египет»), or None if not an order tab."""
    for prefix in ORDER_TAB_PREFIX.values():
        head = prefix.strip()
        if tab.startswith(head):
            return tab[len(head) :].strip(" —-–:")
    return None


def _order_tabs(tables: Tables, found: tabset.CampaignTabs, problems: list[Problem]) -> dict[str, OrderTab]:
    """The order tab of every played state, found by what the program created (tabset.locate):
    never a tab someone added, never the tab of a state under AI."""
    out: dict[str, OrderTab] = {}
    for state, tab in found.orders.items():
        grid = tables[tab]
        if not grid:
            problems.append(Problem(tab, 1, "", _("лист приказов пуст: нет строки заголовков")))
            continue
        cols = ORDERS.locate(tab, grid[0], problems)
        out[state] = OrderTab(tab, state, cols, grid)
    return out


ARCHIVED_INPUTS: tuple[str, ...] = ("action", "object", "where", "to", "qty")  # cleared by resolve, archived
NOTE_FIELDS: tuple[str, ...] = ("comment",)  # an input that alone makes no order, kept by resolve


def archived_inputs(tables: Tables, found: tabset.CampaignTabs) -> dict[tuple[int | str, str, int], tuple[str, ...]]:
    """(turn, state, row) -> the inputs «Архив приказов» keeps for that order row (the core's
    ordertab.archived_inputs on this game's archive tab and columns)."""
    tab = found.log(ARCHIVE)
    grid = tables.get(tab or "") or []
    if not grid:
        return {}
    return ordertab.archived_inputs(grid, ARCHIVE.locate(tab or "", grid[0], []), ARCHIVED_INPUTS, "turn", "state")


def row_inputs(row: OrderRow) -> tuple[str, ...]:
    """A row's inputs as «Архив приказов» keeps them (for archived_inputs)."""
    return ordertab.row_inputs(row, ARCHIVED_INPUTS)


def raw_echo(row: OrderRow) -> str:
    """The echo of a row that could not be parsed: its inputs as typed (each shortened), no comment."""
    return ordertab.raw_echo(row, ORDER_INPUT_FIELDS[:5])


# ---------------------------------------------------------------- encoding


def _cell(value: Fraction | int | str | None) -> Cell:
    if isinstance(value, Fraction):
        return to_cell(value)
    return value


def states_grid(c: Campaign, rules: Rules, lang: str) -> Grid:
    grid: Grid = [STATES.header(lang)]
    for s in c.states.values():
        gov = rules.governments.get(s.government)
        grid.append(
            [
                s.name,
                s.player,
                gov.name(lang) if gov else s.government,
                PATH_TEXT.get(s.path, (s.path, s.path))[1 if lang == "en" else 0],
                s.stability,
                _cell(s.treasury),
                _cell(s.science),
                "; ".join(s.techs),
                s.capital,
                ("yes" if lang == "en" else "да") if s.ai else ("no" if lang == "en" else "нет"),
                s.missed,
                ("yes" if lang == "en" else "да") if s.excused else None,
                s.famine,
                s.peace,
                s.armed or None,
                s.color,
            ]
        )
    return grid


def provinces_grid(c: Campaign, lang: str) -> Grid:
    grid: Grid = [PROVINCES.header(lang)]
    yes, no = ("yes", "no") if lang == "en" else ("да", "нет")
    for p in c.provinces.values():
        grid.append(
            [
                p.name,
                p.owner,
                p.terrain,
                p.specialisation,
                yes if p.coastal else no,
                ", ".join(map(str, p.sea_zones)),
                "; ".join(p.buildings),
            ]
        )
    return grid


def population_grid(c: Campaign, lang: str) -> Grid:
    grid: Grid = [POPULATION.header(lang)]
    for p in c.provinces.values():
        grid.append([p.name, *[p.population.get(s, 0) for s in STRATA]])
    return grid


def adjacency_grid(c: Campaign, lang: str) -> Grid:
    grid: Grid = [ADJACENCY.header(lang)]
    for b in c.borders:
        grid.append([b.a, b.b, BORDER_TEXT[b.kind][1 if lang == "en" else 0], b.strait])
    return grid


def seas_grid(c: Campaign, lang: str) -> Grid:
    grid: Grid = [SEAS.header(lang)]
    for z in sorted(c.seas.values(), key=lambda z: z.zone):
        grid.append([z.zone, z.name, ", ".join(map(str, z.neighbours))])
    return grid


def ledger_rows(entries: list[LedgerEntry]) -> Grid:
    """The ledger tab's rows, its words (phase, category, unit) in the current language."""
    return [
        [
            e.turn,
            e.state,
            ledger_word(e.phase),
            ledger_word(e.category),
            to_cell(e.amount),
            ledger_word(e.resource),
            e.reason,
            e.order_ref,
        ]
        for e in entries
    ]


def ledger_word(word: str) -> str:
    """A phase, category or unit of the ledger in the current language: the phases keep them in
    Russian as keys (the balance sums by them); only what is shown is translated (msgctxt «ledger»)."""
    return _.pgettext("ledger", word) if word else word
