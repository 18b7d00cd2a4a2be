"""Trade (ANC-TRADE-01..18, ANC-AI-03/04, ANC-STRATA-05): standing routes over the map.

Two steps. `routes` runs before the expenditures: it records transit permissions, closes and
opens routes, and works out which routes function this turn — a good that travels is the buyer's
to use in this same turn's expenditures, as the seed's Syria → Judea example shows (the catalogue's
proposal for ANC-TURN-08), and the seller cannot also use it at home (ANC-TRADE-11/15).
`income` is phase 6: the caravan's table income and the fair's half go into the ledger.

Distance is the number of steps over provinces and sea zones (China → Rome = 10). Land legs through
another province need a road there unless the seller knows «Караванная торговля», and the consent
of its owner (ally, vassal, or «Разрешить транзит»); the sea legs need a port where the route
leaves or reaches land, and no sea leg may be longer than the seller's best ship can sail.
"""

from __future__ import annotations

import itertools
from collections import Counter, deque
from dataclasses import dataclass
from fractions import Fraction

from engine.core.dice import Dice
from engine.core.money import fmt
from engine.core.orders import Status

from ..economy import Refused, shift_stability, stability_change
from ..facts import Report
from ..messages import _
from ..model import Campaign, Route, State
from ..orders import AllowTransit, CancelRoute, Trade
from ..resources import MONEY
from ..rules import Rules
from ..speech import Name, count
from ..staffing import garrisons, production, province_output
from ..turnorders import Orders, of

PHASE = "торговля"


@dataclass(frozen=True)
class Path:
    steps: list[tuple[str, object]]  # ("p", province) | ("z", zone), the start excluded
    blockade_zones: frozenset[int]

    @property
    def distance(self) -> int:
        return len(self.steps)

    def text(self) -> str:
        return " → ".join(str(n) if k == "p" else _("зона {zone}").format(zone=n) for k, n in self.steps)


def ship_range(world: Campaign, state: State, rules: Rules) -> int:
    """The longest sea leg a state's best ship allows (ANC-TRADE-08), lighthouses included."""
    best = 0
    for u in rules.units.values():
        if u.kind == "sea" and (not u.tech or u.tech in state.techs) and rules.built_at(u, "shipyard"):
            best = max(best, u.moves)
    if not best:
        return 0
    lighthouses = int(
        sum(rules.building_effect(p.buildings, "lighthouse") for p in world.provinces.values() if p.owner == state.name)
    )
    discoveries = rules.tech_effect(state.techs, "ship_range")  # ANC-NAVY-09: «открытия»
    return min(best + lighthouses + discoveries, int(rules.param("ship_range_max")))


def may_cross(world: Campaign, seller: str, buyer: str, owner: str) -> bool:
    return not owner or owner in (seller, buyer) or world.allied(seller, owner) or (owner, seller) in world.transit


