"""Point 14 of issue 15: faults of the disk and the file reach the GM as a message, never a traceback.

Disk full, a read-only folder and denied permissions are simulated (the tests may run as root,
which the OS lets write anywhere); each must give a Russian message and exit code 1, leave the
campaign as it was and no temporary file behind.  A save keeps the workbook's mode and owner.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import gc
import hashlib
import io
import os
import stat
import sys
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from engine import rulesets
from sheets_bridge import sync, xlsx, xlsx_lock
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def temporaries(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def assert_clean_refusal(code: int, err: str, *words: str) -> None:
    assert code == 1, err
    assert "Traceback" not in err and "Errno" not in err
    for word in words:
        assert word in err, err


class FullDisk(io.FileIO):
    """A temporary file on a disk with ``room`` bytes left: a write past them fails with ENOSPC, and so
    does every later one (a full disk stays full) -- what openpyxl meets when the disk fills mid-save."""

    room = 0

    def write(self, data: Any) -> int:
        if len(data) > FullDisk.room:
            FullDisk.room = 0
            raise OSError(errno.ENOSPC, "No space left on device", self.name)
        FullDisk.room -= len(data)
        return super().write(data)


def fill_the_disk(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fill the disk for every temporary workbook the program writes (``*.tmp``, the way atomic_save
    names them), leaving a few kilobytes: the save fails half-way through its zip archive.  Returns
    the list every unraisable exception is recorded in (Python's "Exception ignored in: …", printed
    after the GM's message)."""
    real_open = io.open

    def opened(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if str(file).endswith(".tmp") and "w" in mode:
            FullDisk.room = 3000
            return io.BufferedRandom(FullDisk(file, "w+"))
        return real_open(file, mode, *args, **kwargs)

    ignored: list[str] = []
    monkeypatch.setattr(zipfile.io, "open", opened)
    monkeypatch.setattr(sys, "unraisablehook",
                        lambda u: ignored.append(f"{u.exc_type.__name__}: {u.exc_value} in {u.object!r}"))
    return ignored


def test_i15_p14_disk_full_while_saving_is_a_message_and_leaves_no_temporary(campaign: Path, capsys,
                                                                             monkeypatch) -> None:
    fill_the_disk(monkeypatch)
    before = sha(campaign)
    code, err = run(capsys, "resolve", str(campaign))
    assert_clean_refusal(code, err, "на диске нет места", str(campaign), "освободите место")
    assert sha(campaign) == before
    assert not temporaries(campaign.parent)


@pytest.mark.parametrize(("ruleset", "first"), [("ancient", "1"), ("civ1", "1:государство")], ids=["ancient", "civ1"])
def test_i23_p12_a_full_disk_prints_the_message_and_nothing_after_it(tmp_path: Path, capsys, monkeypatch,
                                                                     ruleset: str, first: str) -> None:
    """Every command that saves a workbook (new, check, resolve, rollback; civ1's books too) on a disk
    that fills up mid-save: the message, exit 1, and no «Exception ignored in: ZipFile.__del__»
    after it -- openpyxl's half-written archive is closed by the program, not by the garbage collector."""
    path = tmp_path / "g.xlsx"
    sync.create(str(path), ruleset=ruleset, secret="test-secret")
    sync.resolve(XlsxBackend(path))
    backend = XlsxBackend(path)
    backend.write(rulesets.get(ruleset).demo_changes(backend.read()))  # a check then has statuses to write
    ignored = fill_the_disk(monkeypatch)
    for argv in (["check", str(path)], ["resolve", str(path)], ["rollback", str(path), "--to", first],
                 ["new", str(tmp_path / "other.xlsx"), "--ruleset", ruleset]):
        code, err = run(capsys, *argv)
        gc.collect()
        assert code == 1, (argv, err)
        assert_clean_refusal(code, err, "на диске нет места")
        assert ignored == [], (argv, ignored)
        assert not temporaries(tmp_path), argv


def test_i15_p14_disk_full_while_keeping_the_backup_removes_both_temporaries(campaign: Path, capsys,
                                                                            monkeypatch) -> None:
    def no_space(*_args: Any, **_kw: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(xlsx.shutil, "copystat", no_space)  # called once the backup's temporary is written
    before = sha(campaign)
    code, err = run(capsys, "resolve", str(campaign))
    assert_clean_refusal(code, err, "на диске нет места")
    assert sha(campaign) == before
    assert not temporaries(campaign.parent)


def test_i15_p14_a_read_only_folder_is_a_message(campaign: Path, capsys, monkeypatch) -> None:
    class ReadOnlyFolder:
        def __init__(self, _path: str) -> None:
            pass

        def acquire(self, timeout: float) -> None:
            raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(xlsx_lock, "FileLock", ReadOnlyFolder)
    before = sha(campaign)
    code, err = run(capsys, "check", str(campaign))
    assert_clean_refusal(code, err, "только для чтения", str(campaign.parent), "скопируйте кампанию")
    assert sha(campaign) == before


def test_i15_p14_no_right_to_create_a_file_in_the_folder_is_a_message(campaign: Path, capsys, monkeypatch) -> None:
    def denied(*_args: Any, **_kw: Any) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(xlsx.tempfile, "mkstemp", denied)
    before = sha(campaign)
    code, err = run(capsys, "resolve", str(campaign))
    assert_clean_refusal(code, err, "нет прав доступа", "кампания не записана")
    assert sha(campaign) == before


def test_i15_p14_a_read_only_workbook_is_not_replaced(campaign: Path, capsys, monkeypatch) -> None:
    real_access = os.access
    monkeypatch.setattr(xlsx.os, "access",
                        lambda p, mode: False if Path(p) == campaign.resolve() else real_access(p, mode))
    before = sha(campaign)
    code, err = run(capsys, "resolve", str(campaign))
    assert_clean_refusal(code, err, "нет прав доступа", "только для чтения")
    assert sha(campaign) == before
    assert not temporaries(campaign.parent)


def test_i15_p14_no_right_to_read_the_workbook_is_a_message(campaign: Path, capsys, monkeypatch) -> None:
    real = Path.read_bytes

    def denied(self: Path) -> bytes:
        if self == campaign:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", denied)
    for command in ("check", "history"):
        code, err = run(capsys, command, str(campaign))
        assert_clean_refusal(code, err, "не удалось прочитать кампанию", "нет прав доступа", str(campaign))


def test_i15_p14_a_file_that_is_not_a_zip_is_a_russian_message(campaign: Path, capsys) -> None:
    sync.resolve(XlsxBackend(campaign))  # leaves a .bak to point to
    campaign.write_text("это не книга", encoding="utf-8")
    for command in (["check", str(campaign)], ["history", str(campaign)], ["rollback", str(campaign), "--to", "1"]):
        code, err = run(capsys, *command)
        assert_clean_refusal(code, err, "не читается как книга Excel", "не zip-архив", f"{campaign}.bak")
        assert "File is not a zip file" not in err


def test_i15_p14_a_damaged_history_snapshot_is_a_message_not_a_traceback(campaign: Path, capsys) -> None:
    """Whatever error class the damaged snapshot raises reaches the GM as words with exit code 1."""
    sync.resolve(XlsxBackend(campaign))
    wb = openpyxl.load_workbook(campaign)
    ws = wb["_История"]
    ws["D2"] = base64.b64encode(b"not gzip at all").decode()
    wb.save(campaign)
    for argv in (["rollback", str(campaign), "--to", "1"], ["verify", str(campaign), "--turn", "1"]):
        code, err = run(capsys, *argv)
        assert code == 1 and "Traceback" not in err and err.startswith("strategos: ")
        assert any("а" <= ch <= "я" for ch in err)  # in Russian


def test_i15_p14_an_unforeseen_exception_is_a_message_with_a_hint(campaign: Path, capsys, monkeypatch) -> None:
    def bug(*_args: Any, **_kw: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(sync, "check", bug)
    code, err = run(capsys, "check", str(campaign))
    assert code == 1 and "Traceback" not in err
    assert "непредвиденная ошибка программы" in err and "ZeroDivisionError" in err and "STRATEGOS_DEBUG=1" in err
    monkeypatch.setenv("STRATEGOS_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main(["check", str(campaign)])


def test_i15_p14_ctrl_c_is_a_message_and_exit_130(campaign: Path, capsys, monkeypatch) -> None:
    def interrupted(*_args: Any, **_kw: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(sync, "resolve", interrupted)
    code, err = run(capsys, "resolve", str(campaign))
    assert code == 130 and "прервано" in err and "Traceback" not in err


def test_i15_p14_an_os_fault_outside_the_campaign_save_is_a_message(campaign: Path, capsys, monkeypatch,
                                                                   tmp_path: Path) -> None:
    """report --out writing into a full disk: the CLI's top level words any OSError."""
    sync.resolve(XlsxBackend(campaign))

    def no_space(*_args: Any, **_kw: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "post.txt"))

    monkeypatch.setattr(Path, "write_text", no_space)
    code, err = run(capsys, "report", str(campaign), "--out", str(tmp_path / "post.txt"))
    assert_clean_refusal(code, err, "на диске нет места", "post.txt")


def test_i15_p14_stale_temporaries_of_a_killed_run_are_removed_at_the_next_run(campaign: Path) -> None:
    stale = [campaign.parent / ".campaign.xlsx.k1ll3d.tmp", campaign.parent / ".campaign.xlsx.bak.x9y8z7.tmp"]
    other = campaign.parent / ".other.xlsx.abc.tmp"  # another campaign's: not ours to remove
    for p in [*stale, other]:
        p.write_bytes(b"half a workbook")
    sync.check(XlsxBackend(campaign))
    assert not [p for p in stale if p.exists()]
    assert other.exists()


def test_i15_p14_a_save_keeps_the_workbook_mode_and_owner(campaign: Path) -> None:
    os.chmod(campaign, 0o640)
    with contextlib.suppress(PermissionError):  # giving a file away needs root; else the owner is ours and stays
        os.chown(campaign, 4242, 4343)
    owner = (campaign.stat().st_uid, campaign.stat().st_gid)
    sync.resolve(XlsxBackend(campaign))
    for path in (campaign, campaign.with_name("campaign.xlsx.bak")):
        st = path.stat()
        assert stat.S_IMODE(st.st_mode) == 0o640, path
        assert (st.st_uid, st.st_gid) == owner, path


def test_i15_p14_a_new_workbook_gets_the_usual_mode_not_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = Path(sync.create(str(tmp_path / "n.xlsx"), secret="s"))
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
