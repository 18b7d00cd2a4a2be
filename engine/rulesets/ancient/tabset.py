"""The tabs an ancient campaign is made of, as roles for engine.core.tabs.

Every tab the program creates has a role: one per layout («Государства», «Журнал», the rules
tabs…), one order tab per played state (the states tab says which are played), one private
report tab per state.  Whatever else is in the workbook was added by someone else: it is never
read as orders and the GM is warned about it by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import history, i18n
from engine.core.layout import Layout
from engine.core.tables import Grid, Tables, is_blank
from engine.core.tabs import REGISTRY_TITLES, TabMatch, WantedTab, match_tabs, read_registry

from . import dropdowns, public, vocab
from .messages import _
from .model import Campaign
from .vocab import ARCHIVE, BALANCE_TAB, CHRONICLE, LEDGER, ORDER_TAB_PREFIX, STATES

PRIVATE_TAB = {"ru": "Отчёт — {}", "en": "Report — {}"}
LOGS: tuple[Layout, ...] = (LEDGER, ARCHIVE, CHRONICLE)  # appended every turn; recreated with a warning


def layout_role(layout: Layout) -> str:
    return f"tab:{layout.ru}"


def order_role(state: str) -> str:
    return f"orders:{state}"


def _ai_order_role(state: str) -> str:
    return f"orders-ai:{state}"


def _both(names: dict[str, str], lang: str) -> tuple[str, tuple[str, ...]]:
    main = names["en" if lang == "en" else "ru"]
    return main, tuple(n for n in names.values() if n != main)


def wanted(c: Campaign) -> list[WantedTab]:
    """Every tab the program makes for this campaign, by role."""
    lang = c.lang
    out: list[WantedTab] = []
    for obj in [*vars(vocab).values(), dropdowns.LISTS]:  # the dropdowns' lists are the program's too
        if isinstance(obj, Layout) and obj is not vocab.ORDERS:
            title, others = _both({"ru": obj.ru, "en": obj.en}, lang)
            out.append(WantedTab(layout_role(obj), title, (*others, *obj.aliases)))
    for names in (BALANCE_TAB, public.HISTORY_TAB, public.CHARTS_TAB):
        title, others = _both(names, lang)
        out.append(WantedTab(f"tab:{names['ru']}", title, others))
    registry, other_registry = _both(REGISTRY_TITLES, lang)
    hist, other_hist = _both(history.HISTORY_TITLES, lang)
    out += [WantedTab("tab:history", hist, other_hist), WantedTab("tab:registry", registry, other_registry)]
    for st in c.states.values():
        title, others = _both({k: p + st.name for k, p in ORDER_TAB_PREFIX.items()}, lang)
        out.append(WantedTab(_ai_order_role(st.name) if st.ai else order_role(st.name), title, others))
        title, others = _both({k: p.format(st.name) for k, p in PRIVATE_TAB.items()}, lang)
        out.append(WantedTab(f"report:{st.name}", title, others))
    return out


@dataclass
class CampaignTabs:
    """Which read tab is which, and what the GM must hear about the rest."""

    match: TabMatch
    orders: dict[str, str] = field(default_factory=dict)  # played state -> its order tab
    ai_orders: dict[str, str] = field(default_factory=dict)  # AI state -> the order tab it had when played
    missing_orders: dict[str, str] = field(default_factory=dict)  # played state -> the title it should have
    ambiguous_orders: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def log(self, layout: Layout) -> str | None:
        """The read tab of a log layout («Казна», «Журнал», «Архив приказов»), if there is one."""
        return self.match.found.get(layout_role(layout))


def locate(tables: Tables, c: Campaign, ids: dict[str, str] | None = None) -> CampaignTabs:
    """Find the campaign's tabs among the read ones (``ids``: read title -> stable id on Google)."""
    want = wanted(c)
    m = match_tabs(tables, want, ids, read_registry(tables))
    titles = {w.role: w.title for w in want}
    out = CampaignTabs(m)
    for st in c.states.values():
        role = order_role(st.name)
        if st.ai:
            tab = m.found.get(_ai_order_role(st.name))
            if tab is not None:
                out.ai_orders[st.name] = tab
            if tab is not None and _has_input(tables[tab]):
                out.warnings.append(
                    _(
                        "лист «{tab}»: государство «{name}» под управлением ИИ — приказы с этого листа не читаются"
                    ).format(tab=tab, name=st.name)
                )
            continue
        if role in m.found:
            out.orders[st.name] = m.found[role]
        elif role in m.ambiguous:
            out.ambiguous_orders[st.name] = m.ambiguous[role]
        else:
            out.missing_orders[st.name] = titles[role]
    for role in sorted(m.replaced):
        out.warnings.append(
            _("лист «{tab}» — не тот лист, что создала программа (тот удалён); читается вместо него").format(
                tab=m.found[role]
            )
        )
    for layout in LOGS:
        if layout_role(layout) not in m.found:
            name = layout.tab_name(c.lang)
            out.warnings.append(
                _(
                    "нет листа «{name}»: разрешение хода создаст его заново (прежние записи — в истории версий таблицы)"
                ).format(name=name)
            )
    for tab in m.unknown:
        out.warnings.append(
            _("лист «{tab}» создан не программой: пропущен (приказы с него не читаются)").format(tab=tab)
        )
    return out


def _has_input(grid: Grid) -> bool:
    """Whether anything is typed in a tab's order columns (the first five) below its header."""
    return any(not is_blank(v) for line in grid[1:] for v in line[:5])


def order_tab_problem(state: str, title: str, ambiguous: list[str] | None, lang: str) -> str:
    """Why a played state has no order tab to read, and what the GM can do."""
    with i18n.using(lang):
        if ambiguous:
            names = ", ".join(f"«{t}»" for t in ambiguous)
            return _(
                "государство «{state}» играется, но на его лист приказов похожи несколько листов ({names}): "
                "переименуйте или удалите лишний"
            ).format(state=state, names=names)
        return _(
            "государство «{state}» играется, но его листа приказов «{title}» нет: верните лист из истории версий "
            "или отметьте государство как ИИ на листе «{states}»"
        ).format(state=state, title=title, states=STATES.tab_name(lang))
