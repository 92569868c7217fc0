"""Generation settings of the loaded model (its preset) or, with none loaded, the global chat
defaults; the spin boxes enforce the bounds, and the answer's length the model's context.

Below the sampling values: the answer format (:mod:`ui.chat.answer_format`) and the fold-out
Performance section (:mod:`ui.chat.performance_section`), scoped to the same preset."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.chat import ChatService, GenerationSettings, ModelSampling, max_answer_tokens
from app.core import ChatDefaults, SettingsStore, preset_key
from ui.a11y import describe
from ui.chat.answer_format import AnswerFormatSection
from ui.chat.chat_presets import prompt_in_language, prompt_to_store
from ui.chat.performance_section import PerformanceSection
from ui.i18n import tr
from ui.icons import set_icon
from ui.shell.settings_changes import Report, change_settings
from ui.tasks import TaskRunner

SAMPLING_FIELDS = ("max_new_tokens", "temperature", "top_p", "top_k", "repetition_penalty")
MAX_NEW_TOKENS = 32_768


class GenerationPanel(QGroupBox):
    """Edits the chat defaults of one model (or the global ones) through the settings store.

    A model's settings are kept apart (``Settings.chat_presets``) from its first change on;
    until then, and after *Reset to defaults*, it uses the global ``chat`` defaults.
    A stored change is announced by the settings themselves (``ui.settings_signals``).
    """

    wantsWidth = Signal(bool)
    """Its rows grew wider (the Performance section unfolded); True while it is shown."""

    def __init__(
        self,
        store: SettingsStore,
        report: Report,
        service: ChatService,
        tasks: TaskRunner,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(tr("Generation"), parent)
        self.show_action = QAction(tr("Generation settings"), self)
        """Shows this panel beside the chat (in the chat's options menu); hidden at first."""
        self.show_action.setCheckable(True)
        set_icon(self.show_action, "tune-variant")
        self.show_action.setToolTip(
            tr("Max new tokens, temperature, top-p, top-k, seed and the system prompt, per model")
        )
        self.hide()
        self._settings = store
        self._report = report
        self._service = service
        self._loading = False
        self._model: str | None = None  # preset key of the loaded model
        self._sampling = ModelSampling()  # what the loaded model recommends
        self.answer_format = AnswerFormatSection(store, report, tasks)
        self.performance = PerformanceSection(store, report, service, tasks)
        # The sections make the panel taller than a small window: it scrolls, never clips.
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        # The rows wrap their texts to the column's width: never a sideways scroll bar.
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content = self.content = QWidget()
        self.scroller.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addWidget(self.scroller)
        column = QVBoxLayout(content)
        form = QFormLayout()
        # A field goes under its label when both do not fit side by side (a narrow column).
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        column.addLayout(form)
        column.addWidget(self.answer_format)
        column.addWidget(self.performance)
        column.addStretch(1)  # the rows stay together at the top, however tall the panel
        self.scope = QLabel()
        self.scope.setWordWrap(True)
        self.max_new_tokens = QSpinBox(minimum=1, maximum=MAX_NEW_TOKENS, singleStep=64)
        self.temperature = QDoubleSpinBox(minimum=0.0, maximum=2.0, singleStep=0.1, decimals=2)
        self.top_p = QDoubleSpinBox(minimum=0.01, maximum=1.0, singleStep=0.05, decimals=2)
        self.top_k = QSpinBox(minimum=0, maximum=1000)
        self.repetition_penalty = QDoubleSpinBox(
            minimum=0.5, maximum=2.0, singleStep=0.05, decimals=2
        )
        # -1 shows as "random": a seed of None means a fresh sample every time.
        self.seed = QSpinBox(minimum=-1, maximum=2_147_483_647)
        self.seed.setSpecialValueText(tr("random", "seed"))
        self.system_prompt = QPlainTextEdit()
        self.system_prompt.setTabChangesFocus(True)
        self.system_prompt.setFixedHeight(72)
        self.reset_button = QPushButton(tr("Reset to defaults"))
        set_icon(self.reset_button, "restore")
        rows = (
            (tr("Max new tokens"), self.max_new_tokens, tr("Longest answer, in tokens.")),
            (tr("Temperature"), self.temperature, tr("0 = greedy, higher = varied.")),
            (tr("Top-p"), self.top_p, tr("Nucleus sampling mass.")),
            (tr("Top-k"), self.top_k, tr("Sample among the k likeliest; 0 = off.")),
            (
                tr("Repetition penalty"),
                self.repetition_penalty,
                tr(
                    "1 = off. Above 1 penalises every word already in the chat, the question "
                    "included: long answers of small models then break into glued words."
                ),
            ),
            (
                tr("Seed"),
                self.seed,
                tr("A fixed seed repeats the same sampled answer; random varies it."),
            ),
        )
        form.addRow(self.scope)
        for label, box, description in rows:
            describe(box, label, description)
            form.addRow(label, box)
        prompt_title = QLabel(tr("System prompt for new chats"))
        prompt_title.setWordWrap(True)
        form.addRow(prompt_title)
        form.addRow(self.system_prompt)
        describe(
            self.system_prompt,
            tr("System prompt for new chats"),
            tr("The instructions new conversations with this model start from"),
        )
        describe(
            self.reset_button,
            tr("Reset to defaults"),
            tr("Forget this model's own settings and use the defaults again"),
        )
        form.addRow(self.reset_button)
        self._load()
        for box in (self.max_new_tokens, self.top_k, self.seed):
            box.valueChanged.connect(self._store)
        for dbox in (self.temperature, self.top_p, self.repetition_penalty):
            dbox.valueChanged.connect(self._store)
        self.system_prompt.installEventFilter(self)
        self.reset_button.clicked.connect(self.reset)
        self.performance.toggle.toggled.connect(self._on_unfold)

    def turn_settings(self) -> GenerationSettings:
        """The settings the next answer is written with: the loaded model's (its preset, else
        the defaults), the answer's length clamped to its context; a JSON schema committed a
        moment ago is used while its check in the settings runs (the answer is checked under
        it anyway)."""
        settings = self._service.generation_for(self._settings.settings)
        pending = self.answer_format.pending_schema()
        if pending is not None and settings.json_schema is not None:
            settings = replace(settings, json_schema=pending)
        return settings

    def sizeHint(self) -> QSize:
        """As wide as the widest row (the chat panel opens it at this width when there is
        room; with less, the rows wrap their texts to the width they get)."""
        hint = super().sizeHint()
        content = self.content.minimumSizeHint().width()
        content = max(content, self.performance.widest())
        bar = self.scroller.verticalScrollBar().sizeHint().width()
        margins = self.contentsMargins()
        wanted = content + bar + margins.left() + margins.right() + 32  # frame and title
        return QSize(max(hint.width(), wanted), hint.height())

    @Slot()
    def _on_unfold(self) -> None:
        self.wantsWidth.emit(self.isVisible())

    def set_model(
        self,
        model: object | None,
        context_tokens: int | None,
        sampling: ModelSampling | None = None,
    ) -> None:
        """Edit the preset of ``model`` (a path or remote id; None: the global defaults) and
        bound the answer's length by its context (see ``max_answer_tokens``). ``sampling``:
        what the model recommends, in effect until it has a preset (which starts from it)."""
        self.commit()  # an edit of the previous model's prompt is kept
        self._model = None if model is None else preset_key(str(model))
        self._sampling = sampling or ModelSampling()
        ceiling = MAX_NEW_TOKENS if not context_tokens else max_answer_tokens(context_tokens)
        self._loading = True  # a lower maximum clamps the value shown, not the one stored
        self.max_new_tokens.setMaximum(min(ceiling, MAX_NEW_TOKENS))
        self._loading = False
        self._load()
        self.answer_format.set_model(self._model, self._sampling)
        self.performance.set_model(self._model, self._sampling)

    def current(self) -> ChatDefaults:
        """The defaults in effect for the model being edited (its recommendation included)."""
        return self._settings.settings.chat_for(self._model, self._sampling)

    @Slot()
    def reset(self) -> None:
        """A model: forget its preset (the global defaults apply again). No model: put every
        sampling value back to the factory default (the system prompt is kept)."""
        if self._model is not None:
            presets = dict(self._settings.settings.chat_presets)
            dropped = presets.pop(self._model, None) is not None
            if dropped:
                change_settings(self._settings, self._report, chat_presets=presets)
            self._load()
            self.answer_format.show_stored()
            self.performance.set_model(self._model, self._sampling)
            return
        fresh = ChatDefaults()
        values = {name: getattr(fresh, name) for name in (*SAMPLING_FIELDS, "seed")}
        self._save(values)
        self._load()

    def commit(self) -> None:
        """Store the system prompt being edited (it is also stored when the box loses focus)."""
        written = prompt_to_store(self.system_prompt.toPlainText())
        if written != self.current().system_prompt:
            self._save({"system_prompt": written})
        self.answer_format.commit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Store the system prompt when its box loses focus."""
        if watched is self.system_prompt and event.type() == QEvent.Type.FocusOut:
            self.commit()
        return False

    def _load(self) -> None:
        d = self.current()
        self._loading = True  # one save for a reset, not one per spin box
        self.max_new_tokens.setValue(d.max_new_tokens)
        self.temperature.setValue(d.temperature)
        self.top_p.setValue(d.top_p)
        self.top_k.setValue(d.top_k)
        self.repetition_penalty.setValue(d.repetition_penalty)
        self.seed.setValue(-1 if d.seed is None else d.seed)
        self.system_prompt.setPlainText(prompt_in_language(d.system_prompt))
        self._loading = False
        own = self._model is not None and self._model in self._settings.settings.chat_presets
        if self._model is None:
            self.scope.setText(tr("Defaults for every model"))
        elif own:
            self.scope.setText(tr("This model's own settings"))
        elif self._sampling.values():
            self.scope.setText(
                tr(
                    "Defaults, with the sampling this model recommends (it has no settings of "
                    "its own yet)"
                )
            )
        else:
            self.scope.setText(tr("Defaults (this model has no settings of its own yet)"))
        self.reset_button.setEnabled(self._model is None or own)

    @Slot()
    def _store(self) -> None:
        if self._loading:
            return
        self._save(
            {
                "max_new_tokens": self.max_new_tokens.value(),
                "temperature": round(self.temperature.value(), 2),
                "top_p": round(self.top_p.value(), 2),
                "top_k": self.top_k.value(),
                "repetition_penalty": round(self.repetition_penalty.value(), 2),
                "seed": None if self.seed.value() < 0 else self.seed.value(),
            }
        )

    def _save(self, values: dict[str, object]) -> None:
        current = self.current()
        ceiling = self.max_new_tokens.maximum()
        # The box shows a clamped value; a larger stored one stays unless the user changed it
        # (another model, with a longer context, may use it).
        if values.get("max_new_tokens") == ceiling < current.max_new_tokens:
            values["max_new_tokens"] = current.max_new_tokens
        chat = current.model_copy(update=values)
        if self._model is None:
            change_settings(self._settings, self._report, chat=chat)
        else:
            presets = {**self._settings.settings.chat_presets, self._model: chat}
            change_settings(self._settings, self._report, chat_presets=presets)
        self._load()  # show what is saved (and whose settings these are now)
