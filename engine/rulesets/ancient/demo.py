"""Sample orders for the demo campaign: every implemented order kind, and a few bad rows.

Chosen from the campaign itself with the engine's own rules (`why_not`), so the demo stays
meaningful when the scenario or the rules tables change.
"""

from __future__ import annotations

from engine.core.tables import Cell, Formula

from .model import Campaign
from .phases.expenses import why_not
from .rules import Rules

Row = dict[str, Cell]


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


def sample_orders(c: Campaign, rules: Rules, lang: str = "ru") -> dict[str, list[Row]]:
    """state -> rows (action, object, where, qty) for up to five player states."""
    build, stab, none = ("Build", "Stability", "No actions") if lang == "en" else (
        "Построить", "Стабильность", "Нет действий")
    players = [s for s in c.states.values() if not s.ai]
    players = sorted(players, key=lambda s: -len(c.by_owner().get(s.name, [])))
    chosen = [s.name for s in players if _legal(c, rules, s.name)][:5]
    out: dict[str, list[Row]] = {}
    if not chosen:
        return out
    foreign = next(p.name for p in c.provinces.values() if p.owner and p.owner != chosen[0])
    for i, name in enumerate(chosen):
        legal = sorted(_legal(c, rules, name), key=lambda t: t[2])
        st = c.states[name]
        cheap = legal[0]
        rows: list[Row] = [{"action": build, "object": cheap[0], "where": cheap[1]}]
        if i == 0:
            rows += [
                {"action": stab},
                {"action": build, "object": cheap[0], "where": _misspell(cheap[1])},  # typo
                {"action": build, "object": cheap[0], "where": foreign},            # not ours
            ]
        elif i == 1:
            rows += [
                {"action": stab},
                {"action": stab},                                                      # second one
                {"action": build, "object": "Ирригационная система", "where": st.capital},  # not allowed
            ]
        elif i == 2:
            spent = cheap[2]
            for b_name, p_name, cost in sorted(legal[1:], key=lambda t: -t[2])[:6]:
                rows.append({"action": build, "object": b_name, "where": p_name})
                spent += cost
                if spent > float(st.treasury):
                    break  # this row cannot be paid: «не хватает … Д»
            else:
                rows += [{"action": stab}, {"action": build, "object": cheap[0], "where": cheap[1]}]
        elif i == 3:
            rows += [
                {"action": build, "object": cheap[0], "where": cheap[1], "qty": -1},     # negative
                {"action": build, "object": cheap[0], "where": cheap[1], "qty": 1.5},    # fractional
                {"action": build, "object": Formula('=IMPORTXML("http://x","//a")'), "where": cheap[1]},
                {"action": "Построит дворец", "object": "Дворец", "where": cheap[1]},    # unknown action
            ]
        else:
            rows = [{"action": none}]
        out[name] = rows
    return out
