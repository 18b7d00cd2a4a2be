"""The civ1 campaign as tables and back: `decode` reads the state tabs, the rules tabs and the meta
into a `World` and `Rules` (every problem named by tab, row and column); `encode` writes a `World`
as the grid of every state tab of spec §2 (and each nation's own «Держава» view).

What a nation holds alone is read only from the GM's tabs (vocab.GM_LAYOUTS); the public tabs
carry nothing of it, and a nation's «Держава» tab is written from the world, never read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping, Sequence

from engine.core import history, i18n, meta
from engine.core.cursor import Cursor
from engine.core.errors import CampaignError, Problem
from engine.core.i18n import N_
from engine.core.layout import Layout
from engine.core.rules_tab import StateTabs, TabReader
from engine.core.tables import Cell, Grid, Tables

from . import hexes
from .declared import STATE_FIELDS
from .messages import _
from .model import READY, Card, City, Deck, Intention, Nation, Spy, Tile, Treaty, World
from .names import listed, named
from .rules import Rules
from .rules_loaders import TEXTS as RULES_TEXTS
from .rules_loaders import load_rules
from .vocab import (
    CALENDAR,
    CARD_STATES,
    CITIES_TAB,
    CITY_STATUS,
    INTENTIONS,
    MAIL,
    MAP,
    META_KEYS,
    NATIONS,
    SPIES,
    TECH_GRID,
    TECHS,
    TREASURY,
    TREATIES,
    TURN,
    UNITS,
    WORKS,
    code,
    realm_tab,
    word,
)

#: How a problem of a civ1 state tab is worded (msgids of the civ1 catalogue).
STATE_TEXTS = dataclasses.replace(RULES_TEXTS, no_tab=N_("нет листа «{tab}» ({other})"))
#: The civ1 state tabs: read by the core's reader, every field as declared.STATE_FIELDS declares it.
STATE_TABS = StateTabs(STATE_TEXTS, STATE_FIELDS)


def _names(items: Mapping[str, object]) -> dict[str, str]:
    """Every name a rules table accepts for its items (the key, the Russian and the English name),
    each with the name a problem shows: the item's in the language of the texts."""
    out: dict[str, str] = {}
    for key, item in items.items():
        shown = str(getattr(item, "name_en", "") or key) if i18n.current() == "en" else key
        for alias in (key, str(getattr(item, "name_ru", "") or key), str(getattr(item, "name_en", "") or key)):
            out.setdefault(alias, shown)
    return out


def _rules_refs(rules: Rules) -> dict[str, Collection[str]]:
    """The rules' names a state tab's fields are checked against (declared.STATE_FIELDS' ``ref``)."""
    return {"terrain": _names(rules.terrain), "techs": _names(rules.techs), "units": _names(rules.units),
            "buildings": _names(rules.buildings)}


def split(cell: Cell) -> list[str]:
    """«библиотека; казармы» -> ['библиотека', 'казармы']."""
    return [x.strip() for x in str(cell or "").replace("\n", ";").split(";") if x.strip()]


def read_rules(tables: Tables) -> Rules:
    """The campaign's rules tabs; a CampaignError lists every problem."""
    problems: list[Problem] = []
    rules = load_rules(tables, problems)
    if problems:
        raise CampaignError(problems)
    return rules



def _stolen(tab: TabReader, row: int, text: str) -> dict[str, int]:
    """«Похищено»: «технология: ход; …» — what a spy stole and the turn it costs half (CIV-SPY-02)."""
    out: dict[str, int] = {}
    for part in text.split(";"):
        tech, _sep, turn = part.rpartition(":")
        if not part.strip():
            continue
        if not tech.strip() or not turn.strip().isdigit():
            tab.bad(row, "stolen", _("пишут «технология: ход», а там «{value}»").format(value=part.strip()))
            continue
        out[tech.strip()] = int(turn)
    return out

