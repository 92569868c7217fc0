"""The Convert view's conversion-tools row: whether they are here, and an offer to install them.

Converting needs torch, transformers, optimum-intel and NNCF, which the app never imports
itself (see ``app.models.toolchain_env``). When no interpreter has them — always the case in a
frozen app until the user installs them — this row says so in one sentence and offers
*Install conversion toolchain* with the download and disk sizes. The install
(``app.models.toolchain_install``) runs as a TaskRunner job: a progress bar (bytes once uv has
announced its downloads, busy before), the phase in words, and Cancel, which kills uv and
removes the partial environment. Its failures are one sentence next to the button. When the
tools sit in the app's private environment, the row offers to remove them instead — and to
update them when they were installed with an earlier release's versions (they still convert
meanwhile); when they come from this Python's own environment (a source checkout) it is
hidden.

Every decision is a fresh ``toolchain_status`` call, so an install or removal (here or from
another window) is seen the next time the view is shown, and Convert works at once after an
install: a conversion asks for the interpreter when it starts.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.core import UserError
from app.models import (
    DISK_BYTES,
    DOWNLOAD_BYTES,
    MISSING,
    PRIVATE,
    InstallOptions,
    InstallProgress,
    ToolchainStatus,
    install_toolchain,
    remove_toolchain,
    toolchain_status,
)
from pipelines.core import Cancelled, CancelToken
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import data_size
from ui.tasks import TaskRunner
from ui.widgets.inline_error import InlineError

INSTALL_JOB = "toolchain-install"


def missing_text() -> str:
    """The row's sentence when no interpreter has the tools."""
    return tr(
        "Converting a checkpoint needs the conversion toolchain (PyTorch, Transformers, "
        "Optimum Intel and NNCF), which is not installed yet."
    )


def install_text() -> str:
    """The install button, with the download and disk sizes."""
    return tr("Install conversion toolchain (≈{download} download, {disk} on disk)").format(
        download=data_size(DOWNLOAD_BYTES), disk=data_size(DISK_BYTES)
    )


def private_text() -> str:
    """The row's sentence when the tools sit in the app's private environment."""
    return tr("The conversion toolchain is installed in this app's data folder.")


def outdated_text() -> str:
    """The row's sentence when the private tools have an earlier release's versions."""
    return tr(
        "The conversion toolchain was installed with the versions of an earlier release; "
        "update it so conversions use the versions this one was tested with."
    )


def update_text() -> str:
    """The install button when the tools are outdated."""
    return tr("Update conversion toolchain (≈{download} download)").format(
        download=data_size(DOWNLOAD_BYTES)
    )


def stopped_text() -> str:
    """What the row says after Cancel."""
    return tr("Stopped; nothing was installed.")


def installed_text() -> str:
    """What the row says after an install, until the view is next shown."""
    return tr("The conversion toolchain is installed: Convert is ready.")


_MIB = 1024**2

log = logging.getLogger(__name__)


def run_install(
    toolchain_dir: Path,
    options: InstallOptions | None,
    cancel: CancelToken,
    on_progress: Any,
) -> Path:
    """:func:`install_toolchain` in the TaskRunner's ``(…, cancel, on_progress)`` convention."""
    return install_toolchain(toolchain_dir, options, on_progress=on_progress, cancel=cancel)


