"""Big civ1 worlds for the benchmarks (scripts/bench_civ1.py, docs/benchmarks.md): a scenario of
any number of nations, as templates/civ1/scenarios/*.yaml would hold it, and orders for both
stages of a turn, all deterministic from a seed.

Each nation gets a 5×5 block of land (plains with some forest and hills) on a map of such
blocks, its capital inside it and a village two hexes from the capital.  Every tenth nation and
the next one in the same row of blocks have their capitals three hexes apart, so one attacks the
other (the ancient bench has a war in every tenth pair).  The orders are what a player of the
first turns writes: explore the village, research a technology of the first level, found a
second city (every other nation), attack (the war pairs); in the cities stage activate the
capital, build a unit and work a hex."""

from __future__ import annotations

import math
import random
from typing import Any

from engine.core.tables import Cell

from . import hexes
from .model import World

BLOCK = 5  # a nation's square of hexes
LAND = "ррррррлх"  # plains mostly; forest and hills for the yields
FIRST_TECHS = ("Письменность", "Гончарное дело", "Охота", "Верховая езда")
LEGEND = {"м": "море", "р": "равнина", "л": "лес", "х": "холмы"}


def nation_name(i: int) -> str:
    return f"Нация{i:04d}"


def capital_name(i: int) -> str:
    return f"Град{i:04d}"


def _war_pair(i: int, nations: int, per_row: int) -> bool:
    """Nation i (0-based) attacks nation i + 1: every tenth, with the next in its row of blocks."""
    return i % 10 == 0 and i + 1 < nations and (i + 1) % per_row != 0


def generate(nations: int, seed: int = 0) -> dict[str, Any]:
    """A scenario of `nations` nations (the dict workbook.new_workbook takes as `data`)."""
    rng = random.Random(seed)
    per_row = max(1, math.ceil(math.sqrt(nations)))
    rows = math.ceil(nations / per_row)
    width, height = per_row * BLOCK, rows * BLOCK
    grid = [[rng.choice(LAND) for _q in range(width)] for _r in range(height)]
    recs: list[dict[str, Any]] = []
    villages: list[str] = []
    for i in range(nations):
        bq, br = (i % per_row) * BLOCK, (i // per_row) * BLOCK
        dq = 3 if _war_pair(i, nations, per_row) else 1 if i and _war_pair(i - 1, nations, per_row) else 2
        cq, cr = bq + dq, br + 2
        grid[cr][cq] = "р"
        recs.append({"name": nation_name(i), "seat": i + 1, "capital": capital_name(i), "hex": hexes.text((cq, cr))})
        villages.append(hexes.text((cq, br)))
    for i in range(per_row * rows - nations):  # the unused blocks of the last row: sea
        bq = (nations % per_row + i) * BLOCK
        for r in range((rows - 1) * BLOCK, rows * BLOCK):
            grid[r][bq:bq + BLOCK] = ["м"] * BLOCK
    return {"title": f"Бенчмарк: {nations} наций", "last_turn": 15, "legend": dict(LEGEND),
            "map": ["".join(line) for line in grid], "nations": recs, "villages": villages,
            "start": {"deck": ["ватага", "ватага"], "power": 4, "coins": 6, "science": 6, "vp_honesty": 1}}


def generate_orders(world: World, stage: str, seed: int = 0) -> dict[str, list[list[Cell]]]:
    """Each nation's rows for `stage` («state» or «cities») of the world's open turn: [stage,
    action, object, where, to, qty] as a player types them."""
    rng = random.Random(f"{seed}:{world.turn}:{stage}")
    seats = world.seats()
    per_row = max(1, math.ceil(math.sqrt(len(seats))))
    out: dict[str, list[list[Cell]]] = {}
    for i, name in enumerate(seats):
        n = world.nations[name]
        capital = world.cities.get(n.capital)
        if capital is None:
            out[name] = [["государство" if stage == "state" else "города", "Нет действий"]]
            continue
        q, r = capital.hex
        rows: list[list[Cell]] = []
        if stage == "state":
            rows.append(["государство", "Разведка", None, hexes.text((q, r - 2))])
            rows.append(["государство", "Изучить", rng.choice(FIRST_TECHS)])
            if i % 2 == 0:
                rows.append(["государство", "Основать город", f"Новь{i:04d}т{world.turn}", hexes.text((q + 1, r + 2))])
            if _war_pair(i, len(seats), per_row) and nation_name(i + 1) in world.nations:
                target = world.nations[nation_name(i + 1)].capital
                rows.append(["государство", "Атака", None, n.capital, target])
        else:
            rows.append(["города", "Активировать", None, n.capital])
            rows.append(["города", "Обработка", hexes.text((q + 1, r)), n.capital, "молотки"])
            rows.append(["города", "Войско", "ватага", n.capital])
        out[name] = rows
    return out
