"""Sample orders for the demo campaign: every implemented order kind, and a few bad rows.

Chosen from the campaign itself with the engine's own rules, so the demo stays meaningful
when the scenario or the rules tables change.
"""

from __future__ import annotations

from engine.core.tables import Cell, Formula

from . import naming
from .model import Campaign, State
from .phases.expenses import why_not
from .rules import Rules
from .staffing import province_output
from .vocab import ACTIONS

Row = dict[str, Cell]

# the order words, as the order tab's dropdown offers them in each language
WORDS = {
    lang: {("cancel" if key == "cancel_route" else key): words[i] for key, words in ACTIONS.items()}
    for i, lang in enumerate(("ru", "en"))
}


def _names(lang: str) -> dict[str, str]:
    """The names the sample orders use, in the campaign's language (templates' names tables)."""
    tr = naming.translator(lang)
    return {
        "lang": lang,
        "LI": naming.shown("unit", "ЛП", lang),
        "slaves": naming.shown("stratum", "раб", lang),
        "citizens": naming.shown("stratum", "СГ", lang),
        "irrigation": tr.name("Ирригационная система"),
        "aristocracy": tr.name("Аристократия"),
        # a typo of «Построить» (point 4 suggests the word) and a building no table has
        "typo": "Bild palace" if lang == "en" else "Построит дворец",
        "palace": "Palace" if lang == "en" else "Дворец",
        "all": "all" if lang == "en" else "всё",
    }


def _legal(c: Campaign, rules: Rules, state: str) -> list[tuple[str, str, float]]:
    out = []
    st = c.states[state]
    for p in c.provinces.values():
        if p.owner != state:
            continue
        for b in rules.buildings.values():
            if why_not(c, st, p, b, rules) is None:
                out.append((b.name_ru, p.name, float(b.cost_in(p.specialisation))))
    return out


def _misspell(name: str) -> str:
    """A typo in the name's own alphabet («Карфагео», «Carthaga»)."""
    a, o = ("a", "o") if name[-1].isascii() else ("а", "о")
    return name[:-1] + (a if name[-1] != a else o)


def _research(c: Campaign, rules: Rules, st: State) -> str | None:
    options = [
        t
        for t in rules.techs.values()
        if t.name_ru not in st.techs and all(p in st.techs for p in t.prerequisites) and t.cost <= st.science
    ]
    return min(options, key=lambda t: (t.cost, t.name_ru)).name_ru if options else None


def _grey_neighbour(c: Campaign, state: str) -> str | None:
    for p in sorted(c.provinces.values(), key=lambda p: p.name):
        if p.owner == state:
            for n in sorted(c.neighbours(p.name)):
                if not c.provinces[n].owner and (p.population.get("СГ", 0) or p.population.get("раб", 0)):
                    return n
    return None


def _military(c: Campaign, rules: Rules, st: State, w: dict[str, str]) -> list[Row]:
    """Recruit, march, sail, embark, disband, declare war on a grey neighbour's owner, a trade route."""
    rows: list[Row] = []
    army = next((a for a in c.armies.values() if a.state == st.name), None)
    if army is not None:
        rows.append({"action": w["recruit"], "object": w["LI"], "where": army.province, "qty": 1})
        own = sorted(n for n in c.neighbours(army.province) if c.provinces[n].owner == st.name)
        if own:
            rows.append({"action": w["march"], "object": army.name, "to": own[0]})
        unit = naming.shown("unit", next(iter(army.units)), w["lang"])  # as the campaign writes it
        rows.append({"action": w["disband"], "object": unit, "where": army.name, "qty": 1})
    fleet = next((f for f in c.fleets.values() if f.state == st.name), None)
    zones = sorted(
        {z.zone for z in c.seas.values() if fleet is not None and fleet.zone in z.neighbours}
        | set(c.seas[fleet.zone].neighbours if fleet is not None and fleet.zone in c.seas else ())
    )
    if fleet is not None and zones:
        rows.append({"action": w["sail"], "object": fleet.name, "to": zones[0]})
        if army is not None:
            rows.append({"action": w["embark"], "object": army.name, "to": fleet.name})  # no port yet: refused
    neighbours = sorted(
        {
            c.provinces[n].owner
            for p in c.provinces.values()
            if p.owner == st.name
            for n in c.neighbours(p.name)
            if c.provinces[n].owner not in ("", st.name)
        }
    )
    ai = [s for s in neighbours if c.states[s].ai]
    for p in sorted((p for p in c.provinces.values() if p.owner == st.name), key=lambda p: p.name):
        made = sorted(province_output(p, rules, c))
        targets = sorted(
            n
            for n in c.neighbours(p.name)
            if c.provinces[n].owner and c.provinces[n].owner != st.name and c.provinces[n].owner not in ai[:1]
        )
        if made and targets:
            rows.append({"action": w["trade"], "object": made[0], "where": p.name, "to": targets[0]})
            break
    if neighbours:
        rows.append({"action": w["transit"], "to": neighbours[0]})
    if ai:
        rows.append({"action": w["war"], "to": ai[0]})
        rows.append({"action": w["peace"], "to": ai[0]})  # an AI state: the GM answers
    capital = c.provinces.get(st.capital)
    if capital is not None:
        rows.append({"action": w["raze"], "object": w["all"], "where": capital.name})  # not captured: refused
        far = sorted(n for n in c.neighbours(capital.name))
        if far:
            rows.append({"action": w["cancel"], "where": capital.name, "to": far[0]})  # no such route: refused
    return rows


