"""The order vocabulary of «Civilization 1.0» (spec civ1.md §2): rows read as typed orders and back.

`parse(row, stage, rules, world)` reads one row of «Приказы — <нация>» (fields stage, action,
object, where, to, qty) as an order of `ordertypes.py`, resolving every name to a key of the rules
tables (technologies, units, buildings, governments, wonders, spy missions, resources: Russian or
English, any case, ё or е) or to the world's cities and nations, and hexes written «q,r».  A row it
cannot read raises `InvalidOrder` naming the cell and, for a typo, the nearest names
(`engine.core.names.NameIndex`).  An order of the other stage is refused: the cities' «Активировать»
in the state stage says where it belongs.  Whether the order is legal (Власть, range, ownership) is
the phases' to judge; parsing only says what the player meant.

`describe(order, lang)` is the echo «Понято как»; `cells(order, lang)` prints the cells a player
would type for it, which `parse` reads back to the same order.  `ORDER_TYPE` is the pair as the
core's `OrderType` (engine/core/ordertypes.py).  The seed's abbreviations are words of the tables
(ПТО, РСЗО, ДВС, СМИ) or aliases here (ОМП, «В» for Власть).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from engine.core import i18n
from engine.core.errors import InvalidOrder
from engine.core.i18n import N_
from engine.core.names import NameIndex, fold
from engine.core.orders import OrderRow
from engine.core.ordertypes import OrderType
from engine.core.tables import Cell, Formula, is_blank, shorten

from . import hexes
from .messages import _
from .model import CityEdits, World
from .ordertypes import (
    CITIES,
    STAGE_OF,
    STATE,
    Activate,
    AnnounceWonder,
    Attack,
    Build,
    BuildUnit,
    BuildWonder,
    ChangeGovernment,
    Convert,
    CounterSpy,
    Disband,
    Explore,
    Found,
    Given,
    Order,
    Pass,
    Reorganise,
    Research,
    Restore,
    SendSpy,
    Transfer,
    Upgrade,
    UseResource,
    Work,
)
from .rules import Rules

MAX_QTY = 1_000_000
MAX_INPUT_CHARS = 1_000  # orders are a few words; a longer cell is refused (as in the ancient game)
ANY = "any"  # the stage of «Нет действий»

# --- the words ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One order word: its stage, the canonical Russian and English words, and the synonyms."""

    key: str
    stage: str
    ru: str
    en: str
    synonyms: tuple[str, ...] = ()


ACTIONS: tuple[Action, ...] = (
    Action("explore", STATE, "Разведка", "Explore",
           ("Разведать деревню", "Разведать", "Разведка деревни", "Explore a village", "Explore village", "Scout")),
    Action("spy", STATE, "Шпионаж", "Spy",
           ("Заслать шпиона", "Послать шпиона", "Шпион", "Send a spy", "Send spy", "Espionage")),
    Action("found", STATE, "Основать город", "Found a city",
           ("Основать", "Основание города", "Found", "Found city", "Settle")),
    Action("upgrade", STATE, "Улучшить", "Upgrade", ("Апгрейд", "Улучшение", "Улучшить войско")),
    Action("restore", STATE, "Восстановить", "Restore", ("Восстановление", "Восстановить войско")),
    Action("reorganise", STATE, "Реорганизация", "Reorganise",
           ("Порядок колоды", "Реорганизовать", "Реорганизация армии", "Reorganize", "Reorder", "Deck order")),
    Action("disband", STATE, "Распустить", "Disband", ("Роспуск", "Распустить войско")),
    Action("attack", STATE, "Атака", "Attack", ("Атаковать", "Напасть", "Нападение", "Напасть на город")),
    Action("wmd", STATE, "Атака с ОМП", "Attack with WMD",
           ("ОМП", "Атака ОМП", "Атаковать с ОМП", "Ядерный удар", "WMD", "WMD attack", "Nuclear attack")),
    Action("research", STATE, "Изучить", "Research",
           ("Исследовать", "Изучение", "Изучить технологию", "Study", "Learn")),
    Action("research_gov", STATE, "Изучить и сменить правление", "Research and change government",
           ("Изучить + правление", "Исследовать и сменить правление", "Изучить и сменить форму правления",
            "Research + government")),
    Action("government", STATE, "Сменить правление", "Change government",
           ("Правление", "Сменить форму правления", "Смена правления", "Government")),
    Action("announce", STATE, "Чудо", "Wonder",
           ("Заявить чудо", "Объявить чудо", "Намерение", "Announce a wonder", "Announce wonder")),
    Action("transfer", STATE, "Передать", "Transfer", ("Передача", "Give", "Hand over")),
    Action("activate", CITIES, "Активировать", "Activate", ("Активация", "Активировать город")),
    Action("work", CITIES, "Обработка", "Work", ("Обрабатывать", "Обработать", "Work a hex", "Work hex")),
    Action("build_unit", CITIES, "Войско", "Unit",
           ("Построить войско", "Нанять", "Нанять войско", "Build a unit", "Build unit", "Recruit", "Train")),
    Action("build", CITIES, "Построить", "Build", ("Постройка", "Построить здание", "Build a building")),
    Action("build_wonder", CITIES, "Строить чудо", "Build a wonder",
           ("Построить чудо", "Строительство чуда", "Build wonder")),
    Action("counter_spy", CITIES, "Контршпион", "Counter-spy",
           ("Контрразведка", "Контрразведчик", "Назначить контршпиона", "Counterspy", "Counterintelligence")),
    Action("use_resource", CITIES, "Ресурс", "Resource", ("Использовать ресурс", "Use a resource", "Use resource")),
    Action("convert", CITIES, "Конвертировать", "Convert", ("Конвертация", "Обменять молотки")),
    Action("pass", ANY, "Нет действий", "No actions", ("Пас", "Нет", "Ничего", "Pass", "None", "Nothing")),
)
BY_KEY: dict[str, Action] = {a.key: a for a in ACTIONS}
# which action prints each order class (the others parse from synonyms or from another stage's word)
ACTION_OF: dict[type, str] = {
    Explore: "explore", SendSpy: "spy", Found: "found", Upgrade: "upgrade", Restore: "restore",
    Reorganise: "reorganise", Disband: "disband", Attack: "attack", Research: "research",
    ChangeGovernment: "government", AnnounceWonder: "announce", Transfer: "transfer", Activate: "activate",
    Work: "work", BuildUnit: "build_unit", Build: "build", BuildWonder: "build_wonder", CounterSpy: "counter_spy",
    UseResource: "use_resource", Convert: "convert", Pass: "pass",
}
# a word of one stage that means an order of the other, read as that stage's order: «Чудо» in the
# cities stage builds the wonder it announced, «Строить чудо» in the state stage announces it
STAGE_READING: dict[tuple[str, str], str] = {("announce", CITIES): "build_wonder"}

