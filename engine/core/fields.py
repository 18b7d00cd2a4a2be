"""One declaration of a tab's fields, shared by every game: what each column holds and may hold.

A game declares each of its state and rules tabs once, as a :class:`TabFields`: every column's
kind (text, whole number, number, a word of a vocabulary, a name of a collection, a text of the
game's own form such as a hex), its range (a :class:`~engine.core.cells.Bound`), whether a blank
cell is a problem, and which columns together name a row once (``unique``).  A tab of key/value
rows (the game's parameters) declares each key's range in :class:`Keyed`: a key no rule reads, a
key written twice and a needed key missing are problems too.

The reading is the core's (:class:`engine.core.rules_tab.TabReader.values`): every cell is checked
against its field, and every problem names the tab, the row and the column, so a game writes no
range check of its own and a value outside its range never reaches a turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .cells import Bound
from .layout import Layout

Kind = Literal["text", "whole", "number", "word", "name", "form"]
Words = Mapping[str, Sequence[str]]  # a column's vocabulary: code -> (Russian, English, other accepted words…)


@dataclass(frozen=True)
class Field:
    """One column of a tab, as its game declares it.

    ``kind``: ``text`` (any text), ``whole`` / ``number`` (within ``bound``), ``word`` (a code of
    ``words``; a blank cell is ``default``), ``name`` (one of the names of the collection ``ref``
    the reader is given, e.g. the rules' terrains: a collection given empty is not checked),
    ``form`` (a text ``parse`` turns into a value, None when malformed; ``form_msgid`` says how it
    is written, with ``{value}``).  ``many``: a list cell («a; b»), each item checked.
    ``unknown_msgid`` words an unknown name in the game's catalogue (``{text}``, ``{known}``)."""

    key: str
    kind: Kind = "text"
    bound: Bound | None = None
    required: bool = False
    words: Words | None = None
    default: object = None
    ref: str | None = None
    many: bool = False
    separators: str = ";\n"
    parse: Callable[[str], object | None] | None = None
    form_msgid: str | None = None
    unknown_msgid: str | None = None

    def __post_init__(self) -> None:
        if self.kind in ("whole", "number") and self.bound is None:
            raise ValueError(f"the numeric field {self.key!r} declares no bound")
        if self.kind == "word" and self.words is None:
            raise ValueError(f"the word field {self.key!r} declares no vocabulary")
        if self.kind == "name" and self.ref is None:
            raise ValueError(f"the name field {self.key!r} declares no collection")
        if self.kind == "form" and (self.parse is None or self.form_msgid is None):
            raise ValueError(f"the form field {self.key!r} declares no parser or wording")


@dataclass(frozen=True)
class Keyed:
    """A tab of key/value rows: the range of each key's value (a key not listed is unknown, a
    problem), and the keys a campaign must have (``required``)."""

    bounds: Mapping[str, Bound]
    required: tuple[str, ...] = ()
    key: str = "key"
    value: str = "value"


@dataclass(frozen=True)
class TabFields:
    """A tab's declaration: its layout, its fields, the columns that name a row once, and for a
    key/value tab the range of each key."""

    layout: Layout
    fields: tuple[Field, ...]
    unique: tuple[str, ...] = ()
    keyed: Keyed | None = None
    _by_key: dict[str, Field] = field(default_factory=dict, init=False, repr=False, compare=False)
    #: what a reader works out of the declaration once, not per row (engine.core.rules_tab)
    memo: dict[str, object] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        columns = {c.key for c in self.layout.columns}
        for f in self.fields:
            if f.key not in columns:
                raise ValueError(f"{self.layout.ru}: the field {f.key!r} is no column of the tab")
            self._by_key[f.key] = f
        for key in self.unique:
            if key not in self._by_key:
                raise ValueError(f"{self.layout.ru}: the unique column {key!r} is not declared")

    def field(self, key: str) -> Field | None:
        """The declared field of column ``key``, or None."""
        return self._by_key.get(key)

    def bounds(self) -> dict[str, Bound]:
        """The bound of each numeric column (what :class:`~engine.core.rules_tab.TabReader` checks)."""
        return dict(self._bounds())

    def _bounds(self) -> dict[str, Bound]:
        """:meth:`bounds`, worked out once (not to be changed)."""
        found = self.memo.get("bounds")
        if found is None:
            found = self.memo["bounds"] = {f.key: f.bound for f in self.fields if f.bound is not None}
        return found  # type: ignore[return-value]


def declared(tabs: Sequence[TabFields]) -> dict[Layout, TabFields]:
    """A game's declarations by layout (each layout declared once)."""
    out: dict[Layout, TabFields] = {}
    for t in tabs:
        if t.layout in out:
            raise ValueError(f"{t.layout.ru} is declared twice")
        out[t.layout] = t
    return out
