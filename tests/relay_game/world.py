"""The game's world as its tabs hold it: silver (each side's own tab), glory and missed windows
(the public ranking) and the state of the round of moves (the public «Круг»)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from engine.core.errors import CampaignError
from engine.core.tables import Cell, Grid, Tables, is_blank

from .words import (
    ATTACKER,
    DEFENDER,
    GLORY,
    LAST,
    PASSES,
    RANKING,
    RANKING_HEADER,
    ROUND,
    ROUND_HEADER,
    SIDES,
    SILVER,
    TREASURY_HEADER,
    treasury_tab,
)


@dataclass
class World:
    """Every side's balances (the `Accounts` the ledger moves), its missed move windows in a row, and
    the round: passes in a row, who moved last, the battle the last move declared."""

    values: dict[tuple[str, str], Fraction] = field(default_factory=dict)
    missed: dict[str, int] = field(default_factory=dict)
    passes: int = 0
    last: str = ""
    attacker: str = ""
    defender: str = ""

    def balance(self, side: str, resource: str) -> Fraction:
        return self.values.get((side, resource), Fraction(0))

    def set_balance(self, side: str, resource: str, value: Fraction) -> None:
        self.values[side, resource] = value

    def of(self, side: str, resource: str) -> int:
        return int(self.balance(side, resource))

    def copy(self) -> World:
        return World(dict(self.values), dict(self.missed), self.passes, self.last, self.attacker, self.defender)

    def after(self, side: str) -> str:
        """The side that moves after `side` in the round."""
        return SIDES[(SIDES.index(side) + 1) % len(SIDES)]


def _number(tab: str, label: str, value: Cell) -> int:
    if is_blank(value):
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise CampaignError(f"лист «{tab}»: у «{label}» должно быть целое ≥ 0, а там «{value}»")
    return int(value)


def read(tables: Tables) -> World:
    """The world from its tabs; a CampaignError names the tab and row gone wrong."""
    out = World()
    for side in SIDES:
        tab = treasury_tab(side)
        grid = tables.get(tab)
        if grid is None:
            raise CampaignError(f"нет листа «{tab}»: серебра стороны {side} не найти")
        row = next((r for r in grid[1:] if r and r[0] == SILVER.name_ru), None)
        out.set_balance(side, SILVER.code, Fraction(_number(tab, SILVER.name_ru, row[1] if row and len(row) > 1
                                                                   else None)))
    ranked = {str(r[1]): r for r in tables.get(RANKING, [])[1:] if len(r) > 2}
    for side in SIDES:
        if side not in ranked:
            raise CampaignError(f"на листе «{RANKING}» нет строки стороны {side}")
        line = [*ranked[side], None]
        out.set_balance(side, GLORY.code, Fraction(_number(RANKING, f"{side}: слава", line[2])))
        out.missed[side] = _number(RANKING, f"{side}: пропущено", line[3])
    state = {str(r[0]): r[1] for r in tables.get(ROUND, [])[1:] if len(r) > 1}
    out.passes = _number(ROUND, PASSES, state.get(PASSES))
    for label in (LAST, ATTACKER, DEFENDER):
        value = state.get(label)
        if not is_blank(value) and value not in SIDES:
            raise CampaignError(f"лист «{ROUND}», «{label}»: нет стороны «{value}»; стороны: {', '.join(SIDES)}")
    out.last, out.attacker, out.defender = (str(state.get(k) or "") for k in (LAST, ATTACKER, DEFENDER))
    return out


def treasury_grid(world: World, side: str) -> Grid:
    return [list(TREASURY_HEADER), [SILVER.name_ru, world.of(side, SILVER.code)]]


def ranking_grid(world: World, sides: Iterable[str] = SIDES) -> Grid:
    """The public ranking: sides by glory, most first; each side's missed move windows in a row."""
    order = sorted(sides, key=lambda s: (-world.of(s, GLORY.code), SIDES.index(s)))
    return [list(RANKING_HEADER),
            *[[i, s, world.of(s, GLORY.code), world.missed.get(s, 0)] for i, s in enumerate(order, start=1)]]


def round_grid(world: World) -> Grid:
    return [list(ROUND_HEADER), [PASSES, world.passes], [LAST, world.last or None],
            [ATTACKER, world.attacker or None], [DEFENDER, world.defender or None]]
