"""The `strategos` command line: the only place that turns errors into exit codes.

Exit codes: 0 ok, 1 a campaign problem or a fault (message on stderr), 2 a usage error,
130 interrupted (Ctrl+C).  No traceback reaches the GM: an OS fault (disk full, no permission,
read-only folder) and any unforeseen exception become one message with a hint
(STRATEGOS_DEBUG=1 shows the traceback for a bug report).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from engine import rulesets
from engine.core import i18n, inert, meta
from engine.core.errors import SCREENFUL, CampaignError, GameOver, StrategosError, UsageError
from engine.core.messages import _
from engine.core.orders import STATUS_TEXT, Status
from engine.core.ruleset import SyncResult
from engine.core.tables import WorkbookSpec

from . import argparse_texts, commands, faults, progress, sync, xlsx_lock
from .xlsx import XlsxBackend

if TYPE_CHECKING:  # rich, the bars and the version's metadata are imported where they are used: a
    # check or resolve for a script (--json, --quiet) or without a terminal draws no bars and prints
    # no table, and no command but --version reads the package metadata (docs/benchmarks.md)
    from rich.console import Console
    from rich.table import Table

    from .progress import RichProgress


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(_("strategos: ошибка в команде: {message}").format(message=message), file=sys.stderr)
        raise SystemExit(2)


def version() -> str:
    """The installed package's version (the checkout's pyproject.toml when it is not installed)."""
    from importlib import metadata

    try:
        return metadata.version("strategos")
    except metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        found = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(encoding="utf-8"), re.M)
        return found.group(1) if found else "0"


class _Version(argparse.Action):
    """--version: print «strategos X.Y.Z» and exit, reading the version only then (argparse's own
    "version" action wants the text when the parser is built, i.e. on every command)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"strategos {version()}")  # on stdout, as argparse's own action prints it
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The command line, with every help text in the current language (build it inside `i18n.using`)."""
    argparse_texts.install()
    p = _Parser(prog="strategos", description=_("Strategos — инструменты ведущего для форумных стратегий."))
    p.add_argument("--version", action=_Version, nargs=0, help=_("показать версию программы и выйти"))
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar=_("КОМАНДА"),
                           help=_("одна из команд ниже; «strategos КОМАНДА --help» описывает её"))

    new = sub.add_parser("new", help=_("создать кампанию (.xlsx или Google Таблица)"))
    new.add_argument("target", nargs="?", metavar="CAMPAIGN.xlsx",
                     help=_("путь к новому файлу кампании (не нужен с --google)"))
    new.add_argument("--ruleset", default=rulesets.DEFAULT,
                     help=_("правила (по умолчанию {default}; есть: {known})").format(
                         default=rulesets.DEFAULT, known=", ".join(rulesets.names())))
    new.add_argument("--scenario", default="demo", help=_("сценарий (по умолчанию demo)"))
    _lang(new, _("язык листов кампании и сообщений (по умолчанию ru)"), default="ru")
    new.add_argument("--title", help=_("название кампании"))
    new.add_argument("--force", action="store_true", help=_("заменить существующий файл"))
    _player_books(new)
    _output(new, _("вывод в JSON"))
    google = new.add_argument_group(_("Google Таблицы"))
    google.add_argument("--google", action="store_true", help=_("создать кампанию в Google Таблицах и открыть доступ"))
    google.add_argument("--gm", metavar="EMAIL", help=_("адрес ведущего (получит права редактора)"))
    google.add_argument("--player", action="append", default=[], metavar=_("СТОРОНА=EMAIL"),
                        help=_("игрок стороны (государства, нации — как их зовёт игра): может править только её "
                               "лист приказов (можно повторять)"))
    mode = google.add_mutually_exclusive_group()
    mode.add_argument("--private-orders", action="store_true",
                      help=_("лист приказов каждого игрока — в отдельной таблице, видной только ему и ведущему "
                             "(так и без этого флага)"))
    mode.add_argument("--open-orders", action="store_true",
                      help=_("открытый режим: одна таблица, каждый игрок видит приказы и адреса всех остальных"))
    _google_auth(google)

    for name, text in (("check", _("проверить приказы и записать статусы")),
                       ("resolve", _("разрешить открытый ход и записать итоги"))):
        c = sub.add_parser(name, help=text)
        _campaign(c)
        _output(c, _("вывод в JSON (без индикаторов)"))
        _player_books(c)
        if name == "resolve":
            c.add_argument("--turn", type=argparse_texts.integer, metavar="N",
                           help=_("разрешить, только если открыт именно этот ход"))
            c.add_argument("--stage", metavar=_("ЭТАП"),
                           help=_("разрешить, только если открыт именно этот этап хода (в играх с этапами; "
                                  "этап с раундами — ЭТАП:РАУНД)"))
        else:
            c.add_argument("--turn", type=argparse_texts.integer, metavar="N",
                           help=_("проверить, только если открыт именно этот ход"))
            c.add_argument("--stage", metavar=_("ЭТАП"),
                           help=_("проверить, только если открыт именно этот этап хода (в играх с этапами; "
                                  "этап с раундами — ЭТАП:РАУНД)"))

    demo = sub.add_parser("demo", help=_("демо-кампания: создать, заполнить приказы, проверить и разрешить ход"))
    demo.add_argument("dir", nargs="?", default="strategos-demo", metavar=_("ПАПКА"),
                      help=_("папка демо-кампании (по умолчанию ./strategos-demo)"))
    demo.add_argument("--ruleset", default=rulesets.DEFAULT,
                      help=_("правила (по умолчанию {default}; есть: {known})").format(
                          default=rulesets.DEFAULT, known=", ".join(rulesets.names())))
    demo.add_argument("--turns", type=argparse_texts.integer, default=1, metavar="N",
                      help=_("сколько ходов сыграть (по умолчанию 1; в играх с этапами — каждый этап каждого хода)"))
    _lang(demo, _("язык листов кампании и сообщений (по умолчанию ru)"), default="ru")
    _output(demo, _("вывод в JSON"))
    commands.add_parsers(sub, _campaign)
    return p


def _lang(parser: argparse.ArgumentParser, text: str, default: str | None = None) -> None:
    parser.add_argument("--lang", choices=i18n.LANGUAGES, default=default, help=text)


def _output(parser: argparse.ArgumentParser, json_help: str) -> None:
    """--json and --quiet: output for scripts."""
    parser.add_argument("--json", action="store_true", help=json_help)
    parser.add_argument("-q", "--quiet", action="store_true", help=_("ничего не печатать, кроме ошибок"))


def _campaign(parser: argparse.ArgumentParser) -> None:
    """What every command that opens a campaign takes: the campaign, the Google credentials and the
    language of the messages printed before the campaign is read (then they follow the campaign)."""
    parser.add_argument("target", metavar="CAMPAIGN", help=_("файл кампании .xlsx или id/URL таблицы Google"))
    _google_auth(parser)
    _lang(parser, _("язык сообщений, пока кампания не прочитана (дальше — язык кампании); "
                    "по умолчанию — язык системы, иначе ru"))


def _google_auth(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """The Google credential flags shared by every command that may talk to Google."""
    parser.add_argument("--credentials", metavar="FILE",
                        help=_("JSON-ключ сервисного аккаунта Google (иначе GOOGLE_APPLICATION_CREDENTIALS)"))
    parser.add_argument("--oauth-client-secrets", metavar="FILE",
                        help=_("OAuth-клиент Google для входа своим аккаунтом (токен хранится в ~/.config/strategos/)"))


def _options(args: argparse.Namespace) -> sync.Options:
    """Google connection options from the command line."""
    return sync.Options(credentials=getattr(args, "credentials", None),
                        oauth_client_secrets=getattr(args, "oauth_client_secrets", None))


def _players(pairs: Sequence[str]) -> dict[str, str]:
    """``["Египет=p1@example.com", ...]`` -> {side: e-mail} (`--player СТОРОНА=EMAIL`; the same
    form the flag had when it said ГОСУДАРСТВО=EMAIL, so older command lines work unchanged)."""
    out: dict[str, str] = {}
    for pair in pairs:
        side, sep, email = pair.partition("=")
        if not sep or not side.strip() or not email.strip():
            raise UsageError(_("--player ждёт СТОРОНА=EMAIL, а получено «{pair}»").format(pair=pair))
        if side.strip() in out:
            raise UsageError(_("игрок для «{side}» указан дважды").format(side=side.strip()))
        out[side.strip()] = email.strip()
    return out


def _new_google(args: argparse.Namespace) -> int:
    """`strategos new --google`: create, protect and share the campaign spreadsheet(s)."""
    if args.target:
        raise UsageError(_("с --google путь к файлу не нужен: таблица создаётся в Google Drive"))
    players = _players(args.player)
    specs: list[WorkbookSpec] = []

    def seen(spec: WorkbookSpec) -> None:
        """Keep the spec for the summary; refuse a player for an AI side, or the open mode for a
        game with hidden information, before anything is made."""
        specs.append(spec)
        if args.open_orders and spec.hidden_information:
            with i18n.using(args.lang):
                raise UsageError(_("--open-orders невозможен: в этой игре есть скрытая информация, у каждого "
                                   "игрока — своя таблица"))
        ai = [s for s in players if s in spec.ai_sides]
        if ai:
            with i18n.using(args.lang):
                raise UsageError(
                    _("«{side}» в этом сценарии ходит программа (ИИ), листа приказов у него нет; "
                      "игроки могут быть у: {played}").format(side=ai[0], played=", ".join(spec.played_sides()))
                )

    with _quota_bars(args):  # a big campaign waits for Google's quota: the wait on a bar
        created = sync.create_google(ruleset=args.ruleset, scenario=args.scenario, lang=args.lang,
                                     title=args.title, gm=args.gm, players=players,
                                     private_orders=not args.open_orders, options=_options(args), on_spec=seen)
    played, ai = (specs[0].played_sides(), list(specs[0].ai_sides)) if specs else ([], [])
    mode = "open" if args.open_orders else "private"
    if args.open_orders:  # the GM's explicit choice, said even with --json and --quiet (on stderr)
        print(_("Предупреждение: открытый режим (--open-orders) — вся кампания в одной таблице: каждый игрок "
                "видит приказы всех остальных ещё до конца хода, все листы ведущего и адреса всех игроков. Без "
                "--open-orders лист приказов каждого игрока — в его собственной таблице."), file=sys.stderr)
    if args.json:
        print(json.dumps({"created": created.url, "spreadsheet_id": created.spreadsheet_id, "orders": mode,
                          "order_spreadsheets": created.order_urls(), "requests": created.requests, "turn": 1,
                          "played": played, "ai": ai, "without_player": [s for s in played if s not in players]},
                         ensure_ascii=False))
        return 0
    if args.quiet:
        return 0
    print(_("Создана кампания в Google Таблицах: {url}").format(url=created.url))
    if not args.open_orders:
        print(_("Общая таблица открыта по ссылке для чтения — опубликуйте её адрес для игроков; листы "
                "приказов — каждый в своей таблице, видной только игроку и ведущему:"))
    for tab, url in created.order_urls().items():
        print(f"  {tab}: {url}")
    if args.gm:
        print(_("Ведущий {email} — редактор.").format(email=args.gm))
    for side, email in players.items():
        print(_("Игрок {side}: {email} — правит только свой лист приказов.").format(side=side, email=email))
    with i18n.using(args.lang):
        for line in _sides_lines(played, ai, players):
            print(line)
    print(_("Открыт приём приказов на ход {turn}.").format(turn=1))
    return 0


def _sides_lines(played: Sequence[str], ai: Sequence[str], players: Mapping[str, str]) -> list[str]:
    """Who moves in the new campaign (issue 16, point 10): the sides with an order tab, those of them
    no --player was given for, and the sides the program plays; a GM who named two players of ten
    learns here that the other eight are still played, by nobody yet."""
    lines = []
    if played:
        lines.append(_("Ходят игроки ({n}): {names}").format(n=len(played), names=", ".join(played)))
    idle = [s for s in played if s not in players]
    if idle and players:
        lines.append(
            _("  из них пока без игрока ({n}): {names} — их листы приказов заполняет ведущий, пока не даст доступ "
              "игроку").format(n=len(idle), names=", ".join(idle))
        )
    if ai:
        lines.append(_("Ходит программа (ИИ, {n}): {names}").format(n=len(ai), names=", ".join(ai)))
    return lines


def _counts(counts: dict[str, int]) -> str:
    """Order counts by status, in the current language's words: «выполнен: 8, отклонён: 3»."""
    words = STATUS_TEXT.get(i18n.current(), STATUS_TEXT["ru"])
    return ", ".join(f"{words[Status(k)]}: {v}" for k, v in sorted(counts.items()))


