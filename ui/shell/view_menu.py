"""The View menu's choices: the panel shown (Ctrl+1…4), the theme and the language.

Both apply at once, in every open window: the theme through the application's theme
follower, the language by installing its translators, which re-translates what the window
shows (``ui.retranslation``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication, QMenu

from ui.i18n import LANGUAGES, SYSTEM, TRANSLATION, tr
from ui.icons import set_icon
from ui.settings_signals import SettingsSignals
from ui.shell.settings_changes import change_settings
from ui.theme import ThemeFollower

Report = Callable[[str], None]


def theme_names() -> dict[str, str]:
    """The theme setting's values and their menu entries (translated where they are built)."""
    return {
        "system": tr("Follow &system"),
        "light": tr("&Light"),
        "dark": tr("&Dark"),
    }


class ViewChoices(QObject):
    """Builds the panel, theme and language entries of ``menu`` and keeps them in step."""

    panelChosen = Signal(int)

    def __init__(
        self,
        menu: QMenu,
        panels: Sequence[tuple[str, str]],
        signals: SettingsSignals,
        report: Report,
    ) -> None:
        """Args:
        menu: The View menu to add to.
        panels: (translated name, icon name) of each panel, in navigation order.
        signals: Where the theme and language are saved, and heard from.
        report: Where a refused settings change is said.
        """
        super().__init__(menu)
        self._store = signals.store
        self._report = report
        self.panel_actions: list[QAction] = []
        panel_group = QActionGroup(self)
        for row, (name, icon) in enumerate(panels):
            action = QAction(name, menu)
            action.setCheckable(True)
            # Ctrl+1…9: as browsers and chat apps switch tabs.
            action.setShortcut(QKeySequence(f"Ctrl+{row + 1}"))
            set_icon(action, icon)
            action.triggered.connect(lambda _checked=False, row=row: self.panelChosen.emit(row))
            panel_group.addAction(action)
            menu.addAction(action)
            self.panel_actions.append(action)
        menu.addSeparator()
        settings = signals.settings
        self.theme_menu = menu.addMenu(tr("&Theme"))
        self.theme_actions = self._choices(
            self.theme_menu, theme_names(), settings.theme, self._choose_theme
        )
        self.language_menu = menu.addMenu(tr("&Language"))
        languages = {SYSTEM: tr("&System language"), **LANGUAGES}
        self.language_actions = self._choices(
            self.language_menu, languages, settings.language, self._choose_language
        )
        signals.connect_keys({"theme"}, self._apply_theme)
        signals.connect_keys({"language"}, self._apply_language)

    def _choices(
        self,
        menu: QMenu,
        names: dict[str, str],
        current: str,
        chosen: Callable[[str], None],
    ) -> dict[str, QAction]:
        group = QActionGroup(self)
        actions: dict[str, QAction] = {}
        for value, text in names.items():
            action = QAction(text, menu)
            action.setCheckable(True)
            action.setChecked(value == current)
            action.triggered.connect(lambda _checked=False, value=value: chosen(value))
            group.addAction(action)
            menu.addAction(action)
            actions[value] = action
        return actions

    def show_panel(self, row: int) -> None:
        """Tick the entry of the panel now shown."""
        if 0 <= row < len(self.panel_actions):
            self.panel_actions[row].setChecked(True)

    @staticmethod
    def follower(theme: str) -> ThemeFollower:
        """The application's theme follower (the launcher's), made here if there is none."""
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        follower = app.findChild(ThemeFollower)
        return follower if isinstance(follower, ThemeFollower) else ThemeFollower(app, theme)

    def _choose_theme(self, theme: str) -> None:
        if not change_settings(self._store, self._report, theme=theme):
            self.theme_actions[self._store.settings.theme].setChecked(True)

    @Slot()
    def _apply_theme(self) -> None:
        """The theme setting changed (here or elsewhere): the window wears it, the menu
        ticks it."""
        theme = self._store.settings.theme
        self.theme_actions[theme].setChecked(True)
        self.follower(theme).set_mode(theme)

    def _choose_language(self, language: str) -> None:
        before = self._store.settings.language
        if language == before:
            return
        if not change_settings(self._store, self._report, language=language):
            self.language_actions[before].setChecked(True)

    @Slot()
    def _apply_language(self) -> None:
        """The language setting changed (here or elsewhere): the window speaks it now."""
        language = self._store.settings.language
        self.language_actions[language].setChecked(True)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        TRANSLATION.install(app, language)
