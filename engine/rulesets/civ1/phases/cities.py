"""The cities stage of «Civilization 1.0» (CIV-TURN-04, spec §1): every nation, in the turn's order
of play, activates its cities in the order of its `Activate` rows, and each activated city runs the
seed's steps: resource use → collecting (worked hexes and buildings) → growth → units → buildings →
wonders → conversions → a counter-spy.

Why one phase per nation and not one per step: the seed activates cities «в произвольном (заданном
игроком) порядке», and what a city builds depends on what it collected, so a city runs all its
steps before the next is activated.  Hammers are the city's (ledger side «nation/city»), coins,
science and Power the nation's; every change is a `report.post`.  A row for a city that was not
activated is refused, naming the city.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from engine.core.dice import Dice
from engine.core.orders import Status
from engine.core.turn import Phase

from .. import hexes
from ..facts import Report
from ..messages import _
from ..model import CONQUERED, FOUNDED, TRANSFERRED, Card, City, Deck, World
from ..names import named
from ..ordertypes import (
    Activate,
    Build,
    BuildUnit,
    BuildWonder,
    Convert,
    CounterSpy,
    Given,
    Pass,
    UseResource,
    Work,
)
from ..resources import COINS, HAMMERS, POWER, SCIENCE
from ..rules import Rules, _find
from ..score import END
from ..yields import (
    GROWTH,
    YIELDS,
    Yield,
    building_obsolete,
    building_yield,
    free_buildings,
    growth_per_turn,
    hex_yield,
    knows,
    unit_obsolete,
    workable,
)
from .spies import ensure_spies

PHASE = "города"
SKIPS = (FOUNDED, TRANSFERRED, CONQUERED)  # a city's status that skips the stage


def skip_reason(status: str) -> str:
    """Why a city skips the stage, in the campaign's language."""
    return {FOUNDED: _("основан в этом ходу"), TRANSFERRED: _("передан в этом ходу"),
            CONQUERED: _("завоёван в этом ходу")}[status]


def choice_word(choice: str) -> str:
    """A worked hex's choice as the order tab writes it."""
    return {"hammers": _("молоток"), "coins": _("монета"), "science": _("наука"), GROWTH: _("рост")}[choice]


def side(city: City) -> str:
    """The ledger side of a city's hammers."""
    return f"{city.nation}/{city.name}"


def order_of_play(world: World, report: Report) -> list[str]:
    """The nations in this turn's order of play (CIV-TURN-05: set for every window by window.py's
    `Civ1.begin`), seat order only when no order is set (a world judged outside a resolve)."""
    return [n for n in report.facts.order if n in world.nations] or world.seats()


@dataclass
class CityTurn:
    """One activated city's rows, gathered from the nation's rows by step."""

    city: City
    activation: Given
    resources: list[Given] = field(default_factory=list)
    works: list[Given] = field(default_factory=list)
    units: list[Given] = field(default_factory=list)
    buildings: list[Given] = field(default_factory=list)  # Build and BuildWonder, in row order
    converts: list[Given] = field(default_factory=list)
    counter_spies: list[Given] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # resources used this turn
    built: int = 0  # buildings (and wonders) raised this turn


@dataclass
class Stage:
    """What the stage remembers across nations: wonders completed this turn and by whom (spec G2)."""

    wonders: dict[str, str] = field(default_factory=dict)  # wonder -> the nation that completed it
    worked: dict[hexes.Hex, str] = field(default_factory=dict)  # hex -> the city that worked it this turn


def city_of(order: object) -> str:
    return str(getattr(order, "city", "") or "")


def run(world: World, orders: Mapping[str, list[Given]], dice: Dice, rules: Rules, report: Report) -> World:
    """The cities stage for every nation in the turn's order of play."""
    stage = Stage()
    for nation in order_of_play(world, report):
        nation_turn(world, nation, list(orders.get(nation, ())), rules, report, stage)
    sizes = ", ".join(f"{c.name} {c.population}" for c in sorted(world.cities.values(), key=lambda c: c.name))
    if sizes:
        report.tell(_("Население городов: {sizes}.").format(sizes=sizes))
    return world


