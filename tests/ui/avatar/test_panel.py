"""The Avatar panel as a user drives it: generate, preview, cancel, errors next to their control,
faces, the gallery; status lines that never move the controls, a preview that never goes
black, no Generate for a picture without a face (real BlazeFace), a name for every control.

The panel is built alone, as the window builds it. Its avatar service is the real one; the
lip-sync engine under it is a UI-test fake (``tests/ui/avatar_fakes.py``) that writes real
little mp4 files, so what the preview plays is checked frame by frame through the media
player's video sink (a widget grab shows video as blank, DESIGN.md §8). Everything else is
real: the app context, the voice library, the chat over the fake chat pipeline."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
import soundfile
from PySide6.QtCore import QObject, QPoint, Qt, Slot
from PySide6.QtMultimedia import QMediaPlayer, QVideoFrame
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.devices import resolve_device
from app.core.errors import UserError
from app.core.model_choices import Local, device_value_of
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.voice.speech_files import PAUSE_SECONDS
from pipelines.core import DeviceError, Progress
from tests.image_samples import png_claiming
from tests.ui.avatar_fakes import (
    BLUE,
    GREEN,
    RED,
    AvatarScript,
    fake_speak,
    no_lipsync_model,
    with_fake_lipsync,
)
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, GPU, Script
from tests.ui.helpers import answer_files, click, open_window, show_panel
from tests.ui.panels import host_of, open_panel
from tests.video_samples import FPS, Color, write_clip
from ui.a11y import unlabelled_widgets
from ui.avatar import AvatarPanel
from ui.avatar.face_box import no_face_in_picture
from ui.avatar.panel import stopped
from ui.avatar.progress_line import FrameRate
from ui.avatar.result_pane import choose_face_first, video_here
from ui.chat.avatar_mode import AvatarMode
from ui.i18n import tr
from ui.shell import main_panels
from ui.shell.main_window import MainWindow
from ui.theme import dark_palette
from ui.widgets.model_needed import missing_sentence

# Messages of the offscreen test machine itself (no GPU renderer, no PipeWire or PulseAudio).
pytestmark = pytest.mark.qt_log_ignore(
    "No RHI backend",
    "pipewire",
    "PulseAudioService",
    "No audio device detected",
    "does not support raise",  # offscreen: the video widget raised after the still frame
)

PLAY_TIMEOUT_MS = 15_000


# ----- fixtures and steps --------------------------------------------------------------


def avatar_context(
    app_home: AppPaths,
    script: Script,
    avatar_script: AvatarScript,
    monkeypatch: pytest.MonkeyPatch,
) -> AppContext:
    """An app context whose avatar service makes its videos with the fake lip-sync engine, and
    whose voice speaks the fake's sentences (chat over the fake pipeline)."""
    ctx = with_fake_lipsync(make_context(app_home, [CPU, GPU], script), avatar_script, monkeypatch)
    monkeypatch.setattr(ctx.voice, "speak", fake_speak(avatar_script))
    return ctx


@pytest.fixture
def make_avatar_panel(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    avatar_script: AvatarScript,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Callable[..., AvatarPanel]]:
    """Build the Avatar panel alone over :func:`avatar_context`, its gallery read (``model``
    False: no lip-sync model is chosen or installed)."""
    panels: list[AvatarPanel] = []

    def make(*, model: bool = True) -> AvatarPanel:
        ctx = avatar_context(app_home, script, avatar_script, monkeypatch)
        if not model:
            no_lipsync_model(ctx.settings)
        panel = open_panel(qtbot, ctx, main_panels.avatar_panel)
        panels.append(panel)
        qtbot.waitUntil(lambda: not panel.result.gallery_loading, timeout=5000)
        return panel

    yield make
    for panel in panels:
        host_of(panel).close()  # stops the players, cancels and waits for workers


@pytest.fixture
def avatar_panel(make_avatar_panel: Callable[..., AvatarPanel]) -> AvatarPanel:
    return make_avatar_panel()


