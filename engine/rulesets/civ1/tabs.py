"""The «Правила — …» tabs of «Civilization 1.0»: their columns (Russian and English headers, read
in either language) and the words their cells may hold.

Declarative only: :mod:`.declared` gives every field its range, :mod:`.rules_loaders` reads by
these layouts, :mod:`.templates` writes them.
"""

from __future__ import annotations

from engine.core.layout import Column, Layout

C = Column


def _opt(key: str, ru: str, en: str, width: int = 14) -> Column:
    return Column(key, ru, en, required=False, width=width)


NAME_RU = C("name_ru", "Название", "Name (ru)", aliases=("название (ru)",), width=22)
NAME_EN = C("name_en", "Название (en)", "Name", aliases=("name (en)",), width=22)
RULE_IDS = _opt("rule_ids", "Правила", "Rule ids", width=24)
DESC_RU = _opt("description_ru", "Описание", "Description (ru)", width=50)
DESC_EN = _opt("description_en", "Описание (en)", "Description", width=40)

SETTING_COLUMNS = (
    C("key", "Ключ", "Key", width=24),
    C("value", "Значение", "Value", width=10),
    _opt("source", "Источник", "Source", width=12),
    DESC_RU,
    DESC_EN,
    RULE_IDS,
)

RULES_PARAMS = Layout("Правила — Параметры", "Rules — Parameters", SETTING_COLUMNS)
RULES_LIMITS = Layout("Правила — Пределы", "Rules — Limits", SETTING_COLUMNS)

RULES_PRICES = Layout(
    "Правила — Цены",
    "Rules — Prices",
    (
        C("key", "Ключ", "Key", width=16),
        NAME_RU,
        NAME_EN,
        C("resource", "Ресурс", "Resource", width=10),
        C("amount", "Сколько", "Amount", width=8),
        C("per", "За что", "Per", width=22),
        RULE_IDS,
    ),
)

RULES_ERAS = Layout(
    "Правила — Эпохи",
    "Rules — Eras",
    (
        C("level", "Уровень", "Level", width=8),
        NAME_RU,
        NAME_EN,
        C("tech_cost", "Технология, наука", "Technology, science", width=12),
        C("unit_cost", "Войско, молотки", "Unit, hammers", width=12),
        C("building_cost", "Постройка, молотки", "Building, hammers", width=12),
        C("wonder_cost", "Чудо, молотки", "Wonder, hammers", width=12),
        C("wonder_discounted_cost", "Чудо со скидкой, молотки", "Wonder with discount, hammers", width=14),
        RULE_IDS,
    ),
)

RULES_TECHS = Layout(
    "Правила — Технологии",
    "Rules — Technologies",
    (
        NAME_RU,
        NAME_EN,
        C("level", "Уровень", "Level", width=8),
        C("era", "Эпоха", "Era", width=14),
        _opt("prerequisites", "Требует", "Prerequisites", width=20),
        _opt("power", "Власть в ход", "Power a turn", width=8),
        _opt("land_range", "Дальность по суше", "Land range", width=8),
        _opt("water_range", "Дальность по воде", "Water range", width=8),
        _opt("army_size", "+армия", "+army", width=8),
        _opt("city_size", "+город", "+city", width=8),
        _opt("spies", "Шпионы", "Spies", width=8),
        _opt("vp", "ПО", "VP", width=6),
        _opt("effects", "Особое", "Special", width=30),
        DESC_RU,
        DESC_EN,
        RULE_IDS,
    ),
)

RULES_TERRAIN = Layout(
    "Правила — Местность",
    "Rules — Terrain",
    (
        NAME_RU,
        NAME_EN,
        C("hammers", "Молотки", "Hammers", width=8),
        C("coins", "Монеты", "Coins", width=8),
        C("science", "Наука", "Science", width=8),
        C("growth", "Рост", "Growth", width=8),
        C("passable", "Проходима", "Passable", width=10),
        _opt("workable_tech", "Обрабатывается с", "Workable with", width=16),
        RULE_IDS,
    ),
)