STAGE_WORDS: dict[str, tuple[str, str]] = {STATE: ("государство", "state"), CITIES: ("города", "cities")}
# the stage in the genitive, for «приказ фазы городов»
STAGE_GENITIVE: dict[str, str] = {STATE: N_("фазы государства"), CITIES: N_("фазы городов")}

# the seed's long forms of its abbreviations and a player's singulars, by the table's Russian key
UNIT_ALIASES: dict[str, tuple[str, ...]] = {
    "ватага": ("ватаги", "Warbands"),
    "мечники": ("мечник", "Swordsman"),
    "аркебузеры": ("аркебузер", "Arquebusier"),
    "стрелки": ("стрелок", "Rifleman"),
    "всадники": ("всадник", "Horseman"),
    "рыцари": ("рыцарь", "Knight"),
    "кавалерия": ("кавалерист", "кавалеристы"),
    "танки": ("танк", "Tank"),
    "копейщики": ("копейщик", "Spearman"),
    "пикинеры": ("пикинер", "Pikeman"),
    "пулеметчики": ("пулеметчик", "Machine-gunner", "Machine gunners"),
    "ПТО": ("противотанковые орудия", "противотанковое орудие", "Anti-tank gun", "AT guns"),
    "лучники": ("лучник", "Archer"),
    "арбалетчики": ("арбалетчик", "Crossbowman"),
    "пушки": ("пушка", "Cannon"),
    "РСЗО": ("реактивная система залпового огня", "реактивные системы залпового огня", "MLRS"),
    "бипланы": ("биплан", "Biplane"),
    "реактивные самолеты": ("реактивный самолет", "Jet", "Jet fighters"),
}
TECH_ALIASES: dict[str, tuple[str, ...]] = {
    "ДВС": ("двигатель внутреннего сгорания", "ICE", "Combustion"),
    "СМИ": ("средства массовой информации", "Mass media"),
    "Полет": ("Полёт", "Flight"),
    "Литье металла": ("Литьё металла",),
}
MISSION_ALIASES: dict[str, tuple[str, ...]] = {
    "city": ("изучить город", "город", "постройки", "buildings", "city"),
    "techs": ("технологии", "узнать технологии", "technologies", "techs"),
    "army": ("состав армии", "армия", "узнать армию", "army"),
    "steal": ("похитить технологию", "кража технологии", "похищение", "похитить", "steal", "steal a tech"),
    "resources": ("ресурсы", "resources"),
    "mail": ("перехват почты", "перехват", "почта", "перехват дипломатической почты", "mail", "intercept"),
}
WMD_WORDS = ("ОМП", "оружие массового поражения", "ядерное оружие", "ЯО", "WMD", "nuclear", "nukes")
# what a transfer's object names: the words, and the prefixes that name the thing after them
TRANSFER_WORDS: dict[str, tuple[str, ...]] = {
    "coins": ("монеты", "монета", "монет", "coins", "coin", "money", "gold"),
    "power": ("Власть", "Власти", "В", "Power"),
}
TRANSFER_PRINTED: dict[str, tuple[str, str]] = {"coins": ("монеты", "coins"), "power": ("Власть", "Power")}
CITY_PREFIXES = ("город", "city")
RESOURCE_PREFIXES = ("ресурс", "resource")
CHOICES: dict[str, tuple[str, str, tuple[str, ...]]] = {  # a worked hex's yield: ru, en, synonyms
    "hammers": ("молоток", "hammers", ("молотки", "молотков", "молотка", "hammer", "production", "shields")),
    "coins": ("монета", "coins", ("монеты", "монет", "coin", "gold", "trade")),
    "science": ("наука", "science", ("науки", "наук", "research")),
    "growth": ("рост", "growth", ("рост населения", "food", "grow")),
}
CONVERSIONS: dict[str, tuple[str, str, tuple[str, ...]]] = {  # a conversion: ru, en, synonyms
    "coins": ("молотки → монеты", "hammers → coins", ("монеты", "в монеты", "coins", "to coins")),
    "science": ("молотки → наука", "hammers → science", ("наука", "науку", "в науку", "science", "to science")),
}
ARROWS = ("→", "->", "=>", ">", "—", "–")
LISTS = re.compile(r"\s*(?:[,;\n]|→|->|=>)\s*")  # between the units of a new deck order

