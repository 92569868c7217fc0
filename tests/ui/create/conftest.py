"""The Create panel built alone over the real image service and a tiny diffusion fixture."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script
from tests.ui.panels import host_of, open_panel
from ui.create import CreatePanel
from ui.shell import main_panels

TIMEOUT_MS = 60_000
"""A tiny model draws in well under a second; a busy 2-core machine is given a minute."""

MakePanel = Callable[[Path | None], CreatePanel]


def create_context(app_home: AppPaths, script: Script, model: Path | None) -> AppContext:
    """An app context with ``model`` chosen for image generation (None: none at all)."""
    ctx = make_context(app_home, [CPU], script)
    if model is not None:
        ctx.settings.models = ctx.settings.models.with_folder(ModelTask.IMAGE_GENERATION, model)
    return ctx


@pytest.fixture
def make_panel(qtbot: QtBot, app_home: AppPaths, script: Script) -> Iterator[MakePanel]:
    """Build the Create panel alone with ``model`` chosen; each build is a fresh start of
    the panel over the same data folder (its gallery)."""
    panels: list[CreatePanel] = []

    def make(model: Path | None) -> CreatePanel:
        panel = open_panel(qtbot, create_context(app_home, script, model), main_panels.create_panel)
        panels.append(panel)
        qtbot.waitUntil(lambda: not panel.gallery.loading, timeout=5000)
        return panel

    yield make
    for panel in panels:
        if panel.window().isVisible():
            host_of(panel).close()


def generate(qtbot: QtBot, panel: CreatePanel) -> None:
    """Click Generate and wait until the run ended (made, failed or stopped)."""
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS):
        qtbot.mouseClick(panel.generate_button, Qt.MouseButton.LeftButton)


def stripes(tmp_path: Path, name: str = "stripes.png", side: int = 64) -> Path:
    """A picture with a pattern any repaint would change: vertical stripes of colour."""
    picture = np.zeros((side, side, 3), np.uint8)
    picture[:, ::4] = (230, 40, 40)
    picture[:, 1::4] = (40, 200, 60)
    path = tmp_path / name
    Image.fromarray(picture).save(path)
    return path
