"""Reference clips: decoding, resampling and the checks that come before a voice is made."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from pipelines.core import InvalidInputError
from pipelines.voice.audio import MODEL_RATE, read_clip, write_wav_atomic
from pipelines.voice.reference import check_reference, trim_to
from tests.audio_samples import speech_like, write_clip


def _check(path: Path):  # type: ignore[no-untyped-def]
    return check_reference(read_clip(path))


def test_good_clip_passes(tmp_path: Path) -> None:
    report = _check(write_clip(tmp_path / "good.wav", speech_like(8.0, seed=1)))
    assert report.ok, report.problems
    assert 7.5 < report.seconds <= 8.0
    assert report.snr_db > 20


def test_one_second_clip_is_too_short(tmp_path: Path) -> None:
    report = _check(write_clip(tmp_path / "short.wav", speech_like(1.0)))
    assert [p.kind for p in report.problems] == ["too_short"]
    assert "at least 5 s" in report.problems[0].message


def test_ten_minute_clip_is_too_long_and_can_be_trimmed(tmp_path: Path) -> None:
    report = _check(write_clip(tmp_path / "long.flac", speech_like(600.0, seed=2)))
    assert [p.kind for p in report.problems] == ["too_long"]
    assert "10 min" in report.problems[0].message
    trimmed = trim_to(report.samples)
    assert trimmed.size == 30 * MODEL_RATE


def test_silent_clip(tmp_path: Path) -> None:
    report = _check(write_clip(tmp_path / "silent.wav", np.zeros(8 * MODEL_RATE, np.float32)))
    assert [p.kind for p in report.problems] == ["silent"]
    assert "silent" in report.problems[0].message


def test_clipped_clip(tmp_path: Path) -> None:
    loud = np.clip(speech_like(8.0, seed=3) * 8, -1.0, 1.0)
    report = _check(write_clip(tmp_path / "clipped.wav", loud))
    assert "clipped" in [p.kind for p in report.problems]
    assert "distorted" in report.problems[0].message


def test_noisy_clip(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    noisy = speech_like(8.0, seed=4) + 0.2 * rng.standard_normal(8 * MODEL_RATE)
    report = _check(write_clip(tmp_path / "noisy.wav", noisy.astype(np.float32) * 0.5))
    assert [p.kind for p in report.problems] == ["noisy"]
    assert "too noisy" in report.problems[0].message


def test_8khz_stereo_is_mixed_down_and_resampled(tmp_path: Path) -> None:
    left = speech_like(6.0, pitch=150, seed=5, rate=8000)
    stereo = np.stack([left, left * 0.5], axis=1)
    clip = read_clip(write_clip(tmp_path / "phone.wav", stereo, rate=8000))
    assert clip.source_rate == 8000
    assert clip.channels == 2
    assert clip.samples.ndim == 1
    assert abs(clip.samples.size - 6 * MODEL_RATE) <= 2
    # Mixed to mono (0.75 × left) and resampled without changing the level.
    assert np.abs(clip.samples).max() == pytest.approx(0.75 * np.abs(left).max(), rel=0.1)
    assert check_reference(clip).ok


def test_resampling_keeps_a_tone_in_its_place(tmp_path: Path) -> None:
    rate = 44_100
    tone = 0.5 * np.sin(2 * np.pi * 1000 * np.arange(rate) / rate).astype(np.float32)
    clip = read_clip(write_clip(tmp_path / "tone.flac", tone, rate=rate))
    spectrum = np.abs(np.fft.rfft(clip.samples))
    assert np.argmax(spectrum) * MODEL_RATE / clip.samples.size == pytest.approx(1000, abs=2)


@pytest.mark.parametrize("suffix", [".flac", ".ogg", ".mp3"])
def test_compressed_formats_are_read(tmp_path: Path, suffix: str) -> None:
    clip = read_clip(write_clip(tmp_path / f"clip{suffix}", speech_like(6.0, seed=6)))
    assert 5.9 < clip.seconds < 6.2


def test_non_audio_file_named_wav(tmp_path: Path) -> None:
    fake = tmp_path / "notes.wav"
    fake.write_text("these are my notes, not audio")
    with pytest.raises(InvalidInputError, match="not an audio file") as caught:
        read_clip(fake)
    assert caught.value.field == "file"


def test_corrupt_wav(tmp_path: Path) -> None:
    good = write_clip(tmp_path / "good.wav", speech_like(6.0))
    corrupt = tmp_path / "corrupt.wav"
    data = bytearray(good.read_bytes())
    data[20:40] = b"\xff" * 20  # a damaged format chunk
    corrupt.write_bytes(bytes(data))
    with pytest.raises(InvalidInputError) as caught:
        read_clip(corrupt)
    assert caught.value.field == "file"
    assert "corrupt.wav" in str(caught.value)


def test_an_empty_file_is_said_to_be_empty(tmp_path: Path) -> None:
    (tmp_path / "empty.mp3").write_bytes(b"")
    with pytest.raises(InvalidInputError) as caught:
        read_clip(tmp_path / "empty.mp3")
    assert str(caught.value) == "empty.mp3 is empty (0 bytes)."


def test_a_folder_is_not_an_audio_file(tmp_path: Path) -> None:
    folder = tmp_path / "clips.wav"
    folder.mkdir()
    with pytest.raises(InvalidInputError) as caught:
        read_clip(folder)
    assert str(caught.value) == f"{folder} is a folder, not an audio file."


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "stream.wav")
    with pytest.raises(InvalidInputError, match="is not a file but a pipe or a device"):
        read_clip(tmp_path / "stream.wav")


def test_a_damaged_mp3_is_said_in_words_and_its_decoder_stays_quiet(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    data = bytearray(write_clip(tmp_path / "good.mp3", speech_like(3.0)).read_bytes())
    data[500:2000] = bytes(1500)  # mpg123 loses the stream and gives up (and says so)
    (tmp_path / "damaged.mp3").write_bytes(bytes(data))
    capfd.readouterr()
    with pytest.raises(InvalidInputError) as caught:
        read_clip(tmp_path / "damaged.mp3")
    assert str(caught.value) == (
        "damaged.mp3 is not an audio file this app can read (it is damaged, or not really an "
        "MP3 file). Use wav, flac, ogg or mp3."
    )
    assert capfd.readouterr().err == ""  # not mpg123's "Note: Illegal Audio-MPEG-Header"


def test_a_pure_tone_is_not_speech(tmp_path: Path) -> None:
    seconds = np.arange(8 * MODEL_RATE) / MODEL_RATE
    tone = (0.3 * np.sin(2 * np.pi * 440.0 * seconds)).astype(np.float32)
    report = _check(write_clip(tmp_path / "beep.wav", tone))
    assert [p.kind for p in report.problems] == ["no_speech"]
    assert report.problems[0].message.startswith("The clip is a steady tone")
    assert "not someone speaking" in report.problems[0].message
    short = _check(write_clip(tmp_path / "blip.wav", tone[: 2 * MODEL_RATE]))
    assert [p.kind for p in short.problems] == ["no_speech", "too_short"]  # said first


def test_a_hum_with_hiss_is_not_speech_but_steady_hiss_is_noise(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    seconds = np.arange(8 * MODEL_RATE) / MODEL_RATE
    hum = sum(0.1 / k * np.sin(2 * np.pi * 50 * k * seconds) for k in range(1, 8))
    hum = hum + 0.01 * rng.standard_normal(seconds.size)
    report = _check(write_clip(tmp_path / "hum.wav", hum.astype(np.float32)))
    assert [p.kind for p in report.problems] == ["no_speech"]
    # Steady hiss looks like speech drowned in noise: that is said to be too noisy.
    hiss = 0.1 * rng.standard_normal(8 * MODEL_RATE)
    report = _check(write_clip(tmp_path / "hiss.wav", hiss.astype(np.float32)))
    assert [p.kind for p in report.problems] == ["noisy"]


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="does not exist"):
        read_clip(tmp_path / "nope.wav")


def test_wav_is_written_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "speech.wav"
    write_wav_atomic(target, speech_like(1.0))
    before = target.read_bytes()

    import soundfile

    def failing_write(path: str, *args: object, **kwargs: object) -> None:
        Path(path).write_bytes(b"RIFF half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(soundfile, "write", failing_write)
    with pytest.raises(OSError, match="No space"):
        write_wav_atomic(target, speech_like(2.0))
    assert target.read_bytes() == before  # the old file is untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["speech.wav"]  # no temp left
