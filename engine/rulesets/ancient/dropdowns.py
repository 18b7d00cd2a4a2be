"""The dropdowns of an order tab (issue 16, point 9): what each input column offers.

«Действие» lists the order words; «Объект» everything an action takes (buildings, units,
technologies, goods, strata, forms of government) and «Куда» provinces and states, both from a
hidden tab «Списки» the campaign is created with: a dropdown reads one range, and these lists
span several rules tabs. In .xlsx «Объект» offers what the row's action takes (a column of «Списки»
per action, picked by the action's word; everything for another word or none); Google's dropdowns
cannot depend on another cell, so there it offers the combined list.
The lists cover every row below the header (`Validation.last_row` 0), so a row a player adds in a
spreadsheet program has them too; the dropdowns do not restrict (an army's name is typed).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.layout import Column, Layout
from engine.core.tables import Grid, TabSpec, Validation, column_letter

from .model import Campaign
from .rules import Rules
from .vocab import ACTIONS, ORDERS, PROVINCES, STRATA, STRATA_NAMES

LISTS = Layout(
    "Списки",
    "Lists",
    (
        Column("object", "Объект", "Object", width=30),
        Column("to", "Куда", "To", width=30),
    ),
)


@dataclass(frozen=True)
class ListSizes:
    """How many entries the dropdown sources hold (their ranges end there)."""

    objects: int
    targets: int
    provinces: int
    actions: int = 0  # columns of the lists by action (from column C)
    longest: int = 0  # rows of the longest list


def _kinds(rules: Rules, lang: str) -> dict[str, list[str]]:
    """Each kind of object in the campaign's language: buildings, units, technologies, goods,
    strata, forms of government."""
    en = lang == "en"
    return {
        "buildings": [b.name_en if en else b.name_ru for b in rules.buildings.values()],
        "units": [u.name_en if en else u.type for u in rules.units.values()],
        "techs": [t.name_en if en else t.name_ru for t in rules.techs.values()],
        "goods": [g.name_en if en else g.name_ru for g in rules.goods.values()],
        "strata": [STRATA_NAMES[s][1] if en else s for s in STRATA],
        "governments": [g.name_en if en else g.name_ru for g in rules.governments.values()],
    }


# the action -> the kind of object it takes (the dependent lists of «Объект»)
TAKES = {
    "build": "buildings",
    "raze": "buildings",
    "recruit": "units",
    "disband": "units",
    "research": "techs",
    "trade": "goods",
    "cancel_route": "goods",
    "move": "strata",
    "colonise": "strata",
    "convert": "strata",
    "government": "governments",
}


def objects(rules: Rules, lang: str) -> list[str]:
    """What «Объект» takes, in the campaign's language: buildings, units, technologies, goods,
    strata, forms of government (each once, in that order)."""
    return list(dict.fromkeys(n for names in _kinds(rules, lang).values() for n in names if n))


def by_action(rules: Rules, lang: str) -> dict[str, list[str]]:
    """The action word (as the action dropdown offers it) -> what «Объект» takes for it."""
    kinds = _kinds(rules, lang)
    return {
        (ACTIONS[key][1] if lang == "en" else ACTIONS[key][0]): list(dict.fromkeys(n for n in kinds[kind] if n))
        for key, kind in TAKES.items()
    }


def targets(c: Campaign) -> list[str]:
    """What «Куда» takes: provinces, then states."""
    return list(dict.fromkeys([*c.provinces, *c.states]))


def lists_tab(c: Campaign, rules: Rules, lang: str) -> tuple[TabSpec, ListSizes]:
    """The hidden tab the dropdowns read, and the sizes of its lists: «Объект» (everything),
    «Куда», then a column per action headed by its word with what it takes."""
    things, places, per_action = objects(rules, lang), targets(c), by_action(rules, lang)
    columns = [things, places, *per_action.values()]
    grid: Grid = [[*LISTS.header(lang), *per_action]]
    for i in range(max(len(col) for col in columns)):
        grid.append([col[i] if i < len(col) else None for col in columns])
    widths = {**LISTS.widths(), **{i: 24 for i in range(3, len(columns) + 1)}}
    tab = TabSpec(LISTS.tab_name(lang), grid, widths, hidden=True, kind="rules")
    return tab, ListSizes(len(things), len(places), len(c.provinces), len(per_action), len(grid) - 1)


def order_validations(lang: str, sizes: ListSizes | None) -> tuple[Validation, ...]:
    """The dropdowns of an order tab, from row 2 to the last row (None: the action words only)."""
    words = tuple(en if lang == "en" else ru for ru, en, _m in ACTIONS.values())
    out = [Validation(2, 0, ORDERS.col("action"), options=words)]
    if sizes is None:
        return tuple(out)
    lists = LISTS.tab_name(lang)
    provinces = PROVINCES.tab_name(lang)
    if sizes.objects:
        block = ""
        if sizes.actions:  # where the backend allows, the list of what the row's action takes
            block = f"'{lists}'!$C$1:${column_letter(2 + sizes.actions)}${sizes.longest + 1}"
        out.append(
            Validation(2, 0, ORDERS.col("object"), source=f"'{lists}'!$A$2:$A${sizes.objects + 1}",
                       depends_on=ORDERS.col("action") if block else 0, choices=block)
        )
    if sizes.provinces:
        out.append(Validation(2, 0, ORDERS.col("where"), source=f"'{provinces}'!$A$2:$A${sizes.provinces + 1}"))
    if sizes.targets:
        out.append(Validation(2, 0, ORDERS.col("to"), source=f"'{lists}'!$B$2:$B${sizes.targets + 1}"))
    return tuple(out)
