"""The Avatar panel's "Write subtitles (.srt)": ``<video>.srt`` next to each video.

No fake: the tiny random SpeechT5 speaks a typed text (the cues come from its sentences and
their lengths), the real Whisper tiny.en transcribes a speech file, and the tiny random
Wav2Lip-contract model with BlazeFace makes the video of the astronaut.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
import soundfile
from pytestqt.qtbot import QtBot

from app.avatar.media import copy_result
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from pipelines.voice.audio import MODEL_RATE
from tests.audio_samples import write_clip
from tests.speech import SENTENCES, have_espeak, spoken, with_silence
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script
from tests.ui.helpers import answer_files, click
from tests.ui.panels import host_of, open_panel
from ui.avatar import AvatarPanel
from ui.shell import main_panels

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed"),
    pytest.mark.qt_log_ignore(
        "No RHI backend",
        "pipewire",
        "PulseAudioService",
        "No audio device detected",
        "does not support raise",
    ),
]

MADE_MS = 120_000
TYPED = ("Hello there, my friend.", "How are you today?")

PanelMaker = Callable[[Path | None], AvatarPanel]


@pytest.fixture
def astronaut(tmp_path: Path) -> Path:
    from skimage import data

    face = tmp_path / "astronaut.png"
    assert cv2.imwrite(str(face), data.astronaut()[:, :, ::-1])
    return face


@pytest.fixture
def make_panel(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    lipsync_model_dir: Path,
    tts_model_dir: Path,
) -> Iterator[PanelMaker]:
    """The Avatar panel alone on the real lip-sync and TTS models with the voice "Alice"; the
    Whisper given (None: none installed)."""
    panels: list[AvatarPanel] = []

    def make(whisper: Path | None) -> AvatarPanel:
        ctx = make_context(app_home, [CPU], script)
        ctx.settings.models = ctx.settings.models.with_folder(ModelTask.LIPSYNC, lipsync_model_dir)
        ctx.settings.models = ctx.settings.models.with_folder(ModelTask.TTS, tts_model_dir)
        ctx.settings.models = ctx.settings.models.with_folder(ModelTask.SPEECH_TO_TEXT, whisper)
        reference = app_home.data / "alice.wav"
        soundfile.write(reference, np.zeros(MODEL_RATE, np.float32), MODEL_RATE)
        if "Alice" not in [voice.name for voice in ctx.voice.library.voices()]:
            ctx.voice.library.add("Alice", np.full(512, 0.04, np.float32), reference, 8.0)
        panel = open_panel(qtbot, ctx, main_panels.avatar_panel)
        panels.append(panel)
        return panel

    yield make
    for panel in panels:
        host_of(panel).close()  # stops the players, cancels and waits for workers


def ready_panel(
    qtbot: QtBot, panel: AvatarPanel, monkeypatch: pytest.MonkeyPatch, face: Path
) -> AvatarPanel:
    """The Avatar panel with the face chosen and read, subtitles on."""
    answer_files(monkeypatch, face)
    click(qtbot, panel.face.choose_button)
    qtbot.waitUntil(lambda: panel.face.preview is not None, timeout=60_000)
    panel.subtitles.checkbox.setChecked(True)
    return panel


def generate(qtbot: QtBot, panel: AvatarPanel) -> Path:
    click(qtbot, panel.generate_button)
    qtbot.waitUntil(lambda: panel.result.path is not None and not panel.generating, timeout=MADE_MS)
    assert panel.result.path is not None
    return panel.result.path


def srt_cues(path: Path) -> list[tuple[float, float, str]]:
    """(start, end, text) of each cue of a SubRip file."""
    cues = []
    for block in path.read_text("utf-8").strip().split("\n\n"):
        _, span, *text = block.split("\n")
        start, end = (_seconds(stamp) for stamp in span.split(" --> "))
        cues.append((start, end, " ".join(text)))
    return cues


def _seconds(stamp: str) -> float:
    hours, minutes, rest = re.split(":", stamp)
    return int(hours) * 3600 + int(minutes) * 60 + float(rest.replace(",", "."))


def _duration(video: Path) -> float:
    import av

    with av.open(str(video)) as container:
        return float(container.duration or 0) / av.time_base


def test_a_typed_text_gets_exact_subtitles_from_its_sentences(
    qtbot: QtBot,
    make_panel: PanelMaker,
    monkeypatch: pytest.MonkeyPatch,
    astronaut: Path,
    tmp_path: Path,
) -> None:
    panel = ready_panel(qtbot, make_panel(None), monkeypatch, astronaut)  # no Whisper needed
    panel.speech.voice_radio.setChecked(True)
    qtbot.keyClicks(panel.speech.text_edit, " ".join(TYPED))
    video = generate(qtbot, panel)
    cues = srt_cues(video.with_suffix(".srt"))
    assert [text for _, _, text in cues] == list(TYPED)
    assert cues[0][0] == 0.0 and cues[0][1] < cues[1][0]  # the pause between the sentences
    assert abs(cues[-1][1] - _duration(video)) < 0.2  # the speech ends with the video
    assert not panel.subtitles.note.isVisible()

    saved = copy_result(video, tmp_path / "greeting.mp4")  # Save as… takes them along
    assert saved.with_suffix(".srt").read_text("utf-8") == video.with_suffix(".srt").read_text(
        "utf-8"
    )


def test_a_speech_file_is_transcribed_into_subtitles_by_whisper(
    qtbot: QtBot,
    make_panel: PanelMaker,
    monkeypatch: pytest.MonkeyPatch,
    astronaut: Path,
    whisper_model_dir: Path,
    tmp_path: Path,
) -> None:
    speech = with_silence(0.3, spoken(SENTENCES[1]), 0.6, spoken(SENTENCES[2]), 0.3)
    wav = write_clip(tmp_path / "question.wav", speech)
    panel = ready_panel(qtbot, make_panel(whisper_model_dir), monkeypatch, astronaut)
    answer_files(monkeypatch, wav)
    click(qtbot, panel.speech.file_button)
    video = generate(qtbot, panel)
    cues = srt_cues(video.with_suffix(".srt"))
    said = " ".join(text for _, _, text in cues)
    assert "Paris" in said and "dragon" in said
    times = [t for start, end, _ in cues for t in (start, end)]
    assert times == sorted(times) and times[-1] <= speech.size / MODEL_RATE + 0.5


def test_without_whisper_the_video_is_made_and_a_sentence_says_why_no_subtitles(
    qtbot: QtBot,
    make_panel: PanelMaker,
    monkeypatch: pytest.MonkeyPatch,
    astronaut: Path,
    tmp_path: Path,
) -> None:
    wav = write_clip(tmp_path / "question.wav", spoken(SENTENCES[1]))
    panel = ready_panel(qtbot, make_panel(None), monkeypatch, astronaut)
    answer_files(monkeypatch, wav)
    click(qtbot, panel.speech.file_button)
    video = generate(qtbot, panel)
    assert video.is_file() and not video.with_suffix(".srt").exists()
    assert panel.subtitles.note.isVisible()
    assert panel.subtitles.note.text().startswith("No subtitles: they need a speech-to-text")


def test_the_option_is_remembered(qtbot: QtBot, make_panel: PanelMaker, app_home: AppPaths) -> None:
    panel = make_panel(None)
    assert not panel.subtitles.wanted
    panel.subtitles.checkbox.setChecked(True)
    assert '"avatar_subtitles": true' in app_home.settings_file.read_text("utf-8")
    again = make_panel(None)
    assert again.subtitles.checkbox.isChecked()
