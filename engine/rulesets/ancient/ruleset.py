"""The ancient-world ruleset (seed 000): create a campaign, check orders, resolve a turn.

This module wires the pieces together: codec (sheet <-> types), orders (parse/echo),
phases (the rules, in the seed's order) and the report (ledger, chronicle, order results).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from engine.core import draw, history, i18n, ordertab, session
from engine.core import summary as summaries
from engine.core import tabs as tabs_core
from engine.core.audience import player
from engine.core.dice import Dice, commitment, new_secret, turn_seed
from engine.core.errors import CampaignError, InvalidOrder, Problem, TurnMismatch
from engine.core.i18n import N_
from engine.core.ledger import movements
from engine.core.meta import new_campaign_id
from engine.core.money import amount, fmt
from engine.core.orders import OrderResult, OrderRow, Status
from engine.core.ruleset import SyncResult
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
    column_letter,
    is_blank,
)
from engine.core.turn import Phase, run_phases

from . import codec, dropdowns, naming, orderchecks, public, tabset
from . import orders as order_mod
from .calendar import CALENDAR, chronicle_seed
from .facts import Report, new_report
from .messages import _
from .model import Army, Border, Campaign, Fleet, Province, Relation, SeaZone, State
from .phases import balance, colonisation, diplomacy, endturn, events, expenses, lot, population, taxes, trade, war
from .resources import MONEY, SHOWN
from .rules_loaders import load_rules
from .speech import count
from .tabset import PRIVATE_TAB
from .templates import RULES_FILES, load_scenario, rules_grid
from .turnorders import TurnOrders
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

PHASES: tuple[Phase[Campaign], ...] = (
    Phase("жребий", lot.run),  # ANC-TURN-07
    Phase("события", events.run),  # 1, ANC-TURN-09
    Phase("население", population.run),  # 2, ANC-TURN-10
    Phase("колонизация", colonisation.run),  # 3, ANC-TURN-11
    Phase("дипломатия", diplomacy.run),  # 4, ANC-TURN-05, ANC-MISC-07
    Phase("маршруты", trade.routes),  # goods on the routes, usable in phase 4 (ANC-TRADE-10)
    Phase("расходы", expenses.run),  # 4, ANC-TURN-12
    Phase("война", war.run),  # «4», ANC-TURN-13
    Phase("налоги", taxes.run),  # 5, ANC-TURN-14
    Phase("торговля", trade.income),  # 6, ANC-TURN-15
    Phase("итоги", endturn.run),  # 7, ANC-TURN-16 (food, science, stability)
    Phase("баланс", balance.run),  # 7, ANC-TURN-16
)

INCOME_BASE = ("налоги", "торговля", "монетный двор", "правление")
EXPENSE_BASE = ("строительство", "стабильность", "правление")


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


# ------------------------------------------------------------------ balance

# ------------------------------------------------------------------ check / resolve


def _read_orders(d: codec.Decoded, vocab: order_mod.Vocabulary, report: Report) -> TurnOrders:
    """Parse this turn's rows.  Every row with input is an order of the open turn: resolve clears
    the input cells of the rows it executes (see docs/orders.md, «Which turn a row belongs to»).
    Only a campaign resolved before that rule has rows of earlier turns with input left; such a
    row is history while it still holds exactly what «Архив приказов» keeps for it."""
    out = TurnOrders()
    for state, ot in d.order_tabs.items():
        rows: list[OrderRow] = []
        for row, stamp in codec.candidate_rows(ot):
            if (
                stamp is not None
                and stamp < d.campaign.turn
                and d.archived.get((stamp, state, row.row)) == codec.row_inputs(row)
            ):
                ot.history.append(row.row)
                continue
            try:
                parsed: order_mod.Order | str = order_mod.parse(row, vocab)
                echo = parsed.describe()
            except InvalidOrder as exc:
                parsed = str(exc).replace(f"{row.tab}!", "", 1)  # the row's own tab goes without saying
                echo = codec.raw_echo(row)
            rows.append(row)
            out.parsed[row.ref] = parsed
            if isinstance(parsed, str):
                report.result(row.ref, Status.REJECTED, parsed, echo)
            else:
                report.result(row.ref, Status.REJECTED, "", echo)  # placeholder until executed
        ot.rows = rows
        out.rows[state] = rows
    return out


def run_turn(
    d: codec.Decoded,
    stop_after: str | None = None,
    seed: str | None = None,
    after_each: Any = None,
    dice: Dice | None = None,
) -> tuple[Campaign, Report, TurnOrders]:
    """Resolve the open turn in memory: the new world and the report. Touches no sheet.
    `seed` replaces the seed derived from the secret (verification of a published turn); `dice`
    replaces the dice altogether (a check's blind dice)."""
    c = d.campaign
    report = new_report(c.turn, c.lang)
    for text in d.warnings:
        report.warn(text)
    for problem in _order_tab_problems(d).values():
        report.warn(_("{problem} — его приказы не прочитаны").format(problem=problem))
    vocab = order_mod.Vocabulary(c, d.rules)
    orders = _read_orders(d, vocab, report)
    orderchecks.warn_no_actions_with_orders(orders, report)
    ai_stability = int(d.rules.params.get("ai_stability", 0))
    for st in c.states.values():
        if st.ai:  # ANC-AI-02: an AI state's stability is always the fixed value, whatever the sheet says
            st.stability = ai_stability
    world = c.copy()
    report.bind(world)  # the ledger moves the working copy's treasuries and science
    report.facts.start_stability = {n: s.stability for n, s in c.states.items()}
    report.facts.start_government = {n: s.government for n, s in c.states.items()}
    report.facts.opening = {n: s.treasury for n, s in c.states.items()}
    dice = dice or Dice(seed or turn_seed(c.secret, c.turn))
    world = run_phases(world, PHASES, orders, dice, d.rules, report, stop_after=stop_after, after_each=after_each)
    report.facts.dice = dice.log
    for state in orders.rows:
        for row, parsed in orders.of(state):
            res = report.results[row.ref]
            if not isinstance(parsed, str) and res.status is Status.REJECTED and not res.reason:
                report.result(row.ref, Status.REJECTED, _("приказ не исполнен (фаза не дошла до него)"))
    return world, report, orders


def _order_tab_problems(d: codec.Decoded) -> dict[str, str]:
    """Played state -> why its order tab cannot be read (missing, or several look-alikes)."""
    found = d.found
    if found is None:
        return {}
    lang = d.campaign.lang
    out = {state: tabset.order_tab_problem(state, title, None, lang) for state, title in found.missing_orders.items()}
    for state, tabs in found.ambiguous_orders.items():
        out[state] = tabset.order_tab_problem(state, "", tabs, lang)
    return out


def summary(mode: str, before: Campaign, after: Campaign, report: Report) -> dict[str, Any]:
    """What the CLI prints and `--json` gives (engine/core/summary.py): per state its movement in each
    shown resource, the money's also at the top level of the state (opening, income, expenses,
    closing) as before, and its stability; the game's words for its table and closing line."""
    moved = movements(report.ledger, after, after.states, SHOWN, opening=before)
    sides = [summaries.SideLine(name, moved[name], st.ai, {"stability": st.stability})
             for name, st in after.states.items()]
    return summaries.build(
        mode, NAME, report, SHOWN, sides, unit=lambda r: codec.ledger_word(r.unit), flat=MONEY,
        side_title=_("Государство"),  # the CLI table's first column
        columns=[summaries.Column("stability", _.pgettext("столбец", "Ст"))],
        dice_note=_("Без жребия хода ({dice}): доход, расход, казна и Ст могут измениться при разрешении — "
                    "исход зависит от жребия хода."),
        open_tabs=_("листы баланса, журнала, казны и приказов"),
    )


def _phase_hook(on_phase: Callable[[str], None] | None) -> Callable[[str, Any, Report], None] | None:
    """run_phases' after_each for a caller that only wants the phase names (progress bars)."""
    if on_phase is None:
        return None
    return lambda name, _world, _report: on_phase(codec.ledger_word(name))  # shown in the campaign's language


DICE_NOTE = N_("исход зависит от жребия хода")
LOT_NOTE = N_("очерёдность государств")


def _at_resolve(reason: str) -> str:
    """A checked row's reason is what the resolve would say: «при разрешении: …»."""
    return _("при разрешении: {reason}").format(reason=reason)


@codec.in_campaign_language
def check(
    tables: Tables,
    secret: str | None = None,
    on_phase: Callable[[str], None] | None = None,
    tab_ids: dict[str, str] | None = None,
) -> SyncResult:
    """Judge every order as resolve would, and write only the status, reason and echo columns.

    A check shows nothing of the turn's dice (issue 15, point 6; docs/reliability.md): the turn is
    run with blind dice (engine/core/dice.py) -- no random event, no random birth, the lot in the
    states' name order -- and once more with the lot reversed. An order whose result differs
    between the two depends on the lot and says only that; a result of a state that an undrawn
    event or birth may reach keeps its dice-free forecast and says that the dice may change it.
    ``secret`` is ignored (kept for callers): a check is the same whatever the secret.
    ``on_phase`` hears the name of each phase of the first run as it ends; ``tab_ids`` (title ->
    stable id, on Google) follows renamed tabs exactly.  A missing order tab is a warning here
    (players can still check theirs) and an error in resolve; a check also blanks a stale turn
    stamp of a rewritten row."""
    del secret  # a check must not depend on it
    d = codec.decode(tables, tab_ids)
    world, report, orders = run_turn(d, after_each=_phase_hook(on_phase), dice=Dice.blind_dice())
    probe_world, probe, _probe_orders = run_turn(codec.decode(tables, tab_ids), dice=Dice.blind_dice(reverse=True))
    lang = d.campaign.lang
    reach = report.facts.dice_reach
    note, lot_note = _(DICE_NOTE), _(LOT_NOTE)
    for state in orders.rows:
        for row, parsed in orders.of(state):
            res = report.results[row.ref]
            if isinstance(parsed, str):  # refused as written: no dice can change that
                continue
            other = probe.results.get(row.ref)
            if other is None or (other.status, other.reason) != (res.status, res.reason):
                reach.setdefault(state, set()).add(lot_note)
                report.results[row.ref] = OrderResult(Status.ACCEPTED, f"{note} ({lot_note})", res.understood)
                continue
            res = ordertab.as_checked(res, _at_resolve)
            if reach.get(state):
                res = OrderResult(res.status, f"{res.reason} — {note}" if res.reason else note, res.understood)
            report.results[row.ref] = res
    changes = Changeset()
    for ot in d.order_tabs.values():
        changes.blocks += ordertab.status_strips(ot, report.results, lang)
    s = summary("check", d.campaign, world, report)
    lot_moves = summary("check", d.campaign, probe_world, probe)["states"]
    for st, other_st in zip(s["states"], lot_moves):
        if st != other_st:
            reach.setdefault(st["name"], set()).add(lot_note)
        st["dice"] = sorted(reach.get(st["name"], ()))  # what the forecast of this state leaves out
    return SyncResult("check", d.campaign.turn, changes, report, world, s)


@codec.in_campaign_language
def resolve(
    tables: Tables,
    expect_turn: int | None = None,
    seed: str | None = None,
    secret: str | None = None,
    on_phase: Callable[[str], None] | None = None,
    tab_ids: dict[str, str] | None = None,
) -> SyncResult:
    """One whole turn: read, resolve, and the changes for one atomic write (with the pre-turn
    snapshot appended to the history). `secret` comes from the GM's store when the sheet has none;
    ``on_phase`` hears the name of each phase as it ends; ``tab_ids`` (title -> stable id, on
    Google) follows renamed tabs exactly and is recorded in the registry tab for the next turns.
    A played state whose order tab cannot be found stops the turn: it never silently sends nothing."""
    d = codec.decode(tables, tab_ids)
    c = d.campaign
    if secret:
        c.secret = secret
    if expect_turn is not None and expect_turn != c.turn:
        done = _(" — он уже разрешён") if expect_turn <= c.last_resolved else ""
        raise TurnMismatch(
            _("Открыт ход {turn}, а просили разрешить ход {expect_turn}{done}. Ничего не изменено.").format(
                turn=c.turn, expect_turn=expect_turn, done=done
            )
        )
    if not c.secret and not seed:
        raise CampaignError(_("нет секрета кампании: без него ход не разрешить (см. docs/reliability.md)"))
    missing = _order_tab_problems(d)
    if missing:
        tail = _(". Ничего не изменено.")
        raise CampaignError([Problem(d.tabs["states"], c.states[st].row, "", m + tail) for st, m in missing.items()])
    world, report, _orders = run_turn(d, seed=seed, after_each=_phase_hook(on_phase))
    if (recount := draw.chronicle_line(tables)) is not None:  # the turn a rollback reopened: first line
        report.chronicle.insert(0, recount)
    lang = c.lang
    seed = seed or turn_seed(c.secret, c.turn)
    report.tell(
        _("Зерно хода {turn}: {seed} (sha256 = {hash}, опубликован до хода).").format(
            turn=c.turn, seed=seed, hash=commitment(seed)
        )
    )
    at = CALENDAR.cursor(c.turn)
    stamp = session.stamp(at, CALENDAR, lang)  # the turn number: a one-stage game
    world.turn = session.advance(CALENDAR, at).turn
    world.last_resolved = c.turn
    changes = Changeset()
    t = d.tabs
    changes.replace += [
        ReplaceTab(t["states"], codec.states_grid(world, d.rules, lang)),
        ReplaceTab(t["provinces"], codec.provinces_grid(world, lang)),
        ReplaceTab(t["population"], codec.population_grid(world, lang)),
        ReplaceTab(_existing(tables, (ARMIES.ru, ARMIES.en)) or ARMIES.tab_name(lang), codec.armies_grid(world, lang)),
        ReplaceTab(_existing(tables, (FLEETS.ru, FLEETS.en)) or FLEETS.tab_name(lang), codec.fleets_grid(world, lang)),
        ReplaceTab(
            _existing(tables, (DIPLOMACY.ru, DIPLOMACY.en)) or DIPLOMACY.tab_name(lang),
            codec.diplomacy_grid(world, lang),
        ),
        ReplaceTab(_existing(tables, (ROUTES.ru, ROUTES.en)) or ROUTES.tab_name(lang), codec.routes_grid(world, lang)),
        ReplaceTab(
            _existing(tables, (TRANSIT.ru, TRANSIT.en)) or TRANSIT.tab_name(lang), codec.transit_grid(world, lang)
        ),
    ]
    bal_tab = _existing(tables, BALANCE_TAB.values()) or BALANCE_TAB[lang]
    grid, notes = public.balance(c, world, report.ledger.entries, lang, int(d.rules.params.get("balance_sort", 0)))
    changes.replace.append(ReplaceTab(bal_tab, grid))
    changes.clear_notes.append(bal_tab)  # rows are re-sorted and may be fewer: last turn's notes go
    changes.notes += [(bal_tab, r, col, text) for r, col, text in notes if text]
    hist_tab = _existing(tables, public.HISTORY_TAB.values()) or public.HISTORY_TAB[lang]
    new_rows = public.history_rows(c.turn, world, report.ledger.entries, d.rules)
    changes.blocks += session.append_rows(tables, hist_tab, [public.HISTORY_COLUMNS[lang]], new_rows)
    charts_tab = _existing(tables, public.CHARTS_TAB.values()) or public.CHARTS_TAB[lang]
    past = [r for r in tables.get(hist_tab, [])[1:] if r and not is_blank(r[0])]
    charted = [str(v) for v in (tables.get(charts_tab) or [[None]])[0][1:] if v] or public.chart_states(world)
    changes.replace.append(ReplaceTab(charts_tab, public.charts_grid(past + new_rows, charted, lang)))
    changes.blocks += _append(tables, LEDGER, lang, codec.ledger_rows(report.ledger.entries), d)
    changes.blocks += _append(
        tables, CHRONICLE, lang, [[c.turn, line] for line in [_turn_title(c.turn, lang), *report.chronicle]], d
    )
    archive_rows: Grid = []
    rank = {name: i for i, name in enumerate(c.states)}  # the states tab's order, not the tabs': a re-run
    for ot in sorted(d.order_tabs.values(), key=lambda ot: rank.get(ot.state, len(rank))):  # from history agrees
        grid, arch = ordertab.resolved_grid(ot, report.results, stamp, lang, codec.ARCHIVED_INPUTS)
        changes.replace.append(ReplaceTab(ot.tab, grid))
        archive_rows += arch
    changes.blocks += _append(tables, ARCHIVE, lang, archive_rows, d)
    changes.blocks += session.history_blocks(tables, at)
    if tab_ids and d.found is not None:
        registry = tabs_core.registry_grid(d.found.match, tab_ids)
        reg_tab = tabs_core.registry_in(tables) or tabs_core.registry_title(lang)
        if tables.get(reg_tab) != registry:
            changes.replace.append(ReplaceTab(reg_tab, registry, tabs_core.registry_spec(registry, reg_tab)))
    meta = meta_grid(world, lang, open_status(world.turn, lang), seed=seed)
    changes.marker.append(session.meta_marker(tables, d.meta_tab, meta))  # an old secret row below is blanked
    s = summary("resolve", c, world, report)
    return SyncResult("resolve", c.turn, changes, report, world, s)


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


def _turn_title(turn: int, lang: str) -> str:
    with i18n.using(lang):
        return _("=== Ход {turn} ===").format(turn=turn)


def _existing(tables: Tables, names: Any) -> str | None:
    for n in names:
        if n in tables:
            return n
    return None


def _append(tables: Tables, layout: Any, lang: str, rows: Grid, d: codec.Decoded | None = None) -> list[WriteBlock]:
    """Rows appended to a log tab found by what the program created (tabset.locate; created in
    the campaign's language, with a warning, if missing)."""
    from engine.core.layout import find_tab

    found = d.found.log(layout) if d is not None and d.found is not None else find_tab(tables, layout)
    tab = found or layout.tab_name(lang)
    return session.append_rows(tables, tab, [layout.header(lang)], rows)


def column(key: str) -> str:
    return column_letter(ORDERS.col(key))


__all__ = ["CALENDAR", "NAME", "SyncResult", "check", "chronicle_seed", "fmt", "new_workbook", "resolve", "run_turn"]


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
