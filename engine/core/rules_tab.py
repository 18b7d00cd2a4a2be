"""Reading a game's GM-editable rules tabs («Правила — …»): one reader and one loader table for all games.

A game keeps every number of its rules in tabs the GM may edit; each tab is read by one small
loader of the game (a function of a :class:`TabReader` and the rules read so far), listed with
the tab's layout in a table of :class:`TabLoader` by the tab's *role*.  The reading itself is the
same in every game and lives here: find the tab by its Russian or English title, find its
columns by header, give typed cell getters that check every number against its column's declared
:class:`~engine.core.cells.Bound`, and report each bad cell as a
:class:`~engine.core.errors.Problem` that names the tab, the row and the column.

What differs between games is declared, not coded: :class:`RulesTabs` holds a game's loaders,
the bounds of its numeric columns, the key its rows are stored under, and the wording of its
problems (:class:`RulesTabTexts`: msgids of the game's own catalogue and its translator, so each
game keeps the words and the English its GMs already know).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, Generic, Protocol, TypeVar

from . import i18n
from .cells import Bound, UndeclaredBound
from .errors import Problem
from .fields import Field, Keyed, TabFields
from .layout import Layout, _norm, find_tab, norm, records
from .messages import _
from .money import amount
from .tables import Cell, Tables, column_letter, is_blank

R = TypeVar("R")  # a game's typed rules (a frozen dataclass filled tab by tab)

Record = dict[str, Cell]  # one row of a tab: column key -> cell
Words = Mapping[str, Sequence[str]]  # a column's vocabulary: code -> (Russian, English, other accepted words…)

KNOWN_SHOWN = 12  # the names an unknown-name problem lists at most

#: «да» / «нет» (yes / no), the vocabulary of :meth:`TabReader.yes`
YES_NO: Words = {"yes": ("да", "yes", "true"), "no": ("нет", "no", "false")}


@cache
def _splitter(separators: str) -> re.Pattern[str]:
    return re.compile(f"[{re.escape(separators)}]")


def split_list(cell: Cell, separators: str = ";\n") -> tuple[str, ...]:
    """The items of a list cell: 'лес; джунгли' -> ('лес', 'джунгли'); ``separators`` are the
    characters that part them (a game may add its own, such as «|»)."""
    return tuple(x.strip() for x in _splitter(separators).split(str(cell or "")) if x.strip())


def code_of(words: Words, text: str) -> str | None:
    """The code whose words include ``text`` (case, ё and punctuation ignored), or None."""
    n = norm(text)
    for code, names in words.items():
        if n == norm(code) or n in {norm(w) for w in names}:
            return code
    return None


def known(words: Words, lang: str) -> str:
    """The words a column accepts, in the tab's language, for a message: «да», «нет»."""
    return ", ".join(f"«{names[1] if lang == 'en' and len(names) > 1 else names[0]}»" for names in words.values())


@dataclass(frozen=True)
class RulesTabTexts:
    """The wording of a game's rules-tab problems: msgids of the game's own catalogue (the game
    marks them with ``N_`` where it declares them, so they are extracted into its catalogue) and
    the game's translator, which turns them into the campaign's language when a problem is told.

    ``blank_word`` and ``unknown_word`` are needed only by a game that reads words of a fixed
    vocabulary (:meth:`TabReader.word`); ``in_column`` («столбец «{column}»: {message}») prefixes
    every cell problem with its column's header, or is None for the message alone."""

    translate: Callable[[str], str]
    no_tab: str  # {tab}: the tab is not in the campaign
    empty_tab: str  # the tab has not even a header row
    blank_number: str  # a required number is blank
    not_a_number: str  # {value}: the cell is no number
    blank_word: str | None = None  # {known}: a required word is blank
    unknown_word: str | None = None  # {text}, {known}: a word of no vocabulary entry
    in_column: str | None = None  # {column}, {message}

    def say(self, msgid: str, **fields: object) -> str:
        """``msgid`` in the current language with its ``{fields}`` filled in."""
        return self.translate(msgid).format(**fields)


