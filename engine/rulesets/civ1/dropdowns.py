"""The dropdowns of a civ1 order tab: what each input column offers in one stage.

«Фаза» offers the two stages' words, «Действие» the open stage's order words (orders.ACTIONS),
«Объект» what those actions take (technologies, units, buildings, governments, wonders, spy missions,
resources, the yields of a worked hex, the conversions, ОМП), «Где» and «Куда» the cities and the
nations.  All in the campaign's language, each name once; C1 writes them as `Validation`s (never
strict: a hex, a new city's name, a deck order are typed).  Names are those `orders.parse` reads,
so whatever a dropdown offers parses.
"""

from __future__ import annotations

from collections.abc import Iterable

from .model import World
from .orders import CHOICES, CONVERSIONS, STAGE_WORDS, TRANSFER_PRINTED, action_words, stage_word
from .ordertypes import CITIES, STATE
from .rules import Rules


def _names(items: Iterable[object], en: bool) -> list[str]:
    return [str(getattr(i, "name_en", "") or getattr(i, "name_ru", "")) if en else str(getattr(i, "name_ru", ""))
            for i in items]


def objects(stage: str, rules: Rules, lang: str) -> list[str]:
    """What «Объект» may hold in `stage`, in `lang`."""
    en = lang == "en"
    out: list[str] = []
    if stage == STATE:
        out += _names(rules.techs.values(), en) + _names(rules.units.values(), en)
        out += _names(rules.governments.values(), en) + _names(rules.wonders.values(), en)
        out += _names(rules.spy_missions.values(), en)
        out += [words[1] if en else words[0] for words in TRANSFER_PRINTED.values()]
        out.append("WMD" if en else "ОМП")
    elif stage == CITIES:
        out += _names(rules.units.values(), en) + _names(rules.buildings.values(), en)
        out += _names(rules.wonders.values(), en) + _names(rules.resources.values(), en)
        out += [en_ if en else ru for ru, en_, _m in CONVERSIONS.values()]
    return list(dict.fromkeys(n for n in out if n))


def lists(stage: str, rules: Rules, world: World, lang: str) -> dict[str, list[str]]:
    """The options of each input column (field key -> names) of an order tab in `stage`."""
    cities = sorted(world.cities)
    nations = world.seats()
    to = cities + nations if stage == STATE else [en_ if lang == "en" else ru for ru, en_, _m in CHOICES.values()]
    return {
        "stage": [stage_word(s, lang) for s in STAGE_WORDS],
        "action": action_words(stage, lang),
        "object": objects(stage, rules, lang),
        "where": cities,
        "to": list(dict.fromkeys(to)),
    }
