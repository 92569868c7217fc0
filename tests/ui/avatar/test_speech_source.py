"""A speech made in the Voice panel, handed to the Avatar panel in one click ("Use in Avatar").

Speech comes from the real VoiceService over the tiny random SpeechT5 (no sound card: it is
made, not played); the avatar service is the real one over the UI tests' lip-sync engine
(``tests/ui/avatar_fakes.py``), which records what Generate gave it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
import soundfile
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QPainter, QPixmap
from pytestqt.qtbot import QtBot

from app.core.audio import devices as audio_devices
from app.core.errors import StorageError
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.voice.spoken_clips import KEEP, keep_spoken
from pipelines.voice.audio import MODEL_RATE
from tests.ui.avatar_fakes import AvatarScript, with_fake_lipsync
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script
from tests.ui.helpers import answer_files, click, open_window, show_panel
from tests.video_samples import write_clip
from ui.avatar import AvatarPanel
from ui.avatar.speech_source import no_spoken_yet, snippet
from ui.shell.main_window import MainWindow
from ui.voice import VoicePanel

# Messages of the offscreen test machine itself (no GPU renderer, no PipeWire or PulseAudio).
pytestmark = [
    pytest.mark.integration,
    pytest.mark.qt_log_ignore(
        "No RHI backend",
        "pipewire",
        "PulseAudioService",
        "No audio device detected",
        "does not support raise",
    ),
]

HELLO = "Hello there, my friend. How are you today?"
WRITE_SCREENSHOT_ENV = "OV_STUDIO_WRITE_SCREENSHOTS"
SCREENSHOT = Path(__file__).resolve().parents[3] / "docs" / "screenshots" / "avatar.png"


# ----- fixtures and steps --------------------------------------------------------------


@pytest.fixture
def window(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    avatar_script: AvatarScript,
    tts_model_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[MainWindow]:
    """A window with real speech (tiny SpeechT5 on CPU), the fake lip-sync engine and a voice."""
    monkeypatch.setattr(audio_devices, "output_devices", lambda: [])  # made, not played
    monkeypatch.setattr(audio_devices, "input_devices", lambda: [])
    ctx = with_fake_lipsync(make_context(app_home, [CPU], script), avatar_script, monkeypatch)
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.TTS, tts_model_dir)
    ctx.voice.library.add("Alice", np.full(512, 0.04, np.float32), _reference(app_home), 8.0)
    window = open_window(qtbot, ctx)
    yield window
    window.close()  # cancels and waits for workers


def _reference(app_home: AppPaths) -> Path:
    path = app_home.data / "alice.wav"
    soundfile.write(path, np.zeros(MODEL_RATE, np.float32), MODEL_RATE)
    return path


def voice_panel(window: MainWindow) -> VoicePanel:
    return show_panel(window, "Voice", VoicePanel)


def avatar_panel(window: MainWindow) -> AvatarPanel:
    return show_panel(window, "Avatar", AvatarPanel)


def speak(qtbot: QtBot, panel: VoicePanel, text: str) -> None:
    """Type ``text``, click Speak and wait until the speech is made."""
    box = panel.speech
    box.text.setPlainText(text)
    with qtbot.waitSignal(box.runner.finished, timeout=60_000):
        click(qtbot, box.speak_button)
    assert box.outcome is not None and box.outcome.complete, box.speak_error.text()


def use_in_avatar(qtbot: QtBot, window: MainWindow) -> AvatarPanel:
    """Click "Use in Avatar" in the Voice panel and wait until the Avatar panel is shown."""
    click(qtbot, voice_panel(window).speech.avatar_button)
    avatar = window.panels["Avatar"]
    qtbot.waitUntil(avatar.isVisible, timeout=10_000)
    assert isinstance(avatar, AvatarPanel)
    assert window.nav.currentItem().text() == "Avatar"
    return avatar


def shown_speech(avatar: AvatarPanel) -> str:
    """What the Avatar panel's speech row reads: "Voice panel: “…” (3.2 s, Alice)"."""
    return f"{avatar.speech.spoken_radio.text()} {avatar.speech.spoken_label.text()}"


# ----- the button ----------------------------------------------------------------------


