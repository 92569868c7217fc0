"""Numbers in the user's language: the digits as the default locale writes them (compared with
what QLocale itself gives for the same number, never with a glyph an ICU version decides), the
unit words from the catalog."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QLocale

from ui import numbers


@pytest.fixture
def english_numbers() -> Iterator[None]:
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    try:
        yield
    finally:
        QLocale.setDefault(before)


def test_english_numbers_read_as_before(english_numbers: None) -> None:
    assert [numbers.data_size(n) for n in (0, 1, 532, 2048, 48_234_496, 3 * 1024**3)] == [
        "0 bytes",
        "1 byte",
        "532 bytes",
        "2.0 kB",
        "46.0 MB",
        "3.0 GB",
    ]
    assert numbers.data_rate(19_293_798) == "18.4 MB/s"
    assert numbers.ratio(1.65) == "1.65×"
    assert numbers.percent(0.873) == "87%"
    assert numbers.count(1_234_567) == "1,234,567"
    assert numbers.seconds(2.46) == "2.5 s"
    assert numbers.milliseconds(12.3) == "12 ms"
    assert numbers.token_rate(230.43) == "230.4 tok/s"
    assert [numbers.clock(s) for s in (0, 11.2, 245, 3723)] == ["0:00", "0:12", "4:05", "1:02:03"]


def test_german_numbers_use_the_german_locale(german_numbers: QLocale) -> None:
    de = german_numbers
    assert numbers.count(1_234_567) == de.toString(1_234_567)
    assert numbers.decimal(12.5) == de.toString(12.5, "f", 1) != "12.5"
    assert numbers.data_size(40_684_339) == de.toString(38.8, "f", 1) + " MB"
    assert numbers.data_size(1000) == de.toString(1000) + " bytes"  # grouped, as any count
    assert numbers.data_rate(19_293_798) == de.toString(18.4, "f", 1) + " MB/s"
    assert numbers.ratio(1.65) == de.toString(1.65, "f", 2) + "×"
    assert numbers.seconds(2.46) == de.toString(2.5, "f", 1) + " s"
    assert numbers.token_rate(230.43) == de.toString(230.4, "f", 1) + " tok/s"


def test_german_unit_words_come_from_the_catalog(german: None, german_numbers: QLocale) -> None:
    de = german_numbers
    assert numbers.data_size(0) == "0 Byte"
    assert numbers.data_size(532) == "532 Byte"
    assert numbers.percent(0.873) == "87 %"
    assert numbers.token_rate(230.43) == de.toString(230.4, "f", 1) + " Token/s"
