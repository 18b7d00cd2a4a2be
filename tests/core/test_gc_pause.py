"""The cyclic collector is paused while the bridge computes a window (engine/core/gc_pause.py)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from engine.core import gc_pause
from sheets_bridge import sync
from sheets_bridge.xlsx import XlsxBackend


def test_paused_turns_the_collector_off_and_back_on_even_after_an_error() -> None:
    assert gc.isenabled()
    with pytest.raises(RuntimeError), gc_pause.paused():
        assert not gc.isenabled()
        with gc_pause.paused():  # nested: the inner one does not resume it
            pass
        assert not gc.isenabled()
        raise RuntimeError("a phase failed")
    assert gc.isenabled()


def test_paused_leaves_a_collector_that_was_off_off() -> None:
    gc.disable()
    try:
        with gc_pause.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_check_and_resolve_compute_the_window_with_the_collector_off(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, bool]] = []
    rules = sync.ruleset_of(XlsxBackend(campaign).read())
    for name in ("check", "resolve"):
        real = getattr(type(rules), name)

        def spy(self, *args, _name=name, _real=real, **kwargs):  # type: ignore[no-untyped-def]
            seen.append((_name, gc.isenabled()))
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(type(rules), name, spy)
    sync.check(XlsxBackend(campaign))
    sync.resolve(XlsxBackend(campaign), turn=1)
    assert seen == [("check", False), ("resolve", False)]
    assert gc.isenabled()


def test_check_and_resolve_read_and_write_the_workbook_with_the_collector_off(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sheets_bridge import xlsx

    seen: list[tuple[str, bool]] = []
    real_load, real_save = xlsx.openpyxl.load_workbook, xlsx.save_workbook

    def load(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(("load", gc.isenabled()))
        return real_load(*args, **kwargs)

    def save(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(("save", gc.isenabled()))
        return real_save(*args, **kwargs)

    monkeypatch.setattr(xlsx.openpyxl, "load_workbook", load)
    monkeypatch.setattr(xlsx, "save_workbook", save)
    sync.check(XlsxBackend(campaign))
    sync.resolve(XlsxBackend(campaign), turn=1)
    assert seen and {name for name, _on in seen} == {"load", "save"}
    assert not any(on for _name, on in seen), seen
    assert gc.isenabled()
