"""UI fixtures: one panel (``chat_panel``, or ``open_panel`` for the others) or a real main window
(``window``, ``make_window``: for what the window itself does), over a real ChatService whose
pipeline is a controllable fake."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTimer, QTranslator
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.chat.images import catalog_vision_models
from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.paths import AppPaths
from tests.ui.avatar_fakes import AvatarScript
from tests.ui.fakes import CPU, GPU, FakeChatPipeline, Script, fake_model_folder
from tests.ui.helpers import UrlCatcher, open_window
from tests.ui.panels import open_panel, release_hosts
from ui.chat.panel import ChatPanel
from ui.i18n import TRANSLATION, translations_dir
from ui.shell import main_panels, main_window
from ui.shell.gc_policy import gui_thread_gc
from ui.shell.main_window import MainWindow
from ui.shell.singleton_guard import SingletonRefGuard
from ui.tasks import TaskRunner


@pytest.fixture(scope="session", autouse=True)
def app_like_qapp(qapp: QApplication) -> None:
    """The application set up as the launcher does: Fusion, and the PySide6 6.12.0 guard."""
    QApplication.setStyle("Fusion")
    SingletonRefGuard(qapp)  # parented to the app, so it lives as long as Qt calls into Python


@pytest.fixture(scope="module", autouse=True)
def gc_on_the_gui_thread(qapp: QApplication) -> Iterator[None]:
    """As in the app: cyclic GC only on the GUI thread, never in a worker.

    Per module, so the tests that run after the UI tests get automatic collection back.
    """
    with gui_thread_gc():
        yield


@pytest.fixture(autouse=True)
def language_as_before(qapp: QApplication) -> Iterator[None]:
    """Each test starts in the same language and number format, whichever ran before it.

    Starting the app in-process (``run_gui``) installs the process's translators and default
    locale and leaves them, as the app may: the next test would then read "1,490 ms" and
    English plurals, or not, depending on the order tests run in (pytest-xdist changes it).
    """
    locale = QLocale()
    yield
    TRANSLATION.uninstall(qapp)
    QLocale.setDefault(locale)


@pytest.fixture(autouse=True)
def status_messages_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Status-bar messages stay until replaced: a test reading one must not race the product's
    8-second timeout (a busy machine can take longer than that between showing and reading)."""
    monkeypatch.setattr(main_window, "STATUS_MS", 0)


@pytest.fixture(autouse=True)
def nothing_left_running(qapp: QApplication) -> Iterator[None]:
    """Fail a test that leaves a running job or an active timer behind a window it closed.

    pytest-qt closes the test's widgets before fixtures are torn down, so this runs after.
    """
    yield
    left: list[str] = []
    for widget in QApplication.topLevelWidgets():
        if widget.isVisible():
            continue
        for runner in widget.findChildren(TaskRunner):
            if runner.active_threads:
                left.append(f"{runner.active_threads} job(s) of {type(widget).__name__}")
        for timer in widget.findChildren(QTimer):
            owner = timer.parent()
            # Ours only: Qt's own (a status message's expiry) are Qt's business.
            if timer.isActive() and type(owner).__module__.startswith("ui."):
                left.append(f"a timer of {type(owner).__name__} in {type(widget).__name__}")
    release_hosts()  # closed and checked: the panels' hosts may go
    assert not left, "left running after the window closed: " + "; ".join(left)


@pytest.fixture
def script() -> Iterator[Script]:
    """What the fake pipeline does in this test."""
    script = Script()
    yield script
    script.unblock()  # never leave a fake generation or load waiting


def make_context(paths: AppPaths, devices: list[DeviceInfo], script: Script) -> AppContext:
    """A real AppContext whose chat service builds fake pipelines."""
    ctx = AppContext.create(paths, devices)
    ctx.chat = ChatService(
        ConversationStore(paths.conversations_dir),
        ctx.metrics,
        devices,
        pipeline_factory=lambda config: FakeChatPipeline(config, script),  # type: ignore[arg-type, return-value]
        vision_models=catalog_vision_models,  # vision folders load the real VisionChatPipeline
    )
    return ctx


@pytest.fixture
def model_folder(tmp_path: Path) -> Path:
    """A folder the chat-model checks accept (the fake pipeline needs no weights)."""
    return fake_model_folder(tmp_path)


@pytest.fixture
def ctx(app_home: AppPaths, script: Script) -> AppContext:
    """The app context a panel is built from: a machine with a CPU and a GPU, as ``window``'s
    (the panel's host closes it, as the window does)."""
    return make_context(app_home, [CPU, GPU], script)


@pytest.fixture
def chat_panel(qtbot: QtBot, ctx: AppContext) -> ChatPanel:
    """The Chat panel alone, built as the window builds it, over ``ctx``."""
    return open_panel(qtbot, ctx, main_panels.chat_panel)


