"""Light and dark: follow the system colour scheme with the Fusion style.

Where the platform theme supplies a dark palette (Windows, macOS, recent desktops) Qt already
switches it with the scheme and nothing is overridden. Where it does not (some Linux desktops,
the offscreen platform) a dark Fusion palette is applied when the scheme says dark, and removed
again when it says light. Widgets that bake colours into content (the message view, inline
errors) re-read the palette on ``QEvent.PaletteChange``.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer, Slot
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from ui.app_style import ACCENT, app_style_sheet
from ui.icons import refresh_icons

Role = QPalette.ColorRole
Group = QPalette.ColorGroup


def is_dark(palette: QPalette) -> bool:
    """Whether ``palette`` draws light text on a dark window."""
    return palette.color(Role.Window).lightness() < 128


def error_color(palette: QPalette) -> QColor:
    """A red that stays readable on this palette's window colour."""
    return QColor("#ff7b72") if is_dark(palette) else QColor("#b3261e")


def warning_color(palette: QPalette) -> QColor:
    """An amber that stays readable on this palette's window colour."""
    return QColor("#e3b341") if is_dark(palette) else QColor("#8a5a00")


def muted_color(palette: QPalette) -> QColor:
    """Secondary text (stats lines, hints): the palette's placeholder colour."""
    return palette.color(Role.PlaceholderText)


def css_color(color: QColor) -> str:
    """``color`` for a style sheet or rich text, its transparency kept (``#AARRGGBB``): a
    light palette's placeholder colour is half-transparent black, which ``name()`` makes
    solid black."""
    return color.name(QColor.NameFormat.HexArgb)


def blend(base: QColor, accent: QColor, share: float) -> QColor:
    """``base`` moved ``share`` of the way towards ``accent``."""
    return QColor(
        round(base.red() * (1 - share) + accent.red() * share),
        round(base.green() * (1 - share) + accent.green() * share),
        round(base.blue() * (1 - share) + accent.blue() * share),
    )


def dark_palette() -> QPalette:
    """A dark palette for Fusion, for platforms whose theme does not provide one."""
    palette = QPalette()
    colors = {
        Role.Window: "#2b2d31",
        Role.WindowText: "#e6e6e6",
        Role.Base: "#1f2023",
        Role.AlternateBase: "#2f3136",
        Role.ToolTipBase: "#1f2023",
        Role.ToolTipText: "#e6e6e6",
        Role.PlaceholderText: "#9a9ca3",
        Role.Text: "#e6e6e6",
        Role.Button: "#35373c",
        Role.ButtonText: "#e6e6e6",
        Role.BrightText: "#ff5555",
        Role.Light: "#4a4d53",
        Role.Midlight: "#3d4045",
        Role.Mid: "#2a2c30",
        Role.Dark: "#1b1c1f",
        Role.Shadow: "#0d0d0e",
        Role.Highlight: ACCENT.name(),  # the one accent colour of ui.app_style
        Role.HighlightedText: "#ffffff",
        Role.Link: "#6aa7ff",
        Role.LinkVisited: "#b18cff",
    }
    for role, color in colors.items():
        palette.setColor(role, QColor(color))
    for role in (Role.WindowText, Role.Text, Role.ButtonText):
        palette.setColor(Group.Disabled, role, QColor("#7c7f86"))
    palette.setColor(Group.Disabled, Role.Base, QColor("#26272a"))
    palette.setColor(Group.Disabled, Role.Button, QColor("#2e3034"))
    return palette


THEMES = ("system", "light", "dark")
"""The theme setting's values: follow the system's colour scheme, or always light or dark."""


class ThemeFollower(QObject):
    """Keeps the application palette in step with the theme setting and the system scheme.

    ``mode`` "system" follows the platform's colour scheme; "light" and "dark" force one
    (Fusion's standard light palette on a dark desktop, the dark palette here on a light one).
    Every change re-applies the application style sheet in the new colours.
    """

    def __init__(self, app: QApplication, mode: str = "system") -> None:
        super().__init__(app)
        self._app = app
        self._mode = mode if mode in THEMES else "system"
        self._overridden = False
        hints = app.styleHints()
        hints.colorSchemeChanged.connect(self._on_scheme_changed)
        self.apply(hints.colorScheme())

    @property
    def overridden(self) -> bool:
        """Whether a palette of ours replaced the platform's palette."""
        return self._overridden

    @property
    def mode(self) -> str:
        """The theme setting in force: "system", "light" or "dark"."""
        return self._mode

    def set_mode(self, mode: str) -> None:
        """Switch to ``mode`` ("system", "light" or "dark") at once."""
        self._mode = mode if mode in THEMES else "system"
        self.apply(self._app.styleHints().colorScheme())

    @Slot(Qt.ColorScheme)
    def _on_scheme_changed(self, scheme: Qt.ColorScheme) -> None:
        if self._mode == "system":  # a forced theme ignores the desktop's switches
            self.apply(scheme)

    @Slot(Qt.ColorScheme)
    def apply(self, scheme: Qt.ColorScheme) -> None:
        """Match ``scheme`` (or the forced mode): supply a palette only when the platform's
        does not already fit."""
        if self._mode != "system":
            scheme = Qt.ColorScheme.Dark if self._mode == "dark" else Qt.ColorScheme.Light
        if self._overridden:
            # An empty palette resolves every role from the platform/style defaults again.
            self._app.setPalette(QPalette())
            self._overridden = False
        platform_dark = is_dark(self._app.palette())
        if scheme == Qt.ColorScheme.Dark and not platform_dark:
            self._app.setPalette(dark_palette())
            self._overridden = True
        elif scheme != Qt.ColorScheme.Dark and platform_dark:
            # Light forced on a dark desktop: Fusion's own light palette.
            self._app.setPalette(self._app.style().standardPalette())
            self._overridden = True
        self._app.setStyleSheet(app_style_sheet(self._app.palette()))
        # After the platform's own palette change has been delivered, too.
        QTimer.singleShot(0, self, self.restyle)

    def remove(self) -> None:
        """Stop following: the platform's palette and no application style sheet again."""
        self._app.styleHints().colorSchemeChanged.disconnect(self._on_scheme_changed)
        if self._overridden:
            self._app.setPalette(QPalette())
            self._overridden = False
        self._app.setStyleSheet("")
        self.restyle()
        self.setParent(None)
        self.deleteLater()

    @Slot()
    def restyle(self) -> None:
        """Re-apply widgets' own style sheets so they take the new palette.

        A widget with its own style sheet keeps the palette it was polished with when the
        application palette changes later (it stayed white in dark mode); setting the same
        sheet again re-polishes it against the current palette.
        """
        for widget in self._app.allWidgets():
            sheet = widget.styleSheet()
            if sheet:
                widget.setStyleSheet(sheet)
        refresh_icons(self._app)