def find_path(
    world: Campaign, rules: Rules, seller: str, buyer: str, src: str, dst: str, sea_max: int | None = None
) -> tuple[Path | None, str]:
    """The shortest legal trade path, or why there is none (`sea_max`: the seller's ship range, if known)."""
    st = world.states[seller]
    caravan_techs = rules.techs_with("caravans")  # land trade without roads
    caravans = any(t in st.techs for t in caravan_techs)
    if sea_max is None:
        sea_max = ship_range(world, st, rules)
    zone_graph: dict[int, tuple[int, ...]] = {}
    for z in world.seas.values():
        zone_graph.setdefault(z.zone, ())
        zone_graph[z.zone] = tuple(sorted(set(zone_graph[z.zone]) | set(z.neighbours)))
        for n in z.neighbours:
            zone_graph[n] = tuple(sorted(set(zone_graph.get(n, ())) | {z.zone}))
    start = (("p", src), 0)
    prev: dict[tuple[tuple[str, object], int], tuple[tuple[str, object], int] | None] = {start: None}
    queue = deque([start])
    why = ""
    found = None
    while queue:
        node, run = queue.popleft()
        kind, name = node
        if node == ("p", dst):
            found = (node, run)
            break
        nexts: list[tuple[tuple[str, object], int]] = []
        if kind == "p":
            p = world.provinces[str(name)]
            if name not in (src, dst) and not caravans and not rules.has_effect(p.buildings, "road"):
                # a transit province on a land leg needs a road, unless the seller knows caravan trade
                why = why or _("в транзитной провинции {province} нет дороги (или изучите «{tech}»)").format(
                    province=name, tech="», «".join(caravan_techs)
                )
                continue
            for n in sorted(world.neighbours(str(name))):
                q = world.provinces[n]
                if not may_cross(world, seller, buyer, q.owner):
                    why = why or _("нет согласия владельца провинции {province} ({owner}) на транзит").format(
                        province=n, owner=q.owner
                    )
                    continue
                nexts.append((("p", n), 0))
            port = rules.has_effect(p.buildings, "port")
            if p.coastal and port and sea_max:
                nexts += [(("z", z), 1) for z in p.sea_zones]
            elif p.coastal and name == src and not port:
                why = why or _("для морской торговли нужен порт в провинции {province}").format(province=name)
        else:
            zone = int(name)  # type: ignore[arg-type]
            if run < sea_max:
                nexts += [(("z", z), run + 1) for z in zone_graph.get(zone, ())]
            elif sea_max:
                longest = count(sea_max, "зона", case="gent")
                why = why or _("морское «плечо» длиннее {zones} (лучший корабль государства)").format(zones=longest)
            for p in world.provinces.values():
                if zone in p.sea_zones and p.coastal:
                    if not rules.has_effect(p.buildings, "port"):
                        if p.name == dst:
                            why = why or _("для морской торговли нужен порт в провинции {province}").format(
                                province=dst
                            )
                        continue
                    if may_cross(world, seller, buyer, p.owner):
                        nexts.append((("p", p.name), 0))
        for nxt in nexts:
            if nxt not in prev:
                prev[nxt] = (node, run)
                queue.append(nxt)
    if found is None:
        return None, why or _("нет пути {src:откуда} {dst:куда}").format(src=Name(src), dst=Name(dst))
    steps: list[tuple[str, object]] = []
    cur: tuple[tuple[str, object], int] | None = found
    while cur is not None and cur != start:
        steps.append(cur[0])
        cur = prev[cur]
    steps.reverse()
    zones: set[int] = set()
    chain = [("p", src), *steps]
    for a, b in itertools.pairwise(chain):
        if a[0] == "p" and b[0] == "p":
            border = world.border(str(a[1]), str(b[1]))
            if border is not None and border.kind == "strait":
                zones |= set(world.provinces[str(a[1])].sea_zones) & set(world.provinces[str(b[1])].sea_zones)
    return Path(steps, frozenset(zones)), ""


def _forces(world: Campaign) -> tuple[dict[str, list[str]], dict[int, list[str]]]:
    """Who has troops in each province and ships in each sea zone (built once per phase)."""
    armies: dict[str, list[str]] = {}
    for a in world.armies.values():
        if a.size():
            armies.setdefault(a.province, []).append(a.state)
    fleets: dict[int, list[str]] = {}
    for f in world.fleets.values():
        if f.size():
            fleets.setdefault(f.zone, []).append(f.state)
    return armies, fleets


def _blockade(
    world: Campaign,
    route: Route,
    path: Path,
    report: Report,
    forces: tuple[dict[str, list[str]], dict[int, list[str]]] | None = None,
) -> str:
    """ANC-TRADE-12..14: enemies, pirates or rebels anywhere on the route stop it this turn."""
    sides = {route.seller, route.buyer}
    provinces = [route.src, *(str(n) for k, n in path.steps if k == "p")]
    zones = {int(n) for k, n in path.steps if k == "z"} | set(path.blockade_zones)  # type: ignore[arg-type]
    armies, fleets = forces or _forces(world)
    for p in provinces:
        for owner in armies.get(p, ()):
            if any(world.at_war(owner, s) for s in sides if s):
                return _("блокада: в провинции {province} войска государства {owner}").format(province=p, owner=owner)
    for z in sorted(zones):
        for owner in fleets.get(z, ()):
            if any(world.at_war(owner, s) for s in sides if s):
                return _("блокада: в морской зоне {zone} флот государства {owner}").format(zone=z, owner=owner)
    pirates = zones & report.facts.pirates
    if pirates:
        return _("пираты в морской зоне {zone}").format(zone=min(pirates))
    revolts = set(provinces) & report.facts.revolts
    if revolts:
        return _("восстание в провинции {province}").format(province=min(revolts))
    return ""


