"""Reading the Avatar panel's face: checked, previewed off the GUI thread, one at a time.

A face chosen in the :class:`~ui.avatar.face_box.FaceBox` (picked, dropped or remembered) is
checked at once, then read and searched for faces by a job (``app.avatar.preview_face``);
the preview, with its faces outlined, goes back to the box, and the face is remembered as the
one chat answers are spoken with. A face chosen while another is being read is read when that
one is done. Generate waits while a face is being read (:attr:`FacePreviewer.previewing`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.avatar import AvatarService, FacePreview, check_face_file, preview_face
from app.core import UserError
from ui.avatar.cpu_fallback import CpuFallback
from ui.avatar.face_box import THUMBNAIL_SIDE, FaceBox
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.settings_changes import change_settings
from ui.tasks import TaskRunner


class FacePreviewer(QObject):
    """Reads the face the box shows and hands its preview back to the box."""

    stateChanged = Signal()
    """A face started or ended being read, or its preview was shown (a picture without a
    face disables Generate)."""

    def __init__(
        self,
        avatar: AvatarService,
        tasks: TaskRunner,
        face: FaceBox,
        errors: ErrorRouter,
        cpu: CpuFallback,
        signals: SettingsSignals,
        warn: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        """Args:
        avatar: Reads the face.
        tasks: Runs the reading.
        face: The box the face is chosen in and its preview shown.
        errors: Where a problem with the face is said.
        cpu: "Use CPU instead" when the face detector failed on a device.
        signals: The settings (the face is remembered there).
        warn: Says a settings change that could not be saved.
        parent: The panel.
        """
        super().__init__(parent)
        self._avatar = avatar
        self._tasks = tasks
        self._face = face
        self._errors = errors
        self._cpu = cpu
        self._signals = signals
        self._warn = warn
        self._previewing: Path | None = None
        """The face being read and searched for faces."""

    @property
    def previewing(self) -> bool:
        """Whether a face is being read (Generate waits for it)."""
        return self._previewing is not None

    @Slot(Path)
    def read(self, path: Path) -> None:
        """Check ``path`` and read it in a job (after the one being read, if any)."""
        try:
            check_face_file(path)
        except UserError as error:
            self._face.error.show_message(str(error))
            self._face.show_unreadable()
            return
        if self._previewing is not None:
            return  # one face at a time: this one is read when that one is done
        self._previewing = path
        self.stateChanged.emit()
        self._tasks.start(
            preview_face,
            self._avatar,
            path,
            THUMBNAIL_SIDE,
            on_done=self._on_preview,
            on_error=self._on_error,
        )

    def _ended(self) -> bool:
        """Whether the face just read is still the one chosen (else that one is read now)."""
        done, self._previewing = self._previewing, None
        self.stateChanged.emit()
        if self._face.path is not None and self._face.path != done:
            self.read(self._face.path)  # chosen while the other was being read
            return False
        return True

    @Slot(object)
    def _on_preview(self, preview: FacePreview) -> None:
        if not self._ended():
            return
        self._face.show_preview(preview)
        self.stateChanged.emit()
        if preview.problem is not None:
            retry = self._cpu.offer(preview.problem, partial(self.read, preview.path))
            self._errors.show(preview.problem, default_field="face", use_cpu=retry)
        if self._signals.settings.face_image != preview.path:
            # The face chat answers are spoken with.
            change_settings(self._signals.store, self._warn, face_image=preview.path)

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        if not self._ended():
            return
        self._face.show_unreadable()
        self._errors.show(error, default_field="face")
