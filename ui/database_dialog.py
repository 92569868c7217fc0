"""Where knowledge lives: the built-in database, or a shared PostgreSQL server.

The password is typed apart from the connection string and goes to the keyring (or the
private secrets file), never into the settings file. "Test connection" and applying a choice
talk to servers, so both run in workers; the dialog stays responsive and says what went wrong
next to the field that caused it.
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.context import AppContext
from app.database.config import ConnectionCheck, split_password
from app.errors import UserError
from ui.error_router import ErrorRouter
from ui.inline_error import InlineError
from ui.notifications import NotificationBar
from ui.tasks import TaskRunner

PLACEHOLDER = "postgresql://user@server:5432/knowledge"
TESTING = "Connecting…"


class DatabaseDialog(QDialog):
    """Choose the built-in database or a shared server; test it before switching."""

    applied = Signal()  # the app now uses the chosen database

    def __init__(
        self,
        ctx: AppContext,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.tasks = tasks
        self.setWindowTitle("Knowledge database")
        self.setMinimumWidth(520)
        self.builtin = QRadioButton("Built-in database on this computer (no set-up)")
        self.shared = QRadioButton("Shared PostgreSQL server with pgvector (a team's knowledge)")
        group = QButtonGroup(self)
        group.addButton(self.builtin)
        group.addButton(self.shared)
        self.url = QLineEdit()
        self.url.setPlaceholderText(PLACEHOLDER)
        self.url.setClearButtonEnabled(True)
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText("kept in the system keyring, not in the settings")
        self.url_error = InlineError()
        self.test_button = QPushButton("Test connection")
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        self.apply_error = InlineError()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.errors = ErrorRouter(
            notifications, {"database_url": self.url_error, "apply": self.apply_error}
        )
        self._layout()
        self.builtin.toggled.connect(self._update_enabled)
        self.test_button.clicked.connect(self.test_connection)
        self.url.textEdited.connect(self._forget_result)
        self.password.textEdited.connect(self._forget_result)
        self.buttons.accepted.connect(self.apply)
        self.buttons.rejected.connect(self.reject)
        current = ctx.settings.database_url or ""
        self.url.setText(current)
        (self.shared if current else self.builtin).setChecked(True)
        self._update_enabled()

    def _layout(self) -> None:
        form = QFormLayout()
        form.addRow("Connection:", self.url)
        form.addRow("", self.url_error)
        form.addRow("Password:", self.password)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.test_result, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.builtin)
        layout.addWidget(self.shared)
        layout.addLayout(form)
        layout.addLayout(test_row)
        layout.addWidget(self.apply_error)
        layout.addStretch(1)
        layout.addWidget(self.buttons)

    # ----- testing ---------------------------------------------------------------------

    @Slot()
    def test_connection(self) -> None:
        """Try the typed server in a worker; the result appears next to the button."""
        self._forget_result()
        if not self.url.text().strip():
            self.url_error.show_message("Enter the server's connection string first.")
            return
        self.test_result.setText(TESTING)
        self._set_busy(True)
        self.tasks.start(
            self.ctx.knowledge.test_connection,
            self.url.text().strip(),
            self.password.text() or None,
            on_done=self._on_tested,
            on_error=self._on_test_failed,
        )

    @Slot(object)
    def _on_tested(self, check: ConnectionCheck) -> None:
        self._set_busy(False)
        self.test_result.setText(check.message)

    @Slot(object)
    def _on_test_failed(self, error: BaseException) -> None:
        self._set_busy(False)
        self.test_result.clear()
        self.errors.show(error, default_field="database_url")

    # ----- applying --------------------------------------------------------------------

    @Slot()
    def apply(self) -> None:
        """Switch to the chosen database (in a worker) and save the settings."""
        self._forget_result()
        url: str | None = None
        if self.shared.isChecked():
            url = self.url.text().strip()
            if not url:
                self.url_error.show_message("Enter the server's connection string.")
                return
            try:
                split_password(url)  # a malformed string is refused before anything changes
            except UserError as error:
                self.url_error.show_message(str(error))
                return
        if url == (self.ctx.settings.database_url or None) and not self.password.text():
            self.accept()  # nothing changed
            return
        self._set_busy(True)
        self.tasks.start(
            self.ctx.knowledge.use_database,
            url,
            self.password.text() or None,
            on_done=self._on_applied,
            on_error=self._on_apply_failed,
        )

    @Slot(object)
    def _on_applied(self, _: object) -> None:
        self._set_busy(False)
        self.applied.emit()
        self.accept()

    @Slot(object)
    def _on_apply_failed(self, error: BaseException) -> None:
        self._set_busy(False)
        self.errors.show(error, default_field="apply")

    # ----- state -----------------------------------------------------------------------

    @Slot()
    def _forget_result(self) -> None:
        self.test_result.clear()
        self.url_error.clear()
        self.apply_error.clear()

    @Slot()
    def _update_enabled(self) -> None:
        shared = self.shared.isChecked()
        for widget in (self.url, self.password, self.test_button):
            widget.setEnabled(shared)

    def _set_busy(self, busy: bool) -> None:
        self.buttons.setEnabled(not busy)
        self.test_button.setEnabled(not busy and self.shared.isChecked())
        for widget in (self.builtin, self.shared, self.url, self.password):
            widget.setEnabled(not busy)
        if not busy:
            self._update_enabled()
