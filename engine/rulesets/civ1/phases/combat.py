"""Step 9 of the state stage: attacks on cities (CIV-COMBAT-01..07, CIV-WMD-01, CIV-UNIT-01/02),
and the battle engine the barbarians of a village use too (CIV-VILLAGE-02).

An attack costs Власть («Цены»: attack, and wmd on top with ОМП); each city sends one army
(`armies_per_city`) of at most `Rules.army_size` units, drawn from the nation's deck in order
(support cards ride with the next unit; a second support in a row counts as retreated; the deck
running out destroys a waiting support; a full circle starts again from the top without routed
and destroyed cards).  The defender draws its garrison the same way (spec G16).  Duels pair the
first unit of each side; the winner stays in play (CIV-COMBAT-05).  Every die is a named seeded roll
(`dice.roll("duel", die_sides, "<who→whom>: дуэль N, атакующий|защитник")`) and goes into
`report.facts.battles`; `battle_rows` makes the public «Бои» tab of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.core.dice import Dice
from engine.core.i18n import N_, using
from engine.core.orders import Status
from engine.core.tables import Grid
from engine.core.turn import Phase

from .. import reach
from ..facts import Battle, Duel, Facts, Report
from ..hexes import Crossing
from ..messages import _
from ..model import CONQUERED, DESTROYED, READY, RETREATED, ROUTED, Card, City, Deck, World
from ..names import listed
from ..ordertypes import Attack, Given
from ..rules import Rules
from .common import crossing, in_order, pay_power, reaches

PHASE = "атаки"


@dataclass
class Slot:
    """One unit of an army or garrison in a battle, with the support card riding with it; `card`
    is None for units that are no nation's (barbarians)."""

    unit: str
    card: Card | None = None
    support: str = ""
    support_card: Card | None = None


def _is_support(rules: Rules, unit: str) -> bool:
    return rules.classes[rules.unit(unit).unit_class].support


def _draw(deck: Deck, taken: set[int]) -> Card | None:
    """The next ready card of the deck not yet in this battle; past the end the circle starts again
    from the top (routed and destroyed cards stay out: CIV-COMBAT-01)."""
    n = len(deck.cards)
    for _step in range(2 * n):
        if deck.next >= n:
            deck.next = 0
        card = deck.cards[deck.next]
        deck.next += 1
        if card.state == READY and id(card) not in taken:
            taken.add(id(card))
            return card
    return None


def form_army(deck: Deck, rules: Rules, size: int, taken: set[int]) -> list[Slot]:
    """Up to `size` units drawn in order (CIV-UNIT-01, CIV-COMBAT-01/03): a support card waits for
    the next unit; a second support in a row counts as retreated; when the deck runs out the waiting
    support is destroyed."""
    slots: list[Slot] = []
    pending: Card | None = None
    while len(slots) < size:
        card = _draw(deck, taken)
        if card is None:
            if pending is not None:
                pending.state = DESTROYED
            break
        if _is_support(rules, card.unit):
            if pending is not None:
                card.state = RETREATED
                continue
            pending = card
            continue
        slots.append(Slot(card.unit, card, pending.unit if pending else "", pending))
        pending = None
    return slots


def has_ready_unit(deck: Deck | None, rules: Rules) -> bool:
    """Whether the deck holds a ready combat card (support alone cannot fight)."""
    if deck is None:
        return False
    return any(c.state == READY and not _is_support(rules, c.unit) for c in deck.cards)


def _lose(slot: Slot, result: str) -> None:
    """The loser's card takes the result; its support retreats with it, or is destroyed when the
    unit is routed or destroyed (CIV-COMBAT-05)."""
    if slot.card is not None:
        slot.card.state = result
    if slot.support_card is not None:
        slot.support_card.state = RETREATED if result == RETREATED else DESTROYED


def fortification(rules: Rules, city: City) -> int:
    """The defenders' fixed bonus from the city's buildings (укрепления +3: CIV-COMBAT-04)."""
    return sum(rules.buildings[b].defence for b in city.buildings if b in rules.buildings)


