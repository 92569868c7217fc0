"""An unexpected exception: a dialog with one sentence, *Copy details* and the log path.

:class:`CrashReporter` takes over ``sys.excepthook`` (PySide6 hands it what a slot raises,
and so does Python for the main thread) and ``threading.excepthook``: the traceback goes to
the log file, the dialog says what happened in a sentence, and the app keeps running. Nothing
leaves the machine: *Copy details* puts the traceback on the clipboard for the user to share
if they choose. Errors of jobs in workers are not this: ``ErrorRouter`` shows those.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QWidget

from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.dialog_rows import describe_standard_buttons
from ui.widgets.layouts import vbox

log = logging.getLogger(__name__)


def keeps_running() -> str:
    """What the dialog adds to every sentence, in the user's language."""
    return tr(
        "OV Studio keeps running; if something looks wrong, save your work and restart it. "
        "Nothing was sent anywhere."
    )


def crash_sentence(error: BaseException) -> str:
    """``Something went wrong (ValueError: boom).``: the type and the first line, cut short."""
    first = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
    what = f"{type(error).__name__}{': ' + first if first else ''}"  # Python's words: as is
    return tr("Something went wrong ({error}).").format(error=what)


class CrashDialog(QDialog):
    """The sentence, where the log is, and *Copy details* (the traceback, to the clipboard)."""

    def __init__(
        self, sentence: str, details: str, log_file: Path, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("OV Studio — unexpected error"))
        self.details = details
        self.sentence = QLabel(f"{sentence} {keeps_running()}")
        self.sentence.setWordWrap(True)
        self.log_line = QLabel(tr("The details were written to {path}").format(path=log_file))
        self.log_line.setWordWrap(True)
        self.log_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_button = QPushButton(tr("&Copy details"))
        set_icon(self.copy_button, "content-copy")
        describe(
            self.copy_button,
            tr("Copy details"),
            tr("Put the error's technical details on the clipboard, to share if you choose."),
        )
        self.copy_button.clicked.connect(self.copy_details)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        describe_standard_buttons(buttons)
        close.setDefault(True)  # Enter closes, as Escape does
        buttons.rejected.connect(self.reject)
        vbox(self.sentence, self.log_line, 1, buttons, parent=self)  # spare room: above buttons
        self.setMinimumWidth(460)
        self.setAccessibleDescription(self.sentence.text())  # read when the dialog opens

    @Slot()
    def copy_details(self) -> None:
        """Put the traceback on the clipboard (the user decides where it goes)."""
        QGuiApplication.clipboard().setText(self.details)
        self.copy_button.setText(tr("Copied"))
        announce(self.copy_button, tr("The details are on the clipboard."))


class CrashReporter(QObject):
    """Shows unexpected exceptions in a :class:`CrashDialog` over ``window`` (one at a time)."""

    crashed = Signal(str, str)  # sentence, details: queued to the GUI thread from any thread

    def __init__(self, window: QWidget, log_file: Path) -> None:
        super().__init__(window)
        self.window = window
        self.log_file = log_file
        self.dialog: CrashDialog | None = None
        self._previous = sys.excepthook
        self._previous_thread = threading.excepthook
        self.crashed.connect(self._show)

    def install(self) -> None:
        """Take over ``sys.excepthook`` and ``threading.excepthook`` (until :meth:`uninstall`)."""
        self._previous, self._previous_thread = sys.excepthook, threading.excepthook
        sys.excepthook = self.hook
        threading.excepthook = self.thread_hook

    def uninstall(self) -> None:
        """Give the hooks back, unless someone else has taken them since."""
        if sys.excepthook == self.hook:
            sys.excepthook = self._previous
        if threading.excepthook == self.thread_hook:
            threading.excepthook = self._previous_thread

    def hook(
        self,
        kind: type[BaseException],
        error: BaseException,
        trace: TracebackType | None,
    ) -> None:
        """``sys.excepthook``: log the traceback, then show the dialog."""
        if issubclass(kind, KeyboardInterrupt):  # Ctrl+C in the terminal: not a crash
            self._previous(kind, error, trace)
            return
        log.error("unexpected error", exc_info=(kind, error, trace))
        details = "".join(traceback.format_exception(kind, error, trace))
        self.crashed.emit(crash_sentence(error), details)

    def thread_hook(self, args: threading.ExceptHookArgs) -> None:
        """``threading.excepthook``: the same, for a thread that is not a worker."""
        if args.exc_value is None:
            self._previous_thread(args)
            return
        self.hook(args.exc_type, args.exc_value, args.exc_traceback)

    @Slot(str, str)
    def _show(self, sentence: str, details: str) -> None:
        if self.dialog is not None and self.dialog.isVisible():
            # A burst (a paint handler failing every frame) must not stack dialogs.
            self.dialog.details += "\n" + details
            return
        self.dialog = CrashDialog(sentence, details, self.log_file, self.window)
        self.dialog.open()
