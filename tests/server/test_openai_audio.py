"""``/v1/audio/speech`` and ``/v1/audio/transcriptions`` with the official ``openai`` client:
speech in a voice cloned into the served app (tiny SpeechT5) in every format, decoded back;
espeak-ng speech transcribed by the real Whisper tiny.en; hostile uploads refused."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import av
import httpx
import numpy as np
import openai
import pytest
import soundfile

from app.core.paths import HOME_ENV, AppPaths
from app.server.audio_encoding import OUTPUT_RATE
from pipelines.files import TEMP_PREFIX
from tests.app_process import models_env
from tests.audio_samples import speech_like, wav_claiming, write_clip
from tests.server.audio_serving import client, serve_models
from tests.server.conftest import RunningServer, start_server
from tests.speech import RATE, SENTENCES, have_espeak, spoken, with_silence, words

pytestmark = [pytest.mark.integration]

TEXT = "Hello there. This is a test."


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory,
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
    whisper_model_dir: Path,
) -> Iterator[RunningServer]:
    home = tmp_path_factory.mktemp("audio-home")
    environ = models_env(
        tts=tts_model_dir, speaker_encoder=speaker_encoder_dir, speech_to_text=whisper_model_dir
    )
    running = serve_models(home, environ)
    server = next(running)
    clip = write_clip(home / "ada.wav", speech_like(6.0, pitch=210.0, seed=3))
    server.ctx.voice.add_voice_from_file("Ada", clip)
    yield server
    running.close()


def _seconds(data: bytes) -> float:
    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.audio[0]
        return sum(frame.samples for frame in container.decode(stream)) / float(stream.rate)


@pytest.mark.parametrize("audio_format", ["mp3", "opus", "aac", "flac", "wav"])
def test_speech_in_every_format_decodes_back(server: RunningServer, audio_format: str) -> None:
    answer = client(server).audio.speech.create(
        model="tts-1",
        voice="Ada",
        input=TEXT,
        response_format=audio_format,  # type: ignore[arg-type]
    )
    data = answer.read()
    reference = (
        client(server)
        .audio.speech.create(model="tts-1", voice="ada", input=TEXT, response_format="pcm")
        .read()
    )
    pcm_seconds = len(reference) / 2 / OUTPUT_RATE
    assert pcm_seconds > 0.5
    # Codecs pad a few frames; the length is the same speech.
    assert _seconds(data) == pytest.approx(pcm_seconds, abs=0.1)
    if audio_format in ("wav", "flac"):
        info = soundfile.info(io.BytesIO(data))
        assert (info.samplerate, info.channels) == (OUTPUT_RATE, 1)
        samples, _ = soundfile.read(io.BytesIO(data), dtype="int16")
        # The same samples (libsndfile's FLAC encoder rounds a float by one step otherwise).
        difference = samples.astype(np.int32) - np.frombuffer(reference, "<i2")
        assert int(np.abs(difference).max()) <= 1


def test_speed_time_stretches(server: RunningServer) -> None:
    def seconds(speed: float) -> float:
        pcm = (
            client(server)
            .audio.speech.create(
                model="tts-1", voice="Ada", input=TEXT, response_format="pcm", speed=speed
            )
            .read()
        )
        return len(pcm) / 2 / OUTPUT_RATE

    normal = seconds(1.0)
    assert seconds(2.0) == pytest.approx(normal / 2, rel=0.1)
    assert seconds(0.5) == pytest.approx(normal * 2, rel=0.1)


@pytest.mark.parametrize(
    ("payload", "said"),
    [
        ({"voice": "alloy"}, "There is no voice named 'alloy'; the voices are: Ada."),
        ({"input": "x" * 4097}, "'input'"),
        ({"input": ""}, "'input'"),
        ({"speed": 4.5}, "'speed'"),
        ({"speed": 0.1}, "'speed'"),
        ({"response_format": "ogg"}, "'response_format'"),
        ({"instructions": "Speak softly."}, "'instructions' are not supported"),
        ({"stream_format": "sse"}, '"sse" is not supported'),
    ],
)
def test_bad_speech_requests_are_one_sentence_400s(
    server: RunningServer, payload: dict[str, object], said: str
) -> None:
    body = {"model": "tts-1", "voice": "Ada", "input": TEXT, **payload}
    response = httpx.post(
        f"{server.openai_url}/audio/speech", headers=server.auth, json=body, timeout=60
    )
    assert response.status_code == 400, response.text
    assert said in response.json()["error"]["message"]


def test_an_unknown_speech_model_is_a_404(server: RunningServer) -> None:
    with pytest.raises(openai.NotFoundError):
        client(server).audio.speech.create(model="eleven", voice="Ada", input=TEXT)


# ----- transcriptions ----------------------------------------------------------------------


def _wav(samples: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    soundfile.write(buffer, samples, RATE, format="WAV", subtype="PCM_16")
    return buffer.getvalue()


needs_espeak = pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")


@needs_espeak
def test_a_spoken_sentence_is_transcribed(server: RunningServer) -> None:
    sentence = SENTENCES[1]
    audio = _wav(with_silence(0.5, spoken(sentence), 0.5))
    answer = client(server).audio.transcriptions.create(
        model="whisper-1", file=("question.wav", audio), language="en"
    )
    assert words(answer.text) == words(sentence)
    text = client(server).audio.transcriptions.create(
        model="whisper-1", file=("question.wav", audio), response_format="text"
    )
    assert words(str(text)) == words(sentence)


@needs_espeak
def test_subtitles_and_verbose_json_have_times(server: RunningServer) -> None:
    audio = _wav(with_silence(0.5, spoken(SENTENCES[0]), 0.5))
    srt = str(
        client(server).audio.transcriptions.create(
            model="whisper-1", file=("talk.wav", audio), response_format="srt"
        )
    )
    blocks = [block.splitlines() for block in srt.strip().split("\n\n")]
    assert blocks and all(b[0].isdigit() and " --> " in b[1] for b in blocks)
    assert "microphone" in " ".join(" ".join(b[2:]) for b in blocks).lower()
    vtt = str(
        client(server).audio.transcriptions.create(
            model="whisper-1", file=("talk.wav", audio), response_format="vtt"
        )
    )
    assert vtt.startswith("WEBVTT")
    verbose = client(server).audio.transcriptions.create(
        model="whisper-1", file=("talk.wav", audio), response_format="verbose_json"
    )
    assert verbose.duration == pytest.approx(len(audio) / 2 / RATE, abs=0.1)
    assert verbose.segments and 0.0 <= verbose.segments[0].start < verbose.segments[-1].end


@needs_espeak
def test_a_webm_upload_is_decoded_by_pyav(server: RunningServer, tmp_path: Path) -> None:
    sentence = SENTENCES[3]
    samples = with_silence(0.5, spoken(sentence), 0.5)
    path = tmp_path / "note.webm"
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libopus", rate=48_000, layout="mono")
        assert isinstance(stream, av.audio.stream.AudioStream)
        frame = av.AudioFrame.from_ndarray(samples[np.newaxis, :], format="flt", layout="mono")
        frame.sample_rate = RATE
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            container.mux(packet)
    answer = client(server).audio.transcriptions.create(
        model="whisper-1", file=("note.webm", path.read_bytes())
    )
    assert words(answer.text) == words(sentence)


def left_in_scratch(server: RunningServer) -> list[Path]:
    """What is in the app's scratch folder (only uploads are written there in these tests)."""
    scratch = server.ctx.paths.scratch_dir
    return list(scratch.iterdir()) if scratch.exists() else []


