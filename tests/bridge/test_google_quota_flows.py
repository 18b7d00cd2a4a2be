"""Google's quota never fails a command (issue 23, point 13): `new`, `check` and `resolve` of the
ancient demo with private orders (17 players) and of a 26-nation civ1 campaign complete on the
emulator counting Google's per-user quotas (60 Sheets reads + 60 Sheets writes a minute, Drive
apart), every command straight after the previous one.

Before, the demo could not even be created (the emulator counted Drive's permissions with the
Sheets requests, the client had no pacing and gave up on a minute-long refusal after ~8 s).  The
time is virtual: when the client waits, its clock and the emulator's jump together, so the tests
take seconds; scripts/bench_quota.py prints the same runs' minutes (docs/benchmarks.md).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from engine.core import i18n
from engine.core.tables import Changeset
from engine.rulesets.civ1 import codec, hooks
from engine.rulesets.civ1.generate import generate, generate_orders
from engine.rulesets.civ1.workbook import new_workbook
from sheets_bridge import cli, google_http, gsheets, secrets, sync
from sheets_bridge.emulator.quota import kind_of
from sheets_bridge.emulator.testing import Emulator, running_emulator
from sheets_bridge.progress import RichProgress

SA = "gm-bot@strategos-quota.iam.gserviceaccount.com"
GM = "gm@example.com"
ANCIENT_PLAYERS = (
    "Рим", "Карфаген", "Египет", "Персия", "Пергамское царство", "Македония", "Держава Селевкидов",
    "Понтийское царство", "Сиракузы", "Родос", "Афины", "Спарта", "Эпир", "Вифиния", "Парфия", "Иудея",
    "Боспорское царство",
)


class VirtualTime:
    """Real time, except that a wait is skipped: the client's clock and the emulator's jump over it."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.offset = 0.0

    def clock(self) -> float:
        return time.monotonic() + self.offset

    def sleep(self, seconds: float) -> None:
        self.offset += seconds
        self.emu.app.store.clock.offset += seconds


class Bars:
    """The CLI's progress bars, recording what a quota wait told them."""

    def __init__(self) -> None:
        self.waits: list[tuple[float, str, int]] = []

    def start(self, key: str, label: str, total: int = 1) -> None:
        pass

    def advance(self, key: str, detail: str = "") -> None:
        pass

    def finish(self, key: str) -> None:
        pass

    def quota_wait(self, seconds: float, kind: str, limit: int) -> None:
        self.waits.append((seconds, kind, limit))

    @contextmanager
    def shown(self) -> Iterator[Bars]:
        yield self


@pytest.fixture
def google_quota(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Emulator, VirtualTime, Bars]]:
    """An emulator counting Google's quotas (60 a minute), the program's key, clients on virtual time,
    and bars the CLI draws on."""
    with running_emulator(quota_per_minute=60) as emu:
        vt = VirtualTime(emu)
        key = emu.write_credentials(tmp_path / "sa.json", SA)
        monkeypatch.setenv("STRATEGOS_GOOGLE_API_BASE", emu.base_url)
        monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(key))
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
        monkeypatch.delenv("STRATEGOS_SECRETS", raising=False)
        monkeypatch.delenv("STRATEGOS_GOOGLE_QUOTA", raising=False)
        monkeypatch.setattr(google_http, "make_client",
                            functools.partial(google_http.make_client, sleep=vt.sleep, clock=vt.clock))
        bars = Bars()
        monkeypatch.setattr(cli, "_progress", lambda args: None if args.json or args.quiet else bars)
        yield emu, vt, bars


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the CLI; it must succeed (no quota error): its output."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _refused(emu: Emulator) -> int:
    """Requests Google refused for the quota."""
    return sum(1 for r in emu.stats()["requests"] if kind_of(r["endpoint"]) and r["status"] in (403, 429))


