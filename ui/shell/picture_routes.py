"""Where a Create panel's picture goes when the user sends it on: the Avatar panel's face, or
an attachment of the chat's next message. Panels know nothing of each other; the window owns
this router, which carries the picture and shows the panel that received it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot

if TYPE_CHECKING:
    from ui.shell.main_window import MainWindow


class PictureRoutes(QObject):
    """Connects the Create panel's ``faceForAvatar`` and ``pictureForChat`` (window-owned)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        window.create_panel.faceForAvatar.connect(self.to_avatar)
        window.create_panel.pictureForChat.connect(self.to_chat)

    @Slot(Path)
    def to_avatar(self, picture: Path) -> None:
        """``picture`` becomes the avatar's face (previewed there, its faces found)."""
        self._window.avatar_panel.face.set_face(picture)
        self._window.show_panel("Avatar")

    @Slot(Path)
    def to_chat(self, picture: Path) -> None:
        """``picture`` is attached to the chat's draft (read and checked there)."""
        self._window.chat_panel.attachments.add_paths([picture])
        self._window.show_panel("Chat")
