"""One row of the Performance section: the control (with its label), what it buys in small
grey text, and the line that says why a value was refused."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ui.inline_error import InlineError


class OptionRow(QWidget):
    """A control, its explanation and its error line, stacked tightly."""

    def __init__(
        self,
        control: QWidget,
        explanation: str,
        label: str = "",
        extra: Sequence[QWidget] = (),
        below: Sequence[QWidget] = (),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.control = control
        self.label = QLabel(label) if label else None
        self.explanation = QLabel(explanation)
        self.explanation.setWordWrap(True)
        self.explanation.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted
        font = self.explanation.font()
        font.setPointSizeF(font.pointSizeF() * 0.9)
        self.explanation.setFont(font)
        self.error = InlineError()
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 2, 0, 2)
        column.setSpacing(1)
        if self.label is not None:
            self.label.setBuddy(control)
            column.addWidget(self.label)
        line = QHBoxLayout()
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(control, 1)
        for widget in extra:
            line.addWidget(widget)
        column.addLayout(line)
        if below:  # a value the control needs (a check box's budget), indented under it
            under = QHBoxLayout()
            indent = 24 if isinstance(control, QCheckBox) else 0  # under the box's text
            under.setContentsMargins(indent, 0, 0, 0)
            for widget in below:
                under.addWidget(widget)
            under.addStretch(1)
            column.addLayout(under)
        column.addWidget(self.explanation)
        column.addWidget(self.error)

    def set_explanation(self, text: str) -> None:
        """Replace the grey line (e.g. with the reason the option does not apply)."""
        self.explanation.setText(text)


def option_row(
    control: QWidget,
    explanation: str,
    label: str = "",
    extra: Sequence[QWidget] = (),
    below: Sequence[QWidget] = (),
) -> OptionRow:
    """A row for ``control`` (``label`` above it for a combo box or a text field; ``extra``
    beside it, ``below`` on an indented line under it)."""
    return OptionRow(control, explanation, label, extra, below)
