"""Issue 17, point 6: the core, the bridge (its Google emulator included) and the scripts name no game.

A game is reached only through the registry (engine/rulesets/__init__.py) and the `Ruleset`
interface (engine/core/ruleset.py).  So the source of engine/core/, sheets_bridge/ and scripts/
holds no registered ruleset's name or alias, no ``engine.rulesets.<its package>``, and no title of
a tab that a ruleset makes: those are the game's own words.  The core's own tabs (the meta tab
«Кампания»/"Campaign", «_История», «_Листы») are the core's, not a game's.

Names and aliases are looked for as whole words, in any case.  A tab title is looked for only
as a quoted literal — between "…", '…' or «…» (a prefix such as «Приказы — » followed by
anything) — so an English title that is also a plain word ("History", "States") is not found in
prose that merely uses the word.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
import repo_paths

from engine import rulesets
from engine.core import history, meta, tabs
from engine.core.layout import Layout
from engine.rulesets.ancient import public, tabset, vocab

ROOT = repo_paths.ROOT
FOLDERS = ("engine/core", "sheets_bridge", "scripts")
SUFFIXES = {".py", ".sh"}
CORE_TABS = {*meta.META_TABS, *history.HISTORY_TITLES.values(), *tabs.REGISTRY_TITLES.values()}
# Scripts that are one game's own tools, as tests are: they measure, attack or picture that game
# and its tabs by name (their figures and pictures are that game's, in docs/).  Each must still
# name a game (else it comes off this list) and names no other game than the one given.
GAME_TOOLS = {
    "scripts/bench.py": "ancient",  # docs/benchmarks.md: generated ancient campaigns and their orders
    "scripts/bench_civ1.py": "civ1",  # docs/benchmarks.md, «Civilization 1.0»: generated civ1 worlds and orders
    "scripts/reliability.py": "ancient",  # docs/reliability.md: edits the ancient tabs a GM or player breaks
    "scripts/render_docs.py": "ancient",  # docs/balance.png, docs/chart.png: the ancient demo's balance tab
}


def sources() -> list[Path]:
    """Every source file of the core, the bridge (with the emulator) and the scripts."""
    files = [p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*")) if p.suffix in SUFFIXES]
    assert len(files) > 40, "the scan found too few files: the folders moved?"
    return files


@cache
def game_words() -> dict[str, str]:
    """Every registered game's name, aliases and package path -> the game."""
    out: dict[str, str] = {}
    for name in rulesets.names():
        game = rulesets.get(name)
        package = rulesets.RULESETS[name].partition(":")[0].rsplit(".", 1)[0]  # engine.rulesets.<pkg>
        for word in (name, *game.aliases, package, package.rsplit(".", 1)[1]):
            out[word] = name
    return out


@cache
def made_titles() -> set[str]:
    """The titles of the tabs every registered game makes for its demo campaign, in Russian and
    English (the core's own tabs left out)."""
    out: set[str] = set()
    for name in rulesets.names():
        for lang in ("ru", "en"):
            out |= {t.name for t in rulesets.get(name).new_workbook(lang=lang, secret="x" * 32).tabs}
    return out - CORE_TABS


@cache
def ancient_titles() -> tuple[set[str], set[str]]:
    """The ancient game's tab titles from its layouts and tab set, ru and en with their aliases,
    and the prefixes of its per-state tabs («Приказы — », «Отчёт — »)."""
    titles: set[str] = set()
    for obj in vars(vocab).values():
        if isinstance(obj, Layout):
            titles |= {obj.ru, obj.en, *obj.aliases}
    for names in (vocab.BALANCE_TAB, public.HISTORY_TAB, public.CHARTS_TAB):
        titles |= set(names.values())
    prefixes = {*vocab.ORDER_TAB_PREFIX.values(), *(p.format("") for p in tabset.PRIVATE_TAB.values())}
    return titles - CORE_TABS, {p.strip() for p in prefixes}


def named_games(text: str) -> dict[str, str]:
    """The games' names, aliases and packages `text` holds as whole words -> their game."""
    return {word: game for word, game in game_words().items()
            if re.search(rf"(?<![\w.]){re.escape(word)}(?!\w)", text, re.IGNORECASE)}


def hits(text: str) -> list[str]:
    """What of a game `text` names: each as «word (game)» or «"title" (tab)»."""
    found = [f"{word} ({game})" for word, game in named_games(text).items()]
    titles, prefixes = ancient_titles()
    for title in sorted(titles | made_titles()):
        if re.search(rf"[\"'«]{re.escape(title)}[\"'»]", text):
            found.append(f"«{title}» (tab)")
    for prefix in sorted(prefixes):  # a per-side title: the prefix, then a side's name
        if re.search(rf"[\"'«]{re.escape(prefix)}\s*\w", text):
            found.append(f"«{prefix} …» (tab)")
    return found


def test_i17_p6_the_words_looked_for_are_the_games() -> None:
    """The scan would find a game: its name, its package and its tabs are among the words."""
    words = game_words()
    assert rulesets.DEFAULT in words and f"engine.rulesets.{rulesets.DEFAULT}" in words
    titles, prefixes = ancient_titles()
    assert {"Журнал", "Chronicle", "Государства", "States"} <= titles | made_titles()
    assert not (titles | made_titles()) & CORE_TABS
    assert "Приказы —" in prefixes
    assert hits('x = norm("Журнал")') == ["«Журнал» (tab)"]
    assert hits("from engine.rulesets.ancient import codec") == ["engine.rulesets.ancient (ancient)"]
    assert hits('ruleset: str = "ancient"') == ["ancient (ancient)"]
    assert hits('print(_("Приказы — {counts}"))') == []  # a prefix with no side after it is a phrase
    assert hits('"""The history of the States."""') == []  # a plain word in prose is no tab


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", [p for p in sources() if _rel(p) not in GAME_TOOLS], ids=_rel)
def test_i17_p6_no_game_in_the_core_the_bridge_or_the_scripts(path: Path) -> None:
    found = hits(path.read_text(encoding="utf-8"))
    assert not found, f"{_rel(path)} names a game: {', '.join(found)}"


@pytest.mark.parametrize("tool", sorted(GAME_TOOLS))
def test_i17_p6_a_game_tool_script_names_its_own_game_only(tool: str) -> None:
    found = hits((ROOT / tool).read_text(encoding="utf-8"))
    assert found, f"{tool} names no game any more: take it off GAME_TOOLS"
    games = set(named_games((ROOT / tool).read_text(encoding="utf-8")).values())
    assert games <= {GAME_TOOLS[tool]}, f"{tool} names {games}, not only {GAME_TOOLS[tool]}"


def test_i17_p6_unknown_ruleset_names_the_known_ones_in_the_campaign_language() -> None:
    from engine.core import i18n
    from engine.core.errors import CampaignError

    for lang, words in (("ru", "неизвестные правила"), ("en", "unknown ruleset")):
        with i18n.using(lang), pytest.raises(CampaignError) as err:
            rulesets.get("no-such-game")
        assert words in str(err.value) and all(n in str(err.value) for n in rulesets.names())
    for name in rulesets.names():
        game = rulesets.get(name)
        assert game.name == name
        assert all(rulesets.get(f" {alias.upper()} ") is game for alias in game.aliases)
