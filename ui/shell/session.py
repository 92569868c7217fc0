"""What the window brings back on its next start: its size and place (maximised or not), the panel
shown and each panel's splitters, the folder each kind of file was last opened from, the chat model
and the server switch.

The window's part is kept in ``session.json`` (:attr:`app.core.AppPaths.session_file`, beside
the settings: it is state, not a choice the user made, so it never goes through the settings
store and its signals). It is written when the window closes, atomically, so a kill at any
moment leaves a readable file. A file that cannot be used is ignored with a note in the log
(:func:`app.core.read_state`): the window then opens as on a first start, at a size that fits
the screen.

The chat model needs no entry here: the settings keep the model last loaded (the chat choice,
saved by the model picker on each load), and :meth:`WindowSession.resume` loads it again in the
background. The MCP tool servers' listings are kept by the tool service itself
(:attr:`app.core.AppPaths.tool_listings`)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from PySide6.QtCore import QEvent, QMargins, QObject, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QSplitter, QWidget

from app.core import StorageError, read_state, write_state
from ui.shell.window_place import (
    MAX_FRAME,
    TYPICAL_FRAME,
    frame_margins,
    opening_frame,
    restored_frame,
)

if TYPE_CHECKING:
    from ui.shell.main_window import MainWindow

log = logging.getLogger(__name__)

MAX_COORDINATE = 1_000_000
"""Farther than any desktop reaches; a saved number beyond it is damage."""

Coordinate = Annotated[int, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
Length = Annotated[int, Field(ge=0, le=MAX_COORDINATE)]
Margin = Annotated[int, Field(ge=0, le=MAX_FRAME)]
Name = Annotated[str, StringConstraints(max_length=100)]
Sizes = Annotated[list[Length], Field(max_length=16)]
"""One splitter's sizes, left to right (or top to bottom)."""


class SavedPlace(BaseModel):
    """Where the window was: its frame's top-left corner, its own size, the frame around it,
    and whether it was maximised (then the place is the one it returns to)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    x: Coordinate
    y: Coordinate
    width: Annotated[int, Field(ge=1, le=MAX_COORDINATE)]
    height: Annotated[int, Field(ge=1, le=MAX_COORDINATE)]
    frame: tuple[Margin, Margin, Margin, Margin] = (
        TYPICAL_FRAME.left(),
        TYPICAL_FRAME.top(),
        TYPICAL_FRAME.right(),
        TYPICAL_FRAME.bottom(),
    )
    """Left, top, right and bottom of the window manager's frame."""
    maximized: bool = False


class WindowState(BaseModel):
    """The content of ``session.json``."""

    model_config = ConfigDict(extra="ignore")

    place: SavedPlace | None = None
    panel: Name = ""
    """The panel shown (its name in the navigation's order, untranslated)."""
    splitters: dict[Name, Annotated[list[Sizes], Field(max_length=16)]] = Field(
        default_factory=dict, max_length=32
    )
    """Per panel, the sizes of each of its splitters (in the order the panel holds them)."""
    server_on: bool = False
    """Whether the server switch was on."""
    folders: dict[Name, Annotated[str, StringConstraints(max_length=4096)]] = Field(
        default_factory=dict, max_length=32
    )
    """The folder each kind of file was last opened from or saved to
    (:class:`ui.widgets.file_dialogs.RecentFolders`; a kind it does not know is dropped)."""