def nation_turn(world: World, nation: str, rows: list[Given], rules: Rules, report: Report, stage: Stage) -> None:
    """One nation's cities: each `Activate` row in row order activates its city, which then runs
    all its steps before the next is activated (so a city's extra buildings may spend the Власть a
    later activation needed); the rows of a city never activated are refused."""
    pending: dict[str, list[Given]] = {}
    for given in rows:
        o = given.order
        if isinstance(o, Activate):
            continue
        if isinstance(o, Pass):
            report.result(given.row.ref, Status.DONE)
            continue
        if not isinstance(o, (UseResource, Work, BuildUnit, Build, BuildWonder, Convert, CounterSpy)):
            continue  # another stage's order: the turn refuses what no phase answered
        name = city_of(o)
        if isinstance(o, Convert) and not name:
            mine = [c.name for c in world.cities_of(nation)]
            name = mine[0] if len(mine) == 1 else ""
            if not name:
                report.result(given.row.ref, Status.REJECTED, _("укажите город: молотки хранятся в городе"))
                continue
        key = _city_key(world, name)
        if key is None or world.cities[key].nation != nation:
            report.result(given.row.ref, Status.REJECTED,
                          _("у нации {nation} нет города «{city}»").format(nation=nation, city=name))
            continue
        pending.setdefault(key, []).append(given)
    turns: dict[str, CityTurn] = {}
    for given in rows:
        if not isinstance(given.order, Activate):
            continue
        ct = activate(world, nation, given, rules, report, turns)
        if ct is None:
            continue
        for g in pending.pop(ct.city.name, []):
            bucket = {UseResource: ct.resources, Work: ct.works, BuildUnit: ct.units, Build: ct.buildings,
                      BuildWonder: ct.buildings, Convert: ct.converts, CounterSpy: ct.counter_spies}[type(g.order)]
            bucket.append(g)
        city_turn(world, ct, rules, report, stage)
    for key, left in pending.items():
        for g in left:
            report.result(g.row.ref, Status.REJECTED, _("город {city} не активирован в этом ходу").format(city=key))


def _city_key(world: World, name: str) -> str | None:
    """The key of the city named `name` (rules._find's matching, by the world's index)."""
    return world.city_named(name) if name else None


def activate(world: World, nation: str, given: Given, rules: Rules, report: Report,
             turns: dict[str, CityTurn]) -> CityTurn | None:
    """«Активировать»: −1 Власть; a city founded, transferred or conquered this turn skips the stage."""
    assert isinstance(given.order, Activate)
    ref = given.row.ref
    key = _city_key(world, given.order.city)
    if key is None or world.cities[key].nation != nation:
        report.result(ref, Status.REJECTED,
                      _("у нации {nation} нет города «{city}»").format(nation=nation, city=given.order.city))
        return None
    city = world.cities[key]
    if city.status in SKIPS:
        report.result(ref, Status.REJECTED, _("город {city} {why} и пропускает фазу городов").format(
            city=key, why=skip_reason(city.status)))
        return None
    if key in turns:
        report.result(ref, Status.REJECTED, _("город {city} уже активирован в этом ходу").format(city=key))
        return None
    price = rules.prices["activate"].amount
    have = world.nations[nation].power
    if have < price:
        report.result(ref, Status.REJECTED,
                      _("не хватает Власти: нужно {need}, есть {have}").format(need=price, have=have))
        return None
    if price:
        report.post(POWER, nation, PHASE, "активация", Fraction(-price),
                    _("активация города {city}").format(city=key), ref)
    turns[key] = CityTurn(city, given)
    report.result(ref, Status.DONE)
    return turns[key]