def decode(tables: Tables, at: Cursor | None = None, rules: Rules | None = None) -> World:
    """The world of the campaign at its open window (or `at`); a CampaignError lists every problem
    of the state tabs, each by tab, row and column: every field is checked as declared.STATE_FIELDS
    declares it (its range, its words, the names the rules and the campaign know), and a nation's
    next card must lie in its deck.  ``rules`` are read from the campaign when not given (their own
    problems are :func:`read_rules`'s)."""
    problems: list[Problem] = []
    at = at or meta.open_cursor(tables, CALENDAR)
    if rules is None:
        rules = load_rules(tables, [])
    refs: dict[str, Collection[str]] = _rules_refs(rules)
    world = World(title=meta.text(tables, META_KEYS["title"]), turn=at.turn, stage=at.stage,
                  lang=meta.lang(tables) or "ru", campaign_id=meta.text(tables, meta.CAMPAIGN_ID))
    kept = history.entries(tables)
    world.last_resolved = kept[-1].cursor.key() if kept else ""  # «15:cities»: the end of the game reads it

    def read(layout: Layout) -> TabReader:
        return STATE_TABS.reader(tables, layout, problems)

    for r, v in read(NATIONS).checked(refs):
        name = v["name"]
        if not name:
            continue
        world.nations[name] = Nation(
            name, leader=v["leader"], seat=v["seat"] or 0, capital=v["capital"], government=v["government"],
            vp_honesty=v["vp_honesty"] or 0, missed=v["missed"] or 0, excused=v["excused"] == "yes",
            ai=v["ai"] == "yes", row=r)
        world.decks[name] = Deck()
    refs["nations"] = set(world.nations)
    treasury = read(TREASURY)
    next_card: dict[str, tuple[int, int]] = {}
    for r, v in treasury.checked(refs):
        n = world.nations.get(v["name"])
        if n is None:
            continue
        n.power, n.coins, n.science, n.vp_tech = v["power"] or 0, v["coins"] or 0, v["science"] or 0, v["vp_tech"] or 0
        n.spies = v["spies"] or 0
        next_card[n.name] = (r, v["next_card"] or 0)
        world.decks[n.name].next = v["next_card"] or 0
        n.resources = list(v["resources"])
        n.stolen = _stolen(treasury, r, v["stolen"])
    for _r, v in read(MAP).checked(refs):
        h = v["hex"]
        if h is not None:
            world.tiles[h] = Tile(h, v["terrain"], v["village"] == "yes", v["resource"])
    refs["map"] = set(world.tiles)
    _cities(tables, world, problems, refs)
    units = read(UNITS)
    for r, v in sorted(units.checked(refs), key=lambda x: (str(x[1]["nation"]), x[1]["number"] or 0)):
        state = code(CARD_STATES, v["state"])
        if state is None:
            units.bad(r, "state", _("непонятное «{text}»: готов, отступил, разгромлен, уничтожен").format(
                text=v["state"]))
        if v["nation"] in world.decks:
            world.decks[v["nation"]].cards.append(Card(v["unit"], state or READY))
    for name, (r, nxt) in next_card.items():
        size = len(world.decks[name].cards)
        if nxt > size:
            treasury.bad(r, "next_card", _("следующая карта {next} — в колоде «{nation}» всего {size}").format(
                next=nxt, nation=name, size=size))
    for _r, v in read(TECHS).checked(refs):
        if v["nation"] in world.nations and v["tech"]:
            world.nations[v["nation"]].techs[v["tech"]] = v["turn"] or 0
    for _r, v in read(SPIES).checked(refs):
        if v["nation"] in world.nations:
            world.spies.append(Spy(v["nation"], v["number"] or 1, v["where"], v["busy"] == "yes"))
    for _r, v in read(TREATIES).checked(refs):
        world.treaties.append(Treaty(v["turn"] or 0, tuple(v["parties"]), v["kind"], v["until"] or 0,
                                     v["breached_by"]))
    for _r, v in read(INTENTIONS).checked(refs):
        if v["nation"] in world.nations:
            world.intentions.append(Intention(v["nation"], v["city"], v["wonder"]))
    for _r, v in read(MAIL).checked(refs):
        world.letters.append((v["sender"], v["to"], v["text"]))
    if problems:
        raise CampaignError(problems)
    return world


def _cities(tables: Tables, world: World, problems: list[Problem], refs: dict[str, Collection[str]]) -> None:
    """«Города» (public) and «Постройки» (the GM's: what each city holds alone)."""
    cities = STATE_TABS.reader(tables, CITIES_TAB, problems)
    for r, v in cities.checked(refs):
        status = code(CITY_STATUS, v["status"])
        if status is None:
            cities.bad(r, "status", _("непонятное «{text}»: основан, передан, завоёван или —").format(
                text=v["status"]))
        if not v["name"] or v["nation"] not in world.nations or v["hex"] is None:
            continue
        world.cities[v["name"]] = City(v["name"], v["nation"], v["hex"], v["population"] or 1,
                                       wonders=list(v["wonders"]), status=status or "", row=r)
    refs["cities"] = set(world.cities)
    for _r, v in STATE_TABS.reader(tables, WORKS, problems).checked(refs):
        city = world.cities.get(v["city"])
        if city is None:
            continue
        city.buildings = list(v["buildings"])
        city.hammers = v["hammers"] or 0
        city.counter_spy = v["counter_spy"] == "yes"


