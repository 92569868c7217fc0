"""The Performance section's controls and their rows: the part the section's toggle folds.

:class:`PerformanceControls` is owned by :class:`ui.chat.performance_section.PerformanceSection`:
it builds each option as a row (the control, what it buys in grey, its error line), then
Apply/Revert, the reload's progress and Cancel, and the status line; it shows a
:class:`PerformanceSettings`, reads back what is shown, and says when the user edits an option.
The section decides what an edit means (store it, or offer a reload) and runs the reload.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.chat import (
    MAX_EVICTION_CACHE_TOKENS,
    MIN_EVICTION_CACHE_TOKENS,
    ParallelHardware,
    cpu_has_amx,
    offered_parallelism,
)
from app.core import PerformanceSettings
from ui.a11y import describe
from ui.chat.cache_exclusive import OneCacheAtATime
from ui.chat.draft_model_field import DraftModelField
from ui.chat.performance_rows import OptionRow, option_row
from ui.chat.performance_texts import explanation, no_amx_reason
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.inline_error import InlineError

CHECKS = (
    "prefix_caching",
    "cache_eviction",
    "prompt_lookup",
    "sparse_attention",
    "weight_sparsity",
)
"""The options that are a check box, by their settings name."""


class PerformanceControls(QWidget):
    """The engine options as rows, with Apply/Revert, the reload's progress and its status."""

    edited = Signal()  # the user changed an option (not emitted while stored ones are shown)

    def __init__(self, hardware: ParallelHardware, parent: QWidget | None = None) -> None:
        """``hardware``: the CPU sockets and GPUs here (splitting the model is offered only
        where there are two: ``offered_parallelism``)."""
        super().__init__(parent)
        self._showing = False  # True while stored options are put in the controls
        self.offered_parallelism = offered_parallelism(hardware)
        self._build_controls()
        self._build_layout()
        self.kv_cache_precision.currentIndexChanged.connect(self._on_edit)
        for name in CHECKS:
            self.check(name).toggled.connect(self._on_edit)
        self.eviction_cache_tokens.valueChanged.connect(self._on_edit)
        self.parallelism.currentIndexChanged.connect(self._on_edit)
        self.draft_model.edited.connect(self._on_edit)

    def _build_controls(self) -> None:
        self.kv_cache_precision = QComboBox()
        # As narrow as the settings column gets at 1024×700 (a long choice is elided there).
        self.kv_cache_precision.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.kv_cache_precision.setMinimumContentsLength(10)
        for text, value in (
            (tr("Default (u8 on this CPU)"), "default"),
            (tr("f16 (uncompressed)"), "f16"),
            (tr("u8"), "u8"),
            (tr("u4"), "u4"),
        ):
            self.kv_cache_precision.addItem(text, value)
        self.prefix_caching = QCheckBox(tr("Prefix caching"))
        self.cache_eviction = QCheckBox(tr("Bounded memory for long chats"))
        self.eviction_cache_tokens = QSpinBox(
            minimum=MIN_EVICTION_CACHE_TOKENS, maximum=MAX_EVICTION_CACHE_TOKENS, singleStep=512
        )
        self.eviction_cache_tokens.setSuffix(tr(" tokens"))
        self.prompt_lookup = QCheckBox(tr("Prompt lookup"))
        self.draft_model = DraftModelField()
        self.sparse_attention = QCheckBox(tr("Sparse attention for long prompts"))
        self.weight_sparsity = QCheckBox(tr("Weight sparsity"))
        self.parallelism = QComboBox()
        splits = (
            (tr("Off (one device)"), "off"),
            (tr("Across the CPU sockets"), "sockets"),
            (tr("Across the GPUs"), "gpus"),
        )
        for text, value in splits:
            if value == "off" or value in self.offered_parallelism:
                self.parallelism.addItem(text, value)
        # Bounded memory and prefix caching exclude each other: ticking one unticks the other.
        self.one_cache = OneCacheAtATime(self.prefix_caching, self.cache_eviction, self)
        self.has_amx = cpu_has_amx()
        self.weight_sparsity.setEnabled(self.has_amx)
        self.apply_button = QPushButton(tr("Apply (reloads the model)"))
        set_icon(self.apply_button, "check")
        self.revert_button = QPushButton(tr("Revert"))
        set_icon(self.revert_button, "undo")
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # a compile reports no steps: a busy bar
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton(tr("Cancel"))
        set_icon(self.cancel_button, "close")
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.error = InlineError()  # what no single option caused (device, memory)
        describe(
            self.kv_cache_precision,
            tr("KV-cache precision"),
            explanation("kv_cache_precision"),
        )
        describe(self.parallelism, tr("Split the model"), explanation("parallelism"))
        describe(
            self.eviction_cache_tokens,
            tr("Token budget"),
            tr("Tokens a conversation keeps in memory when bounded"),
        )
        describe(
            self.apply_button,
            tr("Apply (reloads the model)"),
            tr("Reload the model with these settings; it keeps its old ones if that fails"),
        )
        describe(self.revert_button, tr("Revert"), tr("Go back to the settings in use"))
        describe(self.cancel_button, tr("Cancel"), tr("Stop the reload; the model keeps running"))
        describe(self.progress, tr("Reloading the model"), tr("The model is being reloaded"))
        for name in CHECKS:
            box = self.check(name)
            text = no_amx_reason() if name == "weight_sparsity" and not self.has_amx else ""
            describe(box, box.text(), text or explanation(name))

    def _build_layout(self) -> None:
        rows: dict[str, OptionRow] = {}
        rows["kv_cache_precision"] = option_row(
            self.kv_cache_precision, explanation("kv_cache_precision"), tr("KV-cache precision")
        )
        rows["prefix_caching"] = option_row(self.prefix_caching, explanation("prefix_caching"))
        budget = QLabel(tr("Token budget"))
        budget.setBuddy(self.eviction_cache_tokens)
        rows["cache_eviction"] = option_row(
            self.cache_eviction,
            explanation("cache_eviction"),
            below=[budget, self.eviction_cache_tokens],
        )
        rows["prompt_lookup"] = option_row(self.prompt_lookup, explanation("prompt_lookup"))
        rows["draft_model"] = option_row(
            self.draft_model, explanation("draft_model"), tr("Draft model")
        )
        rows["sparse_attention"] = option_row(
            self.sparse_attention, explanation("sparse_attention")
        )
        sparsity = explanation("weight_sparsity") if self.has_amx else no_amx_reason()
        rows["weight_sparsity"] = option_row(self.weight_sparsity, sparsity)
        rows["parallelism"] = option_row(
            self.parallelism, explanation("parallelism"), tr("Split the model")
        )
        # Only a machine with two CPU sockets or two GPUs can split a model: elsewhere the
        # setting is not shown at all.
        rows["parallelism"].setVisible(bool(self.offered_parallelism))
        self.rows = rows
        self.errors: dict[str, InlineError] = {name: row.error for name, row in rows.items()}
        self.errors["eviction_cache_tokens"] = rows["cache_eviction"].error
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        for name, row in rows.items():
            column.addWidget(row)
            if name == "cache_eviction":  # why one of the two caches was unticked
                column.addWidget(self.one_cache.note)
        self.apply_row = QWidget()
        buttons = QHBoxLayout(self.apply_row)
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.revert_button)
        buttons.addStretch(1)
        self.reload_row = QWidget()
        reload = QHBoxLayout(self.reload_row)
        reload.setContentsMargins(0, 0, 0, 0)
        reload.addWidget(self.progress, 1)
        reload.addWidget(self.cancel_button)
        self.status.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        for widget in (self.apply_row, self.reload_row, self.status, self.error):
            column.addWidget(widget)
        self.apply_row.hide()
        self.reload_row.hide()
        self.status.hide()

    # ----- what the section asks of its controls -----------------------------------------

    def check(self, name: str) -> QCheckBox:
        """The check box of the option ``name`` (one of :data:`CHECKS`)."""
        box: QCheckBox = getattr(self, name)
        return box

    def show_options(self, options: PerformanceSettings) -> None:
        """Put ``options`` in the controls (no :attr:`edited`, no note); Apply hides."""
        self._showing = True
        self.one_cache.quiet = True
        self.kv_cache_precision.setCurrentIndex(
            max(0, self.kv_cache_precision.findData(options.kv_cache_precision))
        )
        for name in CHECKS:
            self.check(name).setChecked(getattr(options, name))
        self.eviction_cache_tokens.setValue(options.eviction_cache_tokens)
        self.draft_model.set_text(str(options.draft_model) if options.draft_model else "")
        self.parallelism.setCurrentIndex(max(0, self.parallelism.findData(options.parallelism)))
        self._showing = False
        self.one_cache.quiet = False
        self.eviction_cache_tokens.setEnabled(options.cache_eviction)
        self.apply_row.hide()

    def values(self) -> dict[str, Any]:
        """What the controls show, by settings name (the draft model as typed)."""
        return {
            "kv_cache_precision": self.kv_cache_precision.currentData(),
            **{name: self.check(name).isChecked() for name in CHECKS},
            "eviction_cache_tokens": self.eviction_cache_tokens.value(),
            "draft_model": self.draft_model.text(),
            "parallelism": self.parallelism.currentData(),
        }

    def set_default_precision(self, gpu: bool) -> None:
        """Name the default KV-cache precision of the device: u8 on the CPU, f16 on the GPU."""
        default = tr("Default (f16 on the GPU)") if gpu else tr("Default (u8 on this CPU)")
        self.kv_cache_precision.setItemText(0, default)

    def error_line(self, field: str | None) -> InlineError:
        """The line under the option ``field`` names; the section's own line for any other."""
        return self.errors.get(field or "", self.error)

    def clear_errors(self) -> None:
        """No refusal shown."""
        for line in {*self.errors.values(), self.error}:
            line.clear()

    def forget_note(self) -> None:
        """The controls show other settings: the note on why a cache was unticked goes."""
        self.one_cache.clear()

    def rows_enabled(self, enabled: bool) -> None:
        """Enable or disable the option rows (weight sparsity stays off without AMX)."""
        for row in self.rows.values():
            row.setEnabled(enabled)
        self.weight_sparsity.setEnabled(enabled and self.has_amx)

    def set_reloading(self, reloading: bool) -> None:
        """Show the reload's progress and Cancel (the rows locked), or the rows again."""
        self.rows_enabled(not reloading)
        self.apply_row.setVisible(False if reloading else self.apply_row.isVisible())
        self.reload_row.setVisible(reloading)
        self.cancel_button.setEnabled(True)
        self.status.setText(tr("Reloading the model with the new settings…"))
        self.status.setVisible(reloading)

    def show_stopping(self) -> None:
        """Cancel was pressed: the reload is being stopped."""
        self.cancel_button.setEnabled(False)
        self.status.setText(tr("Stopping: the model keeps its previous settings…"))

    def widest(self) -> int:
        """The width the rows need (Apply and Revert included, shown or not)."""
        rows = [*self.rows.values(), self.apply_row, self.reload_row]
        return max(row.minimumSizeHint().width() for row in rows)

    @Slot()
    def _on_edit(self) -> None:
        self.eviction_cache_tokens.setEnabled(self.cache_eviction.isChecked())
        if not self._showing:
            self.edited.emit()
