"""Playing speech as it is made: a :class:`Player` fed sentence by sentence from any thread."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Hashable
from time import perf_counter
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from app.core.audio.devices import (
    PLAYBACK_RATE,
    Float32Array,
    opening,
    require_sounddevice,
    start_stream,
)
from pipelines.voice.sample_rates import resample

log = logging.getLogger(__name__)


class Player:
    """Plays float32 chunks as they are :meth:`put` (each at its own rate), from any thread.

    The output stream starts (playing silence) at :meth:`start`, so the first chunk is heard
    as soon as it is put while later ones are still being made. :meth:`end` says no more
    will come; :attr:`done` turns true when everything was played, or at :meth:`stop`.
    """

    def __init__(self, device: int | None = None) -> None:
        self.device = device
        self.rate = PLAYBACK_RATE
        """The device's rate: :data:`PLAYBACK_RATE`, or its own default when it cannot do
        that."""
        self._sd: ModuleType | None = None
        self._stream: Any = None
        self._queue: queue.SimpleQueue[tuple[Float32Array, Hashable]] = queue.SimpleQueue()
        self._current: Float32Array = np.zeros(0, np.float32)
        self._offset = 0
        self._lock = threading.Lock()
        self._played: list[Hashable] = []
        self._started_at: list[float] = []
        self._frames_played = 0
        self._frames_queued = 0
        self._ending = threading.Event()
        self._stopped = threading.Event()
        self._finished = threading.Event()

    def start(self) -> None:
        """Open the output device and start playing (silence until the first chunk).

        Raises:
            AudioDeviceError: no such device, or it could not be opened.
        """
        sd = require_sounddevice()
        self._sd = sd

        def undo() -> None:
            self._close()
            self._finished.set()

        with opening(sd, "output", self.device, undo):
            try:
                sd.check_output_settings(
                    self.device, channels=1, dtype="float32", samplerate=PLAYBACK_RATE
                )
            except sd.PortAudioError:  # a hardware device without that rate: resample to its own
                info = sd.query_devices(self.device, "output")
                self.rate = int(info["default_samplerate"])
            self._stream = start_stream(
                sd, "output", self.device, self.rate, self._callback, self._finished.set
            )

    def put(self, samples: npt.NDArray[np.floating], label: Hashable = None, *, rate: int) -> None:
        """Queue a chunk (mono, at ``rate`` Hz); ``label`` is recorded in :attr:`played` when it
        starts."""
        if self._stopped.is_set() or self._ending.is_set():
            return
        chunk = np.asarray(samples, dtype=np.float32).reshape(-1)
        chunk = resample(chunk, rate, self.rate)
        with self._lock:
            self._frames_queued += chunk.size
        self._queue.put((chunk, label))

    def end(self) -> None:
        """No more chunks will come: finish once the queued ones are played."""
        self._ending.set()
        if self._stream is None:
            self._finished.set()

    def stop(self) -> None:
        """Stop now and drop what is queued (safe from any thread, any number of times)."""
        self._stopped.set()
        self._ending.set()
        self._close()
        self._finished.set()

    def _callback(self, outdata: Any, frames: int, time: Any, status: Any) -> None:
        assert self._sd is not None
        ending = self._ending.is_set()  # read first: every put() happened before end()
        out = outdata[:, 0]
        filled = 0
        while filled < frames:
            if self._offset >= self._current.size:
                try:
                    self._current, label = self._queue.get_nowait()
                except queue.Empty:
                    break
                self._offset = 0
                with self._lock:
                    self._played.append(label)
                    self._started_at.append(perf_counter())
            take = min(frames - filled, self._current.size - self._offset)
            out[filled : filled + take] = self._current[self._offset : self._offset + take]
            filled += take
            self._offset += take
        out[filled:] = 0.0
        with self._lock:
            self._frames_played += filled
        if ending and filled < frames:
            raise self._sd.CallbackStop  # PortAudio plays what it has, then finishes

    @property
    def played(self) -> list[Hashable]:
        """Labels of the chunks that started playing, in order."""
        with self._lock:
            return list(self._played)

    def started_at(self, label: Hashable) -> float | None:
        """When (``time.perf_counter()``) the chunk ``label`` was first handed to the device;
        None while it has not started."""
        with self._lock:
            for played, at in zip(self._played, self._started_at, strict=True):
                if played == label:
                    return at
        return None

    @property
    def position(self) -> float:
        """Seconds of queued audio handed to the device so far."""
        with self._lock:
            return self._frames_played / self.rate

    @property
    def queued_seconds(self) -> float:
        """Seconds of audio put so far."""
        with self._lock:
            return self._frames_queued / self.rate

    @property
    def done(self) -> bool:
        """Everything put was played after :meth:`end`, or playback was stopped."""
        return self._finished.is_set()

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._stopped.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until :attr:`done` (for scripts and tests; a GUI polls :attr:`done`)."""
        return self._finished.wait(timeout)

    def close(self) -> None:
        """Release the device once :attr:`done` (a stopped or finished player)."""
        self._close()

    def _close(self) -> None:
        with self._lock:
            stream, self._stream = self._stream, None
        if stream is None:
            return
        assert self._sd is not None
        try:
            if self._stopped.is_set():
                stream.abort()  # now, not after the buffered audio
            else:
                stream.stop()
            stream.close()
        except self._sd.PortAudioError as error:  # a vanished device
            log.warning("closing the output stream failed: %s", error)
