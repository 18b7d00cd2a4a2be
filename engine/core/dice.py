"""Seeded, named dice: the same campaign secret and turn give the same rolls, byte for byte.

Each roll draws from its own stream, keyed by purpose and subject, so adding a roll for one
purpose never shifts the rolls of another. Every roll is logged with its purpose.

`Dice.blind()` are the dice of a check (docs/reliability.md, "What a check may show"): they know
no seed and draw nothing, so what a check shows cannot depend on the campaign secret. A phase asks
`dice.blind` and then does the neutral thing (no random event, no random birth), telling the dice
what it did not draw (`withhold`) so that the forecast can say its outcome depends on the lot; a
draw asked of blind dice is a programming error, never a silently invented outcome.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from .cursor import Cursor
from .messages import _

T = TypeVar("T")


def new_secret() -> str:
    """A fresh campaign secret (kept by the GM, never shown to players before the turn)."""
    return secrets.token_hex(16)


def turn_seed(secret: str, turn: int, stage: str = "") -> str:
    """The seed of one turn (stage), derived from the campaign secret."""
    return hashlib.sha256(f"{secret}:{turn}:{stage}".encode()).hexdigest()


def cursor_seed(secret: str, cursor: Cursor) -> str:
    """The seed of one order window. A stage-less cursor's is `turn_seed(secret, turn)` byte for
    byte (every campaign and verify made before stages depends on it); a staged one mixes in the
    stage's key (the same in every language) and, where the stage has rounds, the round."""
    stage = cursor.stage + (f":{cursor.round}" if cursor.round else "") if cursor.stage else ""
    return turn_seed(secret, cursor.turn, stage)


def drawn_secret(secret: str, draw: int) -> str:
    """The secret of draw number `draw`: the campaign's own for draw 0 (every seed before rollbacks
    drew anew), else the secret and the number, so a new draw's seeds are as unknown to players as
    the first ones and still derived from the GM's one secret (engine/core/draw.py)."""
    return secret if draw == 0 else f"{secret}#{draw}"


def commitment(seed: str) -> str:
    """What the sheet shows before the turn: sha256 of the seed, checkable with any sha256 tool."""
    return hashlib.sha256(seed.encode()).hexdigest()


class BlindDraw(RuntimeError):
    """A phase asked blind dice (a check's) for an outcome: a bug in that phase, not bad input."""


@dataclass(frozen=True)
class Roll:
    """One logged roll: what for, about whom, and what came out."""

    purpose: str
    subject: str
    result: str


@dataclass
class Dice:
    """The dice of one turn."""

    seed: str
    log: list[Roll] = field(default_factory=list)
    _counters: dict[tuple[str, str], int] = field(default_factory=dict)
    blind: bool = False  # a check's dice: no seed, no draw (see the module docstring)
    reverse: bool = False  # blind only: a drawn order comes out reversed (a check's second look)
    withheld: list[Roll] = field(default_factory=list)  # blind only: the draws a phase did not make

    @classmethod
    def blind_dice(cls, reverse: bool = False) -> Dice:
        """Dice that know no seed: a shuffle keeps the given order (reversed if asked), other draws
        are refused. The same for every campaign secret, by construction."""
        return cls(seed="", blind=True, reverse=reverse)

    def withhold(self, purpose: str, subject: str = "") -> None:
        """Record a draw a phase did not make because the dice are blind."""
        self.withheld.append(Roll(purpose, subject, _("скрыто")))

    def _rng(self, purpose: str, subject: str) -> random.Random:
        if self.blind:
            raise BlindDraw(f"blind dice cannot draw «{purpose}» ({subject}): the phase must check dice.blind")
        n = self._counters.get((purpose, subject), 0)
        self._counters[(purpose, subject)] = n + 1
        digest = hashlib.sha256(f"{self.seed}|{purpose}|{subject}|{n}".encode()).digest()
        return random.Random(int.from_bytes(digest, "big"))

    def roll(self, purpose: str, sides: int, subject: str = "") -> int:
        """A die with `sides` faces, 1..sides."""
        value = self._rng(purpose, subject).randint(1, sides)
        self.log.append(Roll(purpose, subject, f"d{sides}={value}"))
        return value

    def shuffle(self, purpose: str, items: Sequence[T], subject: str = "") -> list[T]:
        """A drawn order of items (the lot); blind dice keep the given order (reversed if asked)."""
        out = list(items)
        if self.blind:
            if self.reverse:
                out.reverse()
            self.withhold(purpose, subject)
            return out
        self._rng(purpose, subject).shuffle(out)
        self.log.append(Roll(purpose, subject, ", ".join(map(str, out))))
        return out

    def choice(self, purpose: str, items: Sequence[T], weights: Sequence[float] | None = None, subject: str = "") -> T:
        """One weighted draw."""
        if not items:
            raise ValueError("nothing to choose from")
        value = self._rng(purpose, subject).choices(list(items), weights=weights, k=1)[0]
        self.log.append(Roll(purpose, subject, str(value)))
        return value

    def chance(self, purpose: str, probability: float, subject: str = "") -> bool:
        """True with the given probability."""
        value = self._rng(purpose, subject).random() < probability
        self.log.append(Roll(purpose, subject, _("да") if value else _("нет")))
        return value
