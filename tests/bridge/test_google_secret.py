"""Provable dice on a shared Google campaign: the secret stays on the GM's machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import meta
from sheets_bridge import gsheets, secrets, sync
from sheets_bridge.emulator.testing import running_emulator


def test_a_google_campaign_keeps_its_secret_off_the_sheet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with running_emulator() as emu:
        monkeypatch.setenv("STRATEGOS_GOOGLE_API_BASE", emu.base_url)
        creds = emu.write_credentials(tmp_path / "gm.json", "gm-bot@strategos.example")
        created = sync.create_google(title="Секрет", options=sync.Options(credentials=str(creds)), secret="s3cr3t")
        sid = created.spreadsheet_id
        tables = gsheets.GoogleBackend.open(sid, credentials=str(creds)).read()
        assert not any("s3cr3t" in str(v) for grid in tables.values() for row in grid for v in row)
        assert secrets.load(meta.text(tables, meta.CAMPAIGN_ID)) == "s3cr3t"  # keyed by the campaign id
        result = sync.resolve(gsheets.GoogleBackend.open(sid, credentials=str(creds)), turn=1)
        assert result.turn == 1
        seed_line = next(x for x in result.report.chronicle if x.startswith("Зерно хода 1:"))
        from engine.core.dice import turn_seed

        assert turn_seed("s3cr3t", 1) in seed_line
