"""Turn reports: the forum post in the campaign's language (BBCode or Markdown), private reports
per player, and the chart picture for the post.

The forum post is what the seed's GM posts in a new thread after each turn (ANC-TURN-06): the
events, the battles, changes of government, new technologies, and one spoiler per state with its
balance. A post longer than the forum allows is split between blocks; a block longer than a post is cut
between its lines, a tag open at the cut closed and opened again (engine/core/posts.py).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from engine.core import i18n, inert
from engine.core.errors import CampaignError
from engine.core.i18n import N_
from engine.core.layout import find_tab, norm
from engine.core.ledger import Resource
from engine.core.money import amount, fmt, to_cell
from engine.core.posts import fit
from engine.core.tables import Cell, Grid, Tables, as_text, is_blank

from . import codec
from .messages import _
from .phases.expenses import why_not
from .public import HISTORY_TAB, category, chart_groups, chart_states, money_unit, unit_of
from .resources import SHOWN
from .speech import count
from .vocab import ARCHIVE, CHRONICLE, LEDGER

DEFAULT_LIMIT = 60_000
# the post's sections: a title, and the words that put a chronicle line in it -- Russian and English
# (the chronicle is a tab of plain lines in the campaign's language), compared in lower case
SECTIONS = (
    (N_("События"), ("событие", "event")),
    (N_("Битвы"), ("битва", "морской бой", "battle")),
    (
        N_("Войны и договоры"),
        (
            "объявляет войну",
            "заключили мир",
            "заключили союз",
            "вассал",
            "занимает провинцию",
            "потерял столицу",
            "declares war",
            "declared war",
            "made peace",
            "make peace",
            "alliance",
            "allied",
            "vassal",
            "occupies",
            "takes the province",
            "lost its capital",
            "loses its capital",
        ),
    ),
    (
        N_("Формы правления"),
        ("смена формы правления", "деградирует", "переходит под управление", "government", "degrades", "handed to"),
    ),
    (N_("Новые технологии"), ("изучена технология", "захватывает знания", "researched", "technology")),
    (
        N_("Стройки и торговля"),
        ("построено", "построен", "открыт маршрут", "колонизирована", "built", "route", "colonised", "colonized"),
    ),
)
SEED_LINE = N_("Зерно хода {turn}: {seed} (sha256 = {hash}, опубликован до хода).")


def _is_unit_of(resource: Resource, unit: object, blank: bool) -> bool:
    """Whether a ledger row's unit names `resource`, in either language («Д», "D"); a blank unit
    is the first shown resource's (`blank`), as ledgers before the unit column were all money."""
    if unit in (None, ""):
        return blank
    with i18n.using("en"):
        english = unit_of(resource)
    return str(unit) in (unit_of(resource), resource.code, resource.unit, english)


def _rows(tables: Tables, layout: Any, turn: int) -> list[list[Any]]:
    tab = find_tab(tables, layout)
    return [r for r in tables.get(tab or "", [])[1:] if r and r[0] == turn]


def neutral(text: object, fmt_name: str) -> str:
    """Text from the sheet made inert for a post in ``fmt_name``: whatever it holds (a player's
    ``[url=…]``, ``[/spoiler]``, ``</details>``, ``<img …>``, ``**`` or ``=FORMULA()``) shows as
    typed and opens no tag, link or formula (the core's helper of that format: engine/core/inert.py)."""
    return inert.inert(text, fmt_name)


def _style(fmt_name: str) -> dict[str, str]:
    if fmt_name == "bbcode":
        return {
            "b": "[b]{}[/b]",
            "h": "[size=150][b]{}[/b][/size]",
            "item": "[*]{}",
            "list": "[list]\n{}\n[/list]",
            "spoiler": "[spoiler={}]\n{}\n[/spoiler]",
            "code": "[code]\n{}\n[/code]",
        }
    if fmt_name == "markdown":
        return {
            "b": "**{}**",
            "h": "## {}",
            "item": "- {}",
            "list": "{}",
            "spoiler": "<details><summary>{}</summary>\n\n{}\n\n</details>",
            "code": "```\n{}\n```",
        }
    raise CampaignError(_("формат отчёта — bbcode или markdown, а не «{fmt_name}»").format(fmt_name=fmt_name))