def protection(rules: Rules, city: City) -> int:
    """How many defenders' losses the city's protection buildings shift one step (CIV-COMBAT-06):
    the best such building counts (казармы 1 … военная база 4; they do not add up)."""
    return max([0, *(rules.buildings[b].protects for b in city.buildings if b in rules.buildings)])


def _word(result: str) -> str:
    return {RETREATED: _("отступил"), ROUTED: _("разгромлен"), DESTROYED: _("уничтожен")}[result]


def fight(
    rules: Rules, dice: Dice, battle: Battle, attackers: list[Slot], defenders: list[Slot], *,
    fort: int = 0, protects: int = 0, sea: bool = False, wmd: bool = False,
) -> bool:
    """The duels of one battle, appended to `battle.duels`; True when the garrison is beaten — every
    defender routed or destroyed, none saved to «retreated» by the city's protection («Если все
    войска защищающегося разгромлены или уничтожены, атакующий захватывает город», CIV-COMBAT-06/07)
    — and a unit of the attackers that may capture is still in the battle (CIV-COMBAT-07: aviation
    cannot capture and withdraws; the next unit of the army that may capture takes the city).

    Dice per unit: its «Кубики» plus `advantage_dice` per advantage (the class triangle, aviation
    over all, `sea_defence_advantages` for defenders of an attack from the sea, `wmd_advantages`
    for every attacker under ОМП); support and fortification add points (spec G5)."""
    sides = rules.param("die_sides")
    per_adv = rules.param("advantage_dice")
    label = f"{battle.origin}→{battle.target}"
    ai = di = 0
    left = protects
    saved = False  # a defender the protection turned from routed into retreated: the city holds
    while ai < len(attackers) and di < len(defenders):
        a, d = attackers[ai], defenders[di]
        ua, ud = rules.unit(a.unit), rules.unit(d.unit)
        adv_a = int(ud.unit_class in rules.classes[ua.unit_class].advantage_over)
        adv_d = int(ua.unit_class in rules.classes[ud.unit_class].advantage_over)
        adv_a += rules.param("wmd_advantages") if wmd else 0
        adv_d += rules.param("sea_defence_advantages") if sea else 0
        number = len(battle.duels) + 1
        a_dice = [dice.roll("duel", sides, f"{label}: дуэль {number}, атакующий")
                  for _i in range((ua.dice or 0) + adv_a * per_adv)]
        d_dice = [dice.roll("duel", sides, f"{label}: дуэль {number}, защитник")
                  for _i in range((ud.dice or 0) + adv_d * per_adv)]
        a_bonus = rules.unit(a.support).support if a.support else 0
        d_bonus = (rules.unit(d.support).support if d.support else 0) + fort
        diff = sum(a_dice) + a_bonus - sum(d_dice) - d_bonus
        o = rules.outcome(abs(diff))
        if o.loser == "attacker" or diff < 0:
            loser, side, result = a, _("атакующий"), o.result
            ai += 1
        else:
            loser, side, result = d, _("защитник"), o.result
            if left > 0 and result in (ROUTED, DESTROYED):
                result = RETREATED if result == ROUTED else ROUTED
                saved = saved or result == RETREATED
                left -= 1
            di += 1
        _lose(loser, result)
        battle.duels.append(Duel(number, a.unit, d.unit, a_dice, d_dice, a_bonus, d_bonus,
                                 f"{side} {_word(result)}", a.support, d.support))
    if di < len(defenders) or saved:
        return False
    for s in attackers[ai:]:
        if rules.classes[rules.unit(s.unit).unit_class].captures:
            return True
        _lose(s, RETREATED)
    return False


def recover(world: World, orders: Mapping[str, list[Given]], dice: Dice, rules: Rules, report: Report) -> World:
    """At the start of a state stage every routed card fights again (routed: out for the turn only,
    CIV-COMBAT-06); retreated cards are ready after each battle anyway."""
    for deck in world.decks.values():
        for card in deck.cards:
            if card.state in (ROUTED, RETREATED):
                card.state = READY
    return world