def test_use_in_avatar_waits_for_a_whole_speech(qtbot: QtBot, window: MainWindow) -> None:
    speech = avatar_panel(window).speech
    assert not speech.spoken_radio.isEnabled()  # offered, but nothing handed over yet
    assert speech.spoken_label.text() == no_spoken_yet()
    assert speech.file_radio.isChecked()

    panel = voice_panel(window)
    box = panel.speech
    assert box.avatar_button.text() == "Use in Avatar"
    assert not box.avatar_button.isEnabled()
    assert box.avatar_button.toolTip().startswith("Speak the whole text first")
    speak(qtbot, panel, HELLO)
    assert box.avatar_button.isEnabled() and box.save_button.isEnabled()
    assert box.avatar_button.toolTip().startswith("Open the Avatar panel with this audio")


def test_use_in_avatar_opens_the_avatar_panel_with_that_speech(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths
) -> None:
    panel = voice_panel(window)
    speak(qtbot, panel, HELLO)
    outcome = panel.speech.outcome
    assert outcome is not None

    avatar = use_in_avatar(qtbot, window)
    speech = avatar.speech
    assert speech.spoken_radio.isChecked() and speech.spoken_radio.isEnabled()
    assert speech.uses_spoken and not speech.uses_file
    assert shown_speech(avatar) == (
        f"Voice panel: “Hello there, my friend. How…” ({outcome.seconds:.1f} s, Alice)"
    )
    assert window.statusBar().currentMessage() == "Now choose a face, then Generate."
    clip = speech.spoken
    assert clip is not None and clip.path.parent == app_home.spoken_dir
    audio, rate = soundfile.read(clip.path, dtype="float32")
    assert rate == MODEL_RATE and audio.size == outcome.audio().size
    assert np.abs(audio - outcome.audio()).max() < 2 / 32768  # the speech itself, 16-bit
    assert [p.name for p in app_home.spoken_dir.iterdir()] == [clip.path.name]  # no temp left
    assert clip.text in speech.spoken_label.toolTip()


