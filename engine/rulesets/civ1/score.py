"""The end of «Civilization 1.0» and its score (CIV-TURN-01, CIV-WIN-01; spec G13, G14).

The seed: «Игра закончится в ход № 15 (может раньше, а теоретически возможно, позже, если никто не
изучил технологию 5 уровня)».  So the game ends when a turn no earlier than `last_turn` closes and
some nation knows a technology of the top level (G13: else it goes on until the turn in which one is
first researched).  «Может раньше» is the GM's: he lowers `last_turn`.

The seed names two kinds of ПО (honesty 1, «Технология будущего (+1 ПО)») and no table; spec G14
proposes 1 ПО per city, per wonder and per era reached on top.  Those three are rows of «Правила —
Параметры» (`score_per_city`, `score_per_wonder`, `score_per_era`) the GM edits; a missing row counts 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.ruleset import Victory
from engine.core.turn import Phase

from .facts import Report
from .messages import _
from .model import World
from .ordertypes import CITIES
from .rules import Rules


@dataclass(frozen=True)
class Score:
    """One nation's score at the end, by what it counts."""

    nation: str
    cities: int
    wonders: int
    eras: int
    honesty: int
    tech: int

    @property
    def total(self) -> int:
        return self.cities + self.wonders + self.eras + self.honesty + self.tech


def _weight(rules: Rules, key: str) -> int:
    return rules.param(key) if key in rules.params else 0


def top_level(rules: Rules) -> int:
    """The top technology level («технология 5 уровня»)."""
    return max((t.level for t in rules.techs.values()), default=0)


def era_reached(world: World, rules: Rules, nation: str) -> int:
    """A nation's era: the highest level of the technologies it knows (0 before the first)."""
    return max((rules.techs[t].level for t in world.nations[nation].techs if t in rules.techs), default=0)


def completed_turn(world: World) -> int:
    """The last turn whose cities stage has closed: from `world.last_resolved` («15:cities»), else
    the turn before the open one."""
    turn, _sep, stage = world.last_resolved.partition(":")
    if turn.strip().isdigit():
        t = int(turn)
        return t if stage.strip() == CITIES else t - 1
    return world.turn - 1


def game_over(world: World, rules: Rules, turn: int | None = None) -> bool:
    """Whether the game ends with the close of `turn` (default: the last completed one): turn ≥
    `last_turn` and some nation knows a top-level technology (CIV-TURN-01, G13)."""
    t = completed_turn(world) if turn is None else turn
    if t < rules.param("last_turn"):
        return False
    top = top_level(rules)
    return any(era_reached(world, rules, n) >= top for n in world.nations)


def score(world: World, rules: Rules, nation: str) -> Score:
    """A nation's score (CIV-WIN-01, G14)."""
    n = world.nations[nation]
    cities = world.cities_of(nation)
    return Score(
        nation,
        cities=_weight(rules, "score_per_city") * len(cities),
        wonders=_weight(rules, "score_per_wonder") * sum(len(c.wonders) for c in cities),
        eras=_weight(rules, "score_per_era") * era_reached(world, rules, nation),
        honesty=n.vp_honesty,
        tech=n.vp_tech,
    )


def table(world: World, rules: Rules) -> list[Score]:
    """Every nation's score, best first (ties in seat order)."""
    seats = world.seats()
    return sorted((score(world, rules, n) for n in seats), key=lambda s: (-s.total, seats.index(s.nation)))


def victory(world: World, rules: Rules, turn: int | None = None) -> Victory | None:
    """Who won when the game is over with the close of `turn` (default: the last completed one):
    the most ПО, a tie shares it; None while it goes on."""
    if not game_over(world, rules, turn) or not world.nations:
        return None
    scores = table(world, rules)
    best = scores[0].total
    winners = tuple(s.nation for s in scores if s.total == best)
    details = "; ".join(
        _("{nation} {total} ПО (города {c}, чудеса {w}, эпохи {e}, честность {h}, технологии {t})").format(
            nation=s.nation, total=s.total, c=s.cities, w=s.wonders, e=s.eras, h=s.honesty, t=s.tech)
        for s in scores)
    return Victory(winners, _("Итог после хода {turn}: {details}").format(
        turn=completed_turn(world) if turn is None else turn, details=details))


def close_turn(world: World, orders: object, dice: object, rules: Rules, report: Report) -> World:
    """The last step of the cities stage: when this turn ends the game (CIV-TURN-01), say so in the
    facts (`Facts.ended`) and the chronicle, with the score table."""
    if not game_over(world, rules, report.turn):
        return world
    report.facts.ended = True
    for s in table(world, rules):
        report.tell(_("{nation} {total} ПО (города {c}, чудеса {w}, эпохи {e}, честность {h}, технологии {t})").format(
            nation=s.nation, total=s.total, c=s.cities, w=s.wonders, e=s.eras, h=s.honesty, t=s.tech))
    report.tell(_("Игра окончена после хода {turn}.").format(turn=report.turn))
    return world


END = Phase("end", close_turn)
