"""The application style sheet: a restrained, rounded look on top of Fusion, in both themes.

Built from the palette in force (so it is rebuilt on every light/dark switch by
``ui.theme.ThemeFollower``). It sets shapes — padding, rounded corners, borders — and only the
colours that go with them, taken from the palette; it never sets a text colour on labels or a
background on text views, so widgets that colour themselves through their palette (inline
errors, the message view) or their own style sheet (the notification bar, the overlay) keep
doing so. A button becomes a primary (accent) button with :func:`mark_primary`.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QAbstractButton, QWidget

Role = QPalette.ColorRole
Group = QPalette.ColorGroup

RADIUS = 6
PRIMARY = "primary"
"""The dynamic property that marks a primary button (``QPushButton[primary="true"]``)."""
MESSAGE_TEXT = "messageText"
"""The dynamic property that marks a read-only message view: text on its bubble, no box."""


def mark_primary(button: QAbstractButton) -> None:
    """Draw ``button`` in the accent colour: the one main action of its panel or dialog."""
    button.setProperty(PRIMARY, True)
    style = button.style()
    style.unpolish(button)  # a property read by the style sheet is re-read on polish only
    style.polish(button)


def mark_message_text(view: QWidget) -> None:
    """Draw the read-only text view ``view`` frameless on its parent's background (a message's
    text), not boxed like an input; set it before the view is shown."""
    view.setProperty(MESSAGE_TEXT, True)
    style = view.style()
    style.unpolish(view)
    style.polish(view)


def _mix(base: QColor, other: QColor, share: float) -> str:
    """``base`` moved ``share`` of the way to ``other``, as ``#rrggbb``."""
    return QColor(
        round(base.red() * (1 - share) + other.red() * share),
        round(base.green() * (1 - share) + other.green() * share),
        round(base.blue() * (1 - share) + other.blue() * share),
    ).name()


def app_style_sheet(palette: QPalette) -> str:
    """The style sheet for ``palette`` (light or dark)."""
    window = palette.color(Role.Window)
    text = palette.color(Role.WindowText)
    button = palette.color(Role.Button)
    accent = palette.color(Role.Highlight)
    accent_text = palette.color(Role.HighlightedText)
    base = palette.color(Role.Base)
    dark = window.lightness() < 128
    border = _mix(window, text, 0.28 if dark else 0.22)
    hover = _mix(button, text, 0.08)
    pressed = _mix(button, text, 0.16)
    disabled_text = palette.color(Group.Disabled, Role.ButtonText).name()
    disabled_button = _mix(button, window, 0.5)
    accent_hover = _mix(accent, QColor("white"), 0.12)
    accent_pressed = _mix(accent, QColor("black"), 0.15)
    selected = _mix(window, accent, 0.28 if dark else 0.16)
    nav_hover = _mix(window, text, 0.07)
    return f"""
QPushButton {{
    background: {button.name()}; color: {palette.color(Role.ButtonText).name()};
    border: 1px solid {border}; border-radius: {RADIUS}px; padding: 4px 10px; min-height: 18px;
}}
QPushButton:hover {{ background: {hover}; }}
QPushButton:pressed, QPushButton:checked {{ background: {pressed}; }}
QPushButton:disabled {{ color: {disabled_text}; background: {disabled_button}; }}
QPushButton:focus {{ border-color: {accent.name()}; }}
QPushButton:flat {{ background: transparent; border-color: transparent; }}
QPushButton[primary="true"] {{
    background: {accent.name()}; color: {accent_text.name()}; border-color: {accent.name()};
}}
QPushButton[primary="true"]:hover {{ background: {accent_hover}; }}
QPushButton[primary="true"]:pressed {{ background: {accent_pressed}; }}
QPushButton[primary="true"]:disabled {{
    background: {disabled_button}; color: {disabled_text}; border-color: {border};
}}
QLineEdit {{
    border: 1px solid {border}; border-radius: {RADIUS}px; padding: 2px 5px;
    background: {base.name()}; selection-background-color: {accent.name()};
}}
QLineEdit:focus, QPlainTextEdit:focus, QTextEdit:focus {{ border-color: {accent.name()}; }}
QPlainTextEdit, QTextEdit, QListView, QTreeView, QTableView {{
    border: 1px solid {border}; border-radius: {RADIUS}px;
}}
QTextEdit[messageText="true"], QPlainTextEdit[messageText="true"] {{
    border: none; background: transparent;
}}
QListView::item, QTreeView::item {{ padding: 2px; }}
QListWidget#panelNav {{
    border: none; background: transparent; outline: 0; padding: 2px;
}}
QListWidget#panelNav::item {{
    border-radius: {RADIUS}px; padding: 8px 8px; margin: 1px 0; color: {text.name()};
}}
QListWidget#panelNav::item:hover {{ background: {nav_hover}; }}
QListWidget#panelNav::item:selected {{
    background: {selected}; color: {text.name()}; font-weight: 600;
}}
QStatusBar {{ border-top: 1px solid {border}; }}
QStatusBar::item {{ border: none; }}
QMenu {{ padding: 4px; }}
QMenu::item {{ padding: 5px 24px 5px 24px; border-radius: 4px; }}
QMenu::item:selected {{ background: {accent.name()}; color: {accent_text.name()}; }}
QMenu::separator {{ height: 1px; background: {border}; margin: 4px 8px; }}
QToolTip {{ border: 1px solid {border}; padding: 4px; }}
"""