# what -> (message when blank, words when unknown): translated where used
_WORDS: dict[str, tuple[str, str]] = {
    "action": (N_("не указано действие"), N_("неизвестное действие")),
    "tech": (N_("не указана технология"), N_("неизвестная технология")),
    "unit": (N_("не указано войско"), N_("неизвестное войско")),
    "building": (N_("не указана постройка"), N_("неизвестная постройка")),
    "government": (N_("не указано правление"), N_("неизвестное правление")),
    "wonder": (N_("не указано чудо"), N_("неизвестное чудо")),
    "mission": (N_("не указана миссия шпиона"), N_("неизвестная миссия шпиона")),
    "resource": (N_("не указан ресурс"), N_("неизвестный ресурс")),
    "city": (N_("не указан город"), N_("неизвестный город")),
    "nation": (N_("не указана нация"), N_("неизвестная нация")),
    "choice": (N_("не указано, что даёт гекс (молоток, монета, наука, рост)"),
               N_("неизвестный выбор для гекса")),
    "conversion": (N_("не указано, во что конвертировать (молотки → монеты или молотки → наука)"),
                   N_("неизвестная конвертация")),
}


def _en(lang: str | None = None) -> bool:
    return (lang or i18n.current()) == "en"


def action_word(key: str, lang: str | None = None) -> str:
    """The canonical word of action `key` in `lang` (the current language by default)."""
    a = BY_KEY[key]
    return a.en if _en(lang) else a.ru


def action_words(stage: str, lang: str | None = None) -> list[str]:
    """The canonical order words of `stage` (and «Нет действий») in `lang`: a dropdown's list for
    the order tab's «Действие» (C1 writes it as a `Validation`)."""
    return [action_word(a.key, lang) for a in ACTIONS if a.stage in (stage, ANY) and a.key != "research_gov"]


def stage_word(stage: str, lang: str | None = None) -> str:
    """The stage as its column «Фаза» is written: «государство» / «города» (state / cities)."""
    ru, en = STAGE_WORDS[stage]
    return en if _en(lang) else ru


# --- the names a row may use ----------------------------------------------------------------------


class Vocabulary:
    """The name indexes of one campaign: the rules' tables, the world's cities and nations."""

    def __init__(self, rules: Rules, world: World) -> None:
        en = i18n.current() == "en"
        self.rules = rules
        self.actions = NameIndex(
            [(a.key, (a.ru, a.en)) for a in ACTIONS] + [(a.key, a.synonyms) for a in ACTIONS],
            {a.key: a.en if en else a.ru for a in ACTIONS},
        )

        def named(items: Iterable[tuple[str, str, str]], extra: dict[str, tuple[str, ...]]) -> NameIndex:
            items = list(items)
            return NameIndex(((k, (ru, en_, *extra.get(k, ()))) for k, ru, en_ in items),
                             {k: en_ if en else ru for k, ru, en_ in items})

        self.techs = named(((k, t.name_ru, t.name_en) for k, t in rules.techs.items()), TECH_ALIASES)
        self.units = named(((k, u.name_ru, u.name_en) for k, u in rules.units.items()), UNIT_ALIASES)
        self.buildings = named(((k, b.name_ru, b.name_en) for k, b in rules.buildings.items()), {})
        self.governments = named(((k, g.name_ru, g.name_en) for k, g in rules.governments.items()), {})
        self.wonders = named(((k, w.name_ru, w.name_en) for k, w in rules.wonders.items()), {})
        self.missions = named(((k, m.name_ru, m.name_en) for k, m in rules.spy_missions.items()), MISSION_ALIASES)
        # the resources of the rules' table and those lying on the map (the GM may name one only there)
        on_map = [t.resource for t in world.tiles.values() if t.resource and t.resource not in rules.resources]
        self.resources = named(
            [(k, r.name_ru, r.name_en) for k, r in rules.resources.items()]
            + [(r, r, r) for r in dict.fromkeys(on_map)],
            {},
        )
        self.cities = NameIndex((c, ()) for c in world.cities)
        self.nations = NameIndex((n, ()) for n in world.nations)
        self.choices = NameIndex(((k, (ru, en_, *more)) for k, (ru, en_, more) in CHOICES.items()),
                                 {k: en_ if en else ru for k, (ru, en_, _m) in CHOICES.items()})
        self.conversions = NameIndex(((k, (ru, en_, *more)) for k, (ru, en_, more) in CONVERSIONS.items()),
                                     {k: en_ if en else ru for k, (ru, en_, _m) in CONVERSIONS.items()})
        self.wmd = {fold(w) for w in WMD_WORDS}
        self.transfer_words = {fold(w): k for k, words in TRANSFER_WORDS.items() for w in words}
        self.tiles = set(world.tiles)


