"""What a user would see cut in a window: controls outside it, squeezed below the size their
text needs, hidden behind a toolbar's "»", in a page that scrolls sideways, or table headers
too narrow for their titles (a table may scroll sideways: its columns keep their titles whole).

Every check compares rectangles and size hints the widgets themselves report, so it holds on
any machine's fonts.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QScrollArea,
    QToolBar,
    QToolButton,
    QWidget,
)

CONTROLS = (QAbstractButton, QLabel, QLineEdit, QComboBox, QAbstractSpinBox)


def _scrolled(widget: QWidget, top: QWidget) -> bool:
    """Whether ``widget`` sits in a scroll area's viewport (scrolling reaches it)."""
    parent = widget.parentWidget()
    while parent is not None and parent is not top:
        grand = parent.parentWidget()
        if isinstance(grand, QAbstractScrollArea) and parent is grand.viewport():
            return True
        parent = grand
    return False


def _name(widget: QWidget) -> str:
    text = ""
    if isinstance(widget, (QAbstractButton, QLabel, QLineEdit)):
        text = widget.text() or (widget.placeholderText() if isinstance(widget, QLineEdit) else "")
    elif isinstance(widget, QComboBox):
        text = widget.currentText()
    tip = widget.toolTip()[:40]
    return f"{type(widget).__name__} {widget.objectName() or text[:40] or tip!r}"


def cut_controls(top: QWidget) -> list[str]:
    """Every control a user sees cut in ``top`` (a window), one sentence each."""
    problems: list[str] = []
    window_rect = top.rect()
    layout = top.layout()
    if layout is not None:
        needed = layout.minimumSize()
        if needed.width() > top.width() or needed.height() > top.height():
            problems.append(
                f"the layout needs {needed.toTuple()}, the window is {top.size().toTuple()}"
            )
    for widget in top.findChildren(QWidget):
        if not widget.isVisibleTo(top) or not widget.isVisible():
            continue
        if isinstance(widget, QToolBar):
            extension = widget.findChild(QToolButton, "qt_toolbar_ext_button")
            if extension is not None and extension.isVisible():
                problems.append(f"toolbar {widget.objectName()!r} hides actions behind »")
            continue
        if isinstance(widget, QScrollArea) and widget.horizontalScrollBar().isVisible():
            problems.append(f"{type(widget).__name__} scrolls sideways: its content is cut")
        if isinstance(widget, QHeaderView) and widget.orientation().name == "Horizontal":
            problems += _cut_sections(widget)
            continue
        if not isinstance(widget, CONTROLS) or _scrolled(widget, top):
            continue
        if widget.objectName().startswith("qt_") or isinstance(widget.parentWidget(), QLineEdit):
            continue  # a part of a Qt control (a spin box's field, a field's icon), sized by it
        rect = QRect(widget.mapTo(top, QPoint(0, 0)), widget.size())
        if not window_rect.contains(rect):
            problems.append(f"{_name(widget)} at {rect.getRect()} is outside the window")
            continue
        wanted = widget.minimumSizeHint()
        if isinstance(widget, QLabel) and (widget.wordWrap() or not widget.text()):
            continue  # a wrapping label asks for little and grows in height
        if wanted.isValid() and (
            widget.width() < wanted.width() or widget.height() < wanted.height()
        ):
            problems.append(
                f"{_name(widget)} is {widget.size().toTuple()}, it needs {wanted.toTuple()}"
            )
    return problems


def _cut_sections(header: QHeaderView) -> list[str]:
    problems = []
    model = header.model()
    if model is None:
        return problems
    for section in range(header.count()):
        if header.isSectionHidden(section):
            continue
        needed = header.sectionSizeFromContents(section).width()
        if header.sectionSize(section) < needed:
            title = model.headerData(section, header.orientation())
            problems.append(
                f"column {title!r} is {header.sectionSize(section)} px, its title needs {needed}"
            )
    return problems
