"""Ingest and re-index progress, Cancel, and what happened file by file: the files that
failed, and the notes of files that were stored with something to know (a scanned page OCR
could not read).

The job runs through :class:`~ui.tasks.TaskRunner`, which hands the latest progress to
:meth:`IngestBox.show_progress` at a steady rate, so a fast ingest never floods the GUI thread.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.knowledge import IngestProgress, IngestReport
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.knowledge.formatting import failure_text, plural, progress_text, report_text

MAX_FAILURE_ROWS = 4


class IngestBox(QWidget):
    """Progress bar, its line and Cancel while a job runs; then the summary, failures and notes.

    The summary and the per-file lists stay until the next job starts.
    """

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        self.bar.setMaximumHeight(12)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setToolTip(tr("Stop after the document being read (it is not stored)"))
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.failures_title = QLabel()
        self.failures = QListWidget()
        self.failures.setObjectName("ingestFailures")
        self.failures.setAlternatingRowColors(True)
        describe(
            self.failures,
            tr("Files that could not be added"),
            tr("Each file that could not be added and why"),
        )
        self.notes_title = QLabel()
        self.notes = QListWidget()
        self.notes.setObjectName("ingestNotes")
        self.notes.setAlternatingRowColors(True)
        describe(
            self.notes,
            tr("Notes on files that were added"),
            tr("Each file that was added with something to know, such as a page with no text"),
        )
        set_icon(self.cancel_button, "stop")
        self.running_row = QWidget()
        row = QHBoxLayout(self.running_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.bar, 1)
        row.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.running_row)
        layout.addWidget(self.label)
        layout.addWidget(self.summary)
        layout.addWidget(self.failures_title)
        layout.addWidget(self.failures)
        layout.addWidget(self.notes_title)
        layout.addWidget(self.notes)
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.clear()

    def clear(self) -> None:
        """Hide everything (no job has run, or a new one is about to)."""
        for widget in (self.running_row, self.label, self.summary):
            widget.hide()
        lists = ((self.failures_title, self.failures), (self.notes_title, self.notes))
        for title, listing in lists:
            title.hide()
            listing.clear()
            listing.hide()
        self.summary.clear()

    def begin(self, text: str) -> None:
        """A job starts: an indeterminate bar until its first progress arrives."""
        self.clear()
        self.bar.setRange(0, 0)
        self.label.setText(text)
        self.cancel_button.setEnabled(True)
        self.cancel_button.setText(tr("Cancel"))
        self.running_row.show()
        self.label.show()

    @Slot(object)
    def show_progress(self, progress: IngestProgress) -> None:
        """Move the bar and say where the job is (or what it waits for)."""
        if progress.waiting_for_sync:
            self.bar.setRange(0, 0)  # no file of its own is read yet
        else:
            self.bar.setRange(0, max(progress.files_total, 1))
            self.bar.setValue(progress.files_done if progress.files_total else 1)
        if not self.cancel_button.isEnabled():
            return  # keep saying that it is stopping
        self.label.setText(progress_text(progress))

    def stopping(self) -> None:
        """Cancel was pressed: say what happens next."""
        self.cancel_button.setEnabled(False)
        self.cancel_button.setText(tr("Stopping…"))
        self.label.setText(tr("Stopping after the document being read; it will not be stored…"))

    def show_report(self, report: IngestReport, collection: str) -> None:
        """The job ended: its summary and the files that failed, file → reason."""
        self.running_row.hide()
        self.label.hide()
        self.summary.setText(report_text(report, collection))
        self.summary.show()
        if report.failed:
            self.failures_title.setText(
                tr("{files} could not be added:").format(files=plural(len(report.failed), "file"))
            )
            _fill(self.failures_title, self.failures, report.failed)
        if report.notes:
            # Stored all the same: a page OCR could not read is a note, not a failure.
            files = plural(len({path for path, _ in report.notes}), "file")
            self.notes_title.setText(tr("Notes on {files} that were added:").format(files=files))
            _fill(self.notes_title, self.notes, report.notes)

    def end_without_report(self) -> None:
        """The job failed as a whole (the error is shown where it belongs)."""
        self.running_row.hide()
        self.label.hide()

    def failure_lines(self) -> list[str]:
        """The per-file error list as shown."""
        return [self.failures.item(row).text() for row in range(self.failures.count())]

    def note_lines(self) -> list[str]:
        """The notes list as shown."""
        return [self.notes.item(row).text() for row in range(self.notes.count())]


def _fill(title: QLabel, listing: QListWidget, lines: list[tuple[str, str]]) -> None:
    """Show ``title`` and one row per ``(file, reason)``, the full path in its tooltip."""
    title.show()
    for path, reason in lines:
        item = QListWidgetItem(failure_text(path, reason))
        item.setToolTip(f"{path}\n{reason}")
        listing.addItem(item)
    # As tall as its lines (up to four, then it scrolls): no empty box under one line.
    rows = min(listing.count(), MAX_FAILURE_ROWS)
    listing.setFixedHeight(listing.sizeHintForRow(0) * rows + 2 * listing.frameWidth())
    listing.show()
