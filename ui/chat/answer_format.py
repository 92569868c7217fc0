"""The answer format of a model's chats: free text, or JSON (optionally following a schema).

The schema is checked as it is typed, with one sentence under it: at once for what a glance
finds (at most 100 KB, JSON, an object), and once typing pauses for the rest (a valid JSON
Schema within the app's budget: the core's check, which takes a second or more on a big schema,
so it runs on a worker and only the newest text's verdict is shown). Only a schema that passed
is stored (``ChatDefaults.json_schema``), so a half-typed one never reaches the model. Answers
that are a JSON object or array are shown as a JSON code block (:func:`json_as_code`).
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QTimer, Slot
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from app.chat import ModelSampling, check_schema
from app.core import SettingsStore
from pipelines.core import InvalidInputError
from ui.a11y import describe
from ui.chat.chat_presets import chat_defaults, save_chat
from ui.i18n import tr
from ui.icons import set_icon
from ui.shell.settings_changes import Report
from ui.task_state import Policy
from ui.tasks import TaskRunner
from ui.widgets.file_dialogs import FileKind, open_file
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox

MAX_SCHEMA_BYTES = 100_000
"""Largest schema stored (the settings field's own limit, in UTF-8 bytes here)."""


CHECK_DELAY_MS = 300
"""Typing pauses this long before the full check starts (a check per key would queue them)."""
SCHEMA_CHECK = "answer-format.schema-check"
"""The task kind of the full check as typed: a newer text's check replaces an older one's."""


def glance_problem(text: str) -> str | None:
    """What is wrong with ``text`` as the JSON answers' schema at a glance — too large, not
    JSON, not an object — in one sentence; "" for an empty text (any JSON object); None when
    it is a JSON object, for :func:`full_check_problem` to judge. Quick enough for each key."""
    if not text.strip():
        return ""
    if len(text.encode("utf-8", errors="replace")) > MAX_SCHEMA_BYTES:
        return tr("The schema is larger than 100 KB; use a smaller one.")
    try:
        schema = json.loads(text)
    except json.JSONDecodeError as error:
        return tr("The schema is not valid JSON (line {line}, column {column}).").format(
            line=error.lineno, column=error.colno
        )
    except RecursionError:
        return tr("The schema is nested too deeply.")
    if not isinstance(schema, dict):
        return tr('A schema is a JSON object, such as {"type": "object"}.')
    return None


def full_check_problem(text: str) -> tuple[str, str]:
    """``text`` and why it cannot be the answers' schema ("" if it can): the core's check
    (jsonschema, the app's budget, what OpenVINO GenAI's decoder refuses or ignores), the one
    the answer is generated under. Qt-free: it runs on a worker."""
    try:
        with warnings.catch_warnings():  # an unknown "$schema" falls back to the latest draft
            warnings.simplefilter("ignore", DeprecationWarning)
            check_schema(text)
    except InvalidInputError as error:
        return text, str(error)
    return text, ""


def schema_problem(text: str) -> str:
    """Why ``text`` cannot be the JSON answers' schema, in one sentence ("" if it can; an
    empty text means any JSON). Both checks in a row, as the box's verdict ends up."""
    glanced = glance_problem(text)
    return glanced if glanced is not None else full_check_problem(text)[1]


@dataclass(frozen=True)
class _Destination:
    """Where a schema goes once its full check passes: the preset edited when it was
    committed (the section may edit another model's by then)."""

    text: str
    model: str | None
    sampling: ModelSampling


def json_as_code(answer: str) -> str:
    """``answer`` as a fenced JSON block when the whole answer is a JSON object or array
    (a JSON-mode answer), else unchanged."""
    stripped = answer.strip()
    if not stripped.startswith(("{", "[")) or "```" in stripped:
        return answer
    try:
        json.loads(stripped)
    except (ValueError, RecursionError):
        return answer  # still streaming, or prose that starts with a bracket
    return f"```json\n{stripped}\n```"


class AnswerFormatSection(QWidget):
    """Text or JSON answers, and the optional schema of JSON ones, for the edited model."""

    def __init__(
        self,
        store: SettingsStore,
        report: Report,
        tasks: TaskRunner,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = store
        self._report = report
        self._tasks = tasks
        self._verdict: tuple[str, str] | None = None
        """The last full check: the text it judged and its problem ("" for none)."""
        self._waiting: list[_Destination] = []
        """Committed schemas waiting for their full checks, to be stored if they pass (one
        per model at most: a newer commit for a model replaces its older one)."""
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(CHECK_DELAY_MS)
        self._pause.timeout.connect(self._start_full_check)
        self._model: str | None = None
        self._sampling = ModelSampling()
        """What the edited model recommends (its preset starts from it)."""
        self._loading = False
        self.format = QComboBox()
        for text, value in ((tr("Text"), "text"), (tr("JSON"), "json")):
            self.format.addItem(text, value)
        describe(
            self.format,
            tr("Answer format"),
            tr("Free text, or JSON that a program can read"),
        )
        self.schema = QPlainTextEdit()
        self.schema.setTabChangesFocus(True)
        self.schema.setFixedHeight(84)
        self.schema.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.schema.setPlaceholderText(tr("Optional JSON schema; empty: any JSON object"))
        describe(
            self.schema,
            tr("JSON schema"),
            tr("The JSON Schema answers follow; leave it empty for any JSON object"),
            tooltip=False,
        )
        self.load_button = QPushButton(tr("Load from file…"))
        set_icon(self.load_button, "file-upload-outline")
        describe(self.load_button, tr("Load from file…"), tr("Read the JSON schema from a file"))
        self.error = InlineError()
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(tr("Answer format"), self.format)
        form.addRow(self.schema)
        form.addRow(self.error)
        form.addRow(hbox(self.load_button, 1))
        self._load()
        self.format.currentIndexChanged.connect(self._on_format)
        self.schema.textChanged.connect(self._on_text_changed)
        self.schema.installEventFilter(self)
        self.load_button.clicked.connect(self.load_file)

    def set_model(self, model: str | None, sampling: ModelSampling | None = None) -> None:
        """Edit ``model``'s preset (a preset key; None: the global defaults); ``sampling``:
        what the model recommends."""
        self.commit()
        self._model = model
        self._sampling = sampling or ModelSampling()
        self._load()

    def show_stored(self) -> None:
        """Show what is stored for the edited model (after its preset was reset)."""
        self._load()

    def commit(self) -> None:
        """Store the schema being edited once it is known to pass (also done when its box
        loses focus): at once when its full check has run, else when that check ends."""
        text = self.schema.toPlainText()
        # Whatever was committed for this model before is superseded by what is there now.
        self._waiting = [d for d in self._waiting if d.model != self._model]
        if text == chat_defaults(self._settings, self._model, self._sampling).json_schema:
            return
        glanced = glance_problem(text)
        if glanced is not None:
            if not glanced:
                self._save(json_schema=text)  # empty: any JSON object
            return
        destination = _Destination(text, self._model, self._sampling)
        if self._verdict is not None and self._verdict[0] == text:
            if not self._verdict[1]:
                self._store(destination)
            return
        self._waiting.append(destination)
        # Typing has ended: no pause. Its own task, which no later typing (in another
        # model's box, say) cancels before the schema reaches the preset it was meant for.
        self._check_now(None, Policy.PARALLEL)

    def pending_schema(self) -> str | None:
        """A schema committed for the edited model and still in its full check: an answer
        asked meanwhile follows it (the chat checks it again and refuses a bad one)."""
        for destination in self._waiting:
            if destination.model == self._model:
                return destination.text
        return None

    def checking(self) -> bool:
        """Whether the schema in the box is still waiting for its full check's verdict."""
        text = self.schema.toPlainText()
        return glance_problem(text) is None and (self._verdict is None or self._verdict[0] != text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Store the schema when its box loses focus."""
        if watched is self.schema and event.type() == QEvent.Type.FocusOut:
            self.commit()
        return False

    @Slot()
    def load_file(self) -> None:
        """Put a schema file's text in the box (checked and stored as typed text is)."""
        filters = tr("JSON schema (*.json);;All files (*)")
        path = open_file(self, tr("JSON schema"), FileKind.SCHEMAS, filters)
        if path is None:
            return
        try:
            if path.stat().st_size > MAX_SCHEMA_BYTES:
                self.error.show_message(tr("The schema is larger than 100 KB; use a smaller one."))
                return
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            self.error.show_message(tr("{name} is not a UTF-8 text file.").format(name=path.name))
            return
        except OSError as error:
            self.error.show_message(
                tr("Could not read {name}: {reason}").format(
                    name=path.name, reason=error.strerror or error
                )
            )
            return
        self.schema.setPlainText(text)  # the box keeps it, even when it is refused
        self.commit()

    @Slot()
    def _on_text_changed(self) -> None:
        """Say at once what a glance finds; leave the rest to a full check once typing
        pauses (the sentence shown stays until that check says otherwise)."""
        text = self.schema.toPlainText()
        glanced = glance_problem(text)
        if glanced is not None:
            self._pause.stop()
            self._tasks.cancel(SCHEMA_CHECK)
            self.error.show_message(glanced)
        elif self._verdict is not None and self._verdict[0] == text:
            self._pause.stop()
            self.error.show_message(self._verdict[1])
        else:
            self._pause.start()

    @Slot()
    def _start_full_check(self) -> None:
        """Check the text typed, once typing pauses: a newer text's check replaces it."""
        self._check_now(SCHEMA_CHECK, Policy.CANCEL_OLD)

    def _check_now(self, kind: str | None, policy: Policy) -> None:
        self._pause.stop()
        text = self.schema.toPlainText()
        if glance_problem(text) is None:
            self._tasks.start(
                full_check_problem, text, kind=kind, policy=policy, on_done=self._on_full_check
            )

    @Slot(object)
    def _on_full_check(self, verdict: tuple[str, str]) -> None:
        text, problem = verdict
        self._verdict = verdict
        judged = [d for d in self._waiting if d.text == text]
        self._waiting = [d for d in self._waiting if d.text != text]
        for destination in judged:
            if not problem:
                self._store(destination)
        if text == self.schema.toPlainText():
            self.error.show_message(problem)

    @Slot()
    def _on_format(self) -> None:
        self._sync_enabled()
        if self._loading:
            return
        self._save(answer_format=self.format.currentData())
        self.commit()  # the schema in the box goes with it, once it passes

    def _load(self) -> None:
        chat = chat_defaults(self._settings, self._model, self._sampling)
        self._loading = True
        self.format.setCurrentIndex(max(0, self.format.findData(chat.answer_format)))
        self.schema.setPlainText(chat.json_schema)
        self._loading = False
        self._sync_enabled()
        self.error.clear()

    def _sync_enabled(self) -> None:
        """The schema applies to JSON answers only."""
        self.schema.setEnabled(self.format.currentData() == "json")
        self.load_button.setEnabled(self.schema.isEnabled())

    def _save(self, **values: object) -> None:
        save_chat(self._settings, self._report, self._model, self._sampling, **values)

    def _store(self, destination: _Destination) -> None:
        """Store a schema that passed in the preset it was committed for."""
        save_chat(
            self._settings,
            self._report,
            destination.model,
            destination.sampling,
            json_schema=destination.text,
        )
