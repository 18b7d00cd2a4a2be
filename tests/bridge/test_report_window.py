"""Issue 23, point 11 (the report): `report --turn` for a turn not played is refused (it printed an empty
post, exit 0), `--limit` is obeyed by every post (a line or a block longer than the limit was a post of
its own), and `--turn` takes «N:этап» like history, verify and rollback.  Both games on .xlsx; the
limit by the bridge for every game (engine/core/posts.py), unit-tested on posts of both markups.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import rulesets
from engine.core.posts import MIN_LIMIT, fit
from sheets_bridge import sync
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A small ancient world after one turn with the demo's orders, civ1's demo after two turns (both
    of their stages, its nations playing their stand-in orders)."""
    folder = tmp_path_factory.mktemp("report")
    ancient, civ1 = folder / "ancient.xlsx", folder / "civ1.xlsx"
    sync.create(str(ancient), scenario="generated:5", secret="report-secret")
    backend = XlsxBackend(ancient)
    backend.write(rulesets.get("ancient").demo_changes(backend.read()))
    sync.resolve(XlsxBackend(ancient))
    sync.create(str(civ1), ruleset="civ1", secret="report-secret")
    for _window in range(4):
        sync.resolve(XlsxBackend(civ1))
    return {"ancient": ancient, "civ1": civ1}


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["report", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(("game", "last"), [("ancient", 1), ("civ1", 2)])
def test_i23_p11_a_report_of_a_turn_not_played_is_refused(played: dict[str, Path], capsys, game: str,
                                                          last: int) -> None:
    for turn in ("9", str(last + 1), "0"):
        code, out, err = _report(capsys, str(played[game]), "--turn", turn)
        assert code == 2 and out == "", (turn, out)
        assert f"ход {turn} ещё не сыгран: последний разрешённый ход — {last}" in err, err
    code, out, _err = _report(capsys, str(played[game]), "--turn", str(last))
    assert code == 0 and out.strip()


def test_i23_p11_report_takes_one_window_of_a_staged_game(played: dict[str, Path], capsys,
                                                          tmp_path: Path) -> None:
    """«2:города» is that window alone: its chronicle lines, not the state stage's; the players'
    reports as they stood after it.  A window not resolved is refused naming those that are."""
    code, out, err = _report(capsys, str(played["civ1"]), "--turn", "2:города")
    assert code == 0, err
    assert "Цивилизация 1.0, ход 2:города" in out
    assert "2:города: " in out and "2:государство: " not in out and "1:города: " not in out
    code, whole, _err = _report(capsys, str(played["civ1"]), "--turn", "2")
    assert "2:государство: " in whole and "2:города: " in whole  # a bare number is the whole turn, as before
    code, out, err = _report(capsys, str(played["civ1"]), "--turn", "3:города")
    assert code == 2 and out == ""
    assert "окно «3:города» ещё не разрешено (разрешены: 1:государство, 1:города, 2:государство, 2:города)" in err
    code, out, err = _report(capsys, str(played["civ1"]), "--turn", "2:государство", "--players", str(tmp_path))
    assert code == 0, err
    assert (tmp_path / "Рим.md").read_text(encoding="utf-8").startswith("Держава: Рим")
    code, out, err = _report(capsys, str(played["ancient"]), "--turn", "1:города")
    assert code == 2 and "в этой игре у хода нет этапов" in err


@pytest.mark.parametrize("game", ["ancient", "civ1"])
@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_i23_p11_every_post_keeps_to_the_limit(played: dict[str, Path], capsys, tmp_path: Path, game: str,
                                               fmt: str) -> None:
    limit = MIN_LIMIT
    code, _out, err = _report(capsys, str(played[game]), "--format", fmt, "--limit", str(limit),
                              "--out", str(tmp_path / "post.txt"))
    assert code == 0, err
    written = sorted(tmp_path.glob("post.txt*"))
    assert len(written) > 1
    for path in written:
        post = path.read_text(encoding="utf-8").removesuffix("\n")
        assert len(post) <= limit, (path.name, len(post))
        assert _balanced(post), (path.name, post)


def test_i23_p11_a_limit_too_short_for_a_post_is_refused(played: dict[str, Path], capsys) -> None:
    code, out, err = _report(capsys, str(played["ancient"]), "--limit", str(MIN_LIMIT - 1))
    assert code == 2 and out == "" and f"пост не короче {MIN_LIMIT} знаков" in err


# ------------------------------------------------------------------ engine/core/posts.py


def _balanced(post: str) -> bool:
    """Every BBCode pair, <details> and code fence of a post closed in it, in order."""
    stack: list[str] = []
    for m in re.finditer(r"\[(/?)(b|size|list|spoiler|code)(?:=[^\]]*)?\]|<(/?)details>|^```", post, re.M):
        name = m.group(2) or ("details" if m.group(0).endswith("details>") else "```")
        closing = bool(m.group(1) or m.group(3)) or (name == "```" and stack[-1:] == ["```"])
        if closing:
            if not stack or stack.pop() != name:
                return False
        else:
            stack.append(name)
    return not stack


def _words(text: str) -> list[str]:
    return re.sub(r"\[/?(list|spoiler)(=[^\]]*)?\]|</?details>|<summary>[^<]*</summary>|```", " ", text).split()


BBCODE = ("[size=150][b]Итоги хода 3[/b][/size]\n\n[b]События[/b]\n[list]\n"
          + "\n".join(f"[*]событие {i}: " + "длинное слово " * 30 for i in range(4)) + "\n[/list]\n\n"
          + "[spoiler=Рим]\n" + "\n".join(f"строка {i}: [\u200burl=x] " + "y" * 40 for i in range(40))
          + "\n[/spoiler]\n" + "Z" * 900)
MARKDOWN = ("## Итоги\n\n<details><summary>Рим \\*</summary>\n\n"
            + "\n".join(f"- строка {i} \\[url\\] \\*\\*" + "y" * 40 for i in range(30)) + "\n\n</details>\n"
            + "```\n" + "code line\n" * 50 + "```")


@pytest.mark.parametrize("post", [BBCODE, MARKDOWN], ids=["bbcode", "markdown"])
@pytest.mark.parametrize("limit", [MIN_LIMIT, 333, 1000])
def test_i23_p11_fit_cuts_a_long_post_into_well_formed_posts_within_the_limit(post: str, limit: int) -> None:
    pieces = fit([post], limit)
    assert len(pieces) > 1
    assert all(len(p) <= limit for p in pieces), [len(p) for p in pieces]
    assert all(_balanced(p) for p in pieces)
    assert "".join(_words(" ".join(pieces))) == "".join(_words(post))  # nothing lost, nothing added, in order
    for p in pieces:  # no escape cut in half: a player's «[» keeps its zero-width space or its backslash
        assert not p.rstrip().endswith("\\") and not re.search(r"(?<!\\)\[url", p.replace("[\u200burl", ""))


def test_i23_p11_fit_leaves_a_post_within_the_limit_alone() -> None:
    assert fit(["короткий пост", "x" * 500], 500) == ["короткий пост", "x" * 500]
