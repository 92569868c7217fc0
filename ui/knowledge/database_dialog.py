"""Where knowledge lives: the built-in database, or a shared PostgreSQL server.

The password is typed apart from the connection string and goes to the keyring (or the
private secrets file), never into the settings file. "Test connection" and applying a choice
talk to servers, so both run in workers; the dialog stays responsive and says what went wrong
next to the field that caused it. The test row is a
:class:`ui.widgets.connection_test.ConnectionTest`
(without Cancel: the dialog waits for the answer, its other controls off meanwhile).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.core import Settings, UserError
from app.knowledge import ConnectionCheck, KnowledgeService, split_password
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.widgets.connection_test import ConnectionTest, ConnectionTestTexts
from ui.widgets.dialog_rows import (
    describe_standard_buttons,
    keep_fitting,
    messages_beside_buttons,
    say,
    tab_chain,
)
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import vbox

PLACEHOLDER = "postgresql://user@server:5432/knowledge"  # a URL: the same in every language


def testing_text() -> str:
    """What the result line says while a test runs."""
    return tr("Connecting…")


class DatabaseDialog(QDialog):
    """Choose the built-in database or a shared server; test it before switching."""

    applied = Signal()  # the app now uses the chosen database

    def __init__(
        self,
        knowledge: KnowledgeService,
        settings: Settings,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        """Args:
        knowledge: Tests a connection and switches the database (it saves the choice).
        settings: The live settings (read only: the database in use).
        tasks: Runs the test and the switch.
        notifications: Where what belongs to no field is said.
        parent: The window.
        """
        super().__init__(parent)
        self.knowledge = knowledge
        self._settings = settings
        self.tasks = tasks
        self.setWindowTitle(tr("Knowledge database"))
        self.setMinimumWidth(520)
        self.builtin = QRadioButton(tr("&Built-in database on this computer (no set-up)"))
        self.shared = QRadioButton(
            tr("&Shared PostgreSQL server with pgvector (a team's knowledge)")
        )
        describe(
            self.builtin,
            tr("Built-in database"),
            tr("Keep knowledge in a database file on this computer; nothing to set up."),
        )
        describe(
            self.shared,
            tr("Shared PostgreSQL server"),
            tr("Keep knowledge on a PostgreSQL server with pgvector that a team shares."),
        )
        group = QButtonGroup(self)
        group.addButton(self.builtin)
        group.addButton(self.shared)
        self.url = QLineEdit()
        self.url.setPlaceholderText(PLACEHOLDER)
        self.url.setClearButtonEnabled(True)
        describe(
            self.url,
            tr("Connection string"),
            tr("The server's address, e.g. {example}.").format(example=PLACEHOLDER),
        )
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText(tr("kept in the system keyring, not in the settings"))
        describe(
            self.password,
            tr("Password"),
            tr("The database password; it is kept in the system keyring, not in the settings."),
        )
        self.url_error = InlineError()
        texts = ConnectionTestTexts(
            tr("&Test connection"),
            tr("Test connection"),
            tr("Connect to the server and say which PostgreSQL and pgvector it runs."),
        )
        self.test = ConnectionTest(tasks, texts, self)
        self.apply_error = InlineError()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        describe_standard_buttons(self.buttons)
        self.errors = ErrorRouter(
            notifications, {"database_url": self.url_error, "apply": self.apply_error}
        )
        self._layout()
        self.builtin.toggled.connect(self._update_enabled)
        self.test.button.clicked.connect(self.test_connection)
        self.url.textEdited.connect(self._forget_result)
        self.password.textEdited.connect(self._forget_result)
        self.buttons.accepted.connect(self.apply)
        self.buttons.rejected.connect(self.reject)
        current = settings.database_url or ""
        self.url.setText(current)
        (self.shared if current else self.builtin).setChecked(True)
        self._update_enabled()
        keep_fitting(self)

    def _layout(self) -> None:
        form = QFormLayout()
        form.addRow(tr("&Connection:"), self.url)
        form.addRow(tr("&Password:"), self.password)
        # The test's result and a refused connection string go beside the button, top-aligned:
        # they take no room at rest and push nothing when they appear.
        test_row = QHBoxLayout()
        test_row.addWidget(self.test.button, 0, Qt.AlignmentFlag.AlignTop)
        test_row.addLayout(vbox(self.test.result, self.url_error, margins=0, spacing=2), 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.builtin)
        layout.addWidget(self.shared)
        layout.addLayout(form)
        layout.addLayout(test_row)
        layout.addStretch(1)
        layout.addLayout(messages_beside_buttons([self.apply_error], self.buttons))
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setDefault(True)
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        chain = [self.builtin, self.shared, self.url, self.password, self.test.button, ok, cancel]
        tab_chain(chain)

    # ----- testing ---------------------------------------------------------------------

    @Slot()
    def test_connection(self) -> None:
        """Try the typed server in a worker; the result appears next to the button."""
        self._forget_result()
        if not self.url.text().strip():
            say(self.url_error, tr("Enter the server's connection string first."))
            return
        self.test.show_result(testing_text())
        self._set_busy(True)
        self.test.start(
            self.url.text().strip(),
            self.knowledge.test_connection,
            self.url.text().strip(),
            self.password.text() or None,
            on_done=self._on_tested,
            on_error=self._on_test_failed,
        )

    @Slot(object)
    def _on_tested(self, check: ConnectionCheck) -> None:
        self._set_busy(False)
        self.test.show_result(check.message)  # app's words: English for now

    @Slot(object)
    def _on_test_failed(self, error: BaseException) -> None:
        self._set_busy(False)
        self.test.show_result("")
        self.errors.show(error, default_field="database_url")
        self._announce_errors()

    # ----- applying --------------------------------------------------------------------

    @Slot()
    def apply(self) -> None:
        """Switch to the chosen database (in a worker) and save the settings."""
        self._forget_result()
        url: str | None = None
        if self.shared.isChecked():
            url = self.url.text().strip()
            if not url:
                say(self.url_error, tr("Enter the server's connection string."))
                return
            try:
                split_password(url)  # a malformed string is refused before anything changes
            except UserError as error:
                say(self.url_error, str(error))
                return
        if url == (self._settings.database_url or None) and not self.password.text():
            self.accept()  # nothing changed
            return
        self._set_busy(True)
        self.tasks.start(
            self.knowledge.use_database,
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
        self._announce_errors()

    # ----- state -----------------------------------------------------------------------

    def _announce_errors(self) -> None:
        for label in (self.url_error, self.apply_error):
            if label.isVisibleTo(self):
                announce(label, label.text())

    @Slot()
    def _forget_result(self) -> None:
        self.test.show_result("")
        self.url_error.clear()
        self.apply_error.clear()

    @Slot()
    def _update_enabled(self) -> None:
        shared = self.shared.isChecked()
        for widget in (self.url, self.password, self.test.button):
            widget.setEnabled(shared)

    def _set_busy(self, busy: bool) -> None:
        self.buttons.setEnabled(not busy)
        self.test.update_buttons(not busy and self.shared.isChecked())
        for widget in (self.builtin, self.shared, self.url, self.password):
            widget.setEnabled(not busy)
        if not busy:
            self._update_enabled()
