"""The design system and the application style sheet: a restrained, rounded look on top of
Fusion, in both themes.

The tokens here are the one place sizes and colours are decided: spacing on a 4 px grid
(:class:`Space`), a type scale (:class:`TypeScale`, :func:`type_font`), corner radii
(:class:`Radius`), one accent colour (:data:`ACCENT`), the surface levels of a light or a dark
palette (:class:`Surfaces`) and the focus ring. Panels lay themselves out with these names,
never with bare numbers.

The style sheet is built from the palette in force (so it is rebuilt on every light/dark switch
by ``ui.theme.ThemeFollower``). It sets shapes — padding, rounded corners, borders — and only
the colours that go with them; it never sets a text colour on labels or a background on text
views, so widgets that colour themselves through their palette (inline errors, the message
view) or their own style sheet (the notification bar, the overlay) keep doing so. A button
becomes a primary (accent) button with :func:`mark_primary`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QAbstractButton, QWidget

Role = QPalette.ColorRole
Group = QPalette.ColorGroup


class Space:
    """Spacing on a 4 px grid: layout margins and the gaps between controls."""

    XS = 4
    """Between the parts of one control (an icon and its label, a field and its hint)."""
    S = 8
    """Between controls of one group; a panel's outer margin."""
    M = 12
    """Inside a card or a bubble."""
    L = 16
    """Between groups of a panel."""
    XL = 24
    """Around a page's content (the welcome page, the chat column)."""
    XXL = 32
    """Between sections of a page."""


class Radius:
    """Corner radii: small for chips and menus, medium for controls, large for cards."""

    SMALL = 4
    MEDIUM = 6
    LARGE = 10


class TypeScale(Enum):
    """Text sizes, relative to the application font (so the user's font size still rules),
    with their weight."""

    CAPTION = (0.9, QFont.Weight.Normal)
    """Stats lines, hints, the navigation rail's labels."""
    BODY = (1.0, QFont.Weight.Normal)
    SUBTITLE = (1.0, QFont.Weight.DemiBold)
    """A group's heading inside a panel ("Voices", "Search")."""
    TITLE = (1.3, QFont.Weight.DemiBold)
    """A panel's or a page's heading."""
    DISPLAY = (1.7, QFont.Weight.DemiBold)
    """A page's one big line (the welcome page)."""


def type_font(base: QFont, level: TypeScale) -> QFont:
    """``base`` at the size and weight of ``level``."""
    scale, weight = level.value
    font = QFont(base)
    if base.pointSizeF() > 0:
        font.setPointSizeF(base.pointSizeF() * scale)
    else:  # a pixel-sized font
        font.setPixelSize(max(1, round(base.pixelSize() * scale)))
    font.setWeight(weight)
    return font


def set_type(widget: QWidget, level: TypeScale) -> None:
    """Draw ``widget``'s text at ``level`` of the type scale."""
    widget.setFont(type_font(widget.font(), level))


ACCENT = QColor("#2f6bd8")
"""The one accent colour, in both themes: primary buttons, selection, the focus ring. White
text on it has a contrast of 5:1."""
ACCENT_TEXT = QColor("#ffffff")
FOCUS_RING_WIDTH = 2
"""A focused control's border, in the focus ring colour (:attr:`Surfaces.focus_ring`)."""
READABLE_WIDTH = 840
"""The widest a column of reading gets (the chat): about 100 characters of body text."""
CONTROL_HEIGHT = 28
"""A button's, field's and combo box's height: one line of body text plus padding."""

PRIMARY = "primary"
"""The dynamic property that marks a primary button (``QPushButton[primary="true"]``)."""
COMPOSER = "composer"
"""The object name of the box a chat message is written in: one raised surface, the input
inside it frameless."""
SIDE_LIST = "sideList"
"""The object name of a list that sits on the panel's surface (the chat's conversations): no
box and no field colour under it, its chosen row a tint with rounded corners."""
MESSAGE_TEXT = "messageText"
"""The dynamic property that marks a read-only message view: text on its bubble, no box."""


def _mix(base: QColor, other: QColor, share: float) -> QColor:
    """``base`` moved ``share`` of the way to ``other``."""
    return QColor(
        round(base.red() * (1 - share) + other.red() * share),
        round(base.green() * (1 - share) + other.green() * share),
        round(base.blue() * (1 - share) + other.blue() * share),
    )


@dataclass(frozen=True)
class Surfaces:
    """The surface levels of one palette, lowest to highest, and the lines between them.

    ``window`` is the page under everything; ``sunken`` a field or list set into it; ``raised``
    a card or a message bubble on it; ``overlay`` a menu or popup above it. ``hover``,
    ``pressed`` and ``selected`` tint a control under the pointer, held down, or chosen.
    """

    dark: bool
    window: QColor
    sunken: QColor
    raised: QColor
    overlay: QColor
    text: QColor
    muted_text: QColor
    border: QColor
    subtle_border: QColor
    hover: QColor
    pressed: QColor
    selected: QColor
    focus_ring: QColor

    @classmethod
    def of(cls, palette: QPalette) -> Surfaces:
        """The surfaces of ``palette`` (light or dark)."""
        window = palette.color(Role.Window)
        text = palette.color(Role.WindowText)
        dark = window.lightness() < 128
        white = QColor("white")
        return cls(
            dark=dark,
            window=window,
            sunken=palette.color(Role.Base),
            raised=_mix(window, white, 0.06) if dark else _mix(window, white, 0.6),
            overlay=_mix(window, white, 0.1) if dark else QColor(white),
            text=text,
            muted_text=palette.color(Role.PlaceholderText),
            border=_mix(window, text, 0.28 if dark else 0.22),
            subtle_border=_mix(window, text, 0.14 if dark else 0.1),
            hover=_mix(window, text, 0.08),
            pressed=_mix(window, text, 0.16),
            selected=_mix(window, ACCENT, 0.3 if dark else 0.16),
            # The ring keeps 3:1 against the window: lighter than the fill on a dark one.
            focus_ring=_mix(ACCENT, white, 0.3) if dark else QColor(ACCENT),
        )


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


