"""The *Server* switch in the status bar: off/on, the address, Copy address / Copy token /
Server settings…, and a failure in one sentence next to it.

Starting waits until the server answers (up to 30 s) and stopping waits for open streams, so
both run as jobs on the window's TaskRunner (one at a time: a click while one runs is
ignored); the chat model loads on the first request, not at start.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QCheckBox, QLabel, QMenu, QToolButton, QWidget

from app.core import StorageError, UserError
from app.server import Address, LocalServer
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.task_state import Policy
from ui.tasks import TaskRunner
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox

log = logging.getLogger(__name__)

JOB = "server"


def off_tip() -> str:
    """The switch's description while the server is off."""
    return tr(
        "Serve your models to other programs (OpenAI-, Anthropic- and Ollama-compatible APIs)"
    )


class ServerSwitch(QWidget):
    """The switch and what it shows; it owns the app's :class:`LocalServer`."""

    settingsRequested = Signal()
    statusMessage = Signal(str)
    runningChanged = Signal(bool)

    def __init__(
        self, server: LocalServer, tasks: TaskRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.server = server
        self._tasks = tasks
        self.switch = QCheckBox(tr("Server"))
        describe(self.switch, tr("Server"), off_tip())
        self.switch.clicked.connect(self._on_clicked)
        self.address = QLabel()
        self.address.setToolTip(tr("Where other programs reach the server"))
        self.menu_button = QToolButton()
        self.menu_button.setText("⋯")
        set_icon(self.menu_button, "dots-horizontal")
        describe(
            self.menu_button,
            tr("Server menu"),
            tr("Copy the address or the token; server settings"),
        )
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu = QMenu(self.menu_button)
        self.copy_address_action = self.menu.addAction(tr("Copy &address"), self.copy_address)
        self.copy_token_action = self.menu.addAction(tr("Copy &token"), self.copy_token)
        set_icon(self.copy_address_action, "content-copy")
        set_icon(self.copy_token_action, "key-outline")
        self.menu.addSeparator()
        self.settings_action = self.menu.addAction(tr("Server &settings…"))
        set_icon(self.settings_action, "cog")
        self.settings_action.triggered.connect(self.settingsRequested)
        self.menu_button.setMenu(self.menu)
        self.error = InlineError()
        self.error.setWordWrap(False)  # one sentence in a status bar: no wrapping to 3 lines
        self.setLayout(
            hbox(self.error, self.switch, self.address, self.menu_button, margins=0, spacing=6)
        )
        self._show(None)

    @property
    def busy(self) -> bool:
        """Whether a start or a stop is under way."""
        return self._tasks.running(JOB)

    @Slot()
    def start(self, port: int | None = None) -> None:
        """Start in a worker (the settings' port unless ``port`` is given)."""
        self.error.clear()
        started = self._tasks.start(
            self.server.start,
            port,
            kind=JOB,
            policy=Policy.REFUSE,
            on_done=self._on_started,
            on_error=self._on_start_failed,
            on_finished=self._settle,
        )
        if started is not None:
            self._busy_text(tr("Starting…"), starting=True)

    @Slot()
    def stop(self) -> None:
        """Stop in a worker."""
        self.error.clear()
        started = self._tasks.start(
            self.server.stop, kind=JOB, policy=Policy.REFUSE, on_finished=self._on_stopped
        )
        if started is not None:
            self._busy_text(tr("Stopping…"), starting=False)

    @Slot()
    def restart(self) -> None:
        """Stop, then start with the current settings (both in one worker)."""
        self.error.clear()

        def restart() -> Address:
            self.server.stop()
            return self.server.start()

        started = self._tasks.start(
            restart,
            kind=JOB,
            policy=Policy.REFUSE,
            on_done=self._on_started,
            on_error=self._on_start_failed,
            on_finished=self._settle,
        )
        if started is not None:
            self._busy_text(tr("Starting…"), starting=True)

    def stop_now(self) -> None:
        """Stop on the calling thread (the window closes: nothing may outlive it)."""
        self.server.stop()

    @Slot()
    def copy_address(self) -> None:
        """Put the address on the clipboard."""
        address = self.server.address
        if address is not None:
            QGuiApplication.clipboard().setText(address.url)
            self.statusMessage.emit(tr("Address copied."))

    @Slot()
    def copy_token(self) -> None:
        """Put the token on the clipboard."""
        try:
            token = self.server.token()
        except StorageError as error:
            self._say_error(str(error))
            return
        QGuiApplication.clipboard().setText(token)
        self.statusMessage.emit(tr("Token copied: clients send it as 'Authorization: Bearer …'."))

    @Slot(bool)
    def _on_clicked(self, checked: bool) -> None:
        if checked:
            self.start()
        else:
            self.stop()

    @Slot(object)
    def _on_started(self, address: Address) -> None:
        self._show(address)
        announce(self.switch, tr("The server is on at {address}.").format(address=address.url))
        self.runningChanged.emit(True)

    @Slot(object)
    def _on_start_failed(self, error: BaseException) -> None:
        if isinstance(error, UserError | StorageError):
            self._say_error(str(error))
        else:
            log.error("the server did not start", exc_info=error)
            self._say_error(tr("The server could not start; see the log."))
        self._show(None)

    def _say_error(self, text: str) -> None:
        self.error.show_message(text)
        announce(self.error, text)

    @Slot()
    def _on_stopped(self) -> None:
        self._show(None)
        announce(self.switch, tr("The server is off."))
        self.runningChanged.emit(False)

    @Slot()
    def _settle(self) -> None:
        self.switch.setEnabled(True)

    def _busy_text(self, text: str, *, starting: bool) -> None:
        self.switch.setChecked(starting)  # started by the app, not a click, too
        self.switch.setEnabled(False)
        self.address.setText(text)
        self.address.show()

    def _show(self, address: Address | None) -> None:
        on = address is not None
        self.switch.setEnabled(True)
        self.switch.setChecked(on)
        self.address.setText(address.url if address is not None else "")
        self.address.setVisible(on)
        self.copy_address_action.setEnabled(on)
        tip = (
            tr("Serving at {address}").format(address=address.url)
            if address is not None
            else off_tip()
        )
        self.switch.setToolTip(tip)
        self.switch.setAccessibleDescription(tip)