def test_an_upload_is_private_while_transcribed_and_removed_after(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    speech_input = server.ctx.speech_input
    real = speech_input.transcribe_file
    seen: list[tuple[Path, int, int]] = []

    def transcribe_file(path: Path, **options: Any) -> Any:
        seen.append((path, path.stat().st_mode, path.parent.stat().st_mode))
        return real(path, **options)

    monkeypatch.setattr(speech_input, "transcribe_file", transcribe_file)
    response = _post(server, "quiet.wav", _wav(np.zeros(RATE, np.float32)))
    assert response.status_code == 200, response.text
    [(upload, file_mode, folder_mode)] = seen
    assert upload.is_relative_to(server.ctx.paths.scratch_dir)
    assert (stat.S_IMODE(file_mode), stat.S_IMODE(folder_mode)) == (0o600, 0o700)
    assert not upload.parent.exists()
    assert not left_in_scratch(server)


def test_uploads_a_killed_server_left_are_removed_at_start(tmp_path: Path) -> None:
    scratch = AppPaths.from_environment({HOME_ENV: str(tmp_path)}).scratch_dir
    scratch.mkdir(parents=True)
    ended = [sys.executable, "-c", "import os; print(os.getpid())"]
    dead_pid = int(subprocess.run(ended, check=True, capture_output=True, text=True).stdout)
    left = scratch / f"{TEMP_PREFIX}{dead_pid}-abc"  # a server killed mid-transcription
    left.mkdir(mode=0o700)
    (left / "transcribe-upload.wav").write_bytes(b"RIFF recording")
    loose = scratch / "transcribe-0123456789abcdef0123456789abcdef.wav"  # an older version's
    loose.write_bytes(b"RIFF recording")
    running = scratch / f"{TEMP_PREFIX}{os.getpid()}-def"  # a live process's: not ours to take
    running.mkdir()
    others = [scratch / "transcribe-notes.txt", scratch / "frames.bin"]
    for path in others:
        path.write_bytes(b"someone else's")
    server = start_server(tmp_path, None, None)
    next(server)
    try:
        assert sorted(scratch.iterdir()) == sorted([running, *others])
    finally:
        server.close()  # type: ignore[attr-defined]  # a generator


def _claiming_max_rate() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        return wav_claiming(Path(folder) / "rate.wav", 2**31 - 1).read_bytes()


CLAIMING_MAX_RATE = _claiming_max_rate()


def _post(server: RunningServer, name: str, data: bytes, **fields: str) -> httpx.Response:
    return httpx.post(
        f"{server.openai_url}/audio/transcriptions",
        headers=server.auth,
        files={"file": (name, data)},
        data={"model": "whisper-1", **fields},
        timeout=120,
    )


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        ("empty.wav", b"", "The audio file is empty."),
        ("noise.wav", b"not audio at all " * 100, "noise.wav is not an audio file"),
        ("noise.webm", b"not audio at all " * 100, "noise.webm is not an audio file"),
        ("notes.txt", b"hello", "'notes.txt' is not one of the audio types"),
        ("noname", b"hello", "is not one of the audio types"),
        # A header claiming 2^31-1 Hz: its resampling filter would need 320 GB.
        ("rate.wav", CLAIMING_MAX_RATE, "rate.wav has a sample rate of 2,147,483,647 Hz; rates"),
        ("rate.m4a", CLAIMING_MAX_RATE, "rate.m4a has a sample rate of 2,147,483,647 Hz; rates"),
    ],
)
def test_hostile_uploads_are_one_sentence_400s(
    server: RunningServer, name: str, data: bytes, said: str
) -> None:
    response = _post(server, name, data)
    assert response.status_code == 400, response.text
    message = response.json()["error"]["message"]
    assert said in message and "transcribe-" not in message and "\n" not in message
    assert not left_in_scratch(server)  # the copy is gone


def test_bad_transcription_fields_are_refused(server: RunningServer) -> None:
    audio = _wav(np.zeros(RATE, np.float32))
    assert _post(server, "a.wav", audio, response_format="srtx").status_code == 400
    assert _post(server, "a.wav", audio, temperature="3").status_code == 400
    words_asked = _post(server, "a.wav", audio, **{"timestamp_granularities[]": "word"})
    assert words_asked.status_code == 400 and "Word timestamps" in words_asked.text
    assert _post(server, "a.wav", audio, model="whisper-9").status_code == 404


def test_an_upload_over_the_cap_is_a_413(server: RunningServer) -> None:
    response = _post(server, "huge.wav", b"\0" * (33 * 1024 * 1024))
    assert response.status_code == 413
    assert "limit" in response.json()["error"]["message"]


def test_an_upload_over_25_mb_under_the_body_cap_is_a_413(server: RunningServer) -> None:
    response = _post(server, "big.wav", b"\0" * (26 * 1024 * 1024))
    assert response.status_code == 413
    assert "25 MB" in response.json()["error"]["message"]
    assert not left_in_scratch(server)
