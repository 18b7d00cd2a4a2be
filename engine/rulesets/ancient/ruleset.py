"""The ancient-world ruleset (seed 000): a campaign's creation and what the GM writes outside a turn.

A new campaign's tabs (`new_workbook`), its meta tab, the demo's sample orders, the players' own
report tabs and the columns players write after a turn. Checking and resolving a turn is the
core's window runner driving window.py's `Ancient`: this module holds no turn of its own.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine.core import history, i18n
from engine.core.audience import player
from engine.core.dice import commitment, new_secret, turn_seed
from engine.core.errors import CampaignError
from engine.core.meta import new_campaign_id
from engine.core.money import amount, fmt
from engine.core.tables import (
    AUDIENCE_GM,
    Cell,
    Changeset,
    Grid,
    ReplaceTab,
    Tables,
    TabSpec,
    WorkbookSpec,
    WriteBlock,
)

from . import codec, dropdowns, naming, public
from .calendar import CALENDAR, chronicle_seed
from .messages import _
from .model import Army, Border, Campaign, Fleet, Province, Relation, SeaZone, State
from .rules_loaders import load_rules
from .speech import count
from .tabset import PRIVATE_TAB
from .templates import RULES_FILES, load_scenario, rules_grid
from .vocab import (
    ADJACENCY,
    ARCHIVE,
    ARMIES,
    BALANCE_TAB,
    CHRONICLE,
    DIPLOMACY,
    FLEETS,
    GM_EVENTS,
    LEDGER,
    META,
    META_KEYS,
    ORDER_ROWS,
    ORDER_TAB_PREFIX,
    ORDERS,
    POPULATION,
    PROVINCES,
    ROUTES,
    SEAS,
    STATES,
    STRATA,
    TRANSIT,
)

NAME = "ancient"

# ------------------------------------------------------------------ creation


def campaign_from_scenario(data: dict[str, Any], title: str, lang: str, secret: str) -> Campaign:
    """A turn-1 campaign from a scenario file's data."""
    c = Campaign(title=title, turn=1, lang=lang, scenario=str(data.get("name", "")), secret=secret)
    for p in data.get("provinces", []):
        pop = dict.fromkeys(STRATA, 0)
        pop.update({k: int(v) for k, v in (p.get("population") or {}).items()})
        c.provinces[p["name"]] = Province(
            name=p["name"],
            owner=p.get("owner") or "",
            terrain=p.get("terrain", ""),
            specialisation=p.get("specialisation", ""),
            coastal=bool(p.get("coastal")),
            sea_zones=tuple(int(z) for z in p.get("sea_zones") or ()),
            buildings=list(p.get("buildings") or []),
            population=pop,
        )
    for s in data.get("states", []):
        c.states[s["name"]] = State(
            name=s["name"],
            government=s.get("government", "despotism"),
            capital=s.get("capital", ""),
            stability=int(s.get("stability", 0)),
            treasury=amount(s.get("treasury", 0)),
            science=amount(s.get("science", 0)),
            techs=list(s.get("techs") or []),
            player=s.get("player") or "",
            path=s.get("path", "eastern"),
            ai=bool(s.get("ai")),
            color=s.get("color", ""),
        )
    for b in data.get("adjacency", []):
        kind = {"суша": "land", "река": "river", "пролив": "strait"}.get(b[2] if len(b) > 2 else "суша", "land")
        c.borders.append(Border(b[0], b[1], kind, b[3] if len(b) > 3 else ""))
    for z in data.get("sea_zones", []):
        c.seas[int(z["zone"])] = SeaZone(
            int(z["zone"]), z.get("name", ""), tuple(int(n) for n in z.get("neighbours", ()))
        )
    for a in data.get("armies", []) or []:
        c.armies[a["name"]] = Army(a["name"], a["state"], a["province"], dict(a.get("units") or {}))
    for f in data.get("fleets", []) or []:
        c.fleets[f["name"]] = Fleet(
            f["name"], f["state"], int(f["zone"]), dict(f.get("ships") or {}), dict(f.get("cargo") or {})
        )
    for r in data.get("relations", []) or []:
        c.relations.append(
            Relation(
                r[0], r[1], {"война": "war", "мир": "peace", "союз": "alliance", "вассалитет": "vassal"}.get(r[2], r[2])
            )
        )
    return c


