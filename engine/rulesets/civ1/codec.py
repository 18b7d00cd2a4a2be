"""The civ1 campaign as tables and back: `decode` reads the state tabs, the rules tabs and the meta
into a `World` and `Rules` (every problem named by tab, row and column); `encode` writes a `World`
as the grid of every state tab of spec §2 (and each nation's own «Держава» view).

What a nation holds alone is read only from the GM's tabs (vocab.GM_LAYOUTS); the public tabs
carry nothing of it, and a nation's «Держава» tab is written from the world, never read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.core import history, i18n, meta
from engine.core.cursor import Cursor
from engine.core.errors import CampaignError, Problem
from engine.core.layout import Layout, find_tab, records
from engine.core.tables import Cell, Grid, Tables, column_letter, is_blank

from . import hexes
from .messages import _
from .model import READY, Card, City, Deck, Intention, Nation, Spy, Tile, Treaty, World
from .names import listed, named
from .rules import Rules
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
    YES,
    code,
    realm_tab,
    word,
)


@dataclass
class Tab:
    """One state tab as read: its title, located columns and records; problems go to `problems`."""

    layout: Layout
    problems: list[Problem]
    title: str = ""
    cols: dict[str, int] = field(default_factory=dict)
    rows: list[tuple[int, dict[str, Cell]]] = field(default_factory=list)

    @classmethod
    def read(cls, tables: Tables, layout: Layout, problems: list[Problem], required: bool = True) -> Tab:
        tab = cls(layout, problems)
        tab.title = find_tab(tables, layout) or ""
        if not tab.title:
            if required:
                lang = i18n.current()
                problems.append(Problem(layout.ru, 0, "", _("нет листа «{tab}» ({other})").format(
                    tab=layout.tab_name(lang), other=layout.tab_name("ru" if lang == "en" else "en"))))
            return tab
        grid = tables[tab.title]
        if not grid:
            problems.append(Problem(tab.title, 0, "", _("лист пуст: нет даже строки заголовков")))
            return tab
        tab.cols = layout.locate(tab.title, grid[0], problems)
        tab.rows = records(grid, tab.cols)
        return tab

    def bad(self, row: int, key: str, message: str) -> None:
        col = column_letter(self.cols[key] + 1) if key in self.cols else ""
        header = next((c.header(i18n.current()) for c in self.layout.columns if c.key == key), key)
        self.problems.append(Problem(self.title, row, col, _("столбец «{column}»: {message}").format(
            column=header, message=message)))

    def text(self, rec: dict[str, Cell], key: str) -> str:
        v = rec.get(key)
        return "" if is_blank(v) else str(v).strip()

    def num(self, row: int, rec: dict[str, Cell], key: str, default: int = 0, low: int = 0) -> int:
        v = rec.get(key)
        if is_blank(v):
            return default
        try:
            n = float(str(v).replace(",", "."))
        except ValueError:
            self.bad(row, key, _("не число: «{value}»").format(value=v))
            return default
        if not n.is_integer() or n < low:
            self.bad(row, key, _("нужно целое не меньше {low}, а там «{value}»").format(low=low, value=v))
            return default
        return int(n)

    def yes(self, rec: dict[str, Cell], key: str) -> bool:
        return self.text(rec, key).lower() in YES

    def hex(self, row: int, rec: dict[str, Cell], key: str) -> hexes.Hex | None:
        h = hexes.parse(rec.get(key))
        if h is None:
            self.bad(row, key, _("гекс пишут «q,r» (например «3,4»), а там «{value}»").format(
                value=self.text(rec, key)))
        return h

    def nation(self, row: int, rec: dict[str, Cell], key: str, world: World) -> str | None:
        name = self.text(rec, key)
        if name not in world.nations:
            known = ", ".join(world.seats())
            self.bad(row, key, _("нет нации «{name}»; нации: {known}").format(name=name, known=known))
            return None
        return name


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



def _stolen(tab: Tab, row: int, rec: dict[str, Cell]) -> dict[str, int]:
    """«Похищено»: «технология: ход; …» — what a spy stole and the turn it costs half (CIV-SPY-02)."""
    out: dict[str, int] = {}
    for part in tab.text(rec, "stolen").split(";"):
        tech, _sep, turn = part.rpartition(":")
        if not part.strip():
            continue
        if not tech.strip() or not turn.strip().isdigit():
            tab.bad(row, "stolen", _("пишут «технология: ход», а там «{value}»").format(value=part.strip()))
            continue
        out[tech.strip()] = int(turn)
    return out

def decode(tables: Tables, at: Cursor | None = None) -> World:
    """The world of the campaign at its open window (or `at`); a CampaignError lists every problem
    of the state tabs, each by tab, row and column."""
    problems: list[Problem] = []
    at = at or meta.open_cursor(tables, CALENDAR)
    world = World(title=meta.text(tables, META_KEYS["title"]), turn=at.turn, stage=at.stage,
                  lang=meta.lang(tables) or "ru", campaign_id=meta.text(tables, meta.CAMPAIGN_ID))
    kept = history.entries(tables)
    world.last_resolved = kept[-1].cursor.key() if kept else ""  # «15:cities»: the end of the game reads it
    nations = Tab.read(tables, NATIONS, problems)
    for r, rec in nations.rows:
        name = nations.text(rec, "name")
        if not name:
            nations.bad(r, "name", _("пустое имя нации"))
            continue
        world.nations[name] = Nation(
            name, leader=nations.text(rec, "leader"), seat=nations.num(r, rec, "seat", low=1),
            capital=nations.text(rec, "capital"), government=nations.text(rec, "government"),
            vp_honesty=nations.num(r, rec, "vp_honesty", 0, low=-99), missed=nations.num(r, rec, "missed"),
            excused=nations.yes(rec, "excused"), ai=nations.yes(rec, "ai"), row=r)
        world.decks[name] = Deck()
    treasury = Tab.read(tables, TREASURY, problems)
    for r, rec in treasury.rows:
        name = treasury.nation(r, rec, "name", world)
        if name is None:
            continue
        n = world.nations[name]
        n.power, n.coins = treasury.num(r, rec, "power"), treasury.num(r, rec, "coins")
        n.science, n.vp_tech = treasury.num(r, rec, "science"), treasury.num(r, rec, "vp_tech")
        n.spies = treasury.num(r, rec, "spies")
        world.decks[name].next = treasury.num(r, rec, "next_card")
        n.resources = [x.strip() for x in treasury.text(rec, "resources").split(",") if x.strip()]
        n.stolen = _stolen(treasury, r, rec)
    terrain = Tab.read(tables, MAP, problems)
    for r, rec in terrain.rows:
        h = terrain.hex(r, rec, "hex")
        if h is None:
            continue
        if h in world.tiles:
            terrain.bad(r, "hex", _("гекс {hex} уже описан выше").format(hex=hexes.text(h)))
        world.tiles[h] = Tile(h, terrain.text(rec, "terrain"), terrain.yes(rec, "village"),
                              terrain.text(rec, "resource"))
    _cities(tables, world, problems)
    units = Tab.read(tables, UNITS, problems)
    for r, rec in sorted(units.rows, key=lambda x: (units.text(x[1], "nation"), units.num(x[0], x[1], "number"))):
        name = units.nation(r, rec, "nation", world)
        state = code(CARD_STATES, rec.get("state"))
        if state is None:
            units.bad(r, "state", _("непонятное «{text}»: готов, отступил, разгромлен, уничтожен").format(
                text=units.text(rec, "state")))
        if name is not None:
            world.decks[name].cards.append(Card(units.text(rec, "unit"), state or READY))
    techs = Tab.read(tables, TECHS, problems)
    for r, rec in techs.rows:
        name = techs.nation(r, rec, "nation", world)
        if name is not None:
            world.nations[name].techs[techs.text(rec, "tech")] = techs.num(r, rec, "turn")
    spies = Tab.read(tables, SPIES, problems)
    for r, rec in spies.rows:
        name = spies.nation(r, rec, "nation", world)
        if name is not None:
            world.spies.append(Spy(name, spies.num(r, rec, "number", low=1), spies.text(rec, "where"),
                                   spies.yes(rec, "busy")))
    treaties = Tab.read(tables, TREATIES, problems)
    for r, rec in treaties.rows:
        world.treaties.append(Treaty(treaties.num(r, rec, "turn"), tuple(split(rec.get("parties"))),
                                     treaties.text(rec, "kind"), treaties.num(r, rec, "until"),
                                     treaties.text(rec, "breached_by")))
    intentions = Tab.read(tables, INTENTIONS, problems)
    for r, rec in intentions.rows:
        name = intentions.nation(r, rec, "nation", world)
        if name is not None:
            world.intentions.append(Intention(name, intentions.text(rec, "city"), intentions.text(rec, "wonder")))
    mail = Tab.read(tables, MAIL, problems)
    for _r, rec in mail.rows:
        world.letters.append((mail.text(rec, "sender"), mail.text(rec, "to"), mail.text(rec, "text")))
    if problems:
        raise CampaignError(problems)
    return world


def _cities(tables: Tables, world: World, problems: list[Problem]) -> None:
    """«Города» (public) and «Постройки» (the GM's: what each city holds alone)."""
    cities = Tab.read(tables, CITIES_TAB, problems)
    for r, rec in cities.rows:
        name, nation, h = cities.text(rec, "name"), cities.nation(r, rec, "nation", world), cities.hex(r, rec, "hex")
        status = code(CITY_STATUS, rec.get("status"))
        if status is None:
            cities.bad(r, "status", _("непонятное «{text}»: основан, передан, завоёван или —").format(
                text=cities.text(rec, "status")))
        if not name or nation is None or h is None:
            continue
        if name in world.cities:
            cities.bad(r, "name", _("город «{name}» уже есть выше").format(name=name))
        world.cities[name] = City(name, nation, h, cities.num(r, rec, "population", 1, low=1),
                                  wonders=split(rec.get("wonders")), status=status or "", row=r)
    works = Tab.read(tables, WORKS, problems)
    for r, rec in works.rows:
        city = world.cities.get(works.text(rec, "city"))
        if city is None:
            works.bad(r, "city", _("нет города «{name}» на листе «{tab}»").format(
                name=works.text(rec, "city"), tab=CITIES_TAB.tab_name(i18n.current())))
            continue
        city.buildings = split(rec.get("buildings"))
        city.hammers = works.num(r, rec, "hammers")
        city.counter_spy = works.yes(rec, "counter_spy")


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
    stole (CIV-SPY-02: «в следующий ход снижает цену похищенной технологии вдвое»), and the lines of
    the last window only it may read (facts.private).  Items by their names in `lang`."""
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
