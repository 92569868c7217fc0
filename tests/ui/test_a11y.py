"""The shared pieces every panel uses: translation lookup, icons, accessible names; and the
fonts every UI test draws and measures text in."""

from __future__ import annotations

from PySide6.QtCore import QLocale
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QPalette
from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui.a11y import describe, unlabelled_widgets
from ui.i18n import resolve_language, tr
from ui.icons import has_icon, icon, set_icon


def test_language_setting_resolves_against_the_system_locale() -> None:
    assert resolve_language("de") == "de"
    assert resolve_language("system", QLocale("de_AT")) == "de"
    assert resolve_language("system", QLocale("zh_CN")) == "zh_CN"
    assert resolve_language("system", QLocale("zh_TW")) == "en"  # Traditional: not shipped yet
    assert resolve_language("system", QLocale("fr_FR")) == "en"


def test_untranslated_text_comes_back_unchanged(qtbot: QtBot) -> None:
    assert tr("A sentence nobody translated {name}").format(name="x") == (
        "A sentence nobody translated x"
    )


def test_icons_are_drawn_from_the_material_design_font(qtbot: QtBot) -> None:
    assert has_icon("send") and not has_icon("no-such-icon-anywhere")
    drawn = icon("send").pixmap(24, 24).toImage()
    assert any(drawn.pixelColor(x, y).alpha() > 0 for x in range(24) for y in range(24))
    assert icon("no-such-icon-anywhere").isNull()
    button = QPushButton()
    qtbot.addWidget(button)
    set_icon(button, "content-copy")
    assert not button.icon().isNull() and button.property("ovIcon") == "content-copy"
    dark = QPalette()
    dark.setColor(QPalette.ColorRole.ButtonText, "#ffffff")
    assert icon("send", palette=dark).cacheKey() != icon("send").cacheKey()


def test_the_walker_finds_controls_without_names(qtbot: QtBot) -> None:
    root = QWidget()
    qtbot.addWidget(root)
    layout = QVBoxLayout(root)
    icon_only = QPushButton()
    set_icon(icon_only, "send")
    named = QPushButton("Send")
    named.setToolTip("Send the message")
    field = QLineEdit()
    for widget in (icon_only, named, field):
        layout.addWidget(widget)
    root.show()
    problems = unlabelled_widgets(root)
    assert len(problems) == 2, problems
    describe(icon_only, "Send", "Send the message to the model.")
    describe(field, "Message", "What to ask the model.")
    assert unlabelled_widgets(root) == []
    assert icon_only.toolTip() == "Send the message to the model."


def test_text_is_drawn_in_the_test_suites_own_fonts(qapp: QApplication) -> None:
    """tests/conftest.py points fontconfig at tests/fonts/ alone: a machine's extra fonts (a
    desktop's, or those an ImageMagick install pulls in) change no line height or ink."""
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    assert QFontInfo(qapp.font()).family() == "OV Studio Test Sans"
    assert QFontInfo(fixed).family() == "OV Studio Test Mono"
    assert QFontInfo(QFont("DejaVu Sans")).family() == "OV Studio Test Sans"  # not installed
    # A real bold face: bold text as wide as on a desktop, not the regular one smeared.
    assert "Bold" in QFontDatabase.styles("OV Studio Test Sans")
