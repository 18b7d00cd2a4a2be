"""Generated campaigns of any size, deterministic from a seed: for benchmarks and scale tests.

The world is a grid of provinces, about four per state, with grey provinces between blocks,
coasts along the grid's edge rows, sea zones along them, an army per state and a fleet for
coastal states. The result has the shape of a scenario file (templates/ancient/scenarios/*.yaml).
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import i18n

from .messages import _
from .speech import count

GOVERNMENTS = ("monarchy", "aristocracy", "oligarchy", "despotism", "tyranny", "democracy", "theocracy")
SPECS = ("зерно", "рыба", "скот", "лес", "железо", "вино", "оливковое масло", "лён", "лошади", "золото", "соль")
TERRAINS = ("равнина", "равнина", "горы", "лес")
TECHS = (
    "Натуральный обмен",
    "Служители культа",
    "Деревянные строения",
    "Колесница",
    "Сыродувная печь",
    "Математика",
    "Каменные строения",
    "Кораблестроение",
    "Прялка",
    "Гончарный круг",
)


def generate(states: int, seed: int = 1, per_state: int = 4) -> dict[str, Any]:
    """A scenario with `states` states of `per_state` provinces each, plus a grey province per state."""
    rng = random.Random(seed)
    width = max(4, int((states * (per_state + 1)) ** 0.5) + 1)
    cells: list[str] = []
    title = _("Сгенерированный мир: {states}").format(states=count(states, "государство"))
    with i18n.using("en"):  # the English campaign's title of the same world
        title_en = _("Сгенерированный мир: {states}").format(states=count(states, "государство"))
    data: dict[str, Any] = {
        "name": title,
        "name_en": title_en,
        "states": [],
        "provinces": [],
        "adjacency": [],
        "sea_zones": [],
        "armies": [],
        "fleets": [],
        "relations": [],
    }
    total = states * (per_state + 1)
    height = (total + width - 1) // width
    zones = max(1, width // 3)
    for i in range(total):
        r, c = divmod(i, width)
        name = f"П{r:03d}-{c:03d}"
        cells.append(name)
        name_en = f"P{r:03d}-{c:03d}"  # its name in an English campaign (naming.py)
        owner_index = i // (per_state + 1)
        grey = i % (per_state + 1) == per_state
        coastal = r in (0, height - 1)
        zone = 1 + (c // 3) + (zones if r == height - 1 else 0)
        data["provinces"].append(
            {
                "name": name,
                "name_en": name_en,
                "owner": "" if grey else f"Г{owner_index:04d}",
                "terrain": rng.choice(TERRAINS),
                "specialisation": "зерно" if i % (per_state + 1) == 0 else rng.choice(SPECS),
                "coastal": coastal,
                "sea_zones": [zone] if coastal else [],
                "buildings": ["Зерновая ферма"] if i % (per_state + 1) == 0 else [],
                "population": {"СГ": rng.randint(1, 5), "раб": rng.randint(2, 5), "АР": rng.randint(0, 1)},
            }
        )
        if c > 0:
            data["adjacency"].append([cells[i - 1], name, "река" if rng.random() < 0.1 else "суша"])
        if r > 0:
            data["adjacency"].append([cells[i - width], name, "суша"])
    for z in range(1, 2 * zones + 1):
        neighbours = [n for n in (z - 1, z + 1) if 1 <= n <= 2 * zones and (n - 1) // zones == (z - 1) // zones]
        data["sea_zones"].append({"zone": z, "name": "", "neighbours": neighbours})
    for s in range(states):
        name = f"Г{s:04d}"
        capital = cells[s * (per_state + 1)]
        cap = data["provinces"][s * (per_state + 1)]
        data["states"].append(
            {
                "name": name,
                "name_en": f"S{s:04d}",
                "major": True,
                "government": GOVERNMENTS[s % len(GOVERNMENTS)],
                "path": "western" if s % 2 else "eastern",
                "capital": capital,
                "stability": rng.randint(0, 2),
                "treasury": rng.randint(50, 200),
                "science": rng.randint(0, 30),
                "techs": rng.sample(TECHS, 7),
                "ai": s % 5 == 4,
                "player": "",
            }
        )
        data["armies"].append(
            {
                "name": f"{name}: 1-я армия",
                "state": name,
                "province": capital,
                "units": {"ЛП": rng.randint(1, 4), "Луч.": rng.randint(0, 2), "ТП": rng.randint(0, 2)},
            }
        )
        if cap["coastal"]:
            data["fleets"].append(
                {"name": f"{name}: флот", "state": name, "zone": cap["sea_zones"][0], "ships": {"У": rng.randint(1, 2)}}
            )
    for s in range(0, states - 1, 10):
        data["relations"].append([f"Г{s:04d}", f"Г{s + 1:04d}", "война"])
    for st in data["states"]:
        if st["ai"]:
            st["stability"] = 0
    return data


def generate_orders(campaign: Any, rules: Any, seed: int = 1, per_state: int = 10) -> dict[str, list[dict[str, Any]]]:
    """About `per_state` orders for every player state of a generated campaign: builds, stability,
    research, recruits, marches, trade routes, conversions, payments, resettlement."""
    from .phases.expenses import why_not
    from .staffing import garrisons, province_output

    rng = random.Random(seed)
    held = garrisons(campaign)
    by_owner = campaign.by_owner()
    out: dict[str, list[dict[str, Any]]] = {}
    names = sorted(campaign.states)
    for name in names:
        st = campaign.states[name]
        if st.ai:
            continue
        own = sorted(by_owner.get(name, []), key=lambda p: p.name)
        rows: list[dict[str, Any]] = []
        for p in own[:2]:
            legal = [b.name_ru for b in rules.buildings.values() if why_not(campaign, st, p, b, rules) is None]
            if legal:
                rows.append({"action": "Построить", "object": rng.choice(legal), "where": p.name})
        rows.append({"action": "Стабильность"})
        learn = [
            t.name_ru
            for t in rules.techs.values()
            if t.name_ru not in st.techs and all(x in st.techs for x in t.prerequisites)
        ]
        if learn:
            rows.append({"action": "Изучить", "object": rng.choice(learn)})
        if own:
            rows.append({"action": "Набрать", "object": "ЛП", "where": own[0].name, "qty": 1})
        army = next((a for a in campaign.armies.values() if a.state == name), None)
        if army is not None and len(own) > 1:
            rows.append({"action": "Двинуть", "object": army.name, "to": own[1].name})
        for p in own:
            made = sorted(province_output(p, rules, garrisoned_at=held))
            targets = sorted(
                n
                for n in campaign.neighbours(p.name)
                if campaign.provinces[n].owner and campaign.provinces[n].owner != name
            )
            if made and targets:
                rows.append({"action": "Торговать", "object": made[0], "where": p.name, "to": targets[0]})
                break
        if own:
            rows.append({"action": "Перевести", "object": "раб → СГ", "where": own[0].name, "qty": 1})
        if len(own) > 1:
            rows.append({"action": "Переселить", "object": "раб", "where": own[0].name, "to": own[1].name, "qty": 1})
        rows.append({"action": "Заплатить", "to": rng.choice(names), "qty": 1})
        out[name] = rows[:per_state]
    return out
