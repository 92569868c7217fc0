"""The Create panel's edit mode: a mask painted with the mouse (brush, size, eraser, clear,
invert) checked pixel by pixel, inpainting with the tiny inpainting fixture (the unpainted
part comes back as it was), outpainting, image to image, and the sentences for a missing
picture, an empty mask and a file that is no picture."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.images import Mode, Side
from tests.ui.create.conftest import MakePanel, generate, stripes
from ui.create import CreatePanel
from ui.create.panel import EDIT_TAB, MASK_PAGE

pytestmark = pytest.mark.integration


def _edit(qtbot: QtBot, panel: CreatePanel, path: Path) -> None:
    panel.edit_picture(path)
    qtbot.waitUntil(lambda: panel.edit.canvas.has_picture, timeout=10_000)
    assert panel.modes.currentIndex() == EDIT_TAB
    assert panel.pictures.currentIndex() == MASK_PAGE


def _stroke(qtbot: QtBot, panel: CreatePanel, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Drag the mouse over the canvas from ``start`` to ``end`` (the picture's pixels)."""
    canvas = panel.edit.canvas
    left = Qt.MouseButton.LeftButton
    qtbot.mousePress(canvas, left, pos=canvas.to_widget(*start))
    steps = 8
    for step in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * step / steps
        y = start[1] + (end[1] - start[1]) * step / steps
        qtbot.mouseMove(canvas, canvas.to_widget(x, y))
    qtbot.mouseRelease(canvas, left, pos=canvas.to_widget(*end))


def test_a_mask_painted_with_the_mouse_is_the_painted_shape(
    qtbot: QtBot, make_panel: MakePanel, inpainting_model_dir: Path, tmp_path: Path
) -> None:
    panel = make_panel(inpainting_model_dir)
    _edit(qtbot, panel, stripes(tmp_path))
    panel.edit.set_mode(Mode.INPAINTING)
    canvas = panel.edit.canvas
    assert panel.edit.mask_tools.isVisible()
    panel.edit.brush_size.setValue(8)
    _stroke(qtbot, panel, (10, 32), (50, 32))
    mask = canvas.mask_pixels()
    assert mask.shape == (64, 64)  # the picture's own size, whatever the canvas is shown at
    assert mask[32, 10] == mask[32, 30] == mask[32, 50] == 255
    assert mask[29, 30] == mask[35, 30] == 255  # 8 px wide
    assert mask[20, 30] == mask[44, 30] == mask[32, 58] == mask[5, 5] == 0
    shot = canvas.grab().toImage()  # the mask shows in red over the picture, only there
    painted = shot.pixelColor(canvas.to_widget(30.5, 32.5))
    unpainted = shot.pixelColor(canvas.to_widget(30.5, 10.5))
    assert painted.red() > 100 and painted.green() < 60  # a black stripe under the red
    assert unpainted.red() < 20  # the same black stripe, unpainted
    qtbot.mouseClick(panel.edit.eraser_button, Qt.MouseButton.LeftButton)
    _stroke(qtbot, panel, (30, 20), (30, 44))
    mask = canvas.mask_pixels()
    assert mask[32, 30] == 0 and mask[32, 12] == 255 and mask[32, 48] == 255
    qtbot.mouseClick(panel.edit.invert_button, Qt.MouseButton.LeftButton)
    inverted = canvas.mask_pixels()
    assert inverted[5, 5] == 255 and inverted[32, 12] == 0 and inverted[32, 30] == 255
    qtbot.mouseClick(panel.edit.clear_button, Qt.MouseButton.LeftButton)
    assert not canvas.mask_pixels().any()


