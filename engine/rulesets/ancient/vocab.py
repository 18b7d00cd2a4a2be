"""Words of the ancient-world ruleset: tab layouts, headers, strata, order words (ru/en)."""

from __future__ import annotations

from engine.core import meta as core_meta
from engine.core.layout import Column, Layout

from .naming import Code

C = Column

META = Layout(
    "Кампания",
    "Campaign",
    (
        C("key", "Параметр", "Key", width=28),
        C("value", "Значение", "Value", width=70),
    ),
)

# Keys of the meta tab: key -> (ru, en)
META_KEYS: dict[str, tuple[str, str]] = {
    "title": ("Кампания", "Campaign"),
    "ruleset": ("Правила", "Ruleset"),
    "scenario": ("Сценарий", "Scenario"),
    "lang": ("Язык", "Language"),
    "turn": core_meta.OPEN_TURN,
    "stage": ("Этап", "Stage"),
    "status": ("Состояние", "Status"),
    "last_resolved": ("Последний разрешённый ход", "Last resolved turn"),
    # the rows the bridge reads itself (engine/core/meta.py): one spelling for both
    "commitment": core_meta.COMMITMENT,
    "campaign_id": core_meta.CAMPAIGN_ID,  # the key of the GM's secret store
    "seed": core_meta.REVEALED_SEED,  # the seed the last resolve revealed: verify reads it here
    "secret": core_meta.LEGACY_SECRET,  # read only: campaigns before issue 15 kept it here
}

STATES = Layout(
    "Государства",
    "States",
    (
        C("name", "Государство", "State", width=22),
        C("player", "Игрок", "Player", required=False, width=16),
        C("government", "Форма правления", "Government", ("правление",), width=16),
        C("path", "Путь", "Path", required=False, width=11),
        C("stability", "Стабильность (Ст)", "Stability", ("ст", "стабильность"), width=10),
        C("treasury", "Казна, Д", "Treasury", ("казна", "д", "деньги"), width=10),
        C("science", "Очки науки", "Science points", ("наука",), required=False, width=10),
        C("techs", "Технологии", "Technologies", required=False, width=60),
        C("capital", "Столица", "Capital", width=18),
        C("ai", "ИИ", "AI", ("аи", "ai-государство"), required=False, width=6),
        C("missed", "Пропущено ходов", "Missed turns", ("пропуски",), required=False, width=10),
        C("excused", "Пропуск прощён", "Miss excused", ("прощён",), required=False, width=10),
        C("famine", "Голод, ходов подряд", "Famine turns", ("голод",), required=False, width=10),
        C("peace", "Мирных ходов", "Peaceful turns", required=False, width=9),
        C("armed", "АР с оружием", "Armed aristocrats", required=False, width=9),
        C("color", "Цвет", "Colour", ("color",), required=False, width=9),
    ),
)

PROVINCES = Layout(
    "Провинции",
    "Provinces",
    (
        C("name", "Провинция", "Province", width=22),
        C("owner", "Владелец", "Owner", width=22),
        C("terrain", "Местность", "Terrain", width=11),
        C("specialisation", "Специализация", "Specialisation", ("specialization",), width=16),
        C("coastal", "Побережье", "Coastal", width=10),
        C("sea_zones", "Морские зоны", "Sea zones", required=False, width=12),
        C("buildings", "Постройки", "Buildings", required=False, width=60),
    ),
)

# the terrain whose defenders get `forest_defence` (ANC-COMBAT); matched in either language (naming.means)
FOREST = "лес"

# codes (naming.Code): kept in Russian, shown in the language of the text that formats them
STRATA: tuple[str, ...] = tuple(Code(s, "stratum") for s in ("СГ", "раб", "ВС", "уч", "дух", "АР"))
STRATA_NAMES: dict[str, tuple[str, str]] = {
    "СГ": ("свободные граждане", "free citizens"),
    "раб": ("рабы", "slaves"),
    "ВС": ("воины", "warriors"),
    "уч": ("учёные", "scientists"),
    "дух": ("жрецы", "priests"),
    "АР": ("аристократы", "aristocrats"),
}

