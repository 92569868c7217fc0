"""The Voice panel's likeness figures: shown from the voice folders, measured in the background.

Why a part of its own: the figures are measured by a second model on a worker, one voice at a
time, after a voice is made and for voices without a figure, and they must give way to the
user's own jobs (the service cancels a measurement when the user speaks or makes a voice).
This part shows what is known at once (files only), starts the measuring job when something
is missing, fills each figure in as it arrives, and says in one line, with its *Download…*
button, when the speaker-similarity model is missing.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtWidgets import QComboBox

from app.core import ModelMissingError
from app.voice import VoiceService
from pipelines.core import Cancelled
from ui.tasks import TaskRunner
from ui.voice.voice_list import VoiceList, likeness_about, likeness_text
from ui.widgets.model_needed import ModelNeeded

log = logging.getLogger(__name__)

JOB = "voice-likeness"


class LikenessRunner(QObject):
    """Keeps the list's likeness column and the missing-model line up to date."""

    def __init__(
        self,
        voice_service: VoiceService,
        voices: VoiceList,
        needed: ModelNeeded,
        tasks: TaskRunner,
        choices: QComboBox | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``choices``: a list of the voices by name (the speech box's) whose items carry
        the figure in their tooltip and accessible description."""
        super().__init__(parent)
        self.choices = choices
        self.voice_service = voice_service
        self.voices = voices
        self.needed = needed
        self.tasks = tasks
        self._stalled = False
        """The last run measured nothing (its voices cannot be measured): not started again
        until something changes (a voice made, the user's job ended, a model chosen)."""

    @property
    def running(self) -> bool:
        """Whether a measuring job runs."""
        return self.tasks.running(JOB)

    @Slot()
    def refresh(self) -> None:
        """Show the figures known now and start measuring the missing ones."""
        self._stalled = False
        self._show(start=True)

    def _show(self, *, start: bool) -> None:
        likeness = self.voice_service.likeness
        found = self.voice_service.library.voices()
        problem = likeness.problem()
        missing = isinstance(problem, ModelMissingError)
        self.needed.show_problem(problem if found and missing else None)
        self.needed.setVisible(bool(found) and missing)
        pending = problem is None and bool(likeness.pending())
        if start and pending and not self._stalled:
            self._start()
        figures = likeness.figures(found)
        encoder = likeness.encoder_name()
        self.voices.set_likeness(figures, measuring=pending and self.running, encoder=encoder)
        if self.choices is not None:
            by_name = {voice.name: figures.get(voice.id) for voice in found}
            for index in range(self.choices.count()):
                value = by_name.get(self.choices.itemText(index))
                said = likeness_text(value) if value is not None else ""
                tip = f"{said}\n{likeness_about(encoder)}" if said else ""
                self.choices.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)
                self.choices.setItemData(index, said, Qt.ItemDataRole.AccessibleDescriptionRole)

    def _start(self) -> None:
        if self.running or self.voice_service.busy:
            return
        self.tasks.start_with_progress(
            self.voice_service.likeness.measure_pending,
            kind=JOB,
            on_progress=self._on_measured,
            on_done=self._on_done,
            on_error=self._on_error,
        )

    def stop(self) -> None:
        """Cancel the measuring job (the window closes)."""
        self.tasks.cancel(JOB)

    @Slot(object)
    def _on_measured(self, _: tuple[str, float]) -> None:
        self._show(start=False)

    @Slot(object)
    def _on_done(self, measured: int) -> None:
        self._stalled = measured == 0
        self._show(start=not self._stalled)

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        if not isinstance(error, Cancelled):  # a background figure never interrupts the user
            log.warning("measuring the voices' likeness failed: %s", error)
            self._stalled = True
        self._show(start=False)