def _print_summary(result: Any, out: IO[str]) -> None:
    """What a turn did, for the GM's eyes, on `out` at the terminal's width (at least 100 columns)."""
    from rich.console import Console

    print_summary(result.summary, Console(file=out, width=max(100, Console(file=out).width), highlight=False))


FULL_RESOURCES = 2  # up to this many resources the table has four columns each; beyond, one (closing, change)


def print_summary(s: Mapping[str, Any], console: Console) -> None:
    """A window's summary (engine/core/summary.py): the heading naming the window, the order counts,
    the warnings and a table of the played sides."""
    from rich.markup import escape

    heading = _("Проверен ход {turn}.") if s["mode"] == "check" else _("Разрешён ход {turn}.")
    console.print(heading.format(turn=s.get("cursor") or s["turn"]))  # a staged game's window: «1:города»
    for notice in s.get("notices") or ():  # e.g. the secret moved to the GM's store
        console.print(escape(inert.terminal(notice)))
    console.print(_("Приказы — {counts}").format(counts=_counts(s["orders"]) or _("приказов нет")))
    for warning in s.get("warnings", []):
        console.print(f"[yellow]{escape(_('Предупреждение:'))}[/yellow] {escape(inert.terminal(warning))}")
    rows = [st for st in _side_lines(s) if not st["ai"]]
    if not rows:
        return
    console.print(summary_table(s, rows))
    undrawn = sorted({d for st in rows for d in st.get("dice") or ()})
    if s["mode"] == "check" and undrawn:  # a check draws no dice: say what its figures leave out
        note = s.get("dice_note") or _("Без жребия хода ({dice}): эти цифры могут измениться при разрешении — "
                                         "исход зависит от жребия хода.")
        console.print(escape(str(note).format(dice=", ".join(undrawn))))


