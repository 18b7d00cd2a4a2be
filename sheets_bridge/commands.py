"""The turn-history, report and secret commands of the CLI: history, rollback, verify, report, secret.

Kept apart from cli.py's core commands; cli.py registers them with `add_parsers` and hands
them the parsed arguments in `run`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core import i18n, logs, meta, posts
from engine.core.cursor import Cursor
from engine.core.errors import UsageError
from engine.core.messages import _

from . import argparse_texts, faults, secrets, sync

COMMANDS = ("history", "rollback", "verify", "report", "secret")


def add_parsers(sub: Any, campaign: Callable[[argparse.ArgumentParser], None]) -> None:
    """Register the commands; `campaign` adds what every command that opens a campaign takes (the
    campaign, the Google credentials, --lang), so each of them reaches Google the same way."""
    h = sub.add_parser("history", help=_("ходы, сохранённые в истории кампании"))
    campaign(h)
    h.add_argument("--json", action="store_true", help=_("вывод в JSON"))

    r = sub.add_parser("rollback", help=_("вернуть кампанию к состоянию, когда был открыт ход N"))
    campaign(r)
    r.add_argument("--to", type=argparse_texts.cursor, required=True, metavar="N",
                   help=_("ход (в играх с этапами — ХОД:ЭТАП, например 3:города): кампания станет такой, "
                          "какой была, когда он был открыт"))
    mode = r.add_mutually_exclusive_group()
    mode.add_argument("--keep-orders", dest="reopen_orders", action="store_false", default=False,
                      help=_("(по умолчанию) окно сохраняет свои приказы и своё зерно: ведущий исправляет ошибку и "
                             "разрешает его заново с теми же, проверяемыми костями; со следующего окна — новый жребий"))
    mode.add_argument("--reopen-orders", dest="reopen_orders", action="store_true",
                      help=_("приказы окна открыты заново, и у окна новый жребий: новый хэш зерна публикуется сразу "
                             "(нужен секрет ведущего)"))
    r.add_argument("-q", "--quiet", action="store_true", help=_("ничего не печатать, кроме ошибок"))

    v = sub.add_parser("verify", help=_("пересчитать опубликованный ход по раскрытому зерну и сверить"))
    campaign(v)
    v.add_argument("--turn", type=argparse_texts.cursor, required=True, metavar="N",
                   help=_("разрешённый ход (в играх с этапами — ХОД:ЭТАП, например 3:города)"))
    v.add_argument("--json", action="store_true", help=_("вывод в JSON"))

    p = sub.add_parser("report", help=_("пост для форума, личные отчёты игроков, график"))
    campaign(p)
    p.add_argument("--turn", type=argparse_texts.cursor, metavar="N",
                   help=_("разрешённый ход (по умолчанию последний; в играх с этапами — весь ход или одно окно "
                          "ХОД:ЭТАП, например 3:города)"))
    p.add_argument("--format", choices=("bbcode", "markdown"), default="bbcode",
                   help=_("разметка поста: bbcode (по умолчанию) или markdown"))
    p.add_argument("--out", metavar="FILE",
                   help=_("файл поста (несколько постов: FILE, FILE.2, …); по умолчанию — на экран"))
    p.add_argument("--limit", type=argparse_texts.integer, default=60_000, metavar=_("ЗНАКОВ"),
                   help=_("наибольшая длина поста, знаков (по умолчанию 60000, не меньше {least}); длиннее "
                          "пост делится").format(least=posts.MIN_LIMIT))
    p.add_argument("--players", metavar=_("ПАПКА"),
                   help=_("папка для личных отчётов игроков (по одному .md на сторону)"))

    s = sub.add_parser("secret",
                       help=_("перенести секрет ведущего кампании на другую машину (он не хранится в таблице)"))
    actions = s.add_subparsers(dest="action", required=True, parser_class=type(s), metavar=_("ДЕЙСТВИЕ"),
                               help=_("export или import; «strategos secret ДЕЙСТВИЕ --help» описывает его"))
    ex = actions.add_parser("export", help=_("напечатать секрет кампании из хранилища этой машины (для secret import)"))
    campaign(ex)
    im = actions.add_parser("import", help=_("сохранить секрет кампании в хранилище этой машины"))
    campaign(im)
    im.add_argument("file", nargs="?", default="-", metavar="FILE",
                    help=_("файл из secret export (по умолчанию — стандартный ввод)"))


def run(args: argparse.Namespace, options: sync.Options | None = None) -> int:
    """Run one of `COMMANDS` on the campaign `args.target`, reached with `options` (Google credentials)."""
    from . import timeline  # imported by these commands only, not by every check and resolve

    backend = sync.open_backend(args.target, options or sync.Options(credentials=getattr(args, "credentials", None)))
    if args.command == "secret":
        return _secret_command(backend, args)
    if args.command == "history":
        turns = timeline.list_turns(backend)
        if args.json:
            print(json.dumps(turns, ensure_ascii=False))
        elif not turns:
            print(_("В истории пока нет ходов: ни один ход не разрешён."))
        else:
            turn, digest, size = _("Ход"), _("sha256 снимка"), _("размер")
            print(f"{turn:>4}  {digest:<16}  {size}")
            for t in turns:
                size = _("{kb} КБ").format(kb=f"{t['bytes'] / 1024:.0f}")
                print(f"{t['cursor']:>4}  {t['sha256'][:16]}  {size}")
        return 0
    if args.command == "rollback":
        rolled = timeline.rollback(backend, args.to, reopen_orders=args.reopen_orders)
        if not args.quiet:
            if rolled.kept_orders:
                said = _("Кампания возвращена к ходу {turn}: открыт приём приказов на ход {turn} — с его прежними "
                         "приказами и зерном: исправьте ошибку и разрешите его снова (resolve); менять приказы этого "
                         "окна игрокам нельзя.")
                if rolled.redrawn:
                    said += " " + _("Со следующего окна — новый жребий № {draw}.")
            else:
                said = _("Кампания возвращена к ходу {turn}: открыт приём приказов на ход {turn}, жребий № {draw}, "
                         "новый хэш зерна {hash} — опубликуйте его игрокам.")
            print(said.format(turn=args.to, draw=rolled.draw, hash=rolled.commitment))
        for line in rolled.set_aside:  # nothing a player typed is lost: the GM is told where it is
            print(_("Предупреждение:"), line, file=sys.stderr)
        return 0
    if args.command == "verify":
        verdict = timeline.verify(backend, args.turn)
        if args.json:
            turn: int | str = int(args.turn) if args.turn.isdigit() else args.turn  # a number, as before stages
            print(json.dumps({"turn": turn, "ok": verdict.ok, "message": verdict.message}, ensure_ascii=False))
        else:
            print(verdict.message)
        return 0 if verdict.ok else 1
    if args.command == "report":
        return _report(backend, args)
    raise UsageError(_("неизвестная команда {command}").format(command=args.command))


def _report(backend: Any, args: argparse.Namespace) -> int:
    """`report`: the forum post of a turn (to the screen or --out, with the chart beside it) and,
    with --players, each played side's own report; all of it the campaign's ruleset's words."""
    from . import timeline

    if args.limit < posts.MIN_LIMIT:
        raise UsageError(_("--limit: пост не короче {least} знаков, а не {limit}").format(least=posts.MIN_LIMIT,
                                                                                        limit=args.limit))
    tables = logs.expanded(sync.read_all(backend))  # an old window's rows are in the log archive
    rules = sync.ruleset_of(tables)
    turn = timeline.reported(tables, rules, args.turn)
    shown = rules.calendar.format(turn, i18n.current()) if isinstance(turn, Cursor) else turn
    # the game splits where it reads well; whatever is still longer is cut here (issue 23 p11)
    written = posts.fit(rules.reporter.forum_post(tables, turn, args.format, args.limit), args.limit)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        for i, post in enumerate(written, start=1):
            (out if i == 1 else out.with_name(f"{out.name}.{i}")).write_text(post + "\n", encoding="utf-8")
        png = rules.reporter.chart_png(tables, out.with_suffix(".png"))
        print(_("Пост хода {turn}: {path} (постов: {n}), график: {png}").format(turn=shown, path=out, n=len(written),
                                                                               png=png))
    else:
        sys.stdout.write("\n\n".join(written) + "\n")
    if args.players:
        folder = Path(args.players)
        folder.mkdir(parents=True, exist_ok=True)
        for name in rules.reporter.sides(tables):
            (folder / f"{name}.md").write_text(rules.reporter.player_report(tables, name, turn), encoding="utf-8")
        print(_("Личные отчёты: {folder}").format(folder=folder))
    return 0


