"""«Дуэт»: a tiny two-stage game of the tests (issue 17, point 8) that proves the core serves a game
with stages, two resources and hidden information.

Two sides, A and B. Each turn has two stages: «сбор» (each side sends workers to «добыть» grain or
gold; the yield per worker is a die of that side) and «торг» (each side may «продать» grain at the
window's market price, a die; then every side eats one grain). Gold is public (the ranking), grain
is each side's secret: a side's stock lives in its own tab, in the book of that side alone.

Registered only by the tests that play it: ``rulesets.RULESETS["duo"] = "duo_game.game:RULESET"``.
Its words are Russian only (a test game: no catalogue of its own).
"""
