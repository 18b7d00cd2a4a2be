"""Step 4 of the state stage: spies (CIV-SPY-01..03).

A nation has as many spies as its technologies give («Шпионы» of «Правила — Технологии»: Валюта,
Демократия, Коммунизм); a spy at home (not a counter-spy) goes on one of the six missions of
«Правила — Шпионаж» for Власть («Цены»: spy), any distance away; the capital-only missions need the
target nation's capital.  A counter-spy of the target's owner in the city foils it (CIV-SPY-03).
What the spy finds goes only to its owner (`report.tell(…, to=owner)`: its own log); the victim learns only
that a spy was caught in its city, never whose.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.dice import Dice
from engine.core.orders import Status
from engine.core.turn import Phase

from ..facts import Report
from ..messages import _
from ..model import Spy, World
from ..names import listed, named, shown
from ..ordertypes import Given, SendSpy
from ..rules import Rules
from .common import in_order, pay_power

PHASE = "шпионаж"


def ensure_spies(world: World, rules: Rules, nation: str) -> list[Spy]:
    """The nation's spies, as many as its technologies give (new ones start at home)."""
    n = world.nations[nation]
    have = [s for s in world.spies if s.nation == nation]
    due = sum(rules.tech(t).spies for t in n.techs)
    for k in range(len(have) + 1, due + 1):
        spy = Spy(nation, k)
        world.spies.append(spy)
        have.append(spy)
    n.spies = max(n.spies, len(have))
    return have


def guarded(world: World, city: str) -> bool:
    """Whether a counter-spy of the city's owner sits in `city` (CIV-SPY-03)."""
    c = world.cities[city]
    return c.counter_spy or any(s.where == city and s.nation == c.nation for s in world.spies)


def spies(world: World, orders: Mapping[str, list[Given]], dice: Dice, rules: Rules, report: Report) -> World:
    """Every «Шпионаж» row in the turn's order.  First the spies at home that worked last turn are
    free again (a used spy was `busy` only for its turn's cities stage: CIV-SPY-03); counter-spies
    stay where the cities stage put them."""
    for spy in world.spies:
        if not spy.where:
            spy.busy = False
    for nation, g in in_order(world, orders, report):
        if isinstance(g.order, SendSpy):
            _send(world, nation, g, g.order, dice, rules, report)
    return world


def _send(world: World, nation: str, g: Given, order: SendSpy, dice: Dice, rules: Rules, report: Report) -> None:
    ref = g.row.ref
    mission = rules.spy_missions.get(order.mission)
    if mission is None:
        report.result(ref, Status.REJECTED, _("нет задания «{m}»: есть {known}").format(
            m=order.mission, known=", ".join(shown(m) for m in rules.spy_missions.values())))
        return
    city = world.cities.get(order.city)
    if city is None:
        report.result(ref, Status.REJECTED, _("города «{city}» нет").format(city=order.city))
        return
    if city.nation == nation:
        report.result(ref, Status.REJECTED, _("«{city}» — ваш город").format(city=city.name))
        return
    victim = world.nations[city.nation]
    if mission.capital_only and victim.capital != city.name:
        report.result(ref, Status.REJECTED, _("задание «{m}» — только в столице, а «{city}» не столица {nation}")
                      .format(m=shown(mission), city=city.name, nation=victim.name))
        return
    free = [s for s in ensure_spies(world, rules, nation) if not s.where and not s.busy]
    if not free:
        total = len([s for s in world.spies if s.nation == nation])
        report.result(ref, Status.REJECTED, _("нет свободного шпиона: всего {total}, свободных 0").format(total=total))
        return
    if not pay_power(report, world, nation, rules.prices["spy"].amount, PHASE, "шпион",
                     _("шпион в «{city}»").format(city=city.name), ref):
        return
    spy = free[0]
    spy.busy = True  # it cannot be a counter-spy this turn (CIV-SPY-03)
    if guarded(world, city.name):
        report.tell(_(
            "Шпион в «{city}» ({m}): операция сорвана контрразведчиком, шпион вернулся ни с чем"
        ).format(city=city.name, m=shown(mission)), to=nation)
        report.tell(_("В «{city}» пойман вражеский шпион").format(city=city.name), to=victim.name)
        report.result(ref, Status.DONE, _("операция сорвана"))
        return
    if dice.blind and mission.key in ("steal", "mail"):
        dice.withhold(f"spy:{mission.key}", nation)
        report.result(ref, Status.DONE, _("что найдёт шпион, решит жребий"))
        return
    finding = _FIND[mission.key](world, nation, city.name, dice, rules)
    report.tell(_("Шпион в «{city}» ({m}): {finding}").format(
        city=city.name, m=shown(mission), finding=finding), to=nation)
    report.result(ref, Status.DONE, _("задание выполнено"))


def _buildings(world: World, nation: str, city: str, dice: Dice, rules: Rules) -> str:
    c = world.cities[city]
    return listed([*c.buildings, *c.wonders], rules) or _("построек нет")


def _techs(world: World, nation: str, city: str, dice: Dice, rules: Rules) -> str:
    techs = world.nations[world.cities[city].nation].techs
    return listed(sorted(techs), rules) or _("технологий нет")


def _army(world: World, nation: str, city: str, dice: Dice, rules: Rules) -> str:
    deck = world.decks.get(world.cities[city].nation)
    if deck is None or not deck.cards:
        return _("войск нет")
    states = {"ready": _("в строю"), "retreated": _("отступил"), "routed": _("разгромлен"),
              "destroyed": _("уничтожен")}
    order = [f"{i}. {named(c.unit, rules)} ({states[c.state]})" for i, c in enumerate(deck.cards, start=1)]
    return _("колода по порядку: {cards}; следующая карта — №{next}").format(
        cards="; ".join(order), next=deck.next % len(deck.cards) + 1)


def _steal(world: World, nation: str, city: str, dice: Dice, rules: Rules) -> str:
    me, victim = world.nations[nation], world.nations[world.cities[city].nation]
    open_ = sorted(t for t in victim.techs if t not in me.techs)
    if not open_:
        return _("подходящих технологий нет")
    tech = dice.choice("spy:steal", open_, subject=nation)
    me.stolen[tech] = world.turn + 1
    return _("похищены сведения о технологии «{tech}»: в ход {turn} она вдвое дешевле").format(
        tech=named(tech, rules), turn=world.turn + 1)


def _resources(world: World, nation: str, city: str, dice: Dice, rules: Rules) -> str:
    return listed(world.nations[world.cities[city].nation].resources, rules) or _("ресурсов нет")


def _mail(world: World, nation: str, city: str, dice: Dice, rules: Rules) -> str:
    victim = world.cities[city].nation
    letters = [x for x in world.letters if victim in (x[0], x[1])]
    if not letters:
        return _("писем в эту фазу государства не было")
    sender, to, body = dice.choice("spy:mail", letters, subject=nation)
    return _("письмо {sender} → {to}: «{text}»").format(sender=sender, to=to, text=body)


_FIND = {"city": _buildings, "techs": _techs, "army": _army, "steal": _steal, "resources": _resources,
         "mail": _mail}

SPIES: tuple[Phase[World], ...] = (Phase(PHASE, spies),)
