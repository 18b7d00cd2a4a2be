"""A new civ1 campaign: the world of a scenario (templates/civ1/scenarios/<name>.yaml) and every tab
it opens with, each with its audience (issue 18, point 4), the meta holding the open cursor.

Public: the meta, «Порядок хода», «Нации», «Карта мира», «Города», «Договоры», «Намерения», «Бои», «Журнал» and
the rules tabs.  The GM's: «Казна», «Постройки», «Войска», «Технологии», «Шпионы», «Почта»,
«Ресурсы», «Архив приказов», «_История».  Each nation's own: «Приказы — <нация>» and
«Держава — <нация>»."""

from __future__ import annotations

from importlib import resources
from typing import Any

from engine.core import history, meta
from engine.core.audience import GM, PUBLIC, player
from engine.core.cursor import Cursor
from engine.core.dice import commitment, cursor_seed
from engine.core.errors import CampaignError
from engine.core.tables import Cell, Grid, TabSpec, Validation, WorkbookSpec

from . import codec, hexes
from .facts import Facts
from .model import Card, City, Deck, Nation, Tile, World
from .templates import rules_tables
from .vocab import (
    ARCHIVE,
    BATTLES,
    CALENDAR,
    CHRONICLE,
    GM_LAYOUTS,
    LEDGER,
    META,
    META_KEYS,
    NAME,
    ORDER_ROWS,
    ORDERS,
    REPORT,
    TURN,
    orders_tab,
    realm_tab,
)


def scenario_data(name: str) -> dict[str, Any]:
    """The scenario file shipped as templates/civ1/scenarios/<name>.yaml."""
    path = resources.files("templates") / "civ1" / "scenarios" / f"{name}.yaml"
    if not path.is_file():
        raise CampaignError(f"у «Цивилизации» нет сценария «{name}»; есть: demo")
    from engine.core import yamlload  # only a new campaign reads its scenario: no YAML for a check

    data: dict[str, Any] = yamlload.safe_load(path.read_text(encoding="utf-8"))
    return data


def world_of(data: dict[str, Any], lang: str = "ru") -> World:
    """The world a scenario starts in: its map (rows of terrain letters, `legend`), its villages,
    and each nation with its capital, deck and opening balances (`start`); in an English campaign
    the nations and capitals by their English names (`name_en`, `capital_en`) where it gives them."""
    legend: dict[str, str] = data.get("legend") or {}
    world = World(title=str(data.get("title_en" if lang == "en" else "title") or data.get("title") or ""),
                  turn=1, stage=CALENDAR.first().stage, lang=lang)
    for r, line in enumerate(data.get("map") or []):
        for q, letter in enumerate(str(line)):
            if letter not in legend:
                raise CampaignError(f"сценарий: в строке карты {r} буква «{letter}» не из легенды")
            world.tiles[(q, r)] = Tile((q, r), legend[letter])
    for text in data.get("villages") or []:
        h = hexes.parse(text)
        if h is None or h not in world.tiles:
            raise CampaignError(f"сценарий: деревня на гексе «{text}», которого нет на карте")
        world.tiles[h].village = True
    start: dict[str, Any] = data.get("start") or {}
    for i, rec in enumerate(data.get("nations") or [], start=1):
        en = lang == "en"
        name = str((rec.get("name_en") if en else None) or rec["name"])
        capital = str((rec.get("capital_en") if en else None) or rec.get("capital") or "")
        world.nations[name] = Nation(name, leader=str(rec.get("leader") or ""), seat=int(rec.get("seat") or i),
                                     capital=capital, power=int(start.get("power", 0)),
                                     coins=int(start.get("coins", 0)), science=int(start.get("science", 0)),
                                     vp_honesty=int(start.get("vp_honesty", 1)))
        world.decks[name] = Deck([Card(str(u)) for u in start.get("deck") or []])
        if rec.get("hex") is not None:
            h = hexes.parse(rec["hex"])
            if h is None or h not in world.tiles:
                raise CampaignError(f"сценарий: столица нации {name} на гексе «{rec['hex']}», которого нет на карте")
            world.cities[world.nations[name].capital] = City(world.nations[name].capital, name, h)
    return world


