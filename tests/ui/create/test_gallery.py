"""The Create panel's gallery: kept across a fresh start of the panel, newest first; reuse
settings, edit this, delete with Undo, copy and drag out (a file and its pixels), a picture
sent to the Avatar panel or the chat through the window; a dropped picture restores its
settings, and hostile ones fall back to the defaults."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, PngImagePlugin
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app.images import Mode
from tests.ui.create.conftest import MakePanel, create_context, generate, stripes
from tests.ui.fakes import Script
from tests.ui.helpers import UrlCatcher, drop, local, open_window
from ui.create import CreatePanel
from ui.create.panel import EDIT_TAB

pytestmark = pytest.mark.integration


def _made(qtbot: QtBot, panel: CreatePanel, prompt: str, seed: int, count: int = 1) -> None:
    panel.form.prompt.setPlainText(prompt)
    panel.form.seed.setText(str(seed))
    panel.form.steps.setValue(2)
    panel.form.count.setValue(count)
    before = len(panel.gallery.items())
    generate(qtbot, panel)
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == before + count, timeout=5000)


def _click(qtbot: QtBot, panel: CreatePanel, action: str) -> None:
    qtbot.mouseClick(panel.gallery.buttons[action], Qt.MouseButton.LeftButton)


def test_the_gallery_is_there_after_a_fresh_start_newest_first(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path
) -> None:
    panel = make_panel(diffusion_model_dir)
    _made(qtbot, panel, "first", 1)
    _made(qtbot, panel, "second", 2, count=2)
    assert panel.gallery.selected() == panel.gallery.items()[0]  # the newest is chosen
    panel.window().close()
    again = make_panel(diffusion_model_dir)
    prompts = [item.settings.prompt for item in again.gallery.items()]
    assert prompts == ["second", "second", "first"]
    assert all(not again.gallery.list.item(row).icon().isNull() for row in range(3))


def test_reuse_settings_and_edit_this(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path
) -> None:
    panel = make_panel(diffusion_model_dir)
    _made(qtbot, panel, "a quiet harbour", 77)
    panel.form.prompt.setPlainText("something else")
    panel.form.seed.clear()
    panel.form.steps.setValue(9)
    _click(qtbot, panel, "reuse")
    qtbot.waitUntil(lambda: panel.form.prompt.toPlainText() == "a quiet harbour", timeout=5000)
    assert panel.form.seed.text() == "77" and panel.form.steps.value() == 2
    assert "are in the form" in panel.status.text()
    _click(qtbot, panel, "edit")
    qtbot.waitUntil(lambda: panel.edit.canvas.has_picture, timeout=5000)
    assert panel.modes.currentIndex() == EDIT_TAB
    assert panel.edit.source == panel.gallery.items()[0].path


def test_delete_and_undo(qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path) -> None:
    panel = make_panel(diffusion_model_dir)
    _made(qtbot, panel, "to be deleted", 5)
    [item] = panel.gallery.items()
    _click(qtbot, panel, "delete")
    assert panel.gallery.items() == [] and not item.path.exists()
    assert panel.gallery.undo.isVisible()
    qtbot.mouseClick(panel.gallery.undo.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == 1, timeout=5000)
    assert panel.gallery.items()[0].name == item.name and item.path.is_file()
    panel.gallery.list.setFocus()
    panel.gallery.select(item.name)
    qtbot.keyClick(panel.gallery.list, Qt.Key.Key_Delete)  # the key does what the button does
    assert panel.gallery.items() == [] and not item.path.exists()


def test_copy_and_drag_out_carry_the_file_and_its_pixels(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path
) -> None:
    panel = make_panel(diffusion_model_dir)
    _made(qtbot, panel, "a drag", 9)
    [item] = panel.gallery.items()
    dragged = panel.gallery.list.mimeData([panel.gallery.list.item(0)])
    assert [url.toLocalFile() for url in dragged.urls()] == [str(item.path)]
    assert dragged.hasImage()
    _click(qtbot, panel, "copy")
    copied = QGuiApplication.clipboard().mimeData()
    assert copied.hasImage()
    assert [url.toLocalFile() for url in copied.urls()] == [str(item.path)]


def test_face_and_chat_go_through_the_window(
    qtbot: QtBot,
    app_home,
    script: Script,
    diffusion_model_dir: Path,  # type: ignore[no-untyped-def]
) -> None:
    window = open_window(qtbot, create_context(app_home, script, diffusion_model_dir))
    window.show_panel("Create")
    panel = window.create_panel
    qtbot.waitUntil(lambda: not panel.gallery.loading, timeout=5000)
    _made(qtbot, panel, "a face", 3)
    [item] = panel.gallery.items()
    with qtbot.waitSignal(panel.faceForAvatar) as sent:
        _click(qtbot, panel, "face")
    assert sent.args == [item.path]
    assert window.avatar_panel.face.path == item.path
    assert window.stack.currentWidget() is window.avatar_panel
    window.show_panel("Create")
    with qtbot.waitSignal(panel.pictureForChat):
        _click(qtbot, panel, "chat")
    assert window.stack.currentWidget() is window.chat_panel
    attachments = window.chat_panel.attachments
    qtbot.waitUntil(lambda: len(attachments.tiles) == 1, timeout=10_000)


def _png_with(path: Path, chunk: str) -> Path:
    info = PngImagePlugin.PngInfo()
    info.add_itxt("ov-studio", chunk)
    Image.fromarray(np.zeros((8, 8, 3), np.uint8)).save(path, pnginfo=info)
    return path


def test_a_dropped_picture_restores_its_settings_and_hostile_ones_are_defaults(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path, tmp_path: Path
) -> None:
    panel = make_panel(diffusion_model_dir)
    panel.form.prompt.setPlainText("mine")
    panel.form.steps.setValue(7)
    mixed = {
        "prompt": "a cat",
        "seed": "not a number",
        "steps": 10**9,
        "guidance": "NaN",
        "width": -5,
        "count": 3,
        "mode": "mind-reading",
    }
    assert drop(panel, local(_png_with(tmp_path / "mixed.png", json.dumps(mixed))))
    qtbot.waitUntil(lambda: panel.form.prompt.toPlainText() == "a cat", timeout=5000)
    assert panel.form.seed.text() == ""  # random
    assert panel.form.steps.value() == 0 and panel.form.guidance.value() == 0.0  # model's own
    assert panel.form.count.value() == 3
    deep = "[" * 100_000 + "]" * 100_000
    panel.form.prompt.setPlainText("kept")
    assert drop(panel, local(_png_with(tmp_path / "deep.png", deep)))
    qtbot.waitUntil(lambda: "carries no settings" in panel.status.text(), timeout=5000)
    assert panel.form.prompt.toPlainText() == "kept"
    not_png = tmp_path / "text.png"
    not_png.write_text("hello", encoding="utf-8")
    assert drop(panel, local(not_png))
    qtbot.waitUntil(lambda: "text.png carries no settings" in panel.status.text(), timeout=5000)
    assert not drop(panel, local(tmp_path / "notes.txt"))  # not a picture: not taken


def test_a_picture_dropped_while_editing_is_also_the_picture_to_edit(
    qtbot: QtBot, make_panel: MakePanel, inpainting_model_dir: Path, tmp_path: Path
) -> None:
    panel = make_panel(inpainting_model_dir)
    panel.modes.setCurrentIndex(EDIT_TAB)
    source = stripes(tmp_path)
    assert drop(panel, local(source))
    qtbot.waitUntil(lambda: panel.edit.canvas.has_picture, timeout=5000)
    assert panel.edit.source == source
    assert panel.edit.current_mode() is Mode.IMAGE_TO_IMAGE


def test_open_hands_the_picture_to_the_desktop(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path, opened: UrlCatcher
) -> None:
    panel = make_panel(diffusion_model_dir)
    _made(qtbot, panel, "to open", 4)
    [item] = panel.gallery.items()
    _click(qtbot, panel, "open")
    assert [url.toLocalFile() for url in opened.urls] == [str(item.path)]
    item.path.unlink()  # gone behind the app's back: a sentence, and the list follows
    _click(qtbot, panel, "open")
    assert "is no longer in the gallery's folder" in panel.gallery.error.text()
    qtbot.waitUntil(lambda: panel.gallery.items() == [], timeout=5000)