@dataclass(frozen=True)
class TabLoader(Generic[R]):
    """How one rules tab is read: its layout, the field of the rules it fills, the function that
    reads it, and the roles of the tabs it looks names up in (they must be read before it)."""

    layout: Layout
    fills: str
    read: Callable[[TabReader, R], R]
    needs: tuple[str, ...] = ()


class Declared(Protocol):
    """What a reader needs of a game's declaration of a family of tabs (its rules tabs, its state
    tabs): the wording of problems, the declared fields (and the older bounds-only table), and
    whether a row's name is read in the campaign's language."""

    @property
    def texts(self) -> RulesTabTexts: ...
    @property
    def bounds(self) -> Mapping[Layout, Mapping[str, Bound]]: ...
    @property
    def fields(self) -> Mapping[Layout, TabFields]: ...
    @property
    def names_by_language(self) -> bool: ...


@dataclass(frozen=True)
class StateTabs:
    """A game's state tabs declared (:mod:`engine.core.fields`): read with the same reader and the
    same checks as its rules tabs, each problem in the game's words."""

    texts: RulesTabTexts
    fields: Mapping[Layout, TabFields]
    names_by_language: bool = False
    bounds: Mapping[Layout, Mapping[str, Bound]] = field(default_factory=dict)

    def reader(self, tables: Tables, layout: Layout, problems: list[Problem], required: bool = True) -> TabReader:
        """A reader of the tab of ``layout``; a missing tab is a problem when ``required``."""
        return TabReader(tables, layout, problems, self, required)


class UnknownTabRole(KeyError):
    """A rules tab asked for by a role no loader has (a bug: add its loader to the game's table)."""