@pytest.mark.slow
def test_the_ancient_demo_with_private_orders_is_made_checked_and_resolved_under_google_s_quota(
    google_quota: tuple[Emulator, VirtualTime, Bars], capsys: pytest.CaptureFixture[str],
) -> None:
    emu, vt, bars = google_quota
    argv = ["new", "--google", "--private-orders", "--gm", GM, "--json"]
    for i, side in enumerate(ANCIENT_PLAYERS):
        argv += ["--player", f"{side}=p{i}@example.com"]
    created: dict[str, Any] = json.loads(_run(capsys, *argv))
    sid = created["spreadsheet_id"]
    assert len(created["order_spreadsheets"]) == 17
    assert "Проверен ход 1" in _run(capsys, "check", sid)
    assert "Проверен ход 1" in _run(capsys, "check", sid)  # the GM checks again after a fix
    assert "Разрешён ход 1" in _run(capsys, "resolve", sid, "--turn", "1")
    assert "Проверен ход 2" in _run(capsys, "check", sid)
    assert "Разрешён ход 2" in _run(capsys, "resolve", sid, "--turn", "2")
    # the minute was full: Google refused (a new command does not know what the last one spent) and
    # the client waited it out, the wait shown on the bar
    assert vt.offset >= 55 and _refused(emu) >= 1
    assert any(seconds > 0 for seconds, _kind, _limit in bars.waits) and bars.waits[-1][0] == 0
    assert {kind for _s, kind, limit in bars.waits} == {"sheets-read"}
    assert {limit for _s, _kind, limit in bars.waits} == {60}


@pytest.mark.slow
def test_a_civ1_campaign_of_26_nations_is_made_checked_and_resolved_under_google_s_quota(
    google_quota: tuple[Emulator, VirtualTime, Bars], capsys: pytest.CaptureFixture[str],
) -> None:
    emu, vt, _bars = google_quota
    spec = new_workbook("bench", "ru", "quota-civ1-26".ljust(32, "x"), "quota-civ1-26", data=generate(26, 20261201))
    people = {side: f"n{i}@example.com" for i, side in enumerate(spec.played_sides())}
    assert len(people) == 26
    secrets.keep(spec)
    sid = gsheets.create(spec, credentials=None, gm=GM, players=people).spreadsheet_id  # 56 writes, 108 Drive
    for stage, window in (("state", "1:государство"), ("cities", "1:города")):
        backend = gsheets.GoogleBackend.open(sid)  # the players' orders, through the API on the same quota
        tables = backend.read()
        backend.write(Changeset(blocks=hooks.order_blocks(tables, generate_orders(codec.decode(tables), stage,
                                                                                  20261201))))
        assert window in _run(capsys, "check", sid)
        assert window in _run(capsys, "resolve", sid)
    assert vt.offset >= 55 and _refused(emu) >= 1
    _calendar, open_now = sync.cursor_of(gsheets.GoogleBackend.open(sid).read())
    assert open_now.turn == 2 and open_now.rank == 0  # both stages of turn 1 resolved, once each


@pytest.mark.parametrize(("lang", "label", "text"), [
    ("ru", "Квота Google", "пауза 12 с: Google разрешает 60 записей в Sheets в минуту"),
    ("en", "Google quota", "waiting 12 s: Google allows 60 Sheets writes a minute"),
])
def test_a_quota_wait_is_drawn_on_a_bar_of_its_own(lang: str, label: str, text: str) -> None:
    """What the GM sees while the program waits for Google: the seconds left and why, in the campaign's
    language; the bar goes away when the wait is over."""
    console = Console(record=True, width=160, force_terminal=True)
    bars = RichProgress(console)
    with i18n.using(lang), bars.shown():
        bars.quota_wait(12.4, "sheets-write", 60)
        bars.bars.refresh()
        shown = console.export_text(clear=True)
        bars.quota_wait(0, "sheets-write", 60)
        bars.bars.refresh()
        after = console.export_text(clear=True)
    assert label in shown and text in shown
    assert text not in after