_VOCABULARY: dict[tuple[object, ...], tuple[Rules, Vocabulary]] = {}
_TILES: dict[int, tuple[World, int, tuple[object, ...], int]] = {}  # id(world) -> (world, len(tiles), key, token)


def _tiles_key(world: World) -> int:
    """A token for the world's hexes and their resources, computed once per world object and number
    of tiles (the same hexes and resources get the same token): parsing every row of a window must
    neither walk nor hash the whole map again (at 500 nations, 12,500 hexes for each of ~1,500 rows
    made a window's parse quadratic)."""
    hit = _TILES.get(id(world))
    if hit is not None and hit[0] is world and hit[1] == len(world.tiles):
        return hit[3]
    key = tuple((h, t.resource) for h, t in world.tiles.items())
    token = next((v[3] for v in _TILES.values() if v[2] == key), max((v[3] for v in _TILES.values()), default=0) + 1)
    if len(_TILES) > 32:
        _TILES.clear()
        _VOCABULARY.clear()  # its keys hold tokens that may now be given again
    _TILES[id(world)] = (world, len(world.tiles), key, token)
    return token


_NAMES: dict[int, tuple[World, tuple[int, int, int], int]] = {}  # id(world) -> (world, state, token)
_NAME_TOKENS: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}


def _names_key(world: World) -> int:
    """A token for the names of the world's cities and nations (the same names get the same token),
    read again only after an edit of the cities (model.CityEdits) or a change in the number of
    nations: hashing every name for each row of a window made its parse quadratic in the nations."""
    state = (id(world.cities), CityEdits.count(), len(world.nations))
    hit = _NAMES.get(id(world))
    if hit is not None and hit[0] is world and hit[1] == state:
        return hit[2]
    names = (tuple(world.cities), tuple(world.nations))
    if len(_NAMES) > 32 or len(_NAME_TOKENS) > 64:
        _NAMES.clear()
        _NAME_TOKENS.clear()
        _VOCABULARY.clear()  # its keys hold tokens that may now be given again
    token = _NAME_TOKENS.setdefault(names, max(_NAME_TOKENS.values(), default=0) + 1)
    _NAMES[id(world)] = (world, state, token)
    return token


def vocabulary(rules: Rules, world: World) -> Vocabulary:
    """The indexes for `rules` and `world`, built once for the same rules, language and names of the
    world (its cities, nations, hexes and their resources: a phase that founds a city changes them;
    the resources lying on the map are read once per world object, as a window never moves them)."""
    key = (id(rules), i18n.current(), _names_key(world), _tiles_key(world))
    hit = _VOCABULARY.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    vocab = Vocabulary(rules, world)
    if len(_VOCABULARY) > 32:
        _VOCABULARY.clear()
    _VOCABULARY[key] = (rules, vocab)
    return vocab


# --- reading cells --------------------------------------------------------------------------------


def _text(cell: Cell) -> str:
    return "" if is_blank(cell) else str(cell).strip()


def _lookup(index: NameIndex, cell: Cell, what: str, where: str) -> str:
    """The key `cell` names in `index`, or InvalidOrder naming the cell, what is missing or unknown,
    and the nearest names."""
    missing, unknown = _WORDS[what]
    text = _text(cell)
    if not text:
        raise InvalidOrder(_("{where}: {missing}").format(where=where, missing=_(missing)))
    found = index.get(text)
    if found is not None:
        return found
    message = _("{where}: {unknown} «{text}»").format(where=where, unknown=_(unknown), text=shorten(text, 60))
    if not index.canonical():
        raise InvalidOrder(message + "; " + _("в правилах кампании таких нет — их вписывает Ведущий"))
    raise InvalidOrder(message + index.suggest(text))


def _field(row: OrderRow, *names: str) -> tuple[Cell, str]:
    """The first non-blank of the fields `names` (the first one's cell when all are blank), and its place."""
    for n in names:
        if not is_blank(row.cells.get(n)):
            return row.cells.get(n), row.where(n)
    return row.cells.get(names[0]), row.where(names[0])


def _hex(row: OrderRow, vocab: Vocabulary, *names: str) -> hexes.Hex:
    cell, where = _field(row, *names)
    text = _text(cell)
    if not text:
        raise InvalidOrder(_("{where}: не указан гекс — пишите «q,r», например «3,4»").format(where=where))
    h = hexes.parse(text)
    if h is None:
        raise InvalidOrder(
            _("{where}: «{text}» — не гекс; пишите «q,r», например «3,4»").format(where=where, text=shorten(text, 40))
        )
    if vocab.tiles and h not in vocab.tiles:
        raise InvalidOrder(_("{where}: гекса {hex} нет на карте").format(where=where, hex=hexes.text(h)))
    return h


