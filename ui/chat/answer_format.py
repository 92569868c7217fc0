"""The answer format of a model's chats: free text, or JSON (optionally following a schema).

The schema is checked as it is typed — JSON, an object, a valid JSON Schema, at most 100 KB —
with one sentence under it; only a schema that passes is stored (``ChatDefaults.json_schema``),
so a half-typed one never reaches the model. Answers that are a JSON object or array are shown
as a JSON code block (:func:`json_as_code`).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Signal, Slot
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from app.settings_store import SettingsStore
from app.structured import check_schema
from pipelines.core import InvalidInputError
from pipelines.model_sampling import ModelSampling
from ui.a11y import describe
from ui.chat.chat_presets import chat_defaults, save_chat
from ui.i18n import tr
from ui.icons import set_icon
from ui.inline_error import InlineError
from ui.layouts import hbox
from ui.settings_changes import Report

MAX_SCHEMA_BYTES = 100_000
"""Largest schema stored (the settings field's own limit, in UTF-8 bytes here)."""


def schema_problem(text: str) -> str:
    """Why ``text`` cannot be the JSON answers' schema, in one sentence ("" if it can; an
    empty text means any JSON)."""
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
    # The rest is the core's check (jsonschema, and what OpenVINO GenAI's decoder refuses or
    # ignores), the one the answer is generated under; its sentence stays English for now.
    try:
        with warnings.catch_warnings():  # an unknown "$schema" falls back to the latest draft
            warnings.simplefilter("ignore", DeprecationWarning)
            check_schema(text)
    except InvalidInputError as error:
        return str(error)
    return ""


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

    changed = Signal()

    def __init__(self, store: SettingsStore, report: Report, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = store
        self._report = report
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
        self.schema.textChanged.connect(self._check)
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
        """Store the schema being edited if it is valid (also done when its box loses focus)."""
        text = self.schema.toPlainText()
        if (
            text != chat_defaults(self._settings, self._model, self._sampling).json_schema
            and not self._check()
        ):
            self._save(json_schema=text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Store the schema when its box loses focus."""
        if watched is self.schema and event.type() == QEvent.Type.FocusOut:
            self.commit()
        return False

    @Slot()
    def load_file(self) -> None:
        """Put a schema file's text in the box (checked and stored as typed text is)."""
        name, _ = QFileDialog.getOpenFileName(
            self, tr("JSON schema"), "", tr("JSON schema (*.json);;All files (*)")
        )
        if not name:
            return
        path = Path(name)
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
    def _check(self) -> str:
        """Show why the schema in the box cannot be used (nothing when it can)."""
        problem = schema_problem(self.schema.toPlainText())
        self.error.show_message(problem)
        return problem

    @Slot()
    def _on_format(self) -> None:
        self._sync_enabled()
        if self._loading:
            return
        values: dict[str, object] = {"answer_format": self.format.currentData()}
        if not self._check():
            values["json_schema"] = self.schema.toPlainText()
        self._save(**values)

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
        if save_chat(self._settings, self._report, self._model, self._sampling, **values):
            self.changed.emit()
