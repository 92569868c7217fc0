"""Server settings: port, the LAN opt-in, allowed web origins, the default model, starting with
the app, and the token (masked, Show / Copy / New token).

Values are saved through the settings store and apply the next time the server starts; while
it runs, *Save and restart* applies them at once. A new token takes effect immediately: the
running server refuses the old one from the next request.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from app.context import AppContext
from app.errors import StorageError
from app.models.inspect import ModelTask
from app.server.local import LocalServer, host_for
from ui.inline_error import InlineError
from ui.layouts import hbox, vbox
from ui.settings_changes import change_settings

CHATS_MODEL = "The chat's model"
LAN_WARNING = (
    "Anyone on your network who has the token can use your models; "
    "the server listens on every address of this machine."
)
APPLY_NOTE = "Changes apply the next time the server starts."
ORIGINS_HINT = "One per line, e.g. http://localhost:3000. Empty: web pages cannot call it."


class ServerDialog(QDialog):
    """The server's settings; ``restartRequested`` asks the switch to apply them now."""

    restartRequested = Signal()

    def __init__(self, ctx: AppContext, server: LocalServer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Server settings")
        self.ctx = ctx
        self.server = server
        settings = ctx.settings.server
        self.port = QSpinBox()
        self.port.setRange(1024, 65_535)
        self.port.setValue(max(settings.port, 1024))
        self.allow_lan = QCheckBox("Allow other machines on the network")
        self.allow_lan.setChecked(settings.allow_lan)
        self.lan_warning = InlineError(warning=True)
        self.allow_lan.toggled.connect(self._on_lan_toggled)
        self.origins = QPlainTextEdit("\n".join(settings.cors_origins))
        self.origins.setPlaceholderText("http://localhost:3000")
        self.origins.setFixedHeight(72)
        self.origins_error = InlineError()
        self.model = QComboBox()
        self._fill_models(settings.model)
        self.start_with_app = QCheckBox("Start the server when OV Studio opens")
        self.start_with_app.setChecked(settings.start_with_app)
        self.token = QLineEdit()
        self.token.setReadOnly(True)
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setMinimumWidth(330)
        self.show_token = QPushButton("Show")
        self.show_token.setCheckable(True)
        self.show_token.toggled.connect(self._on_show_toggled)
        self.copy_token = QPushButton("Copy")
        self.copy_token.clicked.connect(self._copy_token)
        self.new_token = QPushButton("New token")
        self.new_token.setToolTip("Make a new token; clients using the old one are refused")
        self.new_token.clicked.connect(self._new_token)
        self.token_note = QLabel()
        self.token_note.setWordWrap(True)
        self.token_error = InlineError()
        self.note = QLabel(APPLY_NOTE)
        self.note.setWordWrap(True)
        self.save_error = InlineError()

        form = QFormLayout()
        form.addRow("Port:", self.port)
        form.addRow("", self.allow_lan)
        form.addRow("", self.lan_warning)
        hint = QLabel(ORIGINS_HINT)
        hint.setWordWrap(True)
        form.addRow("Allowed web origins:", self.origins)
        form.addRow("", hint)
        form.addRow("", self.origins_error)
        form.addRow("Model when a request names none:", self.model)
        form.addRow("", self.start_with_app)
        form.addRow(
            "Token:", hbox(self.token, self.show_token, self.copy_token, self.new_token, spacing=6)
        )
        form.addRow("", self.token_note)
        form.addRow("", self.token_error)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.restart_button = self.buttons.addButton(
            "Save and restart", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.restart_button.setVisible(server.running)
        self.buttons.accepted.connect(self._on_accepted)
        self.buttons.rejected.connect(self.reject)
        self.buttons.clicked.connect(self._on_clicked)
        self._restart = False
        self.setLayout(vbox(form, self.note, self.save_error, self.buttons))
        self._on_lan_toggled(settings.allow_lan)
        self._load_token()

    def _fill_models(self, current: Path | None) -> None:
        self.model.addItem(CHATS_MODEL, None)
        for model in self.ctx.models.models(ModelTask.CHAT):
            if model.usable:
                self.model.addItem(model.id, str(model.folder))
                self.model.setItemData(self.model.count() - 1, str(model.folder))
        if current is not None:
            index = self.model.findData(str(current))
            if index < 0:  # a model opened by path, not installed: keep it selectable
                self.model.addItem(current.name, str(current))
                index = self.model.count() - 1
            self.model.setCurrentIndex(index)

    def _load_token(self) -> None:
        try:
            self.token.setText(self.server.token())
        except StorageError as error:
            self.token_error.show_message(str(error))

    @Slot(bool)
    def _on_lan_toggled(self, on: bool) -> None:
        self.lan_warning.show_message(LAN_WARNING if on else "")

    @Slot(bool)
    def _on_show_toggled(self, shown: bool) -> None:
        mode = QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password
        self.token.setEchoMode(mode)
        self.show_token.setText("Hide" if shown else "Show")

    @Slot()
    def _copy_token(self) -> None:
        QGuiApplication.clipboard().setText(self.token.text())
        self.token_note.setText("Copied.")

    @Slot()
    def _new_token(self) -> None:
        self.token_error.clear()
        try:
            token = self.server.new_token()
        except StorageError as error:
            self.token_error.show_message(str(error))
            return
        self.token.setText(token)
        self.token_note.setText("New token made: clients need it from now on.")

    def origins_list(self) -> list[str] | None:
        """The typed origins, or None (and a sentence) when one is not an http(s) origin."""
        origins = [line.strip().rstrip("/") for line in self.origins.toPlainText().splitlines()]
        origins = [o for o in origins if o]
        for origin in origins:
            if origin != "*" and not origin.startswith(("http://", "https://")):
                self.origins_error.show_message(
                    f"'{origin}' is not a web origin; write it as http://host:port."
                )
                return None
        self.origins_error.clear()
        return origins

    @Slot(object)
    def _on_clicked(self, button: object) -> None:
        self._restart = button is self.restart_button

    @Slot()
    def _on_accepted(self) -> None:
        if self.save():
            if self._restart:
                self.restartRequested.emit()
            self.accept()

    def save(self) -> bool:
        """Save the values through the settings store; whether they were kept."""
        origins = self.origins_list()
        if origins is None:
            return False
        model = self.model.currentData()
        server = self.ctx.settings.server.model_copy(
            update={
                "port": self.port.value(),
                "allow_lan": self.allow_lan.isChecked(),
                "host": host_for(self.allow_lan.isChecked()),
                "cors_origins": origins,
                "model": Path(model) if model else None,
                "start_with_app": self.start_with_app.isChecked(),
            }
        )
        self.save_error.clear()
        return change_settings(self.ctx.settings_store, self.save_error.show_message, server=server)
