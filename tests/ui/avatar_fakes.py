"""An AvatarService stand-in for the Avatar panel's UI tests: real little videos, test-made pace
(and, for speaking a text, a stand-in for the voice's text-to-speech).

The videos are real H.264 + AAC mp4 files written with PyAV (a solid colour, or a picture,
64×64 by default), so the preview is checked through the frames Qt's media player decodes.
The test decides the faces found, where a job waits, and what fails. Methods run on worker
threads, exactly as the real service's do, and honour the cancel token.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.avatar.service import AvatarClip, VideoResult
from app.core.errors import UserError
from pipelines.core import Cancelled, CancelToken, Progress
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
    """What the fake service does; tests change it between steps."""

    frames: int = FPS
    color: Color = RED
    hold_at: int | None = None
    """Report this many frames, then wait for ``release`` (or a cancel)."""
    release: threading.Event = field(default_factory=threading.Event)
    fail_with: BaseException | None = None
    faces: list[tuple[int, int, int, int]] = field(default_factory=lambda: [(16, 12, 32, 40)])
    faces_fail_with: BaseException | None = None
    """Looking for faces (the face preview) raises this."""
    model_problem: UserError | None = None
    sentences: list[tuple[str, Color]] = field(
        default_factory=lambda: [("Hello there,", RED), ("my friend.", GREEN), ("Bye.", BLUE)]
    )
    clip_gates: dict[int, threading.Event] = field(default_factory=dict)
    """``lipsync_sentence`` waits for gate i before making clip i."""
    calls: list[dict[str, object]] = field(default_factory=list)
    """What reached the avatar service: lip-sync jobs and sentences."""
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
    ) -> Iterator[SpeechChunk]:
        script.spoken.append({"text": text, "voice": voice_name})
        samples = np.zeros(round(script.frames / FPS * MODEL_RATE), np.float32)
        for index, (sentence, _) in enumerate(script.sentences):
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            yield SpeechChunk(index, len(script.sentences), sentence, samples, 0.0)

    return speak


class FakeAvatarService:
    """``AvatarService``'s surface as the panel and chat use it."""

    def __init__(self, results_dir: Path, script: AvatarScript) -> None:
        self.results_dir = results_dir
        self.script = script
        self._lock = threading.Lock()
        self._count = 0

    @property
    def busy(self) -> bool:
        return self._lock.locked()

    def model_folder(self) -> Path:
        if self.script.model_problem is not None:
            raise self.script.model_problem
        return self.results_dir

    def faces(self, image: Path) -> list[tuple[int, int, int, int]]:
        if self.script.faces_fail_with is not None:
            raise self.script.faces_fail_with
        return list(self.script.faces)

    def lipsync(
        self,
        face: Path,
        audio: Path | tuple[npt.NDArray[np.float32], int],
        output: Path | None = None,
        *,
        device: str | None = None,
        detector_device: str | None = None,
        face_index: int | None = None,
        cancel: CancelToken | None = None,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> VideoResult:
        script = self.script
        script.calls.append(
            {"face": face, "audio": audio, "device": device, "face_index": face_index}
        )
        if script.fail_with is not None:
            raise script.fail_with
        with self._lock:
            for done in range(1, script.frames + 1):
                if cancel is not None and cancel.cancelled:
                    raise Cancelled()
                if on_progress is not None:
                    on_progress(Progress("lipsync", done, script.frames))
                if done == script.hold_at:
                    wait_for(script.release, cancel)
            path = output or self._new_path()
            write_clip(path, script.color, script.frames)
        seconds = script.frames / FPS
        return VideoResult(path, script.frames, FPS, 2.0 * FPS, seconds, "CPU", 0, {})

    def answer_folder(self) -> Path:
        return self.results_dir / f"answer-{len(self.script.spoken)}"

    def lipsync_sentence(
        self,
        face: Path,
        folder: Path,
        index: int,
        text: str,
        samples: npt.NDArray[np.float32],
        *,
        total: int = 0,
        device: str | None = None,
        cancel: CancelToken | None = None,
    ) -> AvatarClip:
        script = self.script
        script.calls.append({"face": face, "index": index, "device": device})
        if index in script.clip_gates:
            wait_for(script.clip_gates[index], cancel)
        if cancel is not None and cancel.cancelled:
            raise Cancelled()
        color = script.sentences[index][1]
        path = write_clip(folder / f"{index + 1:03d}.mp4", color, script.frames)
        return AvatarClip(index, total, text, path, samples.size / MODEL_RATE)

    def recent(self, limit: int = 12) -> list[Path]:
        if not self.results_dir.is_dir():
            return []
        videos = [p for p in self.results_dir.rglob("*.mp4") if not p.name.startswith(".")]
        return sorted(videos, key=lambda p: p.stat().st_mtime, reverse=True)[:limit]

    def _new_path(self) -> Path:
        self._count += 1
        return self.results_dir / f"avatar-{self._count}.mp4"
