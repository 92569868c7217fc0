"""The Create panel's gallery: the saved pictures, newest first, as thumbnails, and what can be
done with one — open, copy, drag out, delete (with Undo), reuse its settings, edit it, make it
the avatar's face or send it to the chat.

The list and its thumbnails are read in a task (a gallery of hundreds of pictures decodes each
at thumbnail size, off the GUI thread). What happens to a picture beyond this list is asked of
the panel through signals, each carrying the picture's file.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QSize, Qt, QUrl, Signal, Slot
from PySide6.QtGui import (
    QDesktopServices,
    QGuiApplication,
    QIcon,
    QImage,
    QKeySequence,
    QPixmap,
    QShortcut,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QWidget,
)

from app.core import StorageError, UserError
from app.images import Gallery, GalleryItem
from ui.a11y import describe
from ui.chat.thumbnails import thumbnail_from_file
from ui.chat.undo_bar import UndoBar
from ui.i18n import tr
from ui.icons import set_icon
from ui.task_state import Policy
from ui.tasks import TaskRunner
from ui.voice.audio_widgets import CloseHook
from ui.widgets.flow_layout import FlowLayout
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import vbox

log = logging.getLogger(__name__)

THUMBNAIL_SIDE = 112
MAX_LISTED = 500
"""The newest pictures listed (the folder keeps every one)."""
ITEM_ROLE = Qt.ItemDataRole.UserRole
GALLERY_JOB = "create-gallery"


def read_gallery(gallery: Gallery) -> list[tuple[GalleryItem, QImage]]:
    """The newest pictures and their thumbnails (a job: reads every file's header)."""
    return [(item, thumbnail_from_file(item.path, THUMBNAIL_SIDE)) for item in gallery.items()][
        :MAX_LISTED
    ]


def picture_mime(paths: Sequence[Path]) -> QMimeData:
    """What a dragged or copied picture carries: its file, and the first one's pixels."""
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    if paths:
        image = QImage(str(paths[0]))
        if not image.isNull():
            data.setImageData(image)
    return data


class PictureList(QListWidget):
    """Thumbnails that drag out as files and pictures (into a file manager, a chat, an editor)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setViewMode(QListWidget.ViewMode.IconMode)
        self.setIconSize(QSize(THUMBNAIL_SIDE, THUMBNAIL_SIDE))
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setMovement(QListWidget.Movement.Static)
        self.setUniformItemSizes(True)
        self.setSpacing(4)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        describe(self, tr("Gallery"), tr("The pictures made, newest first; drag one out to use it"))

    def mimeData(self, items: Sequence[QListWidgetItem]) -> QMimeData:
        """The dragged pictures' files and pixels."""
        paths = [item.data(ITEM_ROLE).path for item in items if item.data(ITEM_ROLE)]
        return picture_mime(paths)

    def mimeTypes(self) -> list[str]:
        """What a drag offers."""
        return ["text/uri-list", "application/x-qt-image"]


class GalleryView(QWidget):
    """The gallery list, its actions, and Undo after a delete."""

    reuseRequested = Signal(Path)
    editRequested = Signal(Path)
    upscaleRequested = Signal(Path)
    faceRequested = Signal(Path)
    chatRequested = Signal(Path)
    loaded = Signal()

    def __init__(self, gallery: Gallery, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.gallery = gallery
        self.tasks = tasks
        self.list = PictureList()
        self.error = InlineError()
        self.undo = UndoBar()
        describe(self.undo.undo_button, tr("Undo delete"), tr("Bring the deleted picture back"))
        self._deleted: tuple[GalleryItem, bytes] | None = None
        self._locked = False
        self.buttons: dict[str, QPushButton] = {}
        actions = QWidget()
        flow = FlowLayout(actions)
        for key, text, icon, about, slot in self._actions():
            button = QPushButton(text)
            set_icon(button, icon)
            describe(button, text, about)
            button.clicked.connect(slot)
            flow.addWidget(button)
            self.buttons[key] = button
        self.action_row = actions
        self.title = QLabel(tr("Gallery"))
        self.title.setBuddy(self.list)
        vbox(self.title, (self.list, 1), actions, self.error, self.undo, parent=self, margins=0)
        self.list.itemSelectionChanged.connect(self._follow_selection)
        self.list.itemActivated.connect(self._open_item)
        self.undo.undoRequested.connect(self.undo_delete)
        # Undo is not offered past the window's life (its timer would outlive the window).
        self._close_hook = CloseHook(self, self.undo.dismiss)
        self.delete_key = QShortcut(QKeySequence.StandardKey.Delete, self.list)
        self.delete_key.setContext(Qt.ShortcutContext.WidgetShortcut)
        self.delete_key.activated.connect(self._delete_unless_locked)
        self._follow_selection()

    def _actions(self) -> list[tuple[str, str, str, str, Callable[[], None]]]:
        """Each action's key, words, icon, description and slot, in the order shown."""
        return [
            ("open", tr("Open"), "open-in-new", tr("Open in the system's viewer"), self.open),
            ("copy", tr("Copy"), "content-copy", tr("Copy the picture"), self.copy),
            (
                "reuse",
                tr("Reuse settings"),
                "recycle",
                tr("Fill the form with its settings"),
                self._reuse,
            ),
            ("edit", tr("Edit this"), "image-edit-outline", tr("Edit this picture"), self._edit),
            (
                "upscale",
                tr("Upscale"),
                "arrow-expand-all",
                tr("Make a bigger copy with the upscaling model"),
                self._upscale,
            ),
            (
                "face",
                tr("Use as avatar face"),
                "face-man-profile",
                tr("Make this picture the Avatar panel's face"),
                self._face,
            ),
            (
                "chat",
                tr("Send to chat"),
                "chat-outline",
                tr("Attach this picture to the chat's next message"),
                self._chat,
            ),
            (
                "delete",
                tr("Delete"),
                "delete-outline",
                tr("Delete this picture (Undo brings it back)"),
                self.delete,
            ),
        ]

    def event(self, event: QEvent) -> bool:
        """Shown: watch the window for its closing."""
        # event(), not showEvent(): see ui.chat.input_box.ChatInput.event (PySide6 6.12.0).
        if event.type() == QEvent.Type.Show:
            self._close_hook.attach()
        return super().event(event)

    # -- the list ---------------------------------------------------------------------------

    @property
    def loading(self) -> bool:
        """Whether the list is being read."""
        return self.tasks.running(GALLERY_JOB)

    @Slot()
    def reload(self) -> None:
        """Read the gallery again (the newest request wins)."""
        self.tasks.start(
            read_gallery,
            self.gallery,
            kind=GALLERY_JOB,
            policy=Policy.CANCEL_OLD,
            on_done=self._show_items,
            on_error=self._on_failed,
        )

    @Slot(object)
    def _show_items(self, items: list[tuple[GalleryItem, QImage]]) -> None:
        chosen = self.selected()
        self.list.clear()
        for item, thumbnail in items:
            row = QListWidgetItem()
            if not thumbnail.isNull():
                row.setIcon(QIcon(QPixmap.fromImage(thumbnail)))
            row.setData(ITEM_ROLE, item)
            prompt = item.settings.prompt
            row.setToolTip(
                f"{prompt}\n{item.settings.width}×{item.settings.height} · "
                + tr("seed {seed}").format(seed=item.settings.seed)
            )
            row.setData(Qt.ItemDataRole.AccessibleTextRole, prompt[:80])
            self.list.addItem(row)
            if chosen is not None and item.name == chosen.name:
                row.setSelected(True)
        self._follow_selection()
        self.loaded.emit()

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        log.warning("the gallery could not be listed: %s", error)
        self.error.show_message(str(error))
        self.loaded.emit()

    def items(self) -> list[GalleryItem]:
        """The pictures listed, in order."""
        return [self.list.item(row).data(ITEM_ROLE) for row in range(self.list.count())]

    def selected(self) -> GalleryItem | None:
        """The picture chosen (None: none)."""
        rows = self.list.selectedItems()
        return rows[0].data(ITEM_ROLE) if rows else None

    def select(self, name: str) -> None:
        """Choose the picture named ``name``."""
        for row in range(self.list.count()):
            entry = self.list.item(row)
            if entry.data(ITEM_ROLE).name == name:
                self.list.setCurrentItem(entry)
                return

    def set_locked(self, locked: bool) -> None:
        """While a picture is drawn, nothing is deleted or loaded into the form."""
        self._locked = locked
        self._follow_selection()

    @Slot()
    def _follow_selection(self) -> None:
        chosen = self.selected() is not None
        for key, button in self.buttons.items():
            locks = key in ("reuse", "edit", "upscale", "delete")
            button.setEnabled(chosen and not (self._locked and locks))

    # -- actions ----------------------------------------------------------------------------

    def _chosen_path(self) -> Path | None:
        item = self.selected()
        self.error.clear()
        if item is None:
            return None
        if not item.path.is_file():
            self.error.show_message(
                tr("{name} is no longer in the gallery's folder.").format(name=item.name)
            )
            self.reload()
            return None
        return item.path

    @Slot(QListWidgetItem)
    def _open_item(self, _row: QListWidgetItem) -> None:
        self.open()

    @Slot()
    def open(self) -> None:
        """Open the chosen picture in the system's viewer."""
        path = self._chosen_path()
        if path is not None and not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
            self.error.show_message(
                tr("No application on this computer opens {name}.").format(name=path.name)
            )

    @Slot()
    def copy(self) -> None:
        """Put the chosen picture (and its file) on the clipboard."""
        path = self._chosen_path()
        if path is not None:
            QGuiApplication.clipboard().setMimeData(picture_mime([path]))

    @Slot()
    def _reuse(self) -> None:
        if (path := self._chosen_path()) is not None:
            self.reuseRequested.emit(path)

    @Slot()
    def _edit(self) -> None:
        if (path := self._chosen_path()) is not None:
            self.editRequested.emit(path)

    @Slot()
    def _upscale(self) -> None:
        if (path := self._chosen_path()) is not None:
            self.upscaleRequested.emit(path)

    @Slot()
    def _face(self) -> None:
        if (path := self._chosen_path()) is not None:
            self.faceRequested.emit(path)

    @Slot()
    def _chat(self) -> None:
        if (path := self._chosen_path()) is not None:
            self.chatRequested.emit(path)

    @Slot()
    def delete(self) -> None:
        """Delete the chosen picture; Undo brings it back for a while."""
        item = self.selected()
        self.error.clear()
        if item is None:
            return
        try:
            data = item.path.read_bytes() if item.path.is_file() else b""
            self.gallery.delete(item.name)
        except (OSError, UserError, StorageError) as error:
            self.error.show_message(str(error))
            return
        self._deleted = (item, data) if data else None
        row = self.list.currentRow()
        self.list.takeItem(row)
        if data:
            self.undo.offer(item.settings.prompt or item.name)
        self._follow_selection()

    @Slot()
    def _delete_unless_locked(self) -> None:
        if not self._locked:
            self.delete()

    @Slot()
    def undo_delete(self) -> None:
        """Put the last deleted picture back."""
        deleted, self._deleted = self._deleted, None
        if deleted is None:
            return
        item, data = deleted
        try:
            self.gallery.restore(item, data)
        except (UserError, StorageError) as error:
            self.error.show_message(str(error))
            return
        self.reload()
