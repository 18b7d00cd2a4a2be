"""The dropdowns of an order tab (issue 16, point 9): what each input column offers.

«Действие» lists the order words; «Объект» everything an action takes (buildings, units,
technologies, goods, strata, forms of government) and «Куда» provinces and states, both from a
hidden tab «Списки» the campaign is created with: a dropdown reads one range, and these lists
span several rules tabs. One combined list for every action rather than a list per action: Google's
dropdowns cannot depend on another cell, and a sheet should offer the same on every backend.
The lists cover every row below the header (`Validation.last_row` 0), so a row a player adds in a
spreadsheet program has them too; the dropdowns do not restrict (an army's name is typed).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.layout import Column, Layout
from engine.core.tables import Grid, TabSpec, Validation

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


def objects(rules: Rules, lang: str) -> list[str]:
    """What «Объект» takes, in the campaign's language: buildings, units, technologies, goods,
    strata, forms of government (each once, in that order)."""
    en = lang == "en"
    names = [b.name_en if en else b.name_ru for b in rules.buildings.values()]
    names += [u.name_en if en else u.type for u in rules.units.values()]
    names += [t.name_en if en else t.name_ru for t in rules.techs.values()]
    names += [g.name_en if en else g.name_ru for g in rules.goods.values()]
    names += [STRATA_NAMES[s][1] if en else s for s in STRATA]
    names += [g.name_en if en else g.name_ru for g in rules.governments.values()]
    return list(dict.fromkeys(n for n in names if n))


def targets(c: Campaign) -> list[str]:
    """What «Куда» takes: provinces, then states."""
    return list(dict.fromkeys([*c.provinces, *c.states]))


def lists_tab(c: Campaign, rules: Rules, lang: str) -> tuple[TabSpec, ListSizes]:
    """The hidden tab the dropdowns read, and the sizes of its lists."""
    things, places = objects(rules, lang), targets(c)
    grid: Grid = [LISTS.header(lang)]
    for i in range(max(len(things), len(places))):
        grid.append([things[i] if i < len(things) else None, places[i] if i < len(places) else None])
    tab = TabSpec(LISTS.tab_name(lang), grid, LISTS.widths(), hidden=True, kind="rules")
    return tab, ListSizes(len(things), len(places), len(c.provinces))


def order_validations(lang: str, sizes: ListSizes | None) -> tuple[Validation, ...]:
    """The dropdowns of an order tab, from row 2 to the last row (None: the action words only)."""
    words = tuple(en if lang == "en" else ru for ru, en, _m in ACTIONS.values())
    out = [Validation(2, 0, ORDERS.col("action"), options=words)]
    if sizes is None:
        return tuple(out)
    lists = LISTS.tab_name(lang)
    provinces = PROVINCES.tab_name(lang)
    if sizes.objects:
        out.append(Validation(2, 0, ORDERS.col("object"), source=f"'{lists}'!$A$2:$A${sizes.objects + 1}"))
    if sizes.provinces:
        out.append(Validation(2, 0, ORDERS.col("where"), source=f"'{provinces}'!$A$2:$A${sizes.provinces + 1}"))
    if sizes.targets:
        out.append(Validation(2, 0, ORDERS.col("to"), source=f"'{lists}'!$B$2:$B${sizes.targets + 1}"))
    return tuple(out)
