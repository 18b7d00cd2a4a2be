"""The ancient game's scenario hooks: its setup, its order rows, and its own expectations.

The core's runner (engine/core/scenario.py) plays a scenario (docs/scenarios.md) through the real
path; this module builds the ancient campaign a scenario's `setup` describes (`build_tables`),
writes the players' rows into the order tabs (`put_orders`), reads back what a turn wrote in the
ancient tabs (`readback`) and checks the keys only this game has (`expect_game`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from engine.core import scenario as core_scenario
from engine.core.errors import StrategosError
from engine.core.layout import Layout, find_tab, norm
from engine.core.ledger import LedgerEntry
from engine.core.money import amount
from engine.core.ruleset import SyncResult
from engine.core.scenario import FIXED_SECRET, Balance, Readback, ScenarioOutcome, ShownOrder
from engine.core.tables import Cell, Formula, Tables, trim

from . import codec, ruleset
from .model import Army, Fleet, Province, Relation, State
from .resources import RESOURCES
from .templates import RULES_FILES
from .vocab import ARMIES, CHRONICLE, DIPLOMACY, FLEETS, GM_EVENTS, LEDGER, ORDERS, STRATA

# a scenario's world is quiet unless it says otherwise: no random events, no random births
QUIET = {"events_per_turn": {"value": 0}, "growth_chance_percent": {"value": 0}}


def _near(a: Fraction, b: Any) -> bool:
    return a == amount(b)


def build_tables(setup: dict[str, Any]) -> Tables:
    """The campaign tables a scenario starts from: the demo or an empty world, plus patches."""
    lang = setup.get("lang", "ru")
    spec = ruleset.new_workbook(
        scenario=setup.get("scenario", "demo"), lang=lang, title="scenario", secret=setup.get("secret", FIXED_SECRET)
    )
    tables: Tables = {t.name: trim([list(r) for r in t.rows]) for t in spec.tabs}
    d = codec.decode(tables)
    c = d.campaign
    if setup.get("base") == "empty":
        c.states.clear()
        c.provinces.clear()
        c.borders.clear()
        c.armies.clear()
        c.fleets.clear()
        c.relations.clear()
    if "armies" in setup:  # the scenario's armies replace the template's
        c.armies = {
            a["name"]: Army(a["name"], a["state"], a["province"], dict(a.get("units") or {}))
            for a in setup["armies"] or []
        }
    if "fleets" in setup:
        c.fleets = {
            f["name"]: Fleet(
                f["name"], f["state"], int(f["zone"]), dict(f.get("ships") or {}), dict(f.get("cargo") or {})
            )
            for f in setup["fleets"] or []
        }
    for r in setup.get("relations") or []:
        kind = {"война": "war", "мир": "peace", "союз": "alliance", "вассалитет": "vassal"}.get(r[2], r[2])
        c.relations = [x for x in c.relations if {x.a, x.b} != {r[0], r[1]}] + [Relation(r[0], r[1], kind)]
    for name, patch in (setup.get("provinces") or {}).items():
        p = c.provinces.get(name)
        if p is None:
            p = c.provinces[name] = Province(name=name, owner="", terrain="равнина", specialisation="зерно")
        for key, value in (patch or {}).items():
            if key == "population":
                p.population = {
                    s: int((value or {}).get(s, 0 if setup.get("replace_population", True) else p.population.get(s, 0)))
                    for s in STRATA
                }
            elif key == "sea_zones":
                p.sea_zones = tuple(int(z) for z in value)
            elif key == "buildings":
                p.buildings = list(value)
            else:
                setattr(p, key, value)
    for name, patch in (setup.get("states") or {}).items():
        st = c.states.get(name)
        if st is None:
            st = c.states[name] = State(name=name, government="monarchy", capital="")
        for key, value in (patch or {}).items():
            if key in ("treasury", "science"):
                setattr(st, key, amount(value))
            else:
                setattr(st, key, value)
    for b in setup.get("adjacency") or []:
        from .model import Border

        kind = {"суша": "land", "река": "river", "пролив": "strait"}.get(b[2] if len(b) > 2 else "суша", "land")
        c.borders.append(Border(b[0], b[1], kind, b[3] if len(b) > 3 else ""))
    t = d.tabs
    tables[t["states"]] = trim(codec.states_grid(c, d.rules, lang))
    tables[t["provinces"]] = trim(codec.provinces_grid(c, lang))
    tables[t["population"]] = trim(codec.population_grid(c, lang))
    tables[t["adjacency"]] = trim(codec.adjacency_grid(c, lang))
    for layout, grid in (
        (ARMIES, codec.armies_grid(c, lang)),
        (FLEETS, codec.fleets_grid(c, lang)),
        (DIPLOMACY, codec.diplomacy_grid(c, lang)),
    ):
        tables[find_tab(tables, layout) or layout.tab_name(lang)] = trim(grid)
    if setup.get("gm_events"):
        tables[find_tab(tables, GM_EVENTS) or GM_EVENTS.tab_name(lang)] = [
            GM_EVENTS.header(lang),
            *[list(e) for e in setup["gm_events"]],
        ]
    # order tabs follow the (patched) states: one per player state
    for name in [n for n in tables if codec.order_state(n) is not None]:
        del tables[name]
    for st in c.states.values():
        if not st.ai:
            tab = ruleset.order_tab_spec(st.name, lang)
            tables[tab.name] = trim([list(r) for r in tab.rows])
    rules_patch = dict(setup.get("rules") or {})
    rules_patch["parameters"] = {**QUIET, **(rules_patch.get("parameters") or {})}
    for key, patches in rules_patch.items():
        _patch_rules(tables, key, patches, lang)
    return tables


def _same_key(cell: Cell, key: object) -> bool:
    """Row keys match exactly, or as numbers («-3» is not «3»)."""
    try:
        return amount(cell) == amount(key)  # type: ignore[arg-type]
    except (TypeError, ValueError, ZeroDivisionError):
        return norm(cell) == norm(key)


def _patch_rules(tables: Tables, key: str, patches: dict[str, dict[str, Any]], lang: str) -> None:
    """Change cells of a rules tab: {row key: {column key: value}} (row key = first column)."""
    layout: Layout = RULES_FILES[key][1]
    tab = find_tab(tables, layout) or layout.tab_name(lang)
    grid = tables[tab]
    cols = {c.key: i for i, c in enumerate(layout.columns)}
    for row_key, values in patches.items():
        key = str(row_key)
        if key.startswith("#"):  # the N-th data row, for tables whose first column repeats
            target = grid[int(key[1:])] if int(key[1:]) < len(grid) else None
        else:
            target = next((r for r in grid[1:] if r and _same_key(r[0], row_key)), None)
        if target is None:
            target = [row_key] + [None] * (len(layout.columns) - 1)
            grid.append(target)
        for col_key, value in values.items():
            i = cols[col_key]
            while len(target) <= i:
                target.append(None)
            target[i] = value


def _order_cells(order: Any) -> dict[str, Cell]:
    """An order in players' notation: a list [action, object, where, to, qty] or a mapping."""
    keys = ("action", "object", "where", "to", "qty", "comment")
    if isinstance(order, str):
        order = [order]
    if isinstance(order, list):
        return {k: v for k, v in zip(keys, order) if v is not None}
    cells = {k: v for k, v in order.items() if k in keys}
    if "formula" in order:
        cells[order.get("formula_in", "object")] = Formula(order["formula"])
    return cells


