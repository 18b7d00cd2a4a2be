"""The phases of «Civilization 1.0»'s two stages: pure functions of the world, the rows, the dice
and the rules (the phase contract of issue 18), chained by the game's turn."""