def city_turn(world: World, ct: CityTurn, rules: Rules, report: Report, stage: Stage) -> None:
    """One activated city's steps, in the seed's order."""
    use_resources(world, ct, rules, report)
    growth = collect(world, ct, rules, report, stage)
    grow(world, ct, growth, rules, report)
    for given in ct.units:
        build_unit(world, ct, given, rules, report)
    for given in ct.buildings:
        if isinstance(given.order, Build):
            build(world, ct, given, rules, report)
        else:
            build_wonder(world, ct, given, rules, report, stage)
    for given in ct.converts:
        convert(world, ct, given, rules, report)
    for given in ct.counter_spies:
        counter_spy(world, ct, given, rules, report)


# --- resource use (CIV-CITY-05) ------------------------------------------------------------------


def _near(world: World, city: City) -> list[str]:
    """The special resources on the city's hex and the hexes around it (a map's, never used up),
    by looking those seven hexes up (a read of every tile per row was quadratic in the nations)."""
    return [t.resource for h in (city.hex, *hexes.neighbours(city.hex))
            if (t := world.tiles.get(h)) is not None and t.resource]


def _stock(world: World, city: City) -> list[str]:
    """The nation's stock of resource tokens (villages, transfers: `Nation.resources`): the list
    itself, so that using a token removes it (spec G3)."""
    return world.nations[city.nation].resources


def use_resources(world: World, ct: CityTurn, rules: Rules, report: Report) -> None:
    """«Ресурс»: the city uses a special resource this turn (its wonder discount): one on the map
    next to it, else a token of its nation's stock, which is used up (spec G3)."""
    for given in ct.resources:
        assert isinstance(given.order, UseResource)
        name = given.order.resource
        key = _find(rules.resources, name)
        if key is None:
            report.result(given.row.ref, Status.REJECTED,
                          _("ресурса «{name}» нет в «Правила — Ресурсы»").format(name=name))
            continue
        same = {key: rules.resources[key]}
        stock = _stock(world, ct.city)
        token = next((r for r in stock if _find(same, r)), None)
        if key in ct.used or (not any(_find(same, r) for r in _near(world, ct.city)) and token is None):
            report.result(given.row.ref, Status.REJECTED, _("у города {city} нет ресурса «{name}»").format(
                city=ct.city.name, name=key))
            continue
        if not any(_find(same, r) for r in _near(world, ct.city)) and token is not None:
            stock.remove(token)
        ct.used.append(key)
        report.result(given.row.ref, Status.DONE)


# --- collecting (CIV-MAP-02..05, CIV-CITY-03) ----------------------------------------------------


def post_yield(world: World, city: City, y: Yield, category: str, reason: str, report: Report,
               ref: str = "") -> None:
    if y.hammers:
        report.post(HAMMERS, side(city), PHASE, category, Fraction(y.hammers), reason, ref)
    if y.coins:
        report.post(COINS, city.nation, PHASE, category, Fraction(y.coins), reason, ref)
    if y.science:
        report.post(SCIENCE, city.nation, PHASE, category, Fraction(y.science), reason, ref)


