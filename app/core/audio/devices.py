"""Microphones and speakers through PortAudio (``sounddevice``): the device lists and what
the recorder (:mod:`app.core.audio.recording`) and the player (:mod:`app.core.audio.playback`)
share.

No Qt here. PortAudio calls the recorder and the player back on its own thread; they keep
their state behind locks and a GUI *polls* them from a timer (level meter, elapsed time,
playback position) instead of being called back across threads.

With no sound card (a server, a container, CI) PortAudio lists nothing: :func:`input_devices`
and :func:`output_devices` are empty and the caller disables recording and playback. Opening a
stream anyway raises :class:`AudioDeviceError` with a sentence, never a PortAudio traceback.
"""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from app.core.errors import UserError

log = logging.getLogger(__name__)

PLAYBACK_RATE = 24_000
"""The rate :class:`Player` asks the output device for: Kokoro's own, so its voice is heard
whole; 16 kHz sound (SpeechT5, recorded clips) is resampled up to it, losing nothing."""
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


def require_sounddevice() -> ModuleType:
    """The ``sounddevice`` module, or :class:`AudioDeviceError` saying PortAudio is missing."""
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
    # A stream dropped but not yet collected would be closed by PortAudio's terminate and then
    # again by its finaliser, on freed memory: collect it first.
    gc.collect()
    try:
        sd._terminate()
        sd._initialize()
    except sd.PortAudioError as error:
        log.warning("could not re-scan sound devices: %s", error)


def describe_error(error: BaseException) -> str:
    """PortAudio's reason, without its trailing full stop (for a sentence of ours)."""
    text = str(error.args[0]) if error.args else str(error)
    return text.strip().rstrip(".") or type(error).__name__


def device_name(sd: ModuleType, device: int | None, kind: str) -> str:
    """The device's name in quotes (or "the default device") for messages."""
    try:
        info = sd.query_devices(device, kind)
    except (sd.PortAudioError, ValueError):
        return "the default device" if device is None else f"device {device}"
    return f"“{info['name']}”"


@contextlib.contextmanager
def opening(
    sd: ModuleType, kind: Literal["input", "output"], device: int | None, undo: Callable[[], None]
) -> Iterator[None]:
    """Turn a failure while opening ``device`` into one sentence naming it; ``undo`` first.

    Raises:
        AudioDeviceError: PortAudio refused the device or its settings.
    """
    try:
        yield
    except (sd.PortAudioError, ValueError) as error:
        undo()
        noun = "microphone" if kind == "input" else "speaker"
        raise AudioDeviceError(
            f"The {noun} {device_name(sd, device, kind)} could not be opened "
            f"({describe_error(error)}). Choose another {kind} or check that it is connected."
        ) from error


def start_stream(
    sd: ModuleType,
    kind: Literal["input", "output"],
    device: int | None,
    rate: int,
    callback: Callable[..., None],
    finished: Callable[[], None],
) -> Any:
    """Open and start a mono float32 stream on ``device`` (call inside :func:`opening`)."""
    stream_type = sd.InputStream if kind == "input" else sd.OutputStream
    stream = stream_type(
        samplerate=rate,
        device=device,
        channels=1,
        dtype="float32",
        latency=INPUT_LATENCY_S if kind == "input" else OUTPUT_LATENCY_S,
        callback=callback,
        finished_callback=finished,
    )
    stream.start()
    return stream


def input_named(name: str) -> int | None:
    """The PortAudio index of the input called ``name`` ("" : None, the system's default).

    Raises:
        AudioDeviceError: there is no input at all, or none called ``name`` now.
    """
    found = input_devices()
    if not found:
        raise AudioDeviceError(
            "No microphone: this computer lists no sound input (is a sound card or headset "
            "connected?). Typing works as always."
        )
    if not name:
        return None
    for device in found:
        if device.name == name:
            return device.index
    raise AudioDeviceError(
        f"The microphone “{name}” is not connected. Choose another microphone in the "
        "microphone button's menu."
    )
