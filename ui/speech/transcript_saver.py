"""Saving a transcript as a file: subtitles (SubRip or WebVTT, timed by word) or plain text.

The Transcribe dialog's *Save subtitles…* and *Save text…* hand the transcript to a
:class:`TranscriptSaver`, which asks where (next to the audio file, under its name) and writes
the file off the GUI thread (``app.speech.write_subtitles``, ``save_transcript_text``). A
name without an ending gets the one of the filter chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QWidget

from app.speech import FORMATS, Transcript, save_transcript_text, write_subtitles
from ui.i18n import tr
from ui.tasks import TaskRunner
from ui.widgets.file_dialogs import FileKind, save_file

Writer = Callable[[Path, Transcript], Path]


def subtitle_filters() -> str:
    """The save dialog's filters, one per subtitle format (the formats' own names)."""
    return ";;".join(
        tr("{format} subtitles").format(format=name) + f" (*{suffix})"
        for suffix, name in FORMATS.items()
    )


def text_filter() -> str:
    """The save dialog's filter for plain text."""
    return tr("Text") + " (*.txt)"


class TranscriptSaver(QObject):
    """Asks where to save a transcript, then writes it in a job."""

    saved = Signal(object)
    """Path: the file written."""
    failed = Signal(object)
    """BaseException: the file could not be written (its ``field`` is ``output``)."""

    def __init__(self, tasks: TaskRunner, parent: QWidget) -> None:
        """Args:
        tasks: Runs the writing.
        parent: The dialog (the file dialog's parent).
        """
        super().__init__(parent)
        self._dialog = parent
        self._tasks = tasks

    def save_subtitles(self, transcript: Transcript, audio: Path) -> None:
        """Ask where, then write the subtitles (SubRip or WebVTT by the name's ending)."""
        title = tr("Save subtitles")
        self._save(transcript, audio, ".srt", subtitle_filters(), write_subtitles, title)

    def save_text(self, transcript: Transcript, audio: Path) -> None:
        """Ask where, then write the transcript's text."""
        title = tr("Save text")
        self._save(transcript, audio, ".txt", text_filter(), save_transcript_text, title)

    def _save(
        self,
        transcript: Transcript,
        audio: Path,
        suffix: str,
        filters: str,
        write: Writer,
        title: str,
    ) -> None:
        # Beside the audio: a transcript belongs with what it transcribes.
        proposed = str(audio.with_suffix(suffix))
        target, chosen = save_file(self._dialog, title, FileKind.TRANSCRIPTS, proposed, filters)
        if target is None:
            return
        if not target.suffix:  # the filter chosen says which kind
            target = target.with_suffix(".vtt" if "*.vtt" in chosen else suffix)
        self._tasks.start(
            write, target, transcript, on_done=self._on_saved, on_error=self._on_failed
        )

    @Slot(object)
    def _on_saved(self, path: Path) -> None:
        self.saved.emit(path)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self.failed.emit(error)
