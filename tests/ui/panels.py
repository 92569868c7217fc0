"""One panel built as the main window builds it, in a plain host: for UI tests whose subject is
the panel, not the window.

The host holds what the window holds for its panels — the app context, a task runner, the
settings signals and a notification bar above the panel — and the panel comes from the same
factory in ``ui/shell/main_panels.py`` the window uses, so a test's panel cannot be built
differently from the window's. Closing the host (pytest-qt does it after each test) shuts the
panel down as closing the window does, so ``nothing_left_running`` still holds it to account.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.context import AppContext
from ui.chat.panel import ChatPanel
from ui.settings_signals import SettingsSignals
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner

PanelT = TypeVar("PanelT", bound=QWidget)

HOST_SIZE = (1280, 800)
"""The main window's size when it opens."""

_open_hosts: list[PanelHost] = []
"""Every host opened in this test. A host is a top-level widget only Python holds, and a test
may keep just a part of its panel (the Chat panel's dictation): without this it would be
collected, and its panel deleted, under the test. :func:`release_hosts` lets them go."""


class PanelHost(QWidget):
    """A top-level widget holding one panel under a notification bar, as the window does."""

    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.tasks = TaskRunner(self)
        self.settings_signals = SettingsSignals(ctx.settings_store, self.tasks, self)
        self.notifications = NotificationBar()
        self.panel: QWidget | None = None
        self.resize(*HOST_SIZE)

    def hold(self, panel: PanelT) -> PanelT:
        """Lay ``panel`` out under the notification bar; returns it."""
        self.panel = panel
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 4)
        layout.addWidget(self.notifications)
        layout.addWidget(panel, 1)
        return panel

    def event(self, event: QEvent) -> bool:
        """On close, what ``MainWindow`` does for its panels: no job or change outlives it."""
        # event(), not closeEvent(): see ui.shell.main_window.MainWindow.event (PySide6 6.12.0).
        if event.type() == QEvent.Type.Close:
            self.settings_signals.close()
            if isinstance(self.panel, ChatPanel):
                self.panel.shut_down()
            self.tasks.cancel_all_and_wait()
            self.ctx.close()
        return super().event(event)


PanelFactory = Callable[[AppContext, SettingsSignals, TaskRunner, NotificationBar], PanelT]
"""A factory of ``ui.shell.main_panels`` (``chat_panel``, ``voice_panel`` …)."""


def open_panel(
    qtbot: QtBot, ctx: AppContext, factory: PanelFactory[PanelT], *, shown: bool = True
) -> PanelT:
    """The panel ``factory`` builds over ``ctx``, in a host of its own; pytest-qt closes the
    host after the test.

    Args:
        shown: show the host and make it the active window (keyboard focus works as in the
            window); False: a panel never shown, as one the window's navigation has not
            opened (the Knowledge panel starts its database only when it is shown).
    """
    host = PanelHost(ctx)
    panel = host.hold(factory(ctx, host.settings_signals, host.tasks, host.notifications))
    _open_hosts.append(host)
    qtbot.addWidget(host)
    if shown:
        host.show()
        host.activateWindow()
        qtbot.waitUntil(host.isActiveWindow, timeout=2000)
    return panel


def host_of(panel: QWidget) -> PanelHost:
    """The host ``panel`` was opened in (its context, task runner and notification bar)."""
    host = panel.window()
    assert isinstance(host, PanelHost), f"{type(panel).__name__} is not in a panel host"
    return host


def release_hosts() -> None:
    """Let the hosts of the test that ended go (pytest-qt has closed them)."""
    _open_hosts.clear()
