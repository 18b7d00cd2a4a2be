"""Step 3 of the state stage: exploring villages (CIV-VILLAGE-01/02).

«Разведка» costs Власть («Цены»: explore) and reaches a village within the nation's exploring range
(`explore_range` 3, or its technologies', from any of its cities: C3's reach.reached as it is).  The
village disappears whatever it gives.  The 1к10 (`village_die`) reads «Правила — Деревни» row by
row; what the nation gains is told to it alone (`report.tell(…, to=nation)`); barbarians attack the nearest
city of the nation at once, in public: their battle is in `report.facts.battles` and the chronicle.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.dice import Dice
from engine.core.orders import Status
from engine.core.turn import Phase

from .. import reach
from ..facts import Battle, Report
from ..hexes import Hex, distance, text
from ..messages import _
from ..model import Card, City, Deck, World
from ..names import listed, named
from ..ordertypes import Explore, Given
from ..resources import COINS, HAMMERS, SCIENCE
from ..rules import Rules, VillageOutcome
from .combat import RECOVER, Slot, Sweep, destroy, fight, form_army, fortification, protection
from .common import crossing, era_reached, in_order, pay_power, reaches

PHASE = "разведка"


def explore(world: World, orders: Mapping[str, list[Given]], dice: Dice, rules: Rules, report: Report) -> World:
    """Every «Разведка» row in the turn's order (an earlier nation may have taken the village)."""
    sweep = Sweep()  # the barbarians' battles of the phase
    for nation, g in in_order(world, orders, report):
        if isinstance(g.order, Explore):
            _explore(world, nation, g, g.order.hex, dice, rules, report, sweep)
    return world


def _explore(world: World, nation: str, g: Given, h: Hex, dice: Dice, rules: Rules, report: Report,
             sweep: Sweep | None = None) -> None:
    ref = g.row.ref
    tile = world.tiles.get(h)
    if tile is None or not tile.village:
        report.result(ref, Status.REJECTED, _("на клетке {hex} нет деревни").format(hex=text(h)))
        return
    me = world.nations[nation]
    cities = world.cities_of(nation)
    cross = crossing(me, rules, reach.EXPLORE)
    if not cities or not reaches(world, rules, nation, h, reach.EXPLORE, [c.hex for c in cities]):
        report.result(ref, Status.REJECTED, _("деревня {hex} вне дальности разведки ({land} по суше, {water} по воде)")
                      .format(hex=text(h), land=cross.land, water=cross.water))
        return
    if not pay_power(report, world, nation, rules.prices["explore"].amount, PHASE, "разведка",
                     _("разведка деревни {hex}").format(hex=text(h)), ref):
        return
    tile.village = False
    if dice.blind:
        dice.withhold("village", nation)
        report.result(ref, Status.DONE, _("что даст деревня, решит жребий"))
        return
    roll = dice.roll("village", rules.param("village_die"), f"{nation} {text(h)}")
    v = rules.village(roll)
    effect = _GAINS[v.effect]
    gain = (_barbarians(world, nation, h, v, dice, rules, report, ref, sweep) if effect is _barbarians
            else effect(world, nation, h, v, dice, rules, report, ref))
    report.tell(_("Деревня {hex}, 1к{sides} = {roll}: {gain}").format(
        hex=text(h), sides=rules.param("village_die"), roll=roll, gain=gain), to=nation)
    report.result(ref, Status.DONE, _("деревня исследована (1к{sides} = {roll})").format(
        sides=rules.param("village_die"), roll=roll))


def nearest(world: World, nation: str, h: Hex) -> list[City]:
    """The nation's cities, nearest to `h` first (then by name)."""
    return sorted(world.cities_of(nation), key=lambda c: (distance(c.hex, h), c.name))


def _units_of_era(rules: Rules, era: int | None, support: bool = True) -> list[str]:
    return sorted(k for k, u in rules.units.items()
                  if u.era == (era or 1) and (support or not rules.classes[u.unit_class].support))


def _resource(world: World, nation: str, h: Hex, v: VillageOutcome, dice: Dice, rules: Rules, report: Report,
              ref: str) -> str:
    if not rules.resources:
        report.warn(_(
            "деревня {hex} дала {nation} случайный ресурс, но «Правила — Ресурсы» пусты: впишите ресурс вручную"
        ).format(hex=text(h), nation=nation))
        return _("случайный ресурс (таблица ресурсов пуста: его назначит ведущий)")
    got = [dice.choice("village:resource", sorted(rules.resources), subject=nation) for _i in range(v.amount)]
    world.nations[nation].resources.extend(got)
    return _("ресурс: {names}").format(names=listed(got, rules))


def _coins(world: World, nation: str, h: Hex, v: VillageOutcome, dice: Dice, rules: Rules, report: Report,
           ref: str) -> str:
    report.post(COINS, nation, PHASE, "деревня", v.amount, _("богатства деревни {hex}").format(hex=text(h)), ref)
    return _("+{n} монеты").format(n=v.amount)


