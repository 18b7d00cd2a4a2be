"""What civ1 tells (issue 18, point 8): the public forum post of a turn, a nation's private report,
the balance of each of its resources, and the public chart.

Hidden information decides what goes where.  The post and the chart draw only on public tabs
(«Журнал», «Бои», «Города», «Нации»): what a nation holds alone (Power, coins, science,
technologies, deck, buildings, hammers, spies, what its spies and villages told it) is in none of
them.  The balance of each resource is therefore per nation, never public: a block of the nation's
own «Держава» tab (its opening, what came in and went out by category, its closing), written by
the resolve from the window's ledger; the private report is that tab and the window's lines of
the nation's own log «Донесения», both of which live in the nation's own book alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core import history, inert, meta
from engine.core.cursor import Cursor, CursorError, covers, turn_of
from engine.core.errors import CampaignError
from engine.core.i18n import using
from engine.core.ledger import LedgerEntry
from engine.core.tables import Cell, Grid, Tables, is_blank

from .calendar import CALENDAR
from .messages import _, category
from .model import World
from .phases.combat import HEADER
from .resources import HAMMERS, NATIONAL, RESOURCES
from .vocab import BATTLES, CHRONICLE, CITIES_TAB, STATE, dispatches_tab, realm_tab

CHART_NATIONS = 10  # lines per panel at most (the most populous); more would share colours


def _lang(tables: Tables) -> str:
    return meta.lang(tables) or "ru"


def _window_of(value: object) -> Cursor | None:
    """The window a row's stamp («2:государство») names; None for anything else."""
    try:
        return CALENDAR.parse(str(value))
    except (CursorError, ValueError):
        return None


def _in(value: object, at: int | Cursor) -> bool:
    """Whether a row stamped `value` belongs to `at` (a turn, or one window: cursor.covers)."""
    stamp = _window_of(value)
    return stamp is not None and covers(at, stamp)


def _words(at: int | Cursor, lang: str) -> str:
    """«2» for a turn, «2:города» for one window of it."""
    return CALENDAR.format(at, lang) if isinstance(at, Cursor) and at.stage else str(turn_of(at))


# ------------------------------------------------------------------ formats


def neutral(text: object, fmt: str) -> str:
    """Text from the sheet made inert for a post: a player's «[url=…]», «<img …>», «**» or
    «=FORMULA()» opens no tag, link or formula (the core's helper of that format: engine/core/inert.py)."""
    return inert.inert(text, fmt)


def _bold(text: str, fmt: str) -> str:
    if fmt == "bbcode":
        return f"[b]{text}[/b]"
    if fmt == "markdown":
        return f"**{text}**"
    raise CampaignError(_("формат отчёта — bbcode или markdown, а не «{fmt}»").format(fmt=fmt))


def split_posts(lines: list[str], limit: int) -> list[str]:
    """Lines joined into posts of at most `limit` characters, a line never cut (a longer line is a
    post of its own)."""
    posts: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + 1 + len(line) > limit:
            posts.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    return [*posts, current]


# ------------------------------------------------------------------ the forum post


def _col(name: str) -> int:
    """The index of a «Бои» column in its rows (the window's stamp first, then combat.HEADER)."""
    return 1 + HEADER.index(name)


def _cell(r: Sequence[Cell], name: str, fmt: str) -> str:
    i = _col(name)
    return neutral(r[i] if i < len(r) else None, fmt)


def _side(r: Sequence[Cell], fmt: str, side: str) -> str:
    """One side of a duel: «ватага + катапульта: кубики [3, 5], бонус 1, итого 9»."""
    cols = {"attack": ("Войско атаки", "Поддержка атаки", "Кубики атаки", "Бонус атаки", "Итого атаки"),
            "defence": ("Войско защиты", "Поддержка защиты", "Кубики защиты", "Бонус защиты", "Итого защиты")}[side]
    unit, support, dice, bonus, total = (_cell(r, c, fmt) for c in cols)
    return _("{unit}{support}: кубики [{dice}], бонус {bonus}, итого {total}").format(
        unit=unit, support=f" + {support}" if support else "", dice=dice, bonus=bonus or "0", total=total)


