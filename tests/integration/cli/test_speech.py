"""``python -m app transcribe`` as a user runs it: the real Whisper in a subprocess."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.cli import exits
from app.cli.progress import STOPPING
from app.cli.voice import STOPPED
from app.core.paths import AppPaths
from pipelines.subtitles import NOTHING_HEARD
from tests.app_process import interrupt_app, models_env, run_app
from tests.audio_samples import wav_claiming, write_clip
from tests.speech import SENTENCES, have_espeak, spoken, with_silence, word_error_rate

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed"),
]


@pytest.fixture
def speech_file(tmp_path: Path) -> Path:
    audio = with_silence(0.4, spoken(SENTENCES[1]), 0.6, spoken(SENTENCES[2]), 0.4)
    return write_clip(tmp_path / "speech.wav", audio)


def test_transcribe_prints_the_text_and_writes_subtitles(
    app_home: AppPaths, whisper_model_dir: Path, speech_file: Path, tmp_path: Path
) -> None:
    env = models_env(speech_to_text=whisper_model_dir)
    srt = tmp_path / "speech.srt"
    result = run_app(["transcribe", str(speech_file), "--srt", str(srt)], app_home, env)
    assert result.returncode == exits.OK, result.stderr
    text, wrote = result.stdout.splitlines()
    assert word_error_rate([" ".join(SENTENCES[1:3])], [text]) <= 0.2, text
    assert wrote.startswith(f"wrote {srt} (") and wrote.endswith(" subtitles)")
    cues = srt.read_text(encoding="utf-8").split("\n\n")
    assert len(cues) >= 2 and cues[0].startswith("1\n00:00:00,")
    assert "Paris" in cues[0] and "dragon" in cues[-1]
    times = [_seconds(stamp) for stamp in re.findall(r"\d\d:\d\d:\d\d,\d\d\d", srt.read_text())]
    assert len(times) == 2 * len(cues) and times == sorted(times)  # no overlap, no going back
    assert all(end > start for start, end in zip(times[::2], times[1::2], strict=True))
    assert times[-1] <= _audio_seconds(speech_file) + 0.5


def _seconds(stamp: str) -> float:
    hours, minutes, rest = stamp.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(rest.replace(",", "."))


def _audio_seconds(path: Path) -> float:
    import soundfile

    return float(soundfile.info(str(path)).duration)


def test_transcribe_json(app_home: AppPaths, whisper_model_dir: Path, speech_file: Path) -> None:
    env = models_env(speech_to_text=whisper_model_dir)
    result = run_app(["transcribe", str(speech_file), "--json"], app_home, env)
    assert result.returncode == exits.OK, result.stderr
    summary = json.loads(result.stdout)
    assert word_error_rate([" ".join(SENTENCES[1:3])], [summary["text"]]) <= 0.2
    assert summary["segments"] and summary["srt"] is None
    said = [word["text"].strip(" .?").lower() for word in summary["words"]]
    assert "paris" in said and "dragon" in said
    starts = [word["start"] for word in summary["words"]]
    assert starts == sorted(starts) and starts[-1] < summary["audio_seconds"]
    assert summary["audio_seconds"] > 4 and 0 < summary["real_time_factor"] < 1


def test_transcribe_says_what_is_wrong_in_one_line(
    app_home: AppPaths, whisper_model_dir: Path, speech_file: Path, tmp_path: Path
) -> None:
    no_model = run_app(["transcribe", str(speech_file)], app_home)
    assert no_model.returncode == exits.USAGE
    assert no_model.stderr.strip().splitlines() == [
        "error: No speech-to-text model is installed: download a Whisper model (e.g. "
        "OpenVINO/whisper-base-int8-ov) in Models…. From the command line: `python -m app "
        "models pull OpenVINO/whisper-base-int8-ov`."
    ]
    env = models_env(speech_to_text=whisper_model_dir)
    (tmp_path / "notes.wav").write_text("not audio")
    (tmp_path / "empty.wav").write_bytes(b"")
    (tmp_path / "folder.wav").mkdir()
    wav_claiming(tmp_path / "rate.wav", 2**31 - 1)  # its filter would need 320 GB
    srt = tmp_path / "out.srt"
    cases = [
        (["transcribe", str(tmp_path / "notes.wav"), "--srt", str(srt)], "is not an audio file"),
        (["transcribe", str(tmp_path / "gone.wav"), "--srt", str(srt)], "gone.wav"),
        (["transcribe", str(tmp_path / "empty.wav"), "--srt", str(srt)], "empty.wav"),
        (["transcribe", str(tmp_path / "folder.wav"), "--srt", str(srt)], "folder.wav"),
        (["transcribe", str(tmp_path / "rate.wav")], "rate.wav has a sample rate of 2,147,483,647"),
        (["transcribe", str(speech_file), "--srt", str(tmp_path / "x.txt")], "saved as .srt"),
        (["transcribe", str(speech_file), "--language", "de"], "understands English only"),
    ]
    for args, words in cases:
        result = run_app(args, app_home, env)
        assert result.returncode == exits.USAGE, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0]
        assert "Traceback" not in result.stderr and result.stdout == ""
        assert not srt.exists()


def test_silence_prints_no_speech_and_writes_no_subtitles(
    app_home: AppPaths, whisper_model_dir: Path, tmp_path: Path
) -> None:
    quiet = write_clip(tmp_path / "quiet.wav", with_silence(3.0))
    srt = tmp_path / "quiet.srt"
    env = models_env(speech_to_text=whisper_model_dir)
    result = run_app(["transcribe", str(quiet), "--srt", str(srt)], app_home, env)
    assert result.returncode == exits.OK, result.stderr
    assert result.stdout.splitlines() == ["(no speech)", NOTHING_HEARD]
    assert not srt.exists()


def test_ctrl_c_stops_the_transcription_and_writes_nothing(
    app_home: AppPaths, whisper_model_dir: Path, tmp_path: Path
) -> None:
    minutes = with_silence(*[spoken(SENTENCES[0]), 1.0] * 30)  # many windows to stop in
    long = write_clip(tmp_path / "long.wav", minutes)
    srt = tmp_path / "long.srt"
    env = models_env(speech_to_text=whisper_model_dir)
    args = ["transcribe", str(long), "--srt", str(srt)]
    stopped = interrupt_app(args, app_home, env, once="transcribing… 0 of")
    assert stopped.returncode == exits.PARTIAL, stopped.stderr
    assert stopped.stderr.endswith(f"\n{STOPPING}\n{STOPPED}\n")
    assert stopped.stdout == "" and not srt.exists()
