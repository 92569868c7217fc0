"""The lip-sync engine for the Avatar panel's UI tests: real little videos at a test-made pace,
under the real AvatarService (and, for speaking a text, a stand-in for the voice's
text-to-speech).

The videos are real H.264 + AAC mp4 files written with PyAV (a solid colour, or a picture,
64×64 by default), so the preview is checked through the frames Qt's media player decodes.
The test decides the faces found, where a job waits, and what fails. Everything above the
engine is the app's: the service picks the files and folders, holds one job at a time and
reports figures; the engine runs on worker threads and honours the cancel token, as the real
one does.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from app.context import AppContext
from app.core.model_tasks import ModelTask
from app.core.settings import Settings
from pipelines.core import Cancelled, CancelToken, MetricRecord, Progress
from pipelines.lipsync.boxes import Box
from pipelines.lipsync.pipeline import LipsyncResult
from pipelines.voice.audio import MODEL_RATE
from pipelines.voice.tts import SpeechChunk
from tests.video_samples import FPS, Color, write_clip

WAIT_S = 10
RED = (220, 30, 30)
GREEN = (30, 200, 60)
BLUE = (40, 60, 220)


def wait_for(gate: threading.Event, cancel: CancelToken | None) -> None:
    """Wait for the test to open ``gate``, stopping as soon as the job is cancelled."""
    deadline = time.monotonic() + WAIT_S
    while not gate.wait(0.02):
        if cancel is not None and cancel.cancelled:
            raise Cancelled()
        if time.monotonic() > deadline:
            raise TimeoutError("the test never opened the gate")


@dataclass
class AvatarScript:
    """What the fake engine does; tests change it between steps."""

    frames: int = FPS
    color: Color = RED
    hold_at: int | None = None
    """Report this many frames, then wait for ``release`` (or a cancel)."""
    release: threading.Event = field(default_factory=threading.Event)
    fail_with: BaseException | None = None
    faces: list[tuple[int, int, int, int]] = field(default_factory=lambda: [(16, 12, 32, 40)])
    faces_fail_with: BaseException | None = None
    """Looking for faces (the face preview) raises this."""
    sentences: list[tuple[str, Color]] = field(
        default_factory=lambda: [("Hello there,", RED), ("my friend.", GREEN), ("Bye.", BLUE)]
    )
    clip_gates: dict[int, threading.Event] = field(default_factory=dict)
    """The clip of sentence i of an answer waits for gate i before it is made."""
    calls: list[dict[str, object]] = field(default_factory=list)
    """What reached the engine: each video's face, audio, device and face index."""
    spoken: list[dict[str, object]] = field(default_factory=list)
    """What reached the voice (see :func:`fake_speak`): texts and voices."""

    def unblock(self) -> None:
        """Let every waiting job go on."""
        self.release.set()
        for gate in self.clip_gates.values():
            gate.set()


def fake_speak(script: AvatarScript) -> Callable[..., Iterator[SpeechChunk]]:
    """``VoiceService.speak`` saying ``script.sentences`` (silence as long as a clip), whatever
    the text: the window's voice service has no text-to-speech model in the UI tests."""

    def speak(
        text: str,
        voice_name: str,
        *,
        device: str | None = None,
        cancel: CancelToken | None = None,
        short_lead: bool = True,
    ) -> Iterator[SpeechChunk]:
        script.spoken.append({"text": text, "voice": voice_name})
        samples = np.zeros(round(script.frames / FPS * MODEL_RATE), np.float32)
        for index, (sentence, _) in enumerate(script.sentences):
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            yield SpeechChunk(index, len(script.sentences), sentence, samples, 0.0)

    return speak


def speak_while_written(ctx: AppContext, monkeypatch: pytest.MonkeyPatch, models: Path) -> None:
    """Give ``ctx``'s voice what an answer spoken while it is written checks first
    (:class:`app.hands_free.SpokenAnswer`: a text-to-speech model and its device); the
    sentences themselves are :func:`fake_speak`'s."""
    models.mkdir(parents=True, exist_ok=True)
    monkeypatch.setattr(ctx.voice, "model_folder", lambda task: models)
    monkeypatch.setattr(ctx.voice, "device", lambda requested=None: "CPU")


