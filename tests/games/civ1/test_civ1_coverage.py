"""Every rule of the «Civilization 1.0» catalogue (docs/rules/civ1.yaml) that the engine computes — each
mechanic and each data id — is cited by at least one conformance scenario in tests/scenarios/civ1/.

A scenario cites a rule by its file name (CIV-TECH-01_pyramid_5_3_2.yaml), its `id:` or its `rules:`
list (a data id such as a technology is cited by a scenario that uses it).  The few ids no scenario
can exercise are listed in NOT_COMPUTED with the reason.  Every scenario also quotes the seed line it
proves («…» (seed 004, …)) and cites only ids the catalogue has, so a typo in an id cannot hide a
missing rule.  Like tests/games/ancient/test_rule_coverage.py for the ancient game.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import repo_paths
import yaml

ROOT = repo_paths.ROOT
CATALOGUE = ROOT / "docs" / "rules" / "civ1.yaml"
SCENARIOS = ROOT / "tests" / "scenarios" / "civ1"
COMPUTED_KINDS = ("mechanic", "data")

# ids that describe no computation of the engine, with the reason (any kind)
NOT_COMPUTED = {
    "CIV-COMBAT-08": "the seed's battle example is lost («Пример сражения: (под спойлером)»): the golden duels "
                     "use pinned dice instead (spec G20)",
}

ID = re.compile(r"^CIV-[A-Z]+-\d\d$")


def catalogue() -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))}


def file_id(path: Path) -> str:
    """«CIV-TECH-01_pyramid_5_3_2» -> «CIV-TECH-01»."""
    return "-".join(path.stem.split("_")[0].split("-")[:3])


def scenarios() -> dict[Path, dict[str, Any]]:
    return {p: yaml.safe_load(p.read_text(encoding="utf-8")) or {} for p in sorted(SCENARIOS.glob("*.yaml"))}


def cited() -> dict[str, list[str]]:
    """Rule id -> the scenario files citing it."""
    out: dict[str, list[str]] = {}
    for path, data in scenarios().items():
        ids = {file_id(path), *(str(x) for x in data.get("rules") or [])}
        if data.get("id"):
            ids.add(str(data["id"]))
        for rule_id in ids:
            out.setdefault(rule_id, []).append(path.name)
    return out


def test_every_computed_civ1_rule_is_cited_by_a_scenario() -> None:
    rules = catalogue()
    wanted = {i for i, r in rules.items() if r.get("kind") in COMPUTED_KINDS}
    missing = sorted(wanted - set(cited()) - set(NOT_COMPUTED))
    assert not missing, f"{len(missing)} civ1 rules have no scenario: {', '.join(missing)}"


def test_every_catalogue_id_is_cited_or_exempted_with_a_reason() -> None:
    """The ids of the other kinds (narrative, the GM's discretion) are cited or listed too."""
    rules = catalogue()
    missing = sorted(set(rules) - set(cited()) - set(NOT_COMPUTED))
    assert not missing, f"not cited and not exempted: {', '.join(missing)}"


def test_the_exemptions_are_real_ids_with_reasons() -> None:
    rules = catalogue()
    for rule_id, reason in NOT_COMPUTED.items():
        assert rule_id in rules, rule_id
        assert len(reason) > 30, rule_id


def test_scenarios_cite_only_catalogue_ids_and_are_named_by_their_id() -> None:
    rules = catalogue()
    for path, data in scenarios().items():
        assert ID.match(file_id(path)), f"{path.name}: the name must start with a rule id"
        assert str(data.get("id")) == file_id(path), f"{path.name}: id {data.get('id')} ≠ the file's name"
        unknown = [x for x in [data.get("id"), *(data.get("rules") or [])] if str(x) not in rules]
        assert not unknown, f"{path.name}: ids not in docs/rules/civ1.yaml: {unknown}"


def test_each_scenario_quotes_the_seed_line_it_proves() -> None:
    """A comment with the seed's own words: «…» (seed 004, CIV-…)."""
    for path in SCENARIOS.glob("*.yaml"):
        comments = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                             if line.lstrip().startswith("#"))
        assert "«" in comments and "(seed 004" in comments, f"{path.name}: no quoted seed line"


def test_the_coverage_check_can_fail() -> None:
    """A rule id no scenario cites is reported (the check is not vacuous)."""
    assert "CIV-NOPE-99" not in cited()
    assert {i for i, r in catalogue().items() if r.get("kind") == "mechanic"} - {"CIV-NOPE-99"}
