"""An exception nothing handles (raised in a slot, or in a plain thread): a dialog with the
sentence, Copy details and the log path; the traceback in the log; the window keeps working."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from tests.ui.helpers import ask, click, load, shown
from ui.shell.crash_dialog import CrashDialog, keeps_running
from ui.shell.main_window import MainWindow


class _Source(QObject):
    fired = Signal()


def _dialog(window: MainWindow) -> CrashDialog:
    dialogs = window.findChildren(CrashDialog)
    assert len(dialogs) == 1
    return dialogs[0]


@pytest.fixture
def reported(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    """The window's crash reporter in charge, as in the app (pytest-qt's own capture steps
    aside for these tests: the exception is what they are about)."""
    monkeypatch.setattr(sys, "excepthook", window.crash_reporter.hook)
    monkeypatch.setattr(threading, "excepthook", window.crash_reporter.thread_hook)
    return window


@pytest.mark.logs_error("ValueError: the widget state")
def test_an_exception_in_a_slot_shows_the_dialog_and_the_app_goes_on(
    qtbot: QtBot, reported: MainWindow, model_folder: Path
) -> None:
    window = reported
    source = _Source()

    def broken_slot() -> None:
        raise ValueError("the widget state was not what the slot expected")

    source.fired.connect(broken_slot)
    source.fired.emit()
    qtbot.waitUntil(lambda: bool(window.findChildren(CrashDialog)), timeout=2000)
    dialog = _dialog(window)
    qtbot.waitExposed(dialog)
    assert dialog.sentence.text() == (
        "Something went wrong (ValueError: the widget state was not what the slot expected). "
        + keeps_running()
    )
    log_file = window.ctx.paths.log_file
    assert dialog.log_line.text() == f"The details were written to {log_file}"
    click(qtbot, dialog.copy_button)
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith("Traceback (most recent call last):")
    assert "in broken_slot" in copied and copied.rstrip().endswith("slot expected")
    dialog.close()
    load(qtbot, window.chat_panel, model_folder)  # the app keeps running
    ask(qtbot, window.chat_panel, "Still there?")
    assert "Still there?" in shown(window.chat_panel)


@pytest.mark.logs_error("KeyError: 'frame'")
def test_a_burst_of_errors_is_one_dialog(qtbot: QtBot, reported: MainWindow) -> None:
    source = _Source()

    def broken_slot() -> None:
        raise KeyError("frame")

    source.fired.connect(broken_slot)
    for _ in range(3):
        source.fired.emit()
    qtbot.waitUntil(lambda: bool(reported.findChildren(CrashDialog)), timeout=2000)
    qtbot.wait(50)  # the queued reports of the other two arrive, and must not stack dialogs
    dialog = _dialog(reported)
    assert dialog.details.count("KeyError: 'frame'") == 3


@pytest.mark.logs_error("RuntimeError: a helper thread failed")
def test_an_exception_in_a_plain_thread_is_shown_on_the_gui_thread(
    qtbot: QtBot, reported: MainWindow
) -> None:
    def broken() -> None:
        raise RuntimeError("a helper thread failed")

    thread = threading.Thread(target=broken, name="helper")
    thread.start()
    thread.join(5)
    qtbot.waitUntil(lambda: bool(reported.findChildren(CrashDialog)), timeout=2000)
    assert "RuntimeError: a helper thread failed" in _dialog(reported).sentence.text()


def test_closing_the_window_gives_the_hooks_back(qtbot: QtBot, window: MainWindow) -> None:
    ours = window.crash_reporter.hook
    sys.excepthook = ours  # as in the app, where nothing else holds the hook
    try:
        window.close()
        assert sys.excepthook != ours
    finally:
        if sys.excepthook == ours:
            sys.excepthook = sys.__excepthook__