@codec.in_campaign_language
def forum_post(tables: Tables, turn: int, fmt_name: str = "bbcode", limit: int = DEFAULT_LIMIT) -> list[str]:
    """The public results of a resolved turn as forum posts, each shorter than `limit`."""
    s = _style(fmt_name)
    chronicle = [str(r[1]) for r in _rows(tables, CHRONICLE, turn)]
    if not chronicle:
        raise CampaignError(_("ход {turn} ещё не разрешён: в журнале нет его записей").format(turn=turn))
    d = codec.decode(tables)

    def text(value: object) -> str:
        return neutral(value, fmt_name)

    blocks: list[str] = [s["h"].format(text(_("{title}: итоги хода {turn}").format(title=d.campaign.title, turn=turn)))]
    for title, keys in SECTIONS:
        lines = [x for x in chronicle if any(k in x.lower() for k in keys)]
        if lines:
            items = "\n".join(s["item"].format(text(x)) for x in lines)
            blocks.append(s["b"].format(_(title)) + "\n" + s["list"].format(items))
    ledger = _rows(tables, LEDGER, turn)
    by_state: dict[str, list[list[Any]]] = defaultdict(list)
    for r in ledger:
        by_state[str(r[1])].append(r)
    lang = i18n.current()
    for name, st in sorted(d.campaign.states.items()):
        lines = by_state.get(name, [])
        body: list[str] = []
        listed: list[str] = []
        for i, res in enumerate(SHOWN):  # a balance line per resource, then each one's categories
            rows = [r for r in lines if _is_unit_of(res, (r + [None] * 8)[5], blank=i == 0)]
            income = sum((amount(r[4]) for r in rows if amount(r[4]) > 0), Fraction(0))
            expense = -sum((amount(r[4]) for r in rows if amount(r[4]) < 0), Fraction(0))
            closing = d.campaign.balance(name, res.code)
            opening = closing - income + expense
            body.append(
                _("{name}: {opening} → {closing} {d} (доход {income}, расход {expense})").format(
                    name=res.title(lang), opening=fmt(opening), closing=fmt(closing), d=unit_of(res),
                    income=fmt(income), expense=fmt(expense)
                )
            )
            cats: dict[str, Fraction] = defaultdict(Fraction)
            for r in rows:
                cats[str(r[3])] += amount(r[4])
            listed += [f"  {text(c)}: {fmt(v, sign=True)} {unit_of(res)}" for c, v in sorted(cats.items())]
        body.append(
            _("Стабильность: {stability}; наука: {science}; технологий: {techs}").format(
                stability=f"{st.stability:+d}", science=count(st.science, "очко", fmt(st.science)), techs=len(st.techs)
            )
        )
        body += listed
        # a tag's argument in BBCode; in Markdown, HTML (<summary>: a backslash is no escape there)
        title = inert.bbcode_arg(name) if fmt_name == "bbcode" else inert.html(name)
        blocks.append(s["spoiler"].format(title, "\n".join(body)))
    starts = {SEED_LINE.split("{", 1)[0], _(SEED_LINE).split("{", 1)[0]}
    seed = [x for x in chronicle if x.startswith(tuple(starts))]
    if seed:
        blocks.append(text(seed[0]))
    return split(blocks, limit)


def split(blocks: list[str], limit: int) -> list[str]:
    """Join blocks into posts under `limit` characters; a block is cut only when it is longer than a post."""
    posts: list[str] = []
    current = ""
    for block in blocks:
        if len(block) > limit:  # a single huge block: cut between its lines, its tags closed and reopened
            for piece in fit([block], limit):
                posts, current = _add(posts, current, piece, limit)
            continue
        posts, current = _add(posts, current, block, limit)
    if current:
        posts.append(current)
    return posts


def _add(posts: list[str], current: str, block: str, limit: int) -> tuple[list[str], str]:
    joined = f"{current}\n\n{block}" if current else block
    if len(joined) <= limit:
        return posts, joined
    if current:
        posts.append(current)
    return posts, block


@dataclass
class Section:
    """One part of a private report: a title, column headers and rows."""

    title: str
    header: list[str]
    rows: list[list[Cell]] = field(default_factory=list)


