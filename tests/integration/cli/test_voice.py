"""``voices`` and ``say`` as a user runs them: a real subprocess (or main()) on the fixture voice
models, figures, Ctrl+C, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import soundfile

from app.cli import exits
from app.cli.main import main
from app.cli.progress import STOPPING
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from pipelines.core import MetricRecord
from tests.app_process import interrupt_app, models_env, run_app
from tests.audio_samples import speech_like, write_clip
from tests.integration.cli.test_main import _run
from tests.integration.voice.test_service import alice_clip

__all__ = ["alice_clip"]  # fixtures, imported for the tests below


@pytest.mark.parametrize(
    ("clip", "message"),
    [
        ("empty.mp3", "empty.mp3 is empty (0 bytes)."),
        ("folder", "{folder} is a folder, not an audio file."),
        ("tone.wav", "The clip is a steady tone (a beep, a hum or a held note), not someone "),
        # Its resampling filter would need 320 GB (exit 70 before); 16,777,213 Hz took 15.9 GB.
        ("rate.wav", "rate.wav has a sample rate of 2,147,483,647 Hz; rates from 4,000 to "),
    ],
)
def test_voices_add_says_what_is_wrong_with_a_clip(
    app_home: AppPaths, tmp_path: Path, clip: str, message: str
) -> None:
    import numpy as np

    from tests.audio_samples import wav_claiming, write_clip

    wav_claiming(tmp_path / "rate.wav", 2**31 - 1)
    (tmp_path / "empty.mp3").write_bytes(b"")
    (tmp_path / "folder").mkdir()
    seconds = np.arange(8 * 16_000) / 16_000
    write_clip(tmp_path / "tone.wav", (0.3 * np.sin(2 * np.pi * 440 * seconds)).astype(np.float32))
    result = _run(["voices", "add", "Beep", "--from", str(tmp_path / clip)], app_home)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {message.format(folder=tmp_path / 'folder')}")
    assert result.stderr.count("\n") == 1 and "pipe" not in result.stderr
    assert "noisy" not in result.stderr and "does not exist" not in result.stderr


@pytest.mark.integration
def test_cli_say_shows_the_figures_the_overlay_gets(
    app_home: AppPaths,
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
    alice_clip: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    published: list[MetricRecord] = []
    publish = MetricsBus.publish

    def recording(bus: MetricsBus, record: MetricRecord) -> None:
        published.append(record)
        publish(bus, record)

    monkeypatch.setattr(MetricsBus, "publish", recording)
    monkeypatch.setenv("OV_STUDIO_MODELS__TTS__FOLDER", str(tts_model_dir))
    monkeypatch.setenv("OV_STUDIO_MODELS__SPEAKER_ENCODER__FOLDER", str(speaker_encoder_dir))
    assert main(["voices", "add", "Alice", "--from", str(alice_clip), "--device", "cpu"]) == 0
    capsys.readouterr()
    out = tmp_path / "said.wav"
    assert main(["say", "Hello there. Bye.", "--voice", "Alice", "-o", str(out), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    [record] = [record for record in published if record.pipeline == "tts"]
    assert payload["rtf"] == round(record.values["rtf"], 4) and payload["rtf"] > 0
    assert payload["first_audio_s"] == round(record.values["first_audio_ms"] / 1000.0, 4)
    assert payload["first_audio_s"] > 0
    assert payload["sentences"] == record.values["sentences"] == 2
    assert payload["device"] == record.device == "CPU"


@pytest.fixture
def voice_env(tts_model_dir: Path, speaker_encoder_dir: Path) -> dict[str, str]:
    """The environment pointing the app run in a subprocess at the fixture voice models."""
    return models_env(tts=tts_model_dir, speaker_encoder=speaker_encoder_dir)


def _add_alice(home: AppPaths, env: dict[str, str], clip: Path, *options: str) -> str:
    """Run `voices add Alice --from clip` as a user would; its standard output."""
    added = run_app(["voices", "add", "Alice", "--from", str(clip), *options], home, env)
    assert added.returncode == 0, added.stderr
    return added.stdout


@pytest.mark.integration
def test_cli_voices_and_say(
    app_home: AppPaths, voice_env: dict[str, str], alice_clip: Path, tmp_path: Path
) -> None:
    added = _add_alice(app_home, voice_env, alice_clip, "--json")
    assert json.loads(added)["name"] == "Alice"
    listed = run_app(["voices", "list", "--json"], app_home, voice_env)
    assert [v["name"] for v in json.loads(listed.stdout)] == ["Alice"]

    out = tmp_path / "hello.wav"
    said = run_app(
        ["say", "Hello there. How are you?", "--voice", "alice", "-o", str(out), "--json"],
        app_home,
        voice_env,
    )
    assert said.returncode == 0, said.stderr
    payload = json.loads(said.stdout)
    audio, rate = soundfile.read(out)
    assert payload["path"] == str(out)
    assert payload["seconds"] == pytest.approx(audio.size / rate, abs=1e-3)
    assert payload["rtf"] > 0 and payload["first_audio_s"] > 0
    assert payload["device"] == "CPU"

    removed = run_app(["voices", "remove", "ALICE"], app_home, voice_env)
    assert removed.returncode == 0
    assert json.loads(run_app(["voices", "list", "--json"], app_home, voice_env).stdout) == []


@pytest.mark.integration
def test_ctrl_c_stops_say_writes_nothing_and_exits_1(
    app_home: AppPaths, voice_env: dict[str, str], alice_clip: Path, tmp_path: Path
) -> None:
    _add_alice(app_home, voice_env, alice_clip)
    out = tmp_path / "long.wav"
    text = " ".join(f"This is sentence number {n}." for n in range(300))
    args = ["say", text, "--voice", "alice", "-o", str(out)]
    stopped = interrupt_app(args, app_home, voice_env, once="sentence 1/")
    assert stopped.returncode == exits.PARTIAL, stopped.stderr
    assert stopped.stderr.endswith(f"\n{STOPPING}\nstopped: nothing was written\n")
    assert stopped.stdout == "" and not out.exists()


@pytest.mark.integration
def test_cli_voices_add_runs_the_speaker_encoder_on_the_device_given(
    app_home: AppPaths,
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import app.voice.voice_models as voice_module
    from pipelines.voice.speaker import SpeakerEncoder

    loaded_on: list[str] = []

    class RecordingEncoder(SpeakerEncoder):
        def __init__(self, model: Path, device: str = "CPU", **options: Path | None) -> None:
            loaded_on.append(device)
            super().__init__(model, device, **options)

    monkeypatch.setattr(voice_module, "SpeakerEncoder", RecordingEncoder)
    monkeypatch.setenv("OV_STUDIO_MODELS__TTS__FOLDER", str(tts_model_dir))
    monkeypatch.setenv("OV_STUDIO_MODELS__SPEAKER_ENCODER__FOLDER", str(speaker_encoder_dir))
    # The saved choice names a GPU this machine lacks (settings copied from a laptop).
    monkeypatch.setenv(
        "OV_STUDIO_MODELS__TTS__PLACEMENT", json.dumps({"kind": "local", "device": "GPU.7"})
    )
    add = ["voices", "add", "Alice", "--from", str(alice_clip)]

    assert main(add) == 2  # no --device: the setting is used, and refused
    assert "Device 'GPU.7' is not available" in capsys.readouterr().err
    assert main([*add, "--device", "TPU"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: Device 'TPU' is not available on this computer. Choose one of")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert loaded_on == []  # refused before any model was loaded

    assert main([*add, "--device", "cpu", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "Alice"
    assert loaded_on == ["CPU"]


@pytest.mark.integration
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["say", "Hi.", "--voice", "Nobody", "-o", "OUT"], "no voice named"),
        (["say", "", "--voice", "Alice", "-o", "OUT"], "Type something"),
        (["say", "Hi.", "--voice", "Alice", "--speed", "1.5", "-o", "OUT"], "one pace"),
        (["voices", "add", "X", "--from", "SHORT"], "at least 5 s"),
        (["voices", "remove", "Nobody"], "no voice named"),
    ],
)
def test_cli_user_errors_exit_2_with_one_line(
    app_home: AppPaths,
    voice_env: dict[str, str],
    alice_clip: Path,
    tmp_path: Path,
    args: list[str],
    message: str,
) -> None:
    _add_alice(app_home, voice_env, alice_clip)
    short = write_clip(tmp_path / "short.wav", speech_like(1.0))
    replaced = [
        str(tmp_path / "out.wav") if a == "OUT" else str(short) if a == "SHORT" else a for a in args
    ]
    result = run_app(replaced, app_home, voice_env)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "out.wav").exists()


@pytest.mark.integration
def test_cli_voices_say_how_alike_each_voice_sounds_to_its_clip(
    app_home: AppPaths,
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
    speaker_similarity_dir: Path,
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("OV_STUDIO_MODELS__TTS__FOLDER", str(tts_model_dir))
    monkeypatch.setenv("OV_STUDIO_MODELS__SPEAKER_ENCODER__FOLDER", str(speaker_encoder_dir))
    assert main(["voices", "add", "Bob", "--from", str(alice_clip)]) == 0  # no similarity model
    assert capsys.readouterr().out.endswith("s clip)\n")
    monkeypatch.setenv("OV_STUDIO_MODELS__SPEAKER_SIMILARITY__FOLDER", str(speaker_similarity_dir))
    assert main(["voices", "add", "Alice", "--from", str(alice_clip)]) == 0
    added = capsys.readouterr().out
    assert "; it sounds 0." in added and added.endswith(" like the clip)\n")
    assert main(["voices", "list"]) == 0
    alice, bob = capsys.readouterr().out.splitlines()
    assert " sounds 0." in alice and alice.endswith(" like the clip")
    assert "sounds" not in bob  # never measured: no figure, not a guess
    assert main(["voices", "list", "--json"]) == 0
    rows = {row["name"]: row["likeness"] for row in json.loads(capsys.readouterr().out)}
    assert rows["Bob"] is None and 0.0 <= rows["Alice"] <= 1.0


def test_a_kokoro_model_lists_its_presets_and_speaks_in_one(
    app_home: AppPaths, converted_kokoro: Path, tmp_path: Path
) -> None:
    env = models_env(tts=converted_kokoro)
    listed = run_app(["voices", "list"], app_home, env)
    assert listed.returncode == 0, listed.stderr
    assert "jm_kumo  preset of the Kokoro model" in listed.stdout.splitlines()
    rows = json.loads(run_app(["voices", "list", "--json"], app_home, env).stdout)
    assert {"name": "jf_alpha", "preset": True} in rows

    out = tmp_path / "kumo.wav"
    said = run_app(["say", "Good morning.", "--voice", "jm_kumo", "-o", str(out)], app_home, env)
    assert said.returncode == 0, said.stderr
    samples, rate = soundfile.read(out)
    assert rate == 24_000 and samples.size > rate // 2  # Kokoro's own rate: all of the voice

    refused = run_app(["say", "Hi.", "--voice", "Alice", "-o", str(out)], app_home, env)
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "speaks its own voices" in refused.stderr

    slow = tmp_path / "slow.wav"
    args = ["say", "Good morning.", "--voice", "jm_kumo", "--speed", "0.5", "-o", str(slow)]
    said = run_app(args, app_home, env)
    assert said.returncode == 0, said.stderr
    assert soundfile.info(slow).frames > 1.4 * samples.size  # Kokoro's pace, halved

    too_fast = [*args[:4], "--speed", "3", "-o", str(tmp_path / "fast.wav")]
    refused = run_app(too_fast, app_home, env)
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "The speed goes from 0.5 to 2" in refused.stderr
    assert not (tmp_path / "fast.wav").exists()