def collect(world: World, ct: CityTurn, rules: Rules, report: Report, stage: Stage) -> int:
    """«Сбор»: each worked hex (no more than the population, once a turn by one city, adjacent to
    the city, workable and without a city on it) and the buildings; returns how many worked hexes
    let the city grow."""
    city, known = ct.city, world.nations[ct.city.nation].techs
    worked: set[hexes.Hex] = set()
    growth = 0
    for given in ct.works:
        o = given.order
        assert isinstance(o, Work)
        where = hexes.text(o.hex)
        tile = world.tiles.get(o.hex)
        problem = ""
        if len(worked) >= city.population:
            problem = _("город {city} с населением {pop} обрабатывает не больше {pop} гексов").format(
                city=city.name, pop=city.population)
        elif tile is None:
            problem = _("гекса {hex} нет на карте").format(hex=where)
        elif hexes.distance(o.hex, city.hex) != 1:
            problem = _("гекс {hex} не прилегает к городу {city}").format(hex=where, city=city.name)
        elif o.hex in stage.worked:
            problem = _("гекс {hex} уже обрабатывает город {city}").format(hex=where, city=stage.worked[o.hex])
        elif world.city_at(o.hex) is not None:
            problem = _("на гексе {hex} стоит город").format(hex=where)
        elif not workable(rules, tile.terrain, known):
            terrain = rules.terrain.get(tile.terrain)
            problem = _("гекс {hex} ({terrain}) нельзя обрабатывать без технологии «{tech}»").format(
                hex=where, terrain=named(tile.terrain, rules),
                tech=named(terrain.workable_tech, rules) if terrain else "?")
        elif o.choice not in (*YIELDS, GROWTH):
            problem = _("непонятно, что получать с гекса {hex}: «{choice}»").format(hex=where, choice=o.choice)
        if problem:
            report.result(given.row.ref, Status.REJECTED, problem)
            continue
        assert tile is not None
        worked.add(o.hex)
        stage.worked[o.hex] = city.name
        y = hex_yield(rules, tile.terrain, known, o.choice)
        post_yield(world, city, y, "обработка", _("{city}: гекс {hex} ({terrain}, {choice})").format(
            city=city.name, hex=where, terrain=named(tile.terrain, rules), choice=choice_word(o.choice)), report,
            given.row.ref)
        if o.choice == GROWTH and not y.growth:
            report.result(given.row.ref, Status.PARTIAL, _("{terrain} не даёт роста города").format(
                terrain=named(tile.terrain, rules)))
            continue
        growth += y.growth
        report.result(given.row.ref, Status.DONE)
    b = building_yield(rules, city)
    post_yield(world, city, b, "постройки", _("{city}: постройки").format(city=city.name), report)
    return growth


def grow(world: World, ct: CityTurn, growth: int, rules: Rules, report: Report) -> None:
    """«Рост»: +1 per growing hex worked, at most the growth a turn (Универсализация 2), never
    above the city's limit (CIV-MAP-05)."""
    if not growth:
        return
    city, known = ct.city, world.nations[ct.city.nation].techs
    limit = rules.city_limit(known)
    gain = max(0, min(growth, growth_per_turn(rules, known), limit - city.population))
    if gain:
        city.population += gain
        report.tell(_("{city} растёт до {pop}").format(city=city.name, pop=city.population), to=city.nation)
    else:
        for given in ct.works:
            if isinstance(given.order, Work) and given.order.choice == GROWTH \
                    and report.results.get(given.row.ref, None) and report.results[given.row.ref].status is Status.DONE:
                report.result(given.row.ref, Status.PARTIAL, _(
                    "город {city} достиг предела населения {limit}").format(city=city.name, limit=limit))


# --- paying (spec G10: coins pay hammers 1:1) ----------------------------------------------------


def pay(world: World, city: City, cost: int, what: str, category: str, report: Report, ref: str) -> str:
    """Pay ``cost`` hammers from the city's stock, the rest in coins 1:1; '' when paid, else why not."""
    hammers, coins = city.hammers, world.nations[city.nation].coins
    if hammers + coins < cost:
        return _("не хватает молотков: нужно {need}, есть {h} молотков и {c} монет").format(
            need=cost, h=hammers, c=coins)
    from_hammers = min(hammers, cost)
    if from_hammers:
        report.post(HAMMERS, side(city), PHASE, category, Fraction(-from_hammers), what, ref)
    if cost - from_hammers:
        report.post(COINS, city.nation, PHASE, category, Fraction(-(cost - from_hammers)),
                    _("{what}: монеты вместо молотков").format(what=what), ref)
    return ""


# --- units (CIV-UNIT-03) -------------------------------------------------------------------------


