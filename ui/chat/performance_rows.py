"""One row of the Performance section: the control (with its label), what it buys in small
grey text, and the line that says why a value was refused."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ui.widgets.inline_error import InlineError


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
        # A check box's own text never wraps: it moves to a wrapping label beside the box (the
        # box keeps it as its accessible name), so a narrow column shows it whole.
        self.check_text: QLabel | None = None
        if isinstance(control, QCheckBox) and control.text():
            self.check_text = QLabel(control.text())
            self.check_text.setWordWrap(True)
            self.check_text.setBuddy(control)
            if not control.accessibleName():
                control.setAccessibleName(control.text())
            control.setText("")
            self.check_text.installEventFilter(self)
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
        if self.check_text is not None:
            line.addWidget(control, 0, Qt.AlignmentFlag.AlignTop)
            line.addWidget(self.check_text, 1)
        else:
            line.addWidget(control, 1)
        for widget in extra:
            line.addWidget(widget)
        column.addLayout(line)
        # A value the control needs (a check box's budget), indented under it; each on a line
        # of its own, so the row stays as narrow as its widest widget.
        indent = 24 if isinstance(control, QCheckBox) else 0  # under the box's text
        for widget in below:
            under = QHBoxLayout()
            under.setContentsMargins(indent, 0, 0, 0)
            under.addWidget(widget)
            under.addStretch(1)
            column.addLayout(under)
        column.addWidget(self.explanation)
        column.addWidget(self.error)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A click on a check box's text ticks the box, as a click on its own text would."""
        control = self.control
        if (
            watched is self.check_text
            and event.type() == QEvent.Type.MouseButtonRelease
            and isinstance(control, QCheckBox)
            and control.isEnabled()
        ):
            control.toggle()
            return True
        return super().eventFilter(watched, event)

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
