"""The Create panel: pictures from a prompt, edits of a picture, and the gallery they are kept in.

Left: the mode (text to image or edit), the prompt and settings, the edit's picture and tools,
the device and Generate (which becomes Cancel while a picture is drawn). Middle: the picture —
the live preview as it arrives, then the result — and, for an edit, the mask canvas. Right: the
gallery, whose Upscale runs as the picture job too. The work runs in a task over the image
service (:func:`make_pictures`, :func:`upscale_picture`); errors appear next to the control
named by their ``field``, and nothing the user typed is cleared by one.

What leaves the panel goes through signals the window connects: ``faceForAvatar`` (the Avatar
panel's face) and ``pictureForChat`` (an attachment of the chat's next message).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QTabBar, QTabWidget, QWidget

from app.core import DeviceInfo, UserError
from app.images import (
    Created,
    DiffusionFolder,
    ImageService,
    Mode,
    Picture,
    Recalled,
    Upscaled,
)
from app.models import ModelTask
from pipelines.core import Cancelled
from ui.a11y import announce, describe
from ui.create.edit_box import PICTURE_SUFFIXES, EditBox
from ui.create.failures import error_router, model_failure
from ui.create.gallery_view import GalleryView
from ui.create.picture_job import PictureJob, make_pictures
from ui.create.picture_reader import PictureReader
from ui.create.preview_pane import PreviewPane
from ui.create.prompt_form import PromptForm
from ui.create.result_text import result_caption, settings_restored, stopped
from ui.create.run_row import RunRow
from ui.create.upscale_job import upscale_picture, upscaled_caption
from ui.i18n import tr
from ui.settings_signals import SettingsSignals
from ui.shell.notifications import NotificationBar
from ui.task_state import Policy, TaskState
from ui.tasks import TaskRunner
from ui.widgets.file_drops import take_file_drop
from ui.widgets.layouts import ScrollColumn, panel_splitter, vbox
from ui.widgets.model_needed import ModelNeeded

log = logging.getLogger(__name__)

PICTURE_JOB = "create-picture"
TEXT_TAB, EDIT_TAB = 0, 1
RESULT_PAGE, MASK_PAGE = 0, 1


class CreatePanel(QWidget):
    """Pictures made and edited over the :class:`ImageService`."""

    modelsRequested = Signal(str)  # "Download…": the ModelTask value to show
    faceForAvatar = Signal(Path)
    """A gallery picture to become the Avatar panel's face."""
    pictureForChat = Signal(Path)
    """A gallery picture to attach to the chat's next message."""
    finished = Signal()
    """A picture job (Generate, Upscale) ended: made, failed, stopped or refused."""

    def __init__(
        self,
        images: ImageService,
        devices: list[DeviceInfo],
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.images = images
        self.tasks = tasks
        self.modes = QTabBar()
        self.modes.addTab(tr("Text to image"))
        self.modes.addTab(tr("Edit"))
        describe(self.modes, tr("Mode"), tr("Make a picture from text, or edit one"))
        self.form = PromptForm()
        self.edit = EditBox()
        self.run = RunRow(devices, signals, tasks, notifications)
        self.device = self.run.device
        self.generate_button = self.run.button
        self.generate_error = self.run.error
        self.unsaved = self.run.unsaved
        self.status = self.run.status
        self.model_needed = ModelNeeded()
        self.preview = PreviewPane()
        self.pictures = QTabWidget()
        self.pictures.addTab(self.preview, tr("Picture"))
        self.pictures.addTab(self.edit.canvas, tr("Mask"))
        describe(self.pictures.tabBar(), tr("Picture or mask"), tr("Show the picture or the mask"))
        self.gallery = GalleryView(images.gallery, tasks)
        self.reader = PictureReader(tasks, self)
        self.errors = error_router(
            notifications,
            self.form,
            self.edit,
            self.gallery,
            self.model_needed.note,
            self.generate_error,
        )
        self._layout()
        self._connect()
        signals.connect_model_choices((ModelTask.IMAGE_GENERATION,), self.check_model)
        self.setAcceptDrops(True)
        self._set_busy(False)
        self._show_mode(TEXT_TAB)

    def _layout(self) -> None:
        left = QWidget()
        vbox(self.model_needed, self.modes, self.edit, self.form, 1, parent=left, margins=0)
        side = QWidget()
        vbox((ScrollColumn(left), 1), self.run, parent=side, margins=0)
        self.splitter = panel_splitter(
            [side, self.pictures, self.gallery], [360, 640, 260], stretch={1: 1}
        )
        vbox(self.splitter, parent=self, margins=0)

    def _connect(self) -> None:
        self.modes.currentChanged.connect(self._show_mode)
        self.generate_button.clicked.connect(self._on_generate_clicked)
        self.model_needed.openRequested.connect(self.modelsRequested)
        self.device.deviceChanged.connect(self.check_model)
        self.edit.pictureChosen.connect(self.edit_picture)
        self.edit.mode.currentIndexChanged.connect(self._show_edit_mode)
        self.reader.pictureRead.connect(self._on_picture_read)
        self.reader.settingsRead.connect(self._on_recalled)
        self.reader.failed.connect(self._on_read_failed)
        self.gallery.reuseRequested.connect(self.restore_settings)
        self.gallery.editRequested.connect(self.edit_picture)
        self.gallery.upscaleRequested.connect(self.upscale)
        self.gallery.faceRequested.connect(self.faceForAvatar)
        self.gallery.chatRequested.connect(self.pictureForChat)
        # Ctrl+Enter draws from anywhere in the panel (Enter is a new line in the prompt).
        self.generate_key = QShortcut(QKeySequence("Ctrl+Return"), self)
        self.generate_key.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.generate_key.activated.connect(self.generate)

    # ----- state ---------------------------------------------------------------------------

    @property
    def generating(self) -> bool:
        """Whether a picture is being drawn."""
        return self.tasks.running(PICTURE_JOB)

    @property
    def editing(self) -> bool:
        """Whether the Edit mode is chosen."""
        return self.modes.currentIndex() == EDIT_TAB

    def refresh(self) -> None:
        """Read the model and the gallery again (they may have changed elsewhere)."""
        self.check_model()
        self.gallery.reload()

    @Slot()
    def check_model(self) -> None:
        """Fit the form to the model, or say up front that none is installed (a remote
        endpoint needs none here: its model's sizes are its own)."""
        facts: DiffusionFolder | None = None
        problem: UserError | None = None
        try:
            if not self.images.runs_remotely(self.device.device()):
                facts = self.images.model_facts()
        except UserError as error:  # none installed, a chosen folder gone, not an image model
            problem = error
        self.model_needed.show_problem(problem)
        self.form.set_model(facts)
        self._set_busy(self.generating)

    def event(self, event: QEvent) -> bool:
        """Shown: refresh; a picture dragged in: its settings (and, editing, the picture)."""
        # event(), not showEvent()/dropEvent(): see ui.chat.input_box.ChatInput.event.
        kind = event.type()
        if kind == QEvent.Type.Show:
            if not self.generating:
                self.refresh()
        elif take_file_drop(event, PICTURE_SUFFIXES, self.drop_files, busy=self.generating):
            return True
        return super().event(event)

    def drop_files(self, paths: list[Path]) -> None:
        """A picture dropped on the panel restores its settings; editing, it is also the
        picture to edit."""
        if self.generating or not paths:
            return
        self.restore_settings(paths[0])
        if self.editing:
            self.edit_picture(paths[0])

    @Slot(int)
    def _show_mode(self, tab: int) -> None:
        editing = tab == EDIT_TAB
        self.edit.setVisible(editing)
        self.form.set_edit(editing)
        self.pictures.setTabVisible(MASK_PAGE, editing)
        self.pictures.setCurrentIndex(MASK_PAGE if editing else RESULT_PAGE)
        self._show_edit_mode()

    @Slot()
    def _show_edit_mode(self) -> None:
        inpainting = self.editing and self.edit.current_mode() is Mode.INPAINTING
        self.pictures.setTabText(MASK_PAGE, tr("Mask") if inpainting else tr("Picture to edit"))

    def _set_busy(self, busy: bool) -> None:
        self.form.setEnabled(not busy)
        self.edit.set_busy(busy)
        self.modes.setEnabled(not busy)
        self.device.setEnabled(not busy)
        self.run.stages.setEnabled(not busy)
        self.gallery.set_locked(busy)
        self.generate_button.set_running(busy)
        self.generate_button.setEnabled(busy or not self.model_needed.text())

    # ----- pictures in ---------------------------------------------------------------------

    @Slot(Path)
    def edit_picture(self, path: Path) -> None:
        """Edit the picture in ``path`` (read in a task)."""
        self.edit.image_error.clear()
        self.modes.setCurrentIndex(EDIT_TAB)
        self.reader.read_picture(path)

    @Slot(object, Path)
    def _on_picture_read(self, picture: Picture, path: Path) -> None:
        self.edit.set_picture(picture, path)
        self.pictures.setCurrentIndex(MASK_PAGE)

    @Slot(object)
    def _on_read_failed(self, error: BaseException) -> None:
        self.errors.show(error, default_field="image")

    @Slot(Path)
    def restore_settings(self, path: Path) -> None:
        """Fill the form from the settings ``path`` carries."""
        self.reader.read_settings(path)

    @Slot(object, Path)
    def _on_recalled(self, recalled: Recalled, path: Path) -> None:
        if recalled.found:
            self.form.fill(recalled)
        self.show_status(settings_restored(path.name, recalled.found))

    def show_status(self, text: str) -> None:
        """A line under Generate that is not an error."""
        self.run.show_status(text)

    # ----- generate ------------------------------------------------------------------------

    def job(self) -> PictureJob:
        """What Generate would draw, from the controls.

        Raises:
            UserError: something is missing (``field`` names the control).
        """
        request = self.form.request()
        if not self.editing:
            return PictureJob(Mode.TEXT_TO_IMAGE, request, self.run.device_value())
        return self.edit.job(request, self.run.device_value())

    @Slot()
    def _on_generate_clicked(self) -> None:
        if self.generating:
            self.cancel()
        else:
            self.generate()

    @Slot()
    def cancel(self) -> None:
        """Stop drawing (nothing is saved)."""
        self.tasks.cancel(PICTURE_JOB)

    @Slot()
    def generate(self) -> None:
        """Draw in a task; the form stays as it is whatever happens."""
        if self.generating:
            return
        self.form.clear_errors()
        for label in (self.generate_error, self.edit.image_error, self.edit.mask_error):
            label.clear()
        self.show_status("")
        self.unsaved.dismiss()
        try:
            job = self.job()
        except UserError as error:
            self.errors.show(error, default_field="")
            self.finished.emit()
            return
        self._start(make_pictures, job, self._on_created)

    @Slot(Path)
    def upscale(self, path: Path) -> None:
        """Upscale a gallery picture as the panel's picture job (Cancel stops it)."""
        if not self.generating:
            self.generate_error.clear()
            self.show_status("")
            self._start(upscale_picture, path, self._on_upscaled)

    def _start(
        self, work: Callable[..., Any], what: object, on_done: Callable[[Any], None]
    ) -> None:
        """Run ``work(images, what, cancel, on_progress, on_preview)`` as the picture job."""
        state = TaskState()
        self.preview.start()
        self.pictures.setCurrentIndex(RESULT_PAGE)
        self.tasks.start(
            *(work, self.images, what, state.cancel, state.set_progress, state.add_partial),
            state=state,
            kind=PICTURE_JOB,
            policy=Policy.REFUSE,
            on_progress=self.preview.step,
            on_partial=self._on_previews,
            on_done=on_done,
            on_error=self._on_failed,
            on_finished=self._on_finished,
        )
        self._set_busy(True)

    @Slot(list)
    def _on_previews(self, previews: list[object]) -> None:
        self.preview.preview(previews[-1])  # type: ignore[arg-type]  # the newest is enough

    @Slot(object)
    def _on_created(self, created: Created) -> None:
        result = created.result
        self.model_needed.note.clear()  # a model evidently works now
        self.preview.result(result.pictures[0], result_caption(result))
        self.form.show_seed(result.settings.seed)
        if created.problem:  # drawn, but the gallery could not keep them
            self.unsaved.offer(result, created.problem)
        self._reload_gallery(select_newest=bool(created.saved))

    @Slot(object)
    def _on_upscaled(self, done: Upscaled) -> None:
        self.preview.result(done.picture, upscaled_caption(done))
        self.show_status(done.problem)
        self._reload_gallery(select_newest=done.saved is not None)

    def _reload_gallery(self, *, select_newest: bool) -> None:
        self.gallery.reload()
        if select_newest:
            self.gallery.loaded.connect(self._select_newest)

    @Slot()
    def _select_newest(self) -> None:
        self.gallery.loaded.disconnect(self._select_newest)
        self.gallery.list.setCurrentRow(0)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        if isinstance(error, Cancelled):
            self.preview.stopped(stopped())
            announce(self.preview.progress_label, stopped())
            return
        self.preview.show_progress(False)
        if model_failure(error):  # the model's own sentence, next to what was clicked
            log.warning("the picture failed: %s", error, exc_info=error)
            self.generate_error.show_message(str(error))
            return
        self.errors.show(error, default_field="", use_cpu=self.use_cpu)

    @Slot()
    def use_cpu(self) -> None:
        """Use CPU instead (the image model failed on another device) and draw again."""
        self.device.choose("CPU")
        self.run.stages.clear()
        self.generate()

    @Slot()
    def _on_finished(self) -> None:
        self._set_busy(False)
        self.finished.emit()
