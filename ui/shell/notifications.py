"""A non-modal banner for things that are not tied to one control: notices, failures."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from ui.a11y import announce, describe
from ui.app_style import mark_primary
from ui.i18n import tr, translated
from ui.icons import set_icon

_LEVEL_COLORS = {"info": "#2f6feb", "warning": "#b7791f", "error": "#c53030"}


class NotificationBar(QFrame):
    """Shows one message with an optional action and "Copy details"; the user closes it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notificationBar")
        self._details = ""
        self._action_callback: Callable[[], None] | None = None
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.action_button = QPushButton()
        mark_primary(self.action_button)  # the one thing to do about the message
        self.action_button.clicked.connect(self._run_action)
        self.copy_button = QPushButton(tr("Copy details"))
        set_icon(self.copy_button, "content-copy")
        describe(
            self.copy_button,
            tr("Copy details"),
            tr("Copy the technical details (for a bug report)"),
        )
        self.copy_button.clicked.connect(self._copy_details)
        self.close_button = QPushButton()
        set_icon(self.close_button, "close")
        self.close_button.setFlat(True)
        describe(self.close_button, tr("Dismiss"), tr("Hide this message"))
        self.close_button.clicked.connect(self.hide)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.action_button)
        layout.addWidget(self.copy_button)
        layout.addWidget(self.close_button)
        self.hide()

    def show_message(
        self,
        text: str,
        *,
        level: str = "info",
        details: str = "",
        action: tuple[str, Callable[[], None]] | None = None,
    ) -> None:
        """Replace the current message.

        Args:
            text: What happened, for a person.
            level: ``info``, ``warning`` or ``error`` (the border colour).
            details: Technical text for "Copy details" (hidden when empty), never shown.
            action: A button label and what it does (e.g. "Use CPU instead").
        """
        color = _LEVEL_COLORS.get(level, _LEVEL_COLORS["info"])
        self.setStyleSheet(
            f"#notificationBar {{ border: 1px solid {color}; border-left: 4px solid {color};"
            " border-radius: 4px; }"
        )
        text = translated(text)
        self.message.setText(text)
        self._details = details
        self.copy_button.setVisible(bool(details))
        self._action_callback = action[1] if action else None
        self.action_button.setText(action[0] if action else "")
        self.action_button.setToolTip(action[0] if action else "")
        self.action_button.setVisible(action is not None)
        self.show()
        announce(self.message, text)

    @Slot(str)
    def warn(self, text: str) -> None:
        """A warning with nothing more to it: the ``Report`` for refused settings changes."""
        self.show_message(text, level="warning")

    @property
    def details(self) -> str:
        """What "Copy details" copies."""
        return self._details

    @Slot()
    def _run_action(self) -> None:
        callback = self._action_callback
        self.hide()
        if callback is not None:
            callback()

    @Slot()
    def _copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self._details)