def quantity(row: OrderRow) -> int | None:
    """The row's «Кол-во»: None when blank, else a whole number from 1 to MAX_QTY."""
    cell = row.cells.get("qty")
    where = row.where("qty")
    if is_blank(cell):
        return None
    if isinstance(cell, bool):
        raise InvalidOrder(_("{where}: количество должно быть целым числом").format(where=where))
    try:
        if isinstance(cell, (int, float)):
            value = Fraction(cell).limit_denominator(1000)
        else:
            value = Fraction(str(cell).strip().replace(",", ".").replace("\u2212", "-"))
    except (ValueError, ZeroDivisionError, OverflowError, TypeError):
        raise InvalidOrder(_("{where}: количество «{v}» — не число").format(where=where, v=shorten(cell, 40))) from None
    if value.denominator != 1:
        raise InvalidOrder(_("{where}: количество {v} — дробное, нужно целое").format(where=where, v=shorten(cell, 40)))
    if value <= 0:
        raise InvalidOrder(
            _("{where}: количество {v} — должно быть больше нуля").format(where=where, v=shorten(cell, 40)))
    if value > MAX_QTY:
        raise InvalidOrder(_("{where}: количество {v} — слишком большое").format(where=where, v=shorten(cell, 40)))
    return int(value)


def _one(row: OrderRow, qty: int | None, what: str) -> None:
    """Refuse a quantity other than one where the order takes one thing."""
    if qty not in (None, 1):
        raise InvalidOrder(_("{where}: {what} — по одному на строку (указано {n})").format(
            where=row.where("qty"), what=what, n=qty))


def _split_arrow(text: str) -> tuple[str, str] | None:
    """«ватага → мечники» as its two sides; None without an arrow."""
    for arrow in ARROWS:
        if arrow in text:
            left, right = text.split(arrow, 1)
            return left.strip(), right.strip()
    return None


def _strip_prefix(text: str, prefixes: Iterable[str]) -> str | None:
    """`text` without one of `prefixes` as its first word («город Рим» → «Рим»); None when it has none."""
    words = text.split(None, 1)
    if len(words) == 2 and fold(words[0]) in {fold(p) for p in prefixes}:
        return words[1].strip()
    return None


# --- parse ----------------------------------------------------------------------------------------


def _refuse_raw(row: OrderRow) -> None:
    """Formulas and overlong cells are refused before any word is read."""
    for key, cell in row.cells.items():
        if key in row.formulas or isinstance(cell, Formula):
            raise InvalidOrder(_("{where}: в ячейке формула {f} — впишите значение").format(
                where=row.where(key), f=repr(str(cell)[:40])))
        if isinstance(cell, str) and len(cell) > MAX_INPUT_CHARS:
            raise InvalidOrder(_("{where}: слишком длинный текст: {n} знаков, не больше {max}").format(
                where=row.where(key), n=len(cell), max=MAX_INPUT_CHARS))


def _action(row: OrderRow, stage: str, vocab: Vocabulary) -> str:
    """The action key the row names, read for the open `stage`; an order of the other stage refused."""
    key = _lookup(vocab.actions, row.cells.get("action"), "action", row.where("action"))
    key = STAGE_READING.get((key, stage), key)
    own = BY_KEY[key].stage
    if own not in (ANY, stage):
        raise InvalidOrder(
            _("{where}: «{word}» — приказ {own}, а сейчас идёт приём приказов {now}; впишите его в строку "
              "с фазой «{stage}»").format(
                where=row.where("action"), word=_text(row.cells.get("action")), own=_(STAGE_GENITIVE[own]),
                now=_(STAGE_GENITIVE[stage]), stage=stage_word(own)))
    return key


