"""The small language of the buildings table's «Где можно строить» column.

Rules are data: a GM edits `spec(железо) | near(железо, 1)` in the sheet and the next resolve
follows it. Terms: spec(...), terrain(...), near(spec..., N), near_own(spec..., N),
near_terrain(terrain..., N=1), capital, coastal, building(name), province(name...), tech(name);
`&` binds tighter than `|`; parentheses group.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.core import i18n

from .messages import _
from .model import Campaign, Province, State
from .speech import count

TERMS = (
    "spec",
    "terrain",
    "near",
    "near_own",
    "near_terrain",
    "capital",
    "coastal",
    "building",
    "province",
    "tech",
    "government",
)


class ConditionSyntaxError(ValueError):
    """The condition text cannot be parsed; the message says where."""


@dataclass(frozen=True)
class Term:
    name: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Node:
    op: str  # "&" | "|"
    parts: tuple[Expr, ...]


Expr = Term | Node | None


@dataclass(frozen=True)
class Context:
    """What a condition is evaluated against: a province, the state that builds, the world."""

    campaign: Campaign
    state: State
    province: Province


_TOKEN = re.compile(r"\s*(?:(?P<op>[&|()])|(?P<name>[A-Za-z_]+)\s*(?:\((?P<args>[^()]*)\))?)")


def parse(text: str) -> Expr:
    """Parse a condition; empty text means «anywhere»."""
    text = (text or "").strip()
    if not text:
        return None
    tokens: list[tuple[str, object]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ConditionSyntaxError(
                _("непонятное условие с позиции {pos}: {rest!r}").format(pos=pos + 1, rest=text[pos:])
            )
        if m.group("op"):
            tokens.append(("op", m.group("op")))
        else:
            name = m.group("name")
            if name not in TERMS:
                raise ConditionSyntaxError(
                    _("неизвестное условие {name!r} (известны: {known})").format(name=name, known=", ".join(TERMS))
                )
            raw = m.group("args")
            args = tuple(a.strip() for a in raw.split(",") if a.strip()) if raw is not None else ()
            tokens.append(("term", Term(name, args)))
        pos = m.end()
    expr, rest = _parse_or(tokens)
    if rest:
        raise ConditionSyntaxError(_("лишнее в конце условия: {text!r}").format(text=text))
    return expr


def _parse_or(tokens: list[tuple[str, object]]) -> tuple[Expr, list[tuple[str, object]]]:
    left, tokens = _parse_and(tokens)
    parts = [left]
    while tokens and tokens[0] == ("op", "|"):
        right, tokens = _parse_and(tokens[1:])
        parts.append(right)
    return (parts[0] if len(parts) == 1 else Node("|", tuple(parts))), tokens


def _parse_and(tokens: list[tuple[str, object]]) -> tuple[Expr, list[tuple[str, object]]]:
    left, tokens = _parse_atom(tokens)
    parts = [left]
    while tokens and tokens[0] == ("op", "&"):
        right, tokens = _parse_atom(tokens[1:])
        parts.append(right)
    return (parts[0] if len(parts) == 1 else Node("&", tuple(parts))), tokens


def _parse_atom(tokens: list[tuple[str, object]]) -> tuple[Expr, list[tuple[str, object]]]:
    if not tokens:
        raise ConditionSyntaxError(_("условие обрывается"))
    kind, value = tokens[0]
    if kind == "term":
        assert isinstance(value, Term)
        return value, tokens[1:]
    if value == "(":
        inner, rest = _parse_or(tokens[1:])
        if not rest or rest[0] != ("op", ")"):
            raise ConditionSyntaxError(_("не закрыта скобка"))
        return inner, rest[1:]
    raise ConditionSyntaxError(_("неожиданное {value!r}").format(value=value))


def _split_distance(args: tuple[str, ...], default: int) -> tuple[tuple[str, ...], int]:
    if args and args[-1].isdigit():
        return args[:-1], int(args[-1])
    return args, default


def _low(x: str) -> str:
    return x.strip().lower().replace("ё", "е")


def _check_term(term: Term, ctx: Context) -> bool:
    p, st, world = ctx.province, ctx.state, ctx.campaign
    args = term.args
    name = term.name
    if name == "spec":
        return _low(p.specialisation) in {_low(a) for a in args}
    if name == "terrain":
        return _low(p.terrain) in {_low(a) for a in args}
    if name in ("near", "near_own"):
        specs, steps = _split_distance(args, 1)
        wanted = {_low(a) for a in specs}
        for other in world.within(p.name, steps):  # the province itself counts (distance 0)
            q = world.provinces.get(other)
            if q and _low(q.specialisation) in wanted and (name == "near" or q.owner == st.name):
                return True
        return False
    if name == "near_terrain":
        terrains, steps = _split_distance(args, 1)
        wanted = {_low(a) for a in terrains}
        return any(
            d > 0 and _low(world.provinces[o].terrain) in wanted
            for o, d in world.within(p.name, steps).items()
            if o in world.provinces
        )
    if name == "capital":
        return st.capital == p.name
    if name == "coastal":
        return p.coastal
    if name == "building":
        return all(_low(a) in {_low(b) for b in p.buildings} for a in args)
    if name == "province":
        return _low(p.name) in {_low(a) for a in args}
    if name == "tech":
        return all(_low(a) in {_low(t) for t in st.techs} for a in args)
    if name == "government":
        return _low(st.government) in {_low(a) for a in args}
    raise ConditionSyntaxError(_("неизвестное условие {name!r}").format(name=name))


def holds(expr: Expr, ctx: Context) -> bool:
    if expr is None:
        return True
    if isinstance(expr, Term):
        return _check_term(expr, ctx)
    if expr.op == "&":
        return all(holds(e, ctx) for e in expr.parts)
    return any(holds(e, ctx) for e in expr.parts)


def _quote(items: tuple[str, ...]) -> str:
    return ", ".join(f"«{a}»" for a in items)


def describe_term(term: Term, lang: str | None = None) -> str:
    """A readable requirement, e.g. «специализация «железо» в самой провинции», in `lang` (default: the
    current language)."""
    if lang is not None:
        with i18n.using(lang):
            return describe_term(term)
    a = term.args
    if term.name == "spec":
        return _("специализация {names}").format(names=_quote(a))
    if term.name == "terrain":
        return _("местность {names}").format(names=_quote(a))
    if term.name in ("near", "near_own"):
        specs, steps = _split_distance(a, 1)
        text = (
            _("своя провинция со специализацией {names} не дальше {steps}")
            if term.name == "near_own"
            else _("провинция со специализацией {names} не дальше {steps}")
        )
        return text.format(names=_quote(specs), steps=count(steps, "шаг", case="gent"))
    if term.name == "near_terrain":
        terrains, _steps = _split_distance(a, 1)
        return _("соседняя провинция с местностью {names}").format(names=_quote(terrains))
    if term.name == "capital":
        return _("только в столице")
    if term.name == "coastal":
        return _("только в прибрежной провинции")
    if term.name == "building":
        return _("постройка {names} в этой провинции").format(names=_quote(a))
    if term.name == "province":
        return _("только в провинциях: {names}").format(names=", ".join(a))
    if term.name == "tech":
        return _("технология {names}").format(names=_quote(a))
    if term.name == "government":
        return _("форма правления {names}").format(names=_quote(a))
    return term.name


def describe(expr: Expr, lang: str | None = None) -> str:
    """The whole condition in words, in `lang` (default: the current language)."""
    if lang is not None:
        with i18n.using(lang):
            return describe(expr)
    if expr is None:
        return _("в любой провинции")
    if isinstance(expr, Term):
        return describe_term(expr)
    joiner = _(" и ") if expr.op == "&" else _(" или ")
    return joiner.join(f"({describe(e)})" if isinstance(e, Node) else describe(e) for e in expr.parts)


def failures(expr: Expr, ctx: Context, lang: str | None = None) -> list[str]:
    """Why a condition fails: the unmet requirements (empty when it holds)."""
    if holds(expr, ctx):
        return []
    if isinstance(expr, Node) and expr.op == "&":
        out: list[str] = []
        for e in expr.parts:
            out += failures(e, ctx, lang)
        return out
    assert expr is not None
    return [describe(expr, lang)]


Check = Callable[[Context], bool]