def meta_grid(c: Campaign, lang: str, status: str, seed: str | None = None) -> Grid:
    """The meta tab of `c`; `seed` (the one resolve just revealed) goes in the core's structured row
    that `verify` reads (engine/core/meta.py), after the rows a new campaign has."""
    i = 1 if lang == "en" else 0
    values: dict[str, Cell] = {
        "title": c.title,
        "ruleset": NAME,
        "scenario": c.scenario,
        "lang": lang,
        "turn": c.turn,
        "stage": _("приказы"),
        "status": status,
        "last_resolved": c.last_resolved,
        "commitment": commitment(turn_seed(c.secret, c.turn)),
        "campaign_id": c.campaign_id,  # the secret itself is in no cell (issue 15, point 7)
    }
    if seed:
        values["seed"] = seed
    return [META.header(lang)] + [[META_KEYS[k][i], v] for k, v in values.items()]


def open_status(turn: int, lang: str) -> str:
    with i18n.using(lang):
        return _("Приём приказов на ход {turn}").format(turn=turn)


def order_tab_name(state: str, lang: str) -> str:
    return ORDER_TAB_PREFIX["en" if lang == "en" else "ru"] + state


# the tabs a GM or a player prints: across the page, one page wide, the header on every page
PRINTED: dict[str, Any] = {"print_landscape": True, "print_fit_width": True, "print_title_rows": 1}


def new_workbook(
    scenario: str = "demo",
    lang: str = "ru",
    title: str | None = None,
    secret: str | None = None,
    data: dict[str, Any] | None = None,
    campaign_id: str | None = None,
) -> WorkbookSpec:
    """Every tab of a new campaign, open for orders for turn 1 (`data`: a scenario given directly,
    e.g. a generated one; otherwise the template named `scenario`). The secret is in no tab: the
    spec carries it beside them for the GM's store, under `campaign_id` (a new uuid by default).
    Every text is in the campaign's language `lang`."""
    with i18n.using(lang):
        return _new_workbook(scenario, lang, title, secret, data, campaign_id)