def battle_lines(rows: Sequence[Sequence[Cell]], fmt: str) -> list[str]:
    """The «Бои» rows of a window as lines: each battle (who, from where, on what, its result), then
    each duel with both units, their support, every die, the bonus, the sums and the outcome."""
    lines: list[str] = []
    last: object = None
    for r in rows:
        number = r[1] if len(r) > 1 else None
        if number != last:
            last = number
            wmd = _(" с ОМП") if _cell(r, "ОМП", fmt) else ""
            lines.append(_("Бой {n}: {attacker} ({origin}) атакует {target} ({defender}){wmd} — {result}").format(
                n=neutral(number, fmt), attacker=_cell(r, "Атакующий", fmt), origin=_cell(r, "Откуда", fmt),
                target=_cell(r, "Цель", fmt), defender=_cell(r, "Защитник", fmt) or "—", wmd=wmd,
                result=_cell(r, "Итог боя", fmt)))
        if _cell(r, "Дуэль", fmt):
            lines.append(_("  дуэль {n}: {attack} против {defence} — {outcome}").format(
                n=_cell(r, "Дуэль", fmt), attack=_side(r, fmt, "attack"), defence=_side(r, fmt, "defence"),
                outcome=_cell(r, "Исход дуэли", fmt)))
    return lines


def forum_post(tables: Tables, turn: int | Cursor, fmt: str = "bbcode", limit: int = 60_000) -> list[str]:
    """The public post of `turn` (both of its stages; a window's cursor: that stage alone): its
    chronicle, its battles with every die, and each nation's cities with their population as they
    stood after it — public tabs only (hidden information)."""
    lang = _lang(tables)
    with using(lang):
        _bold("", fmt)  # an unknown format is refused before anything is read
        lines = [_bold(_("Цивилизация 1.0, ход {turn}").format(turn=_words(turn, lang)), fmt), ""]
        lines += [f"{neutral(r[0], fmt)}: {neutral(r[1], fmt)}" for r in tables.get(CHRONICLE.tab_name(lang), [])[1:]
                  if len(r) > 1 and _in(r[0], turn)]
        battles = [r for r in tables.get(BATTLES.tab_name(lang), [])[1:] if r and _in(r[0], turn)]
        if battles:
            lines += ["", _bold(_("Бои"), fmt), *battle_lines(battles, fmt)]
        lines += ["", _bold(_("Города"), fmt)]
        cities: dict[str, list[str]] = {}
        for r in as_of(tables, turn).get(CITIES_TAB.tab_name(lang), [])[1:]:
            if len(r) > 3 and not is_blank(r[0]):
                cities.setdefault(str(r[1]), []).append(f"{neutral(r[0], fmt)} {neutral(r[3], fmt)}")
        lines += [f"{neutral(n, fmt)}: {', '.join(cs)}" for n, cs in sorted(cities.items())]
    return split_posts(lines, limit)


# ------------------------------------------------------------------ the balance of each resource


@dataclass
class Flow:
    """One resource of one nation over a window: its opening, what came in and what went out by
    ledger category, and its closing (hammers summed over the nation's cities)."""

    resource: str
    opening: int
    closing: int
    gained: dict[str, int] = field(default_factory=dict)
    spent: dict[str, int] = field(default_factory=dict)


def _held(world: World, nation: str, code: str) -> int:
    if code == HAMMERS.code:
        return sum(c.hammers for c in world.cities_of(nation))
    return world.balance(nation, code) if nation in world.nations else 0


def flows(opening: World, closing: World, nation: str, entries: Iterable[LedgerEntry]) -> list[Flow]:
    """Every resource of `nation` over the window from `opening` to `closing`, from its own postings
    (its «nation» and «nation/city» accounts)."""
    out = {r.code: Flow(r.code, _held(opening, nation, r.code), _held(closing, nation, r.code))
           for r in (*NATIONAL[:3], HAMMERS, *NATIONAL[3:])}
    for e in entries:
        if e.state.partition("/")[0] != nation or e.resource not in out:
            continue
        book = out[e.resource].gained if e.amount > 0 else out[e.resource].spent
        book[e.category] = book.get(e.category, 0) + abs(int(e.amount))
    return list(out.values())


def balance_rows(moved: Sequence[Flow], lang: str) -> Grid:
    """The block «Баланс ресурсов» of a nation's «Держава» tab: a row per resource (opening, in,
    out, closing) and under it a row per category of what came in (+) and went out (−)."""
    names = {r.code: r.name(lang) for r in RESOURCES}
    with using(lang):
        grid: Grid = [[None, None], [_("Баланс ресурсов за окно"), _("было; пришло; ушло; стало")]]
        for f in moved:
            grid.append([names[f.resource], f"{f.opening}; +{sum(f.gained.values())}; −{sum(f.spent.values())}; "
                                            f"{f.closing}"])
            grid += [[f"  + {category(cat)}", amount] for cat, amount in f.gained.items()]
            grid += [[f"  − {category(cat)}", amount] for cat, amount in f.spent.items()]
    return grid


# ------------------------------------------------------------------ a nation's private report


