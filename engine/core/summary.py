"""The end-of-window summary: what check and resolve hand the CLI (and `--json`) about a turn.

Every game told the GM the same things — the orders counted by status, the warnings, and per side
its movement in each shown resource — and each built that dict by hand.  `build` is the one
builder: a game gives its report, its resources and one `SideLine` per side (the ledger's
movements, engine/core/ledger.py `movements`), and the words only it knows (what its first column
calls a side, its own figures after the resources, the tabs the GM should open afterwards).

The summary stays a plain dict: it is what `--json` prints, and the bridge adds to it ("notices",
"warnings", "victory").  Its keys, read by sheets_bridge/cli.py:

- "mode", "ruleset", "turn"; "window" (the window judged, in the campaign's words: «3» in a
  one-stage game, «1:города» in a staged one); "cursor" (a staged game's window, as "window");
  "waiting" (rows that wait for a later stage of the turn);
- "resources": code, name (and unit) of each shown resource, in order;
- "sides": per side "name", "ai", "balances" (resource code -> opening, income, expenses,
  closing), the game's own figures by key, and — for the main resource when the game names one
  (`flat`) — its four figures at the side's top level too (the README documents them for `--json`);
- "states": the same list as "sides", under the name the first game gave it (deprecated: kept
  so that scripts written before the rename keep working; read "sides");
- "orders" (status -> count), "warnings";
- optional words: "side_title" (the table's first column), "columns" (key, title of the game's own
  figures, shown when every side has them), "dice_note" (what a check's blind dice leave out),
  "open_tabs" (the tabs that show the results, as the closing line of `strategos demo` names them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .ledger import Movement, Resource
from .turn import TurnReport

FIGURES = ("opening", "income", "expenses", "closing")  # a balance's keys, in the table's order


@dataclass(frozen=True)
class Column:
    """A game's own figure after the resources (a stability, say): the key it has in
    each side's figures and the column's title in the campaign's language."""

    key: str
    title: str


@dataclass(frozen=True)
class SideLine:
    """One side's line of the summary: its movement in each shown resource (resource code ->
    `Movement`), whether the program plays it (the CLI leaves those out), and its own figures."""

    name: str
    movements: Mapping[str, Movement]
    ai: bool = False
    figures: Mapping[str, Any] = field(default_factory=dict)


def balance(m: Movement) -> dict[str, float]:
    """A movement as the summary's numbers (floats: JSON has no fractions)."""
    return {"opening": float(m.opening), "income": float(m.income), "expenses": float(m.expenses),
            "closing": float(m.closing)}


def window_words(report: TurnReport[Any], turn: int, cursor: str | None) -> str:
    """The judged window as the summary names it: the game's words for a staged window when it
    gives them (``cursor``), else the report's window («3»; a staged one by its key, «3:cities»),
    else the turn."""
    if cursor is not None:
        return cursor
    at = report.window
    return at.key() if at is not None and at.staged and at.turn == turn else str(turn)


def build(
    mode: str,
    ruleset: str,
    report: TurnReport[Any],
    resources: Sequence[Resource],
    sides: Iterable[SideLine],
    *,
    turn: int | None = None,
    cursor: str | None = None,
    waiting: int | None = None,
    unit: Callable[[Resource], str] | None = None,
    flat: Resource | None = None,
    side_title: str | None = None,
    columns: Sequence[Column] = (),
    dice_note: str | None = None,
    open_tabs: str | None = None,
) -> dict[str, Any]:
    """The summary of a judged window (see the module's docstring for its keys).

    ``turn`` defaults to the report's; "window" is ``cursor`` when given (a staged game's window in
    its words), else the report's window; ``unit`` gives each resource's unit word (none listed
    without it); ``flat`` is the resource whose figures are also at each side's top level; the
    optional words are left out when not given, so the CLI says its generic ones."""
    lang = report.lang
    lines = []
    for side in sides:
        balances = {code: balance(m) for code, m in side.movements.items()}
        top = balances[flat.code] if flat is not None else {}
        lines.append({"name": side.name, **top, "balances": balances, **side.figures, "ai": side.ai})
    at = report.turn if turn is None else turn
    out: dict[str, Any] = {"mode": mode, "ruleset": ruleset, "turn": at, "window": window_words(report, at, cursor)}
    if cursor is not None:
        out["cursor"] = cursor
    out["resources"] = [{"code": r.code, "name": r.name(lang), **({"unit": unit(r)} if unit else {})}
                        for r in resources]
    out["sides"] = lines
    out["states"] = lines  # deprecated alias of "sides" (the module's docstring)
    out["orders"] = report.counts()
    out["warnings"] = list(report.warnings)
    words: dict[str, Any] = {"side_title": side_title, "dice_note": dice_note, "open_tabs": open_tabs,
                             "columns": [{"key": c.key, "title": c.title} for c in columns] or None,
                             "waiting": waiting}
    out.update({k: v for k, v in words.items() if v is not None})
    return out