def _new_workbook(
    scenario: str,
    lang: str,
    title: str | None,
    secret: str | None,
    data: dict[str, Any] | None,
    campaign_id: str | None,
) -> WorkbookSpec:
    if data is None and scenario.startswith("generated:"):
        from .generate import generate

        data = generate(int(scenario.split(":", 1)[1]))
    data = data if data is not None else load_scenario(scenario)
    scenario_name = str(data.get(f"name_{lang}") or data.get("name", scenario))
    c = campaign_from_scenario(data, title or scenario_name, lang, secret or new_secret())
    c.scenario = scenario_name
    if lang != "ru":  # the campaign's names in its language (naming.py): it runs on them
        naming.localise_campaign(c, naming.translator(lang, data))
    c.campaign_id = campaign_id or new_campaign_id()
    problems: list = []
    rules_tabs = {key: rules_grid(key, lang) for key in RULES_FILES}
    tables: Tables = {layout.tab_name(lang): rules_tabs[key] for key, (_f, layout) in RULES_FILES.items()}
    rules = load_rules(tables, problems)
    if problems:
        raise CampaignError(problems)
    balance_grid, _notes = public.balance(c, c, [], lang)
    player_states = public.chart_states(c)
    tabs: list[TabSpec] = [
        TabSpec(META.tab_name(lang), meta_grid(c, lang, open_status(1, lang)), META.widths(), kind="meta"),
        TabSpec(
            BALANCE_TAB[lang],
            balance_grid,
            {1: 22, **{i: 12 for i in range(2, public.WIDTH + 1)}},
            frozen_cols=1,
            kind="report",
            number_formats=public.number_formats(),
            highlights=public.highlights(len(c.states)),
            format_rows=len(c.states) + 40,
            **PRINTED,
        ),
        TabSpec(
            public.HISTORY_TAB[lang],
            [public.HISTORY_COLUMNS[lang]],
            {1: 6, 2: 22, **{i: 11 for i in range(3, 11)}},
            kind="report",
        ),
        TabSpec(
            public.CHARTS_TAB[lang],
            public.charts_grid([], player_states, lang),
            {1: 8},
            kind="report",
            charts=public.chart_specs(len(player_states), lang),
        ),
        TabSpec(STATES.tab_name(lang), codec.states_grid(c, rules, lang), STATES.widths(), frozen_cols=1),
        TabSpec(PROVINCES.tab_name(lang), codec.provinces_grid(c, lang), PROVINCES.widths(), frozen_cols=1),
        TabSpec(POPULATION.tab_name(lang), codec.population_grid(c, lang), POPULATION.widths(), frozen_cols=1),
        TabSpec(ADJACENCY.tab_name(lang), codec.adjacency_grid(c, lang), ADJACENCY.widths()),
        TabSpec(SEAS.tab_name(lang), codec.seas_grid(c, lang), SEAS.widths()),
        TabSpec(ARMIES.tab_name(lang), codec.armies_grid(c, lang), ARMIES.widths(), frozen_cols=1),
        TabSpec(FLEETS.tab_name(lang), codec.fleets_grid(c, lang), FLEETS.widths(), frozen_cols=1),
        TabSpec(DIPLOMACY.tab_name(lang), codec.diplomacy_grid(c, lang), DIPLOMACY.widths()),
        TabSpec(ROUTES.tab_name(lang), codec.routes_grid(c, lang), ROUTES.widths()),
        TabSpec(TRANSIT.tab_name(lang), codec.transit_grid(c, lang), TRANSIT.widths()),
    ]
    lists, sizes = dropdowns.lists_tab(c, rules, lang)
    for st in c.states.values():
        if st.ai:
            continue
        tabs.append(order_tab_spec(st.name, lang, sizes))
    tabs += [
        TabSpec(
            CHRONICLE.tab_name(lang),
            [CHRONICLE.header(lang), [0, first_entry(c, lang)]],
            CHRONICLE.widths(),
            kind="report",
            wrap_columns=CHRONICLE.wrapped(),
        ),
        TabSpec(
            LEDGER.tab_name(lang), [LEDGER.header(lang)], LEDGER.widths(), kind="report", wrap_columns=LEDGER.wrapped()
        ),
        # GM-only (issue 15 p10): the GM's planned events, every state's orders, the snapshots (which
        # hold every order tab); with private orders they live in a spreadsheet only the GM can open
        TabSpec(GM_EVENTS.tab_name(lang), [GM_EVENTS.header(lang)], GM_EVENTS.widths(), audience=AUDIENCE_GM),
        TabSpec(
            ARCHIVE.tab_name(lang),
            [ARCHIVE.header(lang)],
            ARCHIVE.widths(),
            kind="report",
            wrap_columns=ARCHIVE.wrapped(),
            audience=AUDIENCE_GM,
        ),
        TabSpec(
            history.title(lang),
            [history.header()],
            {1: 6, 2: 20, 3: 7, 4: 40},
            hidden=True,
            kind="meta",
            audience=AUDIENCE_GM,
        ),
    ]
    tabs += [
        TabSpec(layout.tab_name(lang), rules_tabs[key], layout.widths(), kind="rules")
        for key, (_f, layout) in RULES_FILES.items()
    ]
    tabs.append(lists)  # what the order tabs' dropdowns offer
    ai = tuple(s.name for s in c.states.values() if s.ai)
    return WorkbookSpec(c.title, tabs, secret=c.secret, campaign_id=c.campaign_id, ai_sides=ai)