# ---------------------------------------------------------------- encode


def _yes(flag: bool, lang: str) -> Cell:
    return ("yes" if lang == "en" else "да") if flag else None


def _grid(layout: Layout, lang: str, rows: Iterable[Sequence[Cell]]) -> Grid:
    return [layout.header(lang), *[list(r) for r in rows]]


def era_of(nation: Nation, rules: Rules) -> int:
    """The highest level among a nation's technologies (0 before the first)."""
    levels = [rules.techs[t].level for t in nation.techs if t in rules.techs]
    return max(levels, default=0)


def _unit_facts(rules: Rules | None, unit: str) -> list[Cell]:
    """A card's class and era as «Правила — Войска» has them (shown, never read back)."""
    if rules is None or unit not in rules.units:
        return [None, None]
    return [rules.units[unit].unit_class, rules.units[unit].era]


def encode(world: World, lang: str = "ru", rules: Rules | None = None) -> dict[str, Grid]:
    """Every state tab of the world (spec §2), by its title in `lang` (with `rules`, each card's
    class and era beside it)."""
    seats = world.seats()
    owner = {c.hex: c for c in world.cities.values()}
    out: dict[str, Grid] = {
        NATIONS.tab_name(lang): _grid(NATIONS, lang, [
            [n.name, n.leader or None, n.seat, n.capital or None, n.government or None, n.vp_honesty,
             n.missed, _yes(n.excused, lang), _yes(n.ai, lang)] for n in (world.nations[s] for s in seats)]),
        TREASURY.tab_name(lang): _grid(TREASURY, lang, [
            [n.name, n.power, n.coins, n.science, n.vp_tech, n.spies, world.decks.get(n.name, Deck()).next,
             ", ".join(n.resources) or None, "; ".join(f"{t}: {turn}" for t, turn in n.stolen.items()) or None]
            for n in (world.nations[s] for s in seats)]),
        MAP.tab_name(lang): _grid(MAP, lang, [
            [hexes.text(h), t.terrain, _yes(t.village, lang), owner[h].name if h in owner else None,
             owner[h].nation if h in owner else None, t.resource or None]
            for h, t in sorted(world.tiles.items(), key=lambda x: (x[0][1], x[0][0]))]),
        CITIES_TAB.tab_name(lang): _grid(CITIES_TAB, lang, [
            [c.name, c.nation, hexes.text(c.hex), c.population, "; ".join(c.wonders) or None,
             word(CITY_STATUS, c.status, lang) or None] for c in world.cities.values()]),
        WORKS.tab_name(lang): _grid(WORKS, lang, [
            [c.name, c.nation, "; ".join(c.buildings) or None, c.hammers, _yes(c.counter_spy, lang)]
            for c in world.cities.values()]),
        UNITS.tab_name(lang): _grid(UNITS, lang, [
            [s, i, card.unit, word(CARD_STATES, card.state, lang), *_unit_facts(rules, card.unit)]
            for s in seats for i, card in enumerate(world.decks.get(s, Deck()).cards, start=1)]),
        TECHS.tab_name(lang): _grid(TECHS, lang, [
            [s, tech, turn or None] for s in seats for tech, turn in world.nations[s].techs.items()]),
        SPIES.tab_name(lang): _grid(SPIES, lang, [
            [s.nation, s.number, s.where or None, _yes(s.busy, lang)] for s in world.spies]),
        TREATIES.tab_name(lang): _grid(TREATIES, lang, [
            [t.turn, "; ".join(t.parties), t.kind, t.until, t.breached_by or None] for t in world.treaties]),
        INTENTIONS.tab_name(lang): _grid(INTENTIONS, lang, [[i.nation, i.city, i.wonder] for i in world.intentions]),
        MAIL.tab_name(lang): _grid(MAIL, lang, [list(letter) for letter in world.letters]),
    }
    if rules is not None:
        out[TECH_GRID.tab_name(lang)] = tech_grid(world, rules, lang)
    return out


