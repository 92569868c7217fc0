"""Server settings: port, the LAN opt-in, allowed web origins, the default model, starting with
the app, the token (masked, Show / Copy / New token), and the opt-in that lets apps on this
computer call without it (with its warning).

Values are saved through the settings store and apply the next time the server starts; while
it runs, *Save and restart* applies them at once. A new token takes effect immediately: the
running server refuses the old one from the next request.
"""

from __future__ import annotations

from functools import partial
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
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QWidget,
)

from app.core import SettingsStore, StorageError
from app.models import ModelRegistry, ModelTask
from app.server import LocalServer, host_for
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.shell.settings_changes import change_settings
from ui.widgets.dialog_rows import (
    describe_standard_buttons,
    keep_fitting,
    messages_beside_buttons,
    say,
)
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox
from ui.widgets.secret_field import SecretField


def buddy(text: str, field: QWidget) -> QLabel:
    """A form label whose mnemonic focuses ``field`` (a row holding a layout has no buddy)."""
    label = QLabel(text)
    label.setBuddy(field)
    return label


def lan_warning_text() -> str:
    """What the dialog says while *Allow other machines* is ticked."""
    return tr("Anyone on your network who has the token can use your models.")


def no_token_warning_text() -> str:
    """What the dialog says while *Apps on this computer need no token* is ticked."""
    return tr("Any program on this computer can then use your models.")


