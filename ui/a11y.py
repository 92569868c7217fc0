"""Accessibility: names and descriptions screen readers read, and announcements of status.

Qt already gives a button its text as its accessible name and a labelled field its buddy
label's text; :func:`describe` is for the rest (icon-only buttons, fields without a buddy,
lists) and adds the description, which doubles as the tooltip sighted users see on hover.
:func:`unlabelled_widgets` is what ``tests/ui/shell/test_accessibility.py`` walks every panel and
dialog with.
"""

from __future__ import annotations

from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QScrollBar,
    QTabBar,
    QTextEdit,
    QWidget,
)

INTERACTIVE = (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
)


def describe(widget: QWidget, name: str, description: str = "", *, tooltip: bool = True) -> None:
    """Set what assistive technology says for ``widget`` (and, by default, its tooltip).

    Args:
        widget: Any widget; interactive ones need at least a name.
        name: A few words: what it is ("Send message", "Conversation search").
        description: One sentence: what it does, or what to type.
        tooltip: Also show ``description`` on hover unless the widget has its own tooltip.
    """
    widget.setAccessibleName(name)
    if description:
        widget.setAccessibleDescription(description)
        if tooltip and not widget.toolTip():
            widget.setToolTip(description)


def announce(widget: QWidget, text: str) -> None:
    """Have screen readers say ``text`` (a status change: "Answer finished", an error)."""
    if text and QAccessible.isActive():
        QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(widget, text))


def accessible_name(widget: QWidget) -> str:
    """The name a screen reader reads: explicit, or Qt's (button text, buddy label)."""
    interface = QAccessible.queryAccessibleInterface(widget)
    name = interface.text(QAccessible.Text.Name) if interface is not None else ""
    return (name or widget.accessibleName()).strip()


def accessible_description(widget: QWidget) -> str:
    """The description a screen reader reads: explicit, or the tooltip."""
    interface = QAccessible.queryAccessibleInterface(widget)
    text = interface.text(QAccessible.Text.Description) if interface is not None else ""
    return (text or widget.accessibleDescription() or widget.toolTip()).strip()


def is_interactive(widget: QWidget) -> bool:
    """Whether a user acts on ``widget`` (read-only text views count when they take focus)."""
    if not isinstance(widget, INTERACTIVE):
        return False
    if isinstance(widget, QTextEdit | QPlainTextEdit) and widget.isReadOnly():
        return widget.focusPolicy() != widget.focusPolicy().NoFocus
    if isinstance(widget, QScrollBar):
        return False  # part of a scroll area: screen readers name the area, not its bars
    # A combo box's or spin box's own line edit and list are parts of it, not controls.
    parent = widget.parentWidget()
    part_of = QComboBox | QAbstractSpinBox
    return not (isinstance(widget, QLineEdit | QAbstractItemView) and isinstance(parent, part_of))


def unlabelled_widgets(root: QWidget, *, need_description: bool = True) -> list[str]:
    """Interactive widgets under ``root`` (shown ones) with no accessible name or description.

    Returns:
        One line per widget: its class, object name and what is missing.
    """
    problems: list[str] = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not is_interactive(widget) or not widget.isVisibleTo(root):
            continue
        missing = []
        if not accessible_name(widget):
            missing.append("name")
        if need_description and not accessible_description(widget):
            missing.append("description")
        if missing:
            label = widget.objectName() or getattr(widget, "text", lambda: "")() or ""
            problems.append(f"{type(widget).__name__} {label!r}: no {' or '.join(missing)}")
    return problems