def sample_orders(c: Campaign, rules: Rules, lang: str = "ru") -> dict[str, list[Row]]:
    """state -> rows (action, object, where, to, qty) for up to six player states."""
    w = {**WORDS["en" if lang == "en" else "ru"], **_names(lang)}
    by_owner = c.by_owner()
    players = sorted((s for s in c.states.values() if not s.ai), key=lambda s: (-len(by_owner.get(s.name, [])), s.name))
    chosen = [s.name for s in players if _legal(c, rules, s.name)][:6]
    out: dict[str, list[Row]] = {}
    if not chosen:
        return out
    foreign = next(p.name for p in c.provinces.values() if p.owner and p.owner != chosen[0])
    for i, name in enumerate(chosen):
        legal = sorted(_legal(c, rules, name), key=lambda t: (t[2], t[0]))
        st = c.states[name]
        own = sorted(by_owner[name], key=lambda p: p.name)
        cheap = legal[0]
        rows: list[Row] = [{"action": w["build"], "object": cheap[0], "where": cheap[1]}]
        tech = _research(c, rules, st)
        if i == 0:
            rows += [
                {"action": w["stability"]},
                {"action": w["build"], "object": cheap[0], "where": _misspell(cheap[1])},  # typo
                {"action": w["build"], "object": cheap[0], "where": foreign},  # not ours
                {"action": w["convert"], "object": f"{w['slaves']} → {w['citizens']}", "where": st.capital, "qty": 1},
            ]
        elif i == 1:
            rows += [
                {"action": w["stability"]},
                {"action": w["stability"]},  # second one
                {"action": w["build"], "object": w["irrigation"], "where": st.capital},  # not allowed
                {"action": w["government"], "object": w["aristocracy"]},  # conditions
            ]
        elif i == 2:
            spent = cheap[2]
            for b_name, p_name, cost in sorted(legal[1:], key=lambda t: -t[2])[:6]:
                rows.append({"action": w["build"], "object": b_name, "where": p_name})
                spent += cost
                if spent > float(st.treasury):
                    break  # this row cannot be paid: «не хватает … Д»
        elif i == 3:
            rows += [
                {"action": w["build"], "object": cheap[0], "where": cheap[1], "qty": -1},  # negative
                {"action": w["build"], "object": cheap[0], "where": cheap[1], "qty": 1.5},  # fractional
                {"action": w["build"], "object": Formula('=IMPORTXML("http://x","//a")'), "where": cheap[1]},
                {"action": w["typo"], "object": w["palace"], "where": cheap[1]},  # unknown action
            ]
        elif i == 4:
            if len(own) > 1:
                src = max(own, key=lambda p: p.population.get("раб", 0))
                dst = next(p for p in own if p.name != src.name)
                rows.append({"action": w["move"], "object": w["slaves"], "where": src.name, "to": dst.name, "qty": 1})
            grey = _grey_neighbour(c, name)
            if grey:
                rows.append({"action": w["colonise"], "where": grey})
            rows.append({"action": w["pay"], "to": chosen[0], "qty": 5})
        else:
            rows = [{"action": w["none"]}]
        if tech and i < 5:
            rows.append({"action": w["research"], "object": tech})
        out[name] = rows
    # war and trade: a player state with a fleet shows every military and trade order
    navy = next((s for s in players if any(f.state == s.name for f in c.fleets.values())), None)
    if navy is not None:
        out.setdefault(navy.name, []).extend(_military(c, rules, navy, w))
    return out
