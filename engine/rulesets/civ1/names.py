"""The names a player reads for the rules tables' items: a technology, unit, unit class, building,
wonder, government, terrain, spy mission or resource is keyed by its Russian name («Name (ru)», the
key decode reads back), and shown by its «Name» (en) column in an English campaign.

Phase texts name items through `named` so that a chronicle line or an order's reason of an English
campaign says «Horseback Riding», not «Верховая езда»; the GM's data tabs keep the keys."""

from __future__ import annotations

from engine.core.i18n import current

from .rules import Rules


def named(key: str, rules: Rules | None) -> str:
    """`key`'s name in the language texts are produced in now (the key itself in Russian, or when
    no rules table holds it: a name the player typed, or a nation's)."""
    if rules is None or current() != "en" or not key:
        return key
    for table in (rules.techs, rules.units, rules.buildings, rules.wonders, rules.governments, rules.terrain,
                  rules.classes, rules.spy_missions, rules.resources):
        item = table.get(key)
        if item is not None:
            return str(getattr(item, "name_en", "") or key)
    return key


def listed(keys: list[str], rules: Rules | None) -> str:
    """Several items, named and joined by commas."""
    return ", ".join(named(k, rules) for k in keys)


def shown(item: object) -> str:
    """A rules item's own name (its `name_en` in an English campaign, else its `name_ru`)."""
    ru = str(getattr(item, "name_ru", "") or "")
    return str(getattr(item, "name_en", "") or ru) if current() == "en" else ru