RULES_TERRAIN_MODS = Layout(
    "Правила — Местность и техн.",  # Excel: a sheet name has at most 31 characters
    "Rules — Terrain and techs",
    (
        C("tech", "Технология", "Technology", width=18),
        C("terrain", "Местность", "Terrain", width=30),
        C("yield", "Что", "Yield", width=10),
        C("amount", "Сколько", "Amount", width=8),
        C("applies", "Когда", "Applies", width=10),
        RULE_IDS,
    ),
    aliases=("Правила — Местность и технологии", "Rules — Terrain and technologies"),
)

RULES_CLASSES = Layout(
    "Правила — Классы войск",
    "Rules — Unit classes",
    (
        NAME_RU,
        NAME_EN,
        _opt("advantage_over", "Преимущество против", "Advantage over", width=30),
        C("captures", "Захватывает города", "Captures cities", width=10),
        C("support", "Поддержка", "Support", width=10),
        RULE_IDS,
    ),
)

RULES_UNITS = Layout(
    "Правила — Войска",
    "Rules — Units",
    (
        NAME_RU,
        NAME_EN,
        C("class", "Класс", "Class", width=14),
        C("era", "Эпоха", "Era", width=8),
        _opt("tech", "Технология", "Technology", width=18),
        _opt("dice", "Кубики", "Dice", width=8),
        _opt("support", "Поддержка +", "Support +", width=8),
        RULE_IDS,
    ),
)

RULES_BUILDINGS = Layout(
    "Правила — Постройки",
    "Rules — Buildings",
    (
        NAME_RU,
        NAME_EN,
        C("tech", "Технология", "Technology", width=18),
        C("era", "Эпоха", "Era", width=8),
        C("kind", "Вид", "Kind", width=12),
        _opt("hammers", "Молотки", "Hammers", width=8),
        _opt("coins", "Монеты", "Coins", width=8),
        _opt("science", "Наука", "Science", width=8),
        _opt("protects", "Защищает войск", "Protects units", width=8),
        _opt("defence", "Оборона +", "Defence +", width=8),
        _opt("replaces", "Заменяет", "Replaces", width=14),
        RULE_IDS,
    ),
)

RULES_GOVERNMENTS = Layout(
    "Правила — Правления",
    "Rules — Governments",
    (
        C("key", "Ключ", "Key", width=18),
        NAME_RU,
        NAME_EN,
        C("tech", "Технология", "Technology", width=18),
        _opt("power", "Власть в ход", "Power a turn", width=8),
        RULE_IDS,
    ),
)

RULES_VILLAGES = Layout(
    "Правила — Деревни",
    "Rules — Villages",
    (
        C("roll_min", "1к10 от", "1d10 from", width=8),
        C("roll_max", "1к10 до", "1d10 to", width=8),
        C("effect", "Исход", "Outcome", width=12),
        C("amount", "Сколько", "Amount", width=8),
        _opt("alt_amount", "Иначе", "Otherwise", width=8),
        _opt("era", "Эпоха", "Era", width=8),
        _opt("to_era", "До эпохи", "To era", width=8),
        _opt("text_ru", "Текст", "Text (ru)", width=50),
        _opt("text_en", "Текст (en)", "Text", width=40),
        RULE_IDS,
    ),
)

RULES_COMBAT = Layout(
    "Правила — Исход боя",
    "Rules — Duel outcomes",
    (
        C("diff_min", "Разница от", "Difference from", width=10),
        _opt("diff_max", "Разница до", "Difference to", width=10),
        C("result", "Итог", "Result", width=12),
        C("loser", "Кто", "Who", width=12),
        RULE_IDS,
    ),
)

RULES_SPY = Layout(
    "Правила — Шпионаж",
    "Rules — Espionage",
    (
        C("key", "Ключ", "Key", width=12),
        NAME_RU,
        NAME_EN,
        C("capital_only", "Только в столице", "Capital only", width=10),
        DESC_RU,
        DESC_EN,
        RULE_IDS,
    ),
)

RULES_WONDERS = Layout(
    "Правила — Чудеса",
    "Rules — Wonders",
    (NAME_RU, NAME_EN, C("era", "Эпоха", "Era", width=8), _opt("effects", "Эффект", "Effect", width=30),
     DESC_RU, DESC_EN, RULE_IDS),
)

