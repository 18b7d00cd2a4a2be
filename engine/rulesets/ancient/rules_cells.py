"""The cell formats of the ancient rules tabs that several tabs share: workers, effects, the
template's role effects, optional whole numbers, forms of government and paths.  The loaders of
:mod:`.rules_loaders` read their tabs with the core's reader (:mod:`engine.core.rules_tab`) and
these."""

from __future__ import annotations

import csv
import re
from functools import cache
from importlib import resources

from engine.core.layout import norm
from engine.core.names import fold
from engine.core.rules_tab import TabReader
from engine.core.tables import Cell, is_blank

from . import naming
from .messages import _
from .rules import Rules, WorkerOption
from .vocab import PATHS, STRATA


def parse_workers(text: str) -> tuple[WorkerOption, ...]:
    """'2 раб | 1 СГ' -> two options; '3+ раб+СГ' -> at least three of slaves or citizens."""
    out: list[WorkerOption] = []
    for part in (text or "").split("|"):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(\d+)(\+?)\s+(.+)", part)
        if not m:
            raise ValueError(_("непонятные работники {part!r}: ожидается «2 раб» или «3+ раб+СГ»").format(part=part))
        strata = tuple(s.strip() for s in m.group(3).split("+") if s.strip())
        fixed = []
        for s in strata:
            code = naming.code("stratum", s)
            if code is None:
                raise ValueError(_("неизвестная страта {s!r} (есть: {known})").format(s=s, known=", ".join(STRATA)))
            fixed.append(code)
        out.append(WorkerOption(int(m.group(1)), tuple(fixed), bool(m.group(2))))
    return tuple(out)


def parse_effects(text: str) -> dict[str, str]:
    """'port=1; routes=+1' -> {'port': '1', 'routes': '1'} (the values stay text, read by their users)."""
    out: dict[str, str] = {}
    for part in re.split(r"[;\n]", text or ""):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip().lstrip("+")
    return out


# effects that say what a template thing is (a port, a forum, weapons); a campaign created before
# they were in the rules data gets them from the template, by the thing's name in either language
ROLE_EFFECTS = frozenset(
    (
        *("port", "shipyard", "forum", "temple", "housing", "road", "lighthouse"),  # buildings
        "caravans",  # technologies
        *("precious", "arms", "slave_route"),  # goods
    )
)


@cache
def _template_roles(filename: str) -> dict[str, dict[str, str]]:
    """{folded name (Russian and English): its role effects} from a shipped rules table."""
    out: dict[str, dict[str, str]] = {}
    with (resources.files("templates") / "ancient" / filename).open(encoding="utf-8") as fh:
        for rec in csv.DictReader(fh):
            roles = {k: v for k, v in parse_effects(rec.get("effects") or "").items() if k in ROLE_EFFECTS}
            if roles:
                for name in (rec.get("name_ru"), rec.get("name_en")):
                    if name:
                        out[fold(name)] = roles
    return out


def with_roles(filename: str, name: str, effects: dict[str, str]) -> dict[str, str]:
    """The row's effects, with the template's role effects it lacks (``port=0`` turns one off)."""
    roles = _template_roles(filename).get(fold(name), {})
    return {**roles, **effects} if roles else effects


def opt_int(r: TabReader, row: int, rec: dict[str, Cell], key: str) -> int | None:
    """The whole number in column ``key``, or None when the cell is blank (no limit)."""
    return None if is_blank(rec.get(key)) else int(r.num(row, rec, key))


def gov_key(rules: Rules, r: TabReader, row: int, rec: dict[str, Cell], key: str) -> str:
    """The key of the form of government named in column ``key`` (by key, Russian or English name)
    among the ones already read; an unknown one is a problem once any government is known."""
    text = r.text(rec, key)
    for g in rules.governments.values():
        if norm(text) in (norm(g.key), norm(g.name_ru), norm(g.name_en)):
            return g.key
    if rules.governments:
        r.bad(row, key, _("неизвестная форма правления «{text}»").format(text=text))
    return text


def path_of(r: TabReader, row: int, rec: dict[str, Cell]) -> str:
    """The path of a government row (western, eastern, or ``any`` when blank or «любой»)."""
    text = r.text(rec, "path")
    if norm(text) in ("any", "любой", ""):
        return "any"
    if norm(text) not in {norm(k) for k in PATHS}:
        r.bad(row, "path", _("путь должен быть «западный», «восточный» или «любой», а не «{text}»").format(text=text))
    return PATHS.get(text.lower(), "any")