def _unit(world: World, nation: str, h: Hex, v: VillageOutcome, dice: Dice, rules: Rules, report: Report,
          ref: str) -> str:
    got = [dice.choice("village:unit", _units_of_era(rules, v.era), subject=nation) for _i in range(v.amount)]
    world.decks.setdefault(nation, Deck()).cards.extend(Card(u) for u in got)
    return _("в колоду добавлено войско: {units}").format(units=listed(got, rules))


def _arms(world: World, nation: str, h: Hex, v: VillageOutcome, dice: Dice, rules: Rules, report: Report,
          ref: str) -> str:
    deck = world.decks.get(nation, Deck())
    better = {rules.units[k].unit_class: k for k in _units_of_era(rules, v.to_era)}
    cards = [i for i, c in enumerate(deck.cards)
             if c.state != "destroyed" and rules.unit(c.unit).era == (v.era or 1)
             and rules.unit(c.unit).unit_class in better]
    if not cards:
        return _("лучшее оружие, но войск древности у нации нет")
    i = dice.choice("village:arms", cards, subject=nation)
    old = deck.cards[i].unit
    deck.cards[i].unit = better[rules.unit(old).unit_class]
    return _("{old} перевооружены в {new}").format(old=named(old, rules), new=named(deck.cards[i].unit, rules))


def _tech(world: World, nation: str, h: Hex, v: VillageOutcome, dice: Dice, rules: Rules, report: Report,
          ref: str) -> str:
    me = world.nations[nation]
    open_ = sorted(k for k, t in rules.techs.items() if t.era == (v.era or 1) and k not in me.techs)
    if not open_:
        extra = v.alt_amount or 0
        report.post(SCIENCE, nation, PHASE, "деревня", extra, _("знания деревни {hex}").format(hex=text(h)), ref)
        return _("все технологии древности известны: +{n} науки").format(n=extra)
    tech = dice.choice("village:tech", open_, subject=nation)
    me.techs[tech] = world.turn
    return _("технология «{tech}»").format(tech=named(tech, rules))


def _people(world: World, nation: str, h: Hex, v: VillageOutcome, dice: Dice, rules: Rules, report: Report,
            ref: str) -> str:
    cities = nearest(world, nation, h)
    limit = rules.city_limit(world.nations[nation].techs)
    for c in cities:
        if c.population + v.amount <= limit:
            c.population += v.amount
            return _("+{n} к населению города «{city}»").format(n=v.amount, city=c.name)
    c = cities[0]
    extra = v.alt_amount or 0
    report.post(HAMMERS, f"{nation}/{c.name}", PHASE, "деревня", extra,
                _("жители деревни {hex}").format(hex=text(h)), ref)
    return _("все города на пределе: +{n} молотка в «{city}»").format(n=extra, city=c.name)


def _barbarians(world: World, nation: str, h: Hex, v: VillageOutcome, dice: Dice, rules: Rules, report: Report,
                ref: str, sweep: Sweep | None = None) -> str:
    me = world.nations[nation]
    count = v.alt_amount if v.alt_amount and era_reached(me, rules) >= 2 else v.amount
    units = [dice.choice("village:barbarians", _units_of_era(rules, v.era, support=False), subject=nation)
             for _i in range(count)]
    city = nearest(world, nation, h)[0]
    battle = Battle(_("варвары"), text(h), city.name, nation)
    report.facts.battles.append(battle)
    deck = world.decks.get(nation)
    garrison = form_army(deck, rules, rules.army_size(me.techs), set()) if deck else []
    won = fight(rules, dice, battle, [Slot(u) for u in units], garrison,
                fort=fortification(rules, city), protects=protection(rules, city))
    (sweep or Sweep())(world, nation)
    if not won:
        battle.result = _("отбит")
    elif me.capital == city.name:
        floor = rules.limit("capital_min_population")
        city.population = max(floor, city.population - 1)
        battle.result = _("столица устояла, население {n}").format(n=city.population)
    else:
        battle.result = _("разрушен")
        destroy(world, city)
    report.tell(_("Варвары из деревни {hex} ({units}) атаковали «{city}» ({nation}): дуэлей {duels}, итог: {result}.")
                .format(hex=text(h), units=listed(units, rules), city=city.name, nation=nation,
                        duels=len(battle.duels), result=battle.result))
    return _("варвары ({units}) атаковали «{city}»: {result}").format(
        units=listed(units, rules), city=city.name, result=battle.result)


_GAINS = {"resource": _resource, "coins": _coins, "unit": _unit, "arms": _arms, "tech": _tech,
          "people": _people, "barbarians": _barbarians}

EXPLORE: tuple[Phase[World], ...] = (RECOVER, Phase(PHASE, explore))
