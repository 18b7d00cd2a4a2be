"""Conformance scenarios: a setup, orders in players' notation, expected results.

The format (docs/scenarios.md) is read here and run through the real path — the codec,
the phases and the changeset — on an in-memory workbook, so a scenario proves exactly
what `strategos resolve` does to a sheet.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.core.errors import StrategosError
from engine.core.layout import Layout, find_tab, norm
from engine.core.money import amount
from engine.core.orders import STATUS_TEXT
from engine.core.ruleset import ScenarioOutcome
from engine.core.tables import Cell, Formula, Tables, apply_changes, trim

from . import codec, ruleset
from .model import Army, Fleet, Province, Relation, State
from .templates import RULES_FILES
from .vocab import ARMIES, CHRONICLE, DIPLOMACY, FLEETS, GM_EVENTS, LEDGER, ORDERS, STRATA

FIXED_SECRET = "scenario-secret"
# a scenario's world is quiet unless it says otherwise: no random events, no random births
QUIET = {"events_per_turn": {"value": 0}, "growth_chance_percent": {"value": 0}}


Outcome = ScenarioOutcome  # what one scenario run found (the core's type: the registry's runner returns it)


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


def run(data: dict[str, Any]) -> Outcome:
    """Run every turn of a scenario and compare with its expectations."""
    out = Outcome()
    tables = build_tables(data.get("setup") or {})
    for n, turn in enumerate(data.get("turns") or [], start=1):
        put_orders(tables, turn.get("orders") or {})
        mode = turn.get("mode", "resolve")
        expect = turn.get("expect") or {}
        try:
            secret = (data.get("setup") or {}).get("secret", FIXED_SECRET)  # the GM's store, in memory
            if mode == "check":
                result = ruleset.check(tables)
            else:
                result = ruleset.resolve(tables, turn.get("turn"), secret=secret)
        except StrategosError as exc:
            want = expect.get("error")
            out.expect(bool(want) and str(want) in str(exc), f"ход {n}: ошибка {exc}")
            continue
        out.expect("error" not in expect, f"ход {n}: ожидалась ошибка {expect.get('error')!r}, её нет")
        before = tables
        tables = apply_changes(tables, result.changes)
        _check(out, n, expect, before, tables, result)
    return out


def _check(out: Outcome, n: int, expect: dict[str, Any], before: Tables, tables: Tables, result: Any) -> None:
    d = codec.decode(tables)
    c = d.campaign
    for name, want in (expect.get("states") or {}).items():
        st = c.states.get(name)
        if st is None:
            out.expect(False, f"ход {n}: нет государства {name}")
            continue
        for key, value in want.items():
            if key in ("treasury", "science"):
                got = getattr(st, key)
                out.expect(_near(got, value), f"ход {n}: {name}.{key} = {float(got)}, ожидалось {value}")
            elif key == "techs_include":
                out.expect(all(t in st.techs for t in value), f"ход {n}: {name} техн. {st.techs} без {value}")
            else:
                got = getattr(st, key)
                out.expect(got == value, f"ход {n}: {name}.{key} = {got!r}, ожидалось {value!r}")
    for name, want in (expect.get("provinces") or {}).items():
        p = c.provinces.get(name)
        if p is None:
            out.expect(False, f"ход {n}: нет провинции {name}")
            continue
        for key, value in want.items():
            if key == "population":
                for s, v in value.items():
                    out.expect(p.population.get(s) == v, f"ход {n}: {name}.{s} = {p.population.get(s)}, ожидалось {v}")
            elif key == "buildings_include":
                out.expect(all(b in p.buildings for b in value), f"ход {n}: в {name} {p.buildings}, нет {value}")
            elif key == "buildings_exclude":
                out.expect(
                    not any(b in p.buildings for b in value), f"ход {n}: в {name} {p.buildings}, лишнее из {value}"
                )
            else:
                got = getattr(p, key)
                out.expect(got == value, f"ход {n}: {name}.{key} = {got!r}, ожидалось {value!r}")
    for kind, forces in (("armies", c.armies), ("fleets", c.fleets)):
        for name, want in (expect.get(kind) or {}).items():
            force = forces.get(name)
            if want is None or want == "gone":
                out.expect(force is None, f"ход {n}: «{name}» ещё существует")
                continue
            if force is None:
                out.expect(False, f"ход {n}: нет «{name}» (есть: {', '.join(forces)})")
                continue
            for key, value in want.items():
                got = {
                    "units": getattr(force, "units", None) or getattr(force, "ships", None),
                    "ships": getattr(force, "ships", None),
                }.get(key, getattr(force, key, None))
                if key in ("units", "ships", "cargo"):
                    got = {k: v for k, v in (got or {}).items() if v}
                out.expect(got == value, f"ход {n}: «{name}».{key} = {got!r}, ожидалось {value!r}")
    for pair, want in (expect.get("relations") or {}).items():
        a, b = [x.strip() for x in pair.split("|")]
        rel = c.relation(a, b)
        got = rel.kind if rel else "peace"
        want_kind = {"война": "war", "мир": "peace", "союз": "alliance", "вассалитет": "vassal"}.get(want, want)
        out.expect(got == want_kind, f"ход {n}: отношение {a}–{b} = {got}, ожидалось {want_kind}")
    _check_orders(out, n, expect.get("orders") or {}, tables, result)
    _check_ledger(out, n, expect, tables, result.turn, check_balance=result.mode == "resolve")
    chron_tab = find_tab(tables, CHRONICLE)
    text = "\n".join(str(r[1]) for r in tables.get(chron_tab or "", [])[1:] if len(r) > 1 and r[0] == result.turn)
    for snippet in expect.get("chronicle_contains") or []:
        out.expect(snippet in text, f"ход {n}: в журнале нет «{snippet}»")
    for snippet in expect.get("chronicle_excludes") or []:
        out.expect(snippet not in text, f"ход {n}: в журнале есть лишнее «{snippet}»")
    if "open_turn" in expect:
        out.expect(c.turn == expect["open_turn"], f"ход {n}: открыт ход {c.turn}, ожидался {expect['open_turn']}")
    if expect.get("unchanged"):
        out.expect(result.changes.is_empty() or tables == before, f"ход {n}: таблица изменилась")


def _check_orders(out: Outcome, n: int, want: dict[str, list[Any]], tables: Tables, result: Any) -> None:
    words = {v: k for table in STATUS_TEXT.values() for k, v in table.items() if v}
    for state, expected in want.items():
        tab = next((t for t in tables if codec.order_state(t) == state), None)
        if tab is None:
            out.expect(False, f"ход {n}: нет листа приказов {state}")
            continue
        grid = tables[tab]
        cols = {c.key: i for i, c in enumerate(ORDERS.columns)}
        # resolve stamps the rows it executed and clears their input; check leaves the input unstamped
        rows = [
            r for r in grid[1:] if _stamp(r, cols) == result.turn or (_stamp(r, cols) in (None, "") and _typed(r, cols))
        ]
        out.expect(
            len(rows) == len(expected), f"ход {n}: у {state} строк приказов {len(rows)}, ожидалось {len(expected)}"
        )
        for i, (row, exp) in enumerate(zip(rows, expected), start=1):
            exp = {"status": exp} if isinstance(exp, str) else exp
            row = row + [None] * (len(ORDERS.columns) - len(row))
            status, reason, echo = (
                row[cols["status"]],
                str(row[cols["reason"]] or ""),
                str(row[cols["understood"]] or ""),
            )
            want_status = exp.get("status")
            if want_status:
                out.expect(
                    words.get(status) == words.get(want_status),
                    f"ход {n}: {state}, приказ {i}: статус «{status}», ожидался «{want_status}» ({reason})",
                )
            for snippet in _as_list(exp.get("reason_contains")):
                out.expect(snippet in reason, f"ход {n}: {state}, приказ {i}: в причине «{reason}» нет «{snippet}»")
            for snippet in _as_list(exp.get("understood_contains")):
                out.expect(snippet in echo, f"ход {n}: {state}, приказ {i}: «{echo}» без «{snippet}»")


def _stamp(row: list[Cell], cols: dict[str, int]) -> Cell:
    return row[cols["turn"]] if cols["turn"] < len(row) else None


def _typed(row: list[Cell], cols: dict[str, int]) -> bool:
    return any(row[cols[k]] not in (None, "") for k in ("action", "object", "where") if cols[k] < len(row))


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _check_ledger(
    out: Outcome, n: int, expect: dict[str, Any], tables: Tables, turn: int, check_balance: bool = True
) -> None:
    tab = find_tab(tables, LEDGER)
    lines = [r for r in tables.get(tab or "", [])[1:] if r and r[0] == turn]
    for want in expect.get("ledger") or []:
        match = [
            r
            for r in lines
            if (r + [None] * 8)[1] == want.get("state")
            and ("category" not in want or r[3] == want["category"])
            and ("amount" not in want or amount(r[4]) == amount(want["amount"]))
            and (r[5] == want.get("resource", "Д"))
            and all(s in str(r[6]) for s in _as_list(want.get("reason_contains")))
        ]
        out.expect(bool(match), f"ход {n}: в книге казны нет строки {want}; есть: {[r[1:7] for r in lines]}")
    for state in expect.get("no_ledger_for") or []:
        out.expect(not [r for r in lines if r[1] == state and r[5] == "Д"], f"ход {n}: у {state} есть строки казны")
    if check_balance and expect.get("balance_equals_ledger", True):
        d = codec.decode(tables)
        # closing = opening + this turn's ledger, for every state
        bal = next((tables[t] for t in tables if norm(t) in ("баланс", "balance")), [])
        close_col = [norm(h) for h in bal[0]].index(norm("Казна на конец, Д")) if bal else 0
        for row in bal[1:]:
            if row[0] in ("Итого", "Total"):
                continue
            name, opening, closing = row[0], amount(row[1]), amount(row[close_col])
            total = sum((amount(r[4]) for r in lines if r[1] == name and r[5] == "Д"), Fraction(0))
            out.expect(opening + total == closing, f"ход {n}: {name}: {opening} + {total} ≠ {closing}")
            st = d.campaign.states.get(name)
            out.expect(st is not None and st.treasury == closing, f"ход {n}: {name}: казна ≠ баланс")
