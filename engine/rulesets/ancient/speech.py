"""Russian grammar for the ancient ruleset's messages: the shared grammar with this ruleset's name forms.

Importing this module loads templates/ancient/grammar_ru.yaml (forms of names the morphology gets wrong)
into `engine.core.grammar.GRAMMAR`; phases import `Name` and `count` from here so the table is always in.
"""

from __future__ import annotations

from functools import lru_cache

from engine.core import yamlload
from engine.core.grammar import GRAMMAR, Name, agree, count, inflect

from .templates import _files

__all__ = ["Name", "agree", "count", "inflect", "load_forms"]


@lru_cache(maxsize=1)
def load_forms() -> int:
    """Adds the ruleset's name forms to the shared grammar once; returns how many names it has."""
    with (_files() / "grammar_ru.yaml").open(encoding="utf-8") as fh:
        data = yamlload.safe_load(fh) or {}
    names = data.get("names") or {}
    GRAMMAR.add_forms(names)
    return len(names)


load_forms()
