"""Audio files: decoding every format, resampling, files that are not sound, and WAV written whole
or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from pipelines.core import InvalidInputError
from pipelines.voice.audio import MODEL_RATE, read_clip, write_wav_atomic
from tests.audio_samples import speech_like, write_clip


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
