"""Issue 15, point 7: the dice's secret is in no cell of any workbook, .xlsx included.

`new` keeps it in the GM's secret store (sheets_bridge/secrets.py) under the campaign id it writes
into the meta tab; resolve finds it there, says what to do on a machine that lacks it, and refuses
one that does not hash to the published commitment; an old campaign's secret moves to the store.
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pytest

from engine.core import history, meta
from engine.core.errors import CampaignError
from engine.core.tables import Tables, TabSpec
from engine.rulesets.ancient import ruleset
from sheets_bridge import secrets, sync, timeline
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

SECRET = "0123456789abcdef-a-long-test-secret"


def _cells(tables: Tables) -> list[str]:
    """Every cell as text, the history snapshots unpacked too."""
    out = [str(v) for grid in tables.values() for row in grid for v in row if v is not None]
    for e in history.entries(tables):
        out += _cells(e.tables())
    return out


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_i15_p7_no_cell_of_a_new_xlsx_holds_the_secret(tmp_path: Path) -> None:
    path = tmp_path / "c.xlsx"
    sync.create(str(path), secret=SECRET)
    tables = XlsxBackend(path).read()
    assert not any(SECRET in v for v in _cells(tables))
    cid = meta.text(tables, meta.CAMPAIGN_ID)
    assert len(cid) == 32 and secrets.load(cid) == SECRET
    sync.resolve(XlsxBackend(path), turn=1)
    assert not any(SECRET in v for v in _cells(sync.read_all(XlsxBackend(path))))


def test_i15_p7_a_machine_without_the_secret_is_told_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.xlsx"
    sync.create(str(path), secret=SECRET)
    before = _sha(path)
    monkeypatch.setenv("STRATEGOS_SECRETS", str(tmp_path / "elsewhere.json"))
    assert main(["resolve", str(path), "--turn", "1"]) == 1
    err = capsys.readouterr().err
    assert "нет секрета кампании" in err and "strategos secret import" in err and "Traceback" not in err
    assert _sha(path) == before
    assert main(["check", str(path)]) == 0  # a check needs no secret, and says resolve would
    assert "нет секрета кампании" in capsys.readouterr().out


def test_i15_p7_export_and_import_move_the_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.xlsx"
    sync.create(str(path), secret=SECRET)
    capsys.readouterr()
    assert main(["secret", "export", str(path)]) == 0
    exported = tmp_path / "secret.json"
    exported.write_text(capsys.readouterr().out, encoding="utf-8")
    monkeypatch.setenv("STRATEGOS_SECRETS", str(tmp_path / "second-machine.json"))
    wrong = tmp_path / "wrong.json"
    cid = meta.text(XlsxBackend(path).read(), meta.CAMPAIGN_ID)
    wrong.write_text(secrets.export_text(cid, "not-the-secret"), encoding="utf-8")
    assert main(["secret", "import", str(path), str(wrong)]) == 2  # a wrong secret is never stored
    assert main(["secret", "import", str(path), str(exported)]) == 0
    assert main(["resolve", str(path), "--turn", "1"]) == 0


def test_i15_p7_resolve_refuses_a_secret_that_does_not_match_the_commitment(tmp_path: Path) -> None:
    path = tmp_path / "c.xlsx"
    sync.create(str(path), secret=SECRET)
    secrets.save(meta.text(XlsxBackend(path).read(), meta.CAMPAIGN_ID), "a-swapped-secret-of-the-gm")
    before = _sha(path)
    with pytest.raises(CampaignError, match="не совпадает с опубликованным хэшем зерна хода 1"):
        sync.resolve(XlsxBackend(path), turn=1)
    assert _sha(path) == before


def _legacy(path: Path) -> None:
    """A campaign as made before issue 15: the secret in the meta (no campaign id), and an older
    snapshot in the history that holds it too."""
    spec = ruleset.new_workbook(secret=SECRET)
    tabs = []
    for t in spec.tabs:
        if t.kind == "meta" and t.name != history.HISTORY_TAB:
            rows = [["Секрет ведущего", SECRET] if r and r[0] == "Идентификатор кампании" else r for r in t.rows]
            t = dataclasses.replace(t, rows=rows)
        tabs.append(t)
    tables = {t.name: [list(r) for r in t.rows] for t in tabs}
    tabs = [dataclasses.replace(t, rows=[*t.rows, history.row_for(0, tables)]) if t.name == history.HISTORY_TAB
            else t for t in tabs]
    create_xlsx(dataclasses.replace(spec, tabs=tabs, secret="", campaign_id=""), path)


def test_i15_p7_an_old_campaign_moves_its_secret_to_the_store(tmp_path: Path) -> None:
    path = tmp_path / "old.xlsx"
    _legacy(path)
    assert any(SECRET in v for v in _cells(sync.read_all(XlsxBackend(path))))
    result = sync.resolve(XlsxBackend(path), turn=1)
    assert any("перенесён" in n for n in result.summary["notices"])
    after = sync.read_all(XlsxBackend(path))
    assert not any(SECRET in v for v in _cells(after))
    assert secrets.load(meta.text(after, meta.CAMPAIGN_ID)) == SECRET
    assert timeline.verify(XlsxBackend(path), 1).ok
    sync.resolve(XlsxBackend(path), turn=2)
    timeline.rollback(XlsxBackend(path), 1)  # the restored snapshot must not bring the secret back
    back = sync.read_all(XlsxBackend(path))
    assert not any(SECRET in v for v in _cells(back))
    assert meta.text(back, meta.CAMPAIGN_ID) == meta.text(after, meta.CAMPAIGN_ID)
    assert sync.resolve(XlsxBackend(path), turn=1).turn == 1


def test_i15_p7_rollback_of_an_old_campaign_keeps_the_secret(tmp_path: Path) -> None:
    """Rolled back before any resolve moved it: the secret goes to the store, not lost, not kept."""
    path = tmp_path / "old.xlsx"
    _legacy(path)
    timeline.rollback(XlsxBackend(path), 0)
    back = sync.read_all(XlsxBackend(path))
    assert not any(SECRET in v for v in _cells(back))
    assert secrets.load(meta.text(back, meta.CAMPAIGN_ID)) == SECRET


def test_i15_p7_a_ruleset_that_writes_the_secret_into_a_cell_is_refused(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    real = ruleset.new_workbook

    def leaky(*args: object, **kwargs: object) -> object:
        spec = real(*args, **kwargs)  # type: ignore[arg-type]
        return dataclasses.replace(spec, tabs=[*spec.tabs, TabSpec("Утечка", [[spec.secret]])])

    monkeypatch.setattr(ruleset, "new_workbook", leaky)
    with pytest.raises(CampaignError, match="секрет ведущего оказался бы в ячейке"):
        sync.create(str(tmp_path / "c.xlsx"), secret=SECRET)
    assert not (tmp_path / "c.xlsx").exists()
