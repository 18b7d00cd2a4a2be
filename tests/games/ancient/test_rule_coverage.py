"""Every mechanic rule of the ancient catalogue is cited by at least one conformance scenario.

A scenario cites a rule by its file name (ANC-TAX-03_….yaml) or in its `rules:` list. The few
mechanic rules no scenario can exercise are listed with the reason.
"""

from __future__ import annotations

import repo_paths
import yaml

ROOT = repo_paths.ROOT
CATALOGUE = ROOT / "docs" / "rules" / "ancient.yaml"
SCENARIOS = ROOT / "tests" / "scenarios" / "ancient"

# mechanic ids that describe the GM's workflow rather than anything the engine computes
NOT_COMPUTED = {
    "ANC-TURN-01": "the GM runs the game (the tool itself)",
    "ANC-TURN-02": "the GM announces the deadline",
    "ANC-TURN-05": "players negotiate before the deadline (diplomacy orders are covered by ANC-STAB-02/09/10/11)",
    "ANC-TURN-06": "the GM posts the results in a forum thread (strategos report)",
}


def cited() -> set[str]:
    ids: set[str] = set()
    for path in SCENARIOS.glob("*.yaml"):
        ids.add("-".join(path.stem.split("_")[0].split("-")[:3]))
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        ids |= {str(x) for x in data.get("rules") or []}
        if data.get("id"):
            ids.add(str(data["id"]))
    return ids


def test_every_mechanic_rule_is_cited_by_a_scenario() -> None:
    rules = yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))
    mechanics = {r["id"] for r in rules if r.get("kind") == "mechanic"}
    missing = sorted(mechanics - cited() - set(NOT_COMPUTED))
    assert not missing, f"{len(missing)} mechanic rules have no scenario: {', '.join(missing)}"


def test_the_exemptions_are_real_mechanic_ids() -> None:
    rules = {r["id"]: r for r in yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))}
    for rule_id in NOT_COMPUTED:
        assert rules[rule_id]["kind"] == "mechanic"
