"""What players look at (issue 8): forum posts that parse, private reports, the chart picture."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from engine.core.errors import CampaignError
from engine.core.money import fmt
from engine.core.tables import apply_changes
from engine.rulesets.ancient import codec, public
from engine.rulesets.ancient.demo import sample_orders
from engine.rulesets.ancient.game import RULESET
from engine.rulesets.ancient.report import chart_figure, chart_png, forum_post, private_grid, private_report, split
from engine.rulesets.ancient.scenario import FIXED_SECRET, build_tables, put_orders

TAG = re.compile(r"\[(/?)(\w+)(?:=[^\]]*)?\]")
PAIRED = {"b", "spoiler", "list", "size", "code", "table", "tr", "td", "i", "u"}


def bbcode_errors(post: str) -> list[str]:
    """A small BBCode parser: every paired tag opened is closed, in the right order."""
    stack: list[str] = []
    errors = []
    for m in TAG.finditer(post):
        closing, name = m.group(1) == "/", m.group(2).lower()
        if name not in PAIRED:
            continue
        if not closing:
            stack.append(name)
        elif not stack or stack.pop() != name:
            errors.append(f"unexpected [/{name}] at {m.start()}")
    errors += [f"unclosed [{name}]" for name in stack]
    return errors


@pytest.fixture(scope="module")
def three_turns() -> dict:
    tables = build_tables({"rules": {"parameters": {"events_per_turn": {"value": 5}}}})
    for _turn in range(3):
        d = codec.decode(tables)
        put_orders(tables, sample_orders(d.campaign, d.rules))
        tables = apply_changes(tables, RULESET.resolve(tables, secret=FIXED_SECRET).changes)
    return tables


def test_the_forum_post_has_every_section_and_parses(three_turns: dict) -> None:
    posts = forum_post(three_turns, 3, "bbcode")
    text = "\n".join(posts)
    assert "итоги хода 3" in text and "[spoiler=Египет]" in text and "[b]События[/b]" in text
    for post in posts:
        assert not bbcode_errors(post), bbcode_errors(post)
        assert len(post) <= 60_000


def test_long_posts_split_without_breaking_a_tag(three_turns: dict) -> None:
    posts = forum_post(three_turns, 2, "bbcode", limit=1500)
    assert len(posts) > 3
    for post in posts:
        assert len(post) <= 1500
        assert not bbcode_errors(post), (post[:200], bbcode_errors(post))
    huge = "[spoiler=Большой]\n" + "\n".join(f"строка {i}" for i in range(2000)) + "\n[/spoiler]"
    for post in split([huge], 1000):
        assert len(post) <= 1000 and not bbcode_errors(post)


def test_markdown_post(three_turns: dict) -> None:
    posts = forum_post(three_turns, 1, "markdown")
    assert "<details><summary>Рим</summary>" in "\n".join(posts)


def test_an_unresolved_turn_has_no_post(three_turns: dict) -> None:
    with pytest.raises(CampaignError, match="не разрешён"):
        forum_post(three_turns, 9)


def test_a_private_report_tells_only_the_players_own_state(three_turns: dict) -> None:
    text = private_report(three_turns, "Египет", 3)
    assert text.startswith("# Египет: отчёт за ход 3")
    assert "## Приказы" in text and "## Можно изучать" in text and "## Что можно построить" in text
    d = codec.decode(three_turns)
    egypt = d.campaign.states["Египет"]
    assert f"| {fmt(egypt.treasury)} | {fmt(Fraction(egypt.stability))} |" in text
    # its ledger lines are exactly Egypt's lines of turn 3, and no other state's
    ledger_tab = three_turns["Казна"]
    own = [r for r in ledger_tab[1:] if r and r[0] == 3 and r[1] == "Египет"]
    part = text.split("## Казна")[1].split("## Провинции")[0]
    listed = [line for line in part.splitlines() if line.startswith("| ") and "Статья" not in line]
    assert len(listed) == len(own) > 0
    assert all(str(r[6]) in part for r in own)
    provinces = text.split("## Провинции")[1].split("## Технологии")[0]
    owned = {p.name for p in d.campaign.provinces.values() if p.owner == "Египет"}
    rows = [line.split(" | ")[0].lstrip("| ").removesuffix(" (столица)") for line in provinces.splitlines()
            if line.startswith("| ") and "Провинция" not in line]
    assert set(rows) == owned


def test_the_private_tab_holds_the_same_sections(three_turns: dict) -> None:
    grid = private_grid(three_turns, "Египет", 3)
    assert grid[0] == ["Египет: отчёт за ход 3"]
    titles = [r[0] for i, r in enumerate(grid[1:], start=1) if len(r) == 1 and grid[i - 1] == []]
    assert titles == ["Итог", "Приказы", "Казна (строки этого хода)", "Провинции", "Технологии", "Можно изучать",
                      "Что можно построить"]
    with pytest.raises(CampaignError):
        private_grid(three_turns, "Атлантида", 3)


def test_the_chart_png_is_drawn(three_turns: dict, tmp_path: Path) -> None:
    png = chart_png(three_turns, tmp_path / "chart.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_i16_p8_the_report_chart_draws_every_played_state_with_markers(three_turns: dict) -> None:
    """Not only the eight richest: every played state has a line (Rome among them), each in a
    panel of at most CHART_STATES lines with a legend, and every point has a marker."""
    import matplotlib.pyplot as plt

    d = codec.decode(three_turns)
    played = public.chart_states(d.campaign, [*d.order_tabs, *d.found.ai_orders])
    assert len(played) > 8 and "Рим" in played
    fig = chart_figure(three_turns)
    try:
        treasury = [ax for ax in fig.axes if ax.get_title().startswith("Казна")]
        names = [text.get_text() for ax in treasury for text in ax.get_legend().get_texts()]
        assert sorted(names) == sorted(played)
        for ax in fig.axes:
            assert 0 < len(ax.get_lines()) <= public.CHART_STATES
            assert all(line.get_marker() == "o" for line in ax.get_lines())
    finally:
        plt.close(fig)
