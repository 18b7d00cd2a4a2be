"""The state stage of «Civilization 1.0» (spec civ1.md §1, CIV-TURN-03): the steps that are not
villages, spies or attacks.

Each step is one `Phase` with a stable name (`STATE_PHASES`; the turn orders them with the others'
steps in the seed's order): 1 the first player and the order of play (CIV-TURN-05), 2 Power income
(CIV-POWER-01), 5 founding cities (CIV-CITY-01), 6 upgrades, 7 restores (CIV-UNIT-03, CIV-COMBAT-06),
8 reorganisation and disbanding (CIV-COMBAT-01), 10 research (CIV-TECH-01..03), 11 government
(CIV-GOV-01/02), 12 wonder intentions (CIV-WONDER-01), 13 transfers (CIV-DIPLO-05), and the honesty
VP the GM's treaty register costs (CIV-DIPLO-01..04).  Within a step the nations act in the turn's
order of play (`report.facts.order`, spec G6); a nation's rows in sheet order.  Every number comes
from the rules tabs; every balance changes by a ledger posting; every row gets a status and, when
not done as written, a reason with the numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from fractions import Fraction

from engine.core.dice import Dice
from engine.core.layout import norm
from engine.core.orders import Status
from engine.core.turn import Phase

from .. import hexes, reach
from ..facts import Report
from ..messages import _
from ..model import DESTROYED, FOUNDED, READY, TRANSFERRED, City, Deck, Intention, Nation, World
from ..names import listed, named, shown
from ..ordertypes import (
    AnnounceWonder,
    ChangeGovernment,
    Disband,
    Found,
    Given,
    Reorganise,
    Research,
    Restore,
    Transfer,
    Upgrade,
)
from ..resources import COINS, POWER, SCIENCE, VP
from ..rules import Government, Rules, Technology, UnitType, _find

Orders = Mapping[str, list[Given]]

FIRST_PLAYER = "первый игрок"
POWER_INCOME = "доход Власти"
FOUNDING = "основание"
UPGRADES = "апгрейд"
RESTORES = "восстановление"
REORGANISATION = "реорганизация"
RESEARCH = "исследования"
GOVERNMENT = "правление"
WONDERS = "чудеса"
TRANSFERS = "передачи"
HONESTY = "честность"


# --- shared helpers ---------------------------------------------------------------------------------


def play_order(world: World, report: Report, orders: Orders | None = None) -> list[str]:
    """The nations in this turn's order of play; before step 1 has run (a phase tested alone), seat
    order; a nation with orders but not in the world's list comes last."""
    order = [n for n in (report.facts.order or world.seats()) if n in world.nations]
    return order + [n for n in (orders or {}) if n not in order and n in world.nations]


def rows_of(orders: Orders, world: World, report: Report, *kinds: type) -> Iterator[tuple[Nation, Given]]:
    """Each nation's rows of the given order types, nations in the order of play, rows in sheet order."""
    for name in play_order(world, report, orders):
        for g in orders.get(name, []):
            if isinstance(g.order, kinds):
                yield world.nations[name], g


def lack(what: str, need: int, have: int) -> str:
    """«не хватает Власти: нужно 2, есть 1» for a resource's genitive `what`."""
    return _("не хватает {what}: нужно {need}, есть {have}").format(what=what, need=need, have=have)


def power_word() -> str:
    return _("Власти")


def coins_word() -> str:
    return _("монет")


def science_word() -> str:
    return _("науки")


known = reach.known_techs


def knows(nation: Nation, tech: str | None) -> bool:
    """Whether the nation knows `tech` (None: nothing is needed); names compared loosely."""
    return tech is None or norm(tech) in {norm(t) for t in nation.techs}


def eras_reached(nation: Nation, rules: Rules) -> int:
    """The eras a nation has reached: the highest level of its technologies, at least 1 (древний мир)."""
    return max([1, *(t.level for t in known(nation, rules))])


def unit_of(rules: Rules, name: str) -> UnitType | None:
    try:
        return rules.unit(name)
    except KeyError:
        return None


def government_of(rules: Rules, name: str) -> Government | None:
    key = _find(rules.governments, name)
    return rules.governments[key] if key is not None else None


def deck_of(world: World, nation: str) -> Deck:
    return world.decks.setdefault(nation, Deck())


# --- 1: the first player and the order of play (CIV-TURN-05) --------------------------------------


def order_of_play(seats: list[str], turn: int) -> list[str]:
    """«Право первого действия передаётся по часовой стрелке ... в начале каждого хода. Заявки игроков
    в нечетный ход ... в порядке по возрастанию от игрока, начавшего ход, а в четный - по убыванию.»
    Turn 1 starts with seat 1 (spec G12); even turns go the other way round from the same first player."""
    if not seats:
        return []
    n = len(seats)
    first = (turn - 1) % n
    step = 1 if turn % 2 else -1
    return [seats[(first + step * k) % n] for k in range(n)]


