"""Remote endpoints…: the OpenAI-compatible servers chat can run on (OVMS, vLLM, llama.cpp's
server, another OV Studio), each with its address, API key and chosen model.

The key is typed masked and goes to the keyring (or the private secrets file) through
:func:`app.remote.config.save_key`, never into the settings file. *Test connection* asks the
server for its models in a worker — a down server takes up to the connect timeout to say so —
so the dialog stays responsive, can be cancelled, and fills the model list from the answer.
What is wrong with a field is said next to it as it is typed; Save writes every endpoint at
once through the settings store.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.errors import StorageError
from app.remote.config import (
    RemoteEndpoint,
    endpoint_problems,
    read_key,
    save_key,
)
from app.remote.endpoints import ConnectionCheck, check_connection
from app.settings_store import SettingsStore
from app.storage.secrets import SecretStore
from ui.inline_error import InlineError
from ui.settings_changes import change_settings
from ui.tasks import TaskRunner

NEW_NAME = "New endpoint"
URL_PLACEHOLDER = "http://ovms.lan:8000/v3 (OVMS) or http://server:8000/v1"
NO_MODELS = "Test the connection to list the server's models."


@dataclass(eq=False)
class EndpointDraft:
    """One endpoint as it is being edited (saved only when the dialog is)."""

    name: str
    base_url: str = ""
    key: str = ""
    model: str = ""
    saved_name: str | None = None
    """Its name in the settings (None for a new one): a renamed endpoint's key moves."""
    models: list[str] = field(default_factory=list)
    result: str = ""
    """The last *Test connection* sentence, shown again when it is selected."""


