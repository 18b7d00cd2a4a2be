"""Phase 3, colonisation of neutral provinces (ANC-TURN-11, ANC-MISC-03/04).

The seed names the phase but never describes colonisation; our documented default
(docs/rules-decisions.md): a state colonises a grey province that borders one of its own
(by land, or by a shared sea zone between two coastal provinces) for «colonise_cost» Д and
«colonise_settlers» people taken from that neighbour; the province is the state's this turn.
A government whose «Колонизация» is «нет» (anarchy) cannot colonise. When two states reach
for the same province, the lot decides.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.money import fmt
from engine.core.orders import Status

from ..economy import Refused, budget
from ..facts import Report
from ..messages import _
from ..model import Campaign, Province, State
from ..orders import Colonise
from ..resources import MONEY
from ..rules import Rules
from ..speech import Name, count
from ..turnorders import Orders, of
from ..vocab import STRATA

PHASE = "колонизация"


def _neighbours(world: Campaign, p: Province) -> list[Province]:
    out = [world.provinces[n] for n in world.neighbours(p.name) if n in world.provinces]
    if p.coastal and p.sea_zones:
        zones = set(p.sea_zones)
        out += [
            q
            for q in world.provinces.values()
            if q.name != p.name and q.coastal and zones & set(q.sea_zones) and q not in out
        ]
    return out


def colonise(world: Campaign, state: State, order: Colonise, rules: Rules, report: Report) -> str:
    target = world.provinces[order.province]
    gov = rules.governments.get(state.government)
    if gov is not None and not gov.colonise:
        raise Refused(_("при форме правления «{government}» колонизация невозможна").format(government=gov.name_ru))
    if target.owner:
        raise Refused(
            _("провинция {province} уже принадлежит государству {owner}").format(
                province=target.name, owner=target.owner
            )
        )
    settlers = int(rules.param("colonise_settlers"))
    sources = [q for q in _neighbours(world, target) if q.owner == state.name]
    if not sources:
        raise Refused(
            _("провинция {province} не граничит ни с одной вашей провинцией (ни по суше, ни по морю)").format(
                province=target.name
            )
        )
    strata = [order.stratum] if order.stratum else [s for s in STRATA if s in ("СГ", "раб")]  # codes
    choice = next(
        ((q, s) for q in sorted(sources, key=lambda q: q.name) for s in strata if q.population.get(s, 0) >= settlers),
        None,
    )
    if choice is None:
        raise Refused(
            _("нужно {settlers} ({strata}) в одной из соседних своих провинций: {provinces}").format(
                settlers=count(settlers, "поселенец"),
                strata=_(" или ").join(strata),
                provinces=", ".join(q.name for q in sources),
            )
        )
    source, stratum = choice
    cost = rules.param("colonise_cost")
    budget(world, report).take(state.name, cost, _("колонизацию провинции {province}").format(province=target.name))
    source.population[stratum] -= settlers
    target.population[stratum] = target.population.get(stratum, 0) + settlers
    target.owner = state.name
    report.post(
        MONEY,
        state.name,
        PHASE,
        "колонизация",
        -cost,
        _("колонизация провинции {province}").format(province=target.name),
        order.row.ref,
    )
    told = dict(province=target.name, n=settlers, stratum=stratum, source=Name(source.name), cost=fmt(cost))
    report.tell(
        _("{state}: колонизирована провинция {province} ({n} {stratum} {source:откуда}, −{cost} Д).").format(
            state=state.name, **told
        )
    )
    return _("провинция {province} колонизирована: {n} {stratum} {source:откуда}, {cost} Д").format(**told)


def run(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    for name in report.lot or sorted(world.states):
        state = world.states[name]
        for row, order in of(orders, name):
            if not isinstance(order, Colonise):
                continue
            try:
                reason = colonise(world, state, order, rules, report)
            except Refused as exc:
                report.result(row.ref, Status.REJECTED, str(exc))
            else:
                report.result(row.ref, Status.DONE, reason)
    return world
