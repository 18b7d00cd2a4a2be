"""Diplomacy at the start of phase 4 (ANC-TURN-05, ANC-MISC-07): declarations of war, peace,
alliances and vassalage, with their stability effects (ANC-STAB-02, -09, -10, -11).

War is declared by one side. Peace, an alliance and vassalage need the orders of both sides in
the same turn (the vassal's «Стать вассалом» and the suzerain's «Принять вассала»); a proposal
to an AI state waits for the GM, who records the answer in «Дипломатия».
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.orders import Status

from ..economy import shift_stability, stability_change
from ..facts import Report
from ..messages import _
from ..model import Campaign, Relation
from ..orders import Diplomacy
from ..rules import Rules
from ..speech import Name
from ..turnorders import Orders, of

PAIRED = {"peace": "peace", "alliance": "alliance", "vassal": "accept_vassal", "accept_vassal": "vassal"}


def _set(world: Campaign, a: str, b: str, kind: str, turn: int) -> None:
    world.relations = [r for r in world.relations if {r.a, r.b} != {a, b}]
    if kind != "peace":
        world.relations.append(Relation(a, b, kind, turn))


def run(world: Campaign, orders: Orders, dice: Dice, rules: Rules, report: Report) -> Campaign:
    wanted: set[tuple[str, str, str]] = set()
    rows: list[tuple[str, Diplomacy]] = []
    for name in report.lot or sorted(world.states):
        for row, order in of(orders, name):
            if isinstance(order, Diplomacy):
                wanted.add((name, order.kind, order.other))
                rows.append((row.ref, order))
    done: set[tuple[tuple[str, ...], str]] = set()
    for ref, o in rows:
        me, other = Name(o.state), Name(o.other)
        st = world.states[me]
        rel = world.relation(me, other)
        if o.kind == "war":
            if rel is not None and rel.kind == "war":
                report.result(ref, Status.REJECTED, _("война с государством {other} уже идёт").format(other=other))
                continue
            on_vassal = rel is not None and rel.kind == "vassal" and rel.a == me
            delta = int(rules.param("declare_war_on_vassal_stability" if on_vassal else "declare_war_stability"))
            _set(world, me, other, "war", report.turn)
            before, after = shift_stability(st, delta, rules)
            change = stability_change(before, after)
            told = (
                _("{me} {me:объявляет} войну своему вассалу {other:datv}! {change}.")
                if on_vassal
                else _("{me} {me:объявляет} войну {other:datv}! {change}.")
            )
            report.tell(told.format(me=me, other=other, change=change))
            report.result(ref, Status.DONE, _("война объявлена; {change}").format(change=change))
            continue
        if o.kind == "break_vassal":
            if rel is None or rel.kind != "vassal":
                report.result(
                    ref, Status.REJECTED, _("с государством {other} нет вассального договора").format(other=other)
                )
                continue
            _set(world, me, other, "peace", report.turn)
            before, after = shift_stability(st, int(rules.param("break_vassal_stability")), rules)
            change = stability_change(before, after)
            report.tell(
                _("{me} {me:разрывает} вассальный договор с {other:ablt}. {change}.").format(
                    me=me, other=other, change=change
                )
            )
            report.result(ref, Status.DONE, _("договор разорван; {change}").format(change=change))
            continue
        answer = PAIRED[o.kind]
        if (other, answer, me) not in wanted:
            if world.states[other].ai:
                report.result(
                    ref,
                    Status.ACCEPTED,
                    _("{other} — ИИ-государство: ответ даст ведущий (лист «Дипломатия»)").format(other=other),
                )
            else:
                report.result(
                    ref, Status.REJECTED, _("нет встречного приказа государства {other} в этот ход").format(other=other)
                )
            continue
        key = (tuple(sorted((me, other))), o.kind if o.kind in ("peace", "alliance") else "vassal")
        if key in done:
            report.result(ref, Status.DONE, _("договор заключён"))
            continue
        if o.kind == "peace" and (rel is None or rel.kind != "war"):
            report.result(ref, Status.REJECTED, _("с государством {other} нет войны").format(other=other))
            continue
        done.add(key)
        if o.kind == "peace":
            _set(world, me, other, "peace", report.turn)
            report.tell(_("{me} и {other} заключили мир.").format(me=me, other=other))
        elif o.kind == "alliance":
            _set(world, me, other, "alliance", report.turn)
            report.tell(_("{me} и {other} заключили союз.").format(me=me, other=other))
        else:
            vassal, suzerain = (me, other) if o.kind == "vassal" else (other, me)
            _set(world, suzerain, vassal, "vassal", report.turn)
            before, after = shift_stability(world.states[vassal], int(rules.param("become_vassal_stability")), rules)
            report.tell(
                _("{vassal} {vassal:становится} вассалом {suzerain:gent}; {change}.").format(
                    vassal=vassal, suzerain=suzerain, change=stability_change(before, after)
                )
            )
        report.result(ref, Status.DONE, _("договор заключён"))
    return world
