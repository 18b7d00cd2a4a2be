"""Point 5 of issue 15 on .xlsx: no interleaving of check, resolve and rollback loses or reverts a write.

Real concurrent processes (fork), interleaved deterministically: the first command is paused at
a step of its read–compute–write (a test hook in the lock or in the save), the second is run to
its end, then the first goes on.  Before the fix a `check` that had read the pre-turn file and
wrote after a `resolve` put the campaign back to the pre-turn state in every try.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import repo_paths

from engine.core.errors import BackendError
from engine.rulesets.ancient import ruleset
from sheets_bridge import secrets, sync, timeline, xlsx, xlsx_lock
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

CTX = multiprocessing.get_context("fork")
DEADLOCK_GUARD = 300  # seconds a paused child waits for its go; a guard against a hung test, not a timing assert
# where the first command stops: (the hook's module, the step)
PAUSES = [(xlsx_lock, "locked"), (xlsx, "before-save"), (xlsx, "saved-temp"), (xlsx, "backup-kept"),
          (xlsx_lock, "unlocking")]


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def open_turn(path: Path) -> int:
    meta = XlsxBackend(path).read()["Кампания"]
    return next(r[1] for r in meta[1:] if r and r[0] == "Открытый ход")


def statuses(path: Path) -> list[Any]:
    tables = XlsxBackend(path).read()
    return [r[7] for name, grid in tables.items() if name.startswith("Приказы — ")
            for r in grid[1:] if len(r) > 7 and r[7]]  # resolve clears an executed row's input (p1)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small campaign with sample orders, open for turn 1."""
    path = tmp_path_factory.mktemp("lock") / "template.xlsx"
    spec = ruleset.new_workbook(scenario="generated:3", secret="lock-test")
    secrets.keep(spec)  # what `new` does: the dice's secret goes to the GM's store
    create_xlsx(spec, path)
    backend = XlsxBackend(path)
    backend.write(ruleset.demo_changes(backend.read()))
    return path


def _run_cli(argv: list[str], err: str, module: Any = None, step: str = "", at: Any = None, go: Any = None) -> None:
    """A child process: the CLI, paused at `step` of `module`'s hook until `go` (when given)."""
    def pause(now: str) -> None:
        if now == step:
            at.set()
            go.wait(DEADLOCK_GUARD)

    if module is xlsx:
        xlsx._SAVE_HOOK = pause
    elif module is xlsx_lock:
        xlsx_lock._HOOK = pause
    with open(err, "w", encoding="utf-8") as fh:
        sys.stderr = fh
        code = main(argv)
        fh.flush()
    os._exit(code)


def _interleave(first: list[str], second: list[str], module: Any, step: str, folder: Path) -> tuple[int, int, str]:
    """Run `first` until it reaches `step`, run `second` to its end, let `first` finish.

    Returns both exit codes and the second command's stderr.
    """
    at, go = CTX.Event(), CTX.Event()
    a = CTX.Process(target=_run_cli, args=(first, str(folder / "first.err"), module, step, at, go))
    a.start()
    assert at.wait(DEADLOCK_GUARD), (folder / "first.err").read_text(encoding="utf-8")
    b = CTX.Process(target=_run_cli, args=(second, str(folder / "second.err")))
    b.start()
    b.join()
    go.set()
    a.join()
    return a.exitcode, b.exitcode, (folder / "second.err").read_text(encoding="utf-8")


def test_i15_p5_twenty_checks_during_resolves_revert_no_turn(template: Path, tmp_path: Path) -> None:
    """20 interleavings of check and resolve: 0 reverted turns; the one that came second is refused in words."""
    outcomes = []
    for i in range(20):
        module, step = PAUSES[i % len(PAUSES)]
        path = tmp_path / f"c{i}.xlsx"
        shutil.copy(template, path)
        resolve_first = i % 2 == 0  # half the time resolve holds the file and check arrives, half the reverse
        check, resolve = ["check", str(path), "-q"], ["resolve", str(path), "-q"]
        first, second = (resolve, check) if resolve_first else (check, resolve)
        codes = _interleave(first, second, module, step, tmp_path)
        outcomes.append((i, path, first[0], resolve_first, *codes, open_turn(path)))
    reverted = [o for o in outcomes if (o[4] if o[3] else o[5]) == 0 and o[7] == 1]  # resolve said 0, turn 1 open
    assert len(outcomes) == 20 and not reverted, f"{len(reverted)} of 20 turns reverted"
    for i, path, holder, resolve_first, code_first, code_second, err, turn in outcomes:
        assert code_first == 0, f"try {i}: the command holding the file failed"
        assert code_second == 1 and "занята" in err and str(path) in err, f"try {i}: {err}"
        assert f"strategos {holder}" in err  # names what holds it
        assert turn == (2 if resolve_first else 1), f"try {i}"
        if not resolve_first:
            assert {"принят", "отклонён"} & set(statuses(path)), f"try {i}: the check's statuses are lost"


def test_i15_p5_rollback_during_a_resolve_is_refused_and_the_turn_kept(template: Path, tmp_path: Path) -> None:
    path = tmp_path / "c.xlsx"
    shutil.copy(template, path)
    sync.resolve(XlsxBackend(path))
    code_first, code_second, err = _interleave(["resolve", str(path), "-q"], ["rollback", str(path), "--to", "1"],
                                               xlsx, "saved-temp", tmp_path)
    assert (code_first, code_second) == (0, 1) and "занята" in err
    assert open_turn(path) == 3


