"""engine/core/po.py reads a catalogue into what babel's reader gives (the translations the
program looks up), on every shipped catalogue and on the corners of the format."""

from __future__ import annotations

import io

import pytest
import repo_paths
from babel.messages.pofile import read_po

from engine.core import i18n, po

ROOT = repo_paths.ROOT
SHIPPED = sorted(p for p in ROOT.glob("engine/**/LC_MESSAGES/*.po"))


def by_babel(text: str, lang: str) -> tuple[dict, dict]:
    """What engine/core/i18n.py kept of a catalogue when babel read it."""
    singular: dict = {}
    plural: dict = {}
    for m in read_po(io.StringIO(text), locale=lang):
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, (list, tuple)):
            forms = tuple(m.string) if isinstance(m.string, (list, tuple)) else (m.string,)
            if all(forms):
                plural[(m.context, m.id[0])] = forms
        elif m.string:
            singular[(m.context, m.id)] = m.string
    return singular, plural


def test_every_shipped_catalogue_reads_as_babel_reads_it() -> None:
    assert len(SHIPPED) >= 4  # the core's, argparse's and both games'
    for path in SHIPPED:
        lang = path.parent.parent.name
        text = path.read_text(encoding="utf-8")
        ours = po.translations(text, lang)
        assert ours == by_babel(text, lang), path
        assert ours[0], path  # something was read at all


CORNERS = r'''# a header without Plural-Forms: the language says how many forms
msgid ""
msgstr ""
"Language: ru\n"

#, fuzzy
msgid "нечёткий"
msgstr "fuzzy"

#. a comment for translators
#: engine/x.py:1
msgctxt "столбец"
msgid "Ст"
msgstr "St"

msgid "Ст"
msgstr "Stability"

msgid ""
"в две "
"строки"
msgstr ""
"in two "
"lines \"quoted\"\t\\ and a line feed\n"

msgid "{n} ход"
msgid_plural "{n} хода"
msgstr[0] "{n} turn"
msgstr[1] "{n} turns"
msgstr[2] "{n} turns (many)"
msgstr[7] "beyond the forms"

msgid "{n} армия"
msgid_plural "{n} армии"
msgstr[0] "{n} army"
msgstr[1] ""

msgid "дважды"
msgstr "first"

#, fuzzy
msgid "дважды"
msgstr "second, fuzzy: the flags join"

msgid "без перевода"
msgstr ""

#~ msgid "устаревший"
#~ msgstr "obsolete"
'''


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_corners_of_the_format_read_as_babel_reads_them(lang: str) -> None:
    ours = po.translations(CORNERS, lang)
    assert ours == by_babel(CORNERS, lang)
    singular, plural = ours
    assert singular[("столбец", "Ст")] == "St" and singular[(None, "Ст")] == "Stability"
    assert singular[(None, "в две строки")] == 'in two lines "quoted"\t\\ and a line feed\n'
    assert (None, "нечёткий") not in singular and (None, "дважды") not in singular  # fuzzy
    assert (None, "устаревший") not in singular and (None, "без перевода") not in singular
    assert (None, "{n} армия") not in plural  # a form left empty
    # three forms: the header's language is Russian, whatever the folder says
    assert plural[(None, "{n} ход")] == ("{n} turn", "{n} turns", "{n} turns (many)")
    english = CORNERS.replace('"Language: ru\\n"', '"Language: en\\n"')
    assert po.translations(english, lang)[1][(None, "{n} ход")] == ("{n} turn", "{n} turns")
    assert po.translations(english, lang) == by_babel(english, lang)


def test_the_header_names_the_number_of_forms() -> None:
    text = CORNERS.replace('"Language: ru\\n"', '"Language: ru\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"')
    assert po.translations(text, "ru")[1][(None, "{n} ход")] == ("{n} turn", "{n} turns")
    assert po.translations(text, "ru") == by_babel(text, "ru")


def test_the_domains_translate_with_it() -> None:
    i18n._load.cache_clear()
    with i18n.using("en"):
        from engine.core.messages import _

        assert _("Проверен ход {turn}.") == "Turn {turn} checked."
