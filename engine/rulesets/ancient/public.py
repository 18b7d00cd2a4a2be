"""What players look at: the balance sheet, the history of every state, the charts' data.

The balance sheet is a pivot of the turn's ledger with a fixed column layout (so the formats
and highlights set when the campaign was made keep fitting), totals as spreadsheet formulas
(a real spreadsheet recomputes them: a check on our arithmetic), a note on every state's totals
listing the ledger lines behind them, and rows ordered by the GM's `balance_sort` parameter.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from fractions import Fraction

from engine.core import i18n
from engine.core.ledger import LedgerEntry, Resource
from engine.core.money import fmt, to_cell
from engine.core.tables import Cell, Chart, Formula, Grid, Highlight, column_letter, is_blank

from .messages import _
from .model import Campaign
from .resources import BALANCED, MONEY
from .rules import Rules

INCOME = ("налоги", "торговля", "монетный двор", "рудники", "правление", "грабёж", "события", "дань и платежи")
EXPENSE = (
    "строительство",
    "стабильность",
    "страты",
    "переселение",
    "колонизация",
    "войска",
    "содержание войск",
    "война: переходы",
    "правление",
    "грабёж",
    "события",
    "дань и платежи",
)
MAX_TURNS = 60  # rows the charts cover
CHART_STATES = 10  # lines per chart at most: each keeps a colour of its own; more states get more charts


def chart_states(world: Campaign, players: Iterable[str] = ()) -> list[str]:
    """The states the charts follow: every played one -- not AI, or with an order tab (`players`: a
    player who missed turns and was handed to the AI is still in the game's story) -- or all of
    them when none is played.  The workbook's charts fix the list at campaign creation; the
    «История» tab keeps every state."""
    played = {n for n, st in world.states.items() if not st.ai} | {n for n in players if n in world.states}
    return sorted(played or world.states)


def chart_groups(count: int, size: int = CHART_STATES) -> list[tuple[int, int]]:
    """Split `count` charted states into as few groups of at most `size` as will do, of even sizes:
    (first, last) 0-based inclusive positions, e.g. 17 -> [(0, 8), (9, 16)]."""
    if count <= 0:
        return []
    groups = -(-count // size)
    base, extra = divmod(count, groups)
    out, start = [], 0
    for g in range(groups):
        n = base + (g < extra)
        out.append((start, start + n - 1))
        start += n
    return out


HISTORY_TAB = {"ru": "История", "en": "History"}
CHARTS_TAB = {"ru": "Графики", "en": "Charts"}
TOTAL = {"ru": "Итого", "en": "Total"}


def unit_of(resource: Resource) -> str:
    """A resource's unit in the current language («Д», "D"; «очки науки», "science points")."""
    return _.pgettext("ledger", resource.unit)


def money_unit() -> str:
    """The money's short name in the current language («Д», "D")."""
    return unit_of(MONEY)


def category(name: str) -> str:
    """A ledger category («налоги») in the current language: the ledger keeps the Russian key."""
    return _.pgettext("ledger", name)


def columns(lang: str) -> list[str]:
    """The balance tab's header in `lang`."""
    with i18n.using(lang):
        d = money_unit()
        head = [_("Государство"), _("Казна на начало, {d}").format(d=d)]
        head += [_("Доход: {category}").format(category=category(c)) for c in INCOME]
        head += [_("Доход, всего")]
        head += [_("Расход: {category}").format(category=category(c)) for c in EXPENSE]
        head += [
            _("Расход, всего"),
            _("Казна на конец, {d}").format(d=d),
            _("Ст было"),
            _("Ст"),
            _("Провинции"),
            _("Население"),
            _("Наука"),
        ]
        for res in BALANCED[1:]:
            head += _resource_columns(res)
        return head


def _resource_columns(res: Resource) -> list[Cell]:
    """The header of one further resource's block (in the current language)."""
    name, unit = i18n_title(res), unit_of(res)
    return [
        _("{resource} на начало, {unit}").format(resource=name, unit=unit),
        _("{resource}: получено").format(resource=name),
        _("{resource}: потрачено").format(resource=name),
        _("{resource} на конец, {unit}").format(resource=name, unit=unit),
    ]


def i18n_title(res: Resource) -> str:
    """A resource's name as a column begins with it, in the current language («Наука»)."""
    return res.title(i18n.current())


# 1-based positions in the fixed layout
C_OPEN = 2
C_INC0 = 3
C_INC_TOTAL = C_INC0 + len(INCOME)
C_EXP0 = C_INC_TOTAL + 1
C_EXP_TOTAL = C_EXP0 + len(EXPENSE)
C_CLOSE = C_EXP_TOTAL + 1
C_ST_WAS = C_CLOSE + 1
C_ST = C_ST_WAS + 1
WIDTH = C_ST + 3  # provinces, population, science follow the stability
BLOCK = 4  # columns of each further resource (BALANCED[1:]): opening, gained, spent, closing
FULL_WIDTH = WIDTH + BLOCK * (len(BALANCED) - 1)


def block_start(index: int) -> int:
    """The first column of the block of ``BALANCED[index]`` (index >= 1)."""
    return WIDTH + 1 + BLOCK * (index - 1)


def balance(
    before: Campaign, after: Campaign, entries: list[LedgerEntry], lang: str, sort_key: int = 0
) -> tuple[Grid, list[tuple[int, int, str]]]:
    """The balance grid and its notes ((row, col, text) in sheet coordinates)."""
    money = [e for e in entries if e.resource == MONEY.code]
    others = {res.code: defaultdict(list) for res in BALANCED[1:]}  # resource -> state -> its lines
    for e in entries:
        if e.resource in others:
            others[e.resource][e.state].append(e)
    lines: dict[str, list[LedgerEntry]] = defaultdict(list)
    for e in money:
        lines[e.state].append(e)
    # per state, (side, category) -> the sum of its money lines (exact fractions; no table library needed)
    sums: dict[str, dict[tuple[str, str], Fraction]] = defaultdict(dict)
    for e in money:
        key = ("in" if e.amount > 0 else "out", e.category)
        sums[e.state][key] = sums[e.state].get(key, Fraction(0)) + Fraction(e.amount)
    by_owner = after.by_owner()
    names = list(after.states)
    if sort_key == 1:
        names.sort(key=lambda n: (-after.states[n].treasury, n))
    elif sort_key == 2:
        names.sort(key=lambda n: (-after.states[n].stability, n))
    elif sort_key == 3:
        names.sort(key=lambda n: (-len(by_owner.get(n, [])), n))
    else:
        names.sort()
    grid: Grid = [list(columns(lang))]
    notes: list[tuple[int, int, str]] = []
    inc_a, inc_b = column_letter(C_INC0), column_letter(C_INC_TOTAL - 1)
    exp_a, exp_b = column_letter(C_EXP0), column_letter(C_EXP_TOTAL - 1)
    for name in names:
        st = after.states[name]
        r = len(grid) + 1
        was = before.states.get(name)
        opening = was.treasury if was else st.treasury
        provs = by_owner.get(name, [])
        row: list[Cell] = [name, to_cell(opening)]
        row += [_amount_or_blank(sums[name].get(("in", c))) for c in INCOME]
        row += [Formula(f"=SUM({inc_a}{r}:{inc_b}{r})")]
        row += [_amount_or_blank(-sums[name].get(("out", c), Fraction(0))) for c in EXPENSE]
        row += [
            Formula(f"=SUM({exp_a}{r}:{exp_b}{r})"),
            to_cell(st.treasury),
            was.stability if was else st.stability,
            st.stability,
            len(provs),
            sum(p.people() for p in provs),
            to_cell(st.science),
        ]
        for i, res in enumerate(BALANCED[1:], start=1):  # each further resource from its ledger lines
            posted = others[res.code][name]
            gained = sum((e.amount for e in posted if e.amount > 0), Fraction(0))
            spent = -sum((e.amount for e in posted if e.amount < 0), Fraction(0))
            closing = after.balance(name, res.code)
            opening = before.balance(name, res.code) if name in before.states else closing - gained + spent
            row += [to_cell(opening), _amount_or_blank(gained), _amount_or_blank(spent), to_cell(closing)]
            start = block_start(i)
            notes += _row_notes(r, posted, res, (start + 1, start + 2))
        grid.append(row)
        notes += _row_notes(r, lines[name])
    last = len(grid)
    total: list[Cell] = [TOTAL.get(lang, TOTAL["ru"])]
    for c in range(C_OPEN, FULL_WIDTH + 1):
        letter = column_letter(c)
        total.append(Formula(f"=SUM({letter}2:{letter}{last})") if c not in (C_ST_WAS, C_ST) else None)
    grid.append(total)
    return grid, notes


def number_formats() -> dict[int, str]:
    """The balance's number formats, the money's name in the current language."""
    d = money_unit()
    money = f'#,##0.##" {d}";−#,##0.##" {d}";""'  # zeros stay blank: the eye finds the numbers that matter
    out = {c: money for c in range(C_OPEN, C_CLOSE + 1)}
    out.update({C_ST_WAS: "+0;-0;0", C_ST: "+0;-0;0", WIDTH: "#,##0.##"})
    out.update({c: '#,##0.##;−#,##0.##;""' for c in range(WIDTH + 1, FULL_WIDTH + 1)})
    return out


def _amount_or_blank(value: Fraction | None) -> Cell:
    """A category cell: blank when nothing moved (the number format shows zeros blank anyway, and
    a blank costs nothing to send to Google)."""
    return to_cell(value) if value else None


def _row_notes(r: int, lines: list[LedgerEntry], res: Resource = MONEY,
               cols: tuple[int, int] = (C_INC_TOTAL, C_EXP_TOTAL)) -> list[tuple[int, int, str]]:
    """The notes of one balance row for one resource: the income lines on its income column
    («Доход, всего») and the expense lines on its expense column («Расход, всего»); the row itself
    shows how they make the closing balance.  An empty text means no note."""
    income = [e for e in lines if e.amount > 0]
    expense = [e for e in lines if e.amount < 0]

    def listing(entries: list[LedgerEntry]) -> str:
        return "\n".join(
            _("{category}: {amount} {d} — {reason}").format(
                category=category(e.category), amount=fmt(e.amount, sign=True), d=unit_of(res), reason=e.reason
            )
            for e in entries
        )

    return [(r, cols[0], listing(income)), (r, cols[1], listing(expense))]


def highlights(rows: int) -> list[Highlight]:
    """Deficits and falling stability in red; a growing treasury in green."""
    last = rows + 40
    close, opening = column_letter(C_CLOSE), column_letter(C_OPEN)
    inc, exp = column_letter(C_INC_TOTAL), column_letter(C_EXP_TOTAL)
    st, was = column_letter(C_ST), column_letter(C_ST_WAS)
    return [
        Highlight(f"{close}2:{close}{last}", f"=AND(ISNUMBER({close}2),{close}2<0)", "E06666"),
        Highlight(f"{exp}2:{exp}{last}", f"=AND(ISNUMBER({exp}2),{exp}2>{inc}2)", "F4CCCC"),
        Highlight(f"{st}2:{st}{last}", f"=AND(ISNUMBER({st}2),{st}2<{was}2)", "F4CCCC"),
        Highlight(f"{close}2:{close}{last}", f"=AND(ISNUMBER({close}2),{close}2>{opening}2)", "D9EAD3"),
    ]


HISTORY_COLUMNS = {
    "ru": [
        "Ход",
        "Государство",
        "Казна, Д",
        "Доход, Д",
        "Расход, Д",
        "Ст",
        "Провинции",
        "Население",
        "Наука",
        "Сила армии",
    ],
    "en": [
        "Turn",
        "State",
        "Treasury",
        "Income",
        "Expenses",
        "Stability",
        "Provinces",
        "Population",
        "Science",
        "Army strength",
    ],
}


def history_rows(turn: int, after: Campaign, entries: list[LedgerEntry], rules: Rules) -> Grid:
    """One row per state for the turn just resolved (the «История» tab)."""
    by_owner = after.by_owner()
    inc: dict[str, Fraction] = defaultdict(Fraction)
    exp: dict[str, Fraction] = defaultdict(Fraction)
    for e in entries:
        if e.resource == MONEY.code:
            if e.amount > 0:
                inc[e.state] += e.amount
            else:
                exp[e.state] -= e.amount
    strength: dict[str, int] = defaultdict(int)
    for force, units in [
        *((a, a.units) for a in after.armies.values()),
        *((f, f.ships) for f in after.fleets.values()),
    ]:
        strength[force.state] += sum(rules.units[t].strength * n for t, n in units.items() if t in rules.units)
    out: Grid = []
    for name in sorted(after.states):
        st = after.states[name]
        provs = by_owner.get(name, [])
        out.append(
            [
                turn,
                name,
                to_cell(st.treasury),
                to_cell(inc[name]),
                to_cell(exp[name]),
                st.stability,
                len(provs),
                sum(p.people() for p in provs),
                to_cell(st.science),
                strength[name],
            ]
        )
    return out


def charts_grid(history: Grid, states: list[str], lang: str) -> Grid:
    """Treasury and stability pivots (turn × state) that the charts draw."""
    treasury: dict[int, dict[str, Cell]] = defaultdict(dict)
    stability: dict[int, dict[str, Cell]] = defaultdict(dict)
    for row in history:
        if len(row) < 6 or is_blank(row[0]):
            continue
        t = int(row[0])  # type: ignore[arg-type]
        treasury[t][str(row[1])] = row[2]
        stability[t][str(row[1])] = row[5]
    turns = sorted(treasury)[-MAX_TURNS:]
    with i18n.using(lang):
        turn_word, stability_word = _("Ход"), _("Стабильность")
    grid: Grid = [[turn_word, *states]]
    for t in turns:
        grid.append([t, *[treasury[t].get(s) for s in states]])
    while len(grid) < MAX_TURNS + 1:
        grid.append([None] * (len(states) + 1))
    grid.append([None] * (len(states) + 1))
    grid.append([stability_word, *states])
    for t in turns:
        grid.append([t, *[stability[t].get(s) for s in states]])
    return grid


CHART_ROWS = 50  # rows between two groups' charts (a chart is about 20 rows tall)


def chart_specs(states: int, lang: str) -> list[Chart]:
    """A treasury and a stability chart per group of at most CHART_STATES charted states, over the
    pivots of :func:`charts_grid` (columns 2.. are the states), drawn right of the pivots."""
    top = MAX_TURNS + 3
    anchor = column_letter(states + 3)
    groups = chart_groups(states)
    out: list[Chart] = []
    for g, (first, last) in enumerate(groups):
        part = f" ({g + 1}/{len(groups)})" if len(groups) > 1 else ""
        cols = {"first_col": 1, "series_from": first + 2, "last_col": last + 2}
        with i18n.using(lang):
            treasury, stability = _("Казна по ходам") + part, _("Стабильность по ходам") + part
            money, st = money_unit(), _("Ст")
        out.append(Chart(treasury, f"{anchor}{1 + g * CHART_ROWS}", 1, MAX_TURNS + 1, y_title=money, **cols))
        out.append(Chart(stability, f"{anchor}{25 + g * CHART_ROWS}", top, top + MAX_TURNS, y_title=st, **cols))
    return out
