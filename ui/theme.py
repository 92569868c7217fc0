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
        Role.Highlight: "#3d7ee0",
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


class ThemeFollower(QObject):
    """Keeps the application palette in step with the system colour scheme."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._app = app
        self._overridden = False
        hints = app.styleHints()
        hints.colorSchemeChanged.connect(self.apply)
        self.apply(hints.colorScheme())

    @property
    def overridden(self) -> bool:
        """Whether the dark palette here replaced the platform's palette."""
        return self._overridden

    @Slot(Qt.ColorScheme)
    def apply(self, scheme: Qt.ColorScheme) -> None:
        """Match ``scheme``: supply a dark palette only when the platform did not."""
        if scheme == Qt.ColorScheme.Dark:
            if not is_dark(self._app.palette()):
                self._app.setPalette(dark_palette())
                self._overridden = True
        elif self._overridden:
            # An empty palette resolves every role from the platform/style defaults again.
            self._app.setPalette(QPalette())
            self._overridden = False
        # After the platform's own palette change has been delivered, too.
        QTimer.singleShot(0, self.restyle)

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
