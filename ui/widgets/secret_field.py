"""A password, API key or token typed (or shown) masked, with *Show* / *Hide* beside it.

The connection editors type one (an endpoint's API key, a shared database's password) and the
server settings show one (the app's token): each is hidden until the user asks to see it, the
button saying which way it goes next. Where it is kept (the keyring or the private secrets
file) is the owner's business; the field only holds the text.
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QLineEdit, QPushButton, QWidget

from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.layouts import hbox


class SecretField(QWidget):
    """A masked line (:attr:`line`) and a checkable *Show* button (:attr:`toggle`).

    Signals:
        textEdited(str): the user typed in the line.
    """

    textEdited = Signal(str)

    def __init__(
        self, show_name: str, show_description: str, parent: QWidget | None = None
    ) -> None:
        """Args:
        show_name: The button's accessible name (``Show API key``).
        show_description: What it does (``Show or hide the API key.``).
        parent: The owner.
        """
        super().__init__(parent)
        self.line = QLineEdit()
        self.line.setEchoMode(QLineEdit.EchoMode.Password)
        self.toggle = QPushButton(tr("Show"))
        self.toggle.setCheckable(True)
        set_icon(self.toggle, "eye-outline")
        describe(self.toggle, show_name, show_description)
        self.setLayout(hbox(self.line, self.toggle, margins=0, spacing=6))
        self.toggle.toggled.connect(self._on_toggled)
        self.line.textEdited.connect(self.textEdited)

    def text(self) -> str:
        """The secret as typed."""
        return self.line.text()

    def setText(self, text: str) -> None:
        """Put ``text`` in the line (masked unless shown)."""
        self.line.setText(text)

    @property
    def shown(self) -> bool:
        """Whether the secret is shown in clear."""
        return self.toggle.isChecked()

    @Slot(bool)
    def _on_toggled(self, shown: bool) -> None:
        mode = QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password
        self.line.setEchoMode(mode)
        self.toggle.setText(tr("Hide") if shown else tr("Show"))
        set_icon(self.toggle, "eye-off-outline" if shown else "eye-outline")
