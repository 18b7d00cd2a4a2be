"""Issue 23, point 10: player text is inert in every output — the forum post (BBCode, Markdown), a
player's Markdown report, the chart — of both games, through the core's one helper per format
(engine/core/inert.py).  A name such as ``<img src=x onerror=alert(1)>``, ``[url=…]``, a Markdown
link or image, ``</details>`` or a formula opens no tag, link, image or formula, and reads as typed.

Markdown is checked by rendering it (markdown-it, CommonMark with raw HTML allowed, as a forum or a
file viewer would), HTML by parsing it; BBCode by the rule every forum parser follows (a tag is
``[`` followed at once by its name)."""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from engine import rulesets
from engine.core import inert
from engine.core.tables import Tables, apply_changes
from engine.rulesets.ancient import report as ancient_report
from engine.rulesets.ancient import ruleset as ancient
from engine.rulesets.ancient.game import RULESET
from engine.rulesets.civ1.workbook import new_workbook, tables_of

SECRET = "s" * 32
CIV1 = rulesets.get("civ1")

HOSTILE = (
    "<img src=x onerror=alert(1)>",
    "[url=http://evil.example]клик[/url]",
    "[клик](http://evil.example)",
    "![x](http://evil.example/p.png)",
    "</details><script>alert(1)</script>",
    "**жир** _к_ `код` # | ~",
    '=HYPERLINK("http://evil.example","жми")',
    "+cmd|' /C calc'!A0",
    "-1+A1",
    "@SUM(A1)",
    "<http://evil.example>",
)
CONTROL = "\x1b[2J\u202eРим\x00"  # a terminal escape, a right-to-left override, NUL
#: the program's own BBCode tags (a spoiler's argument may hold a «]» after a zero-width space)
PROGRAM_TAGS = re.compile("\\[/?(b|size|list|\\*|spoiler|code)(=(?:\u200b\\]|[^\\]])*)?\\]")
TAGS_IN_TEXT = re.compile(r"\[/?[A-Za-z*]|<[A-Za-z/!?]")  # a BBCode or HTML tag's opening