POPULATION = Layout(
    "Население",
    "Population",
    (
        C("province", "Провинция", "Province", width=22),
        C("СГ", "СГ", "Citizens", ("свободные граждане", "free citizens", "cit"), width=8),
        C("раб", "раб", "Slaves", ("рабы", "раб.", "slaves"), width=8),
        C("ВС", "ВС", "Warriors", ("воины",), width=8),
        C("уч", "уч", "Scholars", ("учёные", "уч.", "scientists"), width=8),
        C("дух", "дух", "Priests", ("жрецы", "дух."), width=8),
        C("АР", "АР", "Aristocrats", ("аристократы",), width=8),
    ),
)

ADJACENCY = Layout(
    "Соседство",
    "Adjacency",
    (
        C("a", "Провинция А", "Province A", width=22),
        C("b", "Провинция Б", "Province B", width=22),
        C("kind", "Граница", "Border", width=10),
        C("strait", "Пролив", "Strait", required=False, width=14),
    ),
)

SEAS = Layout(
    "Море",
    "Sea zones",
    (
        C("zone", "Зона", "Zone", width=8),
        C("name", "Название", "Name", required=False, width=18),
        C("neighbours", "Соседние зоны", "Neighbouring zones", width=24),
    ),
)

LEDGER = Layout(
    "Казна",
    "Ledger",
    (
        C("turn", "Ход", "Turn", width=6),
        C("state", "Государство", "State", width=22),
        C("phase", "Фаза", "Phase", width=16),
        C("category", "Статья", "Category", width=20),
        C("amount", "Сумма", "Amount", ("сумма, д",), width=10),
        C("resource", "Ед.", "Unit", ("ресурс",), required=False, width=11),
        C("reason", "Основание", "Reason", width=70, wrap=True),
        C("order", "Приказ", "Order", required=False, width=24),
    ),
)

CHRONICLE = Layout(
    "Журнал",
    "Chronicle",
    (
        C("turn", "Ход", "Turn", width=6),
        C("text", "Запись", "Entry", width=120, wrap=True),
    ),
)

ARCHIVE = Layout(
    "Архив приказов",
    "Order archive",
    (
        C("turn", "Ход", "Turn", width=6),
        C("state", "Государство", "State", width=20),
        C("row", "Строка", "Row", width=7),
        C("action", "Действие", "Action", width=18),
        C("object", "Объект", "Object", width=20),
        C("where", "Где", "Where", width=18),
        C("to", "Куда", "To", width=18),
        C("qty", "Кол-во", "Qty", width=8),
        C("status", "Статус", "Status", width=11),
        C("reason", "Причина", "Reason", width=60, wrap=True),
        C("understood", "Понято как", "Understood as", width=40, wrap=True),
    ),
)

ORDERS = Layout(
    "Приказы",
    "Orders",
    (
        C("action", "Действие", "Action", width=22),
        C("object", "Объект", "Object", width=24),
        C("where", "Где", "Where", ("провинция",), width=20),
        C("to", "Куда", "To", ("цель",), required=False, width=20),
        C("qty", "Кол-во", "Qty", ("количество", "quantity"), required=False, width=8),
        C("comment", "Комментарий", "Comment", required=False, width=24),
        C("turn", "Ход", "Turn", width=6),
        C("status", "Статус", "Status", width=11),
        C("reason", "Причина", "Reason", width=60, wrap=True),
        C("understood", "Понято как", "Understood as", width=44, wrap=True),
    ),
)
ORDER_INPUT_FIELDS: tuple[str, ...] = ("action", "object", "where", "to", "qty", "comment")
ORDER_TAB_PREFIX = {"ru": "Приказы — ", "en": "Orders — "}
ORDER_ROWS = 40  # prepared rows with dropdowns in a new order tab

RULES_GOVERNMENTS = Layout(
    "Правила — Правление",
    "Rules — Governments",
    (
        C("key", "Ключ", "Key", width=12),
        C("name_ru", "Название", "Name (ru)", width=14),
        C("name_en", "Name", "Name (en)", width=12),
        C("tax", "Налог с СГ, Д", "Tax per citizen", width=10),
        C("science", "Наука за ход", "Science per turn", width=9),
        C("army", "Сила войск", "Army strength", width=9),
        C("stability_price", "Цена Ст, ±Д", "Stability price ±", width=9),
        C("money_per_turn", "Д за ход", "D per turn", ("Д per turn",), width=8),
        C("money_per_aristocrat", "Д за АР", "D per aristocrat", ("Д per aristocrat",), width=8),
        C("money_per_province", "Д за провинцию", "D per province", ("Д per province",), width=9),
        C("money_per_route", "Д за маршрут", "D per route", ("Д per route",), width=9),
        C("stability_per_turn", "Ст за ход", "Stability per turn", width=8),
        C("slave_to_citizen", "раб → СГ, Д", "Slave → citizen", width=9, required=False),
        C("citizen_to_aristocrat", "СГ → АР, Д", "Citizen → aristocrat", width=9, required=False),
        C("people_per_turn", "Людей за ход", "People per turn", width=9, required=False),
        C("colonise", "Колонизация", "May colonise", width=9, required=False),
        C("annex", "Захват нейтральных", "Annexes neutrals", width=9, required=False),
        C("peace_bonus", "Ст за мирные ходы", "Stability for peace", width=9, required=False),
        C("rule_ids", "Правила", "Rule ids", required=False, width=28),
    ),
)

