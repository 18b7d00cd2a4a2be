"""Phase «4» the second (ANC-TURN-13): military operations — embarking, fleets at sea, marches,
battles, occupation and plunder, razing.

States act in the lot's order, each state's orders in row order; every march is followed step
by step. Paths go only through own, allied and enemy provinces (ANC-MOVE-01, the catalogue's
proposal); a neutral province may only be the goal of a campaign. A battle on the march that the
attacker wins lets it go on, without capturing (ANC-MOVE-05/06); a lost one sends it back where
it started (ANC-COMBAT-07). The combat table and every modifier come from the rules tabs.
"""

from __future__ import annotations

import functools
import operator
from collections import deque
from fractions import Fraction

from engine.core.dice import Dice
from engine.core.money import fmt
from engine.core.orders import Status

from .. import naming, speech
from ..economy import Refused, lose_people, shift_stability, stability_change
from ..facts import Battle, Report
from ..forces import army_at, capacity, government_modifier, moves, weight
from ..messages import _
from ..military import Side, judge, pyramid, remove, units_text
from ..model import BARBARIANS, Army, Campaign, Fleet, Province
from ..orders import Embark, March, Raze, Sail
from ..resources import MONEY
from ..rules import Rules
from ..speech import Name
from ..turnorders import Orders, of
from ..vocab import FOREST

PHASE = "война"