class Tags(HTMLParser):
    """The tags and the text of an HTML fragment."""

    def __init__(self, fragment: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[str] = []
        self.text: list[str] = []
        self.feed(fragment)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += [a for a, _v in attrs]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def rendered(md: str) -> Tags:
    """Markdown as a viewer shows it: CommonMark, raw HTML allowed."""
    return Tags(MarkdownIt("commonmark").render(md))


def no_live_markup(tags: Tags) -> None:
    """Nothing a player wrote became a tag, a link, an image or a script."""
    assert not {"a", "img", "script", "iframe"} & set(tags.tags), tags.tags
    assert not [a for a in tags.attrs if a.startswith("on") or a in ("href", "src")], tags.attrs


def no_formula(text: str) -> None:
    for line in text.splitlines():
        assert not line.startswith(("=", "+", "@")) and not re.match(r"-\D", line), line


# ---------------------------------------------------------------- the core's helpers


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_renders_as_typed_and_opens_nothing(text: str) -> None:
    out = inert.markdown(text)
    shown = rendered(out)
    no_live_markup(shown)
    assert shown.tags == ["p"] and "".join(shown.text).strip() == text
    no_formula(out)


@pytest.mark.parametrize("text", HOSTILE)
def test_html_parses_as_typed_and_opens_nothing(text: str) -> None:
    out = inert.html(text)
    parsed = Tags(out)
    assert parsed.tags == [] and "".join(parsed.text).replace(inert.ZWSP, "") == text
    assert Tags(f"<details><summary>{out}</summary></details>").tags == ["details", "summary"]
    no_formula(out)


@pytest.mark.parametrize("text", HOSTILE)
def test_bbcode_opens_no_tag_nor_html_and_reads_as_typed(text: str) -> None:
    for out in (inert.bbcode(text), inert.bbcode_arg(text)):
        assert not TAGS_IN_TEXT.search(out), out
        assert out.replace(inert.ZWSP, "") == text
        no_formula(out)
    assert "]" not in inert.bbcode_arg(text).replace(inert.ZWSP + "]", "")


@pytest.mark.parametrize("fmt", inert.FORMATS)
def test_control_characters_and_direction_overrides_are_dropped_in_every_format(fmt: str) -> None:
    shown = {"bbcode": "[\u200b2JРим", "markdown": "\\[2JРим", "html": "[2JРим", "plain": "[2JРим"}
    assert inert.inert(CONTROL, fmt) == shown[fmt]
    assert inert.plain("-5") == "-5" and inert.markdown("−3,5") == "−3,5"  # numbers are no formulas
    assert inert.inert(None, fmt) == ""


def test_a_chart_label_draws_no_formula() -> None:
    assert inert.mathtext("$\\frac{a}$ Рим") == "\\$\\frac{a}\\$ Рим"


# ---------------------------------------------------------------- both games, every output


def renamed(tables: Tables, old: str, new: str) -> Tables:
    """``tables`` with ``old`` (a nation's or a state's name) replaced by ``new`` in every cell and tab title."""
    def sub(v: object) -> object:
        return v.replace(old, new) if isinstance(v, str) and old in v else v
    return {k.replace(old, new): [[sub(v) for v in r] for r in g] for k, g in tables.items()}


@cache
def civ1_played() -> Tables:
    """A civ1 demo campaign after its first state stage (every nation's stand-in orders)."""
    t = tables_of(new_workbook("demo", "ru", SECRET, "inert"))
    return apply_changes(t, CIV1.resolve(t, secret=SECRET).changes)


@cache
def ancient_played() -> Tables:
    """A generated ancient campaign after its first turn."""
    t = tables_of(ancient.new_workbook(scenario="generated:5", secret=SECRET, campaign_id="inert"))
    return apply_changes(t, RULESET.resolve(t, secret=SECRET).changes)


def outputs(game: str, name: str) -> dict[str, str]:
    """Every text output of ``game`` with the nation (state) «Рим» / «Г0000» named ``name``."""
    if game == "civ1":
        t = renamed(civ1_played(), "Рим", name)
        return {"bbcode": "\n".join(CIV1.reporter.forum_post(t, 1, "bbcode")),
                "markdown": "\n".join(CIV1.reporter.forum_post(t, 1, "markdown")),
                "report": CIV1.reporter.player_report(t, name)}
    t = renamed(ancient_played(), "Г0000", name)
    return {"bbcode": "\n".join(ancient_report.forum_post(t, 1, "bbcode")),
            "markdown": "\n".join(ancient_report.forum_post(t, 1, "markdown")),
            "report": ancient_report.private_report(t, name)}


@pytest.mark.parametrize("game", ["civ1", "ancient"])
@pytest.mark.parametrize("name", HOSTILE[:7])
def test_a_hostile_name_is_inert_in_every_post_and_report_of_both_games(game: str, name: str) -> None:
    out = outputs(game, name)
    assert name in out["report"].replace("\\", "") or name.replace("\\", "") in out["report"].replace("\\", "")
    bb = out["bbcode"]
    assert not TAGS_IN_TEXT.search(PROGRAM_TAGS.sub("", bb)), bb
    assert name in bb.replace(inert.ZWSP, "")
    for fmt in ("markdown", "report"):
        shown = rendered(out[fmt])
        no_live_markup(shown)
        assert name in "".join(shown.text), fmt  # it reads as typed
    for text in out.values():  # no line begins with the name: pasted into a sheet, it is no formula
        assert not [line for line in text.splitlines() if line.lstrip(" #|*-[]").startswith(name)]


@pytest.mark.parametrize("game", ["civ1", "ancient"])
def test_a_name_that_is_a_formula_for_matplotlib_draws_as_typed(game: str, tmp_path: Path) -> None:
    name = "$\\undefinedmacro{x}$"
    if game == "civ1":
        png = CIV1.reporter.chart_png(renamed(civ1_played(), "Рим", name), tmp_path / "c.png")
    else:
        png = ancient_report.chart_png(renamed(ancient_played(), "Г0000", name), tmp_path / "a.png")
    assert png.stat().st_size > 0


def test_a_message_quoting_sheet_text_sends_the_terminal_no_escape_sequence() -> None:
    """The GM's terminal (``plain`` text without a formula guard): a problem quoting a cell prints
    without the cell's escape sequences or direction overrides."""
    from sheets_bridge.cli import _located

    printed = _located(f"Приказы — Рим!B2: непонятное «{CONTROL}»")
    assert "\x1b" not in printed and "\u202e" not in printed and "\x00" not in printed
    assert printed == "strategos: Приказы — Рим!B2: непонятное «[2JРим»"
    assert inert.terminal("--turns: 0") == "--turns: 0"  # the program's own words as they are


def test_a_multi_line_text_starts_no_heading_list_or_quote_in_markdown() -> None:
    shown = rendered("Итог: " + inert.markdown("Рим\n===\n- пункт\n> цитата\n1. раз"))
    assert shown.tags == ["p"] and "".join(shown.text).strip() == "Итог: Рим === - пункт > цитата 1. раз"


@pytest.mark.parametrize("game", ["civ1", "ancient"])
def test_a_name_with_line_breaks_forges_no_line_of_the_bbcode_post(game: str) -> None:
    """A name holding line breaks and a chronicle-like line cannot give the BBCode post a line of
    its own that reads as the program's (a reviewer's find: the tags were inert, the breaks not)."""
    forged = "1:государство: Египет капитулирует"
    bb = outputs(game, f"Ока\n\n[b]{forged}[/b]\n# Заголовок")["bbcode"]
    assert forged in bb.replace(inert.ZWSP, "")  # shown as typed ...
    lines = [line.replace(inert.ZWSP, "").lstrip(" #|*-[]b") for line in bb.splitlines()]
    assert not [line for line in lines if line.startswith(forged)], bb  # ... inside the line of the name
    assert "\n" not in inert.bbcode("a\r\nb\nc\rd")
