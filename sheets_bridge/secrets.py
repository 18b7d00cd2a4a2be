"""The GM's campaign secrets, kept on the GM's machine and in no cell of any campaign.

The secret seeds the dice (engine/core/dice.py); whoever reads it knows every future roll. So no
workbook holds it, .xlsx or Google (docs/reliability.md, "The campaign secret"): `strategos new`
keeps it here, keyed by the campaign id it writes into the meta tab (a random uuid, not a secret),
and resolve reads it from here. Google campaigns made before the campaign id are keyed by their
spreadsheet id. The file is `$STRATEGOS_SECRETS` or `~/.config/strategos/secrets.json`, readable
by its owner only; `strategos secret export/import` move one secret to another machine.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from engine.core.errors import CampaignError
from engine.core.messages import _
from engine.core.tables import WorkbookSpec

from . import faults


def path() -> Path:
    """Where the store is: `$STRATEGOS_SECRETS`, else ~/.config/strategos/secrets.json."""
    return Path(os.environ.get("STRATEGOS_SECRETS") or Path.home() / ".config" / "strategos" / "secrets.json")


def _all() -> dict[str, str]:
    p = path()
    if not p.exists():
        return {}
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CampaignError(_("хранилище секретов ведущего {path} не читается ({why}): поправьте или восстановите "
                              "этот файл — в нём секреты всех ваших кампаний").format(path=p, why=_why(exc))) from None
    if not isinstance(data, dict):
        raise CampaignError(_("хранилище секретов ведущего {path} повреждено: ожидался объект JSON").format(path=p))
    return {str(k): str(v) for k, v in data.items() if v}


def _why(exc: Exception) -> str:
    """A library's fault in words: an OS fault as `faults.os_message` says it, bad JSON with its place."""
    if isinstance(exc, OSError):
        return faults.os_message(exc)
    if isinstance(exc, json.JSONDecodeError):
        return _("это не JSON: ошибка в строке {line}, знак {column}").format(line=exc.lineno, column=exc.colno)
    return _("это не JSON в UTF-8")


def load(key: str) -> str | None:
    """The secret kept under `key` (a campaign id, or a Google spreadsheet id), or None."""
    return _all().get(key) if key else None


def save(key: str, secret: str) -> Path:
    """Keep `secret` under `key`: written to a temporary file first, then moved over the store
    (a crash leaves the old store or the new one), readable by its owner only."""
    if not key or not secret:
        raise CampaignError(_("нечего сохранить: нет идентификатора кампании или секрета"))
    p = path()
    p.parent.mkdir(parents=True, exist_ok=True)
    data = _all()
    data[key] = secret
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, ensure_ascii=False, indent=1))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise CampaignError(_("не удалось сохранить секрет кампании в {path}: {why}").format(path=p, why=_why(exc)))\
            from None
    return p


def keep(spec: WorkbookSpec) -> None:
    """Keep the secret of a new campaign's spec under its campaign id (before its sheet exists,
    so a campaign is never created without its secret on this machine)."""
    if spec.secret:
        if not spec.campaign_id:
            raise CampaignError(_("у новой кампании нет идентификатора: секрет ведущего некуда сохранить"))
        save(spec.campaign_id, spec.secret)


def missing(campaign_id: str) -> CampaignError:
    """The error of a machine that lacks a campaign's secret: what happened and what to do."""
    return CampaignError(
        _("на этой машине нет секрета кампании {campaign} (хранилище {path}). Без него ход не разрешить. "
          "Перенесите секрет с машины, где кампания создана: там «strategos secret export CAMPAIGN > secret.json», "
          "здесь «strategos secret import CAMPAIGN secret.json» (см. docs/reliability.md, «The campaign secret»).")
        .format(campaign=campaign_id or _("(без идентификатора)"), path=path())
    )


def export_text(campaign_id: str, secret: str) -> str:
    """One campaign's secret as the text `strategos secret import` reads."""
    return json.dumps({"campaign_id": campaign_id, "secret": secret}, ensure_ascii=False) + "\n"


def import_text(text: str, campaign_id: str) -> str:
    """The secret in an exported text, refused if it belongs to another campaign."""
    try:
        data = json.loads(text)
        got, secret = str(data["campaign_id"]), str(data["secret"])
    except (ValueError, KeyError, TypeError):
        raise CampaignError(_("это не экспорт секрета: ожидался JSON из «strategos secret export»")) from None
    if got != campaign_id:
        raise CampaignError(_("этот секрет — от кампании {other}, а у этой кампании идентификатор {campaign}: "
                              "ничего не изменено").format(other=got, campaign=campaign_id))
    if not secret:
        raise CampaignError(_("в экспорте пустой секрет: ничего не изменено"))
    return secret