@pytest.fixture
def make_chat_panel(
    qtbot: QtBot, app_home: AppPaths, script: Script
) -> Callable[[list[DeviceInfo]], ChatPanel]:
    """Build the Chat panel alone on a machine with the given (fake) devices."""

    def make(devices: list[DeviceInfo]) -> ChatPanel:
        return open_panel(qtbot, make_context(app_home, devices, script), main_panels.chat_panel)

    return make


@pytest.fixture
def make_window(
    qtbot: QtBot, app_home: AppPaths, script: Script
) -> Callable[[list[DeviceInfo]], MainWindow]:
    """Build and show a main window over a given (fake) device list."""

    def make(devices: list[DeviceInfo]) -> MainWindow:
        window = open_window(qtbot, make_context(app_home, devices, script))
        window.activateWindow()  # window shortcuts (F12, Esc) need the active window
        qtbot.waitUntil(window.isActiveWindow, timeout=2000)
        return window

    return make


@pytest.fixture
def window(make_window: Callable[[list[DeviceInfo]], MainWindow]) -> MainWindow:
    """A main window on a machine with a CPU and a GPU."""
    return make_window([CPU, GPU])


@pytest.fixture
def face_png(tmp_path: Path) -> Path:
    """A small face picture for the Avatar panel (what is in it does not matter to the fake)."""
    import cv2
    import numpy as np

    path = tmp_path / "face.png"
    image = np.full((120, 96, 3), 200, np.uint8)
    cv2.circle(image, (48, 56), 30, (60, 120, 200), -1)
    assert cv2.imwrite(str(path), image)
    return path


@pytest.fixture
def avatar_script() -> Iterator[AvatarScript]:
    """What the fake avatar service does (tests change it between steps)."""
    script = AvatarScript()
    yield script
    script.unblock()  # never leave a fake job waiting


@pytest.fixture
def opened() -> Iterator[UrlCatcher]:
    """Files the app asks the desktop to open, caught instead of opened."""
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("file", catcher, "open")
    yield catcher
    QDesktopServices.unsetUrlHandler("file")


@contextmanager
def language_installed(language: str, folder: Path) -> Iterator[None]:
    """The catalog of ``language`` compiled fresh from its .ts into ``folder`` and installed,
    with Qt's own strings (standard buttons) as ``ui.i18n.Translation`` loads them in the app;
    "en" installs nothing (the source strings are English)."""
    if language == "en":
        yield
        return
    qm = folder / f"ov_studio_{language}.qm"
    lrelease = Path(sys.executable).with_name("pyside6-lrelease")
    source = translations_dir() / f"ov_studio_{language}.ts"
    subprocess.run([str(lrelease), "-silent", str(source), "-qm", str(qm)], check=True)
    translator = QTranslator()
    assert translator.load(str(qm))
    qt_strings = QTranslator()
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    assert qt_strings.load(str(Path(qt_dir) / f"qtbase_{language.split('_')[0]}.qm"))
    for installed in (translator, qt_strings):
        QCoreApplication.installTranslator(installed)
    try:
        yield
    finally:
        for installed in (translator, qt_strings):
            QCoreApplication.removeTranslator(installed)


@pytest.fixture
def german(qapp: QApplication, tmp_path: Path) -> Iterator[None]:
    """The German catalog compiled fresh from its .ts and installed for one test."""
    with language_installed("de", tmp_path):
        yield


@pytest.fixture(params=["en", "de"])
def ui_language(
    request: pytest.FixtureRequest, qapp: QApplication, tmp_path: Path
) -> Iterator[str]:
    """The test runs once in English and once in German (installed before the window is
    built, as at start); the language's code."""
    with language_installed(str(request.param), tmp_path):
        yield str(request.param)


@pytest.fixture(params=["light", "dark"])
def ui_theme(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The test runs once in the light and once in the dark theme, styled as the launcher
    styles the application (palette and style sheet); the theme's name."""
    from ui.theme import ThemeFollower

    follower = ThemeFollower(qapp, str(request.param))
    try:
        yield str(request.param)
    finally:
        follower.remove()


@pytest.fixture
def app_look(qapp: QApplication) -> Iterator[None]:
    """The application styled and translated as the launcher leaves it (light theme, English
    catalog for plural forms): for the README pictures a test writes."""
    from ui.i18n import Translation
    from ui.theme import ThemeFollower

    follower = ThemeFollower(qapp, "light")
    translation = Translation()
    translation.install(qapp, "en")
    try:
        yield
    finally:
        translation.uninstall(qapp)
        follower.remove()


@pytest.fixture
def german_numbers() -> Iterator[QLocale]:
    """Numbers written as in Germany for one test (the language setting's default locale)."""
    before = QLocale()
    german = QLocale("de_DE")
    QLocale.setDefault(german)
    try:
        yield german
    finally:
        QLocale.setDefault(before)