def _influence(world: Campaign, state: str, ai: str) -> int:
    """ANC-AI-04 (documented default): borders with the AI state's provinces plus its routes with it."""
    mine = {p.name for p in world.provinces.values() if p.owner == state}
    theirs = [p.name for p in world.provinces.values() if p.owner == ai]
    borders = sum(1 for p in theirs for n in world.neighbours(p) if n in mine)
    routes = sum(1 for r in world.routes if {r.seller, r.buyer} == {state, ai})
    return borders + routes


def _can_sell(world: Campaign, rules: Rules, route: Route, held: frozenset[tuple[str, str]] | None = None) -> str:
    src = world.provinces[route.src]
    dst = world.provinces[route.dst]
    if src.owner != route.seller:
        return _("провинция {province} больше не принадлежит продавцу").format(province=route.src)
    held = held if held is not None else garrisons(world)
    out = province_output(src, rules, world, held)
    if out[route.good] <= 0:
        made = sorted(g for g, n in out.items() if n > 0)
        if not made:
            return _("провинция {province} не производит «{good}» — она ничего не производит").format(
                province=route.src, good=route.good
            )
        return _("провинция {province} не производит «{good}» (производит: {made})").format(
            province=route.src, good=route.good, made=", ".join(made)
        )
    if province_output(dst, rules, world, held)[route.good] > 0:
        return _("провинция {province} сама производит «{good}» — торговать одинаковым товаром нельзя").format(
            province=route.dst, good=route.good
        )
    return ""