def _first_player(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """Step 1: the turn's first player and order of play into `report.facts.order`; a new turn also
    forgets the last turn's city statuses (founded / transferred / conquered skip only the cities
    stage of their own turn) and wonder intentions (announced for one turn's cities stage)."""
    report.facts.order = order_of_play(world.seats(), world.turn)
    for city in world.cities.values():
        city.status = ""
    world.intentions = []
    if report.facts.order:
        report.tell(_("Ход {turn}: первым действует {first}; порядок: {order}").format(
            turn=world.turn, first=report.facts.order[0], order=", ".join(report.facts.order)))
    return world


# --- 2: Power income (CIV-POWER-01) ------------------------------------------------------------------


def power_income(world: World, nation: Nation, rules: Rules) -> list[tuple[str, int, str]]:
    """(category, amount, reason) of a nation's Power this turn: «получение Власти от дворца, типа
    правления и технологии» — the palace while the nation holds its capital, the government's, and
    the best Power technology only (the ones another known technology cancels give nothing)."""
    out: list[tuple[str, int, str]] = []
    capital = world.cities.get(nation.capital)
    if capital is not None and capital.nation == nation.name and rules.param("palace_power"):
        out.append(("дворец", rules.param("palace_power"),
                    _("дворец в столице «{city}»").format(city=capital.name)))
    gov = government_of(rules, nation.government) if nation.government else None
    if gov is not None and gov.power:
        out.append(("правление", gov.power, _("правление: {government}").format(government=named(gov.name_ru, rules))))
    techs = known(nation, rules)
    best = rules.tech_power(t.name_ru for t in techs)
    if best:
        source = next(t.name_ru for t in techs if t.power == best)
        out.append(("технологии", best, _("лучшая технология Власти: «{tech}»").format(tech=named(source, rules))))
    return out


def _power(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """Step 2: each nation's Power income, one ledger line per source."""
    for name in play_order(world, report):
        nation = world.nations[name]
        for category, amount, reason in power_income(world, nation, rules):
            report.post(POWER, name, POWER_INCOME, category, Fraction(amount), reason)
    return world


# --- 5: founding cities (CIV-CITY-01, CIV-MAP-06) ------------------------------------------------------


def founding_refusal(world: World, nation: Nation, h: hexes.Hex, rules: Rules) -> str:
    """Why `nation` may not found a city on `h` ('' when it may): the hex on the map, passable land
    with no village, at least `city_spacing` from every city (one founded this turn too), within the
    nation's range from one of its cities over the terrain it may cross."""
    tile = world.tiles.get(h)
    where = hexes.text(h)
    if tile is None:
        return _("гекс {hex} вне карты").format(hex=where)
    terrain = rules.terrain.get(tile.terrain)
    if terrain is not None and not terrain.passable:
        return _("гекс {hex} — {terrain}: город основывают только на проходимой суше").format(
            hex=where, terrain=named(tile.terrain, rules))
    if tile.village:
        return _("на гексе {hex} неразведанная деревня: сначала разведайте её").format(hex=where)
    spacing = rules.limit("city_spacing")
    near = world.cities_near(h, spacing - 1)  # the nearest city matters only when it is too near
    if near:
        city = min(near, key=lambda c: (hexes.distance(c.hex, h), c.name))
        d = hexes.distance(city.hex, h)
        return _("до города «{city}» {d} гекс., а ближе {n} основать нельзя").format(city=city.name, d=d, n=spacing)
    own = world.cities_of(nation.name)
    if not own:
        return _("у нации нет города, от которого основать новый")
    crossing = reach.crossing_for(nation, rules, reach.FOUND)
    if h not in reach.reached(world, nation, rules, reach.FOUND):
        nearest = min(own, key=lambda c: (hexes.distance(c.hex, h), c.name))
        d = hexes.distance(nearest.hex, h)
        longest = max(crossing.land, crossing.water)
        if d > longest:
            return _("гекс {hex} дальше дальности основания: до «{city}» {d} гекс., дальность {range}").format(
                hex=where, city=nearest.name, d=d, range=longest)
        return _("до гекса {hex} нет пути от «{city}»: дальность по суше {land}, по воде {water}; "
                 "горы или вода преграждают путь").format(
            hex=where, city=nearest.name, land=crossing.land, water=crossing.water)
    return ""


def price_of(rules: Rules, key: str, count: int = 1) -> int:
    """The price `key` of «Правила — Цены»: its amount once, or × `count` when it is per something
    (per city owned, per era reached)."""
    p = rules.prices[key]
    return p.amount if p.per == "once" else p.amount * count


def founding_price(world: World, nation: Nation, rules: Rules) -> int:
    """«1 Власть за каждый существующий город»: the price × the cities the nation owns now."""
    return price_of(rules, "found_city", len(world.cities_of(nation.name)))


def _found(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """Step 5: found cities, nations in the order of play, so that a city founded earlier in the
    step already keeps the later ones 3 hexes away."""
    for nation, g in rows_of(orders, world, report, Found):
        o = g.order
        assert isinstance(o, Found)
        ref = g.row.ref
        name = o.name.strip() or _next_name(world, nation.name)
        if name in world.cities:
            report.result(ref, Status.REJECTED, _("город «{city}» уже есть").format(city=name))
            continue
        why = founding_refusal(world, nation, o.hex, rules)
        if why:
            report.result(ref, Status.REJECTED, why)
            continue
        price = founding_price(world, nation, rules)
        if nation.power < price:
            report.result(ref, Status.REJECTED, lack(power_word(), price, nation.power)
                          + _(" (1 Власть за каждый из {n} городов)").format(n=len(world.cities_of(nation.name))))
            continue
        owned = len(world.cities_of(nation.name))
        if price:
            report.post(POWER, nation.name, FOUNDING, "основание", Fraction(-price),
                        _("основан город «{city}»: {n} городов × {each}").format(
                            city=name, n=owned, each=rules.prices["found_city"].amount), ref)
        world.cities[name] = City(name=name, nation=nation.name, hex=o.hex,
                                  population=rules.limit("city_size_new"), status=FOUNDED)
        report.tell(_("{nation} основывает город «{city}» на гексе {hex}").format(
            nation=nation.name, city=name, hex=hexes.text(o.hex)))
        for line in guarantee_warnings(world, nation.name, o.hex, rules):
            report.warn(line)
        report.result(ref, Status.DONE)
    return world


def guarantee_warnings(world: World, nation: str, h: hexes.Hex, rules: Rules) -> list[str]:
    """For the GM: a city founded closer than `no_city_guarantee_radius` to a city of a nation that
    holds a valid «не строить ближе 6» guarantee from the founder (CIV-DIPLO-02/03).  Breaking a
    guarantee is allowed («ценой неполучения 1 ПО»), and the GM decides whether it was one, so
    this is a warning, not a refusal."""
    radius = rules.param("no_city_guarantee_radius")
    out = []
    for t in world.treaties:
        if not (t.turn <= world.turn <= t.until) or nation not in t.parties or "строить" not in norm(t.kind):
            continue
        for city in world.cities_near(h, radius - 1):
            d = hexes.distance(city.hex, h)
            if city.nation != nation and city.nation in t.parties and d < radius:
                out.append(_("{nation} основал город в {d} гекс. от «{city}» ({other}) при гарантии «{kind}» "
                             "хода {turn}: проверьте, нарушено ли слово").format(
                    nation=nation, d=d, city=city.name, other=city.nation, kind=t.kind, turn=t.turn))
    return out


def _next_name(world: World, nation: str) -> str:
    k = len(world.cities_of(nation)) + 1
    while f"{nation} {k}" in world.cities:
        k += 1
    return f"{nation} {k}"


# --- 6 and 7: upgrades and restores (CIV-UNIT-03, CIV-COMBAT-06) ---------------------------------------


def upgrade_refusal(nation: Nation, old: UnitType | None, new: UnitType | None, o: Upgrade) -> str:
    """Why `old` cannot become `new` ('' when it can): both units exist, the same class, `new` of a
    later era and opened by a technology the nation knows."""
    if old is None:
        return _("нет войска «{unit}»").format(unit=o.unit)
    if new is None:
        return _("нет войска «{unit}»").format(unit=o.to)
    if old.unit_class != new.unit_class:
        return _("«{new}» ({b}) не того же вида войск, что «{old}» ({a})").format(
            new=shown(new), b=new.unit_class, old=shown(old), a=old.unit_class)
    if new.era <= old.era:
        return _("«{new}» (эпоха {b}) не новее «{old}» (эпоха {a})").format(
            new=shown(new), b=new.era, old=shown(old), a=old.era)
    if not knows(nation, new.tech):
        return _("для «{unit}» нужна технология «{tech}»").format(unit=shown(new), tech=new.tech)
    return ""


def _upgrade(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """Step 6: «апгрейд войск нации (по цене в монетах, равной удвоенной разнице стоимости юнитов в
    молотках без учета всех возможных скидок)»: the first cards of the unit in deck order that are
    not destroyed; as many as the coins pay for (PARTIAL names what was short)."""
    for nation, g in rows_of(orders, world, report, Upgrade):
        o = g.order
        assert isinstance(o, Upgrade)
        ref = g.row.ref
        old, new = unit_of(rules, o.unit), unit_of(rules, o.to)
        why = upgrade_refusal(nation, old, new, o)
        if why:
            report.result(ref, Status.REJECTED, why)
            continue
        assert old is not None and new is not None
        deck = deck_of(world, nation.name)
        cards = [c for c in deck.cards if c.unit == old.name_ru and c.state != DESTROYED]
        if not cards:
            report.result(ref, Status.REJECTED, _("в колоде нет годного войска «{unit}»").format(unit=shown(old)))
            continue
        price = rules.upgrade_price(old.name_ru, new.name_ru)
        want = max(1, o.qty)
        n = min(want, len(cards), nation.coins // price if price else want)
        if n == 0:
            report.result(ref, Status.REJECTED, lack(coins_word(), price, nation.coins))
            continue
        for card in cards[:n]:
            card.unit = new.name_ru
        if price:
            report.post(COINS, nation.name, UPGRADES, "апгрейд", Fraction(-price * n),
                        _("апгрейд {n} × «{old}» → «{new}» по {price} мон. (2 × разница молотков)").format(
                            n=n, old=shown(old), new=shown(new), price=price), ref)
        if n < want:
            short = (_("в колоде только {have} × «{unit}»").format(have=len(cards), unit=shown(old))
                     if len(cards) < want else lack(coins_word(), price * want, nation.coins + price * n))
            report.result(ref, Status.PARTIAL, _("улучшено {n} из {want}: {why}").format(n=n, want=want, why=short))
        else:
            report.result(ref, Status.DONE)
    return world


def _restore(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """Step 7: «восстановление ранее уничтоженных войск нации (по цене в монетах, равной стоимости
    войска в молотках)»: destroyed cards of the unit become ready again, as many as paid for."""
    for nation, g in rows_of(orders, world, report, Restore):
        o = g.order
        assert isinstance(o, Restore)
        ref = g.row.ref
        unit = unit_of(rules, o.unit)
        if unit is None:
            report.result(ref, Status.REJECTED, _("нет войска «{unit}»").format(unit=o.unit))
            continue
        cards = [c for c in deck_of(world, nation.name).cards if c.unit == unit.name_ru and c.state == DESTROYED]
        if not cards:
            report.result(ref, Status.REJECTED, _("нет уничтоженных «{unit}»").format(unit=named(unit.name_ru, rules)))
            continue
        price = rules.restore_price(unit.name_ru)
        want = max(1, o.qty)
        n = min(want, len(cards), nation.coins // price if price else want)
        if n == 0:
            report.result(ref, Status.REJECTED, lack(coins_word(), price, nation.coins))
            continue
        for card in cards[:n]:
            card.state = READY
        if price:
            report.post(COINS, nation.name, RESTORES, "восстановление", Fraction(-price * n),
                        _("восстановлено {n} × «{unit}» по {price} мон. (стоимость в молотках)").format(
                            n=n, unit=named(unit.name_ru, rules), price=price), ref)
        if n < want:
            short = (_("уничтоженных «{unit}» только {have}").format(unit=named(unit.name_ru, rules), have=len(cards))
                     if len(cards) < want else lack(coins_word(), price * want, nation.coins + price * n))
            report.result(ref, Status.PARTIAL,
                          _("восстановлено {n} из {want}: {why}").format(n=n, want=want, why=short))
        else:
            report.result(ref, Status.DONE)
    return world


# --- 8: reorganisation and disbanding (CIV-COMBAT-01) -------------------------------------------------


def reordered(deck: Deck, order: tuple[str, ...]) -> str:
    """Put the cards of `order` first, in that order (each name takes the next card of that unit),
    the other live cards after them as they were, destroyed cards last; a new circle starts.
    Returns why not ('' when done): the order names more cards of a unit than the deck has alive."""
    live = [c for c in deck.cards if c.state != DESTROYED]
    have = Counter(c.unit for c in live)
    for unit, want in Counter(order).items():
        if want > have.get(unit, 0):
            return _("в колоде {have} × «{unit}», а в новом порядке {want}").format(
                have=have.get(unit, 0), unit=unit, want=want)
    rest = list(live)
    first = []
    for unit in order:
        card = next(c for c in rest if c.unit == unit)
        rest.remove(card)
        first.append(card)
    deck.cards = first + rest + [c for c in deck.cards if c.state == DESTROYED]
    deck.next = 0
    return ""


def disbanded(deck: Deck, unit: str, qty: int) -> int:
    """Remove up to `qty` cards of `unit`, live ones from the end of the deck first, then destroyed
    ones; the draw pointer keeps pointing at the same next card.  Returns how many went."""
    mine = [i for i in reversed(range(len(deck.cards))) if deck.cards[i].unit == unit]
    picks = sorted(mine, key=lambda i: deck.cards[i].state == DESTROYED)  # live first, stable
    gone = sorted(picks[:qty], reverse=True)
    for i in gone:
        del deck.cards[i]
        if i < deck.next:
            deck.next -= 1
    deck.next = min(deck.next, len(deck.cards))
    return len(gone)


def _reorganise(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """Step 8: «реорганизация армии нации (изменение последовательности войск в колоде, а также роспуск
    войск по цене в монетах) (1 Власть)»: one reorganisation a turn costs the price once, whatever
    rows it has (a new order and disbandings); disbanding costs its coins per card."""
    paid: set[str] = set()
    price = price_of(rules, "reorganise")
    for nation, g in rows_of(orders, world, report, Reorganise, Disband):
        o = g.order
        ref = g.row.ref
        deck = deck_of(world, nation.name)
        if nation.name not in paid and nation.power < price:
            report.result(ref, Status.REJECTED, lack(power_word(), price, nation.power)
                          + _(" (реорганизация армии)"))
            continue
        if isinstance(o, Reorganise):
            if not o.order:
                report.result(ref, Status.REJECTED, _("не указан новый порядок колоды"))
                continue
            names = []
            for u in o.order:
                unit = unit_of(rules, u)
                names.append(unit.name_ru if unit is not None else u)
            why = reordered(deck, tuple(names))
            if why:
                report.result(ref, Status.REJECTED, why)
                continue
            status, reason = Status.DONE, ""
        else:
            assert isinstance(o, Disband)
            unit = unit_of(rules, o.unit)
            key = unit.name_ru if unit is not None else o.unit
            cost_each = rules.prices["disband"].amount
            want = max(1, o.qty)
            n = min(want, sum(c.unit == key for c in deck.cards))
            if cost_each:
                n = min(n, nation.coins // cost_each)
            if n == 0:
                report.result(ref, Status.REJECTED, _("в колоде нет «{unit}»").format(unit=named(key, rules))
                              if not any(c.unit == key for c in deck.cards)
                              else lack(coins_word(), cost_each, nation.coins))
                continue
            n = disbanded(deck, key, n)
            if cost_each:
                report.post(COINS, nation.name, REORGANISATION, "роспуск", Fraction(-cost_each * n),
                            _("распущено {n} × «{unit}»").format(n=n, unit=named(key, rules)), ref)
            status = Status.DONE if n == want else Status.PARTIAL
            reason = "" if n == want else _("распущено {n} из {want}").format(n=n, want=want)
        if nation.name not in paid:
            paid.add(nation.name)
            if price:
                report.post(POWER, nation.name, REORGANISATION, "реорганизация", Fraction(-price),
                            _("реорганизация армии"), ref)
        report.result(ref, status, reason)
    return world


# --- 10: research (CIV-TECH-01..03) -------------------------------------------------------------------


def level_counts(nation: Nation, rules: Rules) -> dict[int, int]:
    """Technologies per level; a repeatable one (Технология будущего) counts as often as its ПО say."""
    out: Counter[int] = Counter()
    for t in known(nation, rules):
        out[t.level] += max(1, nation.vp_tech // t.vp) if t.repeatable and t.vp else 1
    return dict(out)


def pyramid_refusal(counts: Mapping[int, int], tech: Technology, rules: Rules) -> str:
    """Why the pyramid (CIV-TECH-01) or the level-5 rule (CIV-TECH-02) bars `tech` ('' if not)."""
    if rules.may_research(counts, tech.level):
        return ""
    level = tech.level
    after = counts.get(level, 0) + 1
    below = counts.get(level - 1, 0)
    if level <= rules.param("pyramid_last_level"):
        return _("пирамида: технологий {level}-го уровня стало бы {after}, а {lower}-го уровня {below} — "
                 "выше должно быть меньше").format(level=level, after=after, lower=level - 1, below=below)
    need = after * rules.param("level5_per_level4")
    return _("для {after}-й технологии {level}-го уровня нужно {need} технологий {lower}-го уровня, "
             "есть {below}").format(after=after, level=level, need=need, lower=level - 1, below=below)


def research_price(world: World, nation: Nation, key: str, tech: Technology, rules: Rules) -> tuple[int, bool]:
    """Science for `tech` and whether it is the stolen half price: «2 / 5 / 10 / 20 / 30 очков науки
    (в зависимости от эпохи)»; a technology a spy stole costs «вдвое» less on the turn the spies
    phase marks (`Nation.stolen`: tech -> turn, CIV-SPY-02), rounded up (spec G18: 5 → 3)."""
    cost = rules.eras[tech.level].tech_cost
    stolen: Mapping[str, int] = nation.stolen
    if any(stolen.get(name) == world.turn for name in (key, tech.name_ru) if name):
        divisor = rules.param("stolen_tech_divisor")
        return -(-cost // divisor), True
    return cost, False


def _research(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """Step 10: «стоимость технологии в зависимости от эпохи: 2 / 5 / 10 / 20 / 30. Вторая и
    последующие технологии в ход требуют траты Власти в дополнение к науке - 2 Власти за 2ю
    технологию в ход, 4 Власти за 3ю»; the pyramid and the level-5 rule after each one; a row may
    also switch free to the government the technology opens (CIV-GOV-01)."""
    done: Counter[str] = Counter()
    for nation, g in rows_of(orders, world, report, Research):
        o = g.order
        assert isinstance(o, Research)
        ref = g.row.ref
        key = _find(rules.techs, o.tech)
        if key is None:
            report.result(ref, Status.REJECTED, _("нет технологии «{tech}»").format(tech=o.tech))
            continue
        tech = rules.techs[key]
        if knows(nation, key) and not tech.repeatable:
            report.result(ref, Status.REJECTED, _("«{tech}» уже изучена").format(tech=named(key, rules)))
            continue
        why = pyramid_refusal(level_counts(nation, rules), tech, rules)
        if why:
            report.result(ref, Status.REJECTED, why)
            continue
        cost, stolen = research_price(world, nation, key, tech, rules)
        k = done[nation.name] + 1
        extra = rules.research_power(k)
        if nation.science < cost:
            report.result(ref, Status.REJECTED, lack(science_word(), cost, nation.science))
            continue
        if nation.power < extra:
            report.result(ref, Status.REJECTED, lack(power_word(), extra, nation.power)
                          + _(" ({k}-я технология за ход)").format(k=k))
            continue
        report.post(SCIENCE, nation.name, RESEARCH, "исследование", Fraction(-cost),
                    _("изучена «{tech}» (уровень {level}): {cost} науки").format(
                        tech=named(key, rules), level=tech.level, cost=cost)
                    + (_(" (вдвое дешевле: похищена шпионом)") if stolen else ""), ref)
        if extra:
            report.post(POWER, nation.name, RESEARCH, "исследование", Fraction(-extra),
                        _("{k}-я технология за ход «{tech}»: {extra} Власти").format(
                            k=k, tech=named(key, rules), extra=extra), ref)
        if tech.vp:
            report.post(VP, nation.name, RESEARCH, "технологии", Fraction(tech.vp),
                        _("«{tech}»: +{vp} ПО").format(tech=named(key, rules), vp=tech.vp), ref)
        nation.techs.setdefault(key, world.turn)
        done[nation.name] += 1
        report.tell(_("Изучена технология «{tech}»").format(tech=named(key, rules)), to=nation.name)
        status, reason = Status.DONE, ""
        if o.government:
            gov = government_of(rules, o.government)
            if gov is None:
                status, reason = Status.PARTIAL, _("нет правления «{government}»").format(government=o.government)
            elif norm(gov.tech) != norm(key):
                status, reason = Status.PARTIAL, _(
                    "правление «{government}» открывает «{opens}», а не «{tech}»: бесплатно не сменить").format(
                    government=named(gov.name_ru, rules), opens=gov.tech, tech=named(key, rules))
            elif nation.government != gov.key:
                nation.government = gov.key
                report.tell(_("{nation}: новое правление — {government}").format(
                    nation=nation.name, government=named(gov.name_ru, rules)))
        report.result(ref, status, reason)
    return world


# --- 11: government (CIV-GOV-01/02) ---------------------------------------------------------------------


def government_price(nation: Nation, rules: Rules) -> int:
    """«1 Власть за каждую достигнутую нацией эпоху»."""
    return price_of(rules, "government", eras_reached(nation, rules))


def _government(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """Step 11: a change of government opened by a known technology, for the price per era reached
    (the free change is declared with the research, step 10)."""
    for nation, g in rows_of(orders, world, report, ChangeGovernment):
        o = g.order
        assert isinstance(o, ChangeGovernment)
        ref = g.row.ref
        gov = government_of(rules, o.government)
        if gov is None:
            report.result(ref, Status.REJECTED, _("нет правления «{government}»").format(government=o.government))
            continue
        if nation.government == gov.key:
            report.result(ref, Status.REJECTED,
                          _("правление и так {government}").format(government=named(gov.name_ru, rules)))
            continue
        if not knows(nation, gov.tech):
            report.result(ref, Status.REJECTED, _("для правления «{government}» нужна технология «{tech}»").format(
                government=named(gov.name_ru, rules), tech=gov.tech))
            continue
        price = government_price(nation, rules)
        if nation.power < price:
            report.result(ref, Status.REJECTED, lack(power_word(), price, nation.power)
                          + _(" (1 за каждую из {n} эпох)").format(n=eras_reached(nation, rules)))
            continue
        if price:
            report.post(POWER, nation.name, GOVERNMENT, "правление", Fraction(-price),
                        _("смена правления на «{government}»: {n} эпох × {each}").format(
                            government=named(gov.name_ru, rules), n=eras_reached(nation, rules),
                            each=rules.prices["government"].amount), ref)
        nation.government = gov.key
        report.tell(_("{nation}: новое правление — {government}").format(
            nation=nation.name, government=named(gov.name_ru, rules)))
        report.result(ref, Status.DONE)
    return world


# --- 12: wonder intentions (CIV-WONDER-01) ----------------------------------------------------------------


def _wonders(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """Step 12: «объявление, какой город какое Чудо света планирует строить» — public, not binding,
    not exclusive; a wonder someone has completed cannot be announced again."""
    for nation, g in rows_of(orders, world, report, AnnounceWonder):
        o = g.order
        assert isinstance(o, AnnounceWonder)
        ref = g.row.ref
        city = world.cities.get(o.city)
        if city is None or city.nation != nation.name:
            report.result(ref, Status.REJECTED, _("«{city}» — не ваш город").format(city=o.city))
            continue
        key = _find(rules.wonders, o.wonder)
        if key is None:
            report.result(ref, Status.REJECTED, _("нет чуда «{wonder}» в «Правила — Чудеса»").format(wonder=o.wonder))
            continue
        built = next((c for c in world.cities.values() if key in c.wonders), None)
        if built is not None:
            report.result(ref, Status.REJECTED, _("чудо «{wonder}» уже построено в «{city}»").format(
                wonder=key, city=built.name))
            continue
        intention = Intention(nation.name, city.name, key)
        if intention not in world.intentions:
            world.intentions.append(intention)
            report.tell(_("{nation} заявляет: город «{city}» будет строить чудо «{wonder}»").format(
                nation=nation.name, city=city.name, wonder=key))
        report.result(ref, Status.DONE)
    return world


# --- 13: transfers (CIV-DIPLO-05) ------------------------------------------------------------------------

TRANSFER_CODES = {"city": "cities", "coins": "coins", "resource": "resources", "power": "power"}


def transfer_techs(rules: Rules, code: str) -> list[str]:
    """The technologies that allow transferring `code` (cities, coins, resources, power)."""
    return [t.name_ru for t in rules.techs.values() if code in t.transfers]


def transfer_allowed(rules: Rules, a: Nation, b: Nation, code: str) -> bool:
    """«Для передачи достаточно, чтобы хотя бы один из лидеров двух наций ... владел нужной технологией»."""
    return any(knows(a, t) or knows(b, t) for t in transfer_techs(rules, code))


def transfer_resource(nation: Nation, other: Nation, item: str, rules: Rules) -> tuple[Status, str]:
    """Move one resource token `item` from `nation`'s stock to `other`'s (`Nation.resources`, the
    stock the villages fill): DONE with the resource's key, or REJECTED with the reason."""
    stock = nation.resources
    key = _find({r: None for r in stock}, item)
    if key is None:
        return Status.REJECTED, _("у нации нет ресурса «{item}»; есть: {stock}").format(
            item=item, stock=listed(stock, rules) or "—")
    stock.remove(key)
    other.resources.append(key)
    return Status.DONE, key


def _transfers(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """Step 13: cities (not the capital; Философия), coins and resources (Валюта), Power (СМИ), when
    either side knows the technology; technologies never change hands."""
    for nation, g in rows_of(orders, world, report, Transfer):
        o = g.order
        assert isinstance(o, Transfer)
        ref = g.row.ref
        other = world.nations.get(o.to)
        if other is None or other.name == nation.name:
            report.result(ref, Status.REJECTED, _("нет другой нации «{nation}»").format(nation=o.to))
            continue
        code = TRANSFER_CODES.get(o.what)
        if code is None:
            report.result(ref, Status.REJECTED, _("передавать можно город, монеты, ресурс или Власть"))
            continue
        if not transfer_allowed(rules, nation, other, code):
            report.result(ref, Status.REJECTED, _(
                "для такой передачи хотя бы одна из сторон должна знать «{techs}»").format(
                techs="», «".join(named(t, rules) for t in transfer_techs(rules, code))))
            continue
        if o.what == "city":
            city = world.cities.get(o.item)
            if city is None or city.nation != nation.name:
                report.result(ref, Status.REJECTED, _("«{city}» — не ваш город").format(city=o.item))
                continue
            if city.name == nation.capital:
                report.result(ref, Status.REJECTED, _("«{city}» — столица: её передать нельзя").format(city=city.name))
                continue
            city.nation = other.name
            city.status = TRANSFERRED
            report.tell(_("{nation} передаёт город «{city}» нации {to}").format(
                nation=nation.name, city=city.name, to=other.name))
            report.result(ref, Status.DONE)
            continue
        if o.what == "resource":
            status, reason = transfer_resource(nation, other, o.item, rules)
            if status is Status.DONE:
                report.tell(_("{nation} передаёт вам ресурс «{item}»").format(
                    nation=nation.name, item=named(reason, rules)), to=other.name)
                reason = ""
            report.result(ref, status, reason)
            continue
        resource, word = (COINS, coins_word()) if o.what == "coins" else (POWER, power_word())
        have = nation.coins if o.what == "coins" else nation.power
        qty = o.qty
        if qty <= 0:
            report.result(ref, Status.REJECTED, _("количество должно быть больше нуля, а не {qty}").format(qty=qty))
            continue
        if have < qty:
            report.result(ref, Status.REJECTED, lack(word, qty, have))
            continue
        report.post(resource, nation.name, TRANSFERS, "передача", Fraction(-qty),
                    _("передано нации {to}").format(to=other.name), ref)
        report.post(resource, other.name, TRANSFERS, "передача", Fraction(qty),
                    _("получено от нации {nation}").format(nation=nation.name), ref)
        report.tell(_("{nation} передаёт вам: {qty} {what}").format(
            nation=nation.name, qty=qty, what=resource.name(report.lang)), to=other.name)
        report.result(ref, Status.DONE)
    return world


# --- honesty (CIV-DIPLO-01..04) ---------------------------------------------------------------------------


def _honesty(world: World, orders: Orders, dice: Dice, rules: Rules, report: Report) -> World:
    """«Если факт осуждения подтверждается, Ведущий фиксирует списание 1 ПО с виновника (есть ещё не
    все ПО “за честность” списаны)»: a breach the GM wrote in the treaty register costs the nation its
    honesty VP, once (spec G19).  The ledger moves the nation's VP total; the split between honesty
    and technology VP is then set so that the honesty part is what fell."""
    breached = {t.breached_by for t in world.treaties if t.breached_by}
    for name in play_order(world, report):
        nation = world.nations[name]
        if name not in breached or nation.vp_honesty <= 0:
            continue
        loss = min(nation.vp_honesty, rules.param("honesty_vp"))
        tech_vp = nation.vp_tech
        report.post(VP, name, HONESTY, "честность", Fraction(-loss), _("нарушено слово (реестр договоров)"))
        nation.vp_honesty -= loss
        nation.vp_tech = tech_vp
        report.tell(_("{nation} нарушил(а) слово: −{n} ПО за честность").format(nation=name, n=loss))
    return world


STATE_PHASES: tuple[Phase[World], ...] = (
    Phase(FIRST_PLAYER, _first_player),  # 1, CIV-TURN-05
    Phase(POWER_INCOME, _power),  # 2, CIV-POWER-01
    Phase(FOUNDING, _found),  # 5, CIV-CITY-01
    Phase(UPGRADES, _upgrade),  # 6, CIV-UNIT-03
    Phase(RESTORES, _restore),  # 7, CIV-COMBAT-06
    Phase(REORGANISATION, _reorganise),  # 8, CIV-COMBAT-01
    Phase(RESEARCH, _research),  # 10, CIV-TECH-01..03
    Phase(GOVERNMENT, _government),  # 11, CIV-GOV-01/02
    Phase(WONDERS, _wonders),  # 12, CIV-WONDER-01
    Phase(TRANSFERS, _transfers),  # 13, CIV-DIPLO-05
    Phase(HONESTY, _honesty),  # CIV-DIPLO-01..04 (after the 13 steps)
)
STEP_OF: dict[str, int] = {
    FIRST_PLAYER: 1, POWER_INCOME: 2, FOUNDING: 5, UPGRADES: 6, RESTORES: 7, REORGANISATION: 8,
    RESEARCH: 10, GOVERNMENT: 11, WONDERS: 12, TRANSFERS: 13, HONESTY: 14,
}
