"""The right side of the Avatar panel: the video shown, Save as…, and the recent results."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.avatar import AvatarService, RgbImage, VideoResult, copy_result, recent_videos
from app.core import ModelMissingError
from ui.a11y import announce, describe
from ui.avatar.gallery import Gallery
from ui.avatar.progress_line import duration_text
from ui.avatar.video_player import VideoPreview
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import decimal
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.widgets.empty_state import EmptyState
from ui.widgets.file_dialogs import FileKind, save_file
from ui.widgets.inline_error import InlineError


def result_text(result: VideoResult) -> str:
    """One line about a finished video."""
    speed = result.achieved_fps / result.fps if result.fps else 0.0
    parts = [
        tr("%n frame(s)", "", result.frames),
        duration_text(result.duration),
        tr("made at {fps} fps ({speed}× real time) on {device}").format(
            fps=decimal(result.achieved_fps, 1),
            speed=decimal(speed, 1),
            device=result.device,
        ),
    ]
    if result.faceless_frames:
        parts.append(tr("%n frame(s) without a face left as they were", "", result.faceless_frames))
    return " · ".join(parts)


def video_here() -> str:
    """The empty video area once a face is chosen."""
    return tr("Your video appears here. Choose what the face says, then Generate.")


def choose_face_first() -> str:
    """The empty video area before a face is chosen."""
    return tr("A talking face starts from a photo or a video of one face: choose one (left).")


class ResultPane(QWidget):
    """Preview (play/pause/seek), Save as… and the gallery of recent results."""

    def __init__(
        self,
        avatar: AvatarService,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.avatar = avatar
        self.tasks = tasks
        self.path: Path | None = None
        """The video shown (and saved by Save as…)."""
        self.locked = False
        """A video is being made: Save as… waits (the owner sets this)."""
        self.gallery_loading = False
        # Until there is a video: what making one needs next, and the button that gets it.
        self.empty = EmptyState()
        self.empty.show_need(video_here())
        self.preview = VideoPreview(self.empty)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.save_button = QPushButton(tr("Save as…"))
        set_icon(self.save_button, "content-save")
        describe(
            self.save_button,
            tr("Save video as"),
            tr("Copy the video shown to a file of your choice"),
        )
        self.error = InlineError()
        self.errors = ErrorRouter(notifications, {"output": self.error})
        self.gallery = Gallery()
        result_box = QGroupBox(tr("Result"))
        result_column = QVBoxLayout(result_box)
        result_column.addWidget(self.preview, 1)
        save_row = QHBoxLayout()
        save_row.addWidget(self.label, 1)
        save_row.addWidget(self.save_button, 0, Qt.AlignmentFlag.AlignTop)
        result_column.addLayout(save_row)
        result_column.addWidget(self.error)
        gallery_box = QGroupBox(tr("Recent"))
        gallery_column = QVBoxLayout(gallery_box)
        gallery_column.addWidget(self.gallery)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(result_box, 3)
        layout.addWidget(gallery_box, 1)
        self.save_button.clicked.connect(self.save_as)
        self.gallery.videoChosen.connect(self.show_video)
        self._update_save()

    def show_needs(self, missing: ModelMissingError | None, has_face: bool) -> None:
        """Say in the empty video area what a video needs first: the lip-sync model
        (``missing``) with *Convert…*; else a face (whose *Choose face…* is beside it, in the
        face box: not a second one here); else where the video appears."""
        if missing is not None:
            self.empty.show_model(missing)
        else:
            self.empty.show_need(video_here() if has_face else choose_face_first())

    def set_locked(self, locked: bool) -> None:
        """Whether a video is being made (Save as… is then disabled)."""
        self.locked = locked
        self._update_save()

    def _update_save(self) -> None:
        self.save_button.setEnabled(not self.locked and self.path is not None)

    def show_result(self, result: VideoResult) -> None:
        """A video just made: play it, say how it went, list it first in the gallery."""
        self.show_video(result.path)
        self.label.setText(result_text(result))
        self.reload_gallery()

    @Slot(Path)
    def show_video(self, path: Path) -> None:
        """Preview ``path`` (a new result, or one from the gallery) and offer to save it."""
        self.error.clear()
        self.path = path
        self.label.setText(path.name)
        self.preview.load(path)
        self._update_save()

    @Slot()
    def save_as(self) -> None:
        """Ask where, then copy the video there (temp name, then renamed)."""
        if self.path is None:
            return
        self.error.clear()
        target, _ = save_file(
            self, tr("Save video"), FileKind.VIDEOS, self.path.name, tr("MP4 video") + " (*.mp4)"
        )
        if target is None:
            return
        self.save_button.setEnabled(False)
        self.tasks.start(
            copy_result,
            self.path,
            target,
            on_done=self._on_saved,
            on_error=self._on_save_failed,
        )

    @Slot(object)
    def _on_saved(self, path: Path) -> None:
        self._update_save()
        self.label.setText(tr("Saved to {path}").format(path=path))
        announce(self.label, self.label.text())

    @Slot(object)
    def _on_save_failed(self, error: BaseException) -> None:
        self._update_save()
        self.errors.show(error, default_field="output")

    def reload_gallery(self) -> None:
        """Read the newest results and their thumbnails in a worker."""
        if self.gallery_loading:
            return
        self.gallery_loading = True
        self.tasks.start(
            recent_videos,
            self.avatar,
            on_done=self._on_gallery,
            on_error=self._on_gallery_error,
        )

    @Slot(object)
    def _on_gallery(self, videos: list[tuple[Path, RgbImage | None]]) -> None:
        self.gallery_loading = False
        self.gallery.set_videos(videos, self.path)

    @Slot(object)
    def _on_gallery_error(self, error: BaseException) -> None:
        self.gallery_loading = False
        self.errors.show(error, default_field="output")
