"""Ingest and re-index progress, Cancel, and what happened file by file.

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
    """Progress bar, its line and Cancel while a job runs; then the summary and failures.

    The summary and the per-file error list stay until the next job starts.
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
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.clear()

    def clear(self) -> None:
        """Hide everything (no job has run, or a new one is about to)."""
        for widget in (self.running_row, self.label, self.summary, self.failures_title):
            widget.hide()
        self.failures.clear()
        self.failures.hide()
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
        """Move the bar and say where the job is."""
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
            self.failures_title.show()
            for path, reason in report.failed:
                item = QListWidgetItem(failure_text(path, reason))
                item.setToolTip(f"{path}\n{reason}")
                self.failures.addItem(item)
            # As tall as its lines (up to four, then it scrolls): no empty box under one line.
            rows = min(self.failures.count(), MAX_FAILURE_ROWS)
            frame = 2 * self.failures.frameWidth()
            self.failures.setFixedHeight(self.failures.sizeHintForRow(0) * rows + frame)
            self.failures.show()

    def end_without_report(self) -> None:
        """The job failed as a whole (the error is shown where it belongs)."""
        self.running_row.hide()
        self.label.hide()

    def failure_lines(self) -> list[str]:
        """The per-file error list as shown."""
        return [self.failures.item(row).text() for row in range(self.failures.count())]