def build_unit(world: World, ct: CityTurn, given: Given, rules: Rules, report: Report) -> None:
    """«Войско»: a card of the unit into the nation's deck for its era's price (2/4/6/8)."""
    o = given.order
    assert isinstance(o, BuildUnit)
    city, known = ct.city, world.nations[ct.city.nation].techs
    key = _find(rules.units, o.unit)
    if key is None:
        report.result(given.row.ref, Status.REJECTED, _("войска «{unit}» нет в правилах").format(unit=o.unit))
        return
    unit = rules.units[key]
    if not knows(known, unit.tech, rules):
        report.result(given.row.ref, Status.REJECTED, _("для войска «{unit}» нужна технология «{tech}»").format(
            unit=named(key, rules), tech=named(unit.tech, rules)))
        return
    if unit_obsolete(rules, unit, known):
        report.result(given.row.ref, Status.REJECTED, _("войско «{unit}» устарело").format(unit=named(key, rules)))
        return
    cost = rules.eras[unit.era].unit_cost
    if cost is None:
        report.result(given.row.ref, Status.REJECTED,
                      _("войско «{unit}» нельзя построить").format(unit=named(key, rules)))
        return
    why = pay(world, city, cost, _("{city}: войско «{unit}»").format(city=city.name, unit=named(key, rules)), "войска",
              report, given.row.ref)
    if why:
        report.result(given.row.ref, Status.REJECTED, why)
        return
    world.decks.setdefault(city.nation, Deck()).cards.append(Card(key))
    report.result(given.row.ref, Status.DONE)


# --- buildings (CIV-CITY-02/03) ------------------------------------------------------------------


def extra_power(world: World, ct: CityTurn, rules: Rules) -> int:
    """Власть for the next building of this city this turn: free up to 1 (Инженерное дело 2), then
    the price of each further one (CIV-CITY-02)."""
    known = world.nations[ct.city.nation].techs
    return rules.prices["extra_building"].amount if ct.built >= free_buildings(rules, known) else 0


def discount(rules: Rules, city: City, kind: str, name: str) -> int:
    """«Ранее построенные здания аналогичного вида дают скидку … в размере их стоимости в молотках»:
    the dearest building of the same kind the city has (spec G10: a coin discount = a hammer)."""
    best = 0
    for have in city.buildings:
        key = _find(rules.buildings, have)
        if key is None or key == name or rules.buildings[key].kind != kind:
            continue
        cost = rules.eras[rules.buildings[key].era].building_cost or 0
        best = max(best, cost)
    return best


def build(world: World, ct: CityTurn, given: Given, rules: Rules, report: Report) -> None:
    """«Постройка»: its era's price less a similar building's, +1 Власть after the first of the turn."""
    o = given.order
    assert isinstance(o, Build)
    city, nation = ct.city, world.nations[ct.city.nation]
    key = _find(rules.buildings, o.building)
    if key is None:
        report.result(given.row.ref, Status.REJECTED, _("постройки «{b}» нет в правилах").format(b=o.building))
        return
    b = rules.buildings[key]
    cost = rules.eras[b.era].building_cost
    problem = ""
    if key in city.buildings:
        problem = _("в городе {city} уже есть «{b}»").format(city=city.name, b=named(key, rules))
    elif not knows(nation.techs, b.tech, rules):
        problem = _("для постройки «{b}» нужна технология «{tech}»").format(
            b=named(key, rules), tech=named(b.tech, rules))
    elif building_obsolete(rules, b, nation.techs):
        problem = _("постройка «{b}» устарела").format(b=named(key, rules))
    elif cost is None:
        problem = _("постройку «{b}» нельзя построить").format(b=named(key, rules))
    if problem:
        report.result(given.row.ref, Status.REJECTED, problem)
        return
    assert cost is not None
    power = extra_power(world, ct, rules)
    if nation.power < power:
        report.result(given.row.ref, Status.REJECTED, _(
            "не хватает Власти на постройку сверх первой: нужно {need}, есть {have}").format(
            need=power, have=nation.power))
        return
    price = max(0, cost - discount(rules, city, b.kind, key))
    why = pay(world, city, price, _("{city}: постройка «{b}»").format(city=city.name, b=named(key, rules)), "постройки",
              report, given.row.ref)
    if why:
        report.result(given.row.ref, Status.REJECTED, why)
        return
    if power:
        report.post(POWER, nation.name, PHASE, "постройки", Fraction(-power),
                    _("{city}: постройка сверх первой в ход").format(city=city.name), given.row.ref)
    if b.replaces:
        city.buildings = [x for x in city.buildings if _find({b.replaces: None}, x) is None]
    city.buildings.append(key)
    ct.built += 1
    report.result(given.row.ref, Status.DONE)


