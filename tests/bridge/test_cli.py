"""The CLI end to end on the embedded .xlsx default (ANC-TURN-08, ANC-TURN-16, ANC-MONEY-02)."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

from engine.core.money import amount
from engine.rulesets.ancient import public
from sheets_bridge import sync
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_demo_resolves_a_turn_with_a_status_in_every_sample_row(tmp_path: Path, capsys) -> None:
    code, out, _ = run(capsys, "demo", str(tmp_path / "d"), "--json")
    assert code == 0
    data = json.loads(out)
    path = Path(data["workbook"])
    assert data["resolve"]["turn"] == 1
    assert data["resolve"]["orders"]["done"] >= 5 and data["resolve"]["orders"]["rejected"] >= 5
    tables = XlsxBackend(path).read()
    meta = {r[0]: r[1] for r in tables["Кампания"][1:]}
    assert meta["Открытый ход"] == 2
    # the executed rows keep their stamp and results; their input went to «Архив приказов» (issue 15, point 1)
    rows = [r for n, g in tables.items() if n.startswith("Приказы — ") for r in g[1:] if len(r) > 6 and r[6] == 1]
    assert len(rows) >= 15
    assert all(r[7] in ("выполнен", "отклонён", "частично", "принят") and r[8] and r[9] and not r[0] for r in rows)
    assert len(tables["Баланс"]) == 28  # header + 26 states + totals
    chronicle = [r[1] for r in tables["Журнал"][1:] if r[0] == 1]
    assert any("построен" in line for line in chronicle)


def test_json_summary_has_the_documented_fields(campaign: Path, capsys) -> None:
    code, out, _ = run(capsys, "resolve", str(campaign), "--json")
    assert code == 0
    s = json.loads(out)
    assert s["turn"] == 1 and isinstance(s["orders"], dict)
    assert s["window"] == "1" and s["states"] == s["sides"]  # "states": the deprecated alias of "sides"
    st = s["sides"][0]
    assert set(st) >= {"name", "opening", "income", "expenses", "closing", "stability"}
    for st in s["sides"]:
        assert st["closing"] == pytest.approx(st["opening"] + st["income"] - st["expenses"])


def test_resolve_of_an_already_resolved_turn_changes_nothing(campaign: Path, capsys) -> None:
    assert run(capsys, "resolve", str(campaign), "--turn", "1")[0] == 0
    before = sha(campaign)
    code, _out, err = run(capsys, "resolve", str(campaign), "--turn", "1")
    assert code == 1
    assert "уже разрешён" in err and "Ничего не изменено" in err
    assert sha(campaign) == before


def test_check_writes_only_the_result_columns(campaign: Path, capsys) -> None:
    wb = openpyxl.load_workbook(campaign)
    ws = wb["Приказы — Египет"]
    ws["A2"], ws["B2"], ws["C2"] = "Построить", "Храмм", "Нижний Египет"
    wb.save(campaign)
    before = XlsxBackend(campaign).read()
    assert run(capsys, "check", str(campaign))[0] == 0
    after = XlsxBackend(campaign).read()
    for name in before:
        if name != "Приказы — Египет":
            assert before[name] == after[name], name
    row = after["Приказы — Египет"][1]
    assert row[:3] == ["Построить", "Храмм", "Нижний Египет"]
    assert row[7] == "отклонён" and "может быть, «Храм»" in row[8]


def test_exit_codes(tmp_path: Path, capsys) -> None:
    code, _o, err = run(capsys, "resolve", str(tmp_path / "missing.xlsx"))
    assert code == 1 and "не найден" in err
    with pytest.raises(SystemExit) as exc:
        main(["resolve"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["frobnicate"])
    assert exc.value.code == 2


def test_new_refuses_to_overwrite(campaign: Path, capsys) -> None:
    code, _o, err = run(capsys, "new", str(campaign), "--ruleset", "ancient")
    assert code == 1 and "уже есть" in err


def test_new_in_english(tmp_path: Path, capsys) -> None:
    path = tmp_path / "en.xlsx"
    assert run(capsys, "new", str(path), "--lang", "en")[0] == 0
    tables = XlsxBackend(path).read()
    assert {"Campaign", "States", "Provinces", "Population", "Balance", "Ledger", "Chronicle"} <= set(tables)
    assert tables["States"][0][0] == "State"
    assert any(n.startswith("Orders — ") for n in tables)
    assert run(capsys, "resolve", str(path))[0] == 0
    assert XlsxBackend(path).read()["Campaign"][5][1] == 2


def test_russian_and_english_headers_are_both_read(campaign: Path) -> None:
    wb = openpyxl.load_workbook(campaign)
    wb["Государства"]["F1"] = "Treasury"  # an English header in a Russian workbook
    wb.save(campaign)
    result = sync.resolve(XlsxBackend(campaign))
    assert result.turn == 1


def test_balance_closing_equals_opening_plus_ledger_for_every_state(tmp_path: Path, capsys) -> None:
    run(capsys, "demo", str(tmp_path / "d"))
    tables = XlsxBackend(tmp_path / "d" / "demo.xlsx").read()
    ledger = tables["Казна"][1:]
    header = tables["Баланс"][0]
    for row in tables["Баланс"][1:-1]:  # the last row holds the totals
        name = row[0]
        opening = amount(row[1])
        closing = amount(row[header.index("Казна на конец, Д")])
        lines = sum((amount(r[4]) for r in ledger if r[1] == name and r[0] == 1 and r[5] == "Д"), Fraction(0))
        assert opening + lines == closing, name
        treasury = next(r[5] for r in tables["Государства"][1:] if r[0] == name)
        assert amount(treasury) == closing


def test_a_gm_edit_of_a_rules_tab_changes_the_next_turn(campaign: Path) -> None:
    """The Empire's tax rate lives in «Правила — Правление»; the engine reads the campaign's copy."""
    wb = openpyxl.load_workbook(campaign)
    ws = wb["Государства"]
    for row in ws.iter_rows(min_row=2):
        if row[0].value == "Рим":
            row[2].value, row[4].value = "Империя", 3
    wb.save(campaign)
    def rome_tax(result) -> Fraction:  # type: ignore[no-untyped-def]
        return sum((e.amount for e in result.report.ledger if e.state == "Рим" and e.category == "налоги"),
                   Fraction(0))

    first = sync.resolve(XlsxBackend(campaign))
    citizens = first.report.facts.taxes["Рим"][0]
    assert citizens > 0
    assert rome_tax(first) == citizens * 3
    wb = openpyxl.load_workbook(campaign)
    ws = wb["Правила — Правление"]
    for row in ws.iter_rows(min_row=2):
        if row[0].value == "empire":
            row[3].value = 5
    wb.save(campaign)
    second = sync.resolve(XlsxBackend(campaign))
    assert rome_tax(second) == second.report.facts.taxes["Рим"][0] * 5


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if a person were watching a terminal: progress bars are drawn (on stderr)."""
    from sheets_bridge import progress

    monkeypatch.setattr(progress, "visible", lambda: True)


