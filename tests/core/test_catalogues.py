"""Issue 16 point 3: every text a player or GM reads is in a gettext catalogue per language.

The msgids are extracted from the source with Babel (the same extraction `pybabel extract` does),
and every one must have an English translation with the same ``{fields}`` and no Cyrillic."""

from __future__ import annotations

import re
import string

import pytest
import repo_paths
from babel.messages.extract import extract_from_dir

from engine.core import i18n
from engine.core.messages import _ as core_
from engine.rulesets.ancient.messages import _ as ancient_
from engine.rulesets.civ1.messages import _ as civ1_

ROOT = repo_paths.ROOT
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
# Each domain and the source folders whose `_` is that domain's.
DOMAINS = {
    "strategos": (core_, ["engine/core", "sheets_bridge"]),
    "ancient": (ancient_, ["engine/rulesets/ancient"]),
    "civ1": (civ1_, ["engine/rulesets/civ1"]),
}


def extracted(folders: list[str]) -> dict[tuple[str | None, str], str]:
    """(context, msgid) -> where it is used, for every marked message in `folders`."""
    out: dict[tuple[str | None, str], str] = {}
    for folder in folders:
        for filename, lineno, message, _comments, context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            msgid = message[0] if isinstance(message, tuple) else message
            if msgid:
                out[(context, msgid)] = f"{folder}/{filename}:{lineno}"
    return out


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_i16_p3_every_message_has_an_english_translation(domain: str) -> None:
    translator, folders = DOMAINS[domain]
    missing = [f"{where}: {msgid!r}" for (ctx, msgid), where in sorted(extracted(folders).items(), key=str)
               if not translator.translated(msgid, "en", ctx)]
    assert not missing, f"{len(missing)} messages have no English translation:\n" + "\n".join(missing[:40])


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_i16_p3_translations_keep_the_fields_and_have_no_cyrillic(domain: str) -> None:
    translator, _folders = DOMAINS[domain]
    cat = i18n._load(translator.localedir, translator.name, "en")
    bad = []
    for (_ctx, msgid), text in cat.singular.items():
        if fields(text) != fields(msgid) or CYRILLIC.search(text):
            bad.append(f"{msgid!r} -> {text!r}")
    for (_ctx, msgid), forms in cat.plural.items():
        if any(CYRILLIC.search(f) for f in forms):
            bad.append(f"{msgid!r} -> {forms!r}")
    assert not bad, "\n".join(bad)


def test_i16_p3_the_language_is_chosen_per_block() -> None:
    with i18n.using("en"):
        assert i18n.counted_noun(2, "государство") == "states"
        assert ancient_("никогда не переводилось") == "никогда не переводилось"
    assert i18n.counted_noun(2, "государство") is None  # Russian counts are grammar's