def test_i15_p5_a_killed_holder_frees_the_campaign_and_its_temporaries_are_cleaned(template: Path,
                                                                                   tmp_path: Path) -> None:
    """Point 5/14: the OS lets go of a SIGKILLed holder's lock; its temporary file goes at the next run."""
    path = tmp_path / "c.xlsx"
    shutil.copy(template, path)
    at, go = CTX.Event(), CTX.Event()
    child = CTX.Process(target=_run_cli, args=(["resolve", str(path), "-q"], str(tmp_path / "k.err"), xlsx,
                                               "saved-temp", at, go))
    child.start()
    assert at.wait(DEADLOCK_GUARD)
    stale = [p for p in tmp_path.iterdir() if p.name.startswith(".c.xlsx.") and p.name.endswith(".tmp")]
    assert stale  # the killed save's temporary is there
    os.kill(child.pid, signal.SIGKILL)
    child.join()
    assert open_turn(path) == 1
    sync.resolve(XlsxBackend(path))
    assert open_turn(path) == 2
    assert not [p for p in stale if p.exists()]


def test_i15_p5_a_second_command_in_its_own_interpreter_is_refused_in_words(template: Path, tmp_path: Path) -> None:
    """The CLI as the GM runs it (a new python process) while another process holds the lock."""
    path = tmp_path / "c.xlsx"
    shutil.copy(template, path)
    before = sha(path)
    with xlsx_lock.exclusive(path, "resolve"):
        done = subprocess.run([sys.executable, "-m", "sheets_bridge.cli", "check", str(path)], capture_output=True,
                              text=True, cwd=repo_paths.ROOT, check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert f"кампания {path} сейчас занята" in done.stderr and "strategos resolve" in done.stderr
    assert f"процесс {os.getpid()}" in done.stderr
    assert sha(path) == before


@pytest.mark.parametrize(("lock_name", "app"), [(".~lock.c.xlsx#", "LibreOffice"), ("~$c.xlsx", "Excel")])
@pytest.mark.parametrize("name", ["c.xlsx", "поход.xlsx"])
def test_i15_p5_a_workbook_open_in_a_spreadsheet_application_is_not_written(template: Path, tmp_path: Path,
                                                                           lock_name: str, app: str, name: str,
                                                                           capsys) -> None:
    """LibreOffice's `.~lock.NAME#` or Excel's `~$NAME` beside the file: every writing command refuses."""
    path = tmp_path / name
    shutil.copy(template, path)
    sync.resolve(XlsxBackend(path))
    lock_name = lock_name.replace("c.xlsx", name)
    lock = tmp_path / lock_name
    if app == "LibreOffice":
        lock.write_text(",Мастер Игры,gm-laptop,01.12.2026 09:00,file:///home/gm/.config/libreoffice/4;",
                        encoding="utf-8")
    else:
        lock.write_bytes(bytes([11]) + "Мастер Игры".encode("cp1251") + b"\0" * 40)
    before = sha(path)
    for argv in (["check", str(path)], ["resolve", str(path)], ["rollback", str(path), "--to", "1"],
                 ["new", str(path), "--force"]):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 1, argv
        assert f"открыт в {app}" in err and lock_name in err and "Ничего не изменено" in err
        assert "(Мастер Игры" in err
        assert sha(path) == before
    lock.unlink()
    assert main(["check", str(path), "-q"]) == 0


def test_i15_p5_spreadsheet_application_opening_the_file_during_a_command_stops_its_write(template: Path,
                                                                                          tmp_path: Path) -> None:
    path = tmp_path / "c.xlsx"
    shutil.copy(template, path)
    before = sha(path)

    def calc_opens(step: str) -> None:
        if step == "locked":
            (tmp_path / ".~lock.c.xlsx#").write_text(",gm,host,now,file:///x;", encoding="utf-8")

    xlsx_lock._HOOK = calc_opens
    try:
        with pytest.raises(BackendError, match="открыт в LibreOffice"):
            sync.resolve(XlsxBackend(path))
    finally:
        xlsx_lock._HOOK = None
    assert sha(path) == before


def test_i15_p5_a_file_saved_by_another_program_between_read_and_write_is_not_reverted(template: Path,
                                                                                        tmp_path: Path,
                                                                                        monkeypatch) -> None:
    """Without any lock (a GM saving from Excel): the save sees the file changed since its read and refuses."""
    path = tmp_path / "c.xlsx"
    shutil.copy(template, path)

    def excel_saves(step: str) -> None:
        if step == "saved-temp":
            wb = openpyxl.load_workbook(path)
            wb["Государства"]["F2"] = 777_777
            wb.save(path)

    monkeypatch.setattr(xlsx, "_SAVE_HOOK", excel_saves)
    with pytest.raises(BackendError, match="изменился на диске"):
        sync.resolve(XlsxBackend(path))
    monkeypatch.setattr(xlsx, "_SAVE_HOOK", None)
    assert openpyxl.load_workbook(path)["Государства"]["F2"].value == 777_777  # the other program's save stands
    assert open_turn(path) == 1
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_i15_p5_one_backend_writes_twice_and_a_command_nests_its_own_writes(template: Path, tmp_path: Path) -> None:
    """The guard follows our own saves, and the lock is re-entrant inside one command (demo, rollback)."""
    path = tmp_path / "c.xlsx"
    shutil.copy(template, path)
    backend = XlsxBackend(path)
    with sync.exclusive(backend, "demo"):
        sync.check(backend)
        sync.resolve(XlsxBackend(path))
        sync.resolve(XlsxBackend(path))
        timeline.rollback(XlsxBackend(path), 2)
    assert open_turn(path) == 2


def test_i15_p5_a_missing_workbook_is_named_and_no_lock_file_is_left(tmp_path: Path, capsys) -> None:
    assert main(["check", str(tmp_path / "nope.xlsx")]) == 1
    assert "файл кампании не найден" in capsys.readouterr().err
    assert main(["resolve", str(tmp_path / "no-folder" / "nope.xlsx")]) == 1
    assert "файл кампании не найден" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
