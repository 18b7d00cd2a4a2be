"""Finding the tabs a program created, whatever people did to their titles.

A campaign's tabs are found by what the program made, not by an exact title: a GM who renames
«Лист — Рим» to «Лист - Рим» (a hyphen, a dash without spaces, a trailing space, a Latin
look-alike letter) still has Rome's tab, and a tab a player adds is never taken for one
the program made.  A ruleset lists the tabs it expects (:class:`WantedTab`, one per role such as
"orders:Рим"); :func:`match_tabs` assigns each role at most one read tab and names the rest.

On Google every tab also has a stable id (its sheetId) that survives a rename.  The ids of the
tabs found are kept in the hidden, GM-only registry tab («_Листы», "_Tabs" in English), so a renamed tab is followed
exactly even when someone adds a look-alike tab with the original title.  An .xlsx file has no
such id; there titles (exact first, then normalised) are all there is.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .messages import _
from .names import fold
from .tables import Cell, CoreTab, Grid, Tables, TabSpec, is_blank

REGISTRY = CoreTab("_Листы", "_Tabs")
REGISTRY_TITLES = REGISTRY.titles  # by the campaign's language
REGISTRY_TAB = REGISTRY.ru
registry_title = REGISTRY.title
is_registry = REGISTRY.owns
registry_in = REGISTRY.found_in  # None before the first resolve


def registry_header() -> list[Cell]:
    """The registry's header in the language of the campaign being written (rows are read by position)."""
    return [_("Роль"), _("Лист"), "Id"]


def tab_key(title: object) -> str:
    """A tab title reduced to what a person sees: case, ё, Latin look-alikes, dashes, spaces
    and punctuation do not count («Приказы - Рим », «приказы—Pим» → one key)."""
    text = unicodedata.normalize("NFKC", str(title or ""))
    text = "".join(" " if unicodedata.category(ch)[0] in "PZSC" else ch for ch in text)
    return fold(text).replace(" ", "")


@dataclass(frozen=True)
class WantedTab:
    """A tab the program made: its role (a stable key), the title it gives the tab and the
    other titles it answers to (e.g. the English one)."""

    role: str
    title: str
    aliases: tuple[str, ...] = ()

    def keyset(self) -> frozenset[str]:
        return frozenset(tab_key(t) for t in (self.title, *self.aliases))


@dataclass
class TabMatch:
    """Which read tab plays which role, and what is left over."""

    found: dict[str, str] = field(default_factory=dict)  # role -> read title
    missing: list[str] = field(default_factory=list)  # roles no read tab plays
    unknown: list[str] = field(default_factory=list)  # read titles no role claims
    ambiguous: dict[str, list[str]] = field(default_factory=dict)  # role -> look-alike titles, none exact
    by_id: set[str] = field(default_factory=set)  # roles found by their stable id
    replaced: set[str] = field(default_factory=set)  # roles whose remembered tab is gone, found by title

    def title(self, role: str) -> str | None:
        return self.found.get(role)


def match_tabs(
    titles: Iterable[str],
    wanted: Sequence[WantedTab],
    ids: Mapping[str, str] | None = None,
    registry: Mapping[str, str] | None = None,
) -> TabMatch:
    """Assign read tabs to roles: by the stable id the registry remembers (``ids``: read title ->
    id), then by exact title, then by :func:`tab_key` when exactly one unclaimed tab fits.
    Two look-alikes and no exact title nor id is ambiguous: neither is taken."""
    titles = list(titles)
    ids = ids or {}
    registry = registry or {}
    by_stable = {v: t for t, v in ids.items()}
    out = TabMatch()
    taken: set[str] = set()
    for w in wanted:  # 1. the id the registry remembers: follows a rename exactly
        title = by_stable.get(registry.get(w.role, ""))
        if title is not None and title not in taken:
            out.found[w.role] = title
            out.by_id.add(w.role)
            taken.add(title)
    for w in wanted:  # 2. the exact title
        if w.role in out.found:
            continue
        exact = next((t for t in (w.title, *w.aliases) if t in titles and t not in taken), None)
        if exact is not None:
            out.found[w.role] = exact
            taken.add(exact)
    by_key: dict[str, list[str]] = {}
    for t in titles:
        by_key.setdefault(tab_key(t), []).append(t)
    for w in wanted:  # 3. a unique look-alike
        if w.role in out.found:
            continue
        fits = [t for k in sorted(w.keyset()) for t in by_key.get(k, ()) if t not in taken]
        if len(fits) == 1:
            out.found[w.role] = fits[0]
            taken.add(fits[0])
        elif fits:
            out.ambiguous[w.role] = fits
        else:
            out.missing.append(w.role)
    out.replaced = {r for r in out.found if r not in out.by_id and registry.get(r) and ids}
    doubtful = {t for fits in out.ambiguous.values() for t in fits}
    out.unknown = [t for t in titles if t not in taken and t not in doubtful]
    return out


def read_registry(tables: Tables) -> dict[str, str]:
    """role -> stable id, as the last resolve recorded them (empty on .xlsx and before the first)."""
    out: dict[str, str] = {}
    for line in (tables.get(registry_in(tables) or REGISTRY_TAB) or [])[1:]:
        if len(line) > 2 and not is_blank(line[0]) and not is_blank(line[2]):
            out[str(line[0])] = str(line[2])
    return out


def registry_grid(match: TabMatch, ids: Mapping[str, str]) -> Grid:
    """The registry of the tabs found now, with their stable ids (tabs without one are left out)."""
    rows: Grid = [registry_header()]
    for role, title in sorted(match.found.items()):
        if title in ids and not is_registry(title):  # the registry itself is found by its title
            rows.append([role, title, ids[title]])
    return rows


def registry_spec(grid: Grid, title: str = REGISTRY_TAB) -> TabSpec:
    """The registry tab: hidden and, like every tab players may not edit, GM-only on Google."""
    return TabSpec(title, grid, {1: 28, 2: 28, 3: 28}, hidden=True, kind="meta")
