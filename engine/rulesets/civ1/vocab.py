"""The state and order tabs of «Civilization 1.0» (spec civ1.md §2): their layouts with Russian
and English headers (read back in either language by engine.core.layout), and who reads each.

Hidden information (issue 18, point 4): what a nation holds alone — its Power, coins, science,
technologies, deck, buildings, stored hammers and spies — lives in the GM's tabs («Казна»,
«Технологии», «Войска», «Постройки», «Шпионы», «Почта»), read whole by the codec, and is shown to
each nation only in its own «Держава — <нация>» tab (a view the codec writes, never reads).  The
map, the cities' public columns, the nations' public columns, battles, treaties and wonder
intentions are public.
"""

from __future__ import annotations

from engine.core import meta as core_meta
from engine.core.layout import Column, Layout

from .calendar import CALENDAR
from .ordertypes import CITIES, STATE

C = Column
NAME = "civ1"
ALIASES = ("цивилизация", "цивилизация-1")  # words a GM types; not "Civilization": the core's prose says it

__all__ = ["CALENDAR", "CITIES", "STATE"]  # re-exported: the tabs and the stages they hold


def _o(key: str, ru: str, en: str, width: int = 12, aliases: tuple[str, ...] = ()) -> Column:
    return Column(key, ru, en, aliases, required=False, width=width)


META = Layout("Кампания", "Campaign", (C("key", "Параметр", "Key", width=34),
                                      C("value", "Значение", "Value", width=66)))
META_KEYS: dict[str, tuple[str, str]] = {
    "title": ("Название", "Title"),
    "ruleset": core_meta.RULESET[:2],
    "scenario": ("Сценарий", "Scenario"),
    "lang": core_meta.LANG[:2],
    "last_turn": ("Последний ход", "Last turn"),
}

TURN = Layout("Порядок хода", "Turn order", (C("turn", "Ход", "Turn", width=6), C("stage", "Фаза", "Stage", width=14),
                              C("first", "Первый игрок", "First player", width=16),
                              C("order", "Порядок", "Order of play", width=50)))

NATIONS = Layout("Нации", "Nations", (
    C("name", "Нация", "Nation", width=14),
    _o("leader", "Лидер", "Leader", 16),
    C("seat", "Место", "Seat", width=7),
    _o("capital", "Столица", "Capital", 16),
    _o("government", "Правление", "Government", 16),
    _o("vp_honesty", "ПО (честность)", "VP (honesty)", 10),
    _o("missed", "Пропущено ходов", "Missed turns", 10),
    _o("excused", "Пропуск прощён", "Miss excused", 10),
    _o("ai", "ИИ", "AI", 6),
))

TREASURY = Layout("Казна", "Treasury", (
    C("name", "Нация", "Nation", width=14),
    C("power", "Власть", "Power", ("в",), width=9),
    C("coins", "Монеты", "Coins", width=9),
    C("science", "Наука", "Science", width=9),
    _o("vp_tech", "ПО (технологии)", "VP (technologies)", 10),
    _o("spies", "Шпионы", "Spies", 8),
    _o("next_card", "Следующая карта", "Next card", 10),
    _o("resources", "Ресурсы", "Resources", 24),  # the nation's resource tokens (villages), comma-separated
    _o("stolen", "Похищено", "Stolen", 24),  # «технология: ход» a spy stole, half price that turn
))

MAP = Layout("Карта мира", "World map", (
    C("hex", "Гекс", "Hex", width=8),
    C("terrain", "Местность", "Terrain", width=12),
    _o("village", "Деревня", "Village", 9),
    _o("city", "Город", "City", 14),
    _o("owner", "Владелец", "Owner", 12),
    _o("resource", "Ресурс", "Resource", 12),
))

CITIES_TAB = Layout("Города", "Cities", (
    C("name", "Город", "City", width=16),
    C("nation", "Нация", "Nation", width=12),
    C("hex", "Гекс", "Hex", width=8),
    C("population", "Население", "Population", width=10),
    _o("wonders", "Чудеса", "Wonders", 24),
    _o("status", "Статус хода", "Status this turn", 14),
))

WORKS = Layout("Постройки", "Buildings", (
    C("city", "Город", "City", width=16),
    C("nation", "Нация", "Nation", width=12),
    _o("buildings", "Постройки", "Buildings", 40),
    _o("hammers", "Молотки в запасе", "Stored hammers", 10),
    _o("counter_spy", "Контршпион", "Counter-spy", 10),
))

UNITS = Layout("Войска", "Units", (
    C("nation", "Нация", "Nation", width=12),
    C("number", "№ в колоде", "Deck no.", width=8),
    C("unit", "Войско", "Unit", width=16),
    _o("state", "Состояние", "State", 12),
    _o("class", "Класс", "Class", 12),
    _o("era", "Эпоха", "Era", 7),
))

TECHS = Layout("Технологии", "Technologies", (
    C("nation", "Нация", "Nation", width=12),
    C("tech", "Технология", "Technology", width=22),
    _o("turn", "Ход изучения", "Turn learned", 8),
))

#: the GM's overview of «Технологии»: a row per technology of the rules, a column per nation, the
#: turn each learned it (written from the world, never read back; the GM's book only)
TECH_GRID = Layout("Технологии — сетка", "Technologies — grid", (
    C("tech", "Технология", "Technology", width=22),
    C("level", "Уровень", "Level", width=7),
))

SPIES = Layout("Шпионы", "Spies", (
    C("nation", "Нация", "Nation", width=12),
    C("number", "Шпион №", "Spy no.", width=8),
    _o("where", "Где", "Where", 16),
    _o("busy", "Занят в этом ходу", "Busy this turn", 10),
))

