"""The phases of «Civilization 1.0»'s two stages (the phase contract of issue 18): pure functions of
the world, the parsed orders, the dice, the rules and the window's report.  The game's turn chains
them in the seed's step order through engine/rulesets/civ1/stages.py."""