RULES_STABILITY = Layout(
    "Правила — Стабильность",
    "Rules — Stability",
    (
        C("stability", "Стабильность", "Stability", width=12),
        C("tax_percent", "Сбор налогов, %", "Taxes collected, %", width=14),
        C("rule_ids", "Правила", "Rule ids", required=False, width=16),
    ),
)

RULES_BUILDINGS = Layout(
    "Правила — Постройки",
    "Rules — Buildings",
    (
        C("name_ru", "Постройка", "Building (ru)", width=26),
        C("name_en", "Building", "Building (en)", width=24),
        C("group", "Раздел", "Group", width=8),
        C("cost", "Цена, Д", "Cost", width=8),
        C("cost_slaves", "Цена, раб", "Cost in slaves", width=8),
        C("tech", "Технологии", "Technologies", width=26),
        C("where", "Где можно строить", "Where", width=50),
        C("workers", "Работники", "Workers", width=14),
        C("workshop", "Мастерская", "Workshop", width=10),
        C("unique", "Единственность", "Unique", width=10),
        C("produces", "Производит", "Produces", width=16),
        C("effects", "Эффекты", "Effects", width=30),
        C("rule_ids", "Правила", "Rule ids", required=False, width=26),
    ),
)

RULES_TECHS = Layout(
    "Правила — Технологии",
    "Rules — Technologies",
    (
        C("name_ru", "Технология", "Technology (ru)", width=24),
        C("name_en", "Technology", "Technology (en)", width=22),
        C("cost", "Цена, очки науки", "Cost", width=10),
        C("prerequisites", "Требует", "Prerequisites", width=36),
        C("description_ru", "Описание", "Description", required=False, width=60),
        C("effects", "Эффекты", "Effects", required=False, width=20),
        C("rule_ids", "Правила", "Rule ids", required=False, width=20),
    ),
)

RULES_PARAMS = Layout(
    "Правила — Параметры",
    "Rules — Parameters",
    (
        C("key", "Ключ", "Key", width=24),
        C("value", "Значение", "Value", width=10),
        C("description_ru", "Описание", "Description", required=False, width=60),
        C("rule_ids", "Правила", "Rule ids", required=False, width=22),
    ),
)

RULES_TRANSITIONS = Layout(
    "Правила — Смена правления",
    "Rules — Government change",
    (
        C("from", "Из", "From", width=13),
        C("to", "В", "To", width=13),
        C("path", "Путь", "Path", width=10),
        C("stability_min", "Ст не ниже", "Stability ≥", required=False, width=9),
        C("stability_max", "Ст не выше", "Stability ≤", required=False, width=9),
        C("peace", "Нужен мир", "Peace", required=False, width=9),
        C("war", "Нужна война", "War", required=False, width=9),
        C("aristocrats_min", "АР не меньше", "Aristocrats ≥", required=False, width=9),
        C("aristocrats_max", "АР не больше", "Aristocrats ≤", required=False, width=9),
        C("temples_min", "Действующих храмов", "Active temples ≥", required=False, width=9),
        C("forums_min", "Форумов", "Forums ≥", required=False, width=9),
        C("provinces_min", "Провинций не меньше", "Provinces ≥", required=False, width=9),
        C("treasury_min", "Казна не меньше, Д", "Treasury ≥", required=False, width=9),
        C("tech", "Технология", "Technology", required=False, width=14),
        C("rule_ids", "Правила", "Rule ids", required=False, width=16),
    ),
)

