"""The game's clock: a cursor (turn, stage, round) and the calendar a ruleset gives it.

Why a cursor and not a turn number: some games open several order windows
per turn (Civilization 1.0: a state stage, then a cities stage, «3:города»; «Зависть
Тлокенауаке»: a morning, day stages and up to three battle rounds, «12:бой:2»). The open unit of
`check` and `resolve`, the meta tab, the history, rollback, verify and the dice seed all use the
cursor. A game with one stage per turn (the first game of the project) has stage-less cursors: «3» is turn 3,
exactly as before, so its sheets, seeds and history read and write unchanged.

A cursor is written ``TURN[:STAGE[:ROUND]]``; the stage's words (Russian and English) and
whether it has rounds come from the ruleset's `Calendar`. A stage's rounds may be open-ended
(«Полис»: one-player windows that alternate until both players pass, «3:ход:7»): any round ≥ 1 is
a cursor there, and the game, not the calendar, says when the stage ends (`Calendar.next_stage`).
A stage may also come *between* the rounds of an open-ended one (a battle after the move that
attacked: «3:бой:2» opens after «3:ход:2» and before «3:ход:3»). The history keeps a staged cursor
by its stage's `key`, which is the same in every language, so a snapshot's cursor and its dice
seed do not depend on the campaign's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import total_ordering

from . import i18n
from .errors import UsageError
from .layout import norm
from .messages import _

SEP = ":"


class CursorError(UsageError):
    """A cursor written wrong («3:нет-такого», «0», «3:бой:x»): the message names it and says what
    this game's calendar accepts. A usage error: nothing was read or written."""


@total_ordering
@dataclass(frozen=True)
class Cursor:
    """One order window: `turn` (≥ 1), `stage` (a stage key of the calendar; '' in a one-stage
    game) and `round` (≥ 1 in a stage with rounds, else 0).

    Cursors compare by (turn, the stage's place in the turn, round). The place is `rank`, set by
    the calendar that made the cursor (`Calendar.parse`, `first`, `next`); it is not part of a
    cursor's identity: two cursors are equal when turn, stage and round are. A stage between the
    rounds of an open-ended one has its host's rank and a `sub` > 0, so «3:ход:2» < «3:бой:2» <
    «3:ход:3»."""

    turn: int
    stage: str = ""
    round: int = 0
    rank: int = field(default=0, compare=False, repr=False)
    sub: int = field(default=0, compare=False, repr=False)  # >0: a stage between its host's rounds

    @property
    def staged(self) -> bool:
        return bool(self.stage)

    def key(self) -> str:
        """The cursor in the calendar's keys, the same in every language: «3», «3:cities», «12:battle:2»
        (how the history and the dice seed name it)."""
        parts = [str(self.turn), *([self.stage] if self.stage else []), *([str(self.round)] if self.round else [])]
        return SEP.join(parts)

    def __str__(self) -> str:
        return self.key()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Cursor):
            return NotImplemented
        return (self.turn, self.rank, self.round, self.sub) < (other.turn, other.rank, other.round, other.sub)


@dataclass(frozen=True)
class Stage:
    """One order window of a turn: its key (the same in every language; no «:»), its Russian and
    English names, how many rounds it has (0: none), and whether a player who sends no rows in it
    has missed a turn (the NMR ladder counts only such stages).

    `open_ended`: its rounds are 1, 2, 3, … with no last one -- the game ends the stage
    (`Calendar.next_stage`), e.g. when both players pass in a row. `between`: the key of an
    open-ended stage whose rounds this stage comes between (a battle after the move that attacked:
    «3:бой:2» after «3:ход:2», before «3:ход:3»); its round is its host's, so it is open-ended too,
    and the calendar passes over it unless the game opens it."""

    key: str
    ru: str
    en: str
    rounds: int = 0
    counts_missed: bool = True
    open_ended: bool = False
    between: str = ""

    def __post_init__(self) -> None:
        if not self.key or SEP in self.key or SEP in self.ru or SEP in self.en:
            raise ValueError(f"stage {self.key!r}: a key and names must be non-empty and have no «{SEP}»")
        if (self.open_ended or self.between) and self.rounds:
            raise ValueError(f"stage {self.key!r}: an open-ended stage has no round count")
        if self.between and not self.open_ended:
            object.__setattr__(self, "open_ended", True)  # a stage between rounds numbers its windows by them

    @property
    def rounded(self) -> bool:
        """Whether the stage's windows have rounds (a fixed count, or open-ended)."""
        return self.rounds > 0 or self.open_ended

    def name(self, lang: str) -> str:
        return self.en if lang == "en" else self.ru

    def names(self) -> set[str]:
        return {norm(self.key), norm(self.ru), norm(self.en)}


