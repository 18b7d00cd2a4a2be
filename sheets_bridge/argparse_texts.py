"""argparse's own texts («usage:», «the following arguments are required») in the GM's language,
and the argument types whose errors say what was expected.

argparse words its usage lines, headings and errors through the `gettext` module's global
functions, with English msgids. Its module-level ``_`` and ``ngettext`` are pointed at a catalogue
domain whose source language is English (``engine/locale/<lang>/LC_MESSAGES/argparse.po``), so
they follow `engine.core.i18n`'s current language like every other text of the CLI.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.core.i18n import Domain
from engine.core.messages import _

TEXTS = Domain("argparse", Path(__file__).resolve().parent.parent / "engine" / "locale", source="en")


def install() -> None:
    """Make argparse translate its texts with `TEXTS` (idempotent; argparse looks them up per call)."""
    argparse._ = TEXTS  # type: ignore[attr-defined]
    argparse.ngettext = TEXTS.ngettext  # type: ignore[attr-defined]


def integer(text: str) -> int:
    """An argparse type for turn numbers and lengths: the error names the value in the GM's words
    (argparse's own would say «invalid int value»)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("нужно целое число, а не «{value}»").format(value=text)) from None


def cursor(text: str) -> str:
    """An argparse type for a cursor («3», «3:города», «12:бой:2»): its shape is checked here, its
    stage by the campaign's calendar once the campaign is read (engine/core/cursor.py)."""
    parts = [p.strip() for p in text.split(":")]
    ok = 1 <= len(parts) <= 3 and all(parts) and parts[0].isdigit() and (len(parts) < 3 or parts[2].isdigit())
    if not ok:
        raise argparse.ArgumentTypeError(
            _("нужен ход: ХОД, ХОД:ЭТАП или ХОД:ЭТАП:РАУНД (например 3 или 3:города), а не «{value}»")
            .format(value=text))
    return text.strip()
