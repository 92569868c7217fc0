"""What a picture is drawn with: the prompt, the negative prompt, the size, steps, guidance,
count, seed and (for edits) strength.

Steps, guidance and strength start at "Model's own" (the spin box's lowest value): the model's
own defaults are only known once it is loaded, and the result's caption says what was used.
The seed is random unless one is typed or the last one is reused; it is a text field because a
seed is a 64-bit number, more than a spin box holds. Sizes are presets made from the model's
own size, rounded to what it draws, with a note saying so.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from app.core import UserError
from app.images import DiffusionFolder, ImageRequest, Recalled
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox

MAX_STEPS = 150
MAX_GUIDANCE = 30.0
MAX_COUNT = 8
MAX_SEED_DIGITS = 19
LONG_SIDE = 1.5
"""Portrait and landscape presets are 2:3 and 3:2."""
SIZE_ROLE = Qt.ItemDataRole.UserRole


def size_presets(facts: DiffusionFolder) -> list[tuple[str, int, int]]:
    """Square, portrait and landscape at the model's own size, rounded to what it draws."""
    side, step = facts.default_side, facts.size_step
    long = max(step, round(side * LONG_SIDE / step) * step)
    return [
        (tr("Square"), side, side),
        (tr("Portrait"), side, long),
        (tr("Landscape"), long, side),
    ]


def size_key(width: int, height: int) -> str:
    """A size as the size list keeps it ("512x768")."""
    return f"{width}x{height}"


def parse_size(key: object) -> tuple[int | None, int | None]:
    """The width and height of a :func:`size_key` (None, None: the model's own)."""
    if isinstance(key, str) and "x" in key:
        width, height = key.split("x", 1)
        return int(width), int(height)
    return None, None