class FakeLipsync:
    """Stands in for :class:`pipelines.lipsync.pipeline.LipsyncPipeline`, the engine the real
    :class:`~app.avatar.service.AvatarService` loads through the engine host (see
    :func:`fake_lipsync`): it finds ``script.faces`` and writes ``script.color`` videos (or, for
    sentence ``NNN.mp4`` of an answer, that sentence's colour) at the script's pace.

    It is a :class:`pipelines.contract.Pipeline`; ``detect_faces`` and ``run`` take what the
    real engine's take (tests/unit/tests/ui/test_avatar_fakes.py checks both).
    """

    name = "lipsync"

    def __init__(
        self,
        model: Path,
        detector: Path,
        device: str = "CPU",
        *,
        detector_device: str = "CPU",
        cache_dir: Path | None = None,
        detector_cache_dir: Path | None = None,
        script: AvatarScript,
    ) -> None:
        self.model = model
        self.device = device
        self.detector_device = detector_device
        self.script = script
        self.load_ms = 0.0
        self.last: LipsyncResult | None = None
        self._loaded = False

    @property
    def loaded(self) -> bool:
        return self._loaded

    def load(self, cancel: CancelToken | None = None) -> float:
        if cancel is not None and cancel.cancelled:
            raise Cancelled()
        self._loaded, self.load_ms = True, 3.0
        return self.load_ms

    def close(self) -> None:
        self._loaded = False

    def metrics(self) -> MetricRecord:
        values = {"load_ms": self.load_ms}
        if self.last is not None:
            values.update(fps=self.last.achieved_fps, frames=float(self.last.frames))
        return MetricRecord(self.name, self.device, values)

    def detect_faces(self, face: Path) -> list[Box]:
        if self.script.faces_fail_with is not None:
            raise self.script.faces_fail_with
        return [Box(x, y, w, h) for x, y, w, h in self.script.faces]

    def run(
        self,
        face: Path,
        audio: Path | tuple[npt.NDArray[np.floating], int],
        output: Path,
        *,
        cancel: CancelToken | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        face_index: int | None = None,
        face_point: tuple[float, float] | None = None,
        scratch_dir: Path | None = None,
    ) -> LipsyncResult:
        script = self.script
        script.calls.append(
            {"face": face, "audio": audio, "device": self.device, "face_index": face_index}
        )
        if script.fail_with is not None:
            raise script.fail_with
        sentence = int(output.stem) - 1 if output.stem.isdigit() else None  # NNN.mp4 of an answer
        if sentence is not None and sentence in script.clip_gates:
            wait_for(script.clip_gates[sentence], cancel)
        for done in range(1, script.frames + 1):
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            if on_progress is not None:
                on_progress(Progress("lipsync", done, script.frames))
            if done == script.hold_at:
                wait_for(script.release, cancel)
        color = (
            script.color
            if sentence is None
            else script.sentences[sentence % len(script.sentences)][1]
        )
        write_clip(output, color, script.frames)
        seconds = script.frames / FPS
        self.last = LipsyncResult(output, script.frames, FPS, 2.0 * FPS, seconds, self.device)
        return self.last


def fake_lipsync(script: AvatarScript) -> Callable[..., FakeLipsync]:
    """What to put in place of ``pipelines.lipsync.pipeline.LipsyncPipeline`` (the real service
    builds its engine from it): :class:`FakeLipsync` engines following ``script``."""
    return functools.partial(FakeLipsync, script=script)


def with_fake_lipsync(
    ctx: AppContext, script: AvatarScript, monkeypatch: pytest.MonkeyPatch
) -> AppContext:
    """``ctx`` whose real avatar service makes its videos with :class:`FakeLipsync` engines:
    a stand-in lip-sync model folder is chosen, and the engine loaded for it is the fake."""
    monkeypatch.setattr("pipelines.lipsync.pipeline.LipsyncPipeline", fake_lipsync(script))
    folder = ctx.paths.data / "lipsync-stand-in"
    folder.mkdir(parents=True, exist_ok=True)
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.LIPSYNC, folder)
    return ctx


def no_lipsync_model(settings: Settings) -> None:
    """No lip-sync model chosen (and none installed in a test's home): the service says so."""
    settings.models = settings.models.with_folder(ModelTask.LIPSYNC, None)
