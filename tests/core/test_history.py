"""Trustworthy turns (issue 7): history, rollback, provable dice, verification."""

from __future__ import annotations

import hashlib
from pathlib import Path

import openpyxl
import pytest
import test_google_support as support

from engine.core import history, meta
from engine.core.errors import CampaignError
from engine.rulesets import ancient  # noqa: F401
from engine.rulesets.ancient import ruleset
from sheets_bridge import sync, timeline
from sheets_bridge.xlsx import XlsxBackend


def tables_without_history(path: Path) -> dict:
    t = XlsxBackend(path).read()
    t.pop(history.HISTORY_TAB, None)
    return t


def with_orders(path: Path) -> None:
    backend = XlsxBackend(path)
    backend.write(ruleset.demo_changes(backend.read()))


def test_rollback_then_resolve_again_gives_identical_tables(campaign: Path) -> None:
    """The window keeps its orders and its seed (rollback's default, issue 23 point 6): every table
    of turn 1 comes back; turn 2's seed was out, so the meta promises turn 2 a new draw."""
    with_orders(campaign)
    sync.resolve(XlsxBackend(campaign))
    after_first = tables_without_history(campaign)
    sync.resolve(XlsxBackend(campaign))  # turn 2 as well
    assert [t["turn"] for t in timeline.list_turns(XlsxBackend(campaign))] == [1, 2]
    timeline.rollback(XlsxBackend(campaign), to=1)
    restored = XlsxBackend(campaign).read()
    assert [e.turn for e in history.entries(restored)] == []
    meta = {r[0]: r[1] for r in restored["Кампания"][1:]}
    assert meta["Открытый ход"] == 1
    sync.resolve(XlsxBackend(campaign))
    again = tables_without_history(campaign)
    assert not again.pop("_Приказы отката")  # the kept orders, emptied by the resolve
    drawn = {"Хэш зерна хода (sha256)", "Номер жребия", "Последний откат"}  # turn 2's new draw, and why

    def rows(grid: list[list[object]]) -> list[list[object]]:
        return [r for r in grid if r and r[0] not in drawn]

    assert rows(again.pop("Кампания")) == rows(after_first.pop("Кампания"))
    # the chronicle says the turn was resolved again after a rollback, and which choice the GM made
    said = support.recounts(again)
    assert len(said) == 1 and "приказы окна сохранены, зерно прежнее" in said[0], said
    assert support.without_recounts(again) == after_first


def test_rollback_takes_the_balance_notes_of_the_undone_turns_away(campaign: Path) -> None:
    """The notes explain the numbers of a resolved turn; rolled back, they would contradict the
    restored cells -- they go, and the next resolve writes them anew."""
    with_orders(campaign)
    sync.resolve(XlsxBackend(campaign))

    def notes() -> dict[tuple[int, int], str]:
        ws = openpyxl.load_workbook(campaign)["Баланс"]
        return {(c.row, c.column): c.comment.text for row in ws.iter_rows() for c in row if c.comment}

    first = notes()
    assert len(first) > 20
    timeline.rollback(XlsxBackend(campaign), to=1)
    assert notes() == {}
    sync.resolve(XlsxBackend(campaign))
    assert notes() == first


def _meta_seed_row(ws: openpyxl.worksheet.worksheet.Worksheet) -> int | None:
    return next((r[0].row for r in ws.iter_rows(min_row=2) if r[0].value == meta.REVEALED_SEED[0]), None)


def test_verify_confirms_an_honest_turn_and_detects_a_tampered_seed(campaign: Path) -> None:
    """The seed verify uses is the meta's structured cell (issue 17, point 6): a forged one is caught."""
    with_orders(campaign)
    sync.resolve(XlsxBackend(campaign))
    sync.resolve(XlsxBackend(campaign))
    assert timeline.verify(XlsxBackend(campaign), 1).ok
    assert timeline.verify(XlsxBackend(campaign), 2).ok
    wb = openpyxl.load_workbook(campaign)
    row = _meta_seed_row(wb["Кампания"])
    assert row is not None
    wb["Кампания"].cell(row, 2).value = "0" * 64
    wb.save(campaign)
    verdict = timeline.verify(XlsxBackend(campaign), 2)
    assert not verdict.ok and "подменено" in verdict.message
    assert timeline.verify(XlsxBackend(campaign), 1).ok  # turn 1's seed is in turn 2's snapshot, untouched


