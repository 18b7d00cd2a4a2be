"""The phases of «Civilization 1.0»'s two stages (the phase contract of issue 18): pure functions of
the world, the parsed orders, the dice, the rules and the report."""
