"""What civ1 tells: the public forum post of a turn, a nation's private report, the public chart.

The post and the chart draw only on public tabs («Журнал», «Бои», «Города», «Нации»); a nation's
report on its own «Держава» tab, which lives in that nation's book alone."""

from __future__ import annotations

from pathlib import Path

from engine.core import history, meta
from engine.core.cursor import CursorError
from engine.core.tables import Tables, is_blank

from .calendar import CALENDAR
from .vocab import BATTLES, CHRONICLE, CITIES_TAB, realm_tab


def _lang(tables: Tables) -> str:
    return meta.lang(tables) or "ru"


def _turn_of(value: object) -> int | None:
    try:
        return CALENDAR.parse(str(value)).turn
    except (CursorError, ValueError):
        return None


def split_posts(lines: list[str], limit: int) -> list[str]:
    posts: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + 1 + len(line) > limit:
            posts.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    return [*posts, current]


def forum_post(tables: Tables, turn: int, fmt: str = "bbcode", limit: int = 60_000) -> list[str]:
    """The public post of `turn`: its chronicle, its battles with every die, the cities' sizes."""
    lang = _lang(tables)
    en = lang == "en"
    bold = ("[b]", "[/b]") if fmt == "bbcode" else ("**", "**")
    head = f"{bold[0]}{'Civilization 1.0, turn' if en else 'Цивилизация 1.0, ход'} {turn}{bold[1]}"
    lines = [head, ""]
    lines += [f"{r[0]}: {r[1]}" for r in tables.get(CHRONICLE.tab_name(lang), [])[1:]
              if len(r) > 1 and _turn_of(r[0]) == turn]
    battles = [r for r in tables.get(BATTLES.tab_name(lang), [])[1:] if r and _turn_of(r[0]) == turn]
    if battles:
        lines += ["", f"{bold[0]}{'Battles' if en else 'Бои'}{bold[1]}"]
        lines += [" | ".join("" if is_blank(v) else str(v) for v in r[1:]) for r in battles]
    lines += ["", f"{bold[0]}{'Cities' if en else 'Города'}{bold[1]}"]
    lines += [f"{r[0]} ({r[1]}): {r[3]}" for r in tables.get(CITIES_TAB.tab_name(lang), [])[1:] if len(r) > 3]
    return split_posts(lines, limit)


def as_of(tables: Tables, turn: int | None) -> Tables:
    """The campaign as it stood after `turn` (None: as it stands): the snapshot of the first window
    of a later turn (taken while that window was open), else the campaign itself."""
    if turn is None:
        return tables
    later = [e for e in history.entries(tables) if e.turn > turn]
    return later[0].tables() if later else tables


def report_lines(tables: Tables, nation: str, turn: int | None = None) -> list[str]:
    """A nation's private report after `turn` (None: the last resolved window): its «Держава» tab,
    one line a row."""
    tables = as_of(tables, turn)
    grid = tables.get(realm_tab(nation, _lang(tables)), [])
    return [" — ".join(str(v) for v in row if not is_blank(v)) for row in grid if any(not is_blank(v) for v in row)]


def chart_png(tables: Tables, path: Path) -> Path:
    """A bar chart of the public «Города»: each nation's total population."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    lang = _lang(tables)
    sizes: dict[str, int] = {}
    for r in tables.get(CITIES_TAB.tab_name(lang), [])[1:]:
        if len(r) > 3 and isinstance(r[3], (int, float)):
            sizes[str(r[1])] = sizes.get(str(r[1]), 0) + int(r[3])
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.bar(list(sizes), list(sizes.values()))
    ax.set_title("Population" if lang == "en" else "Население")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
