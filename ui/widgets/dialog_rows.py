"""Rows the settings dialogs share: messages beside the buttons, saying a message aloud, and
a free name for a new entry of a list (an endpoint, a server).

A dialog's messages (a failed test, a refused value, "Copied.") sit in a column left of the
OK / Cancel buttons, top-aligned with them: hidden messages take no room, so the dialog is
tight at rest, and a message that appears grows the row downwards without moving any button or
field the user is about to click. :func:`keep_fitting` grows the dialog for it: Qt sizes a
window by its layout's minimum, which ignores how many lines a wrapped label needs, so a
3-line message would otherwise squeeze the fields above it.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QDialogButtonBox, QHBoxLayout, QLabel, QWidget

from ui.a11y import announce, describe
from ui.i18n import tr
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import vbox


def messages_beside_buttons(messages: list[QWidget], buttons: QDialogButtonBox) -> QHBoxLayout:
    """A row: ``messages`` stacked on the left (taking the width), ``buttons`` on the right."""
    column = vbox(*messages, margins=0, spacing=4)
    column.addStretch(1)
    row = QHBoxLayout()
    row.setContentsMargins(0, 0, 0, 0)
    row.addLayout(column, 1)
    row.addWidget(buttons, 0, Qt.AlignmentFlag.AlignTop)
    return row


def say(label: QLabel, text: str) -> None:
    """Show ``text`` in ``label`` (an :class:`InlineError` hides when empty) and announce it."""
    if isinstance(label, InlineError):
        label.show_message(text)
    else:
        label.setText(text)
    announce(label, text)


def describe_standard_buttons(buttons: QDialogButtonBox) -> None:
    """Give a button box's standard buttons (Qt translates their words) a description."""
    descriptions = {
        QDialogButtonBox.StandardButton.Ok: tr("Use these settings and close."),
        QDialogButtonBox.StandardButton.Save: tr("Save these settings and close."),
        QDialogButtonBox.StandardButton.Cancel: tr("Close without changing anything."),
        QDialogButtonBox.StandardButton.Close: tr("Close this window."),
    }
    for which, description in descriptions.items():
        button = buttons.button(which)
        if button is not None:
            describe(button, button.text().replace("&", ""), description)


def free_name(base: str, taken: Iterable[str]) -> str:
    """``base``, or ``base 2``, ``base 3``… — the first no name in ``taken`` has (ignoring case)."""
    used = {name.casefold() for name in taken}
    name, number = base, 2
    while name.casefold() in used:
        name = tr("{name} {number}").format(name=base, number=number)
        number += 1
    return name


class ChainedButtonBox(QDialogButtonBox):
    """A button box whose buttons the dialog puts in its own Tab order (:func:`tab_chain`).

    Each time Qt lays a button box out (under a style sheet, as the app always has: at every
    polish) it makes the box a focus proxy of its first button, and the box stays where it was
    in the focus chain — after the last button, once the dialog has moved the buttons. Tab
    from the last button then reached the box, that is the first button again, and never came
    back round (Save ↔ Cancel, measured under the app's style sheet). Without the proxy the
    box is no tab stop, and its buttons are visited where the dialog put them.
    """

    def event(self, event: QEvent) -> bool:
        """Qt's handling, then no focus proxy (set again by any re-layout it did)."""
        handled = super().event(event)
        if self.focusProxy() is not None:
            self.setFocusProxy(None)  # type: ignore[arg-type]  # Qt takes nullptr
        return handled


def tab_chain(widgets: list[QWidget]) -> None:
    """Tab visits ``widgets`` in this order (the order they are laid out in)."""
    for before, after in pairwise(widgets):
        QWidget.setTabOrder(before, after)


class _GrowToFit(QObject):
    """Grows its window when its layout needs more height for wrapped text (never shrinks
    it: the user may have made it larger)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._pending = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """After each layout change (a message shown or hidden), check the height once."""
        if event.type() == QEvent.Type.LayoutRequest and not self._pending:
            self._pending = True
            QTimer.singleShot(0, self, self._fit)  # dropped if the window goes first
        return False

    def _fit(self) -> None:
        self._pending = False
        layout = self._window.layout()
        if layout is None or not self._window.isVisible():
            return
        width = self._window.width()
        needed = (
            layout.totalHeightForWidth(width)
            if layout.hasHeightForWidth()
            else layout.totalSizeHint().height()
        )
        if needed > self._window.height():
            self._window.resize(width, needed)


def keep_fitting(window: QWidget) -> None:
    """Grow ``window`` whenever a message needs more lines than it has room for."""
    window.installEventFilter(_GrowToFit(window))