def put_orders(tables: Tables, orders: dict[str, list[Any]]) -> None:
    """Write each state's rows (players' notation) below the last row of its order tab, in place."""
    for state, rows in (orders or {}).items():
        tab = next((n for n in tables if codec.order_state(n) == state), None)
        if tab is None:
            raise StrategosError(f"в сценарии нет листа приказов для «{state}»")
        grid = tables[tab]
        cols = {c.key: i for i, c in enumerate(ORDERS.columns)}
        # write below the last used row
        start = len(grid)
        for i, order in enumerate(rows):
            line: list[Cell] = [None] * len(ORDERS.columns)
            for k, v in _order_cells(order).items():
                line[cols[k]] = v
            r = start + i
            while len(grid) <= r:
                grid.append([])
            grid[r] = line


def run(data: dict[str, Any]) -> ScenarioOutcome:
    """Run one scenario of this game through the core's runner (engine/core/scenario.py)."""
    from .game import RULESET

    return core_scenario.run(RULESET, data)


def readback(tables: Tables, result: SyncResult) -> Readback:
    """What the turn of `result` left in the tables, for the core's generic checks: the order rows
    of that turn per player state, the chronicle lines and ledger entries of that turn, and the
    balance sheet's money per state beside the treasury in the states tab."""
    return Readback(
        orders=_shown_orders(tables, result.turn),
        chronicle=[
            str(r[1])
            for r in tables.get(find_tab(tables, CHRONICLE) or "", [])[1:]
            if len(r) > 1 and r[0] == result.turn
        ],
        ledger=_ledger(tables, result.turn),
        balances=_balances(tables) if result.mode == "resolve" else {},
    )


def _shown_orders(tables: Tables, turn: int) -> dict[str, list[ShownOrder]]:
    """Player state -> its order rows of `turn`: the rows resolve stamped with it, and the rows typed
    and not stamped yet (what check judged)."""
    cols = {c.key: i for i, c in enumerate(ORDERS.columns)}
    out: dict[str, list[ShownOrder]] = {}
    for tab in tables:
        state = codec.order_state(tab)
        if state is None:
            continue
        rows = [
            r for r in tables[tab][1:] if _stamp(r, cols) == turn or (_stamp(r, cols) in (None, "") and _typed(r, cols))
        ]
        shown = []
        for row in rows:
            row = row + [None] * (len(ORDERS.columns) - len(row))
            shown.append(
                ShownOrder(
                    str(row[cols["status"]] or ""), str(row[cols["reason"]] or ""), str(row[cols["understood"]] or "")
                )
            )
        out[state] = shown
    return out


