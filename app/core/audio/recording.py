"""Recording from a microphone: a :class:`Recorder` polled for its level and length."""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from app.core.audio.devices import (
    MAX_RECORD_SECONDS,
    SILENCE_DBFS,
    Float32Array,
    opening,
    require_sounddevice,
    start_stream,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Level:
    """How loud the input was since the last look."""

    rms_dbfs: float
    """RMS level in dB relative to full scale (−100 for digital silence)."""
    peak: float
    """Largest absolute sample, 0–1."""

    def fraction(self, floor_dbfs: float = -60.0) -> float:
        """The RMS level on a 0–1 meter whose bottom is ``floor_dbfs``."""
        return min(1.0, max(0.0, 1.0 - self.rms_dbfs / floor_dbfs))


QUIET = Level(SILENCE_DBFS, 0.0)


@dataclass(frozen=True)
class Recording:
    """What :class:`Recorder` captured: mono float32 at the device's rate."""

    samples: Float32Array
    rate: int
    overflows: int = 0
    """Blocks PortAudio dropped because the computer was too busy (0 is normal)."""

    @property
    def seconds(self) -> float:
        """Length of the recording."""
        return self.samples.size / self.rate if self.rate else 0.0


class Recorder:
    """Records mono from one input device at its own rate, up to ``max_seconds``.

    :meth:`start` opens the stream; PortAudio's thread appends blocks; :meth:`level` and
    :attr:`elapsed` are polled; the recording ends by itself at ``max_seconds`` or when
    :meth:`stop` is called, which returns what was captured.

    Args:
        device: the PortAudio input (None: the default).
        max_seconds: where the recording ends by itself (ignored when ``keep`` is False).
        rate: the rate to record at when the device offers it (else its own rate).
        on_block: receives every block as it arrives, on PortAudio's thread: it must return
            at once (hand the block to a queue).
        keep: store the blocks for :meth:`stop`; False for a listener that keeps its own
            (bounded) audio and may run for as long as a conversation lasts.
    """

    def __init__(
        self,
        device: int | None = None,
        *,
        max_seconds: float = MAX_RECORD_SECONDS,
        rate: int | None = None,
        on_block: Callable[[Float32Array], None] | None = None,
        keep: bool = True,
    ):
        self.device = device
        self.max_seconds = max_seconds
        self.wanted_rate = rate
        self.keep = keep
        self._on_block = on_block
        self.rate = 0
        self._sd: ModuleType | None = None
        self._stream: Any = None
        self._lock = threading.Lock()
        self._blocks: list[Float32Array] = []
        self._frames = 0
        self._limit = 0
        self._sum_squares = 0.0
        self._count = 0
        self._peak = 0.0
        self._last_level = QUIET
        self._overflows = 0
        self._ended = threading.Event()

    def start(self) -> None:
        """Open the input and start recording.

        Raises:
            AudioDeviceError: no such device, or it could not be opened.
        """
        sd = require_sounddevice()
        self._sd = sd
        with opening(sd, "input", self.device, self._close):
            self.rate = self._choose_rate(sd)
            self._limit = int(self.max_seconds * self.rate) if self.keep else 0
            self._stream = start_stream(
                sd, "input", self.device, self.rate, self._callback, self._ended.set
            )

    def _choose_rate(self, sd: ModuleType) -> int:
        """``wanted_rate`` when the device takes it, else the device's own rate."""
        if self.wanted_rate is not None:
            try:
                sd.check_input_settings(
                    self.device, channels=1, dtype="float32", samplerate=self.wanted_rate
                )
                return self.wanted_rate
            except sd.PortAudioError:  # a hardware device without that rate: the caller resamples
                pass
        return int(sd.query_devices(self.device, "input")["default_samplerate"])

    def _callback(self, indata: Any, frames: int, time: Any, status: Any) -> None:
        assert self._sd is not None
        block = np.array(indata[:, 0], dtype=np.float32)
        with self._lock:
            if status.input_overflow:
                self._overflows += 1
            if self.keep:
                block = block[: max(0, self._limit - self._frames)]
            if block.size:
                if self.keep:
                    self._blocks.append(block)
                self._frames += block.size
                self._sum_squares += float(np.dot(block, block))
                self._count += block.size
                self._peak = max(self._peak, float(np.abs(block).max()))
            full = self.keep and self._frames >= self._limit
        if block.size and self._on_block is not None:
            self._on_block(block)
        if full:
            raise self._sd.CallbackStop

    @property
    def elapsed(self) -> float:
        """Seconds recorded so far."""
        with self._lock:
            return self._frames / self.rate if self.rate else 0.0

    @property
    def reached_limit(self) -> bool:
        """Whether the recording stopped by itself at ``max_seconds``."""
        with self._lock:
            return self.keep and self._limit > 0 and self._frames >= self._limit

    @property
    def recording(self) -> bool:
        """Whether the input is still being captured."""
        return self._stream is not None and not self._ended.is_set()

    def level(self) -> Level:
        """The level since the previous call (the last one again if no audio came meanwhile)."""
        with self._lock:
            if self._count:
                rms = math.sqrt(self._sum_squares / self._count)
                dbfs = 20.0 * math.log10(rms) if rms > 1e-5 else SILENCE_DBFS
                self._last_level = Level(dbfs, self._peak)
                self._sum_squares, self._count, self._peak = 0.0, 0, 0.0
            return self._last_level

    def stop(self) -> Recording:
        """Stop (if still running) and return everything recorded."""
        self._close()
        with self._lock:
            samples = np.concatenate(self._blocks) if self._blocks else np.zeros(0, np.float32)
            return Recording(samples.astype(np.float32, copy=False), self.rate, self._overflows)

    def _close(self) -> None:
        stream, self._stream = self._stream, None
        if stream is None:
            return
        assert self._sd is not None
        try:
            stream.stop()
            stream.close()
        except self._sd.PortAudioError as error:  # a vanished device: the samples are kept
            log.warning("closing the input stream failed: %s", error)
        self._ended.set()