# --- wonders (CIV-WONDER-01, spec G2) ------------------------------------------------------------


def wonder_price(rules: Rules, era: int, discounted: bool) -> int | None:
    """6/12/18/24 молотков, with a discounting resource 4/8/12/16 (the seed's listed prices)."""
    e = rules.eras[era]
    return e.wonder_discounted_cost if discounted else e.wonder_cost


def build_wonder(world: World, ct: CityTurn, given: Given, rules: Rules, report: Report, stage: Stage) -> None:
    """«Строить чудо»: only where announced in the state stage; a wonder is also a building (extra
    Power).  A wonder another nation completed earlier this turn: the hammers become coins (G2)."""
    o = given.order
    assert isinstance(o, BuildWonder)
    city, nation = ct.city, world.nations[ct.city.nation]
    key = _find(rules.wonders, o.wonder)
    if key is None:
        report.result(given.row.ref, Status.REJECTED, _("чуда «{w}» нет в «Правила — Чудеса»").format(w=o.wonder))
        return
    owner = next((c for c in world.cities.values() if key in c.wonders), None)
    if owner is not None and stage.wonders.get(key) is None:
        report.result(given.row.ref, Status.REJECTED, _("чудо «{w}» уже построено в городе {city}").format(
            w=named(key, rules), city=owner.name))
        return
    announced = any(i.nation == nation.name and _find({i.wonder: None}, key) and _find({i.city: None}, city.name)
                    for i in world.intentions)
    if not announced:
        report.result(given.row.ref, Status.REJECTED, _(
            "чудо «{w}» в городе {city} не заявлено в фазе государства").format(w=named(key, rules), city=city.name))
        return
    discounted = any(rules.resources[r].wonder_discount for r in ct.used if r in rules.resources)
    price = wonder_price(rules, rules.wonders[key].era, discounted)
    if price is None:
        report.result(given.row.ref, Status.REJECTED, _("чудо «{w}» нельзя построить").format(w=named(key, rules)))
        return
    power = extra_power(world, ct, rules)
    if nation.power < power:
        report.result(given.row.ref, Status.REJECTED, _(
            "не хватает Власти на постройку сверх первой: нужно {need}, есть {have}").format(
            need=power, have=nation.power))
        return
    what = _("{city}: чудо «{w}»").format(city=city.name, w=named(key, rules))
    why = pay(world, city, price, what, "чудеса", report, given.row.ref)
    if why:
        report.result(given.row.ref, Status.REJECTED, why)
        return
    if power:
        report.post(POWER, nation.name, PHASE, "постройки", Fraction(-power),
                    _("{city}: постройка сверх первой в ход").format(city=city.name), given.row.ref)
    ct.built += 1
    first = stage.wonders.get(key)
    if first is not None:
        report.post(COINS, nation.name, PHASE, "чудеса", Fraction(price),
                    _("{what}: опередила нация {first}, молотки — монетами").format(what=what, first=first),
                    given.row.ref)
        report.result(given.row.ref, Status.PARTIAL, _(
            "чудо «{w}» раньше в этом ходу построила нация {first}: {n} молотков возвращены монетами").format(
            w=named(key, rules), first=first, n=price))
        return
    stage.wonders[key] = nation.name
    city.wonders.append(key)
    report.tell(_("{nation} возводит чудо света «{w}» в городе {city}").format(
        nation=nation.name, w=named(key, rules), city=city.name))
    report.result(given.row.ref, Status.DONE)


