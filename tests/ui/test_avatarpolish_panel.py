"""Issue 18 polish of the Avatar panel: still controls, a preview that never goes black, no
Generate for a picture without a face (real BlazeFace), names for every control, screenshots.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from tests.ui.avatar.test_panel import (
    PLAY_TIMEOUT_MS,
    choose_face,
    choose_speech,
    make_avatar_window,
    open_avatar,
    speech_wav,
    window,
)
from tests.ui.avatar_fakes import AvatarScript
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script
from tests.ui.helpers import answer_files, click, open_window
from ui.a11y import unlabelled_widgets
from ui.avatar.face_box import no_face_in_picture
from ui.shell.main_window import MainWindow
from ui.theme import dark_palette

__all__ = ["make_avatar_window", "speech_wav", "window"]  # fixtures
pytestmark = pytest.mark.qt_log_ignore(
    "No RHI backend",
    "pipewire",
    "PulseAudioService",
    "No audio device detected",
    "does not support raise",
)


def where(widget: QWidget) -> QPoint:
    return widget.mapTo(widget.window(), QPoint(0, 0))


def test_status_lines_never_move_generate_or_the_speech_controls(
    qtbot: QtBot, window: MainWindow
) -> None:
    panel = open_avatar(qtbot, window)
    buttons = [panel.generate_button, panel.speech.file_button, panel.face.choose_button]
    before = [where(button) for button in buttons]
    lines = [panel.speech.error, panel.subtitles.note, panel.generate_error, panel.result.error]
    long = "A problem that is said in a long sentence, long enough to wrap on two lines. " * 2
    for line in lines:
        line.show_message(long)
        QApplication.processEvents()
        assert [where(button) for button in buttons] == before, line
        line.clear()
    panel._show_progress(True)
    panel.progress_label.setText("Frame 1/25 · 10.0 fps · 2 s left")
    QApplication.processEvents()
    assert [where(button) for button in buttons] == before
    panel._show_progress(False)
    QApplication.processEvents()
    assert [where(button) for button in buttons] == before


def test_the_preview_shows_the_last_frame_after_the_end_and_after_stop(
    qtbot: QtBot,
    window: MainWindow,
    monkeypatch: pytest.MonkeyPatch,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    """The fake writes a real red mp4; grabs of the preview are not black after it plays."""
    panel = open_avatar(qtbot, window)
    choose_face(qtbot, panel, monkeypatch, face_png)
    choose_speech(qtbot, panel, monkeypatch, speech_wav)
    avatar_script.release.set()
    preview = panel.result.preview
    click(qtbot, panel.generate_button)
    qtbot.waitUntil(lambda: preview.playing, timeout=PLAY_TIMEOUT_MS)
    qtbot.waitUntil(lambda: not preview.playing, timeout=PLAY_TIMEOUT_MS)  # the end
    qtbot.waitUntil(lambda: preview.showing_still, timeout=PLAY_TIMEOUT_MS)
    assert_not_black(preview)
    click(qtbot, preview.play_button)  # again from the start, then stopped
    qtbot.waitUntil(lambda: preview.playing, timeout=PLAY_TIMEOUT_MS)
    assert not preview.showing_still
    preview.player.stop()
    qtbot.waitUntil(lambda: preview.showing_still, timeout=PLAY_TIMEOUT_MS)
    assert_not_black(preview)


def assert_not_black(widget: QWidget) -> None:
    image = widget.grab().toImage()
    centre = image.pixelColor(image.width() // 2, image.height() // 3)
    assert centre.red() > 150 and centre.green() < 100, centre.name()  # the red video


def test_a_picture_without_a_face_disables_generate_and_says_why(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    lipsync_model_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """The real BlazeFace: a gradient has no face, the astronaut has one."""
    from skimage import data

    gradient = tmp_path / "gradient.png"
    ramp = np.tile(np.linspace(0, 255, 256, dtype=np.uint8), (256, 1))
    assert cv2.imwrite(str(gradient), np.dstack([ramp, ramp[::-1], ramp.T]))
    face = tmp_path / "astronaut.png"
    assert cv2.imwrite(str(face), data.astronaut()[:, :, ::-1])
    ctx = make_context(app_home, [CPU], script)
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.LIPSYNC, lipsync_model_dir)
    window = open_window(qtbot, ctx)
    try:
        panel = open_avatar(qtbot, window)
        answer_files(monkeypatch, gradient)
        click(qtbot, panel.face.choose_button)
        qtbot.waitUntil(lambda: panel.face.preview is not None, timeout=60_000)
        assert panel.face.no_face
        assert not panel.generate_button.isEnabled()
        assert panel.face.error.isVisible() and panel.face.error.text() == no_face_in_picture()
        answer_files(monkeypatch, face)
        click(qtbot, panel.face.choose_button)
        qtbot.waitUntil(lambda: panel.face.preview is not None, timeout=60_000)
        assert panel.face.hint.text() == "1 face found."
        assert not panel.face.error.isVisible()
        assert panel.generate_button.isEnabled()
    finally:
        window.close()


def test_every_control_has_a_name_and_a_description(
    qtbot: QtBot,
    window: MainWindow,
    monkeypatch: pytest.MonkeyPatch,
    face_png: Path,
) -> None:
    panel = open_avatar(qtbot, window)
    assert unlabelled_widgets(panel) == []
    choose_face(qtbot, panel, monkeypatch, face_png)
    panel.speech.voice_radio.setChecked(True)
    assert unlabelled_widgets(panel) == []


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("size", [(1600, 1000), (1024, 700)], ids=["large", "small"])
def test_screenshot(
    qtbot: QtBot,
    make_avatar_window: Callable[[], MainWindow],
    monkeypatch: pytest.MonkeyPatch,
    face_png: Path,
    size: tuple[int, int],
    dark: bool,
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    original = app.palette()
    if dark:
        app.setPalette(dark_palette())
    try:
        window = make_avatar_window()
        window.resize(*size)
        panel = open_avatar(qtbot, window)
        choose_face(qtbot, panel, monkeypatch, face_png)
        QApplication.processEvents()
        folder = Path("/tmp/shots-voice")
        folder.mkdir(exist_ok=True)
        name = f"avatar-{size[0]}x{size[1]}-{'dark' if dark else 'light'}.png"
        assert window.grab().save(str(folder / name))
    finally:
        app.setPalette(original)
