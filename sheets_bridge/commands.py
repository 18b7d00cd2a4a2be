"""The turn-history, report and secret commands of the CLI: history, rollback, verify, report, secret.

Kept apart from cli.py's core commands; cli.py registers them with `add_parsers` and hands
them the parsed arguments in `run`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.core import meta
from engine.core.errors import UsageError

from . import secrets, sync, timeline

COMMANDS = ("history", "rollback", "verify", "report", "secret")


def add_parsers(sub: Any) -> None:
    h = sub.add_parser("history", help="ходы, сохранённые в истории кампании")
    h.add_argument("target", help="CAMPAIGN.xlsx или id/URL таблицы Google")
    h.add_argument("--json", action="store_true")
    h.add_argument("--credentials", help="JSON сервисного аккаунта Google")

    r = sub.add_parser("rollback", help="вернуть кампанию к состоянию, когда был открыт ход N")
    r.add_argument("target")
    r.add_argument("--to", type=int, required=True, help="номер хода")
    r.add_argument("--credentials")

    v = sub.add_parser("verify", help="пересчитать опубликованный ход по раскрытому зерну и сверить")
    v.add_argument("target")
    v.add_argument("--turn", type=int, required=True)
    v.add_argument("--credentials")
    v.add_argument("--json", action="store_true")

    p = sub.add_parser("report", help="пост для форума, личные отчёты игроков, график")
    p.add_argument("target")
    p.add_argument("--turn", type=int, help="ход (по умолчанию последний разрешённый)")
    p.add_argument("--format", choices=("bbcode", "markdown"), default="bbcode")
    p.add_argument("--out", help="файл поста (несколько постов: FILE, FILE.2, …); по умолчанию — на экран")
    p.add_argument("--limit", type=int, default=60_000, help="наибольшая длина поста, знаков")
    p.add_argument("--players", help="папка для личных отчётов игроков (по одному .md на государство)")
    p.add_argument("--credentials")

    s = sub.add_parser("secret", help="перенести секрет ведущего кампании на другую машину (он не хранится в таблице)")
    actions = s.add_subparsers(dest="action", required=True, parser_class=type(s))
    ex = actions.add_parser("export", help="напечатать секрет кампании из хранилища этой машины (для secret import)")
    ex.add_argument("target", help="CAMPAIGN.xlsx или id/URL таблицы Google")
    ex.add_argument("--credentials", help="JSON сервисного аккаунта Google")
    im = actions.add_parser("import", help="сохранить секрет кампании в хранилище этой машины")
    im.add_argument("target", help="CAMPAIGN.xlsx или id/URL таблицы Google")
    im.add_argument("file", nargs="?", default="-", help="файл из secret export (по умолчанию — стандартный ввод)")
    im.add_argument("--credentials", help="JSON сервисного аккаунта Google")


def run(args: argparse.Namespace) -> int:
    backend = sync.open_backend(args.target, sync.Options(credentials=getattr(args, "credentials", None)))
    if args.command == "secret":
        return _secret_command(backend, args)
    if args.command == "history":
        turns = timeline.list_turns(backend)
        if args.json:
            print(json.dumps(turns, ensure_ascii=False))
        elif not turns:
            print("В истории пока нет ходов: ни один ход не разрешён.")
        else:
            print(f"{'Ход':>4}  {'sha256 снимка':<16}  размер")
            for t in turns:
                print(f"{t['turn']:>4}  {t['sha256'][:16]}  {t['bytes'] / 1024:.0f} КБ")
        return 0
    if args.command == "rollback":
        timeline.rollback(backend, args.to)
        print(f"Кампания возвращена к ходу {args.to}: открыт приём приказов на ход {args.to}.")
        return 0
    if args.command == "verify":
        verdict = timeline.verify(backend, args.turn)
        if args.json:
            print(json.dumps({"turn": args.turn, "ok": verdict.ok, "message": verdict.message}, ensure_ascii=False))
        else:
            print(verdict.message)
        return 0 if verdict.ok else 1
    if args.command == "report":
        return _report(backend, args)
    raise UsageError(f"неизвестная команда {args.command}")


def _report(backend: Any, args: argparse.Namespace) -> int:
    from engine.rulesets.ancient import codec
    from engine.rulesets.ancient.report import chart_png, forum_post, private_report

    tables = backend.read()
    campaign = codec.decode(tables).campaign
    turn = args.turn if args.turn is not None else campaign.last_resolved
    if turn < 1:
        raise UsageError("ещё ни один ход не разрешён — отчитываться не о чем")
    posts = forum_post(tables, turn, args.format, args.limit)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        for i, post in enumerate(posts, start=1):
            (out if i == 1 else out.with_name(f"{out.name}.{i}")).write_text(post + "\n", encoding="utf-8")
        png = chart_png(tables, out.with_suffix(".png"))
        print(f"Пост хода {turn}: {out} ({len(posts)} шт.), график: {png}")
    else:
        sys.stdout.write("\n\n".join(posts) + "\n")
    if args.players:
        folder = Path(args.players)
        folder.mkdir(parents=True, exist_ok=True)
        for name, st in sorted(campaign.states.items()):
            if not st.ai:
                (folder / f"{name}.md").write_text(private_report(tables, name, turn), encoding="utf-8")
        print(f"Личные отчёты: {folder}")
    return 0


def _secret_command(backend: Any, args: argparse.Namespace) -> int:
    """`secret export`: the campaign's secret from this machine's store, as text for `secret import`;
    `secret import`: that text into this machine's store, refused unless it is this campaign's and
    hashes to the commitment the campaign published (a wrong secret is never stored)."""
    tables = backend.read()
    cid = meta.text(tables, meta.CAMPAIGN_ID)
    if args.action == "export":
        found = sync._secret(backend, tables, need=False, settle=False)
        if not found.value:
            raise secrets.missing(cid)
    if not cid:  # an old campaign: its next resolve (where the secret is) gives it an id
        raise UsageError("у этой кампании ещё нет идентификатора: разрешите ход там, где есть её секрет, — "
                         "идентификатор появится на листе кампании; затем перенесите секрет")
    if args.action == "export":
        sys.stdout.write(secrets.export_text(cid, found.value))
        return 0
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"не читается файл {args.file}: {exc.strerror or exc}") from None
    secret = secrets.import_text(text, cid)
    if not sync.matches(tables, secret):
        raise UsageError("этот секрет не совпадает с хэшем зерна хода, опубликованным в кампании: не сохранён")
    where = secrets.save(cid, secret)
    print(f"Секрет кампании {cid} сохранён в {where}.")
    return 0