def after_battle(world: World, nations: Iterable[str] | None = None) -> None:
    """Retreated cards may fight in other battles of the turn (CIV-COMBAT-06): ready again, at the
    bottom of the deck (spec G15), the draw going on where it was; in every deck, or in the decks
    of `nations` only (each deck is its own: the others are left as they are)."""
    decks = world.decks.values() if nations is None else [d for n in dict.fromkeys(nations)
                                                           if (d := world.decks.get(n)) is not None]
    for deck in decks:
        back = [c for c in deck.cards if c.state == RETREATED]
        if not back:
            continue
        deck.next -= sum(1 for c in deck.cards[: deck.next] if c.state == RETREATED)
        deck.cards = [c for c in deck.cards if c.state != RETREATED] + back
        for card in back:
            card.state = READY


class Sweep:
    """`after_battle` for the battles of one phase: the first battle's sweep reads every deck, each
    later one only the decks that fought.  Only a battle makes a card retreated (form_army, the
    duels: the fighters' own decks), so after the first sweep no other deck holds one and the
    result is the same; a sweep of every deck per battle was quadratic in the nations."""

    def __init__(self) -> None:
        self.first = True

    def __call__(self, world: World, *fighters: str) -> None:
        after_battle(world, None if self.first else fighters)
        self.first = False


def _wmd_techs(rules: Rules) -> list[str]:
    return [k for k, t in rules.techs.items() if t.wmd]


def attacks(world: World, orders: Mapping[str, list[Given]], dice: Dice, rules: Rules, report: Report) -> World:
    """Every «Атака» row in the turn's order: checks, payment, the battle, capture or destruction."""
    sent: dict[str, int] = {}  # city -> armies it sent this stage (CIV-UNIT-02)
    sweep = Sweep()
    for nation, g in in_order(world, orders, report):
        order = g.order
        if not isinstance(order, Attack):
            continue
        _attack(world, nation, g, order, dice, rules, report, sent, sweep)
    return world


def _attack(world: World, nation: str, g: Given, order: Attack, dice: Dice, rules: Rules, report: Report,
            sent: dict[str, int], sweep: Sweep | None = None) -> None:
    ref = g.row.ref
    origin, target = world.cities.get(order.origin), world.cities.get(order.target)
    me = world.nations[nation]
    if origin is None or origin.nation != nation:
        report.result(ref, Status.REJECTED, _("«{city}» — не ваш город").format(city=order.origin))
        return
    if target is None:
        report.result(ref, Status.REJECTED, _("города «{city}» нет").format(city=order.target))
        return
    if target.nation == nation:
        report.result(ref, Status.REJECTED, _("«{city}» — ваш город").format(city=order.target))
        return
    if sent.get(origin.name, 0) >= rules.limit("armies_per_city"):
        report.result(ref, Status.REJECTED, _("город «{city}» уже послал армию в этот ход").format(city=origin.name))
        return
    if order.wmd:
        missing = [t for t in _wmd_techs(rules) if t not in me.techs]
        if missing:
            report.result(ref, Status.REJECTED, _("для ОМП нужны технологии: {techs}").format(
                techs=listed(missing, rules)))
            return
    cross = crossing(me, rules, reach.ARMY)
    if not reaches(world, rules, nation, target.hex, reach.ARMY, [origin.hex]):
        report.result(ref, Status.REJECTED, _(
            "«{target}» вне досягаемости армии из «{origin}» (дальность по суше {land}, по воде {water})"
        ).format(target=target.name, origin=origin.name, land=cross.land, water=cross.water))
        return
    if not has_ready_unit(world.decks.get(nation), rules):
        report.result(ref, Status.REJECTED, _("нет готовых войск для атаки"))
        return
    price = rules.prices["attack"].amount + (rules.prices["wmd"].amount if order.wmd else 0)
    why = _("атака на «{city}»").format(city=target.name)
    if not pay_power(report, world, nation, price, PHASE, "атака", why, ref):
        return
    sent[origin.name] = sent.get(origin.name, 0) + 1
    defender = target.nation
    battle = Battle(nation, origin.name, target.name, defender, wmd=order.wmd)
    report.facts.battles.append(battle)
    if dice.blind:
        dice.withhold("duel", f"{origin.name}→{target.name}")
        report.result(ref, Status.DONE, _("исход боя решит жребий"))
        return
    land_only = Crossing(cross.land, mountains=cross.mountains)
    sea = not reaches(world, rules, nation, target.hex, reach.ARMY, [origin.hex], land_only)
    size = rules.army_size(me.techs)
    army = form_army(world.decks[nation], rules, size, set())
    garrison_deck = world.decks.get(defender)
    garrison_size = rules.army_size(world.nations[defender].techs)
    garrison = form_army(garrison_deck, rules, garrison_size, set()) if garrison_deck else []
    won = fight(rules, dice, battle, army, garrison, fort=fortification(rules, target),
                protects=protection(rules, target), sea=sea, wmd=order.wmd)
    (sweep or Sweep())(world, nation, defender)
    if won and order.wmd:
        battle.result = _("разрушен")
        destroy(world, target)
    elif won:
        battle.result = _("взят")
        capture(world, target, nation, report)
    else:
        battle.result = _("отбит")
    report.tell(_("{nation} из «{origin}» атаковал «{target}» ({defender}){wmd}: дуэлей {duels}, итог: {result}.")
                .format(nation=nation, origin=origin.name, target=target.name, defender=defender,
                        wmd=_(" с ОМП") if order.wmd else "", duels=len(battle.duels), result=battle.result))
    report.result(ref, Status.DONE, _("город {result}").format(result=battle.result))