class RemoteEndpointsDialog(QDialog):
    """List, add, edit and remove remote endpoints; test one and choose its model."""

    def __init__(
        self,
        store: SettingsStore,
        secrets: SecretStore,
        tasks: TaskRunner,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.secrets = secrets
        self.tasks = tasks
        self.setWindowTitle("Remote endpoints")
        self.setMinimumWidth(680)
        self.drafts = [
            EndpointDraft(e.name, e.base_url, read_key(secrets, e.name), e.model, e.name)
            for e in store.settings.remote_endpoints
        ]
        self._removed: list[str] = []  # saved names whose keys go when the dialog is saved
        self._testing: EndpointDraft | None = None
        self._test_run = 0  # a cancelled test's late answer is dropped
        self._build()
        for draft in self.drafts:
            self.list.addItem(draft.name)
        self.list.setCurrentRow(0 if self.drafts else -1)
        self._show_current()

    # ----- layout ----------------------------------------------------------------------

    def _build(self) -> None:
        self.list = QListWidget()
        self.list.setMinimumWidth(170)
        self.add_button = QPushButton("Add")
        self.remove_button = QPushButton("Remove")
        self.name = QLineEdit()
        self.name_error = InlineError()
        self.url = QLineEdit()
        self.url.setPlaceholderText(URL_PLACEHOLDER)
        self.url_error = InlineError()
        self.key = QLineEdit()
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText("kept in the system keyring, not in the settings")
        self.test_button = QPushButton("Test connection")
        self.cancel_test_button = QPushButton("Cancel")
        self.cancel_test_button.setVisible(False)
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.model = QComboBox()
        self.model.setPlaceholderText(NO_MODELS)
        self.model.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.save_error = InlineError()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        form = QFormLayout()
        form.addRow("&Name:", self.name)
        form.addRow("", self.name_error)
        form.addRow("&Address:", self.url)
        form.addRow("", self.url_error)
        form.addRow("API &key:", self.key)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.cancel_test_button)
        test_row.addStretch(1)
        form.addRow("", test_row)
        form.addRow("", self.test_result)
        form.addRow("&Model:", self.model)
        self.form = QWidget()
        self.form.setLayout(form)
        list_buttons = QHBoxLayout()
        list_buttons.addWidget(self.add_button)
        list_buttons.addWidget(self.remove_button)
        left = QVBoxLayout()
        left.addWidget(self.list, 1)
        left.addLayout(list_buttons)
        body = QHBoxLayout()
        body.addLayout(left)
        body.addWidget(self.form, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addWidget(self.save_error)
        layout.addWidget(self.buttons)
        self.list.currentRowChanged.connect(self._show_current)
        self.add_button.clicked.connect(self.add_endpoint)
        self.remove_button.clicked.connect(self.remove_endpoint)
        self.name.textEdited.connect(self._on_edited)
        self.url.textEdited.connect(self._on_edited)
        self.key.textEdited.connect(self._on_edited)
        self.model.currentIndexChanged.connect(self._on_model_chosen)
        self.test_button.clicked.connect(self.test_connection)
        self.cancel_test_button.clicked.connect(self.cancel_test)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)

    # ----- the list --------------------------------------------------------------------

    def current(self) -> EndpointDraft | None:
        """The endpoint being edited, if any."""
        row = self.list.currentRow()
        return self.drafts[row] if 0 <= row < len(self.drafts) else None

    @Slot()
    def add_endpoint(self) -> None:
        """A new endpoint with a free name, selected, its name ready to be typed over."""
        taken = {d.name.casefold() for d in self.drafts}
        name = NEW_NAME
        number = 2
        while name.casefold() in taken:
            name = f"{NEW_NAME} {number}"
            number += 1
        self.drafts.append(EndpointDraft(name))
        self.list.addItem(name)
        self.list.setCurrentRow(len(self.drafts) - 1)
        self.name.setFocus()
        self.name.selectAll()

    @Slot()
    def remove_endpoint(self) -> None:
        """Forget the selected endpoint (and, on Save, its key)."""
        row = self.list.currentRow()
        if not 0 <= row < len(self.drafts):
            return
        draft = self.drafts.pop(row)
        if draft.saved_name is not None:
            self._removed.append(draft.saved_name)
        if draft is self._testing:
            self.cancel_test()
        self.list.takeItem(row)
        self._show_current()

    @Slot()
    def _show_current(self) -> None:
        draft = self.current()
        self.form.setEnabled(draft is not None)
        self.remove_button.setEnabled(draft is not None)
        for line, text in (
            (self.name, draft.name if draft else ""),
            (self.url, draft.base_url if draft else ""),
            (self.key, draft.key if draft else ""),
        ):
            line.setText(text)
        self.test_result.setText(draft.result if draft else "")
        self._fill_models(draft)
        self._validate()
        self._update_test_buttons()

    def _fill_models(self, draft: EndpointDraft | None) -> None:
        self.model.blockSignals(True)
        self.model.clear()
        if draft is not None:
            offered = list(draft.models)
            if draft.model and draft.model not in offered:
                offered.insert(0, draft.model)  # the saved choice, before any test
            self.model.addItems(offered)
            self.model.setCurrentIndex(offered.index(draft.model) if draft.model else -1)
        self.model.blockSignals(False)

    # ----- editing ---------------------------------------------------------------------

    @Slot()
    def _on_edited(self) -> None:
        draft = self.current()
        if draft is None:
            return
        if self.url.text().strip() != draft.base_url or self.key.text() != draft.key:
            draft.result = ""  # a test of the old address says nothing of the new one
            self.test_result.clear()
        draft.name = self.name.text()
        draft.base_url = self.url.text().strip()
        draft.key = self.key.text()
        item = self.list.currentItem()
        if item is not None:
            item.setText(draft.name.strip() or "(no name)")
        self.save_error.clear()
        self._validate()

    @Slot(int)
    def _on_model_chosen(self, index: int) -> None:
        draft = self.current()
        if draft is not None and index >= 0:
            draft.model = self.model.itemText(index)

    def problems(self, draft: EndpointDraft) -> dict[str, str]:
        """What keeps ``draft`` from being saved, by field (``name``, ``base_url``)."""
        others = [d.name for d in self.drafts if d is not draft]
        return endpoint_problems(draft.name, draft.base_url, others)

    def _validate(self) -> bool:
        draft = self.current()
        problems = self.problems(draft) if draft is not None else {}
        for key, label in (("name", self.name_error), ("base_url", self.url_error)):
            if key in problems:
                label.show_message(problems[key])
            else:
                label.clear()
        self._update_test_buttons()
        return not problems

    # ----- testing ---------------------------------------------------------------------

    @Slot()
    def test_connection(self) -> None:
        """Ask the typed server for its models in a worker; the sentence appears under the
        button and the model list fills from the answer."""
        draft = self.current()
        if draft is None or "base_url" in self.problems(draft):
            return
        endpoint = RemoteEndpoint(name=draft.name.strip() or NEW_NAME, base_url=draft.base_url)
        self._test_run += 1
        self._testing = draft
        draft.result = f"Connecting to {endpoint.base_url}…"
        self.test_result.setText(draft.result)
        self._update_test_buttons()
        run = self._test_run
        self.tasks.start(
            check_connection,
            endpoint,
            draft.key,
            on_done=lambda check: self._on_tested(run, draft, check),
            on_error=lambda error: self._on_test_failed(run, draft, error),
        )

    @Slot()
    def cancel_test(self) -> None:
        """Stop waiting for the server (its late answer is ignored)."""
        if self._testing is None:
            return
        self._testing.result = "Cancelled."
        if self._testing is self.current():
            self.test_result.setText(self._testing.result)
        self._testing = None
        self._test_run += 1
        self._update_test_buttons()

    def _on_tested(self, run: int, draft: EndpointDraft, check: ConnectionCheck) -> None:
        if run != self._test_run:
            return
        self._testing = None
        draft.result = check.message
        if check.ok:
            draft.models = [model.id for model in check.models]
            if draft.models and draft.model not in draft.models:
                draft.model = draft.models[0]  # the one a single-model server serves
        if draft is self.current():
            self.test_result.setText(draft.result)
            self._fill_models(draft)
        self._update_test_buttons()

    def _on_test_failed(self, run: int, draft: EndpointDraft, error: BaseException) -> None:
        # check_connection says network problems itself; anything else is a one-line fault.
        self._on_tested(run, draft, ConnectionCheck(f"The test failed: {error}"))

    def _update_test_buttons(self) -> None:
        testing = self._testing is not None
        draft = self.current()
        can_test = draft is not None and "base_url" not in self.problems(draft)
        self.test_button.setEnabled(can_test and not testing)
        self.cancel_test_button.setVisible(testing)

    # ----- saving ----------------------------------------------------------------------

    def endpoints(self) -> list[RemoteEndpoint]:
        """The endpoints as they would be saved (call only when every draft is valid)."""
        return [
            RemoteEndpoint(name=d.name, base_url=d.base_url, model=d.model) for d in self.drafts
        ]

    @Slot()
    def save(self) -> None:
        """Save every endpoint through the settings store and their keys to the secret store;
        the first endpoint with a problem is selected instead, the problem next to its field."""
        for row, draft in enumerate(self.drafts):
            if self.problems(draft):
                self.list.setCurrentRow(row)
                self._validate()
                return
        endpoints = self.endpoints()
        try:
            for name in self._removed:
                save_key(self.secrets, name, "")
            for draft, endpoint in zip(self.drafts, endpoints, strict=True):
                if draft.saved_name and draft.saved_name.casefold() != endpoint.name.casefold():
                    save_key(self.secrets, draft.saved_name, "")  # renamed: the key moves
                save_key(self.secrets, endpoint.name, draft.key)
        except StorageError as error:
            self.save_error.show_message(str(error))
            return
        if change_settings(self.store, self.save_error.show_message, remote_endpoints=endpoints):
            self.cancel_test()
            self.accept()

    def reject(self) -> None:
        """Close without saving; a running test's answer is dropped."""
        self.cancel_test()
        super().reject()
