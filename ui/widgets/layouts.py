"""Builders for the layouts the panels share: rows, columns, a row over its message, splitters.

Each builder makes exactly the Qt calls the panels used to spell out one by one (so what is
drawn is unchanged); a margin or a spacing is only set when asked for, and otherwise stays the
style's.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLayout,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

Item = QWidget | QLayout | int | tuple[QWidget, int] | tuple[QWidget, int, Qt.AlignmentFlag]
"""A widget, a nested layout, a stretch factor (an ``int``), or ``(widget, stretch[, align])``."""


def _build(
    layout: QBoxLayout, items: Sequence[Item], margins: int | None, spacing: int | None
) -> None:
    if margins is not None:
        layout.setContentsMargins(margins, margins, margins, margins)
    if spacing is not None:
        layout.setSpacing(spacing)
    for item in items:
        if isinstance(item, int):
            layout.addStretch(item)
        elif isinstance(item, QLayout):
            layout.addLayout(item)
        elif isinstance(item, tuple):
            layout.addWidget(*item)
        else:
            layout.addWidget(item)


def hbox(*items: Item, margins: int | None = None, spacing: int | None = None) -> QHBoxLayout:
    """A row of ``items``, left to right."""
    row = QHBoxLayout()
    _build(row, items, margins, spacing)
    return row


def vbox(
    *items: Item,
    parent: QWidget | None = None,
    margins: int | None = None,
    spacing: int | None = None,
) -> QVBoxLayout:
    """A column of ``items``, top to bottom (the layout of ``parent`` when given)."""
    column = QVBoxLayout() if parent is None else QVBoxLayout(parent)
    _build(column, items, margins, spacing)
    return column


def over_message(owner: QWidget, row: QLayout, message: QWidget) -> QVBoxLayout:
    """``owner``'s layout: a row of controls with the line that speaks for them right below.

    The line is an inline error (or a status), so it sits close (2 px) and the widget adds no
    margin of its own: it lines up with the panel around it.
    """
    return vbox(row, message, parent=owner, margins=0, spacing=2)


def panel_splitter(
    widgets: Sequence[QWidget], sizes: list[int], stretch: dict[int, int]
) -> QSplitter:
    """A panel's side-by-side parts, which the user can resize but never collapse.

    Args:
        widgets: Left to right.
        sizes: The starting widths.
        stretch: Stretch factor per index: which parts take the room a larger window gives.
    """
    splitter = QSplitter()
    splitter.setChildrenCollapsible(False)
    for widget in widgets:
        splitter.addWidget(widget)
    for index, factor in stretch.items():
        splitter.setStretchFactor(index, factor)
    splitter.setSizes(sizes)
    return splitter


class ScrollColumn(QScrollArea):
    """A panel's column that scrolls up and down when the window is too short for it (a small
    laptop's screen), never sideways: as narrow as its content allows, no frame of its own."""

    def __init__(self, content: QWidget) -> None:
        super().__init__()
        self.setWidget(content)
        self.setWidgetResizable(True)  # a tall window still stretches the content to fill it
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.viewport().setAutoFillBackground(False)  # the window's own background shows
        content.setAutoFillBackground(False)

    def minimumSizeHint(self) -> QSize:
        """The content's minimum width (and the scroll bar's), a few lines of height."""
        content = self.widget()
        width = content.minimumSizeHint().width() if content is not None else 0
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(width + bar, 4 * self.fontMetrics().height())
