"""UI fixtures: a real main window over a ChatService whose pipeline is a controllable fake."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.conversations import ConversationStore
from app.devices import DeviceInfo
from app.paths import AppPaths
from app.services.chat import ChatService
from tests.ui.fakes import FakeChatPipeline, Script, fake_model_folder
from ui.gc_policy import GuiThreadGarbageCollector
from ui.main_window import MainWindow
from ui.singleton_guard import SingletonRefGuard

CPU = DeviceInfo("CPU", "Test CPU")
GPU = DeviceInfo("GPU", "Test iGPU")


@pytest.fixture(scope="session", autouse=True)
def gui_thread_gc(qapp: QApplication) -> Iterator[None]:
    """As in the app: cyclic GC only on the GUI thread, never in a worker."""
    collector = GuiThreadGarbageCollector(qapp)
    SingletonRefGuard(qapp)  # as in the app: see ui/singleton_guard.py
    yield
    collector.stop()


@pytest.fixture
def script() -> Iterator[Script]:
    script = Script()
    yield script
    script.release.set()  # never leave a fake generation or load waiting
    if script.load_gate is not None:
        script.load_gate.set()


def make_context(paths: AppPaths, devices: list[DeviceInfo], script: Script) -> AppContext:
    """A real AppContext whose chat service builds fake pipelines."""
    ctx = AppContext.create(paths, devices)
    ctx.chat = ChatService(
        ConversationStore(paths.conversations_dir),
        ctx.metrics,
        devices,
        pipeline_factory=lambda config: FakeChatPipeline(config, script),  # type: ignore[arg-type, return-value]
    )
    return ctx


@pytest.fixture
def model_folder(tmp_path: Path) -> Path:
    return fake_model_folder(tmp_path)


@pytest.fixture
def window(qtbot: QtBot, app_home: AppPaths, script: Script) -> MainWindow:
    ctx = make_context(app_home, [CPU, GPU], script)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    return window
