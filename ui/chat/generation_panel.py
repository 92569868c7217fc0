"""Generation settings bound to the saved chat defaults; the spin boxes enforce the bounds."""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QGroupBox, QSpinBox, QWidget

from app.settings import ChatDefaults


class GenerationPanel(QGroupBox):
    """Edits ``ChatDefaults`` in place and emits ``changed`` so the owner can save."""

    changed = Signal()

    def __init__(self, defaults: ChatDefaults, parent: QWidget | None = None) -> None:
        super().__init__("Generation", parent)
        self._defaults = defaults
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
        self.temperature.setToolTip("0 answers greedily (the same every time).")
        self.top_k.setToolTip("0 turns top-k off.")
        form.addRow("Max new tokens", self.max_new_tokens)
        form.addRow("Temperature", self.temperature)
        form.addRow("Top-p", self.top_p)
        form.addRow("Top-k", self.top_k)
        form.addRow("Repetition penalty", self.repetition_penalty)
        form.addRow("Seed", self.seed)
        self._load()
        for box in (self.max_new_tokens, self.top_k, self.seed):
            box.valueChanged.connect(self._store)
        for dbox in (self.temperature, self.top_p, self.repetition_penalty):
            dbox.valueChanged.connect(self._store)

    def _load(self) -> None:
        d = self._defaults
        self.max_new_tokens.setValue(d.max_new_tokens)
        self.temperature.setValue(d.temperature)
        self.top_p.setValue(d.top_p)
        self.top_k.setValue(d.top_k)
        self.repetition_penalty.setValue(d.repetition_penalty)
        self.seed.setValue(-1 if d.seed is None else d.seed)

    @Slot()
    def _store(self) -> None:
        d = self._defaults
        d.max_new_tokens = self.max_new_tokens.value()
        d.temperature = round(self.temperature.value(), 2)
        d.top_p = round(self.top_p.value(), 2)
        d.top_k = self.top_k.value()
        d.repetition_penalty = round(self.repetition_penalty.value(), 2)
        d.seed = None if self.seed.value() < 0 else self.seed.value()
        self.changed.emit()