RULES_DEGRADATION = Layout(
    "Правила — Деградация",
    "Rules — Degradation",
    (
        C("from", "Из", "From", width=13),
        C("path", "Путь", "Path", width=10),
        C("to", "В", "To", width=13),
        C("condition", "Условие", "Condition", required=False, width=24),
        C("rule_ids", "Правила", "Rule ids", required=False, width=16),
    ),
)

RULES_CONVERSIONS = Layout(
    "Правила — Страты",
    "Rules — Strata",
    (
        C("from", "Из страты", "From", width=9),
        C("to", "В страту", "To", width=9),
        C("cost", "Цена, Д", "Cost", width=22),
        C("goods", "Нужен товар", "Goods", required=False, width=28),
        C("per_turn_max", "Не больше за ход", "Max per turn", required=False, width=9),
        C("governments", "Только при", "Governments", required=False, width=16),
        C("discount_effect", "Скидка от постройки", "Discount effect", required=False, width=18),
        C("rule_ids", "Правила", "Rule ids", required=False, width=24),
    ),
)

RULES_GOODS = Layout(
    "Правила — Товары",
    "Rules — Goods",
    (
        C("name_ru", "Товар", "Good (ru)", width=18),
        C("name_en", "Good", "Good (en)", width=14),
        C("specialisation", "Специализация", "Specialisation", required=False, width=16),
        C("food", "Еда", "Food", required=False, width=6),
        C("effects", "Эффекты", "Effects", required=False, width=16),
        C("rule_ids", "Правила", "Rule ids", required=False, width=22),
    ),
)

RULES_EVENTS = Layout(
    "Правила — События",
    "Rules — Events",
    (
        C("key", "Ключ", "Key", width=12),
        C("name_ru", "Событие", "Event (ru)", width=22),
        C("name_en", "Event", "Event (en)", width=18),
        C("kind", "Вид", "Kind", width=7),
        C("weight", "Вес", "Weight", width=6),
        C("target", "Цель", "Target", width=9),
        C("condition", "Условие", "Condition", required=False, width=14),
        C("effects", "Действие", "Effects", width=26),
        C("text_ru", "Текст для журнала", "Chronicle text", required=False, width=50),
        C("rule_ids", "Правила", "Rule ids", required=False, width=22),
    ),
)

RULES_EVENT_ODDS = Layout(
    "Правила — Шансы событий",
    "Rules — Event odds",
    (
        C("stability", "Стабильность", "Stability", width=12),
        C("bad_weight", "Вес плохих событий", "Bad events weight", width=12),
        C("good_weight", "Вес хороших событий", "Good events weight", width=12),
        C("rule_ids", "Правила", "Rule ids", required=False, width=16),
    ),
)

GM_EVENTS = Layout(
    "События ведущего",
    "GM events",
    (
        C("turn", "Ход", "Turn", width=6),
        C("event", "Событие", "Event", width=22),
        C("target", "Цель", "Target", width=22),
        C("comment", "Комментарий", "Comment", required=False, width=40),
    ),
)

LAND_UNITS: tuple[str, ...] = tuple(Code(u, "unit") for u in ("ЛП", "Луч.", "ЛК", "ТП", "БС", "ТК"))
SHIPS: tuple[str, ...] = tuple(Code(u, "unit") for u in ("ПЛ", "У", "Б", "Т", "К", "КК"))


def unit_en(code: str) -> str:
    """A unit type's code in an English campaign («ЛП» → «LI»), from templates/ancient/names_en.csv."""
    from .naming import shown

    return shown("unit", code, "en")

ARMIES = Layout(
    "Армии",
    "Armies",
    (
        C("name", "Армия", "Army", width=18),
        C("state", "Государство", "State", width=20),
        C("province", "Провинция", "Province", width=20),
        *(C(u, u, unit_en(u), width=6, required=False) for u in LAND_UNITS),
    ),
)

FLEETS = Layout(
    "Флоты",
    "Fleets",
    (
        C("name", "Флот", "Fleet", width=18),
        C("state", "Государство", "State", width=20),
        C("zone", "Морская зона", "Sea zone", width=9),
        *(C(u, u, unit_en(u), width=6, required=False) for u in SHIPS),
        C("cargo", "Войска на борту", "Troops aboard", required=False, width=24),
    ),
)