def tech_grid(world: World, rules: Rules, lang: str = "ru") -> Grid:
    """The GM's «Технологии — сетка»: a row per technology of «Правила — Технологии» (by level), a
    column per nation (by seat), the turn it learned the technology («0» from the start) or empty;
    a technology a nation knows that the rules do not are listed last.  Only for the GM's book: it
    shows every nation's technologies at once."""
    seats = world.seats()
    known = [t for t in rules.techs]
    extra = sorted({t for s in seats for t in world.nations[s].techs if t not in rules.techs})
    with i18n.using(lang):
        rows = [[named(t, rules), rules.techs[t].level if t in rules.techs else None,
                 *[world.nations[s].techs.get(t) for s in seats]]
                for t in sorted(known, key=lambda t: rules.techs[t].level) + extra]
    return [[*TECH_GRID.header(lang), *seats], *rows]


def turn_grid(world: World, order: Sequence[str], lang: str = "ru") -> Grid:
    """«Порядок хода»: the window just resolved, its first player and the order of play (CIV-TURN-05)."""
    stage = CALENDAR.stage(world.stage).name(lang) if world.stage else ""
    return _grid(TURN, lang, [[world.turn, stage, order[0] if order else None, ", ".join(order) or None]])


def _known(rules: Rules | None, nation: Nation, what: str) -> Cell:
    """A number of the nation's technologies (`Rules.army_size`, `Rules.city_limit`); None without
    rules or for a technology the rules do not know (a GM's typo is the codec's warning elsewhere)."""
    if rules is None:
        return None
    try:
        value: int = getattr(rules, what)(nation.techs)
    except KeyError:
        return None
    return value


def realm_grid(world: World, nation: str, rules: Rules | None, news: Sequence[str] = (), lang: str = "ru") -> Grid:
    """A nation's own tab: its balances, technologies, deck, cities' buildings and hammers, spies,
    the special resources it holds (CIV-CITY-05, «Правила — Ресурсы») and the technologies its spies
    stole (CIV-SPY-02: «в следующий ход снижает цену похищенной технологии вдвое»), and `news`: its
    own ledger lines of the last window (what it alone was told is in its «Донесения» log, every
    window).  Items by their names in `lang`."""
    with i18n.using(lang):
        return _realm_grid(world, nation, rules, news, lang)


def _realm_grid(world: World, nation: str, rules: Rules | None, news: Sequence[str], lang: str) -> Grid:
    en = lang == "en"
    n = world.nations[nation]
    deck = world.decks.get(nation, Deck())
    grid: Grid = [[f"{'Realm' if en else 'Держава'}: {nation}", None]]
    grid += [["Власть" if not en else "Power", n.power], ["монеты" if not en else "coins", n.coins],
             ["наука" if not en else "science", n.science], ["ПО" if not en else "VP", n.vp_honesty + n.vp_tech],
             ["правление" if not en else "government", named(n.government, rules) or None],
             ["эпоха" if not en else "era", era_of(n, rules) if rules else None],
             ["макс. армия" if not en else "max army", _known(rules, n, "army_size")],
             ["предел города" if not en else "city size limit", _known(rules, n, "city_limit")],
             ["шпионы" if not en else "spies", n.spies]]
    grid.append([None, None])
    grid.append(["Технологии" if not en else "Technologies", None])
    grid += [[named(tech, rules), turn or None] for tech, turn in n.techs.items()] or [["—", None]]
    grid.append([None, None])
    grid.append([_("Ресурсы нации"), listed(n.resources, rules) or "—"])
    grid.append([_("Похищенные технологии"), None if n.stolen else "—"])
    grid += [[named(tech, rules), _("вдвое дешевле в ход {turn}").format(turn=turn)] for tech, turn in n.stolen.items()]
    grid.append([None, None])
    grid.append(["Deck" if en else "Колода", f"{'next' if en else 'следующая'}: {deck.next + 1}"])
    grid += [[f"{i}. {named(c.unit, rules)}", word(CARD_STATES, c.state, lang)]
             for i, c in enumerate(deck.cards, start=1)]
    grid.append([None, None])
    grid.append(["Города" if not en else "Cities", None])
    for c in world.cities_of(nation):
        grid.append([c.name, f"{'молотки' if not en else 'hammers'} {c.hammers}; "
                     + ("; ".join(named(b, rules) for b in c.buildings) or "—")
                     + ("; " + _("контршпион") if c.counter_spy else "")])
    if news:
        grid.append([None, None])
        grid.append(["Только для вас" if not en else "For your eyes only", None])
        grid += [[line, None] for line in news]
    return grid


def all_realms(world: World, rules: Rules | None, private: dict[str, list[str]], lang: str = "ru") -> dict[str, Grid]:
    return {realm_tab(s, lang): realm_grid(world, s, rules, private.get(s, ()), lang) for s in world.seats()}
