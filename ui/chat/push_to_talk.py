"""Push-to-talk: hold a key to dictate, let go to end the turn.

The press is a window shortcut (so it works wherever the focus is in the chat, and not while
another panel is shown); Qt has no shortcut for a release, so while the key is held an event
filter on the application watches for it — only then, not for every event of the app's life.
Held keys repeat: the repeated presses (and, on X11, the repeated releases) carry
``isAutoRepeat()`` and are ignored. Leaving the window while holding the key counts as letting
go (its release would go to another application).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QWidget

PUSH_TO_TALK_KEY = Qt.Key.Key_F9
"""F9: free in the main window's menus (F2 renames, F12 is the overlay) and typed by no one."""
PUSH_TO_TALK_NAME = "F9"


class PushToTalk(QObject):
    """Emits ``pressed`` when the key goes down and ``released`` when it comes up."""

    pressed = Signal()
    released = Signal()

    def __init__(self, owner: QWidget) -> None:
        super().__init__(owner)
        self.shortcut = QShortcut(QKeySequence(PUSH_TO_TALK_KEY), owner)
        self.shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        self.shortcut.setAutoRepeat(False)
        self.shortcut.activated.connect(self._on_pressed)
        self._held = False

    @property
    def held(self) -> bool:
        """Whether the key is down (as far as this window saw)."""
        return self._held

    @Slot()
    def _on_pressed(self) -> None:
        if self._held:
            return
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)
        self._held = True
        self.pressed.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """While held: the key's real release (or leaving the app) ends the turn."""
        kind = event.type()
        if kind == QEvent.Type.KeyRelease and isinstance(event, QKeyEvent):
            if event.key() == PUSH_TO_TALK_KEY and not event.isAutoRepeat():
                self.let_go()
                return True
        elif kind == QEvent.Type.ApplicationDeactivate:
            self.let_go()
        return False

    def let_go(self) -> None:
        """End a hold now (the window closes, or the app lost the key's release)."""
        if not self._held:
            return
        self._held = False
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        self.released.emit()
