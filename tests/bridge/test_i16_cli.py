"""Issue 16, points 5 and 6 (and point 3 for the CLI): a command line that feels finished.

The CLI speaks the campaign's language once it has read the campaign (before that, --lang or the
system locale, Russian by default), argparse's own texts included; library errors come in words;
no message starts with an empty location; --version; every option has a help line; the Google
options work on every command that opens a campaign; a broken tab prints its cause first and at
most a screenful. Point 6: the README's cron line runs as printed; the files its flows write
are git-ignored; the licence field is one setuptools takes without a deprecation warning.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
import repo_paths
import test_google_support as support
from babel.messages.extract import extract_from_file
from test_google_support import GoogleEnv

from engine.core import i18n
from engine.core.errors import SCREENFUL, CampaignError, Problem
from engine.rulesets.ancient.vocab import POPULATION
from sheets_bridge import argparse_texts, cli, sync
from sheets_bridge.cli import main

emulator_server = support.emulator_server
google = support.google

ROOT = repo_paths.ROOT
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
CAMPAIGN_COMMANDS = ("check", "resolve", "history", "rollback", "verify", "report", "secret export",
                     "secret import")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # --help, --version and usage errors leave through argparse
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def subparsers(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, argparse.ArgumentParser]:
    """Every command's parser by its words («check», «secret export»), the top one as ''."""
    out = {prefix.strip(): parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.update(subparsers(sub, f"{prefix} {name}"))
    return out


# --- point 5: no empty location ------------------------------------------------------------------

def test_i16_p5_a_problem_without_a_tab_has_no_empty_location() -> None:
    assert str(Problem("", 3, "B", "пустая ячейка")) == "ячейка B3: пустая ячейка"
    assert str(Problem("", 3, "", "пустая ячейка")) == "строка 3: пустая ячейка"
    assert str(Problem("", 0, "", "нет листа")) == "нет листа"
    assert str(Problem("Провинции", 3, "", "x")) == "Провинции, строка 3: x"


def test_i16_p5_no_cli_message_starts_with_an_empty_location(
    campaign: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*_args: object, **_kw: object) -> None:
        raise CampaignError(": нет листа «Кампания»")

    monkeypatch.setattr(sync, "check", broken)
    code, _out, err = run(capsys, "check", str(campaign))
    assert code == 1
    assert err.startswith("strategos: нет листа «Кампания»"), err
    assert "strategos: :" not in err


# --- point 5: argparse and library texts in the GM's language -------------------------------------

def test_i16_p5_argparse_speaks_russian_by_default(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    code, _out, err = run(capsys, "check")
    assert code == 2
    assert "использование: strategos check" in err and "не хватает обязательных аргументов" in err
    assert "usage" not in err and "the following arguments" not in err
    code, out, _err = run(capsys, "check", "--help")
    assert code == 0 and "параметры:" in out and "показать эту справку и выйти" in out
    assert "options:" not in out and "show this help" not in out


def test_i16_p5_argparse_and_the_cli_speak_english_with_lang_en_or_an_english_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, _out, err = run(capsys, "resolve", "--lang", "en", "--turn", "x", "game.xlsx")
    assert code == 2
    assert "usage: strategos resolve" in err and "a whole number is needed" in err
    assert not CYRILLIC.search(err), err
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    code, _out, err = run(capsys, "rollback", "game.xlsx")
    assert code == 2 and "the following arguments are required: --to" in err
    assert not CYRILLIC.search(err), err
    code, out, _err = run(capsys, "report", "--help")
    assert code == 0 and not CYRILLIC.search(out), out


def test_i16_p5_the_first_language_comes_from_lang_then_the_locale_then_russian() -> None:
    assert cli.first_language(["check", "--lang", "en", "x"], {}) == "en"
    assert cli.first_language(["check", "--lang=en"], {"LANG": "ru_RU.UTF-8"}) == "en"
    assert cli.first_language(["check"], {"LANG": "en_GB.UTF-8"}) == "en"
    assert cli.first_language(["check"], {"LC_ALL": "C.UTF-8", "LANG": "en_US.UTF-8"}) == "ru"
    assert cli.first_language(["check"], {"LANGUAGE": "de:en", "LANG": "de_DE.UTF-8"}) == "en"
    assert cli.first_language(["check"], {}) == "ru"


def test_i16_p5_every_argparse_text_has_a_russian_translation() -> None:
    """Every text argparse marks for gettext (in this Python's argparse) is in our Russian catalogue."""
    msgids = [msg[0] if isinstance(msg, tuple) else msg for _line, msg, _c, _ctx in extract_from_file(
        "python", argparse.__file__, keywords={"_": None, "ngettext": (1, 2)})]
    assert "usage: " in msgids and "the following arguments are required: %s" in msgids
    missing = [m for m in msgids if not argparse_texts.TEXTS.translated(m, "ru")]
    assert not missing, missing
    with i18n.using("ru"):
        argparse_texts.install()
        assert argparse._("the following arguments are required: %s") == "не хватает обязательных аргументов: %s"
        assert argparse.ngettext("expected %s argument", "expected %s arguments", 3) == "нужно %s значения"
    with i18n.using("en"):
        assert argparse._("usage: ") == "usage: "


def test_i16_p5_a_file_that_is_not_a_workbook_is_named_in_words(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "game.xlsx"
    text.write_text("not a workbook", encoding="utf-8")
    other_zip = tmp_path / "other.xlsx"
    with zipfile.ZipFile(other_zip, "w") as z:
        z.writestr("readme.txt", "hello")
    for path in (text, other_zip):
        code, _out, err = run(capsys, "check", str(path))
        assert code == 1
        assert "не читается как книга Excel" in err, err
        assert "File is not a zip file" not in err and "There is no item named" not in err, err
        assert "KeyError" not in err and "BadZipFile" not in err, err
        code, _out, err = run(capsys, "check", "--lang", "en", str(path))
        assert code == 1 and "does not read as an Excel workbook" in err and not CYRILLIC.search(err), err


def test_i16_p5_a_broken_secret_store_is_named_in_words(campaign: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    store = tmp_path / "secrets.json"
    store.write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("STRATEGOS_SECRETS", str(store))
    code, _out, err = run(capsys, "resolve", str(campaign))
    assert code == 1
    assert "не читается (это не JSON: ошибка в строке 1, знак 2)" in err, err
    assert "Expecting property name" not in err


# --- point 5: --version and a help line for every option ------------------------------------------

def test_i16_p5_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "--version")
    assert code == 0
    assert re.fullmatch(r"strategos \d+\.\d+\.\d+\S*\n", out), out


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_i16_p5_every_option_of_every_command_has_a_help_line(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Each command's --help describes every option and argument: a help text of its own, printed."""
    with i18n.using(lang):
        parsers = subparsers(cli.build_parser())
    assert set(CAMPAIGN_COMMANDS) | {"new", "demo", "secret", ""} <= set(parsers)
    bare = []
    for words, parser in parsers.items():
        code, out, _err = run(capsys, *words.split(), "--help", "--lang", lang)  # --help acts first
        assert code == 0, words
        for action in parser._actions:
            if action.help == argparse.SUPPRESS:
                continue
            name = action.option_strings[-1] if action.option_strings else (action.metavar or action.dest)
            if not (action.help or "").strip():
                bare.append(f"{words or 'strategos'} {name}")
            elif " ".join(action.help.split()[:3]) not in " ".join(out.split()):
                bare.append(f"{words or 'strategos'} {name}: help not printed")
        if lang == "en":
            assert not CYRILLIC.search(out), f"{words}: {out}"
    assert not bare, bare


def test_i24_p6_player_is_side_email_and_the_old_state_email_lines_still_parse(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--player СТОРОНА=EMAIL`: help and messages say «сторона» ("side"); a command line written when
    the flag said ГОСУДАРСТВО=EMAIL is the same NAME=EMAIL and is read unchanged."""
    old_form = ["Египет=p1@example.com", " Рим = p2@example.com "]  # as the README printed it before
    assert cli._players(old_form) == {"Египет": "p1@example.com", "Рим": "p2@example.com"}
    for lang, word, old in (("ru", "СТОРОНА=EMAIL", "ГОСУДАРСТВО"), ("en", "SIDE=EMAIL", "STATE=EMAIL")):
        code, out, _err = run(capsys, "new", "--help", "--lang", lang)
        assert code == 0 and f"--player {word}" in out and old not in out, out
    code, _out, err = run(capsys, "new", "--google", "--player", "Египет")
    assert code == 2 and "--player ждёт СТОРОНА=EMAIL" in err and "«Египет»" in err, err
    code, _out, err = run(capsys, "new", "--google", "--player", "Египет=a@b.c", "--player", "Египет=d@e.f")
    assert code == 2 and "игрок для «Египет» указан дважды" in err, err
    code, _out, err = run(capsys, "new", "--google", "--lang", "en", "--player", "=a@b.c")
    assert code == 2 and "--player expects SIDE=EMAIL" in err, err


# --- point 5: the Google options on every command that opens a campaign ---------------------------

def test_i16_p5_every_command_that_opens_a_campaign_takes_the_google_options() -> None:
    parsers = subparsers(cli.build_parser())
    for words in (*CAMPAIGN_COMMANDS, "new"):
        options = {s for a in parsers[words]._actions for s in a.option_strings}
        assert {"--credentials", "--oauth-client-secrets"} <= options, words


@pytest.mark.parametrize("command", ["history", "rollback --to 1", "verify --turn 1", "report", "secret export"])
def test_i16_p5_oauth_reaches_google_on_every_command(
    command: str, google: GoogleEnv, capsys: pytest.CaptureFixture[str],
) -> None:
    """--oauth-client-secrets is passed to Google (today's history, rollback, verify, report refused
    it as an unknown argument): a missing client file is Google's clear error, naming the file."""
    missing = google.folder / "нет-такого.json"
    code, _out, err = run(capsys, *command.split(), "1AbCdEfGhIjKlMnOpQrStUvWxYz0123",
                          "--oauth-client-secrets", str(missing))
    assert code == 1, err
    assert "Нет учётных данных Google" in err and "нет-такого.json" in err


def test_i16_p5_history_verify_report_and_rollback_run_on_google_with_credentials(
    google: GoogleEnv, capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    sid = google.campaign("demo")
    key = str(google.sa_key)
    code, out, err = run(capsys, "history", sid, "--credentials", key)
    assert code == 0 and "нет ходов" in out, err
    assert run(capsys, "resolve", sid, "--turn", "1", "--credentials", key, "-q")[0] == 0
    code, out, err = run(capsys, "history", sid, "--credentials", key, "--json")
    assert code == 0 and [t["turn"] for t in json.loads(out)] == [1], err
    code, out, err = run(capsys, "verify", sid, "--turn", "1", "--credentials", key)
    assert code == 0 and "подтверждён" in out, err
    code, out, err = run(capsys, "report", sid, "--credentials", key, "--out", str(tmp_path / "post.txt"))
    assert code == 0 and (tmp_path / "post.txt").exists(), err
    code, out, err = run(capsys, "rollback", sid, "--to", "1", "--credentials", key)
    assert code == 0 and "открыт приём приказов на ход 1" in out, err


# --- point 5: a broken tab, its cause first and a screenful ---------------------------------------

def test_i16_p5_a_broken_tab_prints_its_cause_first_and_at_most_a_screenful(
    campaign: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    wb = openpyxl.load_workbook(campaign)
    ws = wb["Население"]
    ws.delete_cols(1)  # the province column gone: every row of the tab fails after it
    for row in wb["Провинции"].iter_rows(min_row=2):
        for cell in row[2:]:
            cell.value = "xx"  # and a tab full of bad cells
    wb.save(campaign)
    with pytest.raises(CampaignError) as exc:
        sync.check(sync.open_backend(str(campaign)))
    total = len(exc.value.problems)
    assert total > 2 * SCREENFUL
    code, _out, err = run(capsys, "check", str(campaign))
    assert code == 1
    lines = err.splitlines()
    assert len(lines) <= SCREENFUL + 2, len(lines)
    assert lines[0] == f"strategos: Найдено проблем в таблице: {total}"
    assert lines[1] == "  - Население, строка 1: нет столбца «Провинция» (Province)"
    rest = total - SCREENFUL
    assert lines[-1].startswith(f"  … и ещё {rest} не показаны («"), lines[-1]
    counted = sum(int(n) for n in re.findall(r"»: (\d+)", lines[-1]))
    assert counted == rest


def test_i16_p3_the_cli_speaks_the_campaigns_language_once_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "game.xlsx"
    code, out, err = run(capsys, "new", str(path), "--lang", "en")
    assert code == 0 and out.startswith("Campaign created: ") and not CYRILLIC.search(out), out + err
    code, out, err = run(capsys, "check", str(path))  # no --lang: the campaign says English
    assert code == 0, err
    assert "Turn 1 checked." in out and "Orders — " in out and "Проверен" not in out and "Приказы —" not in out
    code, out, err = run(capsys, "history", str(path))
    assert code == 0 and out == "The history holds no turns yet: no turn has been resolved.\n", out + err
    # a broken English campaign is told in English
    wb = openpyxl.load_workbook(path)
    wb[POPULATION.en].delete_cols(1)
    wb.save(path)
    code, _out, err = run(capsys, "check", str(path))
    assert code == 1 and "Problems found in the spreadsheet" in err and "no column “Province”" in err, err
    assert "Найдено" not in err and "строка" not in err and "нет столбца" not in err, err


# --- point 6 ---------------------------------------------------------------------------------------

def test_i16_p6_the_readme_cron_line_works_as_printed_from_a_bare_cron_environment(
    campaign: Path, tmp_path: Path, _secrets_in_tmp: Path,
) -> None:
    """The README's crontab line, with its placeholders for where things are, run as cron runs it:
    /bin/sh in $HOME, PATH=/usr/bin:/bin, the system's python3 (without the project's packages)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = re.findall(r"`(\d+ \d+ [*\d]+ [*\d]+ [*\d]+\s+python3 [^`]*game\.xlsx[^`]*)`", readme)
    assert lines, "the README has no crontab line for a .xlsx campaign"
    schedule_and_command = lines[0].split(None, 5)
    command = schedule_and_command[5]
    log = tmp_path / "cron.log"
    command = (command.replace("/path/to/strategos/", f"{ROOT}/")
               .replace("/path/to/game.xlsx", shlex.quote(str(campaign)))
               .replace("/path/to/strategos-cron.log", shlex.quote(str(log))))
    assert "/path/to" not in command
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "SHELL": "/bin/sh",
           "STRATEGOS_SECRETS": str(_secrets_in_tmp)}
    done = subprocess.run(["/bin/sh", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                          check=False)
    output = log.read_text(encoding="utf-8") if log.exists() else ""
    assert done.returncode == 0, done.stdout + done.stderr + output
    assert "Проверен ход 1" in output and "Разрешён ход 1" in output, output
    assert "Traceback" not in output


def test_i16_p6_the_files_the_readme_flows_write_are_ignored_by_git() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    written = {"strategos-demo/demo.xlsx"}  # `strategos demo`'s default folder
    written |= {m for m in re.findall(r"strategos new (\S+\.xlsx)", readme)}
    written |= {f"{m}.bak" for m in re.findall(r"strategos new (\S+\.xlsx)", readme)}
    written |= {f".{m}.strategos-lock" for m in re.findall(r"strategos new (\S+\.xlsx)", readme)}
    written |= set(re.findall(r"--write-credentials (\S+\.json)", readme))
    written |= set(re.findall(r"secret export \S+ > (\S+\.json)", readme))
    for out in re.findall(r"--out (\S+)", readme):
        written |= {out, str(Path(out).with_suffix(".png"))}
    written |= {f"{folder.rstrip('/')}/Рим.md" for folder in re.findall(r"--players (\S+)", readme)}
    assert {"game.xlsx", "gm-bot.json", "post.txt", "secret.json"} <= written, written
    done = subprocess.run(["git", "check-ignore", "--no-index", *sorted(written)], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    ignored = set(done.stdout.split("\n")) - {""}
    ignored = {p.strip('"') for p in ignored}
    assert ignored >= {p for p in written if p.isascii()}, sorted(written - ignored)


def test_i16_p6_the_licence_is_an_spdx_string_setuptools_takes_without_a_deprecation() -> None:
    """setuptools ≥ 77 deprecates ``license = { text = … }`` (and licence classifiers); the SPDX
    string needs that setuptools, so the build requires it."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^license = "MIT"$', text, re.M)
    assert "License ::" not in text
    found = re.search(r'requires = \["setuptools>=(\d+)', text)
    assert found and int(found.group(1)) >= 77


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


def test_i16_p3_an_english_demo_prints_no_cyrillic_through_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 16, done-when: what the CLI prints for an English campaign — new, check (with its dice
    note), resolve, report, history, verify, rollback — has no Cyrillic at all."""
    path = tmp_path / "game.xlsx"
    commands = [
        ["new", str(path), "--scenario", "demo", "--lang", "en"],
        ["check", str(path)],
        ["resolve", str(path)],
        ["report", str(path), "--out", str(tmp_path / "post.txt")],
        ["history", str(path)],
        ["verify", str(path), "--turn", "1"],
        ["rollback", str(path), "--to", "1"],
    ]
    for argv in commands:
        code, out, err = run(capsys, *argv)
        assert code == 0, f"{argv}: {err}"
        assert not CYRILLIC.search(out + err), f"{argv[0]} printed Cyrillic:\n{out}{err}"