DIPLOMACY = Layout(
    "Дипломатия",
    "Diplomacy",
    (
        C("a", "Государство А", "State A", width=20),
        C("b", "Государство Б", "State B", width=20),
        C("relation", "Отношение", "Relation", width=12),
        C("since", "С хода", "Since turn", required=False, width=8),
    ),
)
RELATIONS = {
    "война": "war",
    "war": "war",
    "мир": "peace",
    "peace": "peace",
    "союз": "alliance",
    "alliance": "alliance",
    "вассал": "vassal",
    "вассалитет": "vassal",
    "vassal": "vassal",
}
RELATION_TEXT = {
    "war": ("война", "war"),
    "peace": ("мир", "peace"),
    "alliance": ("союз", "alliance"),
    "vassal": ("вассалитет", "vassal"),
}

RULES_UNITS = Layout(
    "Правила — Войска",
    "Rules — Units",
    (
        C("type", "Тип", "Type", width=7),
        C("name_ru", "Название", "Name (ru)", width=20),
        C("name_en", "Name", "Name (en)", width=16),
        C("kind", "Род", "Kind", width=6),
        C("recruits", "Рекрутов", "Recruits", width=8),
        C("strata", "Из страт", "From strata", width=10),
        C("cost", "Цена, Д", "Cost", width=8),
        C("goods", "Снаряжение", "Goods", required=False, width=16),
        C("upkeep", "Содержание, Д", "Upkeep", width=9),
        C("strength", "Сила", "Strength", width=6),
        C("moves", "Запас хода", "Moves", width=7),
        C("terrain", "Местность", "Terrain", required=False, width=22),
        C("weight", "Вес, у.т.", "Weight", required=False, width=7),
        C("capacity", "Грузоподъёмность, у.т.", "Capacity", required=False, width=9),
        C("value", "Ценность", "Value", width=8),
        C("where", "Где строить", "Where", required=False, width=22),
        C("tech", "Технология", "Technology", required=False, width=14),
        C("rule_ids", "Правила", "Rule ids", required=False, width=26),
    ),
)

RULES_COMBAT = Layout(
    "Правила — Таблица боя",
    "Rules — Combat table",
    (
        C("kind", "Бой", "Battle", width=7),
        C("ratio_min", "БО атак. / БО защ. от", "Ratio from", width=12),
        C("ratio_max", "до", "to", required=False, width=8),
        C("result", "Итог", "Result", width=12),
        C("attacker_loss", "Потери атакующего (доля БО защитника)", "Attacker loss", width=16),
        C("defender_loss", "Потери защитника (доля БО атакующего)", "Defender loss", width=16),
        C("rule_ids", "Правила", "Rule ids", required=False, width=22),
    ),
)

ROUTES = Layout(
    "Маршруты",
    "Trade routes",
    (
        C("seller", "Продавец", "Seller", width=18),
        C("src", "Откуда", "From", width=18),
        C("good", "Товар", "Good", width=16),
        C("dst", "Куда", "To", width=18),
        C("buyer", "Покупатель", "Buyer", width=18),
        C("since", "С хода", "Since turn", width=7),
        C("distance", "Расстояние", "Distance", required=False, width=9),
        C("path", "Путь", "Path", required=False, width=50),
        C("state", "Итог хода", "Last turn", required=False, width=40),
        C("seller_income", "Доход продавца, Д", "Seller's income", required=False, width=10),
        C("buyer_income", "Доход покупателя, Д", "Buyer's income", required=False, width=10),
    ),
)

TRANSIT = Layout(
    "Транзит",
    "Transit",
    (
        C("owner", "Кто разрешает", "Granted by", width=20),
        C("to", "Кому", "Granted to", width=20),
        C("since", "С хода", "Since turn", required=False, width=8),
    ),
)

RULES_TRADE = Layout(
    "Правила — Торговля",
    "Rules — Trade",
    (
        C("good", "Товар", "Good", width=18),
        *(C(f"d{i}", f"{i}", f"{i}", (f"расстояние {i}",), width=5, required=False) for i in range(1, 11)),
        C("rule_ids", "Правила", "Rule ids", required=False, width=22),
    ),
)

BALANCE_TAB = {"ru": "Баланс", "en": "Balance"}

