"""Microphones and speakers through PortAudio (``sounddevice``): device lists, a recorder and a
streaming player.

No Qt here. PortAudio calls the recorder and the player back on its own thread; they keep
their state behind locks and a GUI *polls* them from a timer (level meter, elapsed time,
playback position) instead of being called back across threads.

With no sound card (a server, a container, CI) PortAudio lists nothing: :func:`input_devices`
and :func:`output_devices` are empty and the caller disables recording and playback. Opening a
stream anyway raises :class:`AudioDeviceError` with a sentence, never a PortAudio traceback.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
from collections.abc import Hashable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from app.errors import UserError

log = logging.getLogger(__name__)

PLAYBACK_RATE = 16_000
"""Rate of what :class:`Player` is fed: the speech models' rate."""
MAX_RECORD_SECONDS = 30.0
SILENCE_DBFS = -100.0
# Generous buffers: speech needs no low latency, and PortAudio's "high" default (~35 ms on
# ALSA) underran and dropped blocks whenever the CPU was busy synthesising (audible crackle).
OUTPUT_LATENCY_S = 0.2
INPUT_LATENCY_S = 0.1

Float32Array = npt.NDArray[np.float32]


class AudioDeviceError(UserError):
    """A sound device is missing or could not be opened or used (``field="audio"``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, field="audio")


@dataclass(frozen=True)
class AudioDevice:
    """One PortAudio device that can record (``channels`` inputs) or play (outputs)."""

    index: int
    name: str
    host_api: str
    channels: int
    default_rate: int
    is_default: bool

    @property
    def label(self) -> str:
        """What a device list shows, e.g. "USB Microphone (default)"."""
        if self.name.casefold() == "default":  # ALSA's "default": the system's choice
            return "System default"
        return f"{self.name} (default)" if self.is_default else self.name


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


# ----- the device lists ----------------------------------------------------------------


def _sounddevice() -> ModuleType | None:
    """The ``sounddevice`` module, or None when the PortAudio library is not installed."""
    try:
        import sounddevice
    except OSError as error:  # "PortAudio library not found"
        log.warning("no PortAudio: %s", error)
        return None
    module: ModuleType = sounddevice
    return module


def _require() -> ModuleType:
    module = _sounddevice()
    if module is None:
        raise AudioDeviceError(
            "Sound is unavailable: the PortAudio library is not installed "
            "(on Debian/Ubuntu: sudo apt install libportaudio2)."
        )
    return module


def input_devices() -> list[AudioDevice]:
    """Devices that can record, the default first; empty when there is no sound card."""
    return _devices("input")


def output_devices() -> list[AudioDevice]:
    """Devices that can play, the default first; empty when there is no sound card."""
    return _devices("output")


def _devices(kind: str) -> list[AudioDevice]:
    sd = _sounddevice()
    if sd is None:
        return []
    try:
        found: list[dict[str, Any]] = list(sd.query_devices())
        apis: list[dict[str, Any]] = list(sd.query_hostapis())
        default_in, default_out = (int(i) for i in sd.default.device)
    except sd.PortAudioError as error:
        log.warning("could not list sound devices: %s", error)
        return []
    default = default_in if kind == "input" else default_out
    key = f"max_{kind}_channels"
    usable = [(index, info) for index, info in enumerate(found) if int(info[key]) > 0]
    # Windows lists every device once per host API (MME, DirectSound, WASAPI…): keep those of
    # the default device's API, which is what the system's own default uses.
    if 0 <= default < len(found):
        same_api = [(i, info) for i, info in usable if info["hostapi"] == found[default]["hostapi"]]
        usable = same_api or usable
    devices = [
        AudioDevice(
            index=index,
            name=str(info["name"]),
            host_api=str(apis[int(info["hostapi"])]["name"]) if apis else "",
            channels=int(info[key]),
            default_rate=int(info["default_samplerate"]),
            is_default=index == default,
        )
        for index, info in usable
    ]
    return sorted(devices, key=lambda device: not device.is_default)


def rescan() -> None:
    """Ask PortAudio for the devices again (one plugged in, a sound server started).

    Every stream must be closed first: re-initialising PortAudio invalidates them.
    """
    sd = _sounddevice()
    if sd is None:
        return
    try:
        sd._terminate()
        sd._initialize()
    except sd.PortAudioError as error:
        log.warning("could not re-scan sound devices: %s", error)


def _describe(error: BaseException) -> str:
    text = str(error.args[0]) if error.args else str(error)
    return text.strip().rstrip(".") or type(error).__name__


def _device_name(sd: ModuleType, device: int | None, kind: str) -> str:
    try:
        info = sd.query_devices(device, kind)
    except (sd.PortAudioError, ValueError):
        return "the default device" if device is None else f"device {device}"
    return f"“{info['name']}”"


# ----- recording -----------------------------------------------------------------------


class Recorder:
    """Records mono from one input device at its own rate, up to ``max_seconds``.

    :meth:`start` opens the stream; PortAudio's thread appends blocks; :meth:`level` and
    :attr:`elapsed` are polled; the recording ends by itself at ``max_seconds`` or when
    :meth:`stop` is called, which returns what was captured.
    """

    def __init__(self, device: int | None = None, *, max_seconds: float = MAX_RECORD_SECONDS):
        self.device = device
        self.max_seconds = max_seconds
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
        sd = _require()
        self._sd = sd
        try:
            info = sd.query_devices(self.device, "input")
            self.rate = int(info["default_samplerate"])
            self._limit = int(self.max_seconds * self.rate)
            self._stream = sd.InputStream(
                samplerate=self.rate,
                device=self.device,
                channels=1,
                dtype="float32",
                latency=INPUT_LATENCY_S,
                callback=self._callback,
                finished_callback=self._ended.set,
            )
            self._stream.start()
        except (sd.PortAudioError, ValueError) as error:
            self._close()
            raise AudioDeviceError(
                f"The microphone {_device_name(sd, self.device, 'input')} could not be "
                f"opened ({_describe(error)}). Choose another input or check that it is "
                "connected."
            ) from error

    def _callback(self, indata: Any, frames: int, time: Any, status: Any) -> None:
        assert self._sd is not None
        block = np.array(indata[:, 0], dtype=np.float32)
        with self._lock:
            if status.input_overflow:
                self._overflows += 1
            block = block[: max(0, self._limit - self._frames)]
            if block.size:
                self._blocks.append(block)
                self._frames += block.size
                self._sum_squares += float(np.dot(block, block))
                self._count += block.size
                self._peak = max(self._peak, float(np.abs(block).max()))
            full = self._frames >= self._limit
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
            return self._limit > 0 and self._frames >= self._limit

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


# ----- playback ------------------------------------------------------------------------


class Player:
    """Plays float32 chunks at 16 kHz as they are :meth:`put`, from any thread.

    The output stream starts (playing silence) at :meth:`start`, so the first chunk is heard
    as soon as it is put while later ones are still being made. :meth:`end` says no more
    will come; :attr:`done` turns true when everything was played, or at :meth:`stop`.
    """

    def __init__(self, device: int | None = None) -> None:
        self.device = device
        self.rate = PLAYBACK_RATE
        """The device's rate: 16 kHz, or its own default when it cannot do 16 kHz."""
        self._sd: ModuleType | None = None
        self._stream: Any = None
        self._queue: queue.SimpleQueue[tuple[Float32Array, Hashable]] = queue.SimpleQueue()
        self._current: Float32Array = np.zeros(0, np.float32)
        self._offset = 0
        self._lock = threading.Lock()
        self._played: list[Hashable] = []
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
        sd = _require()
        self._sd = sd
        try:
            try:
                sd.check_output_settings(
                    self.device, channels=1, dtype="float32", samplerate=PLAYBACK_RATE
                )
            except sd.PortAudioError:  # a hardware device without 16 kHz: resample to its rate
                info = sd.query_devices(self.device, "output")
                self.rate = int(info["default_samplerate"])
            self._stream = sd.OutputStream(
                samplerate=self.rate,
                device=self.device,
                channels=1,
                dtype="float32",
                latency=OUTPUT_LATENCY_S,
                callback=self._callback,
                finished_callback=self._finished.set,
            )
            self._stream.start()
        except (sd.PortAudioError, ValueError) as error:
            self._close()
            self._finished.set()
            raise AudioDeviceError(
                f"The speaker {_device_name(sd, self.device, 'output')} could not be opened "
                f"({_describe(error)}). Choose another output or check that it is connected."
            ) from error

    def put(self, samples: npt.NDArray[np.floating], label: Hashable = None) -> None:
        """Queue a chunk (mono, 16 kHz); ``label`` is recorded in :attr:`played` when it starts."""
        if self._stopped.is_set() or self._ending.is_set():
            return
        chunk = np.asarray(samples, dtype=np.float32).reshape(-1)
        if self.rate != PLAYBACK_RATE and chunk.size:
            from scipy.signal import resample_poly

            divisor = math.gcd(self.rate, PLAYBACK_RATE)
            resampled = resample_poly(chunk, self.rate // divisor, PLAYBACK_RATE // divisor)
            chunk = np.asarray(resampled, dtype=np.float32)
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
