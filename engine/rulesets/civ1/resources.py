"""What a nation of «Civilization 1.0» counts (CIV-POWER-01, CIV-TECH-03, CIV-CITY-02, CIV-WIN-01).

Every change of one of them is a ledger posting (engine/core/ledger.py): Власть, монеты and наука
are national; молотки are stored per city (spec G9), so their account is «nation/city»; ПО are the
victory points (honesty and Технология будущего).
"""

from __future__ import annotations

from engine.core.ledger import Resource

POWER = Resource("власть", "Власть", "Power", "В", decimals=0)
COINS = Resource("монеты", "монеты", "coins", "мон.", decimals=0)
SCIENCE = Resource("наука", "наука", "science", "науки", decimals=0)
HAMMERS = Resource("молотки", "молотки", "hammers", "мол.", decimals=0)
VP = Resource("по", "ПО", "VP", "ПО", decimals=0)
RESOURCES: tuple[Resource, ...] = (POWER, COINS, SCIENCE, HAMMERS, VP)
NATIONAL: tuple[Resource, ...] = (POWER, COINS, SCIENCE, VP)  # held by the nation; hammers by its cities
