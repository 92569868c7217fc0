"""Generation settings bound to the saved chat defaults; the spin boxes enforce the bounds."""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QPushButton,
    QSpinBox,
    QWidget,
)

from app.settings import ChatDefaults
from app.settings_store import SettingsStore
from ui.settings_changes import Report, change_settings

SAMPLING_FIELDS = ("max_new_tokens", "temperature", "top_p", "top_k", "repetition_penalty")


class GenerationPanel(QGroupBox):
    """Edits the saved ``chat`` defaults through the settings store; emits ``changed``."""

    changed = Signal()

    def __init__(self, store: SettingsStore, report: Report, parent: QWidget | None = None) -> None:
        super().__init__("Generation", parent)
        self._settings = store
        self._report = report
        self._loading = False
        form = QFormLayout(self)
        self.max_new_tokens = QSpinBox(minimum=1, maximum=32_768, singleStep=64)
        self.temperature = QDoubleSpinBox(minimum=0.0, maximum=2.0, singleStep=0.1, decimals=2)
        self.top_p = QDoubleSpinBox(minimum=0.01, maximum=1.0, singleStep=0.05, decimals=2)
        self.top_k = QSpinBox(minimum=0, maximum=1000)
        self.repetition_penalty = QDoubleSpinBox(
            minimum=0.5, maximum=2.0, singleStep=0.05, decimals=2
        )
        # -1 shows as "random": a seed of None means a fresh sample every time.
        self.seed = QSpinBox(minimum=-1, maximum=2_147_483_647)
        self.seed.setSpecialValueText("random")
        self.reset_button = QPushButton("Reset to defaults")
        for name in SAMPLING_FIELDS:
            field = ChatDefaults.model_fields[name]
            getattr(self, name).setToolTip(field.description or "")
        self.seed.setToolTip("A fixed seed repeats the same sampled answer; random varies it.")
        form.addRow("Max new tokens", self.max_new_tokens)
        form.addRow("Temperature", self.temperature)
        form.addRow("Top-p", self.top_p)
        form.addRow("Top-k", self.top_k)
        form.addRow("Repetition penalty", self.repetition_penalty)
        form.addRow("Seed", self.seed)
        form.addRow(self.reset_button)
        self._load()
        for box in (self.max_new_tokens, self.top_k, self.seed):
            box.valueChanged.connect(self._store)
        for dbox in (self.temperature, self.top_p, self.repetition_penalty):
            dbox.valueChanged.connect(self._store)
        self.reset_button.clicked.connect(self.reset)

    @Slot()
    def reset(self) -> None:
        """Put every sampling value back to its default (the system prompt is kept)."""
        fresh = ChatDefaults()
        values = {name: getattr(fresh, name) for name in (*SAMPLING_FIELDS, "seed")}
        self._save(values)
        self._load()

    def _load(self) -> None:
        d = self._settings.settings.chat
        self._loading = True  # one save for a reset, not one per spin box
        self.max_new_tokens.setValue(d.max_new_tokens)
        self.temperature.setValue(d.temperature)
        self.top_p.setValue(d.top_p)
        self.top_k.setValue(d.top_k)
        self.repetition_penalty.setValue(d.repetition_penalty)
        self.seed.setValue(-1 if d.seed is None else d.seed)
        self._loading = False

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
        chat = self._settings.settings.chat.model_copy(update=values)
        if change_settings(self._settings, self._report, chat=chat):
            self.changed.emit()
        else:
            self._load()  # show what is still saved
