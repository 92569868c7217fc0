"""The View menu: theme and language choices, each applied at once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.i18n import TRANSLATION
from ui.shell.main_window import MainWindow
from ui.theme import ThemeFollower, is_dark


@pytest.fixture
def app(qapp: QApplication) -> Iterator[QApplication]:
    """The application; the theme follower the View menu made is removed afterwards, so the
    next test starts with the platform's palette and no application style sheet."""
    yield qapp
    follower = qapp.findChild(ThemeFollower)
    if isinstance(follower, ThemeFollower):
        follower.remove()
    assert not is_dark(qapp.palette()) and not qapp.styleSheet()


def saved(window: MainWindow) -> tuple[str, str]:
    """The theme and language in the settings file (not the live object)."""
    settings = window.ctx.settings_store.load().settings
    return settings.theme, settings.language


def test_theme_choice_switches_palettes_at_once_and_is_saved(
    qtbot: QtBot, app: QApplication, window: MainWindow
) -> None:
    themes = window.menus.view.theme_actions
    assert [a.text() for a in themes.values()] == ["Follow &system", "&Light", "&Dark"]
    assert themes["system"].isChecked()
    themes["dark"].trigger()
    assert is_dark(app.palette()) and saved(window) == ("dark", "system")
    assert "border-radius" in app.styleSheet()  # the rounded look, in dark colours
    qtbot.waitUntil(lambda: is_dark(window.chat_panel.view.palette()), timeout=2000)
    follower = app.findChild(ThemeFollower)
    assert isinstance(follower, ThemeFollower) and follower.mode == "dark"
    follower.apply(Qt.ColorScheme.Light)  # the desktop switching does not undo a forced theme
    assert is_dark(app.palette())
    themes["light"].trigger()
    assert not is_dark(app.palette()) and saved(window)[0] == "light"
    follower.apply(Qt.ColorScheme.Dark)  # light stays light on a dark desktop
    assert not is_dark(app.palette())
    themes["system"].trigger()
    assert saved(window)[0] == "system"
    follower.apply(Qt.ColorScheme.Dark)  # following the system again
    assert is_dark(app.palette())
    follower.apply(Qt.ColorScheme.Light)
    assert not is_dark(app.palette())
    assert themes["system"].isChecked()


def test_light_forced_on_a_dark_palette_gives_fusions_light_palette(
    app: QApplication, window: MainWindow
) -> None:
    follower = ThemeFollower(app, "system")
    follower.apply(Qt.ColorScheme.Dark)
    assert is_dark(app.palette())
    follower.set_mode("light")
    assert app.palette().color(app.palette().ColorRole.Window) == (
        app.style().standardPalette().color(app.palette().ColorRole.Window)
    )


def test_language_choice_is_saved_and_applied_at_once(
    qtbot: QtBot, app: QApplication, window: MainWindow
) -> None:
    languages = window.menus.view.language_actions
    assert [a.text() for a in languages.values()] == [
        "&System language",
        "English",
        "Deutsch",
        "简体中文",
    ]
    assert languages["system"].isChecked()
    locale = QLocale()
    try:
        languages["de"].trigger()
        assert saved(window) == ("system", "de")
        assert TRANSLATION.language == "de" and languages["de"].isChecked()
        assert not window.notifications.isVisible()  # nothing to restart
        # tests/ui/test_retranslation.py holds the window to what it shows after a switch.
    finally:
        TRANSLATION.uninstall(app)
        QLocale.setDefault(locale)  # the next tests write numbers as before
