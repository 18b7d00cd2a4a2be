"""Sample orders for the demo campaign: every implemented order kind, and a few bad rows.

Chosen from the campaign itself with the engine's own rules, so the demo stays meaningful
when the scenario or the rules tables change.
"""

from __future__ import annotations

from engine.core.tables import Cell, Formula

from .model import Campaign, State
from .phases.expenses import why_not
from .rules import Rules

Row = dict[str, Cell]

WORDS = {
    "ru": {"build": "Построить", "stability": "Стабильность", "none": "Нет действий", "research": "Изучить",
           "convert": "Перевести", "move": "Переселить", "colonise": "Колонизировать",
           "government": "Сменить правление", "pay": "Заплатить"},
    "en": {"build": "Build", "stability": "Stability", "none": "No actions", "research": "Research",
           "convert": "Convert", "move": "Move people", "colonise": "Colonise",
           "government": "Change government", "pay": "Pay"},
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
    return name[:-1] + ("а" if name[-1] != "а" else "о")


def _research(c: Campaign, rules: Rules, st: State) -> str | None:
    options = [t for t in rules.techs.values() if t.name_ru not in st.techs
               and all(p in st.techs for p in t.prerequisites) and t.cost <= st.science]
    return min(options, key=lambda t: (t.cost, t.name_ru)).name_ru if options else None


def _grey_neighbour(c: Campaign, state: str) -> str | None:
    for p in sorted(c.provinces.values(), key=lambda p: p.name):
        if p.owner == state:
            for n in sorted(c.neighbours(p.name)):
                if not c.provinces[n].owner and (p.population.get("СГ", 0) or p.population.get("раб", 0)):
                    return n
    return None


def sample_orders(c: Campaign, rules: Rules, lang: str = "ru") -> dict[str, list[Row]]:
    """state -> rows (action, object, where, to, qty) for up to six player states."""
    w = WORDS["en" if lang == "en" else "ru"]
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
                {"action": w["build"], "object": cheap[0], "where": foreign},            # not ours
                {"action": w["convert"], "object": "раб → СГ", "where": st.capital, "qty": 1},
            ]
        elif i == 1:
            rows += [
                {"action": w["stability"]},
                {"action": w["stability"]},                                                      # second one
                {"action": w["build"], "object": "Ирригационная система", "where": st.capital},  # not allowed
                {"action": w["government"], "object": "Аристократия"},                           # conditions
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
                {"action": w["build"], "object": cheap[0], "where": cheap[1], "qty": -1},     # negative
                {"action": w["build"], "object": cheap[0], "where": cheap[1], "qty": 1.5},    # fractional
                {"action": w["build"], "object": Formula('=IMPORTXML("http://x","//a")'), "where": cheap[1]},
                {"action": "Построит дворец", "object": "Дворец", "where": cheap[1]},    # unknown action
            ]
        elif i == 4:
            if len(own) > 1:
                src = max(own, key=lambda p: p.population.get("раб", 0))
                dst = next(p for p in own if p.name != src.name)
                rows.append({"action": w["move"], "object": "раб", "where": src.name, "to": dst.name, "qty": 1})
            grey = _grey_neighbour(c, name)
            if grey:
                rows.append({"action": w["colonise"], "where": grey})
            rows.append({"action": w["pay"], "to": chosen[0], "qty": 5})
        else:
            rows = [{"action": w["none"]}]
        if tech and i < 5:
            rows.append({"action": w["research"], "object": tech})
        out[name] = rows
    return out
