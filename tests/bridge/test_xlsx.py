"""The .xlsx backend: atomic save, the previous version kept, text that looks like a formula."""

from __future__ import annotations

import hashlib
from pathlib import Path

import openpyxl
import pytest

from engine.core.errors import CampaignError
from engine.core.tables import Changeset, Formula, WriteBlock
from sheets_bridge import sync, xlsx
from sheets_bridge.xlsx import XlsxBackend


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("step", ["before-save", "saved-temp", "backup-kept"])
def test_a_crash_during_save_leaves_the_old_workbook(campaign: Path, step: str, monkeypatch) -> None:
    before = sha(campaign)

    def crash(at: str) -> None:
        if at == step:
            raise KeyboardInterrupt(at)

    monkeypatch.setattr(xlsx, "_SAVE_HOOK", crash)
    with pytest.raises(KeyboardInterrupt):
        sync.resolve(XlsxBackend(campaign))
    assert sha(campaign) == before
    assert not [p for p in campaign.parent.iterdir() if p.name.endswith(".tmp")]
    openpyxl.load_workbook(campaign)  # still opens


def test_save_keeps_the_previous_version(campaign: Path) -> None:
    before = sha(campaign)
    sync.resolve(XlsxBackend(campaign))
    bak = campaign.with_name(campaign.name + ".bak")
    assert sha(bak) == before
    assert sha(campaign) != before


def test_player_text_starting_with_equals_stays_text(campaign: Path) -> None:
    backend = XlsxBackend(campaign)
    backend.read()
    backend.write(Changeset(blocks=[WriteBlock("Журнал", 5, 2, [['=IMPORTXML("x","y")']]),
                                    WriteBlock("Журнал", 6, 2, [[Formula("=1+1")]])]))
    ws = openpyxl.load_workbook(campaign)["Журнал"]
    assert ws["B5"].data_type == "s" and ws["B5"].value == '=IMPORTXML("x","y")'
    assert ws["B6"].data_type == "f"
    tables = XlsxBackend(campaign).read()
    assert not isinstance(tables["Журнал"][4][1], Formula)
    assert isinstance(tables["Журнал"][5][1], Formula)


def test_new_campaign_has_dropdowns_frozen_headers_and_widths(campaign: Path) -> None:
    wb = openpyxl.load_workbook(campaign)
    ws = wb["Приказы — Египет"]
    assert ws.freeze_panes == "A2"
    formulas = [dv.formula1 for dv in ws.data_validations.dataValidation]
    assert any("Построить" in f for f in formulas)
    # «Объект» offers the buildings among the rest of what actions take (issue 16, point 9: the hidden «Списки»)
    assert any("'Списки'!$A$2" in f for f in formulas)
    assert "Храм" in [c.value for c in wb["Списки"]["A"]]
    assert ws.column_dimensions["I"].width >= 40
    assert wb["Государства"].freeze_panes == "B2"


def test_a_renamed_column_and_a_province_with_two_owners_are_named(campaign: Path) -> None:
    wb = openpyxl.load_workbook(campaign)
    wb["Провинции"]["B1"] = "Хозяин"  # the owner column renamed
    pop = wb["Население"]
    pop.cell(row=pop.max_row + 1, column=1, value=pop["A2"].value)  # a province's people twice
    ws = wb["Провинции"]
    ws.cell(row=ws.max_row + 1, column=1, value=ws["A2"].value)  # a province twice (two owners)
    wb.save(campaign)
    before = sha(campaign)
    with pytest.raises(CampaignError) as exc:
        sync.check(XlsxBackend(campaign))
    text = str(exc.value)
    assert "Провинции, строка 1: нет столбца «Владелец» (Owner)" in text
    assert "записана дважды" in text
    assert "Население!A" in text
    assert sha(campaign) == before


def test_a_broken_workbook_is_refused_with_every_problem_and_left_unchanged(campaign: Path) -> None:
    wb = openpyxl.load_workbook(campaign)
    states = wb["Государства"]
    states["F3"] = "много"                  # text in a number column
    states["A4"] = states["A2"].value      # a state named twice
    del wb["Море"]                          # a deleted tab
    wb["Провинции"]["B2"] = "Атлантида"     # an owner that does not exist
    wb.save(campaign)
    before = sha(campaign)
    with pytest.raises(CampaignError) as exc:
        sync.resolve(XlsxBackend(campaign))
    text = str(exc.value)
    assert "Государства!F3" in text and "не число" in text
    assert "записано дважды" in text
    assert "нет листа «Море»" in text
    assert "Атлантида" in text
    assert len(exc.value.problems) >= 4
    assert sha(campaign) == before


def _merge(path: Path, tab: str, area: str, rows: dict[str, str] | None = None) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb[tab]
    for cell, value in (rows or {}).items():
        ws[cell] = value
    ws.merge_cells(area)
    wb.save(path)


def test_i15_p4_merged_status_cells_of_an_order_tab_are_named_not_an_attribute_error(campaign: Path, capsys) -> None:
    """Point 4 (.xlsx): merged cells over the status/reason columns refuse the write, naming tab and range."""
    from sheets_bridge.cli import main

    _merge(campaign, "Приказы — Египет", "H2:I3",
           {"A2": "Нет действий", "A3": "Построить", "B3": "Храм", "C3": "Нижний Египет"})
    before = sha(campaign)
    for command in ("check", "resolve"):
        code = main([command, str(campaign)])
        err = capsys.readouterr().err
        assert code == 1, err
        assert "Приказы — Египет" in err and "H2:I3" in err and "объединены" in err
        assert "AttributeError" not in err and "MergedCell" not in err
        assert sha(campaign) == before


def test_i15_p4_merged_cells_in_a_state_tab_the_resolve_rewrites_are_named(campaign: Path) -> None:
    """Point 4 (.xlsx): a merge over a tab the program rewrites whole (states) is named by tab and range
    (L2:M2: a blank cell merged over one that resolve writes; a merge over the treasury would already
    be refused as a blank treasury, point 12)."""
    _merge(campaign, "Государства", "L2:M2")
    before = sha(campaign)
    with pytest.raises(CampaignError) as exc:
        sync.resolve(XlsxBackend(campaign))
    assert "Государства" in str(exc.value) and "L2:M2" in str(exc.value) and "M2" in str(exc.value)
    assert sha(campaign) == before


def test_i15_p4_merged_cells_the_program_does_not_write_are_left_alone(campaign: Path) -> None:
    """Point 4 (.xlsx): a merge beside the written columns, or one whose top left only is written, is fine."""
    _merge(campaign, "Приказы — Египет", "L1:N2", {"L1": "заметки ведущего"})
    _merge(campaign, "Приказы — Египет", "H2:H3", {"A2": "Нет действий"})
    sync.check(XlsxBackend(campaign))
    ws = openpyxl.load_workbook(campaign)["Приказы — Египет"]
    assert ws["H2"].value == "принят"
    assert {"L1:N2", "H2:H3"} <= {str(r) for r in ws.merged_cells.ranges}