# --- conversions (CIV-CITY-04) -------------------------------------------------------------------


def convert(world: World, ct: CityTurn, given: Given, rules: Rules, report: Report) -> None:
    """«Конвертировать»: Банки hammers → coins 1:1, Компьютеры 2 hammers → 1 science."""
    o = given.order
    assert isinstance(o, Convert)
    city, known = ct.city, world.nations[ct.city.nation].techs
    into = {"coins": COINS, "science": SCIENCE}.get(o.into)
    field_ = "convert_coins" if o.into == "coins" else "convert_science"
    rate = max([0, *(getattr(rules.techs[t], field_) for t in known if t in rules.techs)])
    if into is None or not rate:
        tech = next((t.name_ru for t in rules.techs.values() if getattr(t, field_, 0)), "?")
        report.result(given.row.ref, Status.REJECTED, _(
            "конвертировать молотки в {into} можно только с технологией «{tech}»").format(
            into=_("монеты") if o.into == "coins" else _("науку"), tech=named(tech, rules)))
        return
    qty = min(o.qty, city.hammers)
    qty -= qty % rate
    gain = qty // rate
    if gain <= 0:
        report.result(given.row.ref, Status.REJECTED, _(
            "не хватает молотков: нужно {need}, есть {have}").format(need=rate, have=city.hammers))
        return
    what = _("{city}: {qty} молотков → {gain} {into}").format(
        city=city.name, qty=qty, gain=gain, into=into.name(report.lang))
    report.post(HAMMERS, side(city), PHASE, "конвертация", Fraction(-qty), what, given.row.ref)
    report.post(into, city.nation, PHASE, "конвертация", Fraction(gain), what, given.row.ref)
    if qty < o.qty:
        report.result(given.row.ref, Status.PARTIAL, _("конвертировано {qty} молотков из {asked}").format(
            qty=qty, asked=o.qty))
    else:
        report.result(given.row.ref, Status.DONE)


# --- counter-spies (CIV-SPY-03) ------------------------------------------------------------------


def counter_spy(world: World, ct: CityTurn, given: Given, rules: Rules, report: Report) -> None:
    """«Контршпион»: a spy at home, not used this turn, guards the city; it is then busy, so it
    cannot spy in the next state stage."""
    city = ct.city
    if city.counter_spy:
        report.result(given.row.ref, Status.REJECTED, _("в городе {city} уже есть контршпион").format(city=city.name))
        return
    ensure_spies(world, rules, city.nation)  # a spy its technologies give, never sent yet, exists too
    spy = next((s for s in world.spies if s.nation == city.nation and not s.where and not s.busy), None)
    if spy is None:
        report.result(given.row.ref, Status.REJECTED, _(
            "у нации {nation} нет свободного шпиона (шпион, работавший в этом ходу, контршпионом быть не может)"
        ).format(nation=city.nation))
        return
    price = rules.prices["counter_spy"].amount if "counter_spy" in rules.prices else 0
    if price:
        have = world.nations[city.nation].power
        if have < price:
            report.result(given.row.ref, Status.REJECTED,
                          _("не хватает Власти: нужно {need}, есть {have}").format(need=price, have=have))
            return
        report.post(POWER, city.nation, PHASE, "шпионы", Fraction(-price),
                    _("контршпион в городе {city}").format(city=city.name), given.row.ref)
    spy.where, spy.busy = city.name, True
    city.counter_spy = True
    report.result(given.row.ref, Status.DONE)


CITIES = Phase("cities", run)
CITY_PHASES: tuple[Phase[World], ...] = (CITIES, END)  # END: whether this turn ends the game (score.py)