@dataclass(frozen=True)
class RulesTabs(Generic[R]):
    """A game's rules tabs: its loaders by role, in the order they run (the order of their
    problems, too), the bounds of their numeric columns, its empty rules (``empty()``), the
    wording of its problems, and whether a row's name is read in the campaign's language
    (``names_by_language``: the other language's column holds aliases) or always in Russian, the
    language the game keys its rules by."""

    loaders: Mapping[str, TabLoader[R]]
    bounds: Mapping[Layout, Mapping[str, Bound]]
    texts: RulesTabTexts
    empty: Callable[[], R]
    names_by_language: bool = True
    fields: Mapping[Layout, TabFields] = field(default_factory=dict)
    #: rules already read, by the content of the tabs they were read from (see :meth:`load`)
    _loaded: dict[object, tuple[R, tuple[Problem, ...]]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def reader(self, tables: Tables, layout: Layout, problems: list[Problem]) -> TabReader:
        """A reader of the tab of ``layout`` in ``tables``; its problems go to ``problems``."""
        return TabReader(tables, layout, problems, self)

    def load_tab(self, role: str, tables: Tables, problems: list[Problem], rules: R | None = None) -> R:
        """Read the one rules tab of ``role`` into ``rules`` (empty ones by default); its problems
        are appended to ``problems``."""
        loader = self.loaders.get(role)
        if loader is None:
            raise UnknownTabRole(f"no loader for the rules tab role {role!r} (known: {', '.join(self.loaders)})")
        return loader.read(self.reader(tables, loader.layout, problems), self.empty() if rules is None else rules)

    def load(self, tables: Tables, problems: list[Problem]) -> R:
        """Build the rules from the campaign's rules tabs; every problem is appended to ``problems``.

        The same tabs (the same titles and cells, read in the same language) give the same rules
        and problems, so they are read once and kept (the last few): a command decodes its campaign
        several times, and the rules tabs were most of each decode.  The rules are immutable (frozen
        records, filled by ``replace``), so the one kept is given out as it is."""
        key = self._content(tables)
        hit = self._loaded.get(key) if key is not None else None
        if hit is None:
            found: list[Problem] = []
            rules = self.empty()
            for role in self.loaders:
                rules = self.load_tab(role, tables, found, rules)
            hit = (rules, tuple(found))
            if key is not None:
                if len(self._loaded) >= _KEPT_RULES:
                    self._loaded.clear()
                self._loaded[key] = hit
        problems.extend(hit[1])
        return hit[0]

    def _content(self, tables: Tables) -> object | None:
        """What :meth:`load` reads of ``tables``, as a key: the language, and each loader's tab
        (its title and cells); ``None`` when a cell cannot be a key (then nothing is kept)."""
        parts: list[object] = [i18n.current()]
        for loader in self.loaders.values():
            tab = find_tab(tables, loader.layout) or ""
            grid = tables.get(tab) if tab else None
            parts.append((tab, tuple(map(tuple, grid)) if grid else ()))
        key = tuple(parts)
        try:
            hash(key)
        except TypeError:
            return None
        return key


_KEPT_RULES = 16  # rules read from this many different contents are kept (then forgotten at once)


# how TabReader.values takes a cell without TabReader.value (see _plan)
_SLOW, _WHOLE, _TEXT, _NAME, _WORD, _FORM, _TEXTS, _NAMES = range(8)
_SLOW_CELL = object()  # a cell TabReader._checked leaves to TabReader.value
_INF = float("inf")
_NO_DEFAULT = object()  # a blank cell of the field goes through TabReader.value (a problem, or no fast path)

Plan = tuple[tuple[str, Field, int, Any, Any, "dict[str, str] | None", Any], ...]


def _word_table(words: Words) -> dict[str, str]:
    """:func:`code_of` as a lookup: each word as :func:`norm` makes it -> the first code that has it."""
    table: dict[str, str] = {}
    for code, names in words.items():
        for w in (code, *names):
            table.setdefault(norm(w), code)
    return table


def _plan(spec: TabFields) -> Plan:
    """Per field of a declaration: its key, the field, how its common cell is taken without
    :meth:`TabReader.value` (a whole number's range, a word's lookup), worked out once and kept
    on the declaration."""
    found = spec.memo.get("plan")
    if found is not None:
        return found  # type: ignore[return-value]
    plan = []
    for f in spec.fields:
        fast, lo, hi, table, blank = _SLOW, None, None, None, _NO_DEFAULT
        if f.kind == "whole" and f.bound is not None:
            fast, lo, hi = _WHOLE, f.bound.lo, f.bound.hi
            if not f.required and not f.bound.required and (isinstance(f.default, int) or f.default is None):
                blank = f.default  # what TabReader.whole gives a blank cell
        elif f.kind == "text":
            fast, blank = (_TEXTS, ()) if f.many else (_TEXT, "")
        elif f.kind == "name":
            fast, blank = (_NAMES, ()) if f.many else (_NAME, "")
        elif f.kind == "word" and f.words is not None:
            fast, table, blank = _WORD, _word_table(f.words), str(f.default or "")
        elif f.kind == "form" and not f.many and f.parse is not None:
            fast, blank = _FORM, f.default
        if f.required and fast != _WHOLE:
            blank = _NO_DEFAULT  # a blank cell is a problem
        plan.append((f.key, f, fast, lo, hi, table, blank))
    spec.memo["plan"] = out = tuple(plan)
    return out


_PLAIN, _PARSED, _OTHER = range(3)  # how a unique cell's identity is taken (see TabReader._identity)


def _identity_kind(f: Field | None) -> int:
    if f is not None and f.kind == "form" and f.parse is not None:
        return _PARSED
    if f is not None and f.kind in ("form", "whole", "number"):
        return _OTHER
    return _PLAIN


def _unique_fields(spec: TabFields) -> tuple[tuple[str, Field | None, int], ...]:
    """The declaration's unique columns with their fields, looked up once."""
    found = spec.memo.get("unique")
    if found is None:
        found = spec.memo["unique"] = tuple((k, f, _identity_kind(f)) for k in spec.unique for f in [spec.field(k)])
    return found  # type: ignore[return-value]


class TabReader:
    """Reads one rules tab by its Russian or English title and headers, collecting problems: each
    names its tab, row and column (the column's header too, where the game says so), and every
    number read is checked against its column's declared bound."""

    def __init__(
        self, tables: Tables, layout: Layout, problems: list[Problem], game: Declared, required: bool = True
    ) -> None:
        self.layout = layout
        self.problems = problems
        self.game = game
        self.spec: TabFields | None = game.fields.get(layout)
        own = game.bounds.get(layout)
        declared = self.spec._bounds() if self.spec is not None else {}
        self.bounds: Mapping[str, Bound] = {**own, **declared} if own else declared
        self.tab = find_tab(tables, layout) or ""
        self.rows: list[tuple[int, Record]] = []
        self.cols: dict[str, int] = {}
        self.lang = "ru"  # the language of the tab's title, so of its headers and of its own names
        self._norms: dict[int, tuple[Collection[str], frozenset[str]]] = {}  # see _normalised
        self._parsed: dict[tuple[str, str], object | None] = {}  # see _parse
        texts = game.texts
        self._words_ok = texts.blank_word is not None and texts.unknown_word is not None
        if not self.tab:
            if required:
                lang = i18n.current()
                problems.append(Problem(layout.ru, 0, "", texts.say(
                    texts.no_tab, tab=layout.tab_name(lang), other=layout.tab_name("ru" if lang == "en" else "en"))))
            return
        grid = tables[self.tab]
        if not grid:
            problems.append(Problem(self.tab, 0, "", texts.say(texts.empty_tab)))
            return
        self.cols = layout.locate(self.tab, grid[0], problems)
        self.rows = self._once(records(grid, self.cols))
        self.lang = "en" if norm(self.tab) == norm(layout.en) and norm(layout.en) != norm(layout.ru) else "ru"

    def _once(self, rows: list[tuple[int, Record]]) -> list[tuple[int, Record]]:
        """The rows, without one whose ``unique`` columns (as declared) repeat an earlier row's:
        that row is a problem at its first unique column (««a1» уже есть в строке 2»), so a row
        written twice never silently wins."""
        unique = self.spec.unique if self.spec is not None else ()
        if not unique:
            return rows
        fields = _unique_fields(self.spec) if self.spec is not None else ()
        identity = self._identity_of
        seen: dict[tuple[object, ...], int] = {}
        out: list[tuple[int, Record]] = []
        parsed = self._parsed
        for row, rec in rows:
            idents: list[object] = []
            for k, f, how in fields:
                v = rec.get(k)
                if type(v) is str:
                    if how == _PLAIN:  # the text as norm makes it (norm strips it itself)
                        idents.append(_norm(v))
                        continue
                    if how == _PARSED and (text := v.strip()):
                        p = parsed.get((k, text), _NO_DEFAULT)
                        if p is _NO_DEFAULT:
                            p = self._parse(f, text)  # type: ignore[arg-type]
                        idents.append(p or _norm(text))
                        continue
                idents.append(identity(rec, k, f))
            key = tuple(idents)
            if "" in key or None in key:
                out.append((row, rec))  # a blank key is its field's own problem
                continue
            if key in seen:
                shown = ", ".join(self.text(rec, k) for k in unique)
                self.bad(row, unique[0], _("«{value}» уже есть в строке {row}").format(value=shown, row=seen[key]))
                continue
            seen[key] = row
            out.append((row, rec))
        return out

    def _identity(self, rec: Record, key: str) -> object:
        """What makes a unique cell the same as another: its parsed form (a hex), else its text
        with case, ё and punctuation ignored."""
        return self._identity_of(rec, key, self.spec.field(key) if self.spec is not None else None)

    def _identity_of(self, rec: Record, key: str, f: Field | None) -> object:
        value = rec.get(key)
        text = value.strip() if type(value) is str else self.text(rec, key)
        if f is not None and text:
            kind = f.kind
            if kind == "form" and f.parse is not None:
                return self._parse(f, text) or norm(text)
            if kind in ("whole", "number"):
                if type(value) is int:
                    return Fraction(value)
                try:
                    return amount(value)
                except (ValueError, TypeError, ZeroDivisionError, OverflowError):
                    return norm(text)
        return norm(text)

    # --- problems -------------------------------------------------------------------------------

    def header(self, key: str) -> str:
        """The column's header in the tab's language (for messages)."""
        for c in self.layout.columns:
            if c.key == key:
                return c.header(self.lang)
        return key

    def bad(self, row: int, key: str, message: str) -> None:
        """A problem in the cell of ``row`` and column ``key`` («Лист!B3: …»)."""
        col = column_letter(self.cols[key] + 1) if key in self.cols else ""
        texts = self.game.texts
        if texts.in_column is not None:
            message = texts.say(texts.in_column, column=self.header(key), message=message)
        self.problems.append(Problem(self.tab, row, col, message))

    # --- cells ----------------------------------------------------------------------------------

    def text(self, rec: Record, key: str) -> str:
        """The cell's text, stripped ('' for a blank cell)."""
        value = rec.get(key)
        if type(value) is str:
            return value.strip()
        return "" if value is None else str(value).strip()

    def name(self, rec: Record) -> str:
        """The row's name, its key in the rules: in the campaign's language or in Russian, as the
        game says (:attr:`RulesTabs.names_by_language`); the other language's when that is blank."""
        ru, en = self.text(rec, "name_ru"), self.text(rec, "name_en")
        return (en or ru) if self.game.names_by_language and self.lang == "en" else (ru or en)

    def named(self) -> Iterator[tuple[int, Record, str]]:
        """(sheet row, record, :meth:`name`) of every row that has a name; a row without one is
        passed over (a loader that must report it reads :attr:`rows`)."""
        for row, rec in self.rows:
            name = self.name(rec)
            if name:
                yield row, rec, name

    def _declared(self, key: str) -> Bound:
        if key not in self.bounds:
            raise UndeclaredBound(f"{self.tab or self.layout.ru}: no declared bound for the numeric column {key!r}")
        return self.bounds[key]

    def _amount(self, row: int, key: str, value: Cell) -> Fraction | None:
        """The number written in a non-blank cell, or None after reporting that it is none."""
        try:
            return amount(value)
        except (ValueError, TypeError, ZeroDivisionError, OverflowError):
            self.bad(row, key, self.game.texts.say(self.game.texts.not_a_number, value=value))
            return None

    def _within(self, row: int, key: str, num: Fraction, bound: Bound) -> bool:
        """Whether ``num`` fits ``bound``; a problem when it does not."""
        why = bound.problem(num)
        if why:
            self.bad(row, key, why)
        return not why

    def num(
        self, row: int, rec: Record, key: str, default: Fraction | None = None, bound: Bound | None = None
    ) -> Fraction:
        """The number in column ``key`` within ``bound`` (by default the column's declared one).
        A blank cell is ``default``, and a problem when there is none; after a problem the value is
        0 (``default`` when only the bound is broken)."""
        bound = self._declared(key) if bound is None else bound
        value = rec.get(key)
        if is_blank(value):
            if default is not None:
                return default
            self.bad(row, key, self.game.texts.say(self.game.texts.blank_number))
            return Fraction(0)
        num = self._amount(row, key, value)
        if num is None:
            return Fraction(0)
        if not self._within(row, key, num, bound):
            return default if default is not None else Fraction(0)
        return num

    def whole(self, row: int, rec: Record, key: str, default: int | None = 0) -> int | None:
        """The whole number in column ``key`` within its declared bound; a blank cell is
        ``default``, and a problem when the bound says the cell is ``required``; ``default``
        after a problem too."""
        bound = self._declared(key)
        value = rec.get(key)
        if is_blank(value):
            if bound.required:
                self.bad(row, key, self.game.texts.say(self.game.texts.blank_number))
            return default
        if type(value) is int and (bound.lo is None or value >= bound.lo) and (bound.hi is None or value <= bound.hi):
            return value  # the common case, without a Fraction
        num = self._amount(row, key, value)
        if num is None or not self._within(row, key, num, bound):
            return default
        return int(num)

    def need(self, row: int, rec: Record, key: str) -> int:
        """A whole number that must be there (its bound is ``required``); 0 after a problem."""
        value = self.whole(row, rec, key)
        return 0 if value is None else value

    def word(self, row: int, rec: Record, key: str, words: Words | None = None, default: str | None = None) -> str:
        """The code of the word in column ``key``; a blank cell is ``default`` (a problem if None).
        Without ``words``, the column's declared field gives the vocabulary and the default."""
        if words is None:
            f = self._spec().field(key)
            if f is None or f.words is None:
                raise UndeclaredBound(f"{self.tab or self.layout.ru}: no declared vocabulary for the column {key!r}")
            words, default = f.words, (None if f.required else str(f.default or ""))
        texts = self.game.texts
        if texts.blank_word is None or texts.unknown_word is None:
            raise NotImplementedError(f"{self.layout.ru}: the game declares no messages for words (column {key!r})")
        text = self.text(rec, key)
        if not text:
            if default is None:
                self.bad(row, key, texts.say(texts.blank_word, known=known(words, self.lang)))
                return ""
            return default
        code = code_of(words, text)
        if code is None:
            self.bad(row, key, texts.say(texts.unknown_word, text=text, known=known(words, self.lang)))
            return default or ""
        return code

    def yes(self, row: int, rec: Record, key: str, default: bool = False) -> bool:
        """«да» / «нет» (yes / no) in column ``key``; blank is ``default``."""
        return self.word(row, rec, key, YES_NO, "yes" if default else "no") == "yes"

    # --- the declared fields (engine/core/fields.py) ----------------------------------------------

    def _spec(self) -> TabFields:
        if self.spec is None:
            raise UndeclaredBound(f"{self.tab or self.layout.ru}: the tab's fields are not declared")
        return self.spec

    def value(self, row: int, rec: Record, f: Field, refs: Mapping[str, Collection[str]] | None = None) -> Any:
        """The cell of field ``f`` read and checked as the field declares; after a problem, the
        field's default (0 for a number, '' for a text)."""
        if f.kind == "whole":
            default = f.default if isinstance(f.default, int) or f.default is None else int(str(f.default))
            if f.required and is_blank(rec.get(f.key)):
                self.bad(row, f.key, self.game.texts.say(self.game.texts.blank_number))
                return default
            return self.whole(row, rec, f.key, default)
        if f.kind == "number":
            default = Fraction(str(f.default)) if f.default is not None else Fraction(0)
            return self.num(row, rec, f.key, None if f.required else default)
        if f.kind == "word":
            assert f.words is not None
            return self.word(row, rec, f.key, f.words, None if f.required else str(f.default or ""))
        text = self.text(rec, f.key)
        if not text:
            if f.required:
                self.bad(row, f.key, _("пустая ячейка"))
            return () if f.many else (f.default if f.kind == "form" else "")
        items = split_list(text, f.separators) if f.many else (text,)
        out = tuple(self._item(row, f, item, refs) for item in items)
        return out if f.many else out[0]

    def _item(self, row: int, f: Field, text: str, refs: Mapping[str, Collection[str]] | None) -> Any:
        """One item of a name or form field, checked (a name against its collection, when given)."""
        if f.kind == "form":
            assert f.parse is not None and f.form_msgid is not None
            parsed = self._parse(f, text)
            if parsed is None:
                self.bad(row, f.key, self.game.texts.say(f.form_msgid, value=text))
                return f.default
            if f.ref is not None:
                self._known(row, f, parsed, text, refs)
            return parsed
        if f.kind == "name":
            self._known(row, f, text, text, refs)
        return text

    def _known(self, row: int, f: Field, value: object, text: str, refs: Mapping[str, Collection[str]] | None) -> None:
        """A problem when ``value`` is none of the names of the field's collection (a collection
        not given, or given empty, is not checked: there is nothing to check against).  A collection
        that is a mapping accepts its keys (every alias) and lists its values (the names shown)."""
        names = (refs or {}).get(f.ref or "")
        if not names:
            return
        if not isinstance(value, str):
            if value in names:
                return
        elif norm(value) in self._normalised(names):
            return
        # a mapping names each accepted alias's shown name: list those (once, in order); else the names
        listed = list(dict.fromkeys(str(v) for v in names.values())) if isinstance(names, Mapping) else \
            [str(n) for n in names]
        known_text = ", ".join(listed[:KNOWN_SHOWN]) + (", …" if len(listed) > KNOWN_SHOWN else "")
        msgid = f.unknown_msgid
        message = (self.game.texts.say(msgid, text=text, known=known_text) if msgid is not None
                   else _("неизвестное «{text}»; есть: {known}").format(text=text, known=known_text))
        self.bad(row, f.key, message)

    def _parse(self, f: Field, text: str) -> object | None:
        """``text`` parsed by the field's parser, once per text (a unique column is read twice)."""
        key = (f.key, text)
        found = self._parsed.get(key, _NO_DEFAULT)
        if found is _NO_DEFAULT:
            assert f.parse is not None
            found = self._parsed[key] = f.parse(text)
        return found

    def _normalised(self, names: Collection[str]) -> frozenset[str]:
        """The names of a collection as :func:`norm` makes them, worked out once per collection."""
        key = id(names)
        found = self._norms.get(key)
        if found is None or found[0] is not names:
            found = (names, frozenset(norm(n) for n in names))
            self._norms[key] = found
        return found[1]

    def values(self, row: int, rec: Record, refs: Mapping[str, Collection[str]] | None = None) -> dict[str, Any]:
        """Every declared field of one row, read and checked (see :meth:`value`).

        The common cells (a whole number within its range, a text, a known name or word, a hex) are
        taken as they are (the plan of the declaration, :func:`_plan`); any other goes through
        :meth:`value`, which reads it again and reports its problem."""
        out: dict[str, Any] = {}
        get = rec.get
        words_ok = self._words_ok
        for key, f, fast, lo, hi, table, blank in _plan(self._spec()):
            v = get(key)
            if fast == _WHOLE:
                if type(v) is int:
                    if (lo is None or v >= lo) and (hi is None or v <= hi):
                        out[key] = v
                        continue
                elif v is None and blank is not _NO_DEFAULT:
                    out[key] = blank
                    continue
            elif fast != _SLOW:
                text = v.strip() if type(v) is str else "" if v is None else str(v).strip()
                if not text:
                    if blank is not _NO_DEFAULT and (fast != _WORD or words_ok):
                        out[key] = blank
                        continue
                elif fast == _TEXT:
                    out[key] = text
                    continue
                elif fast == _NAME:
                    names = refs.get(f.ref or "") if refs else None
                    if not names or norm(text) in self._normalised(names):
                        out[key] = text
                        continue
                elif fast == _WORD:
                    code = table.get(norm(text)) if words_ok and table is not None else None
                    if code is not None:
                        out[key] = code
                        continue
                elif fast == _FORM:
                    parsed = self._parse(f, text)
                    if parsed is not None and not isinstance(parsed, str):
                        names = refs.get(f.ref) if refs and f.ref is not None else None
                        if not names or parsed in names:
                            out[key] = parsed
                            continue
                elif fast == _TEXTS:
                    out[key] = split_list(text, f.separators)
                    continue
                elif fast == _NAMES:
                    names = refs.get(f.ref or "") if refs else None
                    items = split_list(text, f.separators)
                    if not names:
                        out[key] = items
                        continue
                    normalised = self._normalised(names)
                    if all(norm(item) in normalised for item in items):
                        out[key] = items
                        continue
            out[key] = self.value(row, rec, f, refs)
        return out

    def checked(self, refs: Mapping[str, Collection[str]] | None = None) -> list[tuple[int, dict[str, Any]]]:
        """(sheet row, values) of every row, each field checked (see :meth:`value`)."""
        return [(row, values) for row, _rec, values in self._checked(refs)]

    def _checked(self, refs: Mapping[str, Collection[str]] | None) -> list[tuple[int, Record, dict[str, Any]]]:
        """:meth:`values` of every row, worked out a column at a time: the common cells in one
        pass per field, then every other cell through :meth:`value` row by row, field by field (so
        the problems come in the order :meth:`values` gives them)."""
        rows = self.rows
        if not rows:
            return []
        plan = _plan(self._spec())
        recs = [rec for _row, rec in rows]
        columns = [self._column(recs, step, refs) for step in plan]
        keys = [step[0] for step in plan]
        out = [(row, rec, dict(zip(keys, cells))) for (row, rec), cells in zip(rows, zip(*columns))]
        if any(_SLOW_CELL in column for column in columns):
            fields = [step[1] for step in plan]
            for row, rec, values in out:
                for key, f in zip(keys, fields):
                    if values[key] is _SLOW_CELL:
                        values[key] = self.value(row, rec, f, refs)
        return out

    def _column(self, recs: list[Record], step: Any, refs: Mapping[str, Collection[str]] | None) -> list[Any]:
        """One field's cells of ``recs`` as :meth:`values` takes them; :data:`_SLOW_CELL` for a
        cell that must go through :meth:`value`."""
        key, f, fast, lo, hi, table, blank = step
        cells = [rec.get(key) for rec in recs]
        slow = _SLOW_CELL
        if fast == _SLOW:
            return [slow] * len(cells)
        if fast == _WHOLE:
            low = -_INF if lo is None else lo
            high = _INF if hi is None else hi
            return [v if type(v) is int and low <= v <= high else
                    blank if v is None and blank is not _NO_DEFAULT else slow for v in cells]
        texts = [v.strip() if type(v) is str else "" if v is None else str(v).strip() for v in cells]
        if blank is _NO_DEFAULT or (fast == _WORD and not self._words_ok):
            blank = slow
        if fast == _TEXT:
            return [t or blank for t in texts]
        if fast == _TEXTS:
            return [split_list(t, f.separators) if t else blank for t in texts]
        if fast == _WORD:
            if not self._words_ok or table is None:
                return [slow] * len(cells)
            return [table.get(_norm(t), slow) if t else blank for t in texts]
        names = refs.get(f.ref or "") if refs else None
        if fast == _NAME:
            if not names:
                return [t or blank for t in texts]
            normalised = self._normalised(names)
            return [(t if _norm(t) in normalised else slow) if t else blank for t in texts]
        if fast == _NAMES:
            if not names:
                return [split_list(t, f.separators) if t else blank for t in texts]
            normalised = self._normalised(names)
            out: list[Any] = []
            for t in texts:
                if not t:
                    out.append(blank)
                    continue
                items = split_list(t, f.separators)
                out.append(items if all(_norm(item) in normalised for item in items) else slow)
            return out
        # _FORM
        names = refs.get(f.ref) if refs and f.ref is not None else None
        parse = self._parse
        out = []
        for t in texts:
            if not t:
                out.append(blank)
                continue
            parsed = parse(f, t)
            out.append(parsed if parsed is not None and not isinstance(parsed, str) and (not names or parsed in names)
                       else slow)
        return out

    def settings(self) -> dict[str, tuple[int, Fraction, dict[str, Any]]]:
        """A key/value tab (:class:`~engine.core.fields.Keyed`): key -> (sheet row, value, the
        row's other values).  A blank, unknown or repeated key, a value outside its key's range
        and a needed key missing are each a problem."""
        keyed: Keyed | None = self._spec().keyed
        if keyed is None:
            raise UndeclaredBound(f"{self.tab or self.layout.ru}: not a key/value tab")
        out: dict[str, tuple[int, Fraction, dict[str, Any]]] = {}
        for row, rec, values in self._checked(None):
            key = str(values.get(keyed.key) or "")
            if not key:
                continue
            bound = keyed.bounds.get(key)
            if bound is None:
                self.bad(row, keyed.key, _("неизвестный ключ «{key}»; известны: {known}").format(
                    key=key, known=", ".join(keyed.bounds)))
                continue
            out[key] = (row, self.num(row, rec, keyed.value, bound=bound), values)
        for key in keyed.required:
            if self.tab and key not in out:
                self.problems.append(Problem(self.tab, 0, "", _("нет строки с ключом «{key}»").format(key=key)))
        return out