class ToolchainOffer(QWidget):
    """The tools' status in one sentence, with Install (progress, Cancel) or Remove.

    Attributes:
        options: what to install and from where; None is the product's list from PyPI (a test
            gives a small set from a local wheel server).
        frozen: None asks ``app.core.runtime``; True decides as a frozen app does, where only the
            private environment counts (a test's way of being a fresh frozen install).
    """

    changed = Signal(object)  # ToolchainStatus, after every check

    def __init__(
        self,
        toolchain_dir: Path,
        tasks: TaskRunner,
        options: InstallOptions | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.toolchain_dir = toolchain_dir
        self.tasks = tasks
        self.options = options
        self.frozen: bool | None = None
        self._refreshing = False
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.install_button = QPushButton(install_text())
        set_icon(self.install_button, "download")
        describe(
            self.install_button,
            tr("Install conversion toolchain"),
            tr("Download PyTorch, Transformers, Optimum Intel and NNCF into the app's folder."),
        )
        self.remove_button = QPushButton(tr("Remove conversion toolchain"))
        set_icon(self.remove_button, "delete-outline")
        describe(
            self.remove_button,
            tr("Remove conversion toolchain"),
            tr("Delete the conversion toolchain from the app's data folder to free the space."),
        )
        self.cancel_button = QPushButton(tr("Cancel"))
        set_icon(self.cancel_button, "close")
        describe(
            self.cancel_button,
            tr("Cancel install"),
            tr("Stop installing; nothing is left behind."),
        )
        self.progress = QProgressBar()
        describe(self.progress, tr("Install progress"), tr("How much has been downloaded."))
        self.phase = QLabel()
        self.phase.setWordWrap(True)
        self.phase.hide()  # shown with a phase to tell
        self.error = InlineError()
        self._layout()
        self.install_button.clicked.connect(self.install)
        self.remove_button.clicked.connect(self.remove)
        self.cancel_button.clicked.connect(self.cancel)
        self._show_running(False)
        self.status = self.refresh()

    def _layout(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.install_button)
        buttons.addWidget(self.remove_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.progress, 1)
        buttons.addWidget(self.error, 1)  # a failure is said right beside the button
        buttons.addStretch(0)  # takes the room only when neither of those is shown
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 6)
        column.addWidget(self.message)
        column.addLayout(buttons)
        column.addWidget(self.phase)

    @property
    def installing(self) -> bool:
        """Whether an install (or a removal) runs."""
        return self.tasks.running(INSTALL_JOB)

    def showEvent(self, event: QShowEvent) -> None:
        """Look again each time the view appears (another window may have changed them). Only
        a source checkout's complete venv hides this row, and that does not change meanwhile."""
        super().showEvent(event)
        if not self.installing and not self._refreshing:
            self.refresh()

    @Slot()
    def refresh(self) -> ToolchainStatus:
        """Check where conversions would run and show the matching offer."""
        expected = self.options.requirements if self.options else None
        self.status = toolchain_status(
            self.toolchain_dir, frozen=self.frozen, expected=expected or None
        )
        self._refreshing = True  # showing this row below must not check a second time
        where, outdated = self.status.where, self.status.outdated
        texts = {MISSING: missing_text(), PRIVATE: outdated_text() if outdated else private_text()}
        self.message.setText(texts.get(where, ""))
        self.install_button.setText(update_text() if outdated else install_text())
        self.install_button.setVisible(where == MISSING or outdated)
        self.remove_button.setVisible(where == PRIVATE)
        self.setVisible(where in (MISSING, PRIVATE) or bool(self.phase.text()))
        self._refreshing = False
        self.changed.emit(self.status)
        return self.status

    @Slot()
    def install(self) -> None:
        """Install the tools in a worker; the GUI stays live, Cancel stops it."""
        if self.installing:
            return
        self.error.clear()
        self._show_running(True)
        self._set_phase(tr("Starting…"))
        self.tasks.start_with_progress(
            run_install,
            self.toolchain_dir,
            self.options,
            kind=INSTALL_JOB,
            on_progress=self._on_progress,
            on_done=self._on_installed,
            on_error=self._on_failed,
        )
        self.changed.emit(self.status)  # no conversion may start while the tools change

    @Slot()
    def remove(self) -> None:
        """Delete the private environment in a worker (1.6 GB takes a moment)."""
        if self.installing:
            return
        self.error.clear()
        self.remove_button.setEnabled(False)
        self.tasks.start(
            remove_toolchain,
            self.toolchain_dir,
            kind=INSTALL_JOB,
            on_done=self._on_removed,
            on_error=self._on_failed,
        )
        self.changed.emit(self.status)

    @Slot()
    def cancel(self) -> None:
        """Stop the install; the partial environment is removed."""
        self.tasks.cancel(INSTALL_JOB)
        self._set_phase(tr("Stopping…"))

    @Slot(object)
    def _on_progress(self, progress: InstallProgress) -> None:
        if progress.total_bytes:
            self.progress.setRange(0, max(progress.total_bytes // _MIB, 1))
            self.progress.setValue(min(progress.done_bytes, progress.total_bytes) // _MIB)
            amount = tr("{done} of {total}").format(
                done=data_size(progress.done_bytes), total=data_size(progress.total_bytes)
            )
            self._set_phase(f"{progress.message} ({amount})")  # the phase is the app's words
        else:
            self.progress.setRange(0, 0)
            self._set_phase(progress.message)

    @Slot(object)
    def _on_installed(self, _python: Path) -> None:
        self._show_running(False)
        self._set_phase("")
        self.refresh()
        self.message.setText(installed_text())  # until the view is next shown
        announce(self.message, installed_text())

    @Slot(object)
    def _on_removed(self, _removed: bool) -> None:
        self.remove_button.setEnabled(True)
        self._set_phase("")
        self.refresh()

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self._show_running(False)
        self.remove_button.setEnabled(True)
        if isinstance(error, Cancelled):
            self._set_phase(stopped_text())
            announce(self.phase, stopped_text())
        else:
            self._set_phase("")
            unexpected = tr(
                "Installing the conversion toolchain failed unexpectedly; details are in the log."
            )
            text = str(error) if isinstance(error, UserError) else unexpected
            self.error.show_message(text)
            announce(self.error, text)
            if not isinstance(error, UserError):
                log.error("installing the conversion toolchain failed", exc_info=error)
        self.refresh()

    def _set_phase(self, text: str) -> None:
        self.phase.setText(text)
        self.phase.setVisible(bool(text))

    def _show_running(self, running: bool) -> None:
        self.install_button.setEnabled(not running)
        self.cancel_button.setVisible(running)
        self.progress.setVisible(running)
        if running:
            self.progress.setRange(0, 0)