TREATIES = Layout("Договоры", "Treaties", (
    C("turn", "Ход", "Turn", width=6),
    C("parties", "Стороны", "Parties", width=24),
    C("kind", "Тип", "Kind", width=20),
    _o("until", "До хода", "Until turn", 8),
    _o("breached_by", "Нарушение", "Breached by", 14),
))

INTENTIONS = Layout("Намерения", "Intentions", (
    C("nation", "Нация", "Nation", width=12),
    C("city", "Город", "City", width=16),
    C("wonder", "Чудо", "Wonder", width=22),
))

MAIL = Layout("Почта", "Mail", (C("sender", "От", "From", width=12), C("to", "Кому", "To", width=12),
                                C("text", "Письмо", "Letter", width=60, wrap=True)))

BATTLES = Layout("Бои", "Battles", (
    C("turn", "Ход", "Turn", width=10), C("origin", "Атакующий город", "Attacking city", width=16),
    C("target", "Цель", "Target", width=16), _o("duel", "№ дуэли", "Duel no.", 7),
    _o("attacker", "Войско А", "Attacker unit", 18), _o("defender", "Войско З", "Defender unit", 18),
    _o("a_dice", "Кубики А", "Attacker dice", 12), _o("d_dice", "Кубики З", "Defender dice", 12),
    _o("sums", "Суммы", "Sums", 9), _o("diff", "Разница", "Difference", 8), _o("outcome", "Итог", "Outcome", 16),
))

CHRONICLE = Layout("Журнал", "Chronicle", (C("window", "Окно", "Window", width=14),
                                          C("text", "Запись", "Entry", width=90, wrap=True)))
LEDGER = Layout("Ресурсы", "Resources", (
    C("window", "Окно", "Window", width=14), C("side", "Счёт", "Account", width=18),
    C("resource", "Ресурс", "Resource", width=10), C("phase", "Шаг", "Step", width=16),
    C("category", "Статья", "Category", width=14), C("amount", "Сумма", "Amount", width=8),
    C("reason", "Основание", "Reason", width=40, wrap=True), _o("order", "Приказ", "Order", 24),
))

ORDER_FIELDS = ("stage", "action", "object", "where", "to", "qty")  # what a player writes
ORDERS = Layout("Приказы", "Orders", (
    C("stage", "Фаза", "Stage", ("этап",), width=13),
    C("action", "Действие", "Action", ("приказ",), width=20),
    C("object", "Объект", "Object", width=24),
    C("where", "Где", "Where", width=14),
    C("to", "Куда", "To", width=14),
    C("qty", "Кол-во", "Qty", ("количество",), width=8),
    _o("comment", "Комментарий", "Comment", 24),
    C("turn", "Ход", "Turn", width=12),
    C("status", "Статус", "Status", width=12),
    C("reason", "Причина", "Reason", width=40),
    C("understood", "Понято как", "Understood as", width=36),
))
STAMP = "turn"
ORDER_ROWS = 30
ARCHIVE = Layout("Архив приказов", "Order archive", (
    C("turn", "Окно", "Window", width=12), C("state", "Нация", "Nation", width=12), C("row", "Строка", "Row", width=7),
    *[c for c in ORDERS.columns if c.key in ORDER_FIELDS],
    C("status", "Статус", "Status", width=12), C("reason", "Причина", "Reason", width=40),
    C("understood", "Понято как", "Understood as", width=36),
))

REPORT = "report"  # the kind of a nation's own tab

#: a nation's own log: every line told to it alone (its spies' findings, villages, transfers),
#: window after window, in its book alone (the core's runner appends it: engine/core/runner.py)
DISPATCHES = Layout("Донесения", "Dispatches", (C("window", "Окно", "Window", width=14),
                                                C("text", "Запись", "Entry", width=90, wrap=True)))


def orders_tab(nation: str, lang: str = "ru") -> str:
    return f"{'Orders' if lang == 'en' else 'Приказы'} — {nation}"


def realm_tab(nation: str, lang: str = "ru") -> str:
    """A nation's own tab: its balances, technologies, deck, buildings, spies and its ledger lines."""
    return f"{'Realm' if lang == 'en' else 'Держава'} — {nation}"


def dispatches_tab(nation: str, lang: str = "ru") -> str:
    """A nation's own log: what it alone was told, every window of the campaign."""
    return f"{DISPATCHES.tab_name(lang)} — {nation}"


#: the GM's tabs: every nation's secrets (and the logs that would tell them)
GM_LAYOUTS = (TREASURY, WORKS, UNITS, TECHS, TECH_GRID, SPIES, MAIL, LEDGER, ARCHIVE)
#: the public state tabs
PUBLIC_LAYOUTS = (TURN, NATIONS, MAP, CITIES_TAB, TREATIES, INTENTIONS, BATTLES, CHRONICLE)

YES = ("да", "yes", "+", "1", "true")
CARD_STATES = {"ready": ("готов", "ready"), "retreated": ("отступил", "retreated"),
               "routed": ("разгромлен", "routed"), "destroyed": ("уничтожен", "destroyed")}
CITY_STATUS = {"founded": ("основан", "founded"), "transferred": ("передан", "transferred"),
               "conquered": ("завоёван", "conquered")}


def word(table: dict[str, tuple[str, str]], code: str, lang: str) -> str:
    """A code's word in `lang` ('' for '')."""
    if not code:
        return ""
    ru, en = table[code]
    return en if lang == "en" else ru


def code(table: dict[str, tuple[str, str]], text: object) -> str | None:
    """The code a word names in either language ('' for a blank; None for an unknown word)."""
    t = str(text or "").strip().lower().replace("ё", "е")
    if not t or t in ("—", "-"):
        return ""
    for key, names in table.items():
        if t in {n.replace("ё", "е") for n in names} or t == key:
            return key
    return None
