"""The registry of games: each a `engine.core.ruleset.Ruleset` instance, found by name or alias.

One line per game in `RULESETS`: its name -> "module:attribute" of its instance, imported only
when the game is first asked for (a command on an ancient campaign never imports another game).
`DEFAULT` is the game `strategos new` and `strategos demo` make when no --ruleset is given.

Adding a game: write engine/rulesets/<name>/ with a ``game.py`` whose ``RULESET`` implements the
Ruleset interface, and add its line here; nothing in the core, the bridge or the CLI changes
(docs/architecture.md, «How to add a game»).
"""

from __future__ import annotations

import importlib

from engine.core.errors import CampaignError
from engine.core.messages import _
from engine.core.ruleset import Ruleset

RULESETS: dict[str, str] = {
    "ancient": "engine.rulesets.ancient.game:RULESET",
    "civ1": "engine.rulesets.civ1.game:RULESET",
}
DEFAULT = "ancient"

_loaded: dict[str, Ruleset] = {}


def names() -> list[str]:
    """The registered games' names, sorted."""
    return sorted(RULESETS)


def _load(name: str) -> Ruleset:
    """The instance registered under `name` (imported on first use)."""
    if name not in _loaded:
        module, _sep, attribute = RULESETS[name].partition(":")
        found = getattr(importlib.import_module(module), attribute)
        if not isinstance(found, Ruleset):
            raise TypeError(f"{RULESETS[name]} is not a Ruleset")
        _loaded[name] = found
    return _loaded[name]


def get(name: str | None) -> Ruleset:
    """The game registered under `name` or one of its aliases (case-insensitive, spaces trimmed);
    a CampaignError naming the known games for anything else."""
    key = (name or "").strip().lower()
    if key in RULESETS:
        return _load(key)
    for known in names():
        if key and key in (a.strip().lower() for a in _load(known).aliases):
            return _load(known)
    raise CampaignError(_("неизвестные правила «{name}»; есть: {known}").format(name=name, known=", ".join(names())))
