"""Issue 17, point 2 through the bridge and the CLI: resolve by stage, history, rollback to
«1:города», verify of a staged window (with the toy ruleset tests/cursor_toy.py), and the
ancient game's commands refusing a stage in words."""

from __future__ import annotations

from pathlib import Path

import cursor_toy
import pytest

from engine import rulesets
from engine.core import history, i18n, meta
from engine.core.cursor import Cursor, CursorError
from engine.core.errors import TurnMismatch
from sheets_bridge import secrets, sync, timeline
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

SECRET = "0123456789abcdef0123456789abcdef"


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setitem(rulesets.RULESETS, cursor_toy.NAME, "cursor_toy:RULESET")
    path = tmp_path / "toy.xlsx"
    cid = meta.new_campaign_id()
    secrets.save(cid, SECRET)
    create_xlsx(cursor_toy.workbook(SECRET, cid), path)
    return path


def _open(path: Path) -> Cursor:
    return meta.open_cursor(XlsxBackend(path).read(), cursor_toy.CALENDAR)


def test_resolve_walks_the_stages_and_history_keys_them(toy: Path) -> None:
    assert _open(toy) == Cursor(1, "state")
    sync.resolve(XlsxBackend(toy), turn=1, stage="государство")
    assert _open(toy) == Cursor(1, "battle", 1)
    with pytest.raises(TurnMismatch, match="Открыт ход «1:бой:1», а просили разрешить «1:бой:2» — он ещё не открыт"):
        sync.resolve(XlsxBackend(toy), stage="бой:2")
    with pytest.raises(TurnMismatch, match=r"«1:бой:1».*«2:государство»"):
        sync.resolve(XlsxBackend(toy), turn=2, stage="государство")
    for _ in range(4):
        sync.resolve(XlsxBackend(toy))
    tables = XlsxBackend(toy).read()
    assert _open(toy) == Cursor(2, "battle", 1)
    assert [r[0] for r in tables[cursor_toy.SCORE][1:]] == ["1:state", "1:battle:1", "1:battle:2", "1:cities",
                                                            "2:state"]
    assert [e.cursor.key() for e in history.entries(tables)] == ["1:state", "1:battle:1", "1:battle:2", "1:cities",
                                                                 "2:state"]
    listed = timeline.list_turns(XlsxBackend(toy))
    assert [t["cursor"] for t in listed] == ["1:государство", "1:бой:1", "1:бой:2", "1:города", "2:государство"]
    assert meta.text(tables, meta.OPEN_STAGE) == "бой" and meta.text(tables, meta.OPEN_ROUND) == "1"


def test_verify_and_rollback_take_a_staged_cursor(toy: Path) -> None:
    for _ in range(5):
        sync.resolve(XlsxBackend(toy))
    for text in ("1:государство", "1:бой:2", "1:города", "2:государство"):
        verdict = timeline.verify(XlsxBackend(toy), text)
        assert verdict.ok, verdict.message
        assert f"ход {text} подтверждён" in verdict.message
    score = XlsxBackend(toy).read()[cursor_toy.SCORE]
    timeline.rollback(XlsxBackend(toy), "1:города")
    back = XlsxBackend(toy).read()
    assert _open(toy) == Cursor(1, "cities")
    assert back[cursor_toy.SCORE] == score[:4]  # the windows before 1:города
    assert [e.cursor.key() for e in history.entries(back)] == ["1:state", "1:battle:1", "1:battle:2"]
    sync.resolve(XlsxBackend(toy), turn=1, stage="города")
    assert XlsxBackend(toy).read()[cursor_toy.SCORE] == score[:5]  # the same dice again: the seed is the cursor's


def test_a_tampered_revealed_seed_of_a_staged_window_is_caught(toy: Path) -> None:
    for _ in range(2):
        sync.resolve(XlsxBackend(toy))
    backend = XlsxBackend(toy)
    tables = backend.read()
    grid = [list(r) for r in tables["Кампания"]]
    row = next(i for i, r in enumerate(grid) if r and r[0] == meta.REVEALED_SEED[0])
    grid[row][1] = "f" * 64
    from engine.core.tables import Changeset, ReplaceTab

    backend.write(Changeset(replace=[ReplaceTab("Кампания", grid)]))
    verdict = timeline.verify(XlsxBackend(toy), "1:бой:1")
    assert not verdict.ok and "подменено" in verdict.message
    assert timeline.verify(XlsxBackend(toy), "1:государство").ok  # its seed is in the next snapshot


def test_the_cli_takes_cursors_and_refuses_bad_ones_in_words(toy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(3):
        sync.resolve(XlsxBackend(toy))
    capsys.readouterr()
    assert main(["verify", str(toy), "--turn", "1:бой:1", "--json"]) == 0
    assert '"turn": "1:бой:1", "ok": true' in capsys.readouterr().out
    assert main(["rollback", str(toy), "--to", "1:нет"]) == 2
    assert "нет этапа «нет»; этапы хода: государство, бой:1…2, города" in capsys.readouterr().err
    assert main(["rollback", str(toy), "--to", "1"]) == 2
    assert "укажите этап хода" in capsys.readouterr().err
    assert main(["resolve", str(toy), "--stage", "государство"]) == 1
    said = capsys.readouterr().err
    assert "Открыт ход «1:города», а просили разрешить «1:государство» — он уже разрешён. Ничего не изменено." in said
    assert main(["rollback", str(toy), "--to", "1:бой:2"]) == 0
    assert _open(toy) == Cursor(1, "battle", 2)


def test_the_ancient_game_has_no_stages(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", str(campaign), "--turn", "1", "--stage", "города"]) == 2
    err = capsys.readouterr().err
    assert "«1:города»: в этой игре у хода нет этапов — укажите только номер хода" in err
    assert main(["rollback", str(campaign), "--to", "3:x"]) == 2
    assert "«3:x»: в этой игре у хода нет этапов" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="2"):
        main(["verify", str(campaign), "--turn", "три"])
    assert "нужен ход: ХОД, ХОД:ЭТАП или ХОД:ЭТАП:РАУНД" in capsys.readouterr().err
    assert main(["resolve", str(campaign), "--turn", "1"]) == 0
    assert main(["verify", str(campaign), "--turn", "1", "--json"]) == 0
    assert '"turn": 1, "ok": true' in capsys.readouterr().out
    assert timeline.list_turns(XlsxBackend(campaign))[0] == {**timeline.list_turns(XlsxBackend(campaign))[0],
                                                             "turn": 1, "cursor": "1"}


def test_the_cursor_errors_are_english_in_english() -> None:
    with i18n.using("en"), pytest.raises(CursorError, match="a turn of this game has no stages"):
        rulesets.get("ancient").calendar.parse("1:x")
