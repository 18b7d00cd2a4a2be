"""What the game tells: the public forum post of a turn or a window, a side's private report, the
glory chart. The post and the chart draw only on public tabs; a side's report on its own treasury,
its own dispatches (the core's side log) and its own ledger lines."""

from __future__ import annotations

from pathlib import Path

from engine.core import inert, session
from engine.core.cursor import Cursor, covers
from engine.core.runner import WindowGame
from engine.core.tables import Cell, Tables

from .words import CALENDAR, CHRONICLE, LEDGER, RANKING, RESOURCES, treasury_tab


def _in(value: Cell, at: int | Cursor) -> bool:
    """Whether a row stamped `value` («1:ход:2») belongs to `at` (a turn, or one window)."""
    stamp = session.stamp_cursor(value, CALENDAR)
    return stamp is not None and covers(at, stamp)


def _split(lines: list[str], limit: int) -> list[str]:
    posts: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + 1 + len(line) > limit:
            posts.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    return [*posts, current]


def forum_post(tables: Tables, turn: int | Cursor, fmt: str = "bbcode", limit: int = 60_000) -> list[str]:
    """The public post of `turn` (or one window): its chronicle lines and the glory ranking."""
    bold = ("[b]", "[/b]") if fmt == "bbcode" else ("**", "**")

    def text(value: object) -> str:
        return inert.inert(value, fmt)

    shown = CALENDAR.format(turn) if isinstance(turn, Cursor) and turn.stage else str(turn)
    lines = [f"{bold[0]}Эстафета, ход {shown}{bold[1]}", ""]
    lines += [f"{text(r[0])}: {text(r[1])}" for r in tables.get(CHRONICLE, [])[1:] if len(r) > 1 and _in(r[0], turn)]
    lines += ["", f"{bold[0]}Слава{bold[1]}"]
    lines += [f"{text(r[0])}. {text(r[1])} — {text(r[2])}" for r in tables.get(RANKING, [])[1:] if len(r) > 2]
    return _split(lines, limit)


def report_lines(game: WindowGame[object, object], tables: Tables, side: str, turn: int | Cursor | None) -> list[str]:
    """`side`'s private report: its silver, its dispatches and its ledger lines of `turn` (all when None)."""
    def text(value: object) -> str:
        return inert.inert(value, "markdown")

    lines = [f"# {text(side)}: отчёт" + (f" за ход {turn}" if turn else ""), "", "## Казна"]
    lines += [f"- {text(r[0])}: {text(r[1])}" for r in tables.get(treasury_tab(side), [])[1:] if len(r) > 1]
    lines += ["", "## Донесения"]
    own = game.side_log(side, "ru").tab
    told = [r for r in tables.get(own, [])[1:] if len(r) > 1 and (turn is None or _in(r[0], turn))]
    lines += [f"- {text(r[0])}: {text(r[1])}" for r in told] or ["- донесений нет"]
    lines += ["", "## Книга"]
    names = {r.code: r.name_ru for r in RESOURCES}
    mine = [r for r in tables.get(LEDGER, [])[1:] if len(r) > 6 and r[1] == side and (turn is None or _in(r[0], turn))]
    lines += [f"- {text(r[0])}: {text(names.get(str(r[2]), r[2]))} {int(r[5]):+d} ({text(r[4])}: {text(r[6])})"
              for r in mine] or ["- движений нет"]
    return lines


def chart_png(tables: Tables, path: Path) -> Path:
    """A bar chart of the public glory ranking."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    rows = [r for r in tables.get(RANKING, [])[1:] if len(r) > 2]
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar([inert.mathtext(r[1]) for r in rows], [float(r[2] or 0) for r in rows])
    ax.set_title("Слава")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