def app_style_sheet(palette: QPalette) -> str:
    """The style sheet for ``palette`` (light or dark), drawn with the design tokens."""
    s = Surfaces.of(palette)
    button = palette.color(Role.Button)
    hover = _mix(button, s.text, 0.08).name()
    pressed = _mix(button, s.text, 0.16).name()
    disabled_text = palette.color(Group.Disabled, Role.ButtonText).name()
    disabled_button = _mix(button, s.window, 0.5).name()
    accent, accent_text = ACCENT.name(), ACCENT_TEXT.name()
    accent_hover = _mix(ACCENT, QColor("white"), 0.12).name()
    accent_pressed = _mix(ACCENT, QColor("black"), 0.15).name()
    border, ring = s.border.name(), s.focus_ring.name()
    # Padding that keeps a control's size when its border thickens to the focus ring.
    ring_inset = FOCUS_RING_WIDTH - 1
    control = CONTROL_HEIGHT - 2 * (Space.XS + 1)  # min-height inside padding and border
    group_title = Space.XL - Space.XS  # a group's title line above its surface
    return f"""
QPushButton {{
    background: {button.name()}; color: {palette.color(Role.ButtonText).name()};
    border: 1px solid {border}; border-radius: {Radius.MEDIUM}px;
    padding: {Space.XS}px {Space.S + 2}px; min-height: {control}px;
}}
QPushButton:hover {{ background: {hover}; }}
QPushButton:pressed, QPushButton:checked {{ background: {pressed}; }}
QPushButton:disabled {{ color: {disabled_text}; background: {disabled_button}; }}
QPushButton:focus {{
    border: {FOCUS_RING_WIDTH}px solid {ring};
    padding: {Space.XS - ring_inset}px {Space.S + 2 - ring_inset}px;
}}
QPushButton:flat {{ background: transparent; border-color: transparent; }}
QPushButton[primary="true"] {{
    background: {accent}; color: {accent_text}; border-color: {accent};
}}
QPushButton[primary="true"]:hover {{ background: {accent_hover}; }}
QPushButton[primary="true"]:pressed {{ background: {accent_pressed}; }}
QPushButton[primary="true"]:focus {{ border-color: {ring}; }}
QPushButton[primary="true"]:disabled {{
    background: {disabled_button}; color: {disabled_text}; border-color: {border};
}}
QLineEdit {{
    border: 1px solid {border}; border-radius: {Radius.MEDIUM}px; padding: 2px 5px;
    background: {s.sunken.name()}; selection-background-color: {accent};
    selection-color: {accent_text};
}}
QLineEdit:focus {{
    border: {FOCUS_RING_WIDTH}px solid {ring}; padding: {2 - ring_inset}px {5 - ring_inset}px;
}}
QPlainTextEdit:focus, QTextEdit:focus {{ border-color: {ring}; }}
QPlainTextEdit, QTextEdit, QListView, QTreeView, QTableView {{
    border: 1px solid {s.subtle_border.name()}; border-radius: {Radius.MEDIUM}px;
    selection-background-color: {accent}; selection-color: {accent_text};
}}
QTextEdit[messageText="true"], QPlainTextEdit[messageText="true"] {{
    border: none; background: transparent;
}}
QFrame#{COMPOSER} {{
    background: {s.raised.name()}; border: 1px solid {border}; border-radius: {Radius.LARGE}px;
}}
QFrame#{COMPOSER} QPlainTextEdit, QFrame#{COMPOSER} QTextEdit {{
    border: none; background: transparent;
}}
QGroupBox {{
    background: {s.raised.name()}; border: none; border-radius: {Radius.LARGE}px;
    margin-top: {group_title}px; padding: {Space.S}px {Space.XS}px {Space.XS}px {Space.XS}px;
}}
QGroupBox::title {{
    subcontrol-origin: margin; subcontrol-position: top left; left: 0; padding: 0;
}}
QListView::item, QTreeView::item {{ padding: 2px; }}
QListView#{SIDE_LIST} {{
    border: none; background: transparent;
    selection-background-color: {s.selected.name()}; selection-color: {s.text.name()};
}}
QListView#{SIDE_LIST}::item {{ border-radius: {Radius.MEDIUM}px; }}
QListView#{SIDE_LIST}::item:hover:!selected {{ background: {s.hover.name()}; }}
QListView#{SIDE_LIST}::item:selected {{ background: {s.selected.name()}; color: {s.text.name()}; }}
QListWidget#panelNav {{ border: none; background: transparent; }}
QHeaderView::section {{
    border: none; border-bottom: 1px solid {s.subtle_border.name()};
    border-right: 1px solid {s.subtle_border.name()}; padding: 2px {Space.XS}px;
    background: {s.window.name()};
}}
QStatusBar {{ border-top: 1px solid {s.subtle_border.name()}; }}
QStatusBar::item {{ border: none; }}
QMenu {{ padding: {Space.XS}px; }}
QMenu::item {{ padding: 5px {Space.XL}px; border-radius: {Radius.SMALL}px; }}
QMenu::item:selected {{ background: {accent}; color: {accent_text}; }}
QMenu::separator {{ height: 1px; background: {border}; margin: {Space.XS}px {Space.S}px; }}
QToolTip {{ border: 1px solid {border}; padding: {Space.XS}px; }}
"""
