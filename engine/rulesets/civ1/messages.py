"""The civ1 game's message catalogue (domain ``civ1``): the problems its rules tabs report."""

from __future__ import annotations

from pathlib import Path

from engine.core.i18n import N_, Domain

_ = Domain("civ1", Path(__file__).resolve().parent / "locale")

# The ledger's categories (the codes phases post under, kept in the ledger tab as they are): their
# names for a nation's «Держава» lines and balance, in the campaign's language.
CATEGORIES = frozenset({
    N_("активация"), N_("апгрейд"), N_("атака"), N_("восстановление"), N_("деревня"), N_("исследование"),
    N_("конвертация"), N_("обработка"), N_("основание"), N_("передача"), N_("постройки"), N_("правление"),
    N_("разведка"), N_("реорганизация"), N_("роспуск"), N_("технологии"), N_("честность"), N_("чудеса"),
    N_("шпион"), N_("шпионы"), N_("дворец"), N_("войска"), N_("строить"),
})


def category(code: str) -> str:
    """A ledger category's name in the language texts are produced in now (an unknown code as it is)."""
    return _(code) if code in CATEGORIES else code
