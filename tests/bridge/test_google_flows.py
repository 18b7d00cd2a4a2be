"""The main flows on both backends: the same CLI commands on an .xlsx file and on a Google sheet.

Each test gets a ``book`` (a fresh demo campaign with a fixed secret, on the backend of the
parameter) and drives it through `strategos check` / `strategos resolve`; the Google book also
counts requests.  The golden worked examples of tests/games/ancient/test_golden_workbooks.py run on Google
too, and a Google campaign must end up cell for cell like the .xlsx one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest
import test_google_support as support
import yaml
from test_golden_workbooks import GOLDEN, ROOT
from test_google_support import GoogleEnv, demo_spec, meta, normal, small_spec

from engine import rulesets
from engine.core import history
from engine.core import meta as campaign_meta
from engine.core import scenario as core_scenario
from engine.core.ruleset import SyncResult
from engine.core.tables import Changeset, Tables, TabSpec, WorkbookSpec, WriteBlock
from engine.core.tabs import REGISTRY_TAB
from engine.core.turn import TurnReport
from engine.rulesets.ancient import ruleset, scenario
from sheets_bridge import secrets, sync
from sheets_bridge.cli import main
from sheets_bridge.xlsx import XlsxBackend, create_xlsx

emulator_server = support.emulator_server
google = support.google

ORDER_PREFIX = "Приказы — "
RESULT_COLUMNS = {7, 8, 9}  # status, reason, understood (0-based)


@dataclass
class Book:
    """A campaign on one backend, driven like a GM drives it."""

    kind: str
    target: str
    open: Callable[[], sync.Backend]
    env: GoogleEnv | None = None
    path: Path | None = None
    extra_args: list[str] = field(default_factory=list)

    def read(self) -> Tables:
        """Every tab, through a fresh backend."""
        return self.open().read()

    def write(self, changes: Changeset) -> None:
        """Apply changes, as a GM editing the sheet would."""
        backend = self.open()
        backend.read()
        backend.write(changes)

    def cli(self, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
        """Run `strategos <argv[0]> <target> <argv[1:]>`."""
        code = main([argv[0], self.target, *argv[1:], *self.extra_args])
        out, err = capsys.readouterr()
        return code, out, err

    def fingerprint(self) -> str:
        """What must not change when nothing is written: the file bytes / the sheet's content."""
        if self.path is not None:
            return hashlib.sha256(self.path.read_bytes()).hexdigest()
        return repr(normal(self.read()))