def test_verify_of_a_campaign_without_the_seed_cell_asks_the_ruleset(campaign: Path) -> None:
    """A campaign resolved before the meta kept the seed: the ruleset's own lookup (the ancient
    chronicle line) is the fallback, and a forged line is caught there too."""
    with_orders(campaign)
    sync.resolve(XlsxBackend(campaign))
    wb = openpyxl.load_workbook(campaign)
    row = _meta_seed_row(wb["Кампания"])
    assert row is not None
    wb["Кампания"].cell(row, 1).value = None
    wb["Кампания"].cell(row, 2).value = None
    wb.save(campaign)
    assert meta.revealed_seed(XlsxBackend(campaign).read()) is None
    with pytest.raises(CampaignError, match="нет раскрытого зерна хода 1"):
        timeline.verify(XlsxBackend(campaign), 1, seed_lookup=lambda t, c: None)
    assert timeline.verify(XlsxBackend(campaign), 1).ok  # the seed from the chronicle; the missing cell is no fault
    wb = openpyxl.load_workbook(campaign)
    for r in wb["Журнал"].iter_rows(min_row=2):
        if r[0].value == 1 and str(r[1].value).startswith("Зерно хода 1:"):
            r[1].value = "Зерно хода 1: " + "0" * 64 + " (sha256 = подделка)"
    wb.save(campaign)
    verdict = timeline.verify(XlsxBackend(campaign), 1)
    assert not verdict.ok and "подменено" in verdict.message


def test_verify_names_the_first_difference_when_results_were_edited(campaign: Path) -> None:
    with_orders(campaign)
    sync.resolve(XlsxBackend(campaign))
    wb = openpyxl.load_workbook(campaign)
    wb["Государства"]["F2"] = 9999
    wb.save(campaign)
    verdict = timeline.verify(XlsxBackend(campaign), 1)
    assert not verdict.ok and "Государства!F2" in verdict.message


def test_the_commitment_is_sha256_of_the_revealed_seed(campaign: Path) -> None:
    before = {r[0]: r[1] for r in XlsxBackend(campaign).read()["Кампания"][1:]}
    commitment = before["Хэш зерна хода (sha256)"]
    sync.resolve(XlsxBackend(campaign))
    chronicle = [r[1] for r in XlsxBackend(campaign).read()["Журнал"][1:] if r[0] == 1]
    line = next(x for x in chronicle if x.startswith("Зерно хода 1:"))
    seed = line.split(":")[1].split()[0]
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment


def test_rollback_to_a_turn_not_kept_is_refused(campaign: Path) -> None:
    with pytest.raises(CampaignError, match="нет хода 5"):
        timeline.rollback(XlsxBackend(campaign), to=5)


def test_the_history_commands_through_the_cli(campaign: Path, capsys, tmp_path: Path) -> None:
    from sheets_bridge.cli import main

    assert main(["resolve", str(campaign)]) == 0
    assert main(["history", str(campaign), "--json"]) == 0
    out = capsys.readouterr().out
    assert '"turn": 1' in out.splitlines()[-1]
    assert main(["verify", str(campaign), "--turn", "1"]) == 0
    assert "подтверждён" in capsys.readouterr().out
    post = tmp_path / "post.txt"
    assert main(["report", str(campaign), "--format", "bbcode", "--out", str(post), "--players",
                 str(tmp_path / "players")]) == 0
    assert "[spoiler=Египет]" in post.read_text(encoding="utf-8")
    assert (tmp_path / "post.png").exists() and (tmp_path / "players" / "Египет.md").exists()
    capsys.readouterr()
    assert main(["rollback", str(campaign), "--to", "1", "--quiet"]) == 0
    assert capsys.readouterr().out == ""  # --quiet, as the other commands take it: nothing but errors
    meta = {r[0]: r[1] for r in XlsxBackend(campaign).read()["Кампания"][1:]}
    assert meta["Открытый ход"] == 1
    assert main(["verify", str(campaign), "--turn", "1"]) == 1
    assert "нет хода 1" in capsys.readouterr().err
