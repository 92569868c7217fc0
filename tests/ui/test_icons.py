"""Icons are drawn from the Material Design font."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from ui.icons import has_icon, icon, set_icon


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