@dataclass
class ReportSource:
    """What private reports are made from, decoded once for every state of a turn."""

    d: codec.Decoded
    turn: int
    archive: dict[str, list[list[Any]]]  # state -> its archived order rows of the turn
    ledger: dict[str, list[list[Any]]]  # state -> its ledger rows of the turn


@codec.in_campaign_language
def report_source(tables: Tables, turn: int | None = None) -> ReportSource:
    """Decode the campaign and group the turn's archive and ledger rows by state."""
    d = codec.decode(tables)
    turn = turn if turn is not None else d.campaign.last_resolved
    archive: dict[str, list[list[Any]]] = defaultdict(list)
    ledger: dict[str, list[list[Any]]] = defaultdict(list)
    for r in _rows(tables, ARCHIVE, turn):  # player text: as text, whatever an old archive holds
        archive[str(r[1])].append([as_text(v) for v in r])
    for r in _rows(tables, LEDGER, turn):
        ledger[str(r[1])].append([as_text(v) for v in r])
    return ReportSource(d, turn, archive, ledger)


@codec.in_campaign_language
def private_sections(
    tables: Tables, state: str, turn: int | None = None, source: ReportSource | None = None
) -> tuple[str, list[Section]]:
    """One player's own report: its ledger lines, order results, provinces, technologies, and what
    it may build or learn next -- nothing about other states beyond the public balance.  The same
    sections make the Markdown export and the private tab of a private-orders campaign; ``source``
    (from :func:`report_source`) saves decoding the campaign again for every state."""
    src = source or report_source(tables, turn)
    c, rules, turn = src.d.campaign, src.d.rules, src.turn
    if state not in c.states:
        raise CampaignError(_("нет государства «{state}»").format(state=state))
    st = c.states[state]
    d = money_unit()
    title = _("{state}: отчёт за ход {turn}").format(state=state, turn=turn)
    summary = Section(
        _("Итог"), [_("Казна, {d}").format(d=d), _("Стабильность"), _("Очки науки"), _("Форма правления")]
    )
    gov = rules.governments.get(st.government)
    government = gov.name(i18n.current()) if gov else st.government
    summary.rows.append([to_cell(st.treasury), st.stability, to_cell(st.science), government])
    orders = Section(_("Приказы"), [_("Строка"), _("Приказ"), _("Статус"), _("Причина")])
    for r in src.archive.get(state, []):
        r = r + [None] * 11
        orders.rows.append([r[2], r[10] or r[3], r[8], r[9]])
    ledger = Section(_("Казна (строки этого хода)"), [_("Статья"), _("Сумма"), _("Ед."), _("Основание")])
    for r in src.ledger.get(state, []):
        r = r + [None] * 8
        ledger.rows.append([category(str(r[3])), to_cell(amount(r[4])), r[5] or d, r[6]])
    provinces = Section(_("Провинции"), [_("Провинция"), _("Население"), _("Постройки")])
    for p in sorted(c.provinces.values(), key=lambda p: p.name):
        if p.owner == state:
            people = ", ".join(f"{n} {s}" for s, n in p.population.items() if n) or _("никого")
            name = _("{province} (столица)").format(province=p.name) if p.name == st.capital else p.name
            provinces.rows.append([name, people, ", ".join(p.buildings) or _("нет")])
    known = Section(_("Технологии"), [_("Изучено")], [[", ".join(st.techs) or _("нет")]])
    learn = Section(_("Можно изучать"), [_("Технология"), _("Цена, очки науки")])
    for t in sorted(
        t.name_ru
        for t in rules.techs.values()
        if t.name_ru not in st.techs and all(x in st.techs for x in t.prerequisites)
    ):
        learn.rows.append([t, to_cell(rules.techs[t].cost)])
    can: dict[str, list[str]] = defaultdict(list)
    for p in c.provinces.values():
        if p.owner == state:
            for b in rules.buildings.values():
                if why_not(c, st, p, b, rules) is None:
                    can[b.name_ru].append(p.name)
    build = Section(_("Что можно построить"), [_("Постройка"), _("Цена, {d}").format(d=d), _("Где")])
    build.rows += [[b, to_cell(rules.buildings[b].cost), ", ".join(sorted(ps))] for b, ps in sorted(can.items())]
    return title, [summary, orders, ledger, provinces, known, learn, build]