def _make_book(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Book:
    """The demo campaign on a backend (on Google: a clone of the module's freshly created demo)."""
    if kind == "xlsx":
        path = tmp_path / "campaign.xlsx"
        create_xlsx(demo_spec(), path)
        return Book("xlsx", str(path), lambda: XlsxBackend(path), path=path)
    env: GoogleEnv = request.getfixturevalue("google")
    sid = env.campaign("demo", orders=False)
    return Book("google", f"https://docs.google.com/spreadsheets/d/{sid}/edit", lambda: env.backend(sid), env=env,
                extra_args=["--credentials", str(env.sa_key)])


@pytest.fixture(params=["xlsx", "google"])
def book(request: pytest.FixtureRequest, tmp_path: Path) -> Book:
    """A fresh demo campaign (fixed secret) on the parameter's backend."""
    return _make_book(request.param, tmp_path, request)


def _with_demo_orders(book: Book) -> None:
    book.write(ruleset.demo_changes(book.read()))


def test_main_flow_check_resolve_and_resolve_again(book: Book, capsys: pytest.CaptureFixture[str]) -> None:
    """Sample orders; check writes only the status columns; resolve advances the turn and fills
    the balance, chronicle and ledger; resolving the same turn again changes nothing."""
    _with_demo_orders(book)
    before = book.read()
    code, out, err = book.cli(capsys, "check")
    assert code == 0, err
    assert "Проверен ход 1" in out
    after = book.read()
    assert set(after) == set(before)
    for name in before:
        if not name.startswith(ORDER_PREFIX):
            assert normal({name: before[name]}) == normal({name: after[name]}), name
            continue
        old, new = normal({name: before[name]})[name], normal({name: after[name]})[name]
        for r in range(max(len(old), len(new))):
            a = old[r] if r < len(old) else []
            b = new[r] if r < len(new) else []
            for c in range(max(len(a), len(b))):
                if c not in RESULT_COLUMNS:
                    assert (a[c] if c < len(a) else None) == (b[c] if c < len(b) else None), (name, r, c)
    rows = [r for n, g in after.items() if n.startswith(ORDER_PREFIX) for r in g[1:] if r and r[0]]
    assert len(rows) >= 15
    assert all(r[7] in ("принят", "отклонён", "частично") and r[8] is not None for r in rows)

    code, out, err = book.cli(capsys, "resolve", "--turn", "1")
    assert code == 0, err
    assert "Разрешён ход 1" in out
    tables = book.read()
    assert meta(tables)["Открытый ход"] == 2
    assert meta(tables)["Последний разрешённый ход"] == 1
    states = [r[0] for r in tables["Государства"][1:] if r and r[0]]
    assert set(states) <= {r[0] for r in tables["Баланс"][1:] if r}
    assert any(r and r[0] == 1 and "построен" in str(r[1]) for r in tables["Журнал"][1:])
    assert len([r for r in tables["Казна"][1:] if r and r[0] == 1]) > 26
    stamped = [r for n, g in tables.items() if n.startswith(ORDER_PREFIX) for r in g[1:] if len(r) > 7 and r[7]]
    assert len(stamped) == len(rows)  # every executed row: stamped, its input archived and cleared (i15 p1)
    assert all(r[6] == 1 and r[7] in ("выполнен", "отклонён", "частично", "принят") and not r[0] for r in stamped)

    fingerprint = book.fingerprint()
    if book.env is not None:
        book.env.reset()
    code, _out, err = book.cli(capsys, "resolve", "--turn", "1")
    assert code == 1
    assert "уже разрешён" in err and "Ничего не изменено" in err
    if book.env is not None:
        assert book.env.counts() == {"sheets.get": 1}  # one read, no write request at all
    assert book.fingerprint() == fingerprint


def test_bad_rows_get_russian_reasons(book: Book, capsys: pytest.CaptureFixture[str]) -> None:
    tab = "Приказы — Египет"
    book.write(Changeset(blocks=[WriteBlock(tab, 2, 1, [["Построить", "Храмм", "Нижний Египет"],
                                                        ["Летать", "", ""],
                                                        ["Построить", "Храм", "Атлантида"]])]))
    assert book.cli(capsys, "check")[0] == 0
    rows = book.read()[tab]
    assert rows[1][7] == "отклонён" and "может быть, «Храм»" in rows[1][8]
    assert rows[2][7] == "отклонён" and "Летать" in rows[2][8]
    assert rows[3][7] == "отклонён" and "Атлантида" in rows[3][8]
    assert all(any("а" <= ch <= "я" for ch in r[8]) for r in rows[1:4])


def test_a_gm_edit_of_a_rules_tab_changes_the_next_turn(book: Book) -> None:
    """The Empire's tax rate lives in «Правила — Правление»; the engine reads the campaign's copy."""
    tables = book.read()
    rome = next(i for i, r in enumerate(tables["Государства"]) if r and r[0] == "Рим")
    book.write(Changeset(blocks=[WriteBlock("Государства", rome + 1, 3, [["Империя"]]),
                                 WriteBlock("Государства", rome + 1, 5, [[3]])]))

    def rome_tax(result) -> Fraction:  # type: ignore[no-untyped-def]
        return sum((e.amount for e in result.report.ledger if e.state == "Рим" and e.category == "налоги"),
                   Fraction(0))

    first = sync.resolve(book.open())
    citizens = first.report.facts.taxes["Рим"][0]
    assert citizens > 0 and rome_tax(first) == citizens * 3
    rules = book.read()["Правила — Правление"]
    empire = next(i for i, r in enumerate(rules) if r and r[0] == "empire")
    book.write(Changeset(blocks=[WriteBlock("Правила — Правление", empire + 1, 4, [[5]])]))
    second = sync.resolve(book.open())
    assert rome_tax(second) == second.report.facts.taxes["Рим"][0] * 5


def test_google_and_xlsx_end_up_cell_for_cell_alike(
    tmp_path: Path, google: GoogleEnv, capsys: pytest.CaptureFixture[str],
) -> None:
    """Two turns of a small world with the sample orders: the Google sheet holds what the .xlsx holds."""
    path = tmp_path / "small.xlsx"
    create_xlsx(small_spec(), path)
    sid = google.campaign("small", orders=False)
    books = [Book("xlsx", str(path), lambda: XlsxBackend(path), path=path),
             Book("google", sid, lambda: google.backend(sid), env=google,
                  extra_args=["--credentials", str(google.sa_key)])]
    for b in books:
        _with_demo_orders(b)
        assert b.cli(capsys, "resolve", "--turn", "1")[0] == 0
        _with_demo_orders(b)  # the same sample rows again, now for turn 2
        assert b.cli(capsys, "resolve", "--turn", "2")[0] == 0
    raw = [b.read() for b in books]
    xlsx, google_tables = (normal(t) for t in raw)
    assert set(google_tables) - set(xlsx) == {REGISTRY_TAB}  # sheetIds of the tabs found: Google only (i15 p2)
    for name in xlsx:
        if name == history.HISTORY_TAB:  # snapshots of the tables as each backend read them
            kept = [history.entries(sync.read_all(b.open())) for b in books]  # the snapshots' chunks too
            assert [e.turn for e in kept[0]] == [e.turn for e in kept[1]] == [1, 2]
            for a, b in zip(*kept):
                google_snapshot = {k: v for k, v in b.tables().items() if k != REGISTRY_TAB}
                assert normal(a.tables()) == normal(google_snapshot), a.turn
            continue
        assert xlsx[name] == google_tables[name], name


@pytest.mark.parametrize("name", GOLDEN)
def test_worked_example_on_google(name: str, google: GoogleEnv, capsys: pytest.CaptureFixture[str]) -> None:
    """The seed's worked examples, resolved by the CLI on a Google sheet."""
    data = yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))
    tables = scenario.build_tables(data.get("setup") or {})
    turn = data["turns"][0]
    scenario.put_orders(tables, turn.get("orders") or {})
    created = google.create(WorkbookSpec("golden", [TabSpec(n, g) for n, g in tables.items()]), players={})
    secret = (data.get("setup") or {}).get("secret", scenario.FIXED_SECRET)
    secrets.save(campaign_meta.text(tables, campaign_meta.CAMPAIGN_ID), secret)
    code = main(["resolve", created.url, "--turn", "1", "--credentials", str(google.sa_key)])
    assert code == 0, capsys.readouterr().err
    after = google.backend(created.spreadsheet_id).read()
    # the CLI resolved turn 1 and wrote it: only its mode and turn are known here, not its report
    result = SyncResult("resolve", 1, Changeset(), TurnReport(1, facts=None), None)
    failures = core_scenario.check_turn(rulesets.get("ancient"), turn.get("expect") or {}, tables, after, result)
    assert not failures, "\n".join(failures)
