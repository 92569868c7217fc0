"""Reserved room for status and error lines, so showing or hiding one never moves a button.

A line that appears above (or below, in a column anchored at the bottom) a row of buttons
pushes them by its height: users clicked Record and Create voice where they had just been
and hit something else. The lines of a box go in a :class:`StatusArea` under its controls
instead: it always takes the same height (``lines`` text lines), and what does not fit
scrolls inside it.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from ui.a11y import describe
from ui.i18n import tr


class StatusArea(QScrollArea):
    """A fixed-height, frameless area holding ``widgets`` stacked (each hidden until used)."""

    def __init__(
        self, widgets: Iterable[QWidget], lines: int = 3, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the lines inside are read, not used
        inner = QWidget()
        inner.setAutoFillBackground(False)
        self.viewport().setAutoFillBackground(False)
        column = QVBoxLayout(inner)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        for widget in widgets:
            column.addWidget(widget)
        column.addStretch(1)
        self.setWidget(inner)
        self.lines = lines
        # Sized once from the font: its height is the same whatever is shown in it.
        height = lines * self.fontMetrics().lineSpacing() + (lines - 1) * 2 + 4
        self.setFixedHeight(height)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        describe(
            self,
            tr("Status messages"),
            tr("Progress, problems and results of the controls above"),
            tooltip=False,
        )