def _side_lines(s: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The summary's side lines: "sides", or "states" in a summary made before the rename."""
    return list(s.get("sides", s.get("states")) or ())


def summary_table(s: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> Table:
    """The table of the played sides: per resource its four figures (opening, income, expenses,
    closing) while there are at most FULL_RESOURCES of them; with more, which would not fit a
    terminal, one column each with the closing balance and the turn's change («7 (+2)»).  The game's
    own figures (its "columns") follow when every side has them."""
    from rich.markup import escape
    from rich.table import Table

    resources = s.get("resources") or []
    full = len(resources) <= FULL_RESOURCES
    table = Table(title=None, header_style="bold", show_footer=s["mode"] == "resolve" and len(rows) > 1,
                  caption=None if full else _("на конец хода, в скобках — изменение за ход"))
    table.add_column(escape(str(s.get("side_title") or _("Сторона"))), footer=_("Итого"))
    for res in resources:
        moved = [st["balances"][res["code"]] for st in rows]
        if full:
            for key, title in _resource_columns(str(res["name"]), len(resources) > 1).items():
                table.add_column(escape(title), justify="right", footer=_money(sum(b[key] for b in moved)))
        else:
            total = {k: sum(b[k] for b in moved) for k in ("opening", "closing")}
            table.add_column(escape(_capital(str(res["name"]))), justify="right", footer=_closing_change(total))
    extra = [c for c in s.get("columns") or () if all(c["key"] in st for st in rows)]  # the game's own figures
    for column in extra:
        table.add_column(escape(str(column["title"])), justify="right")
    for st in rows:
        cells = [escape(st["name"])]
        for res in resources:
            b = st["balances"][res["code"]]
            closing = _money(b["closing"]) if full else _closing_change(b)
            if b["closing"] < 0:
                closing = f"[red]{closing}[/red]"
            elif b["closing"] > b["opening"]:
                closing = f"[green]{closing}[/green]"
            cells += [_money(b["opening"]), _money(b["income"]), _money(b["expenses"]), closing] if full else [closing]
        table.add_row(*cells, *(f"{st[c['key']]:+d}" for c in extra))
    return table


def _closing_change(b: Mapping[str, float]) -> str:
    """«7 (+2)»: the closing balance and its change over the window («7 (0)» when it did not move)."""
    change = b["closing"] - b["opening"]
    sign = "+" if change > 0 else ""
    return f"{_money(b['closing'])} ({sign}{_money(change)})"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _resource_columns(name: str, several: bool) -> dict[str, str]:
    """The summary's four column titles of one resource («Казна на начало», «Доход», «Расход»,
    «Казна на конец»); with several resources the income and expense columns name theirs."""
    titles = {
        "opening": _("{resource} на начало").format(resource=name),
        "income": _("Доход: {resource}").format(resource=name) if several else _("Доход"),
        "expenses": _("Расход: {resource}").format(resource=name) if several else _("Расход"),
        "closing": _("{resource} на конец").format(resource=name),
    }
    return {key: _capital(title) for key, title in titles.items()}


def _money(value: float) -> str:
    """12345.5 -> «12 345,5» in Russian (a narrow no-break space between thousands, a decimal comma),
    «12,345.5» in English; a true minus sign in both."""
    text = f"{value:,.2f}".rstrip("0").rstrip(".")
    if i18n.current() == "en":
        return text.replace("-", "\u2212")
    return text.replace(",", "\u202f").replace(".", ",").replace("-", "\u2212")


def _player_books(parser: argparse.ArgumentParser) -> None:
    """--player-books: the opt-in to the .xlsx books to send (docs/audiences.md) for a game without
    hidden information (a game with it always has them)."""
    parser.add_argument("--player-books", action="store_true",
                        help=_("(.xlsx) писать рядом с кампанией книги для отправки: общую и по одной на игрока — "
                               "с этой записи и при каждой следующей"))


def _progress(args: argparse.Namespace) -> RichProgress | None:
    """Bars on stderr for a person at a terminal; none for scripts (--quiet, --json)."""
    if args.json or args.quiet or not progress.visible():
        return None
    from .progress import RichProgress

    return RichProgress()


@contextlib.contextmanager
def _quota_bars(args: argparse.Namespace) -> Iterator[None]:
    """Within the block, a wait for Google's quota is shown on a bar (when bars are shown at all)."""
    bars = _progress(args)
    if bars is None:
        yield
        return
    from . import google_quota

    with bars.shown(), google_quota.showing_waits(bars.quota_wait):
        yield


def _sync(args: argparse.Namespace) -> SyncResult:
    """check / resolve with progress bars when someone is watching."""
    backend = sync.open_backend(args.target, _options(args), books=args.player_books)
    bars = _progress(args)
    if bars is None:
        if args.command == "check":
            return sync.check(backend, turn=args.turn, stage=args.stage)
        return sync.resolve(backend, turn=args.turn, stage=args.stage)
    from . import google_quota

    with bars.shown(), google_quota.showing_waits(bars.quota_wait):  # a wait for Google's quota on its bar
        if args.command == "check":
            return sync.check(backend, progress=bars, turn=args.turn, stage=args.stage)
        return sync.resolve(backend, turn=args.turn, progress=bars, stage=args.stage)


def _run(args: argparse.Namespace) -> int:
    if args.command == "new":
        i18n.adopt(args.lang)  # the new campaign's language from the start
        if args.google:
            return _new_google(args)
        google_only = [flag for flag, value in (("--gm", args.gm), ("--player", args.player),
                                                ("--private-orders", args.private_orders),
                                                ("--open-orders", args.open_orders),
                                                ("--credentials", args.credentials),
                                                ("--oauth-client-secrets", args.oauth_client_secrets)) if value]
        if google_only:
            raise UsageError(_("{flag} имеет смысл только вместе с --google").format(flag=google_only[0]))
        if not args.target:
            raise UsageError(_("укажите путь к новому файлу CAMPAIGN.xlsx или --google"))
        path = sync.create(args.target, ruleset=args.ruleset, scenario=args.scenario, lang=args.lang,
                           title=args.title, overwrite=args.force, books=args.player_books)
        if args.json:
            print(json.dumps({"created": path, "turn": 1}, ensure_ascii=False))
        elif not args.quiet:
            print(_("Создана кампания: {path}. Открыт приём приказов на ход {turn}.").format(path=path, turn=1))
        return 0
    if args.command in ("check", "resolve"):
        try:
            result = _sync(args)
        except GameOver as over:  # a finished campaign: --json says so on stdout, for scripts
            if not args.json:
                raise
            print(json.dumps({"mode": args.command, "refused": True, "message": str(over),
                              "game_over": {"reason": over.reason, "last_window": over.last}},
                             ensure_ascii=False, indent=1))
            return 1
        if args.json:
            print(json.dumps(result.summary, ensure_ascii=False, indent=1))
        elif not args.quiet:
            _print_summary(result, sys.stdout)
        return 0
    if args.command in commands.COMMANDS:
        return commands.run(args, _options(args))
    if args.command == "demo":
        i18n.adopt(args.lang)
        return _demo(Path(args.dir), args.lang, args.json, args.quiet, args.ruleset, args.turns)
    raise UsageError(_("неизвестная команда {command}").format(command=args.command))


def _demo(folder: Path, lang: str, as_json: bool, quiet: bool = False, ruleset: str = rulesets.DEFAULT,
          turns: int = 1) -> int:
    """Create the demo campaign of `ruleset` and play `turns` turns: in each open window (every stage
    of a staged game) the game's sample orders (`demo_changes`) are written, checked and resolved."""
    if turns < 1:
        raise UsageError(_("--turns: нужно хотя бы 1 ход, а не {n}").format(n=turns))
    game = rulesets.get(ruleset)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise faults.backend_error(exc, folder) from exc
    path = folder / "demo.xlsx"
    windows: list[dict[str, Any]] = []
    with xlsx_lock.exclusive(path, "demo"):  # create, fill, check and resolve as one command
        sync.create(str(path), ruleset=game.name, scenario="demo", lang=lang, overwrite=True)
        while True:
            backend = XlsxBackend(path)
            tables = backend.read()
            opened = meta.open_cursor(tables, game.calendar)
            if windows and (opened.turn > turns or game.victory(tables) is not None):
                break
            backend.write(game.demo_changes(tables))
            checked = sync.check(XlsxBackend(path))
            resolved = sync.resolve(XlsxBackend(path), turn=opened.turn)
            windows.append({"check": checked.summary, "resolve": resolved.summary})
            if not quiet and not as_json and (turns > 1 or game.calendar.staged):
                print(_("Окно {cursor}: проверка: {counts}").format(
                    cursor=resolved.summary.get("cursor", opened.turn), counts=_counts(checked.summary["orders"])))
    if as_json:
        print(json.dumps({"workbook": str(path), "check": checked.summary, "resolve": resolved.summary,
                          "windows": windows}, ensure_ascii=False, indent=1))
        return 0
    if quiet:
        return 0
    print(_("Демо-кампания: {path}").format(path=path))
    print(_("Образцы приказов записаны; проверка: {counts}").format(counts=_counts(checked.summary["orders"])))
    _print_summary(resolved, sys.stdout)
    print(closing_line(path, resolved.summary))
    return 0


def closing_line(path: Path | str, s: Mapping[str, Any]) -> str:
    """The demo's last line: which tabs of the workbook show the results of the window just resolved —
    the game's own words (its summary's "open_tabs"), else the generic ones; the window as the
    heading names it («1:города» in a staged game, the turn number otherwise)."""
    tabs = s.get("open_tabs") or _("листы кампании")
    return _("Откройте {path}: {tabs} показывают итоги хода {turn}.").format(
        path=path, tabs=tabs, turn=s.get("cursor") or s["turn"])


def first_language(argv: Sequence[str], env: Mapping[str, str] | None = None) -> str:
    """The language of what the CLI prints before it has read a campaign: ``--lang`` on the command
    line, else the system locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else Russian."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        if value in i18n.LANGUAGES:
            return value
    return i18n.from_environment(env)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its messages are in the campaign's language once it is read."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    with i18n.using(first_language(args_list)):
        parser = build_parser()
        args = parser.parse_args(args_list)
        return _guarded(args)


def _guarded(args: argparse.Namespace) -> int:
    """`_run` with every error turned into one message and an exit code."""
    try:
        return _run(args)
    except UsageError as exc:
        print(_located(exc), file=sys.stderr)
        return 2
    except CampaignError as exc:  # a broken sheet: its causes first, at most a screenful
        print(_located(exc.render(limit=SCREENFUL)), file=sys.stderr)
        return 1
    except StrategosError as exc:
        print(_located(exc), file=sys.stderr)
        return 1
    except OSError as exc:  # a fault outside the campaign's own save (e.g. report --out into a read-only folder)
        print(f"strategos: {faults.os_message(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(_("strategos: прервано (Ctrl+C). Кампания записывается целиком или не записывается вовсе — она "
                "либо прежняя, либо уже с итогами команды; запустите команду снова."), file=sys.stderr)
        return 130
    except Exception as exc:  # a bug of ours: a message, never a traceback, for the GM
        if os.environ.get("STRATEGOS_DEBUG"):
            raise
        print(_("strategos: непредвиденная ошибка программы ({kind}: {error}). Кампания записывается целиком или "
                "не записывается вовсе, наполовину она не изменена. Это ошибка Strategos, а не ваша: запустите "
                "команду снова с STRATEGOS_DEBUG=1 и приложите вывод к сообщению об ошибке.")
              .format(kind=type(exc).__name__, error=exc), file=sys.stderr)
        return 1


def _located(error: Exception | str) -> str:
    """«strategos: <message>», never «strategos: : …» when a message came with an empty location."""
    text = inert.terminal(error).lstrip()  # sheet text quoted in a message sends the terminal no escape
    while text.startswith(":"):
        text = text[1:].lstrip()
    if not text:
        text = _("ошибка без описания ({kind})").format(kind=type(error).__name__)
    return f"strategos: {text}"


if __name__ == "__main__":
    sys.exit(main())