# Order actions: key -> (ru word, en word, other accepted words)
ACTIONS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "build": ("Построить", "Build", ("строить", "постройка", "построй", "стр", "build")),
    "stability": (
        "Стабильность",
        "Stability",
        ("вложить в стабильность", "купить стабильность", "+1 ст", "ст", "invest in stability", "buy stability"),
    ),
    "none": ("Нет действий", "No actions", ("без действий", "ничего", "пас", "none", "pass", "no action")),
    "research": (
        "Изучить",
        "Research",
        ("исследовать", "изучение", "наука", "технология", "research", "learn", "study"),
    ),
    "convert": ("Перевести", "Convert", ("перевод", "конвертировать", "обратить", "convert")),
    "move": ("Переселить", "Resettle", ("переселение", "переместить", "move people", "resettlement", "migrate")),
    "colonise": ("Колонизировать", "Colonise", ("колонизация", "колонизовать", "colonise", "colonize")),
    "government": (
        "Сменить правление",
        "Change government",
        ("смена правления", "форма правления", "правление", "change government", "government"),
    ),
    "pay": ("Заплатить", "Pay", ("дань", "платёж", "платеж", "выплатить", "pay", "tribute")),
    "recruit": (
        "Набрать",
        "Recruit",
        ("набор", "нанять", "сформировать", "построить корабль", "recruit", "raise", "hire", "build ship"),
    ),
    "march": (
        "Двинуть",
        "Move",
        ("идти", "атаковать", "напасть", "марш", "поход", "move army", "march", "attack", "invade"),
    ),
    "sail": ("Плыть", "Sail", ("флот", "отплыть", "перевезти", "sail", "move fleet")),
    "embark": ("Погрузить", "Embark", ("посадить", "на корабли", "embark")),
    "disband": ("Распустить", "Disband", ("роспуск", "disband", "dismiss")),
    "trade": ("Торговать", "Trade", ("маршрут", "торговый маршрут", "продать", "trade", "route", "sell")),
    "cancel_route": ("Отменить маршрут", "Cancel route", ("закрыть маршрут", "cancel route")),
    "transit": ("Разрешить транзит", "Allow transit", ("транзит", "allow transit", "transit")),
    "raze": ("Разрушить", "Raze", ("снести", "сжечь", "разорить", "raze")),
    "war": ("Объявить войну", "Declare war", ("война", "declare war", "war")),
    "peace": ("Заключить мир", "Make peace", ("мир", "make peace", "peace")),
    "alliance": ("Заключить союз", "Make alliance", ("союз", "alliance", "ally")),
    "vassal": ("Стать вассалом", "Become vassal", ("вассалитет", "become vassal", "become a vassal", "vassal")),
    "accept_vassal": ("Принять вассала", "Accept vassal", ("accept vassal",)),
    "break_vassal": ("Разорвать вассалитет", "Break vassalage", ("разрыв вассалитета", "break vassalage")),
}

# the Object of «Разрушить» that means every building of the province
ALL_WORDS = frozenset({"", "всё", "все", "all", "everything", "all buildings"})

# English abbreviations of the unit types (the seed's Russian codes are the names themselves), read
# in a campaign of either language: `LI` is «ЛП», light infantry
UNIT_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "ЛП": ("LI",),
    "Луч.": ("Arc", "Arch"),
    "ЛК": ("LC",),
    "ТП": ("HI",),
    "БС": ("WE", "El"),
    "ТК": ("HC",),
    "ПЛ": ("PB",),
    "У": ("Un",),
    "Б": ("Bi",),
    "Т": ("Tr",),
    "К": ("Qd",),
    "КК": ("Qq",),
}
# English abbreviations of the strata, read in a campaign of either language
STRATA_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "СГ": ("FC", "cit", "citizens", "free citizen"),
    "раб": ("SL", "slave"),
    "ВС": ("WA", "warrior"),
    "уч": ("SC", "scholars", "scholar", "scientist"),
    "дух": ("PR", "priest"),
    "АР": ("AR", "aristocrat", "nobles"),
}

YES = {"да", "yes", "y", "true", "1", "истина", "+", "д", "x", "х"}
NO = {"нет", "no", "n", "false", "0", "ложь", "-", "", "н"}

PATHS = {
    "западный": "western",
    "western": "western",
    "запад": "western",
    "восточный": "eastern",
    "eastern": "eastern",
    "восток": "eastern",
}
PATH_TEXT = {"western": ("западный", "western"), "eastern": ("восточный", "eastern")}

BORDER_KINDS = {
    "суша": "land",
    "land": "land",
    "река": "river",
    "river": "river",
    "пролив": "strait",
    "strait": "strait",
}
BORDER_TEXT = {"land": ("суша", "land"), "river": ("река", "river"), "strait": ("пролив", "strait")}
