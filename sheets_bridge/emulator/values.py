"""Cell values: what a write stores and what a read renders.

Google keeps, per cell, a *user-entered value* (``stringValue``, ``numberValue``,
``boolValue`` or ``formulaValue``) plus an optional number format, and renders it on read
according to ``valueRenderOption``.  This module reproduces the parts Strategos and
gspread rely on:

* ``valueInputOption=RAW``: JSON strings stay text (even ``=IMPORTXML(...)`` or ``"0042"``),
  JSON numbers/booleans keep their type, ``""`` clears, ``null`` leaves the cell alone.
* ``USER_ENTERED``: ``=...`` becomes a formula, numbers (``0042``, ``2,000,000.01``, ``12%``,
  ``$5``), ``TRUE``/``FALSE`` and dates (``2020-01-01``, ``1/2/2020``) are parsed the way the
  Sheets UI (locale en_US) does, remembering a number format where Google would.
* Rendering: ``FORMATTED_VALUE`` (strings), ``UNFORMATTED_VALUE`` (typed, dates as serial
  numbers unless ``dateTimeRenderOption=FORMATTED_STRING``) and ``FORMULA``.

Formulas are *not* a spreadsheet engine: only arithmetic on literals (``=4/2``,
``= 1 / 1024``, ``=(1+2)^2``) is computed; any other formula renders as its own text in
``FORMATTED_VALUE``/``UNFORMATTED_VALUE``.  This is documented in ``docs/emulator.md``.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
import struct
from dataclasses import dataclass, field
from typing import Any

from .jsoncopy import jcopy

_EPOCH = _dt.date(1899, 12, 30)

_NUMBER_RE = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")
_GROUPED_RE = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_ISO_DATE_RE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_ISO_DATETIME_RE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$")
_US_DATE_RE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")


@dataclass
class Cell:
    """One stored cell.  Empty attributes are ``None``; an all-``None`` cell is dropped."""

    value: dict[str, Any] | None = None  # Google's ExtendedValue (userEnteredValue)
    fmt: dict[str, Any] | None = None  # userEnteredFormat
    note: str | None = None
    validation: dict[str, Any] | None = None  # dataValidation rule
    extra: dict[str, Any] = field(default_factory=dict)  # other CellData fields kept verbatim

    def is_empty(self) -> bool:
        """True when nothing at all is stored (the cell can be removed from the grid)."""
        return self.value is None and not self.fmt and not self.note and not self.validation and not self.extra

    def has_value(self) -> bool:
        """True when the cell has a user-entered value (what values.get trims on)."""
        return self.value is not None

    def to_json(self) -> dict[str, Any]:
        """Serialise for persistence."""
        out: dict[str, Any] = {}
        if self.value is not None:
            out["v"] = self.value
        if self.fmt:
            out["f"] = self.fmt
        if self.note:
            out["n"] = self.note
        if self.validation:
            out["d"] = self.validation
        if self.extra:
            out["x"] = self.extra
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Cell:
        """Inverse of :meth:`to_json`."""
        return cls(data.get("v"), data.get("f"), data.get("n"), data.get("d"), data.get("x") or {})

    def copy(self) -> Cell:
        """Deep-enough copy for copy/paste and sheet duplication."""
        value, fmt, validation, extra = self.value, self.fmt, self.validation, self.extra
        return Cell(
            None if value is None else jcopy(value),
            None if fmt is None else jcopy(fmt),
            self.note,
            None if validation is None else jcopy(validation),
            jcopy(extra) if extra else {},
        )


class InputError(ValueError):
    """A value in a write request has a type Google would refuse."""


# --------------------------------------------------------------------------- input


def parse_input(raw: Any, option: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None] | None:
    """Turn one JSON value of a values write into (userEnteredValue, numberFormat).

    Returns ``None`` for JSON ``null`` (the cell is left untouched, as Google does);
    ``(None, None)`` clears the value.
    """
    if raw is None:
        return None
    if isinstance(raw, bool):
        return {"boolValue": raw}, None
    if isinstance(raw, (int, float)):
        if isinstance(raw, float) and (math.isnan(raw) or math.isinf(raw)):
            raise InputError(raw)
        return {"numberValue": raw}, None
    if isinstance(raw, (list, dict)):
        raise InputError(raw)
    text = str(raw)
    if text == "":
        return None, None
    if option == "RAW":
        return {"stringValue": text}, None
    return parse_user_entered(text)


def parse_user_entered(text: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Interpret text the way the Sheets UI does for ``USER_ENTERED`` (locale en_US)."""
    if text.startswith("=") and len(text) > 1:
        return {"formulaValue": text}, None
    if text.startswith("'"):
        return {"stringValue": text[1:]}, None
    stripped = text.strip()
    upper = stripped.upper()
    if upper in ("TRUE", "FALSE"):
        return {"boolValue": upper == "TRUE"}, None
    number = _parse_number(stripped)
    if number is not None:
        return {"numberValue": number[0]}, number[1]
    date = _parse_date(stripped)
    if date is not None:
        return {"numberValue": date[0]}, date[1]
    return {"stringValue": text}, None


