"""«Эстафета»: a small test game (issue 24, points 2 and 8) that proves the window shapes the core
runner serves, played by it alone (engine/core/runner.py: `WindowGame` + `BaseRuleset`).

Three poleis, Афины, Спарта and Фивы. A turn is a round of ONE-PLAYER windows («1:ход:1»,
«1:ход:2», …: an open-ended stage) in which the sides move in turn: build (silver into glory),
attack another side, or pass; the round ends when every side has passed in a row, so its length
is the game's. An attack opens a TWO-PLAYER window right after the move («1:бой:2», between the
rounds of «ход»), for the attacker and the defender alone. After the round a «совет» opens to a
SUBSET of sides, those behind the leader in glory (skipped when nobody is). Silver is each side's
secret (its own tab, in its own book); glory is public.

Registered only by the tests that play it: ``rulesets.RULESETS["relay"] = "relay_game.game:RULESET"``.
Its words are Russian only (a test game: no catalogue of its own).
"""
