"""The chat model button in the composer: the model's short name and, smaller, where it runs;
a click (or Ctrl+L) opens the model menu.

A tool button holding two labels rather than text of its own: the name is cut with "…" when
the row is narrow (its full text is in the tooltip), the place keeps its few letters.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QSize, Qt, Slot
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import QLabel, QMenu, QSizePolicy, QToolButton, QWidget

from app.chat import LoadedModel
from ui.a11y import describe
from ui.app_style import CONTROL_HEIGHT, Space, TypeScale, set_type
from ui.chat.model_text import model_name, model_tooltip
from ui.i18n import tr
from ui.icons import icon
from ui.widgets.elided_label import ElidedLabel
from ui.widgets.layouts import hbox
from ui.widgets.menu_button import hide_menu_arrow

SHORTCUT = "Ctrl+L"
"""Opens the model menu (LM Studio's key for its model picker)."""
MAX_WIDTH = 340
"""The widest the button gets (a long file name is cut with "…" beyond it); on a narrow
window it gives way to the row's other buttons first."""
CHEVRON = 16


def choose_a_model() -> str:
    """What the button says while no model is loaded."""
    return tr("Choose a model")


def button_hint() -> str:
    """The last line of the tooltip: what the button does, and its key."""
    return tr("Choose the chat model and where it runs (Ctrl+L)")


class ModelButton(QToolButton):
    """Shows the model in use (or loading, or none) and opens ``menu``."""

    def __init__(self, menu: QMenu, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model_menu = menu
        self.setMenu(menu)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setAutoRaise(True)  # no frame until the pointer is over it
        hide_menu_arrow(self)  # the chevron label says it
        self.name = ElidedLabel()
        # Preferred, not the label's Ignored: the button asks for the whole name, and gives
        # way down to the label's minimum (a few letters and "…").
        self.name.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.place = QLabel()  # "CPU", "AUTO → GPU", "Remote: team"
        set_type(self.place, TypeScale.CAPTION)
        self.place.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted
        self.chevron = QLabel()
        for label in (self.name, self.place, self.chevron):
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self._draw_chevron()
        self._row = hbox((self.name, 1), self.place, self.chevron, spacing=Space.XS)
        self._row.setContentsMargins(Space.S, 0, Space.XS, 0)
        self.setLayout(self._row)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setMaximumWidth(MAX_WIDTH)
        self.open_action = QAction(self)
        """Ctrl+L: opens the menu while the chat is on screen."""
        self.open_action.setShortcut(QKeySequence(SHORTCUT))
        self.open_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.open_action.triggered.connect(self.open_menu)
        self.addAction(self.open_action)
        self.show_none()

    def show_none(self) -> None:
        """No model loaded: "Choose a model"."""
        self._show(choose_a_model(), "", button_hint())

    def show_loading(self, text: str, path: str) -> None:
        """A model is loading: ``text`` ("Loading tiny-chat…"), its path in the tooltip."""
        self._show(text, "", f"{path}\n{button_hint()}")

    def show_loaded(self, loaded: LoadedModel) -> None:
        """``loaded``'s short name and where it runs; its details in the tooltip."""
        name = loaded.remote_model or model_name(loaded.model_path)
        self._show(name, loaded.device_label, f"{model_tooltip(loaded)}\n{button_hint()}")

    def _show(self, name: str, place: str, tooltip: str) -> None:
        self.name.setText(name)
        self.place.setText(place)
        self.place.setVisible(bool(place))
        self.setToolTip(tooltip)
        spoken = tr("Chat model: {name}").format(name=name)
        if place:
            spoken = tr("Chat model: {name}, on {place}").format(name=name, place=place)
        describe(self, spoken, button_hint(), tooltip=False)
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        """The labels' room (the whole name), as tall as a button."""
        height = max(CONTROL_HEIGHT, self._row.sizeHint().height())
        return QSize(min(self._row.sizeHint().width(), MAX_WIDTH), height)

    def minimumSizeHint(self) -> QSize:
        """A few letters of the name and the place: the row's other buttons keep theirs."""
        return QSize(self._row.minimumSize().width(), self.sizeHint().height())

    @Slot()
    def open_menu(self) -> None:
        """Open the menu above the button (it sits at the foot of the window), keyboard
        ready; it returns at once (``showMenu`` would wait for the menu to close)."""
        if not self.isEnabled() or not self.isVisible():
            return
        hint = self.model_menu.sizeHint()
        self.model_menu.popup(self.mapToGlobal(QPoint(0, -hint.height())))

    def event(self, event: QEvent) -> bool:
        """Draw the chevron again in the new palette's colours (light/dark switch); ask for
        room again when a label's text changed."""
        # event(), not changeEvent(): see ui.chat.input_box.ChatInput.event (PySide6 6.12.0).
        if event.type() == QEvent.Type.PaletteChange:
            self._draw_chevron()
        if event.type() == QEvent.Type.LayoutRequest:
            # A label's text changed behind this button's back (the language switch sets it):
            # the composer's row must ask for the new size hint.
            self.updateGeometry()
        return super().event(event)

    def _draw_chevron(self) -> None:
        glyph = icon("unfold-more-horizontal", palette=self.palette())
        self.chevron.setPixmap(glyph.pixmap(CHEVRON, CHEVRON))