def parse(row: OrderRow, stage: str, rules: Rules, world: World) -> Order:
    """The order `row` means in the open `stage` (`ordertypes.STATE` or `CITIES`); InvalidOrder,
    naming the cell, when it means none."""
    if stage not in STAGE_WORDS:
        raise ValueError(f"unknown stage {stage!r}")
    _refuse_raw(row)
    vocab = vocabulary(rules, world)
    key = _action(row, stage, vocab)
    qty = quantity(row)
    c = row.cells
    if key == "pass":
        return Pass()
    if key == "explore":
        return Explore(_hex(row, vocab, "where", "object"))
    if key == "spy":
        mission = _lookup(vocab.missions, c.get("object"), "mission", row.where("object"))
        city_cell, where = _field(row, "to", "where")
        return SendSpy(mission, _lookup(vocab.cities, city_cell, "city", where))
    if key == "found":
        h = _hex(row, vocab, "where")
        name = _text(c.get("object")) or _text(c.get("to"))
        if not name:
            raise InvalidOrder(_("{where}: не указано имя нового города").format(where=row.where("object")))
        return Found(h, name)
    if key == "upgrade":
        obj = _text(c.get("object"))
        sides, new_where = _split_arrow(obj), row.where("object")
        if sides is None and not is_blank(c.get("to")):
            sides, new_where = (obj, _text(c.get("to"))), row.where("to")
        if sides is None:
            raise InvalidOrder(_("{where}: укажите, что во что улучшить, например «ватага → мечники»").format(
                where=row.where("object")))
        old = _lookup(vocab.units, sides[0], "unit", row.where("object"))
        new = _lookup(vocab.units, sides[1], "unit", new_where)
        if old == new:
            raise InvalidOrder(_("{where}: войско улучшают в другое войско, а не в «{u}»").format(
                where=row.where("object"), u=vocab.units.label(old)))
        return Upgrade(old, new, qty or 1)
    if key == "restore":
        return Restore(_lookup(vocab.units, c.get("object"), "unit", row.where("object")), qty or 1)
    if key == "disband":
        return Disband(_lookup(vocab.units, c.get("object"), "unit", row.where("object")), qty or 1)
    if key == "reorganise":
        text = _text(c.get("object"))
        parts = [p for p in LISTS.split(text) if p.strip()] if text else []
        if not parts:
            raise InvalidOrder(_("{where}: укажите новый порядок колоды через запятую, например «мечники, лучники, "
                                 "копейщики»").format(where=row.where("object")))
        return Reorganise(tuple(_lookup(vocab.units, p, "unit", row.where("object")) for p in parts))
    if key in ("attack", "wmd"):
        origin = _lookup(vocab.cities, c.get("where"), "city", row.where("where"))
        target = _lookup(vocab.cities, c.get("to"), "city", row.where("to"))
        if origin == target:
            raise InvalidOrder(_("{where}: город не может атаковать сам себя").format(where=row.where("to")))
        wmd = key == "wmd"
        obj = _text(c.get("object"))
        if obj:
            if fold(obj) not in vocab.wmd:
                raise InvalidOrder(_("{where}: в атаке «Объект» — только «ОМП» (или пусто), а не «{v}»").format(
                    where=row.where("object"), v=shorten(obj, 40)))
            wmd = True
        return Attack(origin, target, wmd)
    if key in ("research", "research_gov"):
        tech = _lookup(vocab.techs, c.get("object"), "tech", row.where("object"))
        government = ""
        if not is_blank(c.get("to")):
            government = _lookup(vocab.governments, c.get("to"), "government", row.where("to"))
        elif key == "research_gov":
            opened = [k for k, g in rules.governments.items() if fold(g.tech) == fold(tech)]
            if not opened:
                raise InvalidOrder(_("{where}: технология «{t}» не открывает правления — уберите «и сменить "
                                     "правление» или укажите правление в «Куда»").format(
                    where=row.where("action"), t=vocab.techs.label(tech)))
            government = opened[0]
        return Research(tech, government)
    if key == "government":
        cell, where = _field(row, "object", "to")
        return ChangeGovernment(_lookup(vocab.governments, cell, "government", where))
    if key in ("announce", "build_wonder"):
        wonder = _lookup(vocab.wonders, c.get("object"), "wonder", row.where("object"))
        city = _lookup(vocab.cities, c.get("where"), "city", row.where("where"))
        return AnnounceWonder(wonder, city) if key == "announce" else BuildWonder(wonder, city)
    if key == "transfer":
        return _transfer(row, vocab, qty)
    if key == "activate":
        cell, where = _field(row, "where", "object")
        return Activate(_lookup(vocab.cities, cell, "city", where))
    if key == "work":
        city = _lookup(vocab.cities, c.get("where"), "city", row.where("where"))
        h = _hex(row, vocab, "object")
        return Work(city, h, _lookup(vocab.choices, c.get("to"), "choice", row.where("to")))
    if key == "build":
        return _build(row, vocab, qty)
    if key == "build_unit":
        _one(row, qty, _("войско"))
        unit = _lookup(vocab.units, c.get("object"), "unit", row.where("object"))
        return BuildUnit(unit, _lookup(vocab.cities, c.get("where"), "city", row.where("where")))
    if key == "counter_spy":
        cell, where = _field(row, "where", "to")
        return CounterSpy(_lookup(vocab.cities, cell, "city", where))
    if key == "use_resource":
        resource = _lookup(vocab.resources, c.get("object"), "resource", row.where("object"))
        return UseResource(resource, _lookup(vocab.cities, c.get("where"), "city", row.where("where")))
    if key == "convert":
        obj = _text(c.get("object"))
        sides = _split_arrow(obj)
        into = _lookup(vocab.conversions, sides[1] if sides else obj, "conversion", row.where("object"))
        if qty is None:
            raise InvalidOrder(_("{where}: укажите, сколько молотков конвертировать").format(where=row.where("qty")))
        city = "" if is_blank(c.get("where")) else _lookup(vocab.cities, c.get("where"), "city", row.where("where"))
        return Convert(into, qty, city)
    raise AssertionError(key)  # pragma: no cover - every action key is handled above


def _build(row: OrderRow, vocab: Vocabulary, qty: int | None) -> Order:
    """«Построить»: a building; a unit or a wonder named with the same word is that order."""
    c = row.cells
    obj = c.get("object")
    if vocab.buildings.get(obj) is None:
        unit, wonder = vocab.units.get(obj), vocab.wonders.get(obj)
        if unit is not None:
            _one(row, qty, _("войско"))
            return BuildUnit(unit, _lookup(vocab.cities, c.get("where"), "city", row.where("where")))
        if wonder is not None:
            return BuildWonder(wonder, _lookup(vocab.cities, c.get("where"), "city", row.where("where")))
    building = _lookup(vocab.buildings, obj, "building", row.where("object"))
    _one(row, qty, _("постройка"))
    return Build(building, _lookup(vocab.cities, c.get("where"), "city", row.where("where")))


