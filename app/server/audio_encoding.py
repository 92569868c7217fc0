"""Speech as the bytes of an audio file, and audio files back into samples, for the audio API.

SpeechT5 speaks at 16 kHz; every format is sent at :data:`OUTPUT_RATE` (24 kHz, OpenAI's rate,
so a client that plays ``pcm`` as OpenAI documents it — 24 kHz, 16-bit signed little-endian,
mono — hears the right pitch). A speed other than 1 is an honest time-stretch (FFmpeg's
``atempo``, through PyAV): the words come faster or slower at the same pitch.

Encoders: ``wav`` (16-bit PCM) and ``flac`` through soundfile; ``mp3`` (LAME), ``opus`` (in
Ogg) and ``aac`` (ADTS) through PyAV; ``pcm`` is the raw samples.
"""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Literal

import numpy as np
import numpy.typing as npt

from app.voice import resample

AudioFormat = Literal["mp3", "opus", "aac", "flac", "wav", "pcm"]

OUTPUT_RATE = 24_000
MIN_SPEED = 0.25
MAX_SPEED = 4.0

MEDIA_TYPES: dict[str, str] = {
    "mp3": "audio/mpeg",
    "opus": "audio/ogg",
    "aac": "audio/aac",
    "flac": "audio/flac",
    "wav": "audio/wav",
    "pcm": "audio/pcm",
}

#: PyAV's container and codec for the compressed formats.
_AV_FORMATS: dict[str, tuple[str, str]] = {
    "mp3": ("mp3", "libmp3lame"),
    "opus": ("ogg", "libopus"),
    "aac": ("adts", "aac"),
}

Samples = npt.NDArray[np.float32]


def encode_speech(samples: Samples, rate: int, audio_format: AudioFormat, speed: float) -> bytes:
    """``samples`` (mono float at ``rate``) as a file of ``audio_format`` at 24 kHz, ``speed``
    times as fast (0.25 to 4)."""
    audio = np.clip(np.asarray(samples, dtype=np.float32), -1.0, 1.0)
    if speed != 1.0:
        audio = time_stretch(audio, rate, speed)
    audio = resample(audio, rate, OUTPUT_RATE)
    if audio_format in ("wav", "flac", "pcm"):
        import soundfile

        # pcm is libsndfile's headerless 16-bit little-endian: the very samples of the wav.
        container = "RAW" if audio_format == "pcm" else audio_format.upper()
        endian = "LITTLE" if audio_format == "pcm" else "FILE"
        buffer = io.BytesIO()
        soundfile.write(
            buffer, audio, OUTPUT_RATE, subtype="PCM_16", format=container, endian=endian
        )
        return buffer.getvalue()
    return _encode_with_av(audio, audio_format)


def time_stretch(audio: Samples, rate: int, speed: float) -> Samples:
    """``audio`` ``speed`` times as fast at the same pitch (FFmpeg's ``atempo`` filter; each
    stage takes 0.5–2, so 0.25 or 4 are two stages)."""
    import av

    if not audio.size:
        return audio
    stages = []
    left = speed
    while left > 2.0 or left < 0.5:
        step = 2.0 if left > 2.0 else 0.5
        stages.append(step)
        left /= step
    stages.append(left)
    graph = av.filter.Graph()
    node = graph.add_abuffer(format="flt", sample_rate=rate, layout="mono")
    for factor in stages:
        stage = graph.add("atempo", f"{factor:.6f}")
        node.link_to(stage)
        node = stage
    sink = graph.add("abuffersink")
    node.link_to(sink)
    graph.configure()
    frame = av.AudioFrame.from_ndarray(audio[np.newaxis, :], format="flt", layout="mono")
    frame.sample_rate = rate
    frame.pts = 0
    frame.time_base = Fraction(1, rate)
    graph.push(frame)
    graph.push(None)
    pieces: list[Samples] = []
    while True:
        try:
            out = graph.pull()
        except (av.BlockingIOError, av.EOFError):
            break
        pieces.append(np.asarray(out.to_ndarray(), dtype=np.float32).reshape(-1))
    return np.concatenate(pieces) if pieces else np.zeros(0, np.float32)


def _encode_with_av(audio: Samples, audio_format: str) -> bytes:
    import av

    container_format, codec = _AV_FORMATS[audio_format]
    buffer = io.BytesIO()
    with av.open(buffer, "w", format=container_format) as container:
        stream = container.add_stream(codec, rate=OUTPUT_RATE, layout="mono")
        assert isinstance(stream, av.audio.stream.AudioStream)  # an audio codec's stream
        frame = av.AudioFrame.from_ndarray(audio[np.newaxis, :], format="flt", layout="mono")
        frame.sample_rate = OUTPUT_RATE
        # The stream converts the samples to what its encoder takes (s32p, s16, fltp).
        for packet in stream.encode(frame):
            container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return buffer.getvalue()
