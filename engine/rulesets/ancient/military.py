"""Battle arithmetic: battle points (БО), the combat table, losses by the pyramid rule.

ANC-COMBAT-02: БО = Σ (base strength + the unit's terrain modifier) + army-wide modifiers.
ANC-COMBAT-03: the ratio attacker БО / defender БО picks a row of the GM-editable combat
table (the seed lost it); the row gives the winner and each side's loss points as a share of
the enemy's БО. ANC-COMBAT-04/05 and ANC-NAVY-14: loss points become units by the pyramid —
cheapest value class first, one unit at a time rotating over the unit types of the class in
the list order, while the points left cover a unit; a ship only partly covered survives damaged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from .messages import _
from .rules import CombatBand, Rules


@dataclass
class Side:
    """One side of a battle: units by type, and the modifiers that apply to the whole side."""

    states: list[str]
    units: dict[str, int]
    modifiers: list[tuple[str, int]] = field(default_factory=list)  # (reason, value)

    def unit_points(self, rules: Rules, terrain: str) -> list[tuple[str, int, int]]:
        """(type, count, points) with each unit's terrain modifier (ANC-ARMY-08)."""
        out = []
        for t, n in self.units.items():
            if n <= 0 or t not in rules.units:
                continue
            u = rules.units[t]
            per = u.strength + u.terrain.get(terrain.lower(), 0)
            out.append((t, n, per * n))
        return out

    def bo(self, rules: Rules, terrain: str) -> int:
        return sum(p for _t, _n, p in self.unit_points(rules, terrain)) + sum(v for _r, v in self.modifiers)

    def describe(self, rules: Rules, terrain: str) -> str:
        parts = [f"{n} {t} = {p}" for t, n, p in self.unit_points(rules, terrain)]
        parts += [f"{r} {v:+d}" for r, v in self.modifiers]
        return "; ".join(parts)


@dataclass(frozen=True)
class Outcome:
    """The table's verdict on one battle."""

    attacker_bo: int
    defender_bo: int
    band: CombatBand
    result: str  # attacker | defender | draw
    attacker_loss: int
    defender_loss: int

    def cell(self) -> str:
        hi = "∞" if self.band.ratio_max is None else _num(self.band.ratio_max)
        return _("строка {row}: {low}–{high}").format(row=self.band.row, low=_num(self.band.ratio_min), high=hi)


def _num(x: Fraction) -> str:
    return (str(int(x)) if x.denominator == 1 else f"{float(x):.2f}".rstrip("0")).replace(".", ",")


def half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def judge(rules: Rules, kind: str, attacker_bo: int, defender_bo: int) -> Outcome:
    """Look the two БО up in the combat table (ANC-COMBAT-03, ANC-NAVY-13)."""
    a, d = max(attacker_bo, 0), max(defender_bo, 0)
    ratio = Fraction(a, d) if d else Fraction(10**9)
    bands = [b for b in rules.combat if b.kind == kind]
    band = next((b for b in bands if b.ratio_min <= ratio and (b.ratio_max is None or ratio < b.ratio_max)), None)
    if band is None:
        band = max(bands, key=lambda b: b.ratio_min) if ratio >= max(b.ratio_min for b in bands) else bands[0]
    return Outcome(
        attacker_bo, defender_bo, band, band.result, half_up(band.attacker_loss * d), half_up(band.defender_loss * a)
    )


def pyramid(units: dict[str, int], points: int, rules: Rules) -> tuple[dict[str, int], str | None]:
    """Units lost to `points` loss points, and the unit type left damaged (ANC-COMBAT-04, ANC-NAVY-14)."""
    left = {t: n for t, n in units.items() if n > 0 and t in rules.units}
    lost: dict[str, int] = {}
    damaged: str | None = None
    classes = sorted({rules.units[t].strength for t in left})
    for strength in classes:
        types = sorted((t for t in left if rules.units[t].strength == strength), key=lambda t: rules.units[t].value)
        while points > 0 and any(left[t] > 0 for t in types):
            progressed = False
            for t in types:
                if left[t] <= 0:
                    continue
                if points >= strength:
                    left[t] -= 1
                    lost[t] = lost.get(t, 0) + 1
                    points -= strength
                    progressed = True
                elif points > 0:
                    damaged = damaged or t
                    points = 0
                if points <= 0:
                    break
            if not progressed:
                break
        if points <= 0:
            break
    return lost, damaged


def remove(units: dict[str, int], lost: dict[str, int]) -> None:
    for t, n in lost.items():
        units[t] = units.get(t, 0) - n
        if units[t] <= 0:
            units.pop(t, None)


def units_text(units: dict[str, int], rules: Rules) -> str:
    order = sorted(units, key=lambda t: (rules.units[t].kind, rules.units[t].value) if t in rules.units else ("z", 0))
    return ", ".join(f"{units[t]} {t}" for t in order if units[t]) or _("никого")
