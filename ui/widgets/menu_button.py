"""A tool button that opens a menu filled when it opens (installed models, recent folders)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMenu, QToolButton


def menu_button(text: str, tooltip: str, fill: Callable[[], None]) -> tuple[QToolButton, QMenu]:
    """A button showing ``text`` whose menu ``fill`` refreshes each time it is about to show.

    Filling on show keeps the list current (a model installed a moment ago is there) without
    watching the registry.
    """
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tooltip)
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    menu = QMenu(button)
    button.setMenu(menu)
    menu.aboutToShow.connect(fill)
    return button, menu


def hide_menu_arrow(button: QToolButton) -> None:
    """Draw no arrow under ``button``'s icon: an icon-only "⋯" or a control with a chevron of
    its own says it opens a menu already."""
    button.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; }")