def destroy(world: World, city: City) -> None:
    """The city is gone (ОМП, barbarians): its owner's counter-spies come home; a destroyed capital
    leaves its owner without one until it names another."""
    del world.cities[city.name]
    for spy in world.spies:
        if spy.where == city.name:
            spy.where = ""
    if world.nations[city.nation].capital == city.name:
        world.nations[city.nation].capital = ""


def capture(world: World, city: City, nation: str, report: Report) -> None:
    """The city changes hands with its buildings and population (spec G17); it skips the next cities
    stage (CIV-TURN-04); a captured capital leaves its old owner without one until it names another."""
    old = world.nations[city.nation]
    city.nation = nation
    city.status = CONQUERED
    city.counter_spy = False
    for spy in world.spies:
        if spy.where == city.name and spy.nation == old.name:
            spy.where = ""
    if old.capital == city.name:
        old.capital = ""
        report.warn(_("у нации {nation} взята столица «{city}»: пусть нация назовёт новую")
                    .format(nation=old.name, city=city.name))


HEADER = (N_("Бой"), N_("Атакующий"), N_("Откуда"), N_("Цель"), N_("Защитник"), N_("ОМП"), N_("Дуэль"),
          N_("Войско атаки"), N_("Поддержка атаки"), N_("Кубики атаки"), N_("Бонус атаки"), N_("Итого атаки"),
          N_("Войско защиты"), N_("Поддержка защиты"), N_("Кубики защиты"), N_("Бонус защиты"),
          N_("Итого защиты"), N_("Исход дуэли"), N_("Итог боя"))


def battle_rows(facts: Facts, lang: str, rules: Rules | None = None) -> Grid:
    """The public «Бои» tab: a header and one row per duel with every die (a battle without a duel,
    an undefended city, has one row).  With `rules`, units are named in `lang` («Правила — Войска»)."""

    def unit(key: str) -> str:
        if not key or rules is None or lang == "ru" or key not in rules.units:
            return key
        return rules.units[key].name_en

    with using(lang):
        out: Grid = [[_(h) for h in HEADER]]
        for i, b in enumerate(facts.battles, start=1):
            head = [i, b.attacker, b.origin, b.target, b.defender, _("да") if b.wmd else ""]
            if not b.duels:
                out.append([*head, "", "", "", "", "", "", "", "", "", "", "", "", b.result])
            for d in b.duels:
                out.append([*head, d.number, unit(d.attacker_unit), unit(d.attacker_support),
                            ", ".join(map(str, d.attacker_dice)), d.attacker_bonus, d.attacker_total,
                            unit(d.defender_unit), unit(d.defender_support), ", ".join(map(str, d.defender_dice)),
                            d.defender_bonus, d.defender_total, d.outcome, b.result])
    return out


ATTACKS: tuple[Phase[World], ...] = (Phase(PHASE, attacks),)
RECOVER: Phase[World] = Phase("войска в строю", recover)