def _parse_number(text: str) -> tuple[float | int, dict[str, Any] | None] | None:
    """Numbers as typed in en_US (grouping, %, $, exponent) plus the number format Sheets infers."""
    currency = False
    percent = False
    body = text
    sign = ""
    if body[:1] in "+-" and body[1:2] == "$":
        sign, body = body[0], body[1:]
    if body.startswith("$"):
        currency, body = True, body[1:]
    body = sign + body
    if body.endswith("%"):
        percent, body = True, body[:-1]
    grouped = bool(_GROUPED_RE.match(body))
    if not grouped and not _NUMBER_RE.match(body):
        return None
    plain = body.replace(",", "")
    value: float | int = float(plain)
    decimals = len(plain.split(".")[1]) if "." in plain and "e" not in plain.lower() else 0
    if percent:
        value = value / 100
    value = _tidy_number(value)
    fmt: dict[str, Any] | None = None
    frac = "." + "0" * decimals if decimals else ""
    if currency:
        fmt = {"type": "CURRENCY", "pattern": '"$"#,##0' + (frac or ".00")}
    elif percent:
        fmt = {"type": "PERCENT", "pattern": "0" + (frac or "") + "%"}
    elif "e" in plain.lower():
        fmt = {"type": "SCIENTIFIC", "pattern": "0.00E+00"}
    elif grouped:
        fmt = {"type": "NUMBER", "pattern": "#,##0" + frac}
    return value, fmt


def _parse_date(text: str) -> tuple[float | int, dict[str, Any]] | None:
    """ISO and US dates/datetimes as typed, as serial numbers with a DATE format."""
    m = _ISO_DATE_RE.match(text)
    try:
        if m:
            d = _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            return (d - _EPOCH).days, {"type": "DATE", "pattern": "yyyy-mm-dd"}
        m = _US_DATE_RE.match(text)
        if m:
            d = _dt.date(int(m.group(3)), int(m.group(1)), int(m.group(2)))
            return (d - _EPOCH).days, {"type": "DATE", "pattern": "M/d/yyyy"}
        m = _ISO_DATETIME_RE.match(text)
        if m:
            d = _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            secs = int(m.group(4)) * 3600 + int(m.group(5)) * 60 + int(m.group(6) or 0)
            serial = (d - _EPOCH).days + secs / 86400
            return _tidy_number(serial), {"type": "DATE_TIME", "pattern": "yyyy-mm-dd h:mm:ss"}
    except ValueError:
        return None
    return None


def _tidy_number(value: float | int) -> float | int:
    """Integral floats become ints so JSON shows ``2`` rather than ``2.0`` (as Google does)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    return value


# --------------------------------------------------------------------------- formulas


class FormulaUnsupported(Exception):
    """The formula is beyond the emulator's literal-arithmetic evaluator."""


_TOKEN_RE = re.compile(r"\s*(?:(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|(.))")


def evaluate_formula(formula: str) -> dict[str, Any]:
    """Compute ``=<arithmetic on literals>``; returns an ExtendedValue.

    Raises :class:`FormulaUnsupported` for anything else (references, functions, text).
    """
    tokens: list[tuple[str, Any]] = []
    for m in _TOKEN_RE.finditer(formula[1:]):
        if m.group(1) is not None:
            tokens.append(("num", float(m.group(1))))
        elif m.group(2) is not None:
            if m.group(2) not in "+-*/^()%":
                raise FormulaUnsupported(formula)
            tokens.append(("op", m.group(2)))
    if not tokens:
        raise FormulaUnsupported(formula)
    parser = _Arith(tokens)
    try:
        value = parser.expression()
    except ZeroDivisionError:
        return {"errorValue": {"type": "DIVIDE_BY_ZERO", "message": "Function DIVIDE parameter 2 cannot be zero."}}
    if parser.pos != len(tokens):
        raise FormulaUnsupported(formula)
    return {"numberValue": _tidy_number(value)}