@dataclass(frozen=True)
class Calendar:
    """The stages of every turn, in order, and the first turn. No stages: one stage-less window per
    turn. A ruleset gives one; `ONE_STAGE` is the one-stage calendar."""

    stages: tuple[Stage, ...] = ()
    first_turn: int = 1

    def __post_init__(self) -> None:
        seen: dict[str, Stage] = {}
        for s in self.stages:
            host = seen.get(s.between) if s.between else None
            if s.between and (host is None or not host.open_ended or host.between):
                raise ValueError(f"stage {s.key!r}: comes between the rounds of {s.between!r}, which must be an "
                                 "open-ended stage listed before it")
            seen[s.key] = s
        if self.stages and self.stages[0].between:
            raise ValueError("the first stage of a turn cannot come between another's rounds")

    @property
    def staged(self) -> bool:
        return bool(self.stages)

    def stage(self, key: str) -> Stage:
        for s in self.stages:
            if s.key == key:
                return s
        raise CursorError(_("в календаре этой игры нет этапа «{stage}»").format(stage=key))

    def _rank(self, key: str) -> int:
        """The stage's place in `stages` (its index)."""
        return next((i for i, s in enumerate(self.stages) if s.key == key), 0)

    def _order(self, key: str) -> tuple[int, int]:
        """(rank, sub) of a cursor at stage `key`: a stage between another's rounds sorts right
        after its host's window of the same round."""
        i = self._rank(key)
        s = self.stages[i] if self.stages else None
        if s is None or not s.between:
            return i, 0
        host = self._rank(s.between)
        subs = [t.key for t in self.stages if t.between == s.between]
        return host, 1 + subs.index(key)

    def _at(self, turn: int, key: str, round: int) -> Cursor:
        rank, sub = self._order(key)
        return Cursor(turn, key, round, rank, sub)

    def cursor(self, turn: int, stage: str = "", round: int = 0) -> Cursor:
        """A checked cursor of this calendar (its rank set): a stage the calendar has, by key or by
        name in either language; a round exactly where the stage has rounds."""
        where = SEP.join([str(turn), *([stage] if stage else []), *([str(round)] if round else [])])
        if turn < self.first_turn:
            raise CursorError(_("«{cursor}»: ход должен быть целым ≥ {first}").format(cursor=where,
                                                                                    first=self.first_turn))
        if not self.stages:
            if stage or round:
                raise CursorError(_("«{cursor}»: в этой игре у хода нет этапов — укажите только номер хода")
                                  .format(cursor=where))
            return Cursor(turn)
        if not stage:
            raise CursorError(_("«{cursor}»: укажите этап хода ({stages})").format(cursor=where, stages=self.listed()))
        found = next((s for s in self.stages if norm(stage) in s.names()), None)
        if found is None:
            raise CursorError(_("«{cursor}»: нет этапа «{stage}»; этапы хода: {stages}")
                              .format(cursor=where, stage=stage, stages=self.listed()))
        if found.open_ended and round < 1:
            raise CursorError(_("«{cursor}»: у этапа «{stage}» раунды 1, 2, 3… — укажите раунд: {example}")
                              .format(cursor=where, stage=stage, example=f"{turn}{SEP}{stage}{SEP}1"))
        if found.rounds and not 1 <= round <= found.rounds:
            raise CursorError(_("«{cursor}»: у этапа «{stage}» раунды 1…{rounds} — укажите раунд: {example}")
                              .format(cursor=where, stage=stage, rounds=found.rounds,
                                      example=f"{turn}{SEP}{stage}{SEP}1"))
        if not found.rounded and round:
            raise CursorError(_("«{cursor}»: у этапа «{stage}» нет раундов").format(cursor=where, stage=stage))
        return self._at(turn, found.key, round)

    def listed(self, lang: str | None = None) -> str:
        """The stages in words, for messages: «государство, города»."""
        code = lang or i18n.current()
        return ", ".join(s.name(code) + (f"{SEP}1…{s.rounds}" if s.rounds else f"{SEP}1…" if s.open_ended else "")
                         for s in self.stages)

    def parse(self, text: str | int) -> Cursor:
        """«3», «3:города», «3:cities», «12:бой:2» as a cursor of this calendar (a CursorError in words
        otherwise)."""
        raw = str(text).strip()
        parts = [p.strip() for p in raw.split(SEP)]
        if not raw or len(parts) > 3:
            raise CursorError(_("«{cursor}» — не ход: пишите ХОД, ХОД:ЭТАП или ХОД:ЭТАП:РАУНД (например 3:города)")
                              .format(cursor=raw))
        try:
            turn = int(parts[0])
            round_ = int(parts[2]) if len(parts) == 3 else 0
        except ValueError:
            raise CursorError(_("«{cursor}» — не ход: номер хода и раунд — целые числа (например 12:бой:2)")
                              .format(cursor=raw)) from None
        return self.cursor(turn, parts[1] if len(parts) > 1 else "", round_)

    def format(self, c: Cursor, lang: str = "ru") -> str:
        """The cursor in the campaign's words: «3», «3:города», «12:бой:2» (English names in English)."""
        if not c.stage:
            return str(c.turn)
        name = self.stage(c.stage).name(lang)
        return SEP.join([str(c.turn), name, *([str(c.round)] if c.round else [])])

    def first(self) -> Cursor:
        """The cursor a new campaign opens."""
        if not self.stages:
            return Cursor(self.first_turn)
        s = self.stages[0]
        return Cursor(self.first_turn, s.key, 1 if s.rounded else 0, 0)

    def next(self, c: Cursor) -> Cursor:
        """The window after `c`: the next round, else the next stage, else the first of the next turn.
        (A ruleset that skips windows -- no battle today -- calls `next` again.) An open-ended stage
        never ends here: its next window is its next round (a stage between its rounds goes back to
        the host's next round); the game ends it with `next_stage`."""
        if not self.stages:
            return Cursor(c.turn + 1)
        s = self.stages[self._rank(c.stage)]
        if s.between:
            return self._at(c.turn, s.between, c.round + 1)
        if s.open_ended or (s.rounds and c.round < s.rounds):
            return self._at(c.turn, s.key, c.round + 1)
        return self.next_stage(c)

    def next_stage(self, c: Cursor) -> Cursor:
        """The first window of the stage after `c`'s (a stage between an open-ended one's rounds is
        no next stage: it opens only when the game opens it), else the first of the next turn: what
        opens when the game ends an open-ended stage («both players passed»)."""
        if not self.stages:
            return Cursor(c.turn + 1)
        s = self.stages[self._rank(c.stage)]
        rank = self._rank(s.between or s.key)
        for n in self.stages[rank + 1:]:
            if not n.between:
                return self._at(c.turn, n.key, 1 if n.rounded else 0)
        n = self.stages[0]
        return self._at(c.turn + 1, n.key, 1 if n.rounded else 0)

    def has_rounds(self, c: Cursor) -> bool:
        """Whether a round applies at `c`'s stage."""
        return bool(c.stage) and self.stage(c.stage).rounded

    def shares_rounds(self, a: Cursor, b: Cursor) -> bool:
        """Whether `a` and `b` are of one run of rounds: the same turn, and the same open-ended stage
        or a stage between its rounds («3:ход:2» and «3:бой:2»)."""
        if a.turn != b.turn or not a.stage or not b.stage:
            return False
        host = {self.stage(c.stage).between or c.stage for c in (a, b)}
        return len(host) == 1 and self.stage(host.pop()).open_ended

    def counts_missed(self, c: Cursor) -> bool:
        """Whether a player with no rows at `c` has missed a turn (the NMR ladder): every turn of a
        one-stage game; in a staged one, the stages the ruleset marks so."""
        return not c.stage or self.stage(c.stage).counts_missed


ONE_STAGE = Calendar()

def turn_of(at: int | Cursor) -> int:
    """The turn a report asks for: a turn number (every window of it; a one-stage game's cursor is
    its turn) or one window of a staged game («3:города»)."""
    return at.turn if isinstance(at, Cursor) else int(at)


def covers(at: int | Cursor, stamp: Cursor) -> bool:
    """Whether a row stamped ``stamp`` belongs to what a report asks for: a turn number or a
    stage-less cursor takes every window of that turn, a staged cursor that window alone (turn,
    stage and round)."""
    if isinstance(at, Cursor) and at.stage:
        return stamp == at
    return stamp.turn == turn_of(at)


def from_key(value: object) -> Cursor:
    """A cursor as the history keeps it (``Cursor.key``: «3», «3:cities», «12:battle:2»), read without
    a calendar: a number (every snapshot before stages) is a stage-less turn. ValueError otherwise."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Cursor(int(value))
    parts = str(value).strip().split(SEP)
    if len(parts) == 1:
        return Cursor(int(parts[0]))
    if len(parts) in (2, 3) and parts[1]:
        return Cursor(int(parts[0]), parts[1], int(parts[2]) if len(parts) == 3 else 0)
    raise ValueError(f"not a cursor key: {value!r}")
