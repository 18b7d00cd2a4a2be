"""Exact amounts of Д: fractions internally, rounded only for display."""

from __future__ import annotations

from fractions import Fraction
from numbers import Real

Amount = Fraction


def amount(value: object) -> Fraction:
    """Convert a sheet number (int, float, str, Fraction) to an exact amount.

    Floats come from spreadsheets as binary approximations of short decimals (1.2, 0.3);
    they are read back as the nearest fraction with a small denominator.
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise TypeError("bool is not an amount")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value).limit_denominator(10_000)
    if isinstance(value, Real):
        return Fraction(float(value)).limit_denominator(10_000)
    if isinstance(value, str):
        text = value.strip().replace(",", ".").replace("\u2212", "-").replace(" ", "")
        if "/" in text:
            return Fraction(text)
        return Fraction(text).limit_denominator(10_000)
    raise TypeError(f"not an amount: {value!r}")


def to_cell(value: Fraction) -> int | float:
    """The value written to a sheet cell: an int when whole, else a float."""
    if value.denominator == 1:
        return int(value)
    return float(value)


def fmt(value: Fraction, sign: bool = False) -> str:
    """Human text of an amount: '12', '1,5', '-0,33' (Russian decimal comma)."""
    if value.denominator == 1:
        text = f"{int(value):+d}" if sign else f"{int(value)}"
    else:
        rounded = round(float(value), 2)
        text = f"{rounded:+.2f}" if sign else f"{rounded:.2f}"
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", ",").replace("-", "\u2212")
