"""Start the GUI: QApplication, theme, main window; and the scripted ``--smoke-test`` run."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.context import AppContext
from app.core import UserError
from ui.i18n import TRANSLATION
from ui.shell.gc_policy import gui_thread_gc
from ui.shell.main_window import MainWindow
from ui.shell.singleton_guard import SingletonRefGuard
from ui.shell.smoke_test import SmokeTest
from ui.theme import ThemeFollower

log = logging.getLogger(__name__)


def create_application() -> QApplication:
    """The QApplication, in the Fusion style, following the system's light/dark scheme (until
    the settings are read: ``run_gui`` then applies the theme setting)."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QApplication.setApplicationName("OV Studio")
    QApplication.setApplicationDisplayName("OV Studio")
    QApplication.setOrganizationName("OV Studio")
    QApplication.setOrganizationDomain("ov-studio.local")
    # Fusion looks the same everywhere and takes the platform's light or dark palette.
    QApplication.setStyle("Fusion")
    app = QApplication(sys.argv[:1])
    ThemeFollower(app)
    SingletonRefGuard(app)  # parented to the app: lives as long as Qt calls into Python
    return app


def missing_display(environ: Mapping[str, str] | None = None, system: str = "") -> str:
    """Why no window can open here ("" when one can): Qt would abort the process instead."""
    environ = os.environ if environ is None else environ
    if (system or sys.platform) != "linux" or environ.get("QT_QPA_PLATFORM"):
        return ""
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return ""
    return (
        "no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set). "
        "Start OV Studio from a desktop session, or use the command line: "
        "`python -m app --help`."
    )


def run_gui(
    *,
    smoke_test: bool = False,
    model: Path | None = None,
    device: str | None = None,
    prompt: str = "Hello",
) -> int:
    """Open the main window until it is closed; returns the process exit code.

    Args:
        smoke_test: Open the window, answer ``prompt`` once with ``model`` (if given), and
            exit 0 when the answer was shown, 1 otherwise (or after a hard timeout).
        model: A chat model folder to load at start (else the one used last time).
        device: Device for that model (else the saved choice).
        prompt: The smoke test's question.

    Returns:
        0 on success, 1 when the smoke test failed, 2 when the app could not start.
    """
    problem = missing_display()
    if problem:
        sys.stderr.write(f"error: {problem}\n")
        return 2
    app = create_application()
    try:
        ctx = AppContext.create()
    except UserError as error:
        # Logging may not be set up (its folder can be what failed): stderr always works.
        log.info("cannot start: %s", error)
        sys.stderr.write(f"error: {error}\n")
        return 2
    TRANSLATION.install(app, ctx.settings.language)
    follower = app.findChild(ThemeFollower)
    if isinstance(follower, ThemeFollower):
        follower.set_mode(ctx.settings.theme)  # the theme chosen in View → Theme
    with gui_thread_gc():
        window = MainWindow(ctx)
        window.show()
        smoke: SmokeTest | None = None
        quit_on_close = app.quitOnLastWindowClosed()
        if smoke_test:
            # The script closes the window and quits itself, inside the loop: a close after the
            # loop would leave a Quit event queued for whoever runs the next loop (tests do).
            app.setQuitOnLastWindowClosed(False)
            smoke = SmokeTest(window, model, device, prompt)
            QTimer.singleShot(0, smoke, smoke.start)
        elif model is not None:
            window.chat_panel.load_model(model, device)  # a bad folder is said next to the picker
        # The model loaded last time (unless one was given) and the server, if it was on.
        window.session.resume(window, model=not smoke_test and model is None, device=device)
        code = int(app.exec())
        if window.isVisible():  # the loop was ended by something else: still cancel and release
            window.close()
        app.setQuitOnLastWindowClosed(quit_on_close)
        window.deleteLater()
    return smoke.exit_code if smoke is not None else code
