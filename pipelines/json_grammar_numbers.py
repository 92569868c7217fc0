"""EBNF for JSON numbers: integers inside a range, and plain numbers, both with bounded digits.

A separate module so :mod:`pipelines.json_grammar` stays about the shape of a schema.
"""

from __future__ import annotations

MAX_INTEGER_DIGITS = 18
"""An integer without a bound gets at most this many digits (still a signed 64-bit value): a
model cannot write digits for ever."""
MAX_FRACTION_DIGITS = 20
"""Digits after the point of a number: a double's 17 significant digits after up to three
zeros (``0.00012345678901234568``, as Python writes it)."""
LARGEST_UNBOUNDED = 10**MAX_INTEGER_DIGITS - 1

NUMBER = (
    '"-"? ("0" | [1-9] [0-9]{0,' + str(MAX_INTEGER_DIGITS - 1) + "}) "
    '("." [0-9]{1,' + str(MAX_FRACTION_DIGITS) + "})? ([eE] [-+]? [0-9]{1,3})?"
)
"""Any JSON number, compact, with bounded digits (three in the exponent: ``1e+300``)."""


def integer_range(low: int | None, high: int | None) -> str:
    """An EBNF expression matching exactly the integers from ``low`` to ``high`` (inclusive)
    written as JSON (no leading zeros, no ``-0``); a missing bound is
    ±:data:`LARGEST_UNBOUNDED`.

    Raises:
        ValueError: the range is empty.
    """
    low = -LARGEST_UNBOUNDED if low is None else low
    high = LARGEST_UNBOUNDED if high is None else high
    if low > high:
        raise ValueError(f"empty integer range {low}..{high}")
    choices: list[str] = []
    if low < 0:
        # -5..-2 is "-" followed by 2..5; a negative part never includes zero, so no "-0".
        negative = _natural_range(max(1, -high), -low)
        choices.append('"-" ' + _group(negative))
    if high >= 0:
        choices.extend(_natural_range(max(0, low), high))
    return " | ".join(choices)


def _group(choices: list[str]) -> str:
    return choices[0] if len(choices) == 1 else "(" + " | ".join(choices) + ")"


def _natural_range(low: int, high: int) -> list[str]:
    """Alternatives matching the whole numbers ``low``..``high`` (0 ≤ low ≤ high)."""
    choices: list[str] = []
    for digits in range(len(str(low)), len(str(high)) + 1):
        first = 0 if digits == 1 else 10 ** (digits - 1)
        last = 10**digits - 1
        start, end = max(low, first), min(high, last)
        if start <= end:
            choices.extend(_same_length(str(start), str(end)))
    return choices


def _same_length(low: str, high: str) -> list[str]:
    """Alternatives for the digit strings from ``low`` to ``high``, both of one length."""
    if not low:
        return [""]
    if low == high:
        return [f'"{low}"']
    rest = len(low) - 1
    if low[0] == high[0]:
        return [_join(f'"{low[0]}"', tail) for tail in _same_length(low[1:], high[1:])]
    choices: list[str] = []
    low_digit, high_digit = int(low[0]), int(high[0])
    # The lower edge: low's first digit with a tail from low's tail up to 9…9, unless the
    # tail is already 0…0 (then the whole first digit joins the middle block).
    if rest and low[1:] != "0" * rest:
        choices.extend(_join(f'"{low[0]}"', t) for t in _same_length(low[1:], "9" * rest))
        low_digit += 1
    upper_full = not rest or high[1:] == "9" * rest
    top = high_digit if upper_full else high_digit - 1
    if low_digit <= top:
        choices.append(_join(_digit_class(low_digit, top), _any_digits(rest)))
    if not upper_full:
        choices.extend(_join(f'"{high[0]}"', t) for t in _same_length("0" * rest, high[1:]))
    return choices


def _digit_class(low: int, high: int) -> str:
    return f'"{low}"' if low == high else f"[{low}-{high}]"


def _any_digits(count: int) -> str:
    if count == 0:
        return ""
    return "[0-9]" if count == 1 else f"[0-9]{{{count}}}"


def _join(*parts: str) -> str:
    return " ".join(part for part in parts if part)