class PromptForm(QWidget):
    """The controls of a picture's settings; :meth:`request` reads them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prompt = QPlainTextEdit()
        self.prompt.setPlaceholderText(tr("What the picture should show"))
        self.prompt.setTabChangesFocus(True)
        self.prompt.setFixedHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        describe(
            self.prompt, tr("Prompt"), tr("What the picture should show (Ctrl+Enter draws it)")
        )
        self.prompt_error = InlineError()
        self.negative = QPlainTextEdit()
        self.negative.setPlaceholderText(tr("What the picture should not show (optional)"))
        self.negative.setTabChangesFocus(True)
        self.negative.setFixedHeight(self.fontMetrics().lineSpacing() * 2 + 12)
        describe(self.negative, tr("Negative prompt"), tr("What the picture should not show"))
        self.negative_note = QLabel()
        self.negative_note.setWordWrap(True)
        self.negative_note.hide()
        self.size_choice = QComboBox()
        describe(self.size_choice, tr("Size"), tr("The picture's shape, at the model's own size"))
        self.size_note = QLabel()
        self.size_note.setWordWrap(True)
        self.steps = QSpinBox()
        self.steps.setRange(0, MAX_STEPS)
        self.steps.setSpecialValueText(tr("Model's own"))
        describe(self.steps, tr("Steps"), tr("Denoising steps: more is slower, often finer"))
        self.guidance = QDoubleSpinBox()
        self.guidance.setRange(0.0, MAX_GUIDANCE)
        self.guidance.setSingleStep(0.5)
        self.guidance.setDecimals(1)
        self.guidance.setSpecialValueText(tr("Model's own"))
        describe(self.guidance, tr("Guidance"), tr("How closely the picture follows the prompt"))
        self.count = QSpinBox()
        self.count.setRange(1, MAX_COUNT)
        describe(self.count, tr("Number of pictures"), tr("How many pictures one Generate makes"))
        self.strength = QDoubleSpinBox()
        self.strength.setRange(0.0, 1.0)
        self.strength.setSingleStep(0.05)
        self.strength.setDecimals(2)
        self.strength.setSpecialValueText(tr("Model's own"))
        describe(
            self.strength,
            tr("Strength"),
            tr("How much an edit changes the picture (1 repaints completely)"),
        )
        self.seed = QLineEdit()
        self.seed.setPlaceholderText(tr("Random"))
        self.seed.setValidator(QRegularExpressionValidator(rf"\d{{0,{MAX_SEED_DIGITS}}}"))
        describe(self.seed, tr("Seed"), tr("The same seed and settings draw the same picture"))
        self.random_button = QPushButton(tr("Random"))
        set_icon(self.random_button, "dice-multiple-outline")
        describe(self.random_button, tr("Random seed"), tr("Draw a new seed for every picture"))
        self.reuse_button = QPushButton(tr("Reuse"))
        set_icon(self.reuse_button, "recycle")
        describe(self.reuse_button, tr("Reuse the last seed"), tr("Draw again with the last seed"))
        self.reuse_button.setEnabled(False)
        self.last_seed_label = QLabel()
        self.seed_error = InlineError()
        self.settings_error = InlineError()
        self.last_seed: int | None = None
        self._facts: DiffusionFolder | None = None
        self._layout()
        self.random_button.clicked.connect(self.seed.clear)
        self.reuse_button.clicked.connect(self.reuse_seed)
        self.size_choice.currentIndexChanged.connect(self._show_size_note)

    def _layout(self) -> None:
        grid = QFormLayout()
        grid.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        grid.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.size_row = QWidget()
        vbox(self.size_choice, self.size_note, parent=self.size_row, margins=0, spacing=2)
        grid.addRow(tr("Size"), self.size_row)
        grid.addRow(tr("Steps"), self.steps)
        grid.addRow(tr("Guidance"), self.guidance)
        grid.addRow(tr("Pictures"), self.count)
        grid.addRow(tr("Strength"), self.strength)
        seed_row = QWidget()
        vbox(
            hbox((self.seed, 1), self.random_button, self.reuse_button, margins=0),
            self.last_seed_label,
            self.seed_error,
            parent=seed_row,
            margins=0,
            spacing=2,
        )
        grid.addRow(tr("Seed"), seed_row)
        self.grid = grid
        vbox(
            QLabel(tr("Prompt")),
            self.prompt,
            self.prompt_error,
            QLabel(tr("Negative prompt")),
            self.negative,
            self.negative_note,
            grid,
            self.settings_error,
            parent=self,
            margins=0,
        )
        self.set_edit(False)

    # -- the model and the mode -------------------------------------------------------------

    def set_model(self, facts: DiffusionFolder | None) -> None:
        """Fit the controls to the model: its sizes, and whether it reads a negative prompt."""
        self._facts = facts
        chosen = self.size_choice.currentData(SIZE_ROLE)
        self.size_choice.blockSignals(True)
        self.size_choice.clear()
        if facts is None:
            self.size_choice.addItem(tr("Model's own"), None)
        else:
            for name, width, height in size_presets(facts):
                self.size_choice.addItem(f"{name} · {width}×{height}", size_key(width, height))
        index = self.size_choice.findData(chosen, SIZE_ROLE) if chosen is not None else -1
        self.size_choice.setCurrentIndex(max(0, index))
        self.size_choice.blockSignals(False)
        self._show_size_note()
        reads = facts is None or not facts.guidance_embedded
        self.negative.setEnabled(reads)
        if reads:
            self.negative_note.hide()
        else:
            assert facts is not None
            self.negative_note.setText(
                tr("{model} does not read a negative prompt (its guidance is built in).").format(
                    model=facts.name
                )
            )
            self.negative_note.show()

    def set_edit(self, edit: bool) -> None:
        """Edits are drawn at the picture's size and take a strength."""
        self.size_row.setEnabled(not edit)
        self.strength.setEnabled(edit)
        self.grid.setRowVisible(self.strength, edit)

    @Slot()
    def _show_size_note(self) -> None:
        facts = self._facts
        if facts is None:
            self.size_note.setText("")
            self.size_note.hide()
            return
        self.size_note.setText(
            tr("{model} draws sizes in steps of {step} px: other sizes are rounded.").format(
                model=facts.name, step=facts.size_step
            )
        )
        self.size_note.show()

    # -- reading and filling ----------------------------------------------------------------

    def request(self) -> ImageRequest:
        """The settings as a request (None where the model's own value is wanted).

        Raises:
            UserError: a seed too large to be one (``field="seed"``).
        """
        width, height = parse_size(self.size_choice.currentData(SIZE_ROLE))
        if not self.size_row.isEnabled():  # an edit is drawn at its picture's size
            width = height = None
        seed_text = self.seed.text().strip()
        seed = int(seed_text) if seed_text else None
        if seed is not None and seed >= 2**63:
            raise UserError(tr("A seed is a whole number below 2^63."), field="seed")
        return ImageRequest(
            prompt=self.prompt.toPlainText(),
            negative_prompt=self.negative.toPlainText() if self.negative.isEnabled() else "",
            width=width,
            height=height,
            steps=self.steps.value() or None,
            guidance=self.guidance.value() or None,
            count=self.count.value(),
            seed=seed,
            strength=(self.strength.value() or None) if self.strength.isEnabled() else None,
        )

    def clear_errors(self) -> None:
        """A new try: the old sentences go."""
        for label in (self.prompt_error, self.seed_error, self.settings_error):
            label.clear()

    def show_seed(self, seed: int) -> None:
        """The seed the last run drew with, offered for reuse."""
        self.last_seed = seed
        self.last_seed_label.setText(tr("Last seed: {seed}").format(seed=seed))
        self.reuse_button.setEnabled(True)

    @Slot()
    def reuse_seed(self) -> None:
        """Put the last seed in the seed field."""
        if self.last_seed is not None:
            self.seed.setText(str(self.last_seed))

    def fill(self, recalled: Recalled) -> None:
        """The settings a picture carried (each value already checked; absent ones: the
        defaults)."""
        request = recalled.request
        self.prompt.setPlainText(request.prompt)
        self.negative.setPlainText(request.negative_prompt)
        self.steps.setValue(request.steps or 0)
        self.guidance.setValue(request.guidance or 0.0)
        self.count.setValue(request.count)
        self.seed.setText("" if request.seed is None else str(request.seed))
        self.strength.setValue(request.strength or 0.0)
        if request.width and request.height:
            self._select_size(request.width, request.height)

    def _select_size(self, width: int, height: int) -> None:
        key = size_key(width, height)
        index = self.size_choice.findData(key, SIZE_ROLE)
        if index < 0:
            text = tr("As the picture · {width}×{height}").format(width=width, height=height)
            self.size_choice.addItem(text, key)
            index = self.size_choice.count() - 1
        self.size_choice.setCurrentIndex(index)
