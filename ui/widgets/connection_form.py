"""One connection's form, laid out alike in the three editors of a connection to something
outside the app: the remote endpoints, the MCP tool servers and the knowledge database's
shared server.

Each field sits in a form row with its label (whose mnemonic focuses it) and, right under it,
the line that says what is wrong with it — hidden, taking no room, until there is something to
say, and cleared as soon as the field is right. A secret (an API key, a password) is a
:class:`ui.widgets.secret_field.SecretField`, masked until *Show*. The Test row
(:class:`ui.widgets.connection_test.ConnectionTest`: *Test connection*, and while a test runs
*Cancel test* and a busy bar) is a form row, its result line right under the form; what the
editor adds below (a server's tools) follows. :class:`SaveRow` is the dialog's Save / Cancel, with
the sentence of a save that failed beside them.

What is each editor's own stays in it: which fields, what is wrong with them (the settings
validators' sentences, by field key), what the test asks, and what Save writes.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ui.a11y import describe
from ui.i18n import tr
from ui.tasks import TaskRunner
from ui.widgets.connection_test import ConnectionTest, ConnectionTestTexts
from ui.widgets.dialog_rows import (
    ChainedButtonBox,
    describe_standard_buttons,
    messages_beside_buttons,
)
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox
from ui.widgets.secret_field import SecretField


def keyring_placeholder() -> str:
    """What an empty secret field says about where its secret goes."""
    return tr("kept in the system keyring, not in the settings")


class ConnectionForm(QWidget):
    """The fields of the connection being edited, each with its problem line, then the Test
    row and what the editor adds below.

    Attributes:
        fields: The form layout the rows go in (label, field).
        errors: Each checked field's problem line, by the key its validator uses.
        test: The Test row (its button, Cancel, busy bar and result line).

    Signals:
        edited: The user changed a field added with ``watch`` (typed, chose, ticked).
    """

    edited = Signal()

    def __init__(self, tasks: TaskRunner, test_does: str, parent: QWidget | None = None) -> None:
        """Args:
        tasks: Runs the test.
        test_does: What *Test connection* asks (one sentence, for its description).
        parent: The dialog.
        """
        super().__init__(parent)
        self.fields = QFormLayout()
        self.errors: dict[str, InlineError] = {}
        texts = ConnectionTestTexts(
            tr("&Test connection"),
            tr("Test connection"),
            test_does,
            cancel=tr("Stop waiting for the answer."),
            busy=(tr("Testing"), tr("Waiting for the answer.")),
        )
        self.test = ConnectionTest(tasks, texts, self)
        self._rows: dict[QWidget, QWidget] = {}  # a field → the widget its row holds
        self._focus: list[QWidget] = []  # the form's controls in the order they are laid out
        self._column = vbox(self.fields, parent=self, margins=0)

    # ----- rows ------------------------------------------------------------------------

    def add_field(
        self, label: str, field: QWidget, key: str | None = None, *, watch: bool = True
    ) -> None:
        """A row: ``label`` (its mnemonic focuses ``field``) and ``field``.

        Args:
            label: The label's text, with its mnemonic (``&Name:``); "" for none.
            field: The control.
            key: Its validator's key: a problem line goes right under it (None: not checked).
            watch: Whether changing it emits :attr:`edited`.
        """
        row = field
        if key is not None:
            error = InlineError()
            self.errors[key] = error
            row = QWidget()
            vbox(field, error, parent=row, margins=0, spacing=2)
        self.fields.addRow(label, row)
        self._rows[field] = row
        parts = [field.line, field.toggle] if isinstance(field, SecretField) else [field]
        self._focus.extend(parts)
        buddy = self.fields.labelForField(row)
        if isinstance(buddy, QLabel):  # its mnemonic types in the field, not in the row's box
            buddy.setBuddy(parts[0])
        if watch:
            self._watch(field)

    def add_name(self, description: str) -> QLineEdit:
        """The *Name* row (checked under key ``name``); ``description``: what the name is for."""
        name = QLineEdit()
        describe(name, tr("Name"), description)
        self.add_field(tr("&Name:"), name, "name")
        return name

    def add_address(
        self, key: str, label: str, name: str, description: str, placeholder: str
    ) -> QLineEdit:
        """An address row (a URL, a connection string), checked under ``key``.

        Args:
            key: Its validator's key.
            label: The row's label, with its mnemonic.
            name: Its accessible name.
            description: What to type.
            placeholder: An example, shown while it is empty.
        """
        address = QLineEdit()
        address.setPlaceholderText(placeholder)
        describe(address, name, description)
        self.add_field(label, address, key)
        return address

    def add_secret(
        self, key: str, label: str, name: str, description: str, show: tuple[str, str]
    ) -> SecretField:
        """A secret row (an API key, a password): masked, *Show* beside it, its problem line
        (a secret that could not be kept) under it.

        Args:
            key: The key its problems are shown under.
            label: The row's label, with its mnemonic.
            name: The line's accessible name.
            description: What to type, and where it is kept.
            show: The *Show* button's accessible name and description.
        """
        secret = SecretField(*show)
        secret.line.setPlaceholderText(keyring_placeholder())
        describe(secret.line, name, description)
        self.add_field(label, secret, key)
        return secret

    def add_test_row(self) -> None:
        """The Test row: *Test*, *Cancel test* and the busy bar; its result line goes under
        the form (after any row added later)."""
        test = self.test
        self.fields.addRow("", hbox(test.button, test.cancel_button, test.progress, 1, margins=0))
        # Under the form, not in it: a form row gives a wrapped line the height of its size
        # hint (four short lines), which left a gap under a two-line sentence.
        self._column.addWidget(test.result)
        self._focus.extend([test.button, test.cancel_button])

    def add_below(self, widget: QWidget, stretch: int = 0) -> None:
        """``widget`` under the form (it takes the spare height when ``stretch``)."""
        self._column.addWidget(widget, stretch)

    def end(self) -> None:
        """Nothing more goes below: spare height stays under the form, not between its rows."""
        self._column.addStretch(1)

    def set_field_visible(self, field: QWidget, visible: bool) -> None:
        """Show or hide ``field``'s row (with its label and problem line)."""
        self.fields.setRowVisible(self._rows[field], visible)

    def focus_chain(self) -> list[QWidget]:
        """The form's controls in the order they are laid out (for the dialog's Tab order)."""
        return list(self._focus)

    # ----- problems --------------------------------------------------------------------

    def show_problems(self, problems: Mapping[str, str]) -> None:
        """Each field's problem under it (``problems`` by key); a field with none is cleared."""
        for key, error in self.errors.items():
            error.show_message(problems.get(key, ""))

    def show_problem(self, key: str, sentence: str) -> None:
        """``sentence`` under the field checked as ``key`` (said aloud)."""
        self.errors[key].show_message(sentence)

    def _watch(self, field: QWidget) -> None:
        if isinstance(field, (QLineEdit, SecretField)):
            field.textEdited.connect(self._on_edited)
        elif isinstance(field, QComboBox):
            field.currentIndexChanged.connect(self._on_edited)
        elif isinstance(field, QAbstractButton):
            field.toggled.connect(self._on_edited)

    @Slot()
    def _on_edited(self) -> None:
        self.edited.emit()


class SaveRow:
    """A connection dialog's Save / Cancel (Save the default), with the sentence of a save that
    failed (and belongs to no field) beside them.

    Attributes:
        buttons: The button box (its ``accepted`` / ``rejected`` are the dialog's to connect).
        error: The failed save's sentence, hidden when empty.
        layout: The row, for the bottom of the dialog's layout.
    """

    def __init__(self) -> None:
        self.buttons = ChainedButtonBox(  # its buttons go last in the dialog's Tab order
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        describe_standard_buttons(self.buttons)
        self.save_button.setDefault(True)
        self.error = InlineError()
        self.layout = messages_beside_buttons([self.error], self.buttons)

    @property
    def save_button(self) -> QPushButton:
        """*Save*."""
        return self.buttons.button(QDialogButtonBox.StandardButton.Save)

    @property
    def cancel_button(self) -> QPushButton:
        """*Cancel*."""
        return self.buttons.button(QDialogButtonBox.StandardButton.Cancel)

    def set_busy(self, busy: bool) -> None:
        """Both buttons off while the dialog applies its choice, on again after."""
        self.buttons.setEnabled(not busy)