def _stamp(row: list[Cell], cols: dict[str, int]) -> Cell:
    return row[cols["turn"]] if cols["turn"] < len(row) else None


def _typed(row: list[Cell], cols: dict[str, int]) -> bool:
    return any(row[cols[k]] not in (None, "") for k in ("action", "object", "where") if cols[k] < len(row))


def _ledger(tables: Tables, turn: int) -> list[LedgerEntry]:
    """The ledger tab's lines of `turn` (turn, state, phase, category, amount, resource, reason)."""
    out = []
    for r in tables.get(find_tab(tables, LEDGER) or "", [])[1:]:
        if not r or r[0] != turn:
            continue
        r = r + [None] * (8 - len(r))
        out.append(
            LedgerEntry(
                turn, str(r[1] or ""), str(r[5] or ""), str(r[2] or ""), str(r[3] or ""), amount(r[4]), str(r[6] or "")
            )
        )
    return out


def _balances(tables: Tables) -> dict[str, dict[str, Balance]]:
    """State -> {money: its opening and closing treasury on the balance sheet, and the states tab's}."""
    bal = next((tables[t] for t in tables if norm(t) in ("баланс", "balance")), [])
    if not bal:
        return {}
    close_col = [norm(h) for h in bal[0]].index(norm("Казна на конец, Д"))
    states = codec.decode(tables).campaign.states
    money = RESOURCES[0].code
    out: dict[str, dict[str, Balance]] = {}
    for row in bal[1:]:
        if row[0] in ("Итого", "Total"):
            continue
        st = states.get(str(row[0]))
        out[str(row[0])] = {money: Balance(amount(row[1]), amount(row[close_col]), st.treasury if st else None)}
    return out


def expect_game(expect: Mapping[str, Any], tables: Tables, result: SyncResult) -> list[str]:
    """This game's own expectations of a turn: `states`, `provinces`, `armies`, `fleets`,
    `relations` (docs/scenarios.md); one message per mismatch."""
    out: list[str] = []

    def want(ok: bool, message: str) -> None:
        if not ok:
            out.append(message)

    c = codec.decode(tables).campaign
    for name, wanted in (expect.get("states") or {}).items():
        st = c.states.get(name)
        if st is None:
            want(False, f"нет государства {name}")
            continue
        for key, value in wanted.items():
            if key in ("treasury", "science"):
                got = getattr(st, key)
                want(_near(got, value), f"{name}.{key} = {float(got)}, ожидалось {value}")
            elif key == "techs_include":
                want(all(t in st.techs for t in value), f"{name} техн. {st.techs} без {value}")
            else:
                got = getattr(st, key)
                want(got == value, f"{name}.{key} = {got!r}, ожидалось {value!r}")
    for name, wanted in (expect.get("provinces") or {}).items():
        p = c.provinces.get(name)
        if p is None:
            want(False, f"нет провинции {name}")
            continue
        for key, value in wanted.items():
            if key == "population":
                for s, v in value.items():
                    want(p.population.get(s) == v, f"{name}.{s} = {p.population.get(s)}, ожидалось {v}")
            elif key == "buildings_include":
                want(all(b in p.buildings for b in value), f"в {name} {p.buildings}, нет {value}")
            elif key == "buildings_exclude":
                want(not any(b in p.buildings for b in value), f"в {name} {p.buildings}, лишнее из {value}")
            else:
                got = getattr(p, key)
                want(got == value, f"{name}.{key} = {got!r}, ожидалось {value!r}")
    for kind, forces in (("armies", c.armies), ("fleets", c.fleets)):
        for name, wanted in (expect.get(kind) or {}).items():
            force = forces.get(name)
            if wanted is None or wanted == "gone":
                want(force is None, f"«{name}» ещё существует")
                continue
            if force is None:
                want(False, f"нет «{name}» (есть: {', '.join(forces)})")
                continue
            for key, value in wanted.items():
                got = {
                    "units": getattr(force, "units", None) or getattr(force, "ships", None),
                    "ships": getattr(force, "ships", None),
                }.get(key, getattr(force, key, None))
                if key in ("units", "ships", "cargo"):
                    got = {k: v for k, v in (got or {}).items() if v}
                want(got == value, f"«{name}».{key} = {got!r}, ожидалось {value!r}")
    for pair, wanted in (expect.get("relations") or {}).items():
        a, b = [x.strip() for x in pair.split("|")]
        rel = c.relation(a, b)
        got = rel.kind if rel else "peace"
        want_kind = {"война": "war", "мир": "peace", "союз": "alliance", "вассалитет": "vassal"}.get(wanted, wanted)
        want(got == want_kind, f"отношение {a}–{b} = {got}, ожидалось {want_kind}")
    return out