@codec.in_campaign_language
def private_report(tables: Tables, state: str, turn: int | None = None) -> str:
    """One player's own report as Markdown (see :func:`private_sections`)."""
    title, sections = private_sections(tables, state, turn)
    out = [f"# {neutral(title, 'markdown')}", ""]
    for sec in sections:
        out += [f"## {sec.title}", ""]
        if not sec.rows:
            out += [_("нет"), ""]
            continue
        out.append("| " + " | ".join(sec.header) + " |")
        out.append("|" + "---|" * len(sec.header))
        out += ["| " + " | ".join(_md(v) for v in row) + " |" for row in sec.rows]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


@codec.in_campaign_language
def private_grid(tables: Tables, state: str, turn: int | None = None, source: ReportSource | None = None) -> Grid:
    """One player's own report as the rows of a sheet tab (a titled block per section)."""
    title, sections = private_sections(tables, state, turn, source)
    grid: Grid = [[title]]
    for sec in sections:
        grid += [[], [sec.title], list(sec.header)]
        grid += [list(row) for row in sec.rows] or [[_("нет")]]
    return grid


def _md(value: Cell) -> str:
    """A table cell for Markdown: numbers in the Russian style, text inert (see :func:`neutral`)."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, (int, float)):
        return fmt(amount(value), sign=False)
    return neutral(str(value).replace("\n", " "), "markdown")


@codec.in_campaign_language
def chart_figure(tables: Tables, states: list[str] | None = None) -> Any:
    """Treasury and stability over the turns as a matplotlib figure: every played state
    (:func:`~.public.chart_states`; or the `states` asked for), a column of two panels per group of
    at most CHART_STATES states, so that each line keeps a colour of its own and the legend stays
    readable; a dot on every point (after one turn a line is a single point)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    tab = next((t for t in tables if norm(t) in {norm(x) for x in HISTORY_TAB.values()}), None)
    rows = [r for r in tables.get(tab or "", [])[1:] if r and not is_blank(r[0])]
    series: dict[str, list[tuple[int, float, int]]] = defaultdict(list)
    for r in rows:
        series[str(r[1])].append((int(r[0]), float(r[2] or 0), int(r[5] or 0)))
    if states is None:
        d = codec.decode(tables)
        handed = d.found.ai_orders if d.found is not None else {}  # states handed to the AI stay charted
        states = chart_states(d.campaign, [*d.order_tabs, *handed])
    chosen = sorted(states, key=lambda s: (-(series[s][-1][1] if series.get(s) else 0.0), s))  # richest first
    groups = chart_groups(len(chosen)) or [(0, -1)]
    fig, axes = plt.subplots(2, len(groups), figsize=(7 * len(groups) + 2, 8), sharex=True, squeeze=False)
    for g, (first, last) in enumerate(groups):
        top, bottom = axes[0][g], axes[1][g]
        for name in chosen[first : last + 1]:
            pts = sorted(series.get(name, []))
            turns = [p[0] for p in pts]
            (line,) = top.plot(turns, [p[1] for p in pts], marker="o", markersize=4, label=inert.mathtext(name))
            bottom.plot(
                turns,
                [p[2] for p in pts],
                marker="o",
                markersize=4,
                color=line.get_color(),
                drawstyle="steps-mid",
                label=inert.mathtext(name),
            )
        part = f" ({g + 1}/{len(groups)})" if len(groups) > 1 else ""
        top.set_title(_("Казна, {d}").format(d=money_unit()) + part)
        bottom.set_title(_("Стабильность") + part)
        bottom.set_xlabel(_("Ход"))
        bottom.set_ylim(-3.5, 3.5)
        bottom.xaxis.set_major_locator(MaxNLocator(integer=True))
        top.grid(alpha=0.3)
        bottom.grid(alpha=0.3)
        top.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.tight_layout()
    return fig


def chart_png(tables: Tables, path: Path, states: list[str] | None = None) -> Path:
    """The chart of :func:`chart_figure` as a PNG for the forum post."""
    import matplotlib.pyplot as plt

    fig = chart_figure(tables, states)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