RULES_RESOURCES = Layout(
    "Правила — Ресурсы",
    "Rules — Resources",
    (NAME_RU, NAME_EN, _opt("wonder_discount", "Скидка на чудо", "Wonder discount", width=10),
     _opt("effects", "Эффект", "Effect", width=30), DESC_RU, DESC_EN, RULE_IDS),
)

# --- the words a cell may hold: code -> the words for it (Russian, English, abbreviations) -----

Words = dict[str, tuple[str, ...]]  # code -> (Russian, English, other accepted words…)

YES_NO: Words = {"yes": ("да", "yes", "true"), "no": ("нет", "no", "false")}
SOURCES: Words = {"seed": ("сид", "seed", "правила"), "proposal": ("предложение", "proposal", "PROPOSAL")}
RESOURCES: Words = {
    "power": ("Власть", "power", "В", "P"),
    "coins": ("монеты", "coins", "монета", "coin"),
    "science": ("наука", "science"),
    "hammers": ("молотки", "hammers", "молоток", "hammer"),
    "vp": ("ПО", "VP", "победные очки", "victory points"),
}
YIELDS: Words = {
    "hammers": RESOURCES["hammers"],
    "coins": RESOURCES["coins"],
    "science": RESOURCES["science"],
    "growth": ("рост", "growth"),
}
APPLIES: Words = {"hex": ("клетка", "hex", "гекс"), "choice": ("выбор", "choice")}
PER: Words = {
    "once": ("раз", "once", "each"),
    "per_city": ("город нации", "per city", "per city owned"),
    "per_hammer_difference": ("разница молотков", "hammer difference", "per hammer of difference"),
    "per_hammer_cost": ("молотки войска", "hammer cost", "per hammer of cost"),
    "per_extra_tech": ("технология сверх первой", "tech after the first", "per tech after the first"),
    "per_era": ("эпоха", "per era", "era reached"),
}
VILLAGE_EFFECTS: Words = {
    "resource": ("ресурс", "resource"),
    "coins": ("монеты", "coins"),
    "unit": ("войско", "unit"),
    "arms": ("оружие", "arms", "weapons"),
    "tech": ("технология", "technology", "tech"),
    "people": ("жители", "people", "population"),
    "barbarians": ("варвары", "barbarians"),
}
RESULTS: Words = {
    "retreated": ("отступил", "retreated", "отступило"),
    "routed": ("разгромлен", "routed", "разгромлено"),
    "destroyed": ("уничтожен", "destroyed", "уничтожено"),
}
LOSERS: Words = {"attacker": ("атакующий", "attacker"), "loser": ("проигравший", "loser")}
BUILDING_KINDS: Words = {
    "science": ("наука", "science"),
    "hammers": ("молотки", "hammers"),
    "coins": ("монеты", "coins"),
    "protection": ("защита", "protection"),
    "fortification": ("укрепления", "fortification"),
}
TRANSFERS: Words = {
    "cities": ("города", "cities"),
    "coins": ("монеты", "coins"),
    "resources": ("ресурсы", "resources"),
    "power": ("Власть", "power", "В"),
}


#: the columns of each rules tab that hold a word (or a list of words) of a fixed vocabulary
WORD_COLUMNS: dict[Layout, dict[str, Words]] = {
    RULES_PARAMS: {"source": SOURCES},
    RULES_LIMITS: {"source": SOURCES},
    RULES_PRICES: {"resource": RESOURCES, "per": PER},
    RULES_TERRAIN: {"growth": YES_NO, "passable": YES_NO},
    RULES_TERRAIN_MODS: {"yield": YIELDS, "applies": APPLIES},
    RULES_CLASSES: {"captures": YES_NO, "support": YES_NO},
    RULES_BUILDINGS: {"kind": BUILDING_KINDS},
    RULES_VILLAGES: {"effect": VILLAGE_EFFECTS},
    RULES_COMBAT: {"result": RESULTS, "loser": LOSERS},
    RULES_SPY: {"capital_only": YES_NO},
    RULES_RESOURCES: {"wonder_discount": YES_NO},
}