class _Arith:
    """Recursive-descent evaluator for + - * / ^ % and parentheses."""

    def __init__(self, tokens: list[tuple[str, Any]]) -> None:
        self.tokens = tokens
        self.pos = 0

    def _peek(self) -> tuple[str, Any] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _take(self) -> tuple[str, Any]:
        tok = self._peek()
        if tok is None:
            raise FormulaUnsupported("unexpected end")
        self.pos += 1
        return tok

    def expression(self) -> float:
        value = self.term()
        while (tok := self._peek()) in (("op", "+"), ("op", "-")):
            self.pos += 1
            rhs = self.term()
            value = value + rhs if tok[1] == "+" else value - rhs
        return value

    def term(self) -> float:
        value = self.power()
        while (tok := self._peek()) in (("op", "*"), ("op", "/")):
            self.pos += 1
            rhs = self.power()
            if tok[1] == "*":
                value *= rhs
            else:
                if rhs == 0:
                    raise ZeroDivisionError
                value /= rhs
        return value

    def power(self) -> float:
        value = self.unary()
        if self._peek() == ("op", "^"):
            self.pos += 1
            value = value ** self.power()
        return value

    def unary(self) -> float:
        tok = self._peek()
        if tok in (("op", "-"), ("op", "+")):
            self.pos += 1
            inner = self.unary()
            return -inner if tok == ("op", "-") else inner
        value = self.atom()
        while self._peek() == ("op", "%"):
            self.pos += 1
            value /= 100
        return value

    def atom(self) -> float:
        kind, val = self._take()
        if kind == "num":
            return float(val)
        if val == "(":
            inner = self.expression()
            if self._take() != ("op", ")"):
                raise FormulaUnsupported("unbalanced")
            return inner
        raise FormulaUnsupported(str(val))


def effective_value(cell: Cell) -> dict[str, Any] | None:
    """The computed value of a cell (formulas evaluated when trivially possible)."""
    if cell.value is None:
        return None
    if "formulaValue" in cell.value:
        try:
            return evaluate_formula(cell.value["formulaValue"])
        except FormulaUnsupported:
            return None
    return cell.value


# --------------------------------------------------------------------------- rendering


def render(cell: Cell, render_option: str, datetime_option: str = "SERIAL_NUMBER") -> Any:
    """Render a cell for values.get; ``None`` for an empty cell."""
    if cell.value is None:
        return None
    if render_option == "FORMULA":
        if "formulaValue" in cell.value:
            return cell.value["formulaValue"]
        return _unformatted(cell, cell.value, datetime_option)
    ev = effective_value(cell)
    if ev is None:  # formula the emulator cannot compute: show its text
        return cell.value.get("formulaValue", "")
    if render_option == "UNFORMATTED_VALUE":
        return _unformatted(cell, ev, datetime_option)
    return formatted_value(cell, ev)


def _unformatted(cell: Cell, ev: dict[str, Any], datetime_option: str) -> Any:
    """UNFORMATTED_VALUE rendering (typed JSON values)."""
    if "numberValue" in ev:
        pattern_type = ((cell.fmt or {}).get("numberFormat") or {}).get("type")
        if datetime_option == "FORMATTED_STRING" and pattern_type in ("DATE", "TIME", "DATE_TIME"):
            return formatted_value(cell, ev)
        return _tidy_number(ev["numberValue"])
    if "boolValue" in ev:
        return bool(ev["boolValue"])
    if "errorValue" in ev:
        return _error_text(ev["errorValue"])
    return ev.get("stringValue", "")


def _error_text(error: dict[str, Any]) -> str:
    """Display text of a formula error."""
    return {
        "DIVIDE_BY_ZERO": "#DIV/0!",
        "VALUE": "#VALUE!",
        "REF": "#REF!",
        "NAME": "#NAME?",
        "NUM": "#NUM!",
        "N_A": "#N/A",
    }.get(error.get("type", ""), "#ERROR!")


def formatted_value(cell: Cell, ev: dict[str, Any] | None = None) -> str:
    """FORMATTED_VALUE of a cell (``""`` for empty)."""
    if ev is None:
        ev = effective_value(cell)
        if ev is None:
            return (cell.value or {}).get("formulaValue", "")
    if "stringValue" in ev:
        return str(ev["stringValue"])
    if "boolValue" in ev:
        return "TRUE" if ev["boolValue"] else "FALSE"
    if "errorValue" in ev:
        return _error_text(ev["errorValue"])
    number_format = (cell.fmt or {}).get("numberFormat") or {}
    return format_number(float(ev["numberValue"]), number_format)


def format_number(value: float, number_format: dict[str, Any]) -> str:
    """Render a number with a (subset of) Sheets number format patterns."""
    kind = number_format.get("type", "NUMBER")
    pattern = number_format.get("pattern", "")
    if kind in ("DATE", "TIME", "DATE_TIME") and pattern:
        return _format_date(value, pattern)
    if kind == "TEXT":
        return general_number(value)
    if not pattern:
        if kind == "PERCENT":
            return general_number(value * 100) + "%"
        return general_number(value)
    return _format_pattern(value, pattern)


