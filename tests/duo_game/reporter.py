"""What the game tells: the public forum post of a turn, a side's private report, the gold chart.

The post and the chart draw only on public tabs (the ranking, the chronicle); a side's report on
its own tabs and its own ledger lines, so it goes to that side's book alone."""

from __future__ import annotations

from pathlib import Path

from engine.core import inert, session
from engine.core.cursor import Cursor, covers
from engine.core.tables import Grid, Tables, is_blank

from .words import CALENDAR, CHRONICLE, LEDGER, RANKING, RESOURCES, stock_tab


def _in(value: object, at: int | Cursor) -> bool:
    """Whether a row stamped `value` («1:сбор», as resolve stamps it) belongs to `at` (a turn, or one
    window): read by the calendar, so that a window's cursor («1:trade» inside) finds its rows."""
    stamped = session.stamp_cursor(value, CALENDAR) if isinstance(value, (str, int, float)) else None
    return stamped is not None and covers(at, stamped)


def forum_post(tables: Tables, turn: int | Cursor, fmt: str = "bbcode", limit: int = 60_000) -> list[str]:
    """The public post of `turn`: its chronicle lines and the gold ranking, split at `limit`."""
    bold = ("[b]", "[/b]") if fmt == "bbcode" else ("**", "**")

    def text(value: object) -> str:  # sheet text opens no tag (engine/core/inert.py)
        return inert.inert(value, fmt)

    shown = CALENDAR.format(turn) if isinstance(turn, Cursor) else turn
    lines = [f"{bold[0]}Дуэт, ход {shown}{bold[1]}", ""]
    lines += [f"{text(r[0])}: {text(r[1])}" for r in tables.get(CHRONICLE, [])[1:]
              if len(r) > 1 and _in(r[0], turn)]
    lines += ["", f"{bold[0]}Золото{bold[1]}"]
    lines += [f"{text(r[0])}. {text(r[1])} — {text(r[2])}" for r in tables.get(RANKING, [])[1:] if len(r) > 2]
    posts: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + 1 + len(line) > limit:
            posts.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    return [*posts, current]


def report_lines(tables: Tables, side: str, turn: int | Cursor | None, fmt: str = "markdown") -> list[str]:
    """`side`'s private report: its stocks and its ledger lines of `turn` (every turn when None);
    sheet text inert in ``fmt`` (Markdown for the file, plain for the tab)."""
    def text(value: object) -> str:
        return inert.inert(value, fmt)

    lines = [f"# {text(side)}: отчёт" + (f" за ход {turn}" if turn else ""), "", "## Запасы"]
    lines += [f"- {text(r[0])}: {text(r[1])}" for r in tables.get(stock_tab(side), [])[1:] if len(r) > 1]
    lines += ["", "## Книга"]
    mine = [r for r in tables.get(LEDGER, [])[1:] if len(r) > 6 and r[1] == side
            and (turn is None or _in(r[0], turn))]
    names = {r.code: r.name_ru for r in RESOURCES}
    lines += [f"- {text(r[0])}: {text(names.get(str(r[2]), r[2]))} {int(r[5]):+d} ({text(r[4])}: {text(r[6])})"
              for r in mine]
    if not mine:
        lines.append("- движений нет")
    return lines


def report_grid(tables: Tables, side: str, turn: int | None) -> Grid:
    """The report as a tab of the side's own book (one line a row)."""
    return [[line] for line in report_lines(tables, side, turn, "plain") if not is_blank(line)]


def chart_png(tables: Tables, path: Path) -> Path:
    """A bar chart of the public gold ranking."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    rows = [r for r in tables.get(RANKING, [])[1:] if len(r) > 2]
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar([inert.mathtext(r[1]) for r in rows], [float(r[2] or 0) for r in rows])
    ax.set_title("Золото")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