def test_the_avatar_keeps_its_speech_and_generate_uses_it(
    qtbot: QtBot,
    window: MainWindow,
    avatar_script: AvatarScript,
    face_png: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = voice_panel(window)
    speak(qtbot, panel, HELLO)
    avatar = use_in_avatar(qtbot, window)
    clip = avatar.speech.spoken
    assert clip is not None
    given = clip.path.read_bytes()
    label = shown_speech(avatar)

    speak(qtbot, voice_panel(window), "Something else entirely, said later on.")
    avatar = avatar_panel(window)
    assert avatar.speech.spoken == clip and shown_speech(avatar) == label
    assert clip.path.read_bytes() == given  # the later speech did not touch it

    answer_files(monkeypatch, face_png)
    click(qtbot, avatar.face.choose_button)
    qtbot.waitUntil(lambda: avatar.face.preview is not None, timeout=5000)
    click(qtbot, avatar.generate_button)
    qtbot.waitUntil(lambda: avatar.result.path is not None, timeout=10_000)
    assert avatar_script.calls[-1]["audio"] == clip.path
    assert avatar_script.calls[-1]["face"] == face_png
    assert clip.path.is_file()  # kept: Generate again uses it too


def test_a_new_hand_off_replaces_the_avatars_speech(qtbot: QtBot, window: MainWindow) -> None:
    panel = voice_panel(window)
    speak(qtbot, panel, HELLO)
    first = use_in_avatar(qtbot, window).speech.spoken
    assert use_in_avatar(qtbot, window).speech.spoken == first  # the same speech: same file

    speak(qtbot, voice_panel(window), "Bye now.")
    avatar = use_in_avatar(qtbot, window)
    second = avatar.speech.spoken
    assert first is not None and second is not None and second.path != first.path
    assert shown_speech(avatar).startswith("Voice panel: “Bye now.” (")
    assert first.path.is_file()  # a video being made from it is not pulled from under it


def test_a_hand_off_that_cannot_be_written_is_said_next_to_the_button(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths
) -> None:
    app_home.spoken_dir.parent.mkdir(parents=True, exist_ok=True)
    app_home.spoken_dir.write_text("a file where the folder should be")
    panel = voice_panel(window)
    speak(qtbot, panel, HELLO)
    box = panel.speech
    click(qtbot, box.avatar_button)
    qtbot.waitUntil(box.save_error.isVisible, timeout=10_000)
    assert box.save_error.text().startswith("Could not keep the audio for the Avatar panel")
    assert panel.isVisible()  # still here: nothing was handed over
    assert box.avatar_button.isEnabled() and box.text.toPlainText() == HELLO


# ----- the kept files (no Qt) ----------------------------------------------------------


def test_only_the_newest_hand_offs_are_kept(tmp_path: Path) -> None:
    samples = np.zeros(MODEL_RATE // 2, np.float32)
    clips = [
        keep_spoken(tmp_path, samples, f"Clip {n}.", "Alice", rate=16_000) for n in range(KEEP + 3)
    ]
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == sorted(c.path.name for c in clips[-KEEP:])
    assert clips[-1].seconds == pytest.approx(0.5)
    blocked = tmp_path / "file"
    blocked.write_text("x")
    with pytest.raises(StorageError) as caught:
        keep_spoken(blocked / "spoken", samples, "Hi.", "Alice", rate=16_000)
    assert caught.value.field == "output"


def test_snippets_cut_at_a_word() -> None:
    assert snippet("Hi.") == "Hi."
    assert snippet("  Hello\n there ") == "Hello there"
    assert snippet(HELLO) == "Hello there, my friend. How…"
    assert snippet("x" * 40) == "x" * 28 + "…"


# ----- README picture ------------------------------------------------------------------


def grab_with_video(window: MainWindow, avatar: AvatarPanel) -> QPixmap:
    """The window as the user sees it. A grab draws Qt's video widget blank (DESIGN.md §8), so
    the frame the player is showing — read from its video sink — is drawn where the widget
    is, scaled as the widget scales it (aspect kept, centred)."""
    pixmap = window.grab()
    frame = avatar.result.preview.player.videoSink().videoFrame()
    assert frame.isValid(), "the player shows no frame yet"
    video = avatar.result.preview.video
    area = QRect(video.mapTo(window, QPoint(0, 0)), video.size())
    image = frame.toImage().scaled(
        area.size(), Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
    )
    painter = QPainter(pixmap)
    painter.fillRect(area, Qt.GlobalColor.black)
    painter.drawImage(
        area.x() + (area.width() - image.width()) // 2,
        area.y() + (area.height() - image.height()) // 2,
        image,
    )
    painter.end()
    return pixmap


def test_screenshot(
    qtbot: QtBot,
    window: MainWindow,
    avatar_script: AvatarScript,
    app_home: AppPaths,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    app_look: None,
) -> None:
    """Speech from the Voice panel, the astronaut's face outlined, a finished video playing and
    a gallery: the README picture, written to docs/screenshots/avatar.png when
    OV_STUDIO_WRITE_SCREENSHOTS=1. (The fake lip-sync "result" is the astronaut unchanged.)"""
    from skimage import data

    astronaut = data.astronaut()  # RGB, as write_clip takes it; cv2 writes BGR
    face = tmp_path / "astronaut.png"
    assert cv2.imwrite(str(face), astronaut[:, :, ::-1])
    small = cv2.resize(astronaut, (256, 256), interpolation=cv2.INTER_AREA)
    for number, gain in enumerate((0.9, 1.1, 0.95)):
        picture = np.clip(small * gain, 0, 255).astype(np.uint8)
        clip = write_clip(app_home.avatar_dir / f"earlier-{number}.mp4", picture, frames=5)
        os.utime(clip, (1_700_000_000 + number * 60, 1_700_000_000 + number * 60))
    avatar_script.faces = [(172, 40, 130, 170)]
    avatar_script.color = small  # type: ignore[assignment]  # write_clip takes a picture too
    window.resize(1280, 800)
    speak(qtbot, voice_panel(window), HELLO)
    avatar = use_in_avatar(qtbot, window)
    qtbot.waitUntil(lambda: avatar.result.gallery.count() == 3, timeout=5000)
    answer_files(monkeypatch, face)
    click(qtbot, avatar.face.choose_button)
    qtbot.waitUntil(lambda: avatar.face.preview is not None, timeout=5000)
    assert window.statusBar().currentMessage() == ""  # the "choose a face" hint has gone
    click(qtbot, avatar.generate_button)
    qtbot.waitUntil(lambda: avatar.result.gallery.count() == 4, timeout=5000)
    sink = avatar.result.preview.player.videoSink()
    qtbot.waitUntil(lambda: sink.videoFrame().isValid(), timeout=15_000)
    avatar.result.preview.player.pause()
    path = SCREENSHOT if os.environ.get(WRITE_SCREENSHOT_ENV) == "1" else tmp_path / "avatar.png"
    assert grab_with_video(window, avatar).save(str(path))
    assert path.stat().st_size > 10_000