def routes(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    """Before phase 4: permissions, closures, new routes, and which routes function this turn."""
    lot = report.lot or sorted(world.states)
    report.facts.garrisons = garrisons(world)
    for name in lot:
        for row, o in of(orders, name):
            if isinstance(o, AllowTransit):
                world.transit.add((name, o.other))
                report.result(
                    row.ref,
                    Status.DONE,
                    _("караваны государства {other} могут ходить через ваши провинции").format(other=o.other),
                )
            elif isinstance(o, CancelRoute):
                gone = [
                    r
                    for r in world.routes
                    if r.src == o.src
                    and r.dst == o.dst
                    and (not o.good or r.good == o.good)
                    and name in (r.seller, r.buyer)
                ]
                if not gone:
                    report.result(
                        row.ref, Status.REJECTED, _("нет вашего маршрута {src} → {dst}").format(src=o.src, dst=o.dst)
                    )
                    continue
                for r in gone:
                    world.routes.remove(r)
                note = ""
                if any(r.seller != r.buyer for r in gone):
                    before, after = shift_stability(
                        world.states[name], int(rules.param("break_treaty_stability")), rules
                    )
                    note = _("; разрыв торгового договора: {change}").format(change=stability_change(before, after))
                report.tell(
                    _("{state}: закрыт маршрут {src} → {dst}{note}.").format(
                        state=name, src=o.src, dst=o.dst, note=note
                    )
                )
                report.result(row.ref, Status.DONE, _("маршрут закрыт{note}").format(note=note))
    for name in lot:
        for row, o in of(orders, name):
            if isinstance(o, Trade):
                try:
                    text = _open(world, rules, report, o)
                except Refused as exc:
                    report.result(row.ref, Status.REJECTED, str(exc))
                    report.tell(
                        _("{state}: маршрут {src} → {dst} ({good}) отклонён — {why}.").format(
                            state=name, src=o.src, dst=o.dst, good=o.good, why=exc
                        )
                    )
                else:
                    report.result(row.ref, Status.DONE, text)
    _run_routes(world, rules, report, lot)
    return world


def _open(world: Campaign, rules: Rules, report: Report, o: Trade) -> str:
    seller = o.state
    src, dst = world.provinces[o.src], world.provinces[o.dst]
    if src.owner != seller:
        raise Refused(_("провинция {province} не ваша").format(province=o.src))
    buyer = dst.owner
    if not buyer:
        raise Refused(_("провинция {province} ничья — торговать не с кем").format(province=o.dst))
    if world.at_war(seller, buyer):
        raise Refused(_("с государством {other} идёт война").format(other=buyer))
    if any(r.src == o.src and r.dst == o.dst and r.good == o.good for r in world.routes):
        raise Refused(_("такой маршрут уже есть"))
    route = Route(seller, o.src, o.good, o.dst, buyer, report.turn)
    why = _can_sell(world, rules, route, report.facts.garrisons)
    if why:
        raise Refused(why)
    limit = int(rules.param("outgoing_routes")) + int(rules.building_effect(src.buildings, "routes"))
    if world.states[seller].capital == src.name:
        limit += rules.tech_effect(world.states[seller].techs, "capital_routes")
    if world.states[seller].ai:
        limit = int(rules.param("ai_routes_out"))
    out = [r for r in world.routes if r.src == o.src]
    if len(out) >= limit:
        markets = rules.buildings_with("routes")
        has_market = rules.has_effect(src.buildings, "routes")
        text = (
            _("у провинции {province} уже {routes} из {limit}")
            if has_market or not markets
            else _("у провинции {province} уже {routes} из {limit} (второй даёт {market} — Форум)")
        )
        raise Refused(
            text.format(province=o.src, routes=count(len(out), "исходящий маршрут"), limit=limit,
                        market=markets[0] if markets else "")
        )
    reach = rules.trade_reach(o.good)
    if reach is None:
        raise Refused(_("«{good}» нет в таблице торговли").format(good=o.good))
    path, why = find_path(world, rules, seller, buyer, o.src, o.dst)
    if path is None:
        raise Refused(why)
    if path.distance > reach:
        raise Refused(
            _("«{good}» не довезти: путь — {steps}, а по таблице торговли — не дальше {reach}").format(
                good=o.good, steps=count(path.distance, "шаг"), reach=count(reach, "шаг", case="gent")
            )
        )
    route.distance, route.path = path.distance, path.text()
    world.routes.append(route)
    steps = count(path.distance, "шаг")
    report.tell(
        _("{state}: открыт маршрут {src} → {dst} ({good}, {steps}; {path}).").format(
            state=seller, src=o.src, dst=o.dst, good=o.good, steps=steps, path=path.text()
        )
    )
    return _("маршрут открыт: {steps} ({path})").format(steps=steps, path=path.text())


def _run_routes(world: Campaign, rules: Rules, report: Report, lot: list[str]) -> None:
    """Which routes work this turn; goods move now, money is booked in phase 6."""
    goods = report.facts.goods
    if goods is None:
        goods = report.facts.goods = production(world, rules)
    sold: Counter[str] = Counter()
    incoming: dict[str, list[Route]] = {}
    order = {s: i for i, s in enumerate(lot)}
    live: list[tuple[Route, Path]] = []
    held = garrisons(world)
    forces = _forces(world)
    ranges: dict[str, int] = {}
    for route in sorted(world.routes, key=lambda r: (order.get(r.seller, 0), r.since, r.row)):
        route.seller_income = route.buyer_income = Fraction(0)
        route.buyer = world.provinces[route.dst].owner
        why = _can_sell(world, rules, route, held)
        path = None
        if not why:
            if route.seller not in ranges:
                ranges[route.seller] = ship_range(world, world.states[route.seller], rules)
            path, why = find_path(world, rules, route.seller, route.buyer, route.src, route.dst, ranges[route.seller])
        if path is not None and not why:
            reach = rules.trade_reach(route.good) or 0
            if path.distance > reach:
                far = count(reach, "шаг", case="gent")
                why = _("путь — {steps}, а «{good}» везут не дальше {reach}").format(
                    steps=count(path.distance, "шаг"), good=route.good, reach=far
                )
        if (
            path is not None
            and not why
            and sold[(route.src, route.good)]
            >= province_output(world.provinces[route.src], rules, world, held)[route.good]
        ):
            why = _("всё, что провинция {province} производит из «{good}», уже продано").format(
                province=route.src, good=route.good
            )
        if path is not None and not why and goods.get(route.seller, Counter())[route.good] <= 0:
            why = _("товар «{good}» уже израсходован").format(good=route.good)
        if path is not None and not why:
            why = _blockade(world, route, path, report, forces)
        if why or path is None:
            route.status = _("ход {turn}: не работает — {why}").format(turn=report.turn, why=why)
            report.tell(
                _("Маршрут {src} → {dst} ({good}, {seller}) не работает: {why}.").format(
                    src=route.src, dst=route.dst, good=route.good, seller=route.seller, why=why
                )
            )
            continue
        route.distance, route.path = path.distance, path.text()
        sold[(route.src, route.good)] += 1
        live.append((route, path))
        incoming.setdefault(route.dst, []).append(route)
    # ANC-AI-03/04: an AI province takes one incoming route; the stronger influence wins
    dropped: set[int] = set()
    for dst, rs in incoming.items():
        owner = world.provinces[dst].owner
        limit = int(rules.param("ai_routes_in"))
        if owner and world.states[owner].ai and len(rs) > limit:
            ranked = sorted(rs, key=lambda r: (-_influence(world, r.seller, owner), r.since, order.get(r.seller, 0)))
            for r in ranked[limit:]:
                dropped.add(id(r))
                world.routes.remove(r)
                report.tell(
                    _(
                        "{owner} (ИИ) {owner:выбирает} торговлю с {winner:ablt}: маршрут {src} → {dst} "
                        "государства {seller} расторгнут (влияние {influence} против {best})."
                    ).format(
                        owner=Name(owner),
                        winner=Name(ranked[0].seller),
                        src=r.src,
                        dst=r.dst,
                        seller=r.seller,
                        influence=_influence(world, r.seller, owner),
                        best=_influence(world, ranked[0].seller, owner),
                    )
                )
    fair = rules.param("fair_share_percent") / 100
    internal = rules.param("internal_share_percent") / 100
    pending = report.facts.trade_income
    counts = report.facts.routes
    for route, path in live:
        if id(route) in dropped:
            continue
        value = rules.trade_income(route.good, path.distance) or Fraction(0)
        goods[route.seller][route.good] -= 1
        if route.seller != route.buyer:  # internal trade: the good is traded, not also used at home (ANC-TRADE-15)
            goods.setdefault(route.buyer, Counter())[route.good] += 1
        if rules.is_food(route.good):
            food_sold = report.facts.food_sold
            food_sold[route.seller] = food_sold.get(route.seller, 0) + 1
        if rules.good_has(route.good, "slave_route"):  # ANC-STRATA-05: a slave route gives the buyer a slave
            dst = world.provinces[route.dst]
            dst.population["раб"] = dst.population.get("раб", 0) + 1
        if rules.is_food(route.good) and route.seller != route.buyer:
            food_bought = report.facts.food_bought
            food_bought[route.buyer] = food_bought.get(route.buyer, 0) + 1
        if route.seller == route.buyer:
            route.seller_income, route.buyer_income = Fraction(0), value * internal
        else:
            route.seller_income, route.buyer_income = value, value * fair
        counts[route.seller] = counts.get(route.seller, 0) + 1
        route.status = _("ход {turn}: работает").format(turn=report.turn)
        pending.append(route)


def income(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    """Phase 6 (ANC-TRADE-09/10/16): the caravan's income and the fair's half."""
    for route in report.facts.trade_income:
        internal = route.seller == route.buyer
        if route.seller_income:
            report.post(
                MONEY,
                route.seller,
                PHASE,
                "торговля",
                route.seller_income,
                _("караван: {good}, {src} → {dst}, {steps}").format(
                    good=route.good, src=route.src, dst=route.dst, steps=count(route.distance, "шаг")
                ),
            )
        if route.buyer_income:
            side = (
                _("внутренняя торговля: {good}, {src} → {dst}, {steps}")
                if internal
                else _("ярмарка: {good}, {src} → {dst}, {steps}")
            )
            report.post(
                MONEY,
                route.buyer,
                PHASE,
                "торговля",
                route.buyer_income,
                side.format(good=route.good, src=route.src, dst=route.dst, steps=count(route.distance, "шаг")),
            )
        told = (
            _("Маршрут {src} → {dst} ({good}, {steps}): {buyer} +{buyer_income} Д (внутренняя торговля).")
            if internal
            else _("Маршрут {src} → {dst} ({good}, {steps}): {seller} +{seller_income} Д, {buyer} +{buyer_income} Д.")
        )
        report.tell(
            told.format(
                src=route.src,
                dst=route.dst,
                good=route.good,
                steps=count(route.distance, "шаг"),
                seller=route.seller,
                seller_income=fmt(route.seller_income),
                buyer=route.buyer,
                buyer_income=fmt(route.buyer_income),
            )
        )
    return world