@pytest.fixture
def make_avatar_window(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    avatar_script: AvatarScript,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Callable[..., MainWindow]]:
    """A main window over :func:`avatar_context` (``model`` False: no lip-sync model)."""
    windows: list[MainWindow] = []

    def make(*, model: bool = True) -> MainWindow:
        ctx = avatar_context(app_home, script, avatar_script, monkeypatch)
        if not model:
            no_lipsync_model(ctx.settings)
        window = open_window(qtbot, ctx)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()  # stops the players, cancels and waits for workers


@pytest.fixture
def speech_wav(tmp_path: Path) -> Path:
    path = tmp_path / "speech.wav"
    soundfile.write(path, np.zeros(16_000, np.float32), 16_000)
    return path


def open_avatar(qtbot: QtBot, window: MainWindow) -> AvatarPanel:
    """Click "Avatar" in the navigation and wait for its gallery to be read."""
    panel = show_panel(window, "Avatar", AvatarPanel)
    qtbot.waitUntil(lambda: not panel.result.gallery_loading, timeout=5000)
    return panel


def choose_face(
    qtbot: QtBot, panel: AvatarPanel, monkeypatch: pytest.MonkeyPatch, path: Path
) -> None:
    """Choose face… → ``path``; wait for its thumbnail."""
    answer_files(monkeypatch, path)
    click(qtbot, panel.face.choose_button)
    qtbot.waitUntil(lambda: panel.face.preview is not None, timeout=5000)


def choose_speech(
    qtbot: QtBot, panel: AvatarPanel, monkeypatch: pytest.MonkeyPatch, path: Path
) -> None:
    answer_files(monkeypatch, path)
    click(qtbot, panel.speech.file_button)
    assert panel.speech.audio_path == path


def add_voice(panel: AvatarPanel | AvatarMode, name: str, wav: Path) -> None:
    """A stored voice (set-up: making one needs the speaker encoder, not tested here)."""
    vector = np.random.default_rng(0).standard_normal(512).astype(np.float32)
    panel.voice_service.library.add(name, vector, wav, 1.0)