class WindowSession(QObject):
    """Reads the state at start, puts the window in place, and saves the state at close."""

    def __init__(self, path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.state = read_state(path, WindowState) or WindowState()
        self._panels: dict[QWidget, str] = {}
        self._seen: set[str] = set()
        """Panels shown in this run: only their splitters' sizes are worth saving."""
        self._final = False
        """Saved for the next start (the window closed): nothing after it counts."""

    # ----- at start --------------------------------------------------------------------

    def place(self, window: QWidget) -> None:
        """Size and move ``window`` (not shown yet) where it was, on the screens present now,
        or — the first time — to a size that fits the screen it opens on."""
        screens = available_areas()
        saved = self.state.place
        if not screens:  # no screen at all: Qt's own choice
            return
        if saved is None:
            margins = TYPICAL_FRAME
            frame = opening_frame(screens[0], margins)
        else:
            margins = QMargins(*saved.frame)
            # At least the window's minimum: the place must hold the window as Qt will size it.
            size = QSize(saved.width, saved.height).expandedTo(window.minimumSize())
            frame = restored_frame(QRect(QPoint(saved.x, saved.y), size.grownBy(margins)), screens)
        size = frame.size().shrunkBy(margins)
        window.resize(size.expandedTo(QSize(1, 1)))
        window.move(frame.topLeft())  # a top-level's position is its frame's
        if saved is not None and saved.maximized:
            window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)

    def follow_panels(self, window: MainWindow) -> None:
        """Show the panel shown last time; give each panel its splitters' sizes when it is
        first shown (only then is it laid out at the window's size)."""
        for name, panel in window.panels.items():
            self._panels[panel] = name
            panel.installEventFilter(self)
        if self.state.panel in window.panels:
            window.show_panel(self.state.panel)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A panel's first show: its saved splitter sizes, now that it has its size."""
        name = self._panels.get(watched) if isinstance(watched, QWidget) else None
        if name is not None and event.type() == QEvent.Type.Show and name not in self._seen:
            assert isinstance(watched, QWidget)
            self._seen.add(name)
            saved = self.state.splitters.get(name)
            splitters = panel_splitters(watched)
            if saved is not None and len(saved) == len(splitters):
                for splitter, sizes in zip(splitters, saved, strict=True):
                    if len(sizes) == splitter.count() and sum(sizes) > 0:
                        splitter.setSizes(sizes)
        return False

    # ----- at close --------------------------------------------------------------------

    def capture(self, window: MainWindow) -> None:
        """Take the window's state as it is now (before it closes anything)."""
        state = self.state
        place = current_place(window)
        if place is not None:
            state.place = place
        current = window.stack.currentWidget()
        state.panel = next((n for n, p in window.panels.items() if p is current), state.panel)
        for name, panel in window.panels.items():
            if name in self._seen:
                state.splitters[name] = [s.sizes() for s in panel_splitters(panel)]
        state.server_on = window.server_switch.server.running
        state.folders = window.recent_folders.as_dict()

    def resume(self, window: MainWindow, *, model: bool = True, device: str | None = None) -> None:
        """Bring back what ran: the chat model loaded last (``model``; on ``device`` if given;
        loaded in the background, its progress and any failure shown where a load shows them)
        and the server, on again if it was on (or set to start with the app)."""
        if model:
            window.chat_panel.model_picker.reload_last(device)
        if self.state.server_on or window.ctx.settings.server.start_with_app:
            window.server_switch.start()

    def closing(self, window: MainWindow) -> None:
        """The window closes: save its state (once: a second close event finds the server
        already stopped)."""
        if not self._final:
            self.capture(window)
            self.save()
            self._final = True

    def save(self) -> None:
        """Write the state (a failure is logged: losing a window size is not worth a dialog)."""
        try:
            write_state(self.path, self.state)
        except StorageError as error:
            log.warning("the window's state was not saved: %s", error)


def available_areas() -> list[QRect]:
    """Each screen's area free of task bars and docks, the primary screen first."""
    primary = QGuiApplication.primaryScreen()
    screens = QGuiApplication.screens()
    ordered = ([primary] if primary is not None else []) + [s for s in screens if s != primary]
    return [screen.availableGeometry() for screen in ordered]


def current_place(window: QWidget) -> SavedPlace | None:
    """Where ``window`` is now (its normal place when maximised); None if it has none yet."""
    maximized = window.isMaximized() or window.isFullScreen()
    normal = window.normalGeometry() if maximized else window.geometry()
    if normal.width() <= 0 or normal.height() <= 0:
        return None
    margins = frame_margins(window.frameGeometry(), window.geometry())
    corner = normal.topLeft() - QPoint(margins.left(), margins.top())
    return SavedPlace(
        x=corner.x(),
        y=corner.y(),
        width=normal.width(),
        height=normal.height(),
        frame=(margins.left(), margins.top(), margins.right(), margins.bottom()),
        maximized=maximized,
    )


def panel_splitters(panel: QWidget) -> list[QSplitter]:
    """The splitters of ``panel`` itself (not of a dialog it opened), in a fixed order."""
    window = panel.window()
    return [s for s in panel.findChildren(QSplitter) if s.window() is window]