def meta_grid(at: Cursor, lang: str, secret: str | None, campaign_id: str, seed: str | None,
              title: str, scenario: str = "demo") -> Grid:
    """The meta tab with `at` open (meta.cursor_rows), its seed's commitment (none without the
    secret: a verify's re-run), the campaign id and the seed the last resolve revealed."""
    i = 1 if lang == "en" else 0
    rows: list[list[Cell]] = [
        META.header(lang),
        [META_KEYS["title"][i], title],
        [meta.RULESET[i], NAME],
        [META_KEYS["scenario"][i], scenario],
        [meta.LANG[i], lang],
        *meta.cursor_rows(at, CALENDAR, lang),
        [meta.COMMITMENT[i], commitment(cursor_seed(secret, at)) if secret else None],
        [meta.CAMPAIGN_ID[i], campaign_id],
        [meta.REVEALED_SEED[i], seed],
    ]
    return rows


def order_spec(nation: str, lang: str, rows: int = ORDER_ROWS) -> TabSpec:
    """A nation's order tab: the header and blank rows, the stage column a list of both stages."""
    grid: Grid = [ORDERS.header(lang), *[[None] * len(ORDERS.columns) for _ in range(rows)]]
    stages = tuple(s.name(lang) for s in CALENDAR.stages)
    return TabSpec(orders_tab(nation, lang), grid, kind="orders", owner=nation,
                   editable_columns=(1, ORDERS.col("comment")), validations=(Validation(2, rows + 1, 1, stages),),
                   widths=ORDERS.widths(), wrap_columns=ORDERS.wrapped(), audience=player(nation))


def new_workbook(scenario: str, lang: str, secret: str, campaign_id: str, title: str | None = None,
                 data: dict[str, Any] | None = None) -> WorkbookSpec:
    """Every tab of a new campaign of `scenario` (or of `data`), «1:государство» open."""
    if lang not in ("ru", "en"):
        raise CampaignError(f"у «Цивилизации» языки ru и en, а просили «{lang}»")
    data = data or scenario_data(scenario)
    world = world_of(data, lang)
    title = title or world.title or "Цивилизация 1.0"
    at = CALENDAR.first()
    rules = codec.read_rules(rules_tables(lang))
    state = codec.encode(world, lang, rules)
    gm_titles = {layout.tab_name(lang) for layout in GM_LAYOUTS}
    tabs = [TabSpec(META.tab_name(lang), meta_grid(at, lang, secret, campaign_id, None, title, scenario),
                    kind="meta", audience=PUBLIC),
            TabSpec(TURN.tab_name(lang), codec.turn_grid(world, world.seats(), lang), audience=PUBLIC)]
    tabs += [TabSpec(t, g, audience=GM if t in gm_titles else PUBLIC) for t, g in state.items()]
    from .window import battle_table

    tabs.append(TabSpec(BATTLES.tab_name(lang), [battle_table(Facts(), lang, None, None)[0]], audience=PUBLIC))
    tabs.append(TabSpec(CHRONICLE.tab_name(lang), [CHRONICLE.header(lang)], audience=PUBLIC,
                        widths=CHRONICLE.widths()))
    tabs += [TabSpec(layout.tab_name(lang), [layout.header(lang)], audience=GM, widths=layout.widths())
             for layout in (LEDGER, ARCHIVE)]
    tabs += [order_spec(n, lang) for n in world.seats()]
    tabs += [TabSpec(realm_tab(n, lang), codec.realm_grid(world, n, rules, (), lang), kind=REPORT, owner=n,
                     audience=player(n)) for n in world.seats()]
    tabs += [TabSpec(t, g, kind="rules", audience=PUBLIC) for t, g in rules_tables(lang).items()]
    tabs.append(TabSpec(history.HISTORY_TAB, [history.header()], hidden=True, audience=GM))
    return WorkbookSpec(title, tabs, secret=secret, campaign_id=campaign_id, hidden_information=True)


def tables_of(spec: WorkbookSpec) -> dict[str, Grid]:
    """A workbook spec as the tables a backend would read."""
    return {t.name: [list(r) for r in t.rows] for t in spec.tabs}

