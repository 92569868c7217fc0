"""The Performance section's controls and their rows: built here, wired by the section.

Mixed into :class:`ui.chat.performance_section.PerformanceSection`; each option is a row (the
control, what it buys in grey, its error line), then Apply/Revert, the reload's progress and
Cancel, and the status line.
"""

from __future__ import annotations

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

from app.chat import MAX_EVICTION_CACHE_TOKENS, MIN_EVICTION_CACHE_TOKENS, cpu_has_amx
from ui.a11y import describe
from ui.chat.cache_exclusive import OneCacheAtATime
from ui.chat.draft_model_field import DraftModelField
from ui.chat.performance_rows import OptionRow, option_row
from ui.chat.performance_texts import explanation, no_amx_reason
from ui.i18n import tr
from ui.icons import set_icon
from ui.inline_error import InlineError

CHECKS = (
    "prefix_caching",
    "cache_eviction",
    "prompt_lookup",
    "sparse_attention",
    "weight_sparsity",
)
"""The options that are a check box, by their settings name."""


class PerformanceControls:
    """Builds the section's controls into ``body`` (the part the toggle folds)."""

    body: QWidget

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
        # Bounded memory and prefix caching exclude each other: ticking one unticks the other.
        self.one_cache = OneCacheAtATime(self.prefix_caching, self.cache_eviction, self.body)
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
            box: QCheckBox = getattr(self, name)
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
        self.rows = rows
        self.errors: dict[str, InlineError] = {name: row.error for name, row in rows.items()}
        self.errors["eviction_cache_tokens"] = rows["cache_eviction"].error
        column = QVBoxLayout(self.body)
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