def test_inpainting_repaints_only_the_painted_part(
    qtbot: QtBot, make_panel: MakePanel, inpainting_model_dir: Path, tmp_path: Path
) -> None:
    panel = make_panel(inpainting_model_dir)
    source = stripes(tmp_path)
    _edit(qtbot, panel, source)
    panel.edit.set_mode(Mode.INPAINTING)
    qtbot.keyClicks(panel.form.prompt, "a red door")
    panel.form.steps.setValue(40)
    generate(qtbot, panel)
    assert "Paint over the part to repaint" in panel.edit.mask_error.text()  # nothing painted
    panel.edit.brush_size.setValue(16)
    _stroke(qtbot, panel, (16, 48), (48, 48))
    assert panel.edit.mask_error.text() == ""
    generate(qtbot, panel)
    assert panel.generate_error.text() == "", panel.generate_error.text()
    assert panel.preview.previews >= 1
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == 1, timeout=5000)
    [item] = panel.gallery.items()
    assert item.settings.mode is Mode.INPAINTING
    with Image.open(item.path) as image:
        made = np.asarray(image.convert("RGB"))
    original = np.asarray(Image.open(source).convert("RGB"))
    assert made.shape == original.shape
    assert np.array_equal(made[:24], original[:24])  # far from the paint: the user's pixels
    assert not np.array_equal(made[44:52, 20:44], original[44:52, 20:44])  # repainted


def test_outpainting_grows_the_chosen_side(
    qtbot: QtBot, make_panel: MakePanel, inpainting_model_dir: Path, tmp_path: Path
) -> None:
    panel = make_panel(inpainting_model_dir)
    _edit(qtbot, panel, stripes(tmp_path))
    panel.edit.set_mode(Mode.OUTPAINTING)
    assert panel.edit.extend_row.isVisible() and not panel.edit.mask_tools.isVisible()
    panel.edit.side.setCurrentIndex(panel.edit.side.findData(Side.RIGHT.value))
    panel.edit.extend.setValue(32)
    qtbot.keyClicks(panel.form.prompt, "more sea")
    panel.form.steps.setValue(4)
    generate(qtbot, panel)
    assert panel.generate_error.text() == "", panel.generate_error.text()
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == 1, timeout=5000)
    [item] = panel.gallery.items()
    assert item.settings.mode is Mode.OUTPAINTING
    assert (item.settings.width, item.settings.height) == (96, 64)


def test_image_to_image_redraws_with_the_strength(
    qtbot: QtBot, make_panel: MakePanel, inpainting_model_dir: Path, tmp_path: Path
) -> None:
    panel = make_panel(inpainting_model_dir)
    _edit(qtbot, panel, stripes(tmp_path))
    panel.edit.set_mode(Mode.IMAGE_TO_IMAGE)
    assert panel.form.strength.isEnabled() and not panel.form.size_row.isEnabled()
    panel.form.strength.setValue(0.5)
    qtbot.keyClicks(panel.form.prompt, "in watercolour")
    panel.form.steps.setValue(4)
    generate(qtbot, panel)
    assert panel.generate_error.text() == "", panel.generate_error.text()
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == 1, timeout=5000)
    [item] = panel.gallery.items()
    assert item.settings.mode is Mode.IMAGE_TO_IMAGE and item.settings.strength == 0.5


def test_edit_without_a_picture_or_with_a_broken_one_says_so(
    qtbot: QtBot, make_panel: MakePanel, inpainting_model_dir: Path, tmp_path: Path
) -> None:
    panel = make_panel(inpainting_model_dir)
    panel.modes.setCurrentIndex(EDIT_TAB)
    qtbot.keyClicks(panel.form.prompt, "anything")
    generate(qtbot, panel)
    assert panel.edit.image_error.text() == "Choose a picture to edit first."
    broken = tmp_path / "broken.png"
    broken.write_text("not a picture", encoding="utf-8")
    panel.edit_picture(broken)
    qtbot.waitUntil(lambda: bool(panel.edit.image_error.text()), timeout=10_000)
    assert "broken.png" in panel.edit.image_error.text()
    assert not panel.edit.canvas.has_picture
    assert panel.gallery.items() == []