def test_a_watched_resolve_shows_progress_on_stderr_and_a_summary_table(
    campaign: Path, capsys: pytest.CaptureFixture[str], watched: None
) -> None:
    """Issue #8: bars for the read, every phase of the turn and the write; then a table of the
    played states whose numbers are the summary's."""
    code, out, err = run(capsys, "resolve", str(campaign))
    assert code == 0, err
    for step in ("Чтение таблицы", "Разрешение хода", "Запись итогов"):
        assert step in err
    assert "12/12" in err  # the twelve phases of ANC-TURN-01
    assert "Разрешён ход 1." in out and "Государство" not in err
    tables = XlsxBackend(campaign).read()
    rows = {r[0]: r for r in tables["Баланс"][1:] if r and r[0] and r[0] != "Итого"}
    rome = next(line for line in out.splitlines() if line.startswith("│ Рим "))
    cells = [c.strip() for c in rome.strip("│").split("│")]
    assert cells[0] == "Рим"
    assert amount(cells[4].replace("\u202f", "")) == amount(rows["Рим"][public.C_CLOSE - 1])  # closing treasury
    assert "Итого" in out


def test_quiet_and_json_keep_scripts_quiet(campaign: Path, capsys: pytest.CaptureFixture[str], watched: None) -> None:
    code, out, err = run(capsys, "check", str(campaign), "--quiet")
    assert (code, out, err) == (0, "", "")
    code, out, err = run(capsys, "resolve", str(campaign), "--json")
    assert code == 0 and err == ""
    assert json.loads(out)["turn"] == 1
    code, out, err = run(capsys, "new", str(campaign.with_name("other.xlsx")), "-q")
    assert (code, out, err) == (0, "", "")
    code, out, err = run(capsys, "resolve", str(campaign), "--turn", "1", "--quiet")
    assert code == 1 and out == "" and "уже разрешён" in err  # errors still speak