def first_entry(c: Campaign, lang: str) -> str:
    """The chronicle's first line: the campaign, its states and how many of them are played."""
    players = [s.name for s in c.states.values() if not s.ai]
    with i18n.using(lang):
        return _(
            "Создана кампания «{title}»: {states}, из них у игроков {played}. Открыт приём приказов на ход 1."
        ).format(title=c.title, states=count(len(c.states), "государство"), played=len(players))


def order_tab_spec(state: str, lang: str, sizes: dropdowns.ListSizes | None = None) -> TabSpec:
    """A new order tab: the header, ORDER_ROWS empty rows, dropdowns on every row (see dropdowns.py;
    `sizes` None: the action words only), input columns kept as text — a «1.2» typed into «Кол-во»
    stays what was typed instead of becoming the 1st of February (issue 16, point 10)."""
    rows: Grid = [ORDERS.header(lang)] + [[None] * len(ORDERS.columns) for _ in range(ORDER_ROWS)]
    validations = dropdowns.order_validations(lang, sizes)
    text = {ORDERS.col(key): "@" for key in codec.ORDER_INPUT_FIELDS}
    return TabSpec(
        order_tab_name(state, lang),
        rows,
        ORDERS.widths(),
        validations=validations,
        number_formats=text,
        format_rows=len(rows),
        kind="orders",
        owner=state,
        editable_columns=(1, len(ORDERS.columns) - 4),
        tab_color="#4A7A3D",
        wrap_columns=ORDERS.wrapped(),  # a long reason shows whole
        **PRINTED,
    )


def later_inputs(tables: Tables) -> dict[str, list[int]]:
    """The columns (0-based) of each order tab that players write after a turn (their next
    orders): verify skips a row whose input cells differ from the turn's -- the row is a new
    order; the turn's own record of it stays in «Архив приказов», which verify compares in full."""
    out: dict[str, list[int]] = {}
    for name, grid in tables.items():
        if codec.order_state(name) is None or not grid:
            continue
        cols = ORDERS.locate(name, grid[0], [])
        out[name] = [cols[k] for k in codec.ORDER_INPUT_FIELDS if k in cols]
    return out


@codec.in_campaign_language
def private_tabs(tables: Tables, order_tabs: Collection[str] | None = None) -> list[ReplaceTab]:
    """Each played state's own report of the last resolved turn, as a tab that lives beside the
    state's order tab (only those in ``order_tabs`` when given): in a private-orders campaign only
    that player and the GM can open it.  Before the first turn the tab says so."""
    from .report import private_grid, report_source

    source = report_source(tables)
    c = source.d.campaign
    out: list[ReplaceTab] = []
    for ot in source.d.order_tabs.values():
        st = c.states.get(ot.state)
        if st is None or st.ai or (order_tabs is not None and ot.tab not in order_tabs):
            continue
        name = PRIVATE_TAB.get(c.lang, PRIVATE_TAB["ru"]).format(ot.state)
        spec = TabSpec(name, [], {1: 34, 2: 16, 3: 16, 4: 60}, frozen_rows=1, kind="report",
                       audience=player(ot.state))
        if c.last_resolved < 1:
            grid: Grid = [[_("{state}: ходов ещё не было — отчёт появится после первого хода").format(state=ot.state)]]
        else:
            grid = private_grid(tables, ot.state, c.last_resolved, source)
        out.append(ReplaceTab(name, grid, spec, beside=ot.tab))
    return out


__all__ = ["CALENDAR", "NAME", "chronicle_seed", "fmt", "new_workbook"]


@codec.in_campaign_language
def demo_changes(tables: Tables) -> Changeset:
    """Write the demo's sample orders into the order tabs (a fresh demo campaign)."""
    from .demo import sample_orders

    d = codec.decode(tables)
    changes = Changeset()
    for state, rows in sample_orders(d.campaign, d.rules, d.campaign.lang).items():
        ot = d.order_tabs.get(state)
        if ot is None:
            continue
        for i, row in enumerate(rows):
            for key, value in row.items():
                changes.blocks.append(WriteBlock(ot.tab, 2 + i, ot.cols[key] + 1, [[value]]))
    return changes