class War:
    """The working state of the phase."""

    def __init__(self, world: Campaign, rules: Rules, report: Report) -> None:
        self.world = world
        self.rules = rules
        self.report = report
        self.opening: dict[str, Fraction] = report.facts.opening
        self.provinces_before = {n: len(ps) for n, ps in world.by_owner().items()}
        self.captured: dict[str, str] = report.facts.captured  # province -> former owner
        self.battles: list[Battle] = report.facts.battles

    # ------------------------------------------------------------ geography

    def passable(self, state: str, province: Province) -> bool:
        owner = province.owner
        return owner == state or (bool(owner) and (self.world.allied(state, owner) or self.world.at_war(state, owner)))

    def strait_ok(self, state: str, a: str, b: str, tons: int | None) -> str | None:
        """ANC-MOVE-08: a strait needs an own fleet in an adjacent zone able to carry the army."""
        border = self.world.border(a, b)
        if border is None or border.kind != "strait":
            return None
        zones = set(self.world.provinces[a].sea_zones) & set(self.world.provinces[b].sea_zones)
        if tons is None:
            return _("через пролив {strait} слонов не переправить: корабли их не возят").format(
                strait=border.strait or ""
            )
        cap = sum(capacity(f, self.rules) for f in self.world.fleets.values() if f.state == state and f.zone in zones)
        if cap < tons:
            return _(
                "чтобы пересечь пролив {strait}, нужен свой флот в зоне {zones} "
                "грузоподъёмностью {tons} у.т. (есть {cap})"
            ).format(strait=border.strait or "", zones=", ".join(map(str, sorted(zones))), tons=tons, cap=cap)
        return None

    def path(self, state: str, start: str, goal: str, tons: int | None) -> tuple[list[str] | None, str]:
        """The shortest legal path (start excluded) or the reason there is none."""
        prev: dict[str, str] = {start: ""}
        queue = deque([start])
        blocked = ""
        while queue:
            p = queue.popleft()
            if p == goal:
                break
            for n in sorted(self.world.neighbours(p)):
                if n in prev:
                    continue
                q = self.world.provinces[n]
                if n != goal and not self.passable(state, q):
                    blocked = blocked or _(
                        "путь через провинцию {province} ({owner}) закрыт: можно идти только "
                        "через свои, союзные и вражеские провинции"
                    ).format(province=n, owner=q.owner or _("ничья"))
                    continue
                if n == goal and q.owner and not self.passable(state, q):
                    blocked = _(
                        "провинция {province} принадлежит государству {owner}, с которым нет войны, — входить нельзя"
                    ).format(province=n, owner=q.owner)
                    continue
                why = self.strait_ok(state, p, n, tons)
                if why:
                    blocked = why
                    continue
                prev[n] = p
                queue.append(n)
        if goal not in prev:
            return None, blocked or _("нет пути в провинцию {province}").format(province=goal)
        out = []
        p = goal
        while p != start:
            out.append(p)
            p = prev[p]
        return out[::-1], ""

    # ------------------------------------------------------------ battles

    def _armies_at(self, province: str) -> list[Army]:
        index = self.__dict__.get("_where")
        if index is None or self.__dict__.get("_where_count") != len(self.world.armies):
            index = {}
            for a in self.world.armies.values():
                index.setdefault(a.province, []).append(a)
            self.__dict__["_where"] = index
            self.__dict__["_where_count"] = len(self.world.armies)
        return [a for a in index.get(province, []) if a.province == province]

    def _moved(self, army: Army, old: str) -> None:
        """Keep the province index right when an army changes province."""
        index = self.__dict__.get("_where")
        if index is not None and old != army.province:
            if army in index.get(old, []):
                index[old].remove(army)
            index.setdefault(army.province, []).append(army)

    def hostile_armies(self, state: str, province: str) -> list[Army]:
        return [a for a in self._armies_at(province) if a.size() and self.world.at_war(state, a.state)]

    def fortress(self, province: Province) -> tuple[str, int]:
        best = ("", 0)
        for b in province.buildings:
            rule = self.rules.buildings.get(b)
            if rule is not None and int(rule.effect("defence")) > best[1]:
                best = (b, int(rule.effect("defence")))
        return best

    def land_battle(self, attacker: Army, province: Province, came_from: str | None, by_sea: bool) -> str:
        """Fight every hostile army in `province`; returns attacker | defender | draw."""
        rules, world = self.rules, self.world
        defenders = self.hostile_armies(attacker.state, province.name)
        att_mods: list[tuple[str, int]] = []
        if by_sea:
            att_mods.append((_("десант с моря"), int(rules.param("landing_attack"))))
        elif came_from is not None:
            b = world.border(came_from, province.name)
            if b is not None and b.kind == "river":
                att_mods.append((_("через реку"), int(rules.param("river_attack"))))
        att_mods += government_modifier(world, [attacker.state], rules)
        def_states = [a.state for a in defenders]
        siege = rules.tech_effect(world.states[attacker.state].techs, "siege") if attacker.state in world.states else 0
        if siege and self.fortress(province)[1] and province.owner in def_states:
            att_mods.append((_("штурм укреплений"), siege))  # ANC-FORT-05 (PROPOSAL techs)
        def_mods: list[tuple[str, int]] = []
        if naming.means(province.terrain, FOREST):  # the forest in either language («forest»)
            def_mods.append((_("оборона в лесу"), int(rules.param("forest_defence"))))
        name, bonus = self.fortress(province)
        if bonus and province.owner in def_states:
            def_mods.append((f"«{name}»", bonus))
        def_mods += government_modifier(world, [s for s in def_states if s != BARBARIANS], rules)
        pool: dict[str, int] = {}
        for a in defenders:
            for t, n in a.units.items():
                pool[t] = pool.get(t, 0) + n
        att = Side([attacker.state], dict(attacker.units), att_mods)
        dfn = Side(def_states, pool, def_mods)
        terrain = province.terrain
        outcome = judge(rules, "суша", att.bo(rules, terrain), dfn.bo(rules, terrain))
        att_lost, _att_damaged = pyramid(attacker.units, outcome.attacker_loss, rules)
        def_lost, _def_damaged = pyramid(pool, outcome.defender_loss, rules)
        remove(attacker.units, att_lost)
        self._spread_losses(defenders, def_lost)
        verdict = {
            "attacker": _("победа атакующего"),
            "defender": _("победа защитника"),
            "draw": _.pgettext("исход боя", "ничья"),
        }[outcome.result]
        defenders_txt = ", ".join(sorted(set(def_states)))
        self.report.tell(
            _(
                "Битва в провинции {province}: {attacker} ({attacker_bo} БО: {attacker_units}) против {defenders} "
                "({defender_bo} БО: {defender_units}). Таблица боя, {cell}: {verdict}, потери {attacker_loss}/"
                "{defender_loss}. {attacker} {attacker:теряет} {attacker_lost}; {defenders} — {defender_lost}."
            ).format(
                province=province.name,
                attacker=Name(attacker.state),
                attacker_bo=outcome.attacker_bo,
                attacker_units=att.describe(rules, terrain),
                defenders=defenders_txt,
                defender_bo=outcome.defender_bo,
                defender_units=dfn.describe(rules, terrain),
                cell=outcome.cell(),
                verdict=verdict,
                attacker_loss=outcome.attacker_loss,
                defender_loss=outcome.defender_loss,
                attacker_lost=units_text(att_lost, rules),
                defender_lost=units_text(def_lost, rules),
            )
        )
        self.battles.append(
            Battle(
                province=province.name,
                attacker=attacker.state,
                defenders=def_states,
                attacker_bo=outcome.attacker_bo,
                defender_bo=outcome.defender_bo,
                result=outcome.result,
                losses=(outcome.attacker_loss, outcome.defender_loss),
                attacker_lost=att_lost,
                defender_lost=def_lost,
                row=outcome.band.row,
            )
        )
        if outcome.result == "attacker":
            if BARBARIANS in def_states:
                self._barbarian_slaves(attacker.state, province)
            self._retreat(defenders)
        return outcome.result

    def _spread_losses(self, armies: list[Army], lost: dict[str, int]) -> None:
        for t, n in lost.items():
            for a in armies:
                take = min(n, a.units.get(t, 0))
                if take:
                    remove(a.units, {t: take})
                    n -= take
                if n <= 0:
                    break

    def _retreat(self, armies: list[Army]) -> None:
        """ANC-COMBAT-07 (proposal): beaten defenders fall back to a neighbouring own or allied
        province, or are lost."""
        for a in armies:
            if not a.size():
                continue
            options = sorted(
                n
                for n in self.world.neighbours(a.province)
                if (o := self.world.provinces[n].owner) and self.world.allied(a.state, o)
            )
            if options:
                self.report.tell(
                    _("{state}: остатки армии «{army}» ({units}) отходят в провинцию {province}.").format(
                        state=a.state, army=a.name, units=units_text(a.units, self.rules), province=options[0]
                    )
                )
                old = a.province
                a.province = options[0]
                self._moved(a, old)
            else:
                self.report.tell(
                    _("{state}: армии «{army}» некуда отступить — она рассеяна.").format(state=a.state, army=a.name)
                )
                a.units.clear()

    def _barbarian_slaves(self, state: str, province: Province) -> None:
        """ANC-STRATA-07, ANC-COMBAT-08: +1 slave for each victory over barbarians."""
        n = int(self.rules.param("barbarian_slaves"))
        st = self.world.states[state]
        home = self.world.provinces.get(st.capital)
        if home is not None and n:
            home.population["раб"] = home.population.get("раб", 0) + n
            self.report.tell(
                _("{state}: победа над варварами — +{n} раб. ({province}).").format(
                    state=state, n=n, province=home.name
                )
            )

    # ------------------------------------------------------------ occupation

    def occupy(self, state: str, province: Province, came_from: str | None) -> None:
        """ANC-MOVE-06/07, ANC-MONEY-04/05, ANC-STRATA-06, ANC-STAB-03, ANC-SCI-07."""
        rules, world = self.rules, self.world
        loser = province.owner
        victim = world.states.get(loser)
        winner = world.states[state]
        if victim is None:
            gov = rules.governments.get(winner.government)
            if gov is not None and gov.annex:
                province.owner = state
                self.report.tell(
                    _("{state}: нейтральная провинция {province} присоединена силой ({government}).").format(
                        state=state, province=province.name, government=gov.name_ru
                    )
                )
            return
        mode = int(rules.param("plunder_mode"))
        if mode == 2:
            loot = Fraction(sum(province.population.values()))
            how = _("по 1 Д за каждого из {people}").format(people=speech.count(int(loot), "житель", case="gent"))
        else:
            count = max(self.provinces_before.get(loser, 1), 1)
            loot = max(self.opening.get(loser, victim.treasury), Fraction(0)) / count
            how = _("казна {treasury} Д ÷ {provinces}").format(
                treasury=fmt(self.opening.get(loser, victim.treasury)), provinces=speech.count(count, "провинция")
            )
            if loot:
                self.report.post(
                    MONEY,
                    loser, PHASE, "грабёж", -loot, _("разграблена провинция {province}").format(province=province.name)
                )
        if loot:
            self.report.post(
                MONEY,
                state,
                PHASE,
                "грабёж",
                loot,
                _("грабёж провинции {province}: {how}").format(province=province.name, how=how),
            )
        share = int(rules.param("enslave_share_percent"))
        slaves_n = sum(province.population.values()) * share // 100
        taken = lose_people(province, slaves_n)
        got = sum(taken.values())
        home = world.provinces.get(came_from or "")
        if home is None or home.owner != state:
            home = world.provinces.get(winner.capital)
        if got and home is not None:
            home.population["раб"] = home.population.get("раб", 0) + got
        province.owner = state
        self.captured[province.name] = loser
        told = dict(state=Name(state), province=province.name, loser=loser, loot=fmt(loot), how=how)
        if got and home is not None:
            people = ", ".join(f"{n} {s}" for s, n in taken.items())
            self.report.tell(
                _(
                    "{state} {state:занимает} провинцию {province} ({loser}): грабёж {loot} Д ({how}); "
                    "в рабство уведено {got} ({people}) → {home}."
                ).format(got=got, people=people, home=home.name, **told)
            )
        else:
            self.report.tell(
                _(
                    "{state} {state:занимает} провинцию {province} ({loser}): грабёж {loot} Д ({how}); "
                    "никого не увели в рабство."
                ).format(**told)
            )
        if victim.capital == province.name:
            before, after = shift_stability(victim, int(rules.param("capital_lost_stability")), rules)
            self.report.tell(
                _("{loser} {loser:потерял} столицу! {change}.").format(
                    loser=Name(loser), change=stability_change(before, after)
                )
            )
            known = [rules.techs[t] for t in victim.techs if t in rules.techs and t not in winner.techs]
            if known:
                prize = max(known, key=lambda t: (t.cost, t.name_ru))
                winner.techs.append(prize.name_ru)
                self.report.tell(
                    _("{state} {state:захватывает} знания побеждённого: технология «{tech}».").format(
                        state=Name(state), tech=prize.name_ru
                    )
                )
            rest = [p for p in world.provinces.values() if p.owner == loser]
            victim.capital = max(rest, key=lambda p: (sum(p.population.values()), p.name)).name if rest else ""
            if victim.capital:
                self.report.tell(_("{state}: новая столица — {capital}.").format(state=loser, capital=victim.capital))

    # ------------------------------------------------------------ orders

    def war_cost(self, state: str, units: dict[str, int], steps: int) -> None:
        """ANC-UPKEEP-02: a state at war pays 1 Д per unit per province moved."""
        if not self.world.enemies(state) or steps <= 0:
            return
        n = sum(units.values())
        cost = self.rules.param("war_move_cost") * n * steps
        if cost:
            self.report.post(
                MONEY,
                state,
                PHASE,
                "война: переходы",
                -cost,
                f"{speech.count(n, 'отряд')} × {speech.count(steps, 'провинция')}",
            )

    def march(self, order: March) -> str:
        world, rules = self.world, self.rules
        if order.by_sea:
            return self.land(order)
        army = world.armies.get(order.force)
        if army is None or army.state != order.state or not army.size():
            raise Refused(_("«{force}» — не ваша армия или в ней никого нет").format(force=order.force))
        start = army.province
        if start == order.to:
            raise Refused(_("армия уже в провинции {province}").format(province=order.to))
        tons = weight(army.units, rules)
        route, why = self.path(army.state, start, order.to, tons)
        if route is None:
            raise Refused(why)
        reach = moves(army.units, rules)
        left_provinces = [start, *route[:-1]]
        if all(rules.has_effect(world.provinces[p].buildings, "road") for p in left_provinces):
            reach += int(rules.param("road_bonus"))
        if len(route) > reach:
            raise Refused(
                _(
                    "до провинции {province} — {marches}, а запас хода армии — {reach} "
                    "(самый медленный отряд задаёт ход)"
                ).format(province=order.to, marches=speech.count(len(route), "переход"), reach=reach)
            )
        setting_out = dict(army.units)  # every unit that marched pays for its way (ANC-UPKEEP-02)
        prev = start
        for step, p in enumerate(route, start=1):
            province = world.provinces[p]
            if self.hostile_armies(army.state, p):
                result = self.land_battle(army, province, prev, by_sea=False)
                if result != "attacker":
                    self.war_cost(army.state, setting_out, step)
                    old = army.province
                    army.province = start
                    self._moved(army, old)
                    if not army.size():
                        return _("армия разбита в провинции {province}").format(province=p)
                    return _("поражение в провинции {province}: остатки ({units}) вернулись {start:куда}").format(
                        province=p, units=units_text(army.units, rules), start=Name(start)
                    )
                if not army.size():
                    return _("армия погибла в провинции {province}").format(province=p)
            prev = p
        old = army.province
        army.province = order.to
        self._moved(army, old)
        self.war_cost(army.state, setting_out, len(route))
        target = world.provinces[order.to]
        if target.owner != army.state and (not target.owner or world.at_war(army.state, target.owner)):
            self.occupy(army.state, target, start)
        return _("армия в провинции {province} ({marches})").format(
            province=order.to, marches=speech.count(len(route), "переход")
        )

    def land(self, order: March) -> str:
        """ANC-MOVE-10: the troops aboard land in a province on the fleet's sea zone, −2 in battle."""
        world, rules = self.world, self.rules
        fleet = world.fleets.get(order.force)
        if fleet is None or fleet.state != order.state:
            raise Refused(_("«{fleet}» — не ваш флот").format(fleet=order.force))
        if not fleet.cargo:
            raise Refused(_("на флоте «{fleet}» нет войск").format(fleet=fleet.name))
        province = world.provinces[order.to]
        if fleet.zone not in province.sea_zones:
            raise Refused(
                _("провинция {province} не выходит к морской зоне {zone}, где стоит флот").format(
                    province=order.to, zone=fleet.zone
                )
            )
        if (
            province.owner
            and province.owner != order.state
            and not (world.allied(order.state, province.owner) or world.at_war(order.state, province.owner))
        ):
            raise Refused(
                _("провинция {province} принадлежит государству {owner}, с которым нет войны").format(
                    province=order.to, owner=province.owner
                )
            )
        landing = Army(
            _("{state}: десант ({province})").format(state=order.state, province=order.to),
            order.state,
            order.to,
            dict(fleet.cargo),
        )
        fleet.cargo = {}
        if self.hostile_armies(order.state, order.to):
            result = self.land_battle(landing, province, None, by_sea=True)
            if result != "attacker":
                fleet.cargo = dict(landing.units)
                return _("высадка отбита: остатки ({units}) вернулись на корабли").format(
                    units=units_text(landing.units, rules)
                )
        army = army_at(world, order.state, order.to)
        for t, n in landing.units.items():
            army.units[t] = army.units.get(t, 0) + n
        if province.owner != order.state and (not province.owner or world.at_war(order.state, province.owner)):
            self.occupy(order.state, province, None)
        return _("войска высадились в провинции {province}").format(province=order.to)

    def embark(self, order: Embark) -> str:
        world, rules = self.world, self.rules
        army = world.armies.get(order.army)
        fleet = world.fleets.get(order.fleet)
        if army is None or army.state != order.state or not army.size():
            raise Refused(_("«{army}» — не ваша армия").format(army=order.army))
        if fleet is None or fleet.state != order.state:
            raise Refused(_("«{fleet}» — не ваш флот").format(fleet=order.fleet))
        province = world.provinces[army.province]
        if not rules.has_effect(province.buildings, "port"):
            raise Refused(
                _("грузиться на корабли можно только в порту, а в провинции {province} порта нет").format(
                    province=province.name
                )
            )
        if fleet.zone not in province.sea_zones:
            raise Refused(
                _("флот стоит в зоне {zone}, а провинция {province} к ней не выходит").format(
                    zone=fleet.zone, province=province.name
                )
            )
        tons = weight(army.units, rules)
        if tons is None:
            raise Refused(_("слонов корабли не возят (ANC-MOVE-09)"))
        room = capacity(fleet, rules) - (weight(fleet.cargo, rules) or 0)
        if tons > room:
            raise Refused(_("армия весит {tons} у.т., а на флоте свободно {room} у.т.").format(tons=tons, room=room))
        for t, n in army.units.items():
            fleet.cargo[t] = fleet.cargo.get(t, 0) + n
        army.units.clear()
        return _("погружено на «{fleet}» ({tons} у.т.)").format(fleet=fleet.name, tons=tons)

    def sail(self, order: Sail) -> str:
        world, rules = self.world, self.rules
        fleet = world.fleets.get(order.fleet)
        if fleet is None or fleet.state != order.state or not fleet.size():
            raise Refused(_("«{fleet}» — не ваш флот").format(fleet=order.fleet))
        if order.zone not in world.seas:
            raise Refused(_("нет морской зоны {zone}").format(zone=order.zone))
        route = self.sea_path(fleet.zone, order.zone)
        if route is None:
            raise Refused(_("из зоны {src} в зону {dst} моря нет").format(src=fleet.zone, dst=order.zone))
        own = [p for p in world.provinces.values() if p.owner == fleet.state]
        lighthouses = int(sum(rules.building_effect(p.buildings, "lighthouse") for p in own))
        discoveries = rules.tech_effect(world.states[fleet.state].techs, "ship_range")
        reach = min(moves(fleet.ships, rules) + lighthouses + discoveries, int(rules.param("ship_range_max")))
        if len(route) > reach:
            raise Refused(
                _("до зоны {zone} — {marches}, а запас хода флота — {reach}").format(
                    zone=order.zone, marches=speech.count(len(route), "переход"), reach=reach
                )
            )
        for z in route:
            enemies = [
                f for f in world.fleets.values() if f.zone == z and f.size() and world.at_war(fleet.state, f.state)
            ]
            if enemies:
                result = self.sea_battle(fleet, enemies, z)
                if result != "attacker":
                    return _("морской бой в зоне {zone}: флот остановлен ({units})").format(
                        zone=z, units=units_text(fleet.ships, rules)
                    )
            fleet.zone = z
        return _("флот в зоне {zone} ({marches})").format(zone=order.zone, marches=speech.count(len(route), "переход"))

    def sea_path(self, a: int, b: int) -> list[int] | None:
        graph: dict[int, set[int]] = {z: set() for z in self.world.seas}
        for z in self.world.seas.values():
            for n in z.neighbours:
                graph.setdefault(z.zone, set()).add(n)
                graph.setdefault(n, set()).add(z.zone)
        prev: dict[int, int] = {a: a}
        queue = deque([a])
        while queue:
            z = queue.popleft()
            if z == b:
                break
            for n in sorted(graph.get(z, ())):
                if n not in prev:
                    prev[n] = z
                    queue.append(n)
        if b not in prev:
            return None
        out = []
        z = b
        while z != a:
            out.append(z)
            z = prev[z]
        return out[::-1]

    def sea_battle(self, fleet: Fleet, enemies: list[Fleet], zone: int) -> str:
        """ANC-NAVY-13..15: the same table read without tactical advantage; a sunk ship drowns its troops."""
        rules, world = self.rules, self.world
        att = Side([fleet.state], dict(fleet.ships), government_modifier(world, [fleet.state], rules))
        pool: dict[str, int] = {}
        for f in enemies:
            for t, n in f.ships.items():
                pool[t] = pool.get(t, 0) + n
        dfn = Side([f.state for f in enemies], pool, government_modifier(world, [f.state for f in enemies], rules))
        outcome = judge(rules, "море", att.bo(rules, ""), dfn.bo(rules, ""))
        att_lost, att_dmg = pyramid(fleet.ships, outcome.attacker_loss, rules)
        def_lost, def_dmg = pyramid(pool, outcome.defender_loss, rules)
        remove(fleet.ships, att_lost)
        for t, n in def_lost.items():
            for f in enemies:
                take = min(n, f.ships.get(t, 0))
                if take:
                    remove(f.ships, {t: take})
                    n -= take
        drowned = self._drown(fleet) + functools.reduce(operator.iadd, (self._drown(f) for f in enemies), [])
        verdict = {
            "attacker": _("победа атакующего"),
            "defender": _("победа обороняющегося"),
            "draw": _.pgettext("исход боя", "ничья"),
        }[outcome.result]
        names = ", ".join(sorted({f.state for f in enemies}))
        dmg = "".join(
            _("; повреждён {ship} ({side})").format(ship=t, side=side)
            for t, side in ((att_dmg, fleet.state), (def_dmg, names))
            if t
        )
        drowned_txt = _(" Утонули с кораблями: {troops}.").format(troops=", ".join(drowned)) if drowned else ""
        self.report.tell(
            _(
                "Морской бой в зоне {zone}: {attacker} ({attacker_bo} БО: {attacker_units}) против {defenders} "
                "({defender_bo} БО: {defender_units}). Таблица боя, {cell}: {verdict}, потери {attacker_loss}/"
                "{defender_loss}: {attacker} — {attacker_lost}; {defenders} — {defender_lost}{damaged}.{drowned}"
            ).format(
                zone=zone,
                attacker=fleet.state,
                attacker_bo=outcome.attacker_bo,
                attacker_units=att.describe(rules, ""),
                defenders=names,
                defender_bo=outcome.defender_bo,
                defender_units=dfn.describe(rules, ""),
                cell=outcome.cell(),
                verdict=verdict,
                attacker_loss=outcome.attacker_loss,
                defender_loss=outcome.defender_loss,
                attacker_lost=units_text(att_lost, rules),
                defender_lost=units_text(def_lost, rules),
                damaged=dmg,
                drowned=drowned_txt,
            )
        )
        self.battles.append(
            Battle(
                zone=zone,
                attacker=fleet.state,
                attacker_bo=outcome.attacker_bo,
                defender_bo=outcome.defender_bo,
                result=outcome.result,
                losses=(outcome.attacker_loss, outcome.defender_loss),
                attacker_lost=att_lost,
                defender_lost=def_lost,
                row=outcome.band.row,
            )
        )
        return outcome.result

    def _drown(self, fleet: Fleet) -> list[str]:
        """Troops beyond what the surviving ships carry go down with the sunk ones (cheapest first)."""
        room = capacity(fleet, self.rules)
        out = []
        for t in sorted(fleet.cargo, key=lambda t: self.rules.units[t].value):
            while fleet.cargo.get(t, 0) > 0 and (weight(fleet.cargo, self.rules) or 0) > room:
                fleet.cargo[t] -= 1
                out.append(f"{t} ({fleet.state})")
            if not fleet.cargo.get(t):
                fleet.cargo.pop(t, None)
        return out

    def raze(self, order: Raze) -> str:
        province = self.world.provinces[order.province]
        if province.owner != order.state or province.name not in self.captured:
            raise Refused(
                _(
                    "разрушать можно только в провинции, захваченной в этот ход, "
                    "а провинцию {province} вы в этот ход не захватывали"
                ).format(province=province.name)
            )
        victims = [order.building] if order.building else list(province.buildings)
        gone = [b for b in victims if b in province.buildings]
        if not gone:
            raise Refused(
                _("в провинции {province} нет «{building}»").format(province=province.name, building=order.building)
            )
        for b in gone:
            province.buildings.remove(b)
        self.report.tell(
            _("{state} {state:разрушает} в провинции {province}: {buildings}.").format(
                state=Name(order.state), province=province.name, buildings=", ".join(gone)
            )
        )
        return _("разрушено: {buildings}").format(buildings=", ".join(gone))


def run(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    war = War(world, rules, report)
    for kinds in ((Embark, Sail, March), (Raze,)):
        for name in report.lot or sorted(world.states):
            for row, order in of(orders, name):
                if not isinstance(order, kinds):
                    continue
                try:
                    if isinstance(order, Embark):
                        reason = war.embark(order)
                    elif isinstance(order, Sail):
                        reason = war.sail(order)
                    elif isinstance(order, March):
                        reason = war.march(order)
                    else:
                        reason = war.raze(order)
                except Refused as exc:
                    report.result(row.ref, Status.REJECTED, str(exc))
                else:
                    report.result(row.ref, Status.DONE, reason)
    world.armies = {k: a for k, a in world.armies.items() if a.size()}
    return world