def _transfer(row: OrderRow, vocab: Vocabulary, qty: int | None) -> Transfer:
    """«Передать | город X / монеты / ресурс X / Власть | Куда: нация | Кол-во»."""
    c = row.cells
    to = _lookup(vocab.nations, c.get("to"), "nation", row.where("to"))
    if to == row.state:
        raise InvalidOrder(_("{where}: передать можно другой нации, а не своей").format(where=row.where("to")))
    text = _text(c.get("object"))
    where = row.where("object")
    if not text:
        raise InvalidOrder(_("{where}: укажите, что передать: «город X», «монеты», «ресурс X» или «Власть»").format(
            where=where))
    what = vocab.transfer_words.get(fold(text))
    if what is not None:
        return Transfer(what, to, "", qty or 1)
    city = _strip_prefix(text, CITY_PREFIXES)
    if city is not None or (vocab.cities.get(text) is not None and vocab.resources.get(text) is None):
        _one(row, qty, _("город"))
        return Transfer("city", to, _lookup(vocab.cities, text if city is None else city, "city", where), 1)
    resource = _strip_prefix(text, RESOURCE_PREFIXES)
    if resource is not None or vocab.resources.get(text) is not None:
        return Transfer("resource", to, _lookup(vocab.resources, text if resource is None else resource,
                                                "resource", where), qty or 1)
    raise InvalidOrder(
        _("{where}: непонятно, что передать: «{v}» — пишите «город X», «монеты», «ресурс X» или «Власть»").format(
            where=where, v=shorten(text, 40)) + vocab.cities.suggest(text))


# --- print and echo -------------------------------------------------------------------------------


@cache
def _shipped(lang: str) -> Rules:
    """The rules a new campaign gets: names to print when the caller has no rules at hand."""
    from .rules_loaders import load_rules
    from .templates import rules_tables

    return load_rules(rules_tables(lang), [])


class _Names:
    """The names of the rules' keys in one language, for the print and the echo."""

    def __init__(self, rules: Rules | None, lang: str) -> None:
        self.rules = rules if rules is not None else _shipped("ru")
        self.en = lang == "en"

    def _pick(self, table: object, key: str) -> str:
        item = getattr(self.rules, str(table)).get(key)
        if item is None:
            return key
        return item.name_en if self.en and item.name_en else item.name_ru

    def tech(self, k: str) -> str:
        return self._pick("techs", k)

    def unit(self, k: str) -> str:
        return self._pick("units", k)

    def building(self, k: str) -> str:
        return self._pick("buildings", k)

    def government(self, k: str) -> str:
        return self._pick("governments", k)

    def wonder(self, k: str) -> str:
        return self._pick("wonders", k)

    def mission(self, k: str) -> str:
        return self._pick("spy_missions", k)

    def resource(self, k: str) -> str:
        return self._pick("resources", k)

    def choice(self, k: str) -> str:
        ru, en, _m = CHOICES[k]
        return en if self.en else ru

    def conversion(self, k: str) -> str:
        ru, en, _m = CONVERSIONS[k]
        return en if self.en else ru


def cells(order: Order, lang: str, rules: Rules | None = None) -> dict[str, Cell]:
    """The cells a player types for `order` in `lang` (stage, action, object, where, to, qty):
    `parse` reads them back to `order`.  Names of the rules' tables are printed in `lang` from
    `rules` (the shipped tables when None)."""
    n = _Names(rules, lang)
    out: dict[str, Cell] = {}
    stage = STAGE_OF.get(type(order))
    if stage is not None:
        out["stage"] = stage_word(stage, lang)
    out["action"] = action_word(ACTION_OF[type(order)], lang)
    match order:
        case Explore(hex=h):
            out["where"] = hexes.text(h)
        case SendSpy(mission=m, city=city):
            out.update(object=n.mission(m), to=city)
        case Found(hex=h, name=name):
            out.update(object=name, where=hexes.text(h))
        case Upgrade(unit=u, to=to, qty=q):
            out.update(object=f"{n.unit(u)} → {n.unit(to)}", qty=q)
        case Restore(unit=u, qty=q) | Disband(unit=u, qty=q):
            out.update(object=n.unit(u), qty=q)
        case Reorganise(order=units):
            out["object"] = ", ".join(n.unit(u) for u in units)
        case Attack(origin=a, target=b, wmd=wmd):
            out.update(where=a, to=b)
            if wmd:
                out["object"] = "ОМП" if lang != "en" else "WMD"
        case Research(tech=t, government=g):
            out["object"] = n.tech(t)
            if g:
                out["to"] = n.government(g)
        case ChangeGovernment(government=g):
            out["object"] = n.government(g)
        case AnnounceWonder(wonder=w, city=city) | BuildWonder(wonder=w, city=city):
            out.update(object=n.wonder(w), where=city)
        case Transfer(what=what, to=to, item=item, qty=q):
            if what == "city":
                out["object"] = f"{'city' if lang == 'en' else 'город'} {item}"
            elif what == "resource":
                out["object"] = f"{'resource' if lang == 'en' else 'ресурс'} {n.resource(item)}"
            else:
                out["object"] = TRANSFER_PRINTED[what][1 if lang == "en" else 0]
            out["to"] = to
            if what != "city":
                out["qty"] = q
        case Activate(city=city) | CounterSpy(city=city):
            out["where"] = city
        case Work(city=city, hex=h, choice=ch):
            out.update(object=hexes.text(h), where=city, to=n.choice(ch))
        case BuildUnit(unit=u, city=city):
            out.update(object=n.unit(u), where=city)
        case Build(building=b, city=city):
            out.update(object=n.building(b), where=city)
        case UseResource(resource=r, city=city):
            out.update(object=n.resource(r), where=city)
        case Convert(into=into, qty=q, city=city):
            out.update(object=n.conversion(into), qty=q)
            if city:
                out["where"] = city
        case Pass():
            pass
    return out


