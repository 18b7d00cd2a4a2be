"""«Civilization 1.0» (seed 004, catalogue docs/rules/civ1.yaml): the rules as GM-editable data.

Issue 18's groundwork: the rules tabs (:mod:`.tabs`), their typed records (:mod:`.rules`), one
loader per tab (:mod:`.rules_loaders`) and the tabs a new campaign gets (:mod:`.templates`).  No
ruleset object and no registry line yet.
"""