def general_number(value: float) -> str:
    """Google's automatic format: integers plainly, others with up to 10 decimals."""
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if abs(value) >= 1e15:
        mantissa, exp = f"{value:.2E}".split("E")
        return f"{mantissa}E+{int(exp):02d}" if int(exp) >= 0 else f"{mantissa}E-{abs(int(exp)):02d}"
    text = f"{round(value, 10):.10f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _format_pattern(value: float, pattern: str) -> str:
    """Number patterns such as ``#,##0.00``, ``0%``, ``"$"#,##0.00``, ``0.00E+00``."""
    literal = ""
    m = re.match(r'^"([^"]*)"(.*)$', pattern)
    if m:
        literal, pattern = m.group(1), m.group(2)
    percent = pattern.endswith("%")
    if percent:
        pattern = pattern[:-1]
        value *= 100
    if "E" in pattern.upper():
        decimals = len(pattern.split(".")[1].upper().split("E")[0]) if "." in pattern else 0
        mantissa, exp = f"{value:.{decimals}E}".split("E")
        sign = "+" if int(exp) >= 0 else "-"
        return f"{literal}{mantissa}E{sign}{abs(int(exp)):02d}"
    decimals = len(pattern.split(".")[1]) if "." in pattern else 0
    grouping = "," in pattern
    negative = value < 0
    text = f"{abs(value):,.{decimals}f}" if grouping else f"{abs(value):.{decimals}f}"
    return ("-" if negative else "") + literal + text + ("%" if percent else "")


def serial_to_datetime(serial: float) -> _dt.datetime:
    """Sheets serial number -> naive datetime."""
    return _dt.datetime(1899, 12, 30) + _dt.timedelta(days=serial)


def _format_date(serial: float, pattern: str) -> str:
    """Date/time patterns (yyyy, mm, dd, h, mm after an hour, ss, am/pm)."""
    moment = serial_to_datetime(round(serial * 86400) / 86400)
    out: list[str] = []
    i = 0
    lower = pattern.lower()
    ampm = "am/pm" in lower
    last_was_hour = False
    while i < len(pattern):
        chunk = lower[i:]
        if chunk.startswith("am/pm"):
            out.append("AM" if moment.hour < 12 else "PM")
            i += 5
            continue
        for token in ("yyyy", "yy", "mmmm", "mmm", "mm", "m", "dd", "d", "hh", "h", "ss", "s"):
            if chunk.startswith(token):
                out.append(_date_token(moment, token, last_was_hour, ampm))
                last_was_hour = token in ("hh", "h")
                i += len(token)
                break
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)


def _date_token(moment: _dt.datetime, token: str, after_hour: bool, ampm: bool) -> str:
    """One date/time pattern token."""
    hour = (moment.hour % 12 or 12) if ampm else moment.hour
    values = {
        "yyyy": f"{moment.year:04d}",
        "yy": f"{moment.year % 100:02d}",
        "mmmm": moment.strftime("%B"),
        "mmm": moment.strftime("%b"),
        "dd": f"{moment.day:02d}",
        "d": str(moment.day),
        "hh": f"{hour:02d}",
        "h": str(hour),
        "ss": f"{moment.second:02d}",
        "s": str(moment.second),
    }
    if token in ("mm", "m"):
        if after_hour:
            return f"{moment.minute:02d}" if token == "mm" else str(moment.minute)
        return f"{moment.month:02d}" if token == "mm" else str(moment.month)
    return values[token]


# --------------------------------------------------------------------------- colours


def float32(value: float) -> float:
    """Shortest decimal that round-trips through float32, as Google prints colour channels."""
    f32 = struct.unpack("f", struct.pack("f", value))[0]
    for digits in range(1, 10):
        candidate = float(f"{f32:.{digits}g}")
        if struct.unpack("f", struct.pack("f", candidate))[0] == f32:
            return _tidy_number(candidate)  # type: ignore[return-value]
    return f32


def quantize_color(color: dict[str, Any] | None) -> dict[str, Any]:
    """Store a colour the way Sheets does: 8-bit channels, zero channels omitted."""
    out: dict[str, Any] = {}
    for channel in ("red", "green", "blue"):
        raw = (color or {}).get(channel)
        if raw is None:
            continue
        level = math.floor(max(0.0, min(1.0, float(raw))) * 255 + 1e-6)
        if level:
            out[channel] = float32(level / 255)
    alpha = (color or {}).get("alpha")
    if alpha is not None and float(alpha) != 1:
        out["alpha"] = float32(float(alpha))
    return out
