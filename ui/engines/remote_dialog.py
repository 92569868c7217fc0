"""Remote endpoints…: the OpenAI-compatible servers chat can run on (OVMS, vLLM, llama.cpp's
server, another OV Studio), each with its address, API key and chosen model.

The key is typed masked and goes to the keyring (or the private secrets file) through
:func:`app.engines.remote.config.save_key`, never into the settings file. *Test connection* asks the
server for its models in a worker — a down server takes up to the connect timeout to say so —
so the dialog stays responsive, can be cancelled, and fills the model list from the answer.
What is wrong with a field is said right under it as it is typed (a key the secret store
cannot keep under the key); Save writes every endpoint at once through the settings store. The
fields are a :class:`ui.widgets.connection_form.ConnectionForm`; an endpoint as it is edited
is an :class:`ui.engines.remote_draft.EndpointDraft`.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core import SecretStore, SettingsStore, StorageError
from app.engines import ConnectionCheck, RemoteEndpoint, check_connection, endpoint_problems
from ui.a11y import describe
from ui.engines.remote_draft import EndpointDraft, new_name, save_keys, saved_drafts
from ui.i18n import tr
from ui.icons import set_icon
from ui.shell.settings_changes import change_settings
from ui.tasks import TaskRunner
from ui.widgets.connection_form import ConnectionForm, SaveRow
from ui.widgets.dialog_rows import free_name, keep_fitting, say, tab_chain


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
        self.setWindowTitle(tr("Remote endpoints"))
        self.setMinimumWidth(680)
        self.drafts = saved_drafts(store.settings.remote_endpoints, secrets)
        self._removed: list[str] = []  # saved names whose keys go when the dialog is saved
        self._build()
        for draft in self.drafts:
            self.list.addItem(draft.name)
        self.list.setCurrentRow(0 if self.drafts else -1)
        self._show_current()
        keep_fitting(self)

    # ----- layout ----------------------------------------------------------------------

    def _build(self) -> None:
        self.list = QListWidget()
        self.list.setMinimumWidth(170)
        describe(
            self.list,
            tr("Endpoints"),
            tr("The remote endpoints chat can run on; choose one to edit it."),
        )
        self.add_button = QPushButton(tr("A&dd"))
        set_icon(self.add_button, "plus")
        describe(self.add_button, tr("Add endpoint"), tr("Add a remote endpoint to the list."))
        self.remove_button = QPushButton(tr("&Remove"))
        set_icon(self.remove_button, "delete-outline")
        describe(
            self.remove_button,
            tr("Remove endpoint"),
            tr("Remove the selected endpoint (its key goes when you save)."),
        )
        self.form = ConnectionForm(
            self.tasks, tr("Ask the endpoint for its models; the list below fills from its answer.")
        )
        self.name = self.form.add_name(tr("What the chat's device list calls this endpoint."))
        self.url = self.form.add_address(
            "base_url",
            tr("&Address:"),
            tr("Address"),
            tr("The endpoint's OpenAI-compatible address, e.g. {example}.").format(
                example="http://ovms.lan:8000/v3"
            ),
            tr("{ovms} (OVMS) or {other}").format(
                ovms="http://ovms.lan:8000/v3", other="http://server:8000/v1"
            ),
        )
        self.key = self.form.add_secret(
            "key",
            tr("API &key:"),
            tr("API key"),
            tr("The key the endpoint expects, if any; kept in the system keyring."),
            (tr("Show API key"), tr("Show or hide the API key.")),
        )
        self.form.add_test_row()
        self.test = self.form.test
        self.model = QComboBox()
        self.model.setPlaceholderText(tr("Test the connection to list the endpoint's models."))
        self.model.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        describe(self.model, tr("Model"), tr("The endpoint's model that chat uses."))
        self.form.add_field(tr("&Model:"), self.model, watch=False)
        self.form.end()
        save_row = SaveRow()
        self.buttons, self.save_error = save_row.buttons, save_row.error
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
        layout.addLayout(save_row.layout)
        chain = [self.list, self.add_button, self.remove_button, *self.form.focus_chain()]
        tab_chain([*chain, save_row.save_button, save_row.cancel_button])
        self.list.currentRowChanged.connect(self._show_current)
        self.add_button.clicked.connect(self.add_endpoint)
        self.remove_button.clicked.connect(self.remove_endpoint)
        self.form.edited.connect(self._on_edited)
        self.model.currentIndexChanged.connect(self._on_model_chosen)
        self.test.button.clicked.connect(self.test_connection)
        self.test.cancel_button.clicked.connect(self.cancel_test)
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
        name = free_name(new_name(), (d.name for d in self.drafts))
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
        if draft is self.test.subject:
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
        self.key.toggle.setChecked(False)  # another endpoint's key starts hidden
        self.test.show_result(draft.result if draft else "", aloud=False)
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
            self.test.show_result("")
        if self.key.text() != draft.key:
            draft.key_problem = ""  # typed again: the next save tries again
        draft.name = self.name.text()
        draft.base_url = self.url.text().strip()
        draft.key = self.key.text()
        item = self.list.currentItem()
        if item is not None:
            item.setText(draft.name.strip() or tr("(no name)"))
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

    def _validate(self) -> None:
        draft = self.current()
        problems = self.problems(draft) if draft is not None else {}
        if draft is not None and draft.key_problem:
            problems["key"] = draft.key_problem  # said under the key; no bar to saving
        self.form.show_problems(problems)
        self._update_test_buttons()

    # ----- testing ---------------------------------------------------------------------

    @Slot()
    def test_connection(self) -> None:
        """Ask the typed server for its models in a worker; the sentence appears under the
        button and the model list fills from the answer."""
        draft = self.current()
        if draft is None or "base_url" in self.problems(draft):
            return
        endpoint = RemoteEndpoint(name=draft.name.strip() or new_name(), base_url=draft.base_url)
        self.test.start(
            draft,
            check_connection,
            endpoint,
            draft.key,
            on_done=partial(self._on_tested, draft),
            on_error=partial(self._on_test_failed, draft),
        )
        draft.result = tr("Connecting to {address}…").format(address=endpoint.base_url)
        self.test.show_result(draft.result)
        self._update_test_buttons()

    @Slot()
    def cancel_test(self) -> None:
        """Stop waiting for the server (its late answer is ignored)."""
        draft = self.test.cancel()
        if not isinstance(draft, EndpointDraft):
            return
        draft.result = tr("Cancelled.")
        if draft is self.current():
            self.test.show_result(draft.result)
        self._update_test_buttons()

    def _on_tested(self, draft: EndpointDraft, check: ConnectionCheck) -> None:
        draft.result = check.message
        if check.ok:
            draft.models = [model.id for model in check.models]
            if draft.models and draft.model not in draft.models:
                draft.model = draft.models[0]  # the one a single-model server serves
        if draft is self.current():
            self.test.show_result(draft.result)  # the app's sentence: English for now
            self._fill_models(draft)
        self._update_test_buttons()

    def _on_test_failed(self, draft: EndpointDraft, error: BaseException) -> None:
        # check_connection says network problems itself; anything else is a one-line fault.
        failed = tr("The test failed: {error}").format(error=error)
        self._on_tested(draft, ConnectionCheck(failed))

    def _update_test_buttons(self) -> None:
        draft = self.current()
        self.test.update_buttons(draft is not None and "base_url" not in self.problems(draft))

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
            save_keys(self.secrets, list(zip(self.drafts, endpoints, strict=True)), self._removed)
        except StorageError as error:  # said under the key being edited, else beside Save
            edited = self.current()
            if edited is None:
                say(self.save_error, str(error))
            else:
                edited.key_problem = str(error)
                self._validate()
            return
        # A model placed on an endpoint that is gone (removed or renamed) goes back to its
        # default device, as the pickers already show it, rather than naming nothing.
        models, _ = self.store.settings.models.without_unknown_endpoints(endpoints)
        report = partial(say, self.save_error)
        if change_settings(self.store, report, remote_endpoints=endpoints, models=models):
            self.cancel_test()
            self.accept()

    def reject(self) -> None:
        """Close without saving; a running test's answer is dropped."""
        self.cancel_test()
        super().reject()
