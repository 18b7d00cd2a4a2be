"""civ1's scenario hooks: engine/core/scenario.py plays a tests/scenarios/civ1/*.yaml through check
and resolve; these are the parts that know the game's tabs (docs/scenarios.md, its civ1 part).

Setup keys (each a patch of the GM's tabs of the demo, as a GM would edit the sheet; only the
fields named change): ``secret`` (fixes every die), ``scenario`` (default demo), ``open`` (the
window the campaign opens at, default «1:государство»; «1:города» lets ``intentions`` reach the
cities stage that consumes them — a state stage's step 1 forgets the last turn's), ``nations``,
``tiles``, ``cities``, ``decks``, ``spies``, ``treaties``, ``intentions``, ``letters`` and ``rules``
(cells of the «Правила — …» tabs by role: {row key: {column key: value}}).  Order rows:
``[stage, action, object, where, to, qty]`` or a mapping of those fields.  The game's own
expectations: ``nations``, ``cities``, ``decks``, ``tiles``, ``spies``, ``treaties``,
``intentions``, ``order_of_play``, ``private`` (the lines only a nation reads: its «Донесения» of
the window and its «Держава»'s ledger lines), ``battles`` (every duel and die) and ``rolls`` (the window's dice log)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from engine.core import history, meta
from engine.core.cursor import Cursor, CursorError
from engine.core.dice import commitment, cursor_seed
from engine.core.errors import CampaignError, Problem
from engine.core.layout import find_tab, norm
from engine.core.ledger import LedgerEntry
from engine.core.ruleset import SyncResult
from engine.core.scenario import FIXED_SECRET, GENERIC_KEYS, Balance, Readback, ShownOrder
from engine.core.tables import Cell, Changeset, Grid, Tables, WriteBlock, apply_changes, is_blank

from . import codec, hexes, reporter
from .calendar import CALENDAR
from .facts import Battle, Duel, Facts
from .model import CARD_STATES, Card, City, Deck, Intention, Nation, Spy, Tile, Treaty, World
from .ordertypes import STATE
from .resources import NATIONAL
from .rules_loaders import TAB_LOADERS
from .vocab import CHRONICLE, LEDGER, ORDER_FIELDS, ORDERS, orders_tab, realm_tab
from .workbook import new_workbook, tables_of

OWN_KEYS = frozenset({"nations", "cities", "decks", "tiles", "spies", "treaties", "intentions", "letters",
                      "order_of_play", "private", "battles", "rolls", "rolls_exclude", "warnings_exclude"})
SETUP_KEYS = frozenset({"secret", "scenario", "open", "nations", "tiles", "cities", "decks", "spies", "treaties",
                        "intentions", "letters", "rules"})
NATION_INTS = ("power", "coins", "science", "vp_honesty", "vp_tech", "seat", "spies", "missed")
NATION_TEXTS = ("government", "capital", "leader")
NATION_FLAGS = ("excused", "ai")
CITY_INTS = ("population", "hammers")


def _hex(value: Any, where: str) -> hexes.Hex:
    h = hexes.parse(value)
    if h is None:
        raise CampaignError(f"{where}: гекс пишут «q,r», а там «{value}»")
    return h


def _patch_nation(world: World, name: str, values: Mapping[str, Any]) -> None:
    if name not in world.nations:
        raise CampaignError(f"setup.nations: нет нации «{name}»; нации: {', '.join(world.seats())}")
    n = world.nations[name]
    for key, value in values.items():
        if key == "techs":  # a list (learned at turn 0) or {tech: turn}; added to what it knows
            n.techs.update({str(t): int(v) for t, v in value.items()} if isinstance(value, Mapping)
                           else {str(t): 0 for t in value})
        elif key == "techs_only":  # exactly these
            n.techs = {str(t): 0 for t in value}
        elif key in NATION_INTS:
            setattr(n, key, int(value))
        elif key in NATION_TEXTS:
            setattr(n, key, str(value or ""))
        elif key in NATION_FLAGS:
            setattr(n, key, bool(value))
        elif key == "resources":  # the resource tokens it holds (keys of «Правила — Ресурсы»)
            n.resources = [str(r) for r in value or []]
        elif key == "stolen":  # {tech: the turn it costs half} (a spy stole it, CIV-SPY-02)
            n.stolen = {str(t): int(v) for t, v in (value or {}).items()}
        elif key == "next_card":
            world.decks.setdefault(name, Deck()).next = int(value)
        else:
            raise CampaignError(f"setup.nations.{name}: неизвестный ключ «{key}»")


def _patch_tile(world: World, where: Any, values: Mapping[str, Any] | None) -> None:
    h = _hex(where, "setup.tiles")
    if values is None:  # off the map
        world.tiles.pop(h, None)
        return
    tile = world.tiles.setdefault(h, Tile(h, str(values.get("terrain", "равнина"))))
    for key, value in values.items():
        if key == "terrain":
            tile.terrain = str(value)
        elif key == "village":
            tile.village = bool(value)
        elif key == "resource":
            tile.resource = str(value or "")
        else:
            raise CampaignError(f"setup.tiles.{where}: неизвестный ключ «{key}»")


def _patch_city(world: World, name: str, values: Mapping[str, Any] | None) -> None:
    if values is None:  # razed: not in the world
        world.cities.pop(name, None)
        return
    city = world.cities.get(name)
    if city is None:
        if "nation" not in values or "hex" not in values:
            raise CampaignError(f"setup.cities.{name}: новому городу нужны nation и hex")
        city = world.cities[name] = City(name, str(values["nation"]), _hex(values["hex"], f"setup.cities.{name}"))
    for key, value in values.items():
        if key == "nation":
            if value not in world.nations:
                raise CampaignError(f"setup.cities.{name}: нет нации «{value}»")
            city.nation = str(value)
        elif key == "hex":
            city.hex = _hex(value, f"setup.cities.{name}")
        elif key in CITY_INTS:
            setattr(city, key, int(value))
        elif key in ("buildings", "wonders"):
            setattr(city, key, [str(v) for v in value])
        elif key == "status":
            city.status = str(value or "")
        elif key == "counter_spy":
            city.counter_spy = bool(value)
        else:
            raise CampaignError(f"setup.cities.{name}: неизвестный ключ «{key}»")


def _card(value: Any) -> Card:
    """«ватага» or [ватага, routed] (a state's code: ready, retreated, routed, destroyed)."""
    if isinstance(value, str):
        return Card(value)
    unit, state = list(value)[:2]
    if state not in CARD_STATES:
        raise CampaignError(f"setup.decks: состояние «{state}» не из {', '.join(CARD_STATES)}")
    return Card(str(unit), str(state))


def _patch_deck(world: World, name: str, values: Any) -> None:
    if name not in world.nations:
        raise CampaignError(f"setup.decks: нет нации «{name}»")
    deck = world.decks.setdefault(name, Deck())
    if not isinstance(values, Mapping):  # just the cards
        values = {"cards": values}
    if "cards" in values:
        deck.cards = [_card(c) for c in values["cards"]]
    if "next" in values:
        deck.next = int(values["next"])


def _lists(world: World, setup: Mapping[str, Any]) -> None:
    """The tabs of lists, each replaced whole when named."""
    if "spies" in setup:
        world.spies = [Spy(str(s["nation"]), int(s.get("number", i)), str(s.get("where") or ""),
                           bool(s.get("busy", False))) for i, s in enumerate(setup["spies"] or [], start=1)]
    if "treaties" in setup:
        world.treaties = [Treaty(int(t.get("turn", 1)), tuple(t["parties"]), str(t["kind"]),
                                 int(t.get("until", 0)), str(t.get("breached_by") or ""))
                          for t in setup["treaties"] or []]
    if "intentions" in setup:
        world.intentions = [Intention(*(str(x) for x in _triple(i, ("nation", "city", "wonder"))))
                            for i in setup["intentions"] or []]
    if "letters" in setup:
        world.letters = [tuple(str(x) for x in _triple(m, ("sender", "to", "text")))  # type: ignore[misc]
                         for m in setup["letters"] or []]


def _triple(value: Any, keys: tuple[str, str, str]) -> list[Any]:
    return [value.get(k) for k in keys] if isinstance(value, Mapping) else list(value)


def _same_key(cell: Cell, key: Any) -> bool:
    return norm(cell) == norm(key)


def patch_rules(tables: Tables, patches: Mapping[str, Mapping[Any, Mapping[str, Any]]]) -> None:
    """Cells of the «Правила — …» tabs as a GM edits them: {role: {row key (first column): {column
    key: value}}}; a row key not there adds a row; `None` for a row deletes it."""
    for role, rows in patches.items():
        if role not in TAB_LOADERS:
            raise CampaignError(f"setup.rules: нет листа правил «{role}»; есть: {', '.join(TAB_LOADERS)}")
        layout = TAB_LOADERS[role].layout
        title = find_tab(tables, layout)
        if title is None:
            raise CampaignError(f"setup.rules: нет листа «{layout.ru}»")
        grid = [list(r) for r in tables[title]]
        problems: list[Problem] = []
        cols = layout.locate(title, grid[0], problems)
        for row_key, values in rows.items():
            target = next((r for r in grid[1:] if r and _same_key(r[0], row_key)), None)
            if values is None:
                if target is not None:
                    grid.remove(target)
                continue
            if target is None:
                target = [row_key] + [None] * (len(grid[0]) - 1)
                grid.append(target)
            for col_key, value in values.items():
                if col_key not in cols:
                    raise CampaignError(f"setup.rules.{role}: нет столбца «{col_key}»; есть: {', '.join(cols)}")
                i = cols[col_key]
                while len(target) <= i:
                    target.append(None)
                target[i] = value
        tables[title] = grid


def open_at(tables: Tables, window: Any, secret: str) -> Cursor:
    """Open the campaign at `window` («1:города»; None: as the demo opens, «1:государство»): the
    meta's cursor rows and the commitment to that window's seed, as a resolve leaves them."""
    if window is None:
        return meta.open_cursor(tables, CALENDAR)
    try:
        at = CALENDAR.parse(str(window))
    except CursorError as e:
        raise CampaignError(f"setup.open: окно пишут «ход:этап», а там «{window}»") from e
    title = meta.meta_tab(tables)
    assert title is not None
    grid = [list(r) for r in tables[title]]
    for row in grid[1:]:
        if meta.is_row(row, meta.OPEN_TURN):
            row[1] = at.turn
        elif meta.is_row(row, meta.OPEN_STAGE):
            row[1] = CALENDAR.stage(at.stage).name("ru")
        elif meta.is_row(row, meta.COMMITMENT):
            row[1] = commitment(cursor_seed(secret, at))
    tables[title] = grid
    return at


def build_tables(setup: Mapping[str, Any]) -> Tables:
    """A scenario's campaign («1:государство» open): the demo, its world and rules patched."""
    unknown = [k for k in setup if k not in SETUP_KEYS]
    if unknown:
        raise CampaignError(f"setup: неизвестные ключи {unknown}; есть: {', '.join(sorted(SETUP_KEYS))}")
    secret = str(setup.get("secret", FIXED_SECRET))
    spec = new_workbook(str(setup.get("scenario", "demo")), "ru", secret, "scenario")
    tables = tables_of(spec)
    at = open_at(tables, setup.get("open"), secret)
    if setup.get("intentions") and at.stage == STATE:
        raise CampaignError("setup.intentions: шаг 1 фазы государства сбрасывает намерения прошлого хода, "
                            "их увидит только фаза городов; откройте сценарий с неё: open: \"1:города\"")
    if setup.get("rules"):
        patch_rules(tables, setup["rules"])
    if not any(k in setup for k in SETUP_KEYS - {"secret", "scenario", "rules"}):
        return tables
    rules = codec.read_rules(tables)
    world = codec.decode(tables, rules=rules)
    for name, values in (setup.get("nations") or {}).items():
        _patch_nation(world, str(name), values or {})
    for where, values in (setup.get("tiles") or {}).items():
        _patch_tile(world, where, values)
    for name, values in (setup.get("cities") or {}).items():
        _patch_city(world, str(name), values)
    for name, values in (setup.get("decks") or {}).items():
        _patch_deck(world, str(name), values)
    _lists(world, setup)
    tables.update(codec.encode(world, "ru", rules))
    tables.update(codec.all_realms(world, rules, {}))  # each nation's view of the patch
    return tables


def _row(order: Any) -> list[Cell]:
    if isinstance(order, Mapping):
        return [order.get(k) for k in ORDER_FIELDS]
    return list(order) + [None] * (len(ORDER_FIELDS) - len(order))


def order_blocks(tables: Tables, orders: Mapping[str, Grid]) -> list[WriteBlock]:
    """`orders` (nation -> rows of the input fields) written below each tab's last input."""
    out = []
    lang = meta.lang(tables) or "ru"
    for nation, rows in orders.items():
        tab = orders_tab(nation, lang)
        if tab not in tables:
            raise CampaignError(f"у нации «{nation}» нет листа приказов «{tab}»")
        grid = tables[tab]
        used = [i for i, r in enumerate(grid) if i and any(not is_blank(v) for v in r[: len(ORDER_FIELDS)])]
        first = (max(used) + 2) if used else 2
        out.append(WriteBlock(tab, first, 1, [list(r) for r in rows]))
    return out


def put_orders(tables: Tables, orders: Mapping[str, Sequence[Any]]) -> Tables:
    rows = {n: [_row(o) for o in given] for n, given in orders.items() if given}
    return apply_changes(tables, Changeset(blocks=order_blocks(tables, rows)))


def _shown(grid: Grid, stamp: str) -> list[ShownOrder]:
    out = []
    col = {c.key: i for i, c in enumerate(ORDERS.columns)}
    for line in grid[1:]:
        cell = [*line, *[None] * (len(ORDERS.columns) - len(line))]
        typed = any(not is_blank(cell[col[k]]) for k in ORDER_FIELDS)
        mark = cell[col["turn"]]
        if mark == stamp or (is_blank(mark) and typed):
            out.append(ShownOrder(*(str(cell[col[k]] or "") for k in ("status", "reason", "understood"))))
    return out


def _entry(at: Cursor, r: list[Cell]) -> LedgerEntry:
    r = [*r, *[None] * (8 - len(r))]
    return LedgerEntry(at, str(r[1]), str(r[2]), str(r[3]), str(r[4]), Fraction(str(r[5] or 0)),
                       str(r[6] or ""), str(r[7] or ""))


def _balances(tables: Tables, at: Cursor) -> dict[str, dict[str, Balance]]:
    opening: World = codec.decode(history.entry(tables, at).tables(), at)
    held = codec.decode(tables, CALENDAR.next(at))
    return {n: {r.code: Balance(Fraction(opening.balance(n, r.code)), Fraction(held.balance(n, r.code)),
                                Fraction(held.balance(n, r.code))) for r in NATIONAL} for n in held.seats()}


def readback(tables: Tables, result: SyncResult) -> Readback:
    at = Cursor(result.turn, result.campaign.stage) if isinstance(result.campaign, World) else Cursor(result.turn)
    stamp = CALENDAR.format(at)
    nations = result.campaign.seats() if isinstance(result.campaign, World) else []
    return Readback(
        orders={n: _shown(tables.get(orders_tab(n), []), stamp) for n in nations},
        chronicle=[str(r[1]) for r in tables.get(CHRONICLE.ru, [])[1:] if len(r) > 1 and r[0] == stamp],
        ledger=[_entry(at, r) for r in tables.get(LEDGER.ru, [])[1:] if r and r[0] == stamp],
        balances=_balances(tables, at) if result.mode == "resolve" else {},
    )


PRIVATE_MARK = ("Только для вас", "For your eyes only")  # the head of a «Держава»'s private lines


def _amounts(world: World, name: str, wanted: Mapping[str, Any], out: list[str]) -> None:
    """A nation's expected fields: balances, government, seat, techs (`techs_include`,
    `techs_exclude`, `techs` exactly), spies, missed turns, the next card."""
    n: Nation = world.nations[name]
    got: dict[str, Any] = {"power": n.power, "coins": n.coins, "science": n.science, "vp": n.vp_honesty + n.vp_tech,
                           "vp_honesty": n.vp_honesty, "vp_tech": n.vp_tech, "seat": n.seat, "spies": n.spies,
                           "missed": n.missed, "government": n.government, "capital": n.capital,
                           "excused": n.excused, "ai": n.ai, "next_card": world.decks.get(name, Deck()).next}
    for key, value in wanted.items():
        if key == "techs_include":
            missing = [t for t in value if t not in n.techs]
            if missing:
                out.append(f"у {name} нет технологий {missing}; есть {sorted(n.techs)}")
        elif key == "techs_exclude":
            extra = [t for t in value if t in n.techs]
            if extra:
                out.append(f"у {name} лишние технологии {extra}")
        elif key == "techs":
            if sorted(n.techs) != sorted(value):
                out.append(f"у {name} технологии {sorted(n.techs)}, ожидались {sorted(value)}")
        elif key == "tech_turns":  # {tech: the turn it was learned}
            for tech, turn in value.items():
                if n.techs.get(tech) != int(turn):
                    out.append(f"у {name} «{tech}» изучена в ход {n.techs.get(tech)}, ожидался {turn}")
        elif key not in got:
            out.append(f"nations.{name}: неизвестный ключ «{key}»")
        elif got[key] != (value if isinstance(got[key], (str, bool)) else int(value)) and not (
                isinstance(got[key], str) and value is None and not got[key]):
            out.append(f"у {name} {key} = {got[key]!r}, ожидалось {value!r}")


def _city(world: World, name: str, wanted: Mapping[str, Any] | None, out: list[str]) -> None:
    """A city's expected fields; `None` (or `absent: true`): there is no such city."""
    city = world.cities.get(name)
    if wanted is None or (wanted or {}).get("absent"):
        if city is not None:
            out.append(f"город «{name}» есть ({city.nation}, {hexes.text(city.hex)}), ожидалось, что его нет")
        return
    if city is None:
        out.append(f"нет города «{name}»; есть: {', '.join(world.cities)}")
        return
    got: dict[str, Any] = {"nation": city.nation, "hex": hexes.text(city.hex), "population": city.population,
                           "hammers": city.hammers, "status": city.status, "counter_spy": city.counter_spy,
                           "buildings": sorted(city.buildings), "wonders": sorted(city.wonders)}
    for key, value in wanted.items():
        if key.endswith("_include") or key.endswith("_exclude"):
            field, how = key.rsplit("_", 1)
            held = got.get(field)
            if not isinstance(held, list):
                out.append(f"cities.{name}: неизвестный ключ «{key}»")
                continue
            bad = [v for v in value if (v in held) != (how == "include")]
            if bad:
                out.append(f"у «{name}» {field} {held}: {'нет' if how == 'include' else 'лишние'} {bad}")
        elif key not in got:
            out.append(f"cities.{name}: неизвестный ключ «{key}»")
        else:
            want = sorted(value) if isinstance(got[key], list) else value
            if key == "hex":
                want = hexes.text(_hex(value, f"cities.{name}"))
            elif isinstance(got[key], int) and not isinstance(got[key], bool):
                want = int(value)
            elif key == "status":
                want = str(value or "")
            if got[key] != want:
                out.append(f"у «{name}» {key} = {got[key]!r}, ожидалось {want!r}")


def _deck(world: World, name: str, wanted: Mapping[str, Any], out: list[str]) -> None:
    """A deck: `cards` exactly ([unit] or [unit, state]), `size`, `next`, `states` {state: count}."""
    deck = world.decks.get(name, Deck())
    for key, value in wanted.items():
        if key == "cards":
            want = [(c.unit, c.state) for c in (_card(v) for v in value)]
            got = [(c.unit, c.state) for c in deck.cards]
            if got != want:
                out.append(f"колода {name}: {got}, ожидалась {want}")
        elif key == "size":
            if len(deck.cards) != int(value):
                out.append(f"в колоде {name} {len(deck.cards)} карт, ожидалось {value}")
        elif key == "next":
            if deck.next != int(value):
                out.append(f"у {name} следующая карта {deck.next}, ожидалась {value}")
        elif key == "states":
            for state, count in value.items():
                have = sum(1 for c in deck.cards if c.state == state)
                if have != int(count):
                    out.append(f"в колоде {name} «{state}»: {have}, ожидалось {count}")
        else:
            out.append(f"decks.{name}: неизвестный ключ «{key}»")


def _tile(world: World, where: Any, wanted: Mapping[str, Any], out: list[str]) -> None:
    h = _hex(where, "tiles")
    tile = world.tiles.get(h)
    if tile is None:
        out.append(f"нет гекса {where} на карте")
        return
    got = {"terrain": tile.terrain, "village": tile.village, "resource": tile.resource}
    for key, value in wanted.items():
        if key not in got:
            out.append(f"tiles.{where}: неизвестный ключ «{key}»")
        elif got[key] != (bool(value) if key == "village" else str(value or "")):
            out.append(f"гекс {where}: {key} = {got[key]!r}, ожидалось {value!r}")


def _lists_expected(world: World, expect: Mapping[str, Any], out: list[str]) -> None:
    """`spies`, `treaties`, `intentions`, `letters`: the whole list, each item's named fields."""
    if "spies" in expect:
        got_s = [{"nation": s.nation, "number": s.number, "where": s.where, "busy": s.busy} for s in world.spies]
        _match_list("шпионы", got_s, expect["spies"] or [], out)
    if "treaties" in expect:
        got_t = [{"turn": t.turn, "parties": list(t.parties), "kind": t.kind, "until": t.until,
                  "breached_by": t.breached_by} for t in world.treaties]
        _match_list("договоры", got_t, expect["treaties"] or [], out)
    if "intentions" in expect:
        got_i = [{"nation": i.nation, "city": i.city, "wonder": i.wonder} for i in world.intentions]
        want = [dict(zip(("nation", "city", "wonder"), _triple(w, ("nation", "city", "wonder"))))
                for w in expect["intentions"] or []]
        _match_list("намерения", got_i, want, out)
    if "letters" in expect:
        got_m = [{"sender": a, "to": b, "text": c} for a, b, c in world.letters]
        keys = ("sender", "to", "text")
        want = [dict(zip(keys, _triple(w, keys))) for w in expect["letters"] or []]
        _match_list("письма", got_m, want, out)


def _match_list(what: str, got: list[dict[str, Any]], want: Sequence[Mapping[str, Any]], out: list[str]) -> None:
    if len(got) != len(want):
        out.append(f"{what}: {len(got)} ({got}), ожидалось {len(want)}")
        return
    for i, (g, w) in enumerate(zip(got, want), start=1):
        bad = {k: g.get(k) for k, v in w.items() if g.get(k) != v}
        if bad:
            out.append(f"{what}, {i}: {bad}, ожидалось {dict(w)}")


def private_lines(tables: Tables, nation: str) -> list[str]:
    """What only a nation read this window: its «Донесения» lines of the last resolved window, then
    its «Держава»'s lines under «Только для вас» (its own ledger lines)."""
    told = [str(r[1]) for r in reporter.dispatches(tables, nation) if len(r) > 1 and not is_blank(r[1])]
    grid: Grid = tables.get(realm_tab(nation), [])
    starts = [i for i, r in enumerate(grid) if r and r[0] in PRIVATE_MARK]
    return told + ([str(r[0]) for r in grid[starts[0] + 1:] if r and not is_blank(r[0])] if starts else [])


def _private(tables: Tables, wanted: Mapping[str, Any], out: list[str]) -> None:
    """{nation: [snippets]} or {nation: {contains: [..], excludes: [..]}}: its «Держава»'s private
    lines hold (or do not hold) each snippet — and no other nation's do unless named."""
    for nation, want in wanted.items():
        text = "\n".join(private_lines(tables, str(nation)))
        spec = want if isinstance(want, Mapping) else {"contains": want}
        for snippet in _as_list(spec.get("contains")):
            if snippet not in text:
                out.append(f"в «{realm_tab(str(nation))}» нет «{snippet}»; там: {text!r}")
        for snippet in _as_list(spec.get("excludes")):
            if snippet in text:
                out.append(f"в «{realm_tab(str(nation))}» есть лишнее «{snippet}»")


DUEL_FIELDS = ("number", "attacker_unit", "defender_unit", "attacker_dice", "defender_dice", "attacker_bonus",
               "defender_bonus", "outcome", "attacker_support", "defender_support", "attacker_total",
               "defender_total")
BATTLE_FIELDS = ("attacker", "origin", "target", "defender", "result", "wmd")


def _battles(facts: Facts, want: Sequence[Mapping[str, Any]], out: list[str]) -> None:
    """The window's battles in order, each with the named fields and its duels (every die)."""
    got: list[Battle] = facts.battles
    if len(got) != len(want):
        out.append(f"боёв {len(got)}, ожидалось {len(want)}: "
                   f"{[(b.attacker, b.origin, b.target, b.result) for b in got]}")
        return
    for i, (b, w) in enumerate(zip(got, want), start=1):
        for key, value in w.items():
            if key == "duels":
                _duels(i, b.duels, value, out)
            elif key not in BATTLE_FIELDS:
                out.append(f"battles[{i}]: неизвестный ключ «{key}»")
            elif getattr(b, key) != value:
                out.append(f"бой {i}: {key} = {getattr(b, key)!r}, ожидалось {value!r}")


def _duels(i: int, got: list[Duel], want: Sequence[Mapping[str, Any]], out: list[str]) -> None:
    if len(got) != len(want):
        out.append(f"бой {i}: дуэлей {len(got)}, ожидалось {len(want)}")
        return
    for j, (d, w) in enumerate(zip(got, want), start=1):
        for key, value in w.items():
            if key not in DUEL_FIELDS:
                out.append(f"бой {i}, дуэль {j}: неизвестный ключ «{key}»")
            elif getattr(d, key) != value:
                out.append(f"бой {i}, дуэль {j}: {key} = {getattr(d, key)!r}, ожидалось {value!r}")


def _roll_matches(roll: Any, want: Mapping[str, Any]) -> bool:
    """A logged roll (purpose, subject, «d10=7») against {purpose, subject?, value?, sides?,
    result?}; `purpose_starts` matches a prefix («duel:Рим»)."""
    if "purpose" in want and roll.purpose != want["purpose"]:
        return False
    if "purpose_starts" in want and not roll.purpose.startswith(str(want["purpose_starts"])):
        return False
    if "subject" in want and roll.subject != str(want["subject"]):
        return False
    if "result" in want and roll.result != str(want["result"]):
        return False
    sides, _eq, value = roll.result.partition("=")
    if "value" in want and value != str(want["value"]):
        return False
    return not ("sides" in want and sides != f"d{want['sides']}")


def _rolls(facts: Facts, want: Sequence[Mapping[str, Any]], excluded: Sequence[Any], out: list[str]) -> None:
    """Each expected roll found in the window's dice log, in this order (a subsequence); and no
    roll of an excluded purpose (prefix)."""
    log = list(facts.dice)
    shown = [f"{r.purpose}[{r.subject}]={r.result}" for r in log]
    at = 0
    for w in want:
        found = next((k for k in range(at, len(log)) if _roll_matches(log[k], w)), None)
        if found is None:
            out.append(f"в костях окна нет броска {dict(w)} (после {at}-го); брошено: {shown}")
            continue
        at = found + 1
    for purpose in excluded:
        hits = [s for r, s in zip(log, shown) if r.purpose.startswith(str(purpose))]
        if hits:
            out.append(f"лишние броски «{purpose}»: {hits}")


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def expect_game(expect: Mapping[str, Any], tables: Tables, result: SyncResult | None = None) -> list[str]:
    """civ1's own expectations of one window against the tables after it (and its report's facts:
    the order of play, the battles, the dice); one message per mismatch."""
    out = [f"неизвестный ключ ожидания «{k}»" for k in expect if k not in GENERIC_KEYS | OWN_KEYS]
    world_keys = ("nations", "cities", "decks", "tiles", "spies", "treaties", "intentions", "letters")
    if any(k in expect for k in world_keys):
        world = codec.decode(tables)
        for name, wanted in (expect.get("nations") or {}).items():
            if name not in world.nations:
                out.append(f"нет нации «{name}»")
            else:
                _amounts(world, str(name), wanted or {}, out)
        for name, wanted in (expect.get("cities") or {}).items():
            _city(world, str(name), wanted, out)
        for name, wanted in (expect.get("decks") or {}).items():
            _deck(world, str(name), wanted or {}, out)
        for where, wanted in (expect.get("tiles") or {}).items():
            _tile(world, where, wanted or {}, out)
        _lists_expected(world, expect, out)
    if "private" in expect:
        _private(tables, expect["private"] or {}, out)
    if result is not None:
        warned = [str(w) for w in result.summary.get("warnings") or result.report.warnings]
        for snippet in _as_list(expect.get("warnings_exclude")):
            if any(snippet in w for w in warned):
                out.append(f"лишнее предупреждение «{snippet}»: {warned}")
    facts: Facts | None = result.report.facts if result is not None else None
    fact_keys = [k for k in ("order_of_play", "battles", "rolls", "rolls_exclude") if k in expect]
    if fact_keys and facts is None:
        out.append(f"нет отчёта окна для {fact_keys}")
        return out
    if facts is not None:
        if "order_of_play" in expect and list(facts.order) != list(expect["order_of_play"]):
            out.append(f"порядок хода {facts.order}, ожидался {expect['order_of_play']}")
        if "battles" in expect:
            _battles(facts, expect["battles"] or [], out)
        if "rolls" in expect or "rolls_exclude" in expect:
            _rolls(facts, expect.get("rolls") or [], _as_list(expect.get("rolls_exclude")), out)
    return out
