"""Every UI test draws and measures text in the test suite's own fonts (tests/conftest.py,
tests/fonts/)."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase, QFontInfo
from PySide6.QtWidgets import QApplication


def test_text_is_drawn_in_the_test_suites_own_fonts(qapp: QApplication) -> None:
    """tests/conftest.py points fontconfig at tests/fonts/ alone: a machine's extra fonts (a
    desktop's, or those an ImageMagick install pulls in) change no line height or ink."""
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    assert QFontInfo(qapp.font()).family() == "OV Studio Test Sans"
    assert QFontInfo(fixed).family() == "OV Studio Test Mono"
    assert QFontInfo(QFont("DejaVu Sans")).family() == "OV Studio Test Sans"  # not installed
    # A real bold face: bold text as wide as on a desktop, not the regular one smeared.
    assert "Bold" in QFontDatabase.styles("OV Studio Test Sans")