class FrameProbe(QObject):
    """What the player shows: size and centre colour of every decoded frame, in order."""

    def __init__(self, player: QMediaPlayer) -> None:
        super().__init__()
        self.frames: list[tuple[int, int, Color]] = []
        player.videoSink().videoFrameChanged.connect(self.on_frame)

    @Slot(QVideoFrame)
    def on_frame(self, frame: QVideoFrame) -> None:
        if not frame.isValid():
            return  # the empty frame after the end
        image = frame.toImage()
        color = image.pixelColor(image.width() // 2, image.height() // 2)
        self.frames.append(
            (image.width(), image.height(), (color.red(), color.green(), color.blue()))
        )

    def colors(self) -> list[Color]:
        """The colours shown, each named once per run of frames (RED, GREEN, BLUE)."""
        runs: list[Color] = []
        for _, _, seen in self.frames:
            named = min((RED, GREEN, BLUE), key=lambda c: distance(c, seen))
            if not runs or runs[-1] != named:
                runs.append(named)
        return runs


def distance(one: Color, other: Color) -> int:
    return sum(abs(a - b) for a, b in zip(one, other, strict=True))


def near(seen: Color, expected: Color, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(seen, expected, strict=True))


# ----- Generate --------------------------------------------------------------------------


def test_generate_shows_progress_then_previews_the_video(
    qtbot: QtBot,
    avatar_panel: AvatarPanel,
    monkeypatch: pytest.MonkeyPatch,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    panel = avatar_panel
    assert not panel.result.save_button.isEnabled()  # nothing to save yet
    choose_face(qtbot, panel, monkeypatch, face_png)
    assert panel.face.hint.text() == "1 face found."
    assert not panel.face.thumbnail.pixmap().isNull()
    assert panel.signals.settings.face_image == face_png  # the face chat answers use too
    choose_speech(qtbot, panel, monkeypatch, speech_wav)
    avatar_script.hold_at = 10
    probe = FrameProbe(panel.result.preview.player)

    click(qtbot, panel.generate_button)
    qtbot.waitUntil(lambda: panel.progress_bar.value() == 10, timeout=5000)
    assert panel.progress_bar.maximum() == 25
    assert panel.progress_bar.isVisible()
    assert panel.progress_label.text().startswith("Frame 10/25")
    assert not panel.generate_button.isEnabled()
    assert panel.cancel_button.isVisible() and panel.cancel_button.isEnabled()
    assert not panel.face.choose_button.isEnabled()
    assert not panel.speech.file_button.isEnabled()

    avatar_script.release.set()
    qtbot.waitUntil(lambda: len(probe.frames) >= 20, timeout=PLAY_TIMEOUT_MS)
    result = panel.result.path
    assert result is not None and result.parent == host_of(panel).ctx.paths.avatar_dir
    assert panel.result.preview.player.source().toLocalFile() == str(result)
    assert {(w, h) for w, h, _ in probe.frames} == {(64, 64)}
    assert all(near(color, RED) for _, _, color in probe.frames)
    assert not panel.progress_bar.isVisible()
    frames = tr("%n frame(s)", "", 25)  # "25 frames" with the English catalog
    assert panel.result.label.text().startswith(f"{frames} · 1 s · made at 50.0 fps (2.0×")
    assert panel.generate_button.isEnabled() and not panel.cancel_button.isVisible()
    assert panel.result.save_button.isEnabled()
    assert avatar_script.calls[-1] == {
        "face": face_png,
        "audio": speech_wav,
        "device": resolve_device("AUTO", [CPU, GPU], "lipsync"),  # the picker's AUTO
        "face_index": None,
    }
    qtbot.waitUntil(lambda: panel.result.gallery.paths() == [result], timeout=5000)
    qtbot.waitUntil(
        lambda: panel.result.preview.play_button.text() == "Play", timeout=PLAY_TIMEOUT_MS
    )


def test_play_pause_and_seek(
    qtbot: QtBot,
    make_avatar_panel: Callable[..., AvatarPanel],
    avatar_script: AvatarScript,
    app_home: AppPaths,
) -> None:
    write_clip(app_home.avatar_dir / "long.mp4", GREEN, frames=100)  # 4 s
    panel = make_avatar_panel()  # shown now: it reads what was set up
    qtbot.waitUntil(lambda: panel.result.gallery.count() == 1, timeout=5000)
    probe = FrameProbe(panel.result.preview.player)
    panel.result.gallery.itemClicked.emit(panel.result.gallery.item(0))
    preview = panel.result.preview
    qtbot.waitUntil(lambda: preview.player.duration() >= 3900, timeout=PLAY_TIMEOUT_MS)
    qtbot.waitUntil(lambda: preview.playing, timeout=PLAY_TIMEOUT_MS)
    assert preview.play_button.text() == "Pause"
    assert preview.slider.maximum() == preview.player.duration()

    click(qtbot, preview.play_button)
    qtbot.waitUntil(lambda: not preview.playing, timeout=5000)
    assert preview.play_button.text() == "Play"
    preview.slider.setValue(3000)  # as a drag of the slider does
    qtbot.waitUntil(lambda: preview.player.position() >= 2900, timeout=5000)
    assert preview.time_label.text().startswith("0:03 / 0:0")
    click(qtbot, preview.play_button)
    qtbot.waitUntil(
        lambda: preview.player.mediaStatus() == QMediaPlayer.MediaStatus.EndOfMedia,
        timeout=PLAY_TIMEOUT_MS,
    )
    assert probe.frames and all(near(color, GREEN) for _, _, color in probe.frames)


def test_cancel_keeps_no_video_and_gives_the_controls_back(
    qtbot: QtBot,
    avatar_panel: AvatarPanel,
    monkeypatch: pytest.MonkeyPatch,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    panel = avatar_panel
    choose_face(qtbot, panel, monkeypatch, face_png)
    choose_speech(qtbot, panel, monkeypatch, speech_wav)
    avatar_script.hold_at = 5
    click(qtbot, panel.generate_button)
    qtbot.waitUntil(lambda: panel.progress_bar.value() == 5, timeout=5000)

    click(qtbot, panel.cancel_button)
    qtbot.waitUntil(lambda: not panel.generating, timeout=5000)
    assert panel.progress_label.text() == stopped()
    assert not panel.progress_bar.isVisible()
    assert panel.result.path is None and panel.result.preview.path is None
    assert not list(host_of(panel).ctx.paths.avatar_dir.rglob("*.mp4"))
    for control in (
        panel.generate_button,
        panel.face.choose_button,
        panel.speech.file_button,
        panel.device,
    ):
        assert control.isEnabled()
    assert not panel.cancel_button.isVisible()
    assert not panel.result.save_button.isEnabled()
    # What the user gave is still there: Generate again works at once.
    assert panel.face.path == face_png and panel.speech.audio_path == speech_wav
    avatar_script.hold_at = None
    click(qtbot, panel.generate_button)
    qtbot.waitUntil(lambda: panel.result.path is not None, timeout=5000)


@pytest.mark.parametrize(
    ("field", "label"),
    [("face", "face.error"), ("audio", "speech.error"), ("output", "result.error")],
)
def test_service_errors_appear_next_to_their_control(
    qtbot: QtBot,
    avatar_panel: AvatarPanel,
    monkeypatch: pytest.MonkeyPatch,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
    field: str,
    label: str,
) -> None:
    panel = avatar_panel
    choose_face(qtbot, panel, monkeypatch, face_png)
    choose_speech(qtbot, panel, monkeypatch, speech_wav)
    avatar_script.fail_with = UserError(f"Something is wrong with the {field}.", field=field)
    click(qtbot, panel.generate_button)

    labels = {
        "face.error": panel.face.error,
        "speech.error": panel.speech.error,
        "result.error": panel.result.error,
        "generate_error": panel.generate_error,
    }
    qtbot.waitUntil(lambda: labels[label].isVisible(), timeout=5000)
    assert labels[label].text() == f"Something is wrong with the {field}."
    assert [name for name, shown in labels.items() if shown.isVisible()] == [label]
    assert not host_of(panel).notifications.isVisible()
    # Nothing the user gave was cleared; the next try clears the message.
    assert panel.face.path == face_png and panel.face.preview is not None
    assert panel.speech.audio_path == speech_wav
    assert panel.generate_button.isEnabled()
    avatar_script.fail_with = None
    click(qtbot, panel.generate_button)
    assert not labels[label].isVisible()
    qtbot.waitUntil(lambda: panel.result.path is not None, timeout=5000)


def test_a_lipsync_device_failure_offers_use_cpu_instead(
    qtbot: QtBot,
    avatar_panel: AvatarPanel,
    monkeypatch: pytest.MonkeyPatch,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    """As in Chat: one click moves the lip-sync model to the CPU and generates again."""
    panel = avatar_panel
    panel.device.choose("GPU")
    choose_face(qtbot, panel, monkeypatch, face_png)
    choose_speech(qtbot, panel, monkeypatch, speech_wav)
    avatar_script.fail_with = DeviceError("Could not compile the lip-sync model", device="GPU")
    click(qtbot, panel.generate_button)
    bar = host_of(panel).notifications
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    assert "lip-sync model" in bar.message.text()
    assert bar.action_button.text() == "Use CPU instead"
    avatar_script.fail_with = None
    click(qtbot, bar.action_button)
    qtbot.waitUntil(lambda: panel.result.path is not None, timeout=5000)
    assert avatar_script.calls[-1]["device"] == "CPU" and panel.device.device() == "CPU"
    assert device_value_of(panel.signals.settings.model_choice(ModelTask.LIPSYNC)) == "CPU"
    # The detector never failed.
    assert panel.signals.settings.model_choice(ModelTask.FACE_DETECTOR).device == "CPU"


def test_a_face_detector_device_failure_keeps_the_picture_and_offers_use_cpu(
    qtbot: QtBot,
    avatar_panel: AvatarPanel,
    monkeypatch: pytest.MonkeyPatch,
    avatar_script: AvatarScript,
    face_png: Path,
) -> None:
    """Looking for faces fails on the detector's device: the thumbnail stays, CPU is one click."""
    settings = avatar_panel.signals.settings
    settings.models = settings.models.with_placement(ModelTask.FACE_DETECTOR, Local(device="GPU"))
    avatar_script.faces_fail_with = DeviceError(
        "Could not compile the face detector on GPU", device="GPU"
    )
    panel = avatar_panel
    lipsync_device = panel.device.device()
    choose_face(qtbot, panel, monkeypatch, face_png)
    bar = host_of(panel).notifications
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    assert "face detector on GPU" in bar.message.text()
    assert bar.action_button.text() == "Use CPU instead"
    assert panel.face.preview is not None and panel.face.preview.boxes == []
    avatar_script.faces_fail_with = None
    click(qtbot, bar.action_button)
    qtbot.waitUntil(lambda: panel.face.hint.text() == "1 face found.", timeout=5000)
    assert panel.signals.settings.model_choice(ModelTask.FACE_DETECTOR).device == "CPU"
    assert panel.device.device() == lipsync_device  # the lip-sync model did not fail


def test_missing_inputs_are_said_before_any_work(
    qtbot: QtBot,
    avatar_panel: AvatarPanel,
    monkeypatch: pytest.MonkeyPatch,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    panel = avatar_panel
    click(qtbot, panel.generate_button)
    assert panel.face.error.text() == "Choose a face first: a photo or a video."
    choose_face(qtbot, panel, monkeypatch, face_png)
    assert not panel.face.error.isVisible()  # choosing a face cleared it
    click(qtbot, panel.generate_button)
    assert panel.speech.error.text().startswith("Choose an audio file")
    panel.speech.voice_radio.setChecked(True)
    click(qtbot, panel.generate_button)
    assert panel.speech.error.text().startswith("Choose a voice")
    answer_files(monkeypatch, face_png.with_suffix(".gif"))
    click(qtbot, panel.speech.file_button)  # not a speech format
    click(qtbot, panel.generate_button)
    assert "is not an audio file" in panel.speech.error.text()
    assert avatar_script.calls == []  # nothing reached the service


def test_a_voice_and_a_text_are_spoken_first(
    qtbot: QtBot,
    avatar_panel: AvatarPanel,
    monkeypatch: pytest.MonkeyPatch,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    panel = avatar_panel
    add_voice(panel, "Alice", speech_wav)
    panel.refresh()
    choose_face(qtbot, panel, monkeypatch, face_png)
    panel.speech.voice_radio.setChecked(True)
    assert panel.speech.voice() == "Alice"
    qtbot.keyClicks(panel.speech.text_edit, "Hello from the avatar.")
    click(qtbot, panel.generate_button)
    qtbot.waitUntil(lambda: panel.result.path is not None, timeout=5000)
    assert avatar_script.spoken == [{"text": "Hello from the avatar.", "voice": "Alice"}]
    samples, rate = avatar_script.calls[-1]["audio"]  # type: ignore[misc]
    # The three sentences with a reader's pause between them, from memory: no temp file.
    sentence, pause = round(avatar_script.frames / FPS * rate), round(PAUSE_SECONDS * rate)
    assert rate == 16_000 and samples.size == 3 * sentence + 2 * pause


def test_no_lipsync_model_is_explained_up_front(
    qtbot: QtBot, make_avatar_panel: Callable[..., AvatarPanel]
) -> None:
    panel = make_avatar_panel(model=False)
    empty = panel.result.empty  # where the video would be: what it needs first, once
    assert empty.isVisible() and empty.text() == missing_sentence(ModelTask.LIPSYNC)
    assert empty.label.toolTip().startswith("No lip-sync model is installed.")  # the details
    assert empty.button.text() == "Convert…"  # Wav2Lip weights are never downloaded
    assert not panel.model_error.isVisible()  # not said twice


def test_without_a_face_the_empty_video_area_asks_for_one(
    qtbot: QtBot,
    make_avatar_panel: Callable[..., AvatarPanel],
    face_png: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = make_avatar_panel()
    empty = panel.result.empty
    assert empty.isVisible() and empty.text() == choose_face_first()
    assert empty.button.isHidden() and panel.face.choose_button.isVisible()  # the one button
    answer_files(monkeypatch, face_png)
    click(qtbot, panel.face.choose_button)
    assert panel.face.path == face_png
    assert empty.text() == video_here() and empty.button.isHidden()


def test_no_lipsync_model_opens_the_convert_view_and_the_panel_follows_at_once(
    qtbot: QtBot,
    make_avatar_window: Callable[..., MainWindow],
    lipsync_model_dir: Path,
) -> None:
    window = make_avatar_window(model=False)
    panel = open_avatar(qtbot, window)
    button = panel.result.empty.button
    assert button.isVisible() and button.text() == "Convert…"
    click(qtbot, button)
    manager = window.open_models()
    assert manager.tabs.currentWidget() is manager.convert_view
    assert manager.convert_view.choice.task is ModelTask.LIPSYNC
    assert manager.convert_view.source.text() == ""  # the user's own checkpoint file
    assert manager.convert_view.licence_note.isVisible()

    assert manager.add_folder(lipsync_model_dir)  # installed: the service now finds it
    assert panel.isVisible() and not panel.model_error.isVisible()
    assert panel.result.empty.text() == choose_face_first()  # the next thing it needs


# ----- faces -----------------------------------------------------------------------------


def test_several_faces_click_one_to_make_it_speak(
    qtbot: QtBot,
    make_avatar_panel: Callable[..., AvatarPanel],
    monkeypatch: pytest.MonkeyPatch,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    avatar_script.faces = [(40, 40, 50, 60), (4, 4, 30, 30)]  # largest first
    panel = make_avatar_panel()  # shown now: it reads what was set up
    choose_face(qtbot, panel, monkeypatch, face_png)
    assert panel.face.hint.text().startswith("2 faces found: click one")
    thumbnail = panel.face.thumbnail
    pixmap = thumbnail.pixmap()
    offset = QPoint(
        (thumbnail.width() - pixmap.width()) // 2, (thumbnail.height() - pixmap.height()) // 2
    )
    qtbot.mouseClick(thumbnail, Qt.MouseButton.LeftButton, pos=offset + QPoint(15, 15))
    assert panel.face.face_index == 1
    assert panel.face.hint.text() == "2 faces found: face 2 will speak."
    # The chosen face's outline is drawn solid green at its place in the thumbnail.
    image = thumbnail.pixmap().toImage()
    assert near(image.pixelColor(4, 15).getRgb()[:3], (46, 204, 113))

    choose_speech(qtbot, panel, monkeypatch, speech_wav)
    click(qtbot, panel.generate_button)
    qtbot.waitUntil(lambda: panel.result.path is not None, timeout=5000)
    assert avatar_script.calls[-1]["face_index"] == 1


def test_faces_and_speech_can_be_dropped_on_the_panel(
    qtbot: QtBot, avatar_panel: AvatarPanel, face_png: Path, speech_wav: Path, tmp_path: Path
) -> None:
    panel = avatar_panel
    panel.drop_files([face_png, speech_wav])
    qtbot.waitUntil(lambda: panel.face.preview is not None, timeout=5000)
    assert panel.face.path == face_png
    assert panel.speech.audio_path == speech_wav and panel.speech.uses_file
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a picture")
    panel.drop_files([broken])
    qtbot.waitUntil(lambda: panel.face.error.isVisible(), timeout=5000)
    assert panel.face.error.text() == "“broken.png” is not a readable image (damaged?)."


def test_a_face_of_too_many_pixels_is_refused_next_to_the_face(
    qtbot: QtBot, avatar_panel: AvatarPanel, tmp_path: Path
) -> None:
    panel = avatar_panel
    huge = tmp_path / "huge.png"
    huge.write_bytes(png_claiming(20_000, 20_000))  # decoded, 2.5 GB in lip-sync
    panel.drop_files([huge])
    qtbot.waitUntil(lambda: panel.face.error.isVisible(), timeout=5000)
    assert panel.face.error.text() == (
        "“huge.png” has too many pixels to open safely (20,000×20,000, 400 megapixels; at most "
        "180 can be opened): scale it down first."
    )
    assert panel.face.preview is None


def test_a_face_video_shows_its_first_frame(
    qtbot: QtBot, avatar_panel: AvatarPanel, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    video = write_clip(tmp_path / "talking.mp4", BLUE, frames=10, size=96)
    panel = avatar_panel
    choose_face(qtbot, panel, monkeypatch, video)
    preview = panel.face.preview
    assert preview is not None and preview.is_video and preview.image.shape == (96, 96, 3)
    assert near(tuple(int(v) for v in preview.image[48, 48]), BLUE)  # type: ignore[arg-type]


# ----- results ---------------------------------------------------------------------------


def test_gallery_lists_recent_results_and_previews_one_on_click(
    qtbot: QtBot, make_avatar_panel: Callable[..., AvatarPanel], app_home: AppPaths
) -> None:
    older = write_clip(app_home.avatar_dir / "avatar-1.mp4", GREEN)
    newer = write_clip(app_home.avatar_dir / "avatar-2.mp4", BLUE)
    os.utime(older, (1_700_000_000, 1_700_000_000))
    panel = make_avatar_panel()  # shown now: it reads what was set up
    qtbot.waitUntil(lambda: panel.result.gallery.count() == 2, timeout=5000)
    assert panel.result.gallery.paths() == [newer, older]
    assert not panel.result.gallery.item(0).icon().isNull()  # a first-frame thumbnail
    probe = FrameProbe(panel.result.preview.player)

    rect = panel.result.gallery.visualItemRect(panel.result.gallery.item(1))
    qtbot.mouseClick(panel.result.gallery.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert panel.result.path == older
    qtbot.waitUntil(lambda: len(probe.frames) >= 10, timeout=PLAY_TIMEOUT_MS)
    assert all(near(color, GREEN) for _, _, color in probe.frames)
    assert panel.result.save_button.isEnabled()


def test_save_as_copies_the_video_through_a_temp_name(
    qtbot: QtBot,
    make_avatar_panel: Callable[..., AvatarPanel],
    monkeypatch: pytest.MonkeyPatch,
    app_home: AppPaths,
    tmp_path: Path,
) -> None:
    made = write_clip(app_home.avatar_dir / "avatar-1.mp4", RED)
    panel = make_avatar_panel()  # shown now: it reads what was set up
    qtbot.waitUntil(lambda: panel.result.gallery.count() == 1, timeout=5000)
    panel.result.show_video(made)
    target = tmp_path / "out" / "greeting"
    target.parent.mkdir()
    answer_files(monkeypatch, target)
    click(qtbot, panel.result.save_button)
    qtbot.waitUntil(lambda: panel.result.label.text().startswith("Saved to"), timeout=5000)
    saved = target.with_name("greeting.mp4")
    assert saved.read_bytes() == made.read_bytes()
    assert [p.name for p in target.parent.iterdir()] == ["greeting.mp4"]  # no temp left

    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    answer_files(monkeypatch, blocked / "greeting.mp4")
    click(qtbot, panel.result.save_button)
    qtbot.waitUntil(lambda: panel.result.error.isVisible(), timeout=5000)
    assert panel.result.error.text().startswith(f"Cannot save to {blocked}")
    assert made.exists() and panel.result.path == made


def test_frame_rate_and_time_left_are_counted_from_progress() -> None:
    rate = FrameRate()
    assert rate.text(Progress("lipsync", 10, 125), now=100.0) == "Frame 10/125"
    assert rate.text(Progress("lipsync", 50, 125), now=102.0) == (
        "Frame 50/125 · 20.0 fps · about 4 s left"
    )
    said = Progress("lipsync", 60, 125, "60/125 frames, 30 frames/s, 2 s left")
    assert rate.text(said, now=103.0) == said.message  # the pipeline's own figures
    assert rate.text(Progress("speech", 1, 3, "Speaking sentence 1/3…")) == (
        "Speaking sentence 1/3…"
    )


# ----- the real pipeline ------------------------------------------------------------------


@pytest.mark.integration
def test_the_real_lipsync_model_makes_a_video_the_preview_plays(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    lipsync_model_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    speech_wav: Path,
    tmp_path: Path,
) -> None:
    """No fake: the tiny random Wav2Lip-contract model and BlazeFace on the astronaut."""
    from skimage import data

    face = tmp_path / "astronaut.png"
    assert cv2.imwrite(str(face), data.astronaut()[:, :, ::-1])
    ctx = make_context(app_home, [CPU], script)
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.LIPSYNC, lipsync_model_dir)
    panel = open_panel(qtbot, ctx, main_panels.avatar_panel)
    try:
        qtbot.waitUntil(lambda: not panel.result.gallery_loading, timeout=5000)
        assert not panel.model_error.isVisible()
        answer_files(monkeypatch, face)
        click(qtbot, panel.face.choose_button)
        qtbot.waitUntil(lambda: panel.face.preview is not None, timeout=60_000)
        assert panel.face.hint.text() == "1 face found."
        (x, y, width, height) = panel.face.preview.boxes[0]  # type: ignore[union-attr]
        assert 150 < x + width / 2 < 300 and 60 < y + height / 2 < 220  # her face
        choose_speech(qtbot, panel, monkeypatch, speech_wav)
        probe = FrameProbe(panel.result.preview.player)
        click(qtbot, panel.generate_button)
        qtbot.waitUntil(lambda: len(probe.frames) >= 20, timeout=60_000)
        frames = tr("%n frame(s)", "", 25)
        assert panel.result.label.text().startswith(f"{frames} · 1 s · made at")
        assert {(w, h) for w, h, _ in probe.frames} == {(512, 512)}
    finally:
        host_of(panel).close()


# ----- screenshot ------------------------------------------------------------------------


def where(widget: QWidget) -> QPoint:
    return widget.mapTo(widget.window(), QPoint(0, 0))


def test_status_lines_never_move_generate_or_the_speech_controls(
    qtbot: QtBot, avatar_panel: AvatarPanel
) -> None:
    panel = avatar_panel
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
    avatar_panel: AvatarPanel,
    monkeypatch: pytest.MonkeyPatch,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    """The fake writes a real red mp4; grabs of the preview are not black after it plays."""
    panel = avatar_panel
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
    panel = open_panel(qtbot, ctx, main_panels.avatar_panel)
    try:
        qtbot.waitUntil(lambda: not panel.result.gallery_loading, timeout=5000)
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
        host_of(panel).close()


def test_every_control_has_a_name_and_a_description(
    qtbot: QtBot,
    avatar_panel: AvatarPanel,
    monkeypatch: pytest.MonkeyPatch,
    face_png: Path,
) -> None:
    panel = avatar_panel
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
