"""The gallery's Upscale on the tiny random ×4 upscaler: a bigger copy kept next to the
picture with its settings, the panel busy while it runs, and no upscaler said in a sentence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.images import ImageSettings, Mode
from tests.ui.create.conftest import TIMEOUT_MS, create_context
from tests.ui.fakes import Script
from tests.ui.panels import host_of, open_panel
from ui.create import CreatePanel
from ui.shell import main_panels

pytestmark = pytest.mark.integration
DRAWN = ImageSettings(Mode.TEXT_TO_IMAGE, "a fox", "", 64, 48, 4, 1.0, 1, 7, 1.0, "lcm-tiny")


def _panel(qtbot: QtBot, app_home: AppPaths, script: Script, upscaler: Path | None) -> CreatePanel:
    """The panel over a gallery holding one drawn picture, ``upscaler`` chosen."""
    ctx = create_context(app_home, script, None)
    if upscaler is not None:
        ctx.settings.models = ctx.settings.models.with_folder(ModelTask.UPSCALE, upscaler)
    picture = np.random.default_rng(4).integers(0, 255, (48, 64, 3), dtype=np.uint8)
    ctx.images.gallery.save([picture], DRAWN)
    panel = open_panel(qtbot, ctx, main_panels.create_panel)
    qtbot.waitUntil(lambda: not panel.gallery.loading and bool(panel.gallery.items()), timeout=5000)
    panel.gallery.list.setCurrentRow(0)
    return panel


def _upscale(qtbot: QtBot, panel: CreatePanel) -> None:
    button = panel.gallery.buttons["upscale"]
    assert button.isEnabled() and button.text() == "Upscale"
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        # The one picture job: the gallery's edits are locked and Generate reads Stop.
        assert panel.generating and not button.isEnabled()
        assert not panel.gallery.buttons["delete"].isEnabled()


def test_upscale_keeps_a_bigger_copy_with_the_pictures_settings(
    qtbot: QtBot, app_home: AppPaths, script: Script, upscale_models_dir: Path
) -> None:
    panel = _panel(qtbot, app_home, script, upscale_models_dir / "x4")
    _upscale(qtbot, panel)
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == 2, timeout=5000)
    newest = panel.gallery.items()[0]
    assert newest.settings == ImageSettings(**{**DRAWN.__dict__, "mode": Mode.UPSCALE})
    with Image.open(newest.path) as image:
        assert image.size == (256, 192)
    assert panel.preview.caption.text() == "Upscaled ×4 with x4 · 256×192"
    qtbot.waitUntil(lambda: panel.gallery.selected() == newest, timeout=5000)
    assert panel.gallery.buttons["upscale"].isEnabled() and not panel.generating
    host_of(panel).close()


def test_no_upscaler_is_said_next_to_the_model_and_nothing_is_added(
    qtbot: QtBot, app_home: AppPaths, script: Script
) -> None:
    panel = _panel(qtbot, app_home, script, None)
    _upscale(qtbot, panel)
    assert "No upscaling model is installed" in panel.model_needed.note.text()
    assert len(panel.gallery.items()) == 1
    host_of(panel).close()
