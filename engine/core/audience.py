"""Who may see a tab: its audience — the GM, the public (every player), or one player (a side).

Why: a game with hidden information (secret armies, a spy's report: ../shared/specs/tlokenauake.md)
must never put a fact a player may not see into a book that player can open.  Every tab therefore
has an audience (``TabSpec.readers``), and :func:`books` says which tabs each *book* holds:

* the GM's book holds every tab;
* the public book only the public tabs (rules, the map, the chronicle…);
* each player's book only that player's tabs (their order tabs, their private report).

A backend turns books into what it can share: on Google one spreadsheet per book (the public one
read-only for all players, a player's own writable by that player alone, the GM's shared with
nobody but the GM); on .xlsx one workbook per book beside the GM's.  A tab whose audience is not
known is given to the GM alone: a mistake then hides a tab, it never shows one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .tables import ReplaceTab, TabSpec

AudienceKind = Literal["gm", "public", "player"]

#: How a player's audience is written as a key: ``player:<side>``.
PLAYER_PREFIX = "player:"


@dataclass(frozen=True)
class Audience:
    """The readers of a tab: the GM alone, everyone (``public``), or one side's player (and the GM)."""

    kind: AudienceKind
    side: str = ""

    @property
    def key(self) -> str:
        """A text form that round-trips through :meth:`parse`: ``gm``, ``public``, ``player:Рим``."""
        return PLAYER_PREFIX + self.side if self.kind == "player" else self.kind

    @classmethod
    def parse(cls, key: str) -> Audience:
        """The audience a :attr:`key` names; anything unknown is the GM's (hiding is the safe mistake)."""
        if key == "public":
            return PUBLIC
        if key.startswith(PLAYER_PREFIX) and key[len(PLAYER_PREFIX):]:
            return player(key[len(PLAYER_PREFIX):])
        return GM

    def may_read(self, reader: Audience) -> bool:
        """Whether the holder of ``reader``'s book may see a tab of this audience: the GM sees
        everything, a player the public tabs and their own, the public only the public tabs."""
        if reader.kind == "gm" or self.kind == "public":
            return True
        return self.kind == "player" and reader == self

    def __str__(self) -> str:
        return self.key


GM = Audience("gm")
PUBLIC = Audience("public")


def player(side: str) -> Audience:
    """The audience of one side's player."""
    return Audience("player", side)


def of_spec(spec: TabSpec) -> Audience:
    """A tab's audience: the one its spec declares, else derived from what the tab is — an order
    tab is its owner's, every other tab public (as every campaign before audiences had it).
    The meta tab and the dropdown lists stay public on purpose: the turn marker is written last
    into the spreadsheet every player reads, and the order tabs' dropdowns draw on the lists."""
    if spec.audience is not None:
        return spec.audience
    if spec.kind == "orders" and spec.owner:
        return player(spec.owner)
    return PUBLIC


def audiences(specs: Iterable[TabSpec], replaced: Iterable[ReplaceTab] = ()) -> dict[str, Audience]:
    """Tab name -> audience for a campaign's specs and the tabs a write replaces or creates (see
    :func:`extend`)."""
    return extend({spec.name: of_spec(spec) for spec in specs}, replaced)


def extend(known: Mapping[str, Audience], replaced: Iterable[ReplaceTab]) -> dict[str, Audience]:
    """``known`` (tab name -> audience) with the tabs a write replaces or creates: a replaced tab's
    own audience, else the one its spec declares, else that of the tab it is written beside, else
    (a tab not known yet) its spec's derived one; a known tab otherwise keeps its audience."""
    out = dict(known)
    for rep in replaced:
        declared = rep.spec.audience if rep.spec is not None else None
        if rep.audience is not None:
            out[rep.tab] = rep.audience
        elif declared is not None:
            out[rep.tab] = declared
        elif rep.beside:
            out[rep.tab] = out.get(rep.beside, GM)
        elif rep.tab not in out and rep.spec is not None:
            out[rep.tab] = of_spec(rep.spec)
    return out


def sides(tab_audiences: Mapping[str, Audience]) -> list[str]:
    """The sides with a tab of their own, in the tabs' order."""
    return list(dict.fromkeys(a.side for a in tab_audiences.values() if a.kind == "player"))


def books(tabs: Iterable[str], tab_audiences: Mapping[str, Audience],
          players: Iterable[str] = ()) -> dict[Audience, list[str]]:
    """Which tabs each book holds, in the order of ``tabs``: the GM's every tab, the public book the
    public tabs, each player's book (every side of ``players`` and every side with a tab) that
    player's own tabs only.  A tab missing from ``tab_audiences`` is in the GM's book alone."""
    names = list(tabs)
    who = [player(s) for s in dict.fromkeys([*players, *sides(tab_audiences)])]
    out: dict[Audience, list[str]] = {GM: names, PUBLIC: []}
    for reader in who:
        out[reader] = []
    for name in names:
        audience = tab_audiences.get(name, GM)
        if audience == PUBLIC:
            out[PUBLIC].append(name)
        elif audience.kind == "player" and audience in out:
            out[audience].append(name)
    return out


def readable(tabs: Iterable[str], tab_audiences: Mapping[str, Audience], reader: Audience) -> list[str]:
    """Every tab of ``tabs`` that ``reader`` may see (a player: the public tabs and their own)."""
    return [t for t in tabs if tab_audiences.get(t, GM).may_read(reader)]
