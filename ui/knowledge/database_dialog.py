"""Where knowledge lives: the built-in database, or a shared PostgreSQL database.

The shared server's fields are a :class:`ui.widgets.connection_form.ConnectionForm`: the
connection string, checked as it is typed, and the password, typed apart (masked until *Show*)
and kept in the keyring (or the private secrets file), never in the settings file.
*Test connection* and saving a choice talk to servers, so both run in workers; a test can be
cancelled, the dialog stays responsive, and what went wrong is said next to the field that
caused it.
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QButtonGroup, QDialog, QRadioButton, QVBoxLayout, QWidget

from app.core import Settings, UserError
from app.knowledge import ConnectionCheck, KnowledgeService, split_password
from ui.a11y import describe
from ui.i18n import tr, translated
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.widgets.connection_form import ConnectionForm, SaveRow
from ui.widgets.dialog_rows import keep_fitting, tab_chain

PLACEHOLDER = "postgresql://user@server:5432/knowledge"  # a URL: the same in every language


def testing_text() -> str:
    """What the result line says while a test runs."""
    return tr("Connecting…")


class DatabaseDialog(QDialog):
    """Choose the built-in database or a shared one; test it before switching."""

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
            tr("&Shared PostgreSQL database with pgvector (a team's knowledge)")
        )
        describe(
            self.builtin,
            tr("Built-in database"),
            tr("Keep knowledge in a database file on this computer; nothing to set up."),
        )
        describe(
            self.shared,
            tr("Shared database"),
            tr("Keep knowledge in a PostgreSQL database with pgvector that a team shares."),
        )
        group = QButtonGroup(self)
        group.addButton(self.builtin)
        group.addButton(self.shared)
        self.form = ConnectionForm(
            tasks, tr("Connect to the database and say which PostgreSQL and pgvector it runs.")
        )
        self.url = self.form.add_address(
            "database_url",
            tr("&Connection:"),
            tr("Connection string"),
            tr("The database's connection string, e.g. {example}.").format(example=PLACEHOLDER),
            PLACEHOLDER,
        )
        self.password = self.form.add_secret(
            "password",
            tr("&Password:"),
            tr("Password"),
            tr("The database password; it is kept in the system keyring, not in the settings."),
            (tr("Show password"), tr("Show or hide the password.")),
        )
        self.form.add_test_row()
        self.form.end()
        self.test = self.form.test
        self.save_row = SaveRow()
        self.buttons, self.save_error = self.save_row.buttons, self.save_row.error
        self.errors = ErrorRouter(
            notifications,
            {
                "database_url": self.form.errors["database_url"],
                "password": self.form.errors["password"],
                "apply": self.save_error,
            },
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.builtin)
        layout.addWidget(self.shared)
        layout.addWidget(self.form, 1)
        layout.addLayout(self.save_row.layout)
        chain = [self.builtin, self.shared, *self.form.focus_chain()]
        tab_chain([*chain, self.save_row.save_button, self.save_row.cancel_button])
        self.builtin.toggled.connect(self._on_edited)
        self.form.edited.connect(self._on_edited)
        self.test.button.clicked.connect(self.test_connection)
        self.test.cancel_button.clicked.connect(self.cancel_test)
        self.buttons.accepted.connect(self.apply)
        self.buttons.rejected.connect(self.reject)
        current = settings.database_url or ""
        self.url.setText(current)
        (self.shared if current else self.builtin).setChecked(True)
        self._on_edited()
        keep_fitting(self)

    def problems(self) -> dict[str, str]:
        """What keeps the choice from being saved, by field (only ``database_url``)."""
        if not self.shared.isChecked():
            return {}
        url = self.url.text().strip()
        if not url:
            return {"database_url": tr("Enter the database's connection string.")}
        try:
            split_password(url)  # a malformed string is refused before anything changes
        except UserError as error:
            return {"database_url": str(error)}
        return {}

    # ----- testing ---------------------------------------------------------------------

    @Slot()
    def test_connection(self) -> None:
        """Try the typed server in a worker; its answer appears under the button."""
        if self.problems() or self.test.running:
            return
        url = self.url.text().strip()
        self.test.start(
            url,
            self.knowledge.test_connection,
            url,
            self.password.text() or None,
            on_done=self._on_tested,
            on_error=self._on_test_failed,
        )
        self.test.show_result(testing_text())
        self._update_buttons()

    @Slot()
    def cancel_test(self) -> None:
        """Stop waiting for the server (its late answer is ignored)."""
        if self.test.cancel() is not None:
            self.test.show_result(tr("Cancelled."))
        self._update_buttons()

    def _on_tested(self, check: ConnectionCheck) -> None:
        self.test.show_result(translated(check.message))
        self._update_buttons()

    def _on_test_failed(self, error: BaseException) -> None:
        self.test.show_result("")
        self.errors.show(error, default_field="database_url")
        self._update_buttons()

    # ----- saving ----------------------------------------------------------------------

    @Slot()
    def apply(self) -> None:
        """Switch to the chosen database (in a worker) and save the settings."""
        self.cancel_test()
        self._on_edited()
        if self.problems():
            return
        url = self.url.text().strip() if self.shared.isChecked() else None
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

    def _on_applied(self, _: object) -> None:
        self._set_busy(False)
        self.applied.emit()
        self.accept()

    def _on_apply_failed(self, error: BaseException) -> None:
        self._set_busy(False)
        self.errors.show(error, default_field="apply")

    def reject(self) -> None:
        """Close without changing anything; a running test's answer is dropped."""
        self.cancel_test()
        super().reject()

    # ----- state -----------------------------------------------------------------------

    @Slot()
    def _on_edited(self) -> None:
        """A field or the choice changed: the last answer and errors go, the new problems
        are said."""
        self.test.cancel()  # a test of the old string says nothing of the new one
        self.test.show_result("")
        self.save_error.clear()
        self.form.show_problems(self.problems())
        self.form.setEnabled(self.shared.isChecked())
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.test.update_buttons(self.shared.isChecked() and not self.problems())

    def _set_busy(self, busy: bool) -> None:
        self.save_row.set_busy(busy)
        for widget in (self.builtin, self.shared):
            widget.setEnabled(not busy)
        self.form.setEnabled(not busy and self.shared.isChecked())
        self._update_buttons()
