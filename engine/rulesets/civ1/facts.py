"""What one window of «Civilization 1.0» found, beside its ledger and chronicle: the battles with
every die, and the order of play.

The phases write these facts; the codec and the reporter read them (the «Бои» tab, the forum
post).  What a nation alone learns (spies, villages, transfers) is no fact here: the phases tell it
to that nation (`report.tell(text, to=nation)`), and the core's runner appends it to the nation's
own log, in its book alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.cursor import Cursor
from engine.core.dice import Roll
from engine.core.turn import TurnReport


@dataclass
class Duel:
    """One duel of an attack (CIV-COMBAT-05): both units with their support and fortification, every
    die, the sums and the outcome («отступил» / «разгромлен» / «уничтожен» of the loser)."""

    number: int
    attacker_unit: str
    defender_unit: str
    attacker_dice: list[int]
    defender_dice: list[int]
    attacker_bonus: int
    defender_bonus: int
    outcome: str
    attacker_support: str = ""
    defender_support: str = ""

    @property
    def attacker_total(self) -> int:
        return sum(self.attacker_dice) + self.attacker_bonus

    @property
    def defender_total(self) -> int:
        return sum(self.defender_dice) + self.defender_bonus


@dataclass
class Battle:
    """One attack: who from which city on which city, its duels, and the result («взят», «отбит»,
    «разрушен» for an ОМП capture or a barbarian win)."""

    attacker: str
    origin: str
    target: str
    defender: str
    duels: list[Duel] = field(default_factory=list)
    result: str = ""
    wmd: bool = False


@dataclass
class Facts:
    """The typed facts of one window."""

    order: list[str] = field(default_factory=list)  # nations in this turn's order of play (CIV-TURN-05)
    battles: list[Battle] = field(default_factory=list)
    ended: bool = False  # the game ended with this window (CIV-TURN-01)
    dice: list[Roll] = field(default_factory=list)  # every roll of the window, in order (the runner fills it)


Report = TurnReport[Facts]


def new_report(at: int | Cursor, lang: str) -> Report:
    """An empty report of the window `at` (a turn number stands for its turn's window)."""
    return TurnReport(at, lang, facts=Facts())
