"""`check` at a cursor (issue 17, point 2): `strategos check --turn N` / `--stage S` refuses, in the
campaign's language and writing nothing, when the asked window is not the open one — on .xlsx
and on the Google emulator, for the one-stage ancient game and the staged cursor toy; and the
Protocol's `check(expect=…)` refuses the same way."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cursor_toy
import pytest
import test_google_support as support
from test_google_support import GoogleEnv, demo_spec, normal

from engine import rulesets
from engine.core import i18n, meta
from engine.core.cursor import Cursor, CursorError
from engine.core.errors import TurnMismatch
from sheets_bridge import secrets, sync
from sheets_bridge.base import Backend
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

emulator_server = support.emulator_server
google = support.google

TOY_SECRET = "0123456789abcdef0123456789abcdef"


@dataclass
class Book:
    """One campaign on one backend: how to reach it from the CLI and what must not change."""

    target: str
    open: Callable[[], Backend]
    extra: list[str]
    path: Path | None = None

    def fingerprint(self) -> str:
        if self.path is not None:
            return hashlib.sha256(self.path.read_bytes()).hexdigest()
        return repr(normal(self.open().read()))

    def cli(self, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
        code = main([argv[0], self.target, *argv[1:], *self.extra])
        out, err = capsys.readouterr()
        return code, out + err


def _on(kind: str, spec_path: Path, make: Callable[[], object], request: pytest.FixtureRequest) -> Book:
    """The campaign `make()` (a WorkbookSpec) as an .xlsx file at `spec_path` or a Google sheet."""
    spec = make()
    if kind == "xlsx":
        create_xlsx(spec, spec_path)  # type: ignore[arg-type]
        return Book(str(spec_path), lambda: XlsxBackend(spec_path), [], spec_path)
    env: GoogleEnv = request.getfixturevalue("google")
    sid = env.create(spec, players={}).spreadsheet_id  # type: ignore[arg-type]
    return Book(f"https://docs.google.com/spreadsheets/d/{sid}/edit", lambda: env.backend(sid),
                ["--credentials", str(env.sa_key)])


@pytest.fixture(params=["xlsx", "google"])
def ancient(request: pytest.FixtureRequest, tmp_path: Path) -> Book:
    return _on(request.param, tmp_path / "ancient.xlsx", demo_spec, request)


@pytest.fixture(params=["xlsx", "google"])
def toy(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Book:
    monkeypatch.setitem(rulesets.RULESETS, cursor_toy.NAME, "cursor_toy:RULESET")

    def spec() -> object:
        cid = meta.new_campaign_id()
        secrets.save(cid, TOY_SECRET)
        return cursor_toy.workbook(TOY_SECRET, cid)

    return _on(request.param, tmp_path / "toy.xlsx", spec, request)


def test_check_refuses_a_turn_that_is_not_open(ancient: Book, capsys: pytest.CaptureFixture[str]) -> None:
    before = ancient.fingerprint()
    code, text = ancient.cli(capsys, "check", "--turn", "2")
    assert code == 1
    assert "Открыт ход «1», а просили проверить «2» — он ещё не открыт. Ничего не изменено." in text
    assert ancient.fingerprint() == before
    code, text = ancient.cli(capsys, "check", "--stage", "города")
    assert code == 2 and "«1:города»: в этой игре у хода нет этапов" in text
    code, text = ancient.cli(capsys, "check", "--turn", "1")
    assert code == 0 and "Проверен ход 1" in text
    assert ancient.cli(capsys, "resolve", "--turn", "1")[0] == 0
    before = ancient.fingerprint()
    code, text = ancient.cli(capsys, "check", "--turn", "1")
    assert code == 1
    assert "Открыт ход «2», а просили проверить «1» — он уже разрешён. Ничего не изменено." in text
    assert ancient.fingerprint() == before


def test_check_refuses_a_stage_that_is_not_open(toy: Book) -> None:
    assert sync.check(toy.open(), stage="государство").summary["cursor"] == "1:state"
    assert sync.check(toy.open(), turn=1, stage="state").summary["cursor"] == "1:state"
    assert sync.check(toy.open(), turn=1).summary["cursor"] == "1:state"
    before = toy.fingerprint()
    with pytest.raises(TurnMismatch, match="Открыт ход «1:государство», а просили проверить «1:бой:1» — он ещё не"):
        sync.check(toy.open(), stage="бой:1")
    with pytest.raises(TurnMismatch, match="просили проверить «2» — он ещё не открыт"):
        sync.check(toy.open(), turn=2)
    with pytest.raises(CursorError, match="нет этапа «рынок»"):
        sync.check(toy.open(), stage="рынок")
    assert toy.fingerprint() == before
    for _ in range(2):
        sync.resolve(toy.open())
    with pytest.raises(TurnMismatch, match="Открыт ход «1:бой:2», а просили проверить «1:бой:1» — он уже разрешён"):
        sync.check(toy.open(), stage="бой:1")
    assert sync.check(toy.open(), stage="бой:2").summary["cursor"] == "1:battle:2"


def test_the_refusal_is_in_the_campaign_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "en.xlsx"
    create_xlsx(demo_spec("en"), path)
    assert main(["check", str(path), "--turn", "3"]) == 1
    assert "Turn «1» is open, but «3» was asked to be checked — it is not open yet. Nothing was changed." in (
        capsys.readouterr().err)


def test_a_ruleset_told_the_window_refuses_another(campaign: Path, tmp_path: Path) -> None:
    game = rulesets.get("ancient")
    tables = XlsxBackend(campaign).read()
    assert game.check(tables, expect=Cursor(1)).turn == 1
    with pytest.raises(TurnMismatch, match="просили проверить «2» — он ещё не открыт"):
        game.check(tables, expect=Cursor(2))
    english = tmp_path / "en.xlsx"
    create_xlsx(demo_spec("en"), english)
    with pytest.raises(TurnMismatch, match="«2» was asked to be checked"):  # the campaign's words, not the caller's
        game.check(XlsxBackend(english).read(), expect=Cursor(2))
    with i18n.using("en"), pytest.raises(TurnMismatch, match="просили проверить «2»"):
        game.check(tables, expect=Cursor(2))
