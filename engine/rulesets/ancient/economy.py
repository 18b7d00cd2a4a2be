"""Shared operations of the economy phases: the turn's budget, stability bounds, people.

These are the mechanisms several phases use; the numbers come from the rules tables.
"""

from __future__ import annotations

from fractions import Fraction

from engine.core.money import fmt

from .facts import Report
from .messages import _
from .model import Campaign, Province, State
from .naming import Code
from .rules import Rules

# status order from the lowest (ANC-STRATA-01, ANC-POP-04, ANC-POP-08); warriors are not civilians
STATUS_ORDER: tuple[str, ...] = tuple(Code(s, "stratum") for s in ("раб", "СГ", "дух", "уч", "АР"))


class Refused(Exception):
    """An order breaks a rule; the message is the reason shown in the row."""


class Budget:
    """What a state may still spend this turn (ANC-MONEY-02): the previous balance, less spending.

    Created once per turn, on first use, from the opening treasury — or the current one if an
    event already took money — so income of this turn can never pay this turn's orders.
    """

    def __init__(self, world: Campaign, opening: dict[str, Fraction]) -> None:
        self.left = {
            name: max(Fraction(0), min(opening.get(name, s.treasury), s.treasury)) for name, s in world.states.items()
        }

    def can(self, state: str) -> Fraction:
        return self.left.get(state, Fraction(0))

    def take(self, state: str, cost: Fraction, what: str) -> None:
        left = self.can(state)
        if cost > left:
            raise Refused(
                _(
                    "не хватает {short} Д на {what}: нужно {cost} Д, "
                    "доступно {left} Д (тратить можно только казну прошлого хода)"
                ).format(short=fmt(cost - left), what=what, cost=fmt(cost), left=fmt(left))
            )
        self.left[state] = left - cost

    def charge(self, state: str, cost: Fraction) -> None:
        """A mandatory charge (corruption, upkeep): reduces what is left, never refused."""
        self.left[state] = max(Fraction(0), self.can(state) - cost)


def budget(world: Campaign, report: Report) -> Budget:
    """The turn's budget, shared by every phase that spends money."""
    b = report.facts.budget
    if b is None:
        b = report.facts.budget = Budget(world, report.facts.opening)
    return b


def stability_change(before: int, after: int) -> str:
    """«Ст +1 → 0», or «Ст осталась +0» when nothing moved (an AI state's fixed stability, a bound),
    so no message says «Ст +0 → +0»."""
    if before == after:
        return _("Ст осталась {value:+d}").format(value=after)
    return _("Ст {before:+d} → {after:+d}").format(before=before, after=after)


def clamp(value: int, rules: Rules) -> int:
    return int(max(rules.param("stability_min"), min(rules.param("stability_max"), value)))


def shift_stability(state: State, delta: int, rules: Rules) -> tuple[int, int]:
    """Change a player's stability within bounds; AI states keep theirs (ANC-AI-02)."""
    before = state.stability
    if not state.ai:
        state.stability = clamp(before + delta, rules)
    return before, state.stability


def majority_stratum(p: Province) -> str:
    """The civilian stratum with most people; ties go to the lower status (ANC-POP-03/04)."""
    best = STATUS_ORDER[0]
    for s in STATUS_ORDER:
        if p.population.get(s, 0) > p.population.get(best, 0):
            best = s
    return best


def lose_people(p: Province, count: int) -> dict[str, int]:
    """Remove people from the lowest stratum up (ANC-POP-08); returns who was lost."""
    lost: dict[str, int] = {}
    for s in STATUS_ORDER:
        if count <= 0:
            break
        take = min(count, p.population.get(s, 0))
        if take:
            p.population[s] -= take
            lost[s] = take
            count -= take
    return lost


def civilians(p: Province) -> int:
    return sum(p.population.get(s, 0) for s in STATUS_ORDER)


def count_people(provinces: list[Province], stratum: str) -> int:
    return sum(p.population.get(stratum, 0) for p in provinces)


def category_label(key: str) -> str:
    """A ledger category (a key of the ledger, in Russian) as the reader's language names it."""
    labels = {
        "налоги": _.pgettext("статья баланса", "налоги"),
        "торговля": _.pgettext("статья баланса", "торговля"),
        "монетный двор": _.pgettext("статья баланса", "монетный двор"),
        "рудники": _.pgettext("статья баланса", "рудники"),
        "правление": _.pgettext("статья баланса", "правление"),
        "грабёж": _.pgettext("статья баланса", "грабёж"),
        "события": _.pgettext("статья баланса", "события"),
        "дань и платежи": _.pgettext("статья баланса", "дань и платежи"),
        "строительство": _.pgettext("статья баланса", "строительство"),
        "стабильность": _.pgettext("статья баланса", "стабильность"),
        "страты": _.pgettext("статья баланса", "страты"),
        "переселение": _.pgettext("статья баланса", "переселение"),
        "колонизация": _.pgettext("статья баланса", "колонизация"),
        "войска": _.pgettext("статья баланса", "войска"),
        "содержание войск": _.pgettext("статья баланса", "содержание войск"),
        "война: переходы": _.pgettext("статья баланса", "война: переходы"),
        "наука": _.pgettext("статья баланса", "наука"),
    }
    return labels.get(key, key)


def describe_people(people: dict[str, int]) -> str:
    return ", ".join(f"{n} {s}" for s, n in people.items() if n) or _("никого")