def as_of(tables: Tables, turn: int | Cursor | None) -> Tables:
    """The campaign as it stood after `turn` (None: as it stands; a window's cursor: after that
    window): the snapshot of the first later window (taken while it was open), else the campaign."""
    if turn is None:
        return tables
    later = [e for e in history.entries(tables) if _later(e.cursor, turn)]
    return later[0].tables() if later else tables


def _later(kept: Cursor, at: int | Cursor) -> bool:
    """Whether a snapshot's window comes after `at` (a turn: after its last window)."""
    if isinstance(at, Cursor) and at.stage:
        return CALENDAR.cursor(kept.turn, kept.stage, kept.round) > CALENDAR.cursor(at.turn, at.stage, at.round)
    return kept.turn > turn_of(at)


def dispatches(tables: Tables, nation: str, turn: int | Cursor | None = None) -> Grid:
    """The rows of `nation`'s «Донесения» (what it alone was told) of `turn`: a turn's both
    windows, a window's cursor that window alone, None the last resolved window.  The log keeps
    every window, so a past window's lines are read from the campaign as it stands."""
    if turn is None:
        kept = history.entries(tables)
        if not kept:
            return []
        turn = kept[-1].cursor
    rows = tables.get(dispatches_tab(nation, _lang(tables)), [])[1:]
    return [list(r) for r in rows if r and _in(r[0], turn)]


def report_lines(tables: Tables, nation: str, turn: int | Cursor | None = None) -> list[str]:
    """A nation's private report after `turn` (None: the last resolved window): its «Держава» tab
    as it stood then (its balances, technologies, deck, cities, its ledger lines and the balance
    of each resource), then what only it was told in that window (or turn), from its «Донесения»:
    one line a row — nothing of another nation's."""
    told = dispatches(tables, nation, turn)
    lang = _lang(tables)
    tables = as_of(tables, turn)
    grid = [*tables.get(realm_tab(nation, lang), [])]
    if told:
        grid += [[None], [dispatches_tab(nation, lang)], *told]
    return [" — ".join(inert.markdown(v) for v in row if not is_blank(v))  # a .md file: names are inert
            for row in grid if any(not is_blank(v) for v in row)]


# ------------------------------------------------------------------ the chart


def _public_counts(tables: Tables, lang: str) -> dict[str, tuple[int, int]]:
    """nation -> (its cities' population, its number of cities), from the public «Города»."""
    out: dict[str, tuple[int, int]] = {}
    for r in tables.get(CITIES_TAB.tab_name(lang), [])[1:]:
        if len(r) > 3 and not is_blank(r[0]) and isinstance(r[3], (int, float)):
            pop, count = out.get(str(r[1]), (0, 0))
            out[str(r[1])] = (pop + int(r[3]), count + 1)
    return out


def chart_series(tables: Tables) -> dict[str, list[tuple[int, int, int]]]:
    """nation -> [(turn, population, cities)] after each turn played (0: the start), from the public
    «Города» of the snapshots of each turn's first window and of the campaign as it stands."""
    lang = _lang(tables)
    points: dict[int, dict[str, tuple[int, int]]] = {}
    for e in history.entries(tables):
        if e.cursor.stage == STATE:
            points[e.turn - 1] = _public_counts(e.tables(), lang)
    at = meta.open_cursor(tables, CALENDAR)
    points[at.turn - 1 if at.stage == STATE else at.turn] = _public_counts(tables, lang)
    series: dict[str, list[tuple[int, int, int]]] = {}
    for turn in sorted(points):
        for nation, (pop, count) in points[turn].items():
            series.setdefault(nation, []).append((turn, pop, count))
    return series


def chart_figure(tables: Tables) -> Any:
    """Population and number of cities of the most populous nations over the turns (public data)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.ticker import MaxNLocator

    lang = _lang(tables)
    series = chart_series(tables)
    chosen = sorted(series, key=lambda n: (-series[n][-1][1], n))[:CHART_NATIONS]
    with using(lang):
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
        for nation in chosen:
            pts = series[nation]
            (line,) = top.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=4,
                                label=inert.mathtext(nation))
            bottom.plot([p[0] for p in pts], [p[2] for p in pts], marker="o", markersize=4,
                        color=line.get_color(), drawstyle="steps-mid")
        top.set_title(_("Население"))
        bottom.set_title(_("Города"))
        bottom.set_xlabel(_("Ход"))
        for ax in (top, bottom):
            ax.grid(alpha=0.3)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_ylim(bottom=0, top=max(ax.get_ylim()[1], 2))  # whole numbers from 0, a flat line too
        if chosen:
            top.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        fig.tight_layout()
    return fig


def chart_png(tables: Tables, path: Path) -> Path:
    """The chart of `chart_figure` as a PNG for the forum post."""
    from matplotlib import pyplot as plt

    fig = chart_figure(tables)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