def _secret_command(backend: Any, args: argparse.Namespace) -> int:
    """`secret export`: the campaign's secret from this machine's store, as text for `secret import`;
    `secret import`: that text into this machine's store, refused unless it is this campaign's and
    hashes to the commitment the campaign published (a wrong secret is never stored)."""
    tables = sync.read(backend)
    cid = meta.text(tables, meta.CAMPAIGN_ID)
    if args.action == "export":
        found = sync._secret(backend, tables, need=False, settle=False)
        if not found.value:
            raise secrets.missing(cid)
    if not cid:  # an old campaign: its next resolve (where the secret is) gives it an id
        raise UsageError(_("у этой кампании ещё нет идентификатора: разрешите ход там, где есть её секрет, — "
                           "идентификатор появится на листе кампании; затем перенесите секрет"))
    if args.action == "export":
        sys.stdout.write(secrets.export_text(cid, found.value))
        return 0
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(_("не читается файл {file}: {error}").format(file=args.file, error=faults.os_message(exc)))\
            from None
    secret = secrets.import_text(text, cid)
    if not sync.matches(tables, secret):
        raise UsageError(_("этот секрет не совпадает с хэшем зерна хода, опубликованным в кампании: не сохранён"))
    where = secrets.save(cid, secret)
    print(_("Секрет кампании {cid} сохранён в {where}.").format(cid=cid, where=where))
    return 0
