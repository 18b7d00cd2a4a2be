"""The ancient game as the core's window runner drives it (engine/core/runner.py): `Ancient`.

One window is one turn (the calendar has no stages). The runner reads the order tabs, judges
the rows, runs `PHASES` in the seed's order, audits the treasury and science of every state
against the ledger, and writes; this class only answers what the ancient game says: its campaign
as codec.py decodes it (once per pass: `bind`), its orders (orders.py), its tabs and words. A check
is run twice by the runner (`lot_probe`): with the lot in the states' name order and reversed; a
row whose result differs depends on the lot and says only that.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import meta, ordertab, runner, session
from engine.core import summary as summaries
from engine.core import tabs as tabs_core
from engine.core.dice import Dice, commitment, cursor_seed
from engine.core.errors import CampaignError, InvalidOrder, Problem
from engine.core.i18n import N_
from engine.core.ledger import movements
from engine.core.orders import OrderResult, OrderRow, Status
from engine.core.ordertab import OrderTab
from engine.core.runner import Given, Judged, Log, OrderLayout, WindowGame
from engine.core.tables import Cell, Changeset, Grid, ReplaceTab, Tables, WriteBlock, is_blank
from engine.core.turn import Phase

from . import codec, orderchecks, public, tabset
from . import orders as order_mod
from .calendar import CALENDAR
from .facts import Report, new_report
from .messages import _
from .model import Campaign
from .phases import balance, colonisation, diplomacy, endturn, events, expenses, lot, population, taxes, trade, war
from .resources import MONEY, RESOURCES, SHOWN
from .rules import Rules
from .ruleset import NAME, meta_grid, open_status
from .vocab import ARCHIVE, ARMIES, BALANCE_TAB, CHRONICLE, DIPLOMACY, FLEETS, LEDGER, ROUTES, TRANSIT

PHASES: tuple[Phase[Campaign], ...] = (
    Phase("жребий", lot.run),  # ANC-TURN-07
    Phase("события", events.run),  # 1, ANC-TURN-09
    Phase("население", population.run),  # 2, ANC-TURN-10
    Phase("колонизация", colonisation.run),  # 3, ANC-TURN-11
    Phase("дипломатия", diplomacy.run),  # 4, ANC-TURN-05, ANC-MISC-07
    Phase("маршруты", trade.routes),  # goods on the routes, usable in phase 4 (ANC-TRADE-10)
    Phase("расходы", expenses.run),  # 4, ANC-TURN-12
    Phase("война", war.run),  # «4», ANC-TURN-13
    Phase("налоги", taxes.run),  # 5, ANC-TURN-14
    Phase("торговля", trade.income),  # 6, ANC-TURN-15
    Phase("итоги", endturn.run),  # 7, ANC-TURN-16 (food, science, stability)
    Phase("баланс", balance.run),  # 7, ANC-TURN-16
)

DICE_NOTE = N_("исход зависит от жребия хода")
LOT_NOTE = N_("очерёдность государств")
LOGS = {"chronicle": CHRONICLE, "ledger": LEDGER, "archive": ARCHIVE}
# the world's optional tabs (a campaign made before war or trade lacks them: the resolve makes them)
FORCES = ((ARMIES, codec.armies_grid), (FLEETS, codec.fleets_grid), (DIPLOMACY, codec.diplomacy_grid),
          (ROUTES, codec.routes_grid), (TRANSIT, codec.transit_grid))


class Ancient(WindowGame[Campaign, Rules]):
    """What the core's window runner asks of the ancient game; a bound instance (`bind`) holds the
    campaign of one pass as codec.py decoded it."""

    calendar = CALENDAR
    layout = OrderLayout(codec.ORDER_INPUT_FIELDS, notes=codec.NOTE_FIELDS, archived=codec.ARCHIVED_INPUTS)
    resources = RESOURCES
    lot_probe = True

    def __init__(self, read: codec.Decoded | None = None, tab_ids: dict[str, str] | None = None) -> None:
        self._read = read
        self.tab_ids = tab_ids

    def bind(self, tables: Tables, tab_ids: dict[str, str] | None) -> Ancient:
        """The campaign decoded once for this pass (every problem of it listed in one CampaignError)."""
        return type(self)(codec.decode(tables, tab_ids), tab_ids)

    @property
    def d(self) -> codec.Decoded:
        if self._read is None:
            raise RuntimeError("Ancient: a pass reads the campaign first (WindowGame.bind)")
        return self._read

    # ---------------------------------------------------------------- reading

    def lang(self, tables: Tables) -> str:
        return codec.lang_of(tables)

    def rules(self, tables: Tables) -> Rules:
        return self.d.rules

    def decode(self, tables: Tables, at: Any, rules: Rules) -> Campaign:
        c = self.d.campaign
        ai_stability = int(rules.params.get("ai_stability", 0))
        for st in c.states.values():
            if st.ai:  # ANC-AI-02: an AI state's stability is always the fixed value, whatever the sheet says
                st.stability = ai_stability
        return c

    def sides(self, world: Campaign) -> tuple[str, ...]:
        return tuple(world.states)

    def new_report(self, at: Any, lang: str, world: Campaign) -> Report:
        return new_report(at.turn, lang)

    def order_tab(self, tables: Tables, side: str, lang: str) -> OrderTab | None:
        return self.d.order_tabs.get(side)

    def tab_problems(self) -> dict[str, str]:
        """Played state -> why its order tab cannot be read (missing, or several look-alikes)."""
        found, lang = self.d.found, self.d.campaign.lang
        if found is None:
            return {}
        out = {st: tabset.order_tab_problem(st, title, None, lang) for st, title in found.missing_orders.items()}
        for st, tabs in found.ambiguous_orders.items():
            out[st] = tabset.order_tab_problem(st, "", tabs, lang)
        return out

    def missing_tab(self, j: Judged[Campaign, Rules], side: str, resolving: bool) -> None:
        """A played state whose order tab cannot be found stops the resolve (it never silently
        sends nothing); a check has warned of it (`begin`). A state under AI has no order tab."""
        missing = self.tab_problems()
        if resolving and missing:
            tail = _(". Ничего не изменено.")
            states = self.d.tabs["states"]
            raise CampaignError([Problem(states, j.world.states[st].row, "", m + tail) for st, m in missing.items()])

    def begin(self, j: Judged[Campaign, Rules]) -> None:
        report, c = j.report, j.opening
        for text in self.d.warnings:
            report.warn(text)
        for problem in self.tab_problems().values():
            report.warn(_("{problem} — его приказы не прочитаны").format(problem=problem))
        report.facts.start_stability = {n: s.stability for n, s in c.states.items()}
        report.facts.start_government = {n: s.government for n, s in c.states.items()}
        report.facts.opening = {n: s.treasury for n, s in c.states.items()}
        j.extra["vocab"] = order_mod.Vocabulary(j.world, j.rules)

    def settled(self, row: OrderRow, stamp: Cell, j: Judged[Campaign, Rules]) -> bool:
        """Every row with input is an order of the open turn: resolve clears the input cells of the
        rows it executes (docs/orders.md, «Which turn a row belongs to»). Only a campaign resolved
        before that rule has rows of earlier turns with input left; such a row is history while it
        still holds exactly what «Архив приказов» keeps for it."""
        if isinstance(stamp, bool) or not isinstance(stamp, (int, float)) or int(stamp) >= j.at.turn:
            return False
        return self.d.archived.get((int(stamp), row.state, row.row)) == codec.row_inputs(row)

    def parse(self, row: OrderRow, j: Judged[Campaign, Rules]) -> order_mod.Order:
        return order_mod.parse(row, j.extra["vocab"])

    def describe(self, order: order_mod.Order, j: Judged[Campaign, Rules]) -> str:
        return order.describe()

    def refused(self, row: OrderRow, error: InvalidOrder, j: Judged[Campaign, Rules]) -> OrderResult:
        """Refused as written, with what was typed as its echo (the row's own tab goes without saying)."""
        return OrderResult(Status.REJECTED, str(error).replace(f"{row.tab}!", "", 1), codec.raw_echo(row))

    def ready(self, j: Judged[Campaign, Rules]) -> None:
        j.report.facts.sent = set(j.present)
        orderchecks.warn_no_actions_with_orders(((ot.side, ot.rows) for ot in j.tabs.values()), j.orders, j.report)

    def phases(self, at: Any) -> tuple[Phase[Campaign], ...]:
        """The seed's phases, each named in the campaign's language (the progress bar shows them)."""
        return tuple(Phase(codec.ledger_word(p.name), p.run) for p in PHASES)

    def unanswered(self, given: Given[Any], j: Judged[Campaign, Rules]) -> OrderResult:
        return OrderResult(Status.REJECTED, _("приказ не исполнен (фаза не дошла до него)"))

    # ---------------------------------------------------------------- check

    def checked(self, j: Judged[Campaign, Rules], tables: Tables) -> None:
        """A check shows nothing of the turn's dice (issue 15, point 6; docs/reliability.md): the
        turn ran with blind dice -- no random event, no random birth, the lot in the states' name
        order -- and once more with the lot reversed (`lot_probe`). An order whose result differs
        between the two depends on the lot and says only that; a result of a state that an undrawn
        event or birth may reach keeps its dice-free forecast and says that the dice may change it.
        A row refused as written is left as it is: no dice can change that."""
        results, reach = j.report.results, j.report.facts.dice_reach
        note, lot_note = _(DICE_NOTE), _(LOT_NOTE)
        for state, given in j.orders.items():
            for g in given:
                ref = g.row.ref
                if ref in j.lot:
                    reach.setdefault(state, set()).add(lot_note)
                    results[ref] = self.by_lot(results[ref], j)
                    continue
                res = ordertab.as_checked(results[ref], _at_resolve)
                if reach.get(state):
                    res = OrderResult(res.status, f"{res.reason} — {note}" if res.reason else note, res.understood)
                results[ref] = res

    def by_lot(self, result: OrderResult, j: Judged[Campaign, Rules]) -> OrderResult:
        return OrderResult(Status.ACCEPTED, f"{_(DICE_NOTE)} ({_(LOT_NOTE)})", result.understood)

    # ---------------------------------------------------------------- resolve

    def close(self, tables: Tables, j: Judged[Campaign, Rules]) -> None:
        """The turn's seed, revealed to the players as the chronicle's last line of the turn."""
        seed = j.dice.seed
        j.report.tell(_("Зерно хода {turn}: {seed} (sha256 = {hash}, опубликован до хода).")
                      .format(turn=j.at.turn, seed=seed, hash=commitment(seed)))

    def tabs(self, tables: Tables, j: Judged[Campaign, Rules]) -> list[ReplaceTab]:
        """The world's tabs, the balance sheet and the charts (every one public)."""
        world, lang, t = j.world, j.lang, self.d.tabs
        out = [
            ReplaceTab(t["states"], codec.states_grid(world, j.rules, lang)),
            ReplaceTab(t["provinces"], codec.provinces_grid(world, lang)),
            ReplaceTab(t["population"], codec.population_grid(world, lang)),
            *(ReplaceTab(_existing(tables, (lay.ru, lay.en)) or lay.tab_name(lang), grid(world, lang))
              for lay, grid in FORCES),
        ]
        bal_tab = _existing(tables, BALANCE_TAB.values()) or BALANCE_TAB[lang]
        entries = j.report.ledger.entries
        grid, notes = public.balance(j.opening, world, entries, lang, int(j.rules.params.get("balance_sort", 0)))
        out.append(ReplaceTab(bal_tab, grid))
        j.extra["balance_notes"] = (bal_tab, notes)
        hist_tab = _existing(tables, public.HISTORY_TAB.values()) or public.HISTORY_TAB[lang]
        new_rows = public.history_rows(j.at.turn, world, entries, j.rules)
        j.extra["history_rows"] = (hist_tab, new_rows)
        charts_tab = _existing(tables, public.CHARTS_TAB.values()) or public.CHARTS_TAB[lang]
        past = [r for r in tables.get(hist_tab, [])[1:] if r and not is_blank(r[0])]
        charted = [str(v) for v in (tables.get(charts_tab) or [[None]])[0][1:] if v] or public.chart_states(world)
        out.append(ReplaceTab(charts_tab, public.charts_grid(past + new_rows, charted, lang)))
        return out

    def log(self, tables: Tables, kind: str, lang: str) -> Log | None:
        """The chronicle, the ledger («Казна») and the archive, found by what the program created
        (tabset.locate; created anew in the campaign's language, with a warning, if missing)."""
        layout = LOGS.get(kind)
        if layout is None:
            return None
        found = self.d.found.log(layout) if self.d.found is not None else None
        return Log(found or layout.tab_name(lang), layout.header(lang))

    def chronicle(self, tables: Tables, j: Judged[Campaign, Rules], lines: list[str]) -> list[str]:
        return [_("=== Ход {turn} ===").format(turn=j.at.turn), *lines]

    def ledger_rows(self, j: Judged[Campaign, Rules], stamp: Cell) -> Grid:
        return codec.ledger_rows(j.report.ledger.entries)

    def logs(self, tables: Tables, j: Judged[Campaign, Rules], stamp: Cell) -> list[WriteBlock]:
        """The public history: one row of every state's figures per turn."""
        hist_tab, rows = j.extra["history_rows"]
        return session.append_rows(tables, hist_tab, [public.HISTORY_COLUMNS[j.lang]], rows)

    def extra_writes(self, tables: Tables, j: Judged[Campaign, Rules], changes: Changeset) -> None:
        """The balance sheet's notes (its rows are re-sorted and may be fewer: last turn's go) and,
        on Google, the registry of the tabs' stable ids the next turns follow renamed tabs by."""
        bal_tab, notes = j.extra["balance_notes"]
        changes.clear_notes.append(bal_tab)
        changes.notes += [(bal_tab, r, col, text) for r, col, text in notes if text]
        if self.tab_ids and self.d.found is not None:
            registry = tabs_core.registry_grid(self.d.found.match, self.tab_ids)
            reg_tab = tabs_core.registry_in(tables) or tabs_core.registry_title(j.lang)
            if tables.get(reg_tab) != registry:
                changes.replace.append(ReplaceTab(reg_tab, registry, tabs_core.registry_spec(registry, reg_tab)))

    def meta_grid(self, tables: Tables, j: Judged[Campaign, Rules], nxt: Any, seed: str,
                  secret: str | None) -> Grid:
        """The meta tab open for the next turn, with its seed's commitment and the seed just revealed."""
        after = replace(j.world, turn=nxt.turn, last_resolved=j.at.turn, secret=secret or self.d.campaign.secret)
        return meta_grid(after, j.lang, open_status(nxt.turn, j.lang), seed=seed)

    def summary(self, mode: str, j: Judged[Campaign, Rules]) -> dict[str, Any]:
        """`summary` of the window; a check's also says, per state, what its forecast leaves out:
        the undrawn dice that may reach it, and the lot when its figures differ with the lot reversed."""
        out = summary(mode, j.opening, j.world, j.report)
        if mode != "check":
            return out
        reach = j.report.facts.dice_reach
        if j.probe is not None:
            other = summary(mode, j.probe.opening, j.probe.world, j.probe.report)["states"]
            for st, other_st in zip(out["states"], other):
                if st != other_st:
                    reach.setdefault(st["name"], set()).add(_(LOT_NOTE))
        for st in out["states"]:
            st["dice"] = sorted(reach.get(st["name"], ()))
        return out


def summary(mode: str, before: Campaign, after: Campaign, report: Report) -> dict[str, Any]:
    """What the CLI prints and `--json` gives (engine/core/summary.py): per state its movement in each
    shown resource, the money's also at the top level of the state (opening, income, expenses,
    closing) as before, and its stability; the game's words for its table and closing line."""
    moved = movements(report.ledger, after, after.states, SHOWN, opening=before)
    sides = [summaries.SideLine(name, moved[name], st.ai, {"stability": st.stability})
             for name, st in after.states.items()]
    return summaries.build(
        mode, NAME, report, SHOWN, sides, unit=lambda r: codec.ledger_word(r.unit), flat=MONEY,
        side_title=_("Государство"),  # the CLI table's first column
        columns=[summaries.Column("stability", _.pgettext("столбец", "Ст"))],
        dice_note=_("Без жребия хода ({dice}): доход, расход, казна и Ст могут измениться при разрешении — "
                    "исход зависит от жребия хода."),
        open_tabs=_("листы баланса, журнала, казны и приказов"),
    )


def _at_resolve(reason: str) -> str:
    """A checked row's reason is what the resolve would say: «при разрешении: …»."""
    return _("при разрешении: {reason}").format(reason=reason)


def _existing(tables: Tables, names: Any) -> str | None:
    return next((n for n in names if n in tables), None)


GAME = Ancient()


def preview(tables: Tables, secret: str | None = None, seed: str | None = None, dice: Dice | None = None,
            tab_ids: dict[str, str] | None = None, game: Ancient | None = None) -> Judged[Campaign, Rules]:
    """The open turn judged in memory as a resolve with the dice of `secret` (or the revealed `seed`,
    or `dice`) judges it, nothing written: the world after it, its report, the orders read. In the
    caller's language (tests read a Russian campaign's turn in English). `game`: an `Ancient` of
    the caller's (a test's that watches every phase)."""
    bound = (game or GAME).bind(tables, tab_ids)
    if dice is None:
        dice = Dice(seed or cursor_seed(secret or bound.d.campaign.secret, meta.open_cursor(tables, CALENDAR)))
    return runner.judge(bound, tables, dice)