def describe(order: Order, lang: str, rules: Rules | None = None) -> str:
    """The echo «Понято как» of `order` in `lang`: what the row was read as, names in that language."""
    n = _Names(rules, lang)
    with i18n.using(lang):
        match order:
            case Explore(hex=h):
                return _("Разведать деревню на гексе {hex}").format(hex=hexes.text(h))
            case SendSpy(mission=m, city=city):
                return _("Шпион в город {city}: «{m}»").format(city=city, m=n.mission(m))
            case Found(hex=h, name=name):
                return _("Основать город «{name}» на гексе {hex}").format(name=name, hex=hexes.text(h))
            case Upgrade(unit=u, to=to, qty=q):
                return _("Улучшить {n} × {u} → {to}").format(n=q, u=n.unit(u), to=n.unit(to))
            case Restore(unit=u, qty=q):
                return _("Восстановить {n} × {u}").format(n=q, u=n.unit(u))
            case Disband(unit=u, qty=q):
                return _("Распустить {n} × {u}").format(n=q, u=n.unit(u))
            case Reorganise(order=units):
                return _("Новый порядок колоды: {units}").format(units=", ".join(n.unit(u) for u in units))
            case Attack(origin=a, target=b, wmd=wmd):
                if wmd:
                    return _("Атака из города {a} на город {b} с ОМП").format(a=a, b=b)
                return _("Атака из города {a} на город {b}").format(a=a, b=b)
            case Research(tech=t, government=g):
                if g:
                    return _("Изучить «{t}» и сменить правление на «{g}»").format(t=n.tech(t), g=n.government(g))
                return _("Изучить «{t}»").format(t=n.tech(t))
            case ChangeGovernment(government=g):
                return _("Сменить правление на «{g}»").format(g=n.government(g))
            case AnnounceWonder(wonder=w, city=city):
                return _("Заявить чудо «{w}» в городе {city}").format(w=n.wonder(w), city=city)
            case BuildWonder(wonder=w, city=city):
                return _("Строить чудо «{w}» в городе {city}").format(w=n.wonder(w), city=city)
            case Transfer(what="city", to=to, item=item):
                return _("Передать город {city} нации {to}").format(city=item, to=to)
            case Transfer(what="resource", to=to, item=item, qty=q):
                return _("Передать {n} × ресурс «{r}» нации {to}").format(n=q, r=n.resource(item), to=to)
            case Transfer(what="coins", to=to, qty=q):
                return _("Передать монеты ({n}) нации {to}").format(n=q, to=to)
            case Transfer(to=to, qty=q):
                return _("Передать Власть ({n}) нации {to}").format(n=q, to=to)
            case Activate(city=city):
                return _("Активировать город {city}").format(city=city)
            case Work(city=city, hex=h, choice=ch):
                return _("Город {city} обрабатывает гекс {hex}: {choice}").format(
                    city=city, hex=hexes.text(h), choice=n.choice(ch))
            case BuildUnit(unit=u, city=city):
                return _("Построить войско «{u}» в городе {city}").format(u=n.unit(u), city=city)
            case Build(building=b, city=city):
                return _("Построить «{b}» в городе {city}").format(b=n.building(b), city=city)
            case CounterSpy(city=city):
                return _("Контршпион в городе {city}").format(city=city)
            case UseResource(resource=r, city=city):
                return _("Использовать ресурс «{r}» в городе {city}").format(r=n.resource(r), city=city)
            case Convert(into=into, qty=q, city=city):
                if city:
                    return _("Конвертировать в городе {city}: {c}, {n}").format(n=q, city=city, c=n.conversion(into))
                return _("Конвертировать: {c}, {n}").format(n=q, c=n.conversion(into))
            case Pass():
                return _("Нет действий")
    raise TypeError(type(order).__name__)  # pragma: no cover


# --- the core's parse/print pair ------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """What parsing a row needs: the open stage, the rules and the world."""

    stage: str
    rules: Rules
    world: World


@dataclass(frozen=True)
class Read(Given):
    """A parsed row as the core's `PrintableOrder`: the row, its order, and the cells that write it
    again in the current language (names from `rules`)."""

    rules: Rules | None = field(default=None, compare=False, repr=False)

    def cells(self) -> dict[str, Cell]:
        return cells(self.order, i18n.current(), self.rules)

    def describe(self) -> str:
        return describe(self.order, i18n.current(), self.rules)


class Civ1OrderType:
    """The civ1 orders as one parse/print pair (engine/core/ordertypes.py): `parse` reads a row in
    a `Context` to a `Read` (a `Given` that prints itself); `kinds` are the order classes it holds."""

    kinds: tuple[type, ...] = tuple(ACTION_OF)

    def parse(self, row: OrderRow, context: Context) -> Read:
        return Read(row, parse(row, context.stage, context.rules, context.world), context.rules)

    def print(self, order: Read) -> dict[str, Cell]:
        return order.cells()


ORDER_TYPE: OrderType[Context] = Civ1OrderType()
