"""Numbers as the user's language writes them: sizes, ratios, percentages, durations, speeds
and counts.

Every number the window shows is written here, so a German window says "38,8 MB", "1,65×"
and "0 Byte" where an English one says "38.8 MB", "1.65×" and "0 bytes". The digits follow
``QLocale()`` — the default locale the language setting installs
(:meth:`ui.i18n.Translation.install`) — and the unit words go through :func:`ui.i18n.tr` (Qt's
own catalog translates the multiples: "KB", "MB", "GB").

A number placed inside a sentence is formatted here first and handed to the sentence's
placeholder as text: ``tr("{size} left").format(size=data_size(n))``. Each writer remembers
how it wrote (:func:`ui.retranslation.remade_on_switch`), so a language switch rewrites the
numbers the window shows as well as its words.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QLocale

from ui.i18n import tr
from ui.retranslation import remade_on_switch

_KIB = 1024
# The format specs the core's sentences give numbers: grouping, decimals, a percentage.
_SPEC = re.compile(r"[,_]?(?:\.(?P<decimals>\d+))?(?P<kind>[dfFg%]?)")


@remade_on_switch
def count(value: int) -> str:
    """``1,234`` (``1.234`` in German): a whole number with the locale's grouping."""
    return QLocale().toString(int(value))


@remade_on_switch
def decimal(value: float, decimals: int = 1) -> str:
    """``12.5`` (``12,5`` in German): ``value`` with exactly ``decimals`` decimals."""
    return QLocale().toString(float(value), "f", decimals)


@remade_on_switch
def data_size(size_bytes: int) -> str:
    """``532 bytes``, ``38.8 MB``, ``2.3 GB`` (powers of 1024, as file managers count).

    Under 1 KB the bytes are counted with the language's plural ("1 byte", "0 bytes"); above,
    Qt writes the number and its translated unit.
    """
    size = max(int(size_bytes), 0)
    if size < _KIB:
        return _resolve_plural(tr("%Ln byte(s)", "", size), size)
    traditional = QLocale.DataSizeFormat.DataSizeTraditionalFormat
    return QLocale().formattedDataSize(size, 1, traditional)


@remade_on_switch
def data_rate(bytes_per_s: float) -> str:
    """``18.4 MB/s``: a download's or a copy's speed."""
    return tr("{size}/s", "a data rate, e.g. 18.4 MB/s").format(size=data_size(int(bytes_per_s)))


@remade_on_switch
def ratio(value: float, decimals: int = 2) -> str:
    """``1.65×`` (``1,65×`` in German): how many times as much."""
    return tr("{number}×", "how many times as much").format(number=decimal(value, decimals))


@remade_on_switch
def percent(fraction: float, decimals: int = 0) -> str:
    """``87%`` (``87 %`` in German) for a ``fraction`` of 0.87."""
    number = decimal(fraction * 100, decimals) if decimals else count(round(fraction * 100))
    return tr("{number}%", "a percentage").format(number=number)


@remade_on_switch
def seconds(value: float, decimals: int = 1) -> str:
    """``2.5 s``: a short duration."""
    return tr("{number} s", "seconds").format(number=decimal(value, decimals))


@remade_on_switch
def milliseconds(value: float, decimals: int = 0) -> str:
    """``12 ms``: a latency."""
    return tr("{number} ms", "milliseconds").format(number=decimal(value, decimals))


@remade_on_switch
def token_rate(tokens_per_s: float) -> str:
    """``230.4 tok/s``: a model's writing speed."""
    return tr("{number} tok/s", "tokens per second").format(number=decimal(tokens_per_s, 1))


def clock(duration_s: float) -> str:
    """``0:12``, ``4:05``, ``1:02:03``: a time left or taken, rounded up so "0:00" means done
    (a clock reads the same in every language this app speaks)."""
    total = max(0, int(duration_s + 0.999))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@remade_on_switch
def written(value: float, spec: str = "") -> str:
    """``value`` as the user's language writes it, after a format ``spec`` of the core's
    sentences (:mod:`app.core.texts`): ``","`` and ``""`` → :func:`count` for whole numbers,
    ``".1f"`` → :func:`decimal`, ``".0%"`` → :func:`percent`. A spec with padding or alignment
    is Python's to apply (it says nothing about the language)."""
    match = _SPEC.fullmatch(spec)
    if match is None:
        return format(value, spec)
    decimals = int(match["decimals"]) if match["decimals"] else None
    kind = match["kind"]
    if kind == "%":
        return percent(value, decimals or 0)
    if decimals is not None:
        return decimal(value, decimals)
    if isinstance(value, int) or (float(value).is_integer() and kind not in "fFg"):
        return count(int(value))
    return QLocale().toString(float(value), "g", 6)


def _resolve_plural(text: str, number: int) -> str:
    """English's "(s)" resolved when no catalog is loaded (Qt then leaves it as written)."""
    return text.replace("(s)", "" if number == 1 else "s")
