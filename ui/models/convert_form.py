"""The Convert view's form: its fields, one inline message under each, and the run row.

Only building and laying out; :class:`~ui.models.convert_view.ConvertView` gives it behaviour.
Captions name what the window calls each field ("Weight format", "Group size"): conversion
errors are reworded to the same names (:mod:`ui.models.convert_wording`).
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.models import DEFAULT_VOCODER
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.models.convert_tasks import TaskChoice
from ui.models.toolchain_offer import ToolchainOffer
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.widgets.inline_error import InlineError


def _field(content: QWidget | QLayout, *notes: QLabel) -> QWidget:
    """``content`` with its messages right under it, as one form row."""
    box = QWidget()
    column = QVBoxLayout(box)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(2)
    if isinstance(content, QLayout):
        column.addLayout(content)
    else:
        column.addWidget(content)
    for note in notes:
        column.addWidget(note)
    return box


class ConvertForm(QWidget):
    """The Convert view's fields, their inline messages and the run row, laid out."""

    choices: list[TaskChoice]
    toolchain_offer: ToolchainOffer

    def _make_inputs(self) -> None:
        """Source, task, weights, compression options, vocoder and name."""
        self.source = QLineEdit()
        describe(self.source, tr("Checkpoint"), tr("A checkpoint folder or file, or a hub id"))
        self.browse_button = QPushButton(tr("Folder…"))
        set_icon(self.browse_button, "folder-open")
        describe(
            self.browse_button, tr("Choose checkpoint folder"), tr("Choose a checkpoint folder")
        )
        self.file_button = QPushButton(tr("File…"))
        set_icon(self.file_button, "file-outline")
        describe(
            self.file_button,
            tr("Choose checkpoint file"),
            tr("Choose a checkpoint file (.pth, .pt, .ckpt)"),
        )
        self.task = QComboBox()
        for choice in self.choices:
            self.task.addItem(choice.label, choice.key)
        describe(self.task, tr("Task"), tr("What the model does (detected from config.json)"))
        self.licence_note = InlineError(warning=True)
        self.weights = QComboBox()
        describe(self.weights, tr("Weight format"), tr("How the weights are compressed"))
        self.group_size = QSpinBox()
        self.group_size.setRange(0, 1024)
        self.group_size.setSpecialValueText(tr("default"))
        describe(self.group_size, tr("Group size"), tr("INT4: weights per scale (default: 128)"))
        self.ratio = QDoubleSpinBox()
        self.ratio.setRange(0.0, 1.0)
        self.ratio.setSingleStep(0.1)
        self.ratio.setSpecialValueText(tr("default"))
        describe(self.ratio, tr("Ratio"), tr("INT4: the share of layers in INT4 (the rest INT8)"))
        for spin in (self.group_size, self.ratio):
            # The walker counts a spin box's own line edit as a control of its own.
            inner = spin.findChild(QLineEdit)
            if inner is not None:
                describe(inner, spin.accessibleName(), spin.accessibleDescription())
        self.sym = QCheckBox(tr("Symmetric"))
        describe(self.sym, tr("Symmetric"), tr("INT4: symmetric quantization"))
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.vocoder = QLineEdit(DEFAULT_VOCODER)
        describe(
            self.vocoder,
            tr("Vocoder"),
            tr(
                "The vocoder turns SpeechT5's spectrograms into sound: a checkpoint folder or a "
                "hub id (default {vocoder})"
            ).format(vocoder=DEFAULT_VOCODER),
        )
        self.vocoder_button = QPushButton(tr("Folder…"))
        set_icon(self.vocoder_button, "folder-open")
        describe(
            self.vocoder_button,
            tr("Choose vocoder folder"),
            tr("Choose a vocoder checkpoint folder"),
        )
        self.name = QLineEdit()
        self.name.setPlaceholderText(tr("default: <checkpoint>-<weights>-ov"))
        describe(
            self.name, tr("Install as"), tr("The installed model's id (letters, digits, . _ -)")
        )

    def _make_errors(self, notifications: NotificationBar) -> None:
        """One inline label per field, and the router that finds them."""
        self.source_error = InlineError()
        self.task_error = InlineError()
        self.weights_error = InlineError()
        self.options_error = InlineError()
        self.vocoder_error = InlineError()
        self.name_error = InlineError()
        self.error = InlineError()
        self.errors = ErrorRouter(
            notifications,
            {
                "source": self.source_error,
                "task": self.task_error,
                "weights": self.weights_error,
                "group_size": self.options_error,
                "ratio": self.options_error,
                "vocoder": self.vocoder_error,
                "name": self.name_error,
                "convert": self.error,
            },
        )

    def _make_run_row(self) -> None:
        """Convert, Cancel, the progress bar and the status line."""
        self.convert_button = QPushButton(tr("Convert"))
        set_icon(self.convert_button, "cog-transfer-outline")
        describe(self.convert_button, tr("Convert"), tr("Convert the checkpoint and install it"))
        self.cancel_button = QPushButton(tr("Cancel"))
        set_icon(self.cancel_button, "stop")
        describe(
            self.cancel_button, tr("Cancel conversion"), tr("Stop; the partial output is removed")
        )
        self.cancel_button.hide()
        self.progress = QProgressBar()
        describe(self.progress, tr("Conversion progress"))
        policy = self.progress.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # Convert keeps its size, not the bar's too
        self.progress.setSizePolicy(policy)
        self.progress.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)

    def _layout(self) -> None:
        source_row = QHBoxLayout()
        source_row.addWidget(self.source, 1)
        source_row.addWidget(self.browse_button)
        source_row.addWidget(self.file_button)
        options = QHBoxLayout()
        group_caption, ratio_caption = QLabel(tr("Group size")), QLabel(tr("Ratio"))
        group_caption.setBuddy(self.group_size)
        ratio_caption.setBuddy(self.ratio)
        options.addWidget(group_caption)
        options.addWidget(self.group_size)
        options.addWidget(ratio_caption)
        options.addWidget(self.ratio)
        options.addWidget(self.sym)
        options.addStretch(1)
        vocoder_row = QHBoxLayout()
        vocoder_row.addWidget(self.vocoder, 1)
        vocoder_row.addWidget(self.vocoder_button)
        self.options_row = _field(options, self.options_error)
        self.vocoder_row = _field(vocoder_row, self.vocoder_error)
        rows = [
            (tr("Checkpoint:"), _field(source_row, self.source_error)),
            (tr("Task:"), _field(self.task, self.licence_note, self.task_error)),
            (tr("Weight format:"), _field(self.weights, self.hint, self.weights_error)),
            (tr("INT4 options:"), self.options_row),
            (tr("Vocoder:"), self.vocoder_row),
            (tr("Install as:"), _field(self.name, self.name_error)),
        ]
        captions = [QLabel(text) for text, _ in rows]
        # All as wide as the widest: the fields stay put when a task hides some rows.
        width = max(caption.sizeHint().width() for caption in captions)
        self.form = QFormLayout()
        for caption, (_, field) in zip(captions, rows, strict=True):
            caption.setMinimumWidth(width)
            self.form.addRow(caption, field)
        actions = QHBoxLayout()
        actions.addWidget(self.convert_button)
        actions.addWidget(self.cancel_button)
        actions.addWidget(self.progress, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.toolchain_offer)
        layout.addLayout(self.form)
        layout.addWidget(self.error)
        layout.addLayout(actions)
        layout.addWidget(self.status)
        layout.addStretch(1)