class ServerDialog(QDialog):
    """The server's settings; ``restartRequested`` asks the switch to apply them now."""

    restartRequested = Signal()

    def __init__(
        self,
        store: SettingsStore,
        models: ModelRegistry,
        server: LocalServer,
        parent: QWidget | None = None,
    ) -> None:
        """Args:
        store: Where the server's settings are read and saved.
        models: The installed chat models it may serve.
        server: The app's server (Restart applies the settings to it when it runs).
        parent: The window.
        """
        super().__init__(parent)
        self.setWindowTitle(tr("Server settings"))
        self.store = store
        self.models = models
        self.server = server
        settings = store.settings.server
        self.port = QSpinBox()
        self.port.setRange(1024, 65_535)
        self.port.setValue(max(settings.port, 1024))
        self.port.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        describe(self.port, tr("Port"), tr("The port other programs connect to."))
        self.allow_lan = QCheckBox(tr("Allow other machines on the &network"))
        self.allow_lan.setChecked(settings.allow_lan)
        describe(
            self.allow_lan,
            tr("Allow other machines on the network"),
            tr("Listen on every address of this machine, not only on this computer."),
        )
        # Under the box, always one short sentence (who can reach the server), so ticking it
        # swaps the line without moving the fields below.
        self.lan_local = QLabel(tr("Only programs on this computer can reach the server."))
        self.lan_warning = InlineError(warning=True)
        # One line each: QFormLayout over-estimates a wrapped label's height in a nested row
        # (it left two blank lines here), and both sentences are short.
        self.lan_warning.setWordWrap(False)
        self.allow_lan.toggled.connect(self._on_lan_toggled)
        self.origins = QPlainTextEdit("\n".join(settings.cors_origins))
        self.origins.setPlaceholderText("http://localhost:3000")  # untranslated: an example URL
        self.origins.setFixedHeight(72)
        self.origins.setTabChangesFocus(True)  # Tab leaves the box: it is a list, not prose
        describe(
            self.origins,
            tr("Allowed web origins"),
            tr("Web pages allowed to call the server, one origin per line."),
        )
        self.origins_error = InlineError()
        self.model = QComboBox()
        self._fill_models(settings.model)
        describe(
            self.model,
            tr("Default model"),
            tr("The model that answers requests which name none."),
        )
        self.start_with_app = QCheckBox(tr("&Start the server when OV Studio opens"))
        self.start_with_app.setChecked(settings.start_with_app)
        describe(
            self.start_with_app,
            tr("Start the server when OV Studio opens"),
            tr("Turn the server on each time the app starts."),
        )
        self.no_token = QCheckBox(tr("Apps on this computer need &no token"))
        self.no_token.setChecked(settings.no_token_on_loopback)
        describe(
            self.no_token,
            tr("Apps on this computer need no token"),
            tr(
                "Programs on this computer, such as Ollama clients, may call the server "
                "without the token; never while other machines are allowed."
            ),
        )
        # As under the LAN box: always one short line (who needs the token), so ticking it
        # swaps the sentence without moving the token's row.
        self.no_token_note = QLabel()
        self.no_token_warning = InlineError(warning=True)
        self.no_token_warning.setWordWrap(False)  # one short line, as the LAN warning's
        self.no_token.toggled.connect(self._show_no_token_warning)
        token = SecretField(tr("Show token"), tr("Show or hide the token."))
        self.token, self.show_token = token.line, token.toggle
        self.token.setReadOnly(True)
        self.token.setMinimumWidth(300)
        describe(
            self.token,
            tr("Token"),
            tr("The key clients send as 'Authorization: Bearer'; hidden until Show."),
        )
        self.copy_token = QPushButton(tr("Copy"))
        set_icon(self.copy_token, "content-copy")
        describe(self.copy_token, tr("Copy token"), tr("Put the token on the clipboard."))
        self.copy_token.clicked.connect(self._copy_token)
        self.new_token = QPushButton(tr("New token"))
        set_icon(self.new_token, "refresh")
        describe(
            self.new_token,
            tr("New token"),
            tr("Make a new token; clients using the old one are refused."),
        )
        self.new_token.clicked.connect(self._new_token)
        self.token_note = QLabel()
        self.token_note.setWordWrap(True)
        self.token_note.hide()
        self.token_error = InlineError()
        self.note = QLabel(tr("Changes apply the next time the server starts."))
        self.note.setWordWrap(True)
        self.save_error = InlineError()

        form = QFormLayout()
        form.addRow(tr("&Port:"), self.port)
        form.addRow(
            "", vbox(self.allow_lan, self.lan_local, self.lan_warning, margins=0, spacing=2)
        )
        hint = QLabel(
            tr("One per line, e.g. {example}. Empty: web pages cannot call it.").format(
                example="http://localhost:3000"
            )
        )
        hint.setWordWrap(True)
        form.addRow(
            buddy(tr("Allowed web &origins:"), self.origins),
            vbox(self.origins, hint, margins=0, spacing=2),
        )
        form.addRow(tr("&Model when a request names none:"), self.model)
        form.addRow("", self.start_with_app)
        form.addRow(
            "",
            vbox(self.no_token, self.no_token_note, self.no_token_warning, margins=0, spacing=2),
        )
        form.addRow(
            buddy(tr("&Token:"), self.token),
            hbox(token, self.copy_token, self.new_token, spacing=6),
        )

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.restart_button = self.buttons.addButton(
            tr("Save and &restart"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        describe(
            self.restart_button,
            tr("Save and restart"),
            tr("Save these settings and restart the running server with them now."),
        )
        describe_standard_buttons(self.buttons)
        self.restart_button.setVisible(server.running)
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.setDefault(True)
        self.buttons.accepted.connect(self._on_accepted)
        self.buttons.rejected.connect(self.reject)
        self.buttons.clicked.connect(self._on_clicked)
        self._restart = False
        messages = [self.note, self.token_note, self.token_error, self.origins_error]
        self.setLayout(
            vbox(form, 1, messages_beside_buttons([*messages, self.save_error], self.buttons))
        )
        self._on_lan_toggled(settings.allow_lan)
        self._show_no_token_warning()
        keep_fitting(self)
        self._load_token()

    def _fill_models(self, current: Path | None) -> None:
        self.model.addItem(tr("The chat's model"), None)
        for model in self.models.models(ModelTask.CHAT):
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
            say(self.token_error, str(error))

    @Slot(bool)
    def _on_lan_toggled(self, on: bool) -> None:
        self.lan_warning.show_message(lan_warning_text() if on else "")
        self.lan_local.setVisible(not on)
        # The server ignores the option while other machines can reach it: the box says so
        # by being off limits (its value is kept for when the LAN is turned off again).
        self.no_token.setEnabled(not on)
        self._show_no_token_warning()

    @Slot(bool)
    def _show_no_token_warning(self, _: bool = False) -> None:
        shown = self.no_token.isChecked() and self.no_token.isEnabled()
        # The line going away first: for a moment both would be shown, and the window's
        # minimum size would grow it for good.
        (self.no_token_warning if not shown else self.no_token_note).hide()
        self.no_token_note.setText(
            tr("While other machines are allowed, every program needs the token.")
            if not self.no_token.isEnabled()
            else tr("Every program needs the token.")
        )
        if shown:
            self.no_token_warning.show_message(no_token_warning_text())
        else:
            self.no_token_note.show()

    @Slot()
    def _copy_token(self) -> None:
        QGuiApplication.clipboard().setText(self.token.text())
        self._note(tr("Copied."))

    @Slot()
    def _new_token(self) -> None:
        self.token_error.clear()
        try:
            token = self.server.new_token()
        except StorageError as error:
            say(self.token_error, str(error))
            return
        self.token.setText(token)
        self._note(tr("New token made: clients need it from now on."))

    def _note(self, text: str) -> None:
        say(self.token_note, text)
        self.token_note.setVisible(bool(text))

    def origins_list(self) -> list[str] | None:
        """The typed origins, or None (and a sentence) when one is not an http(s) origin."""
        origins = [line.strip().rstrip("/") for line in self.origins.toPlainText().splitlines()]
        origins = [o for o in origins if o]
        for origin in origins:
            if origin != "*" and not origin.startswith(("http://", "https://")):
                say(
                    self.origins_error,
                    tr("'{origin}' is not a web origin; write it as http://host:port.").format(
                        origin=origin
                    ),
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
        server = self.store.settings.server.model_copy(
            update={
                "port": self.port.value(),
                "allow_lan": self.allow_lan.isChecked(),
                "host": host_for(self.allow_lan.isChecked()),
                "cors_origins": origins,
                "model": Path(model) if model else None,
                "start_with_app": self.start_with_app.isChecked(),
                "no_token_on_loopback": self.no_token.isChecked(),
            }
        )
        self.save_error.clear()
        return change_settings(self.store, partial(say, self.save_error), server=server)
