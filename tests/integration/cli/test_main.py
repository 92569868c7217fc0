"""The CLI as a user runs it: a real subprocess, real exit codes, no tracebacks; help, damaged
files, the environment, the home folder, and the window's smoke test."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from app.chat.storage import ConversationStore
from app.cli import exits
from app.core.paths import AppPaths
from tests.app_process import run_app


def _run(args: list[str], home: AppPaths, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_app(args, home, stdin=stdin)


def test_help_lists_commands_and_the_exit_statuses(app_home: AppPaths) -> None:
    result = _run(["--help"], app_home)
    assert result.returncode == 0
    for word in ("devices", "chat", "lipsync", "--smoke-test", "OV_STUDIO_HOME"):
        assert word in result.stdout
    assert exits.TABLE in result.stdout
    for code in (exits.OK, exits.PARTIAL, exits.USAGE, exits.INTERNAL, exits.QUIT):
        assert f"\n  {code:<4} " in result.stdout


@pytest.mark.parametrize(
    "command",
    [
        ["devices"],
        ["setup"],
        ["chat"],
        ["ask"],
        ["ingest"],
        ["search"],
        ["collections"],
        ["models", "list"],
        ["models", "catalog"],
        ["models", "pull"],
        ["models", "convert"],
        ["models", "add"],
        ["models", "remove"],
        ["voices", "list"],
        ["voices", "add"],
        ["voices", "remove"],
        ["say"],
        ["lipsync"],
        ["upscale"],
        ["transcribe"],
    ],
)
def test_every_command_has_its_help(command: list[str]) -> None:
    from app.cli.main import build_parser

    with pytest.raises(SystemExit) as done:
        build_parser().parse_args([*command, "--help"])
    assert done.value.code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chat", "--model", "/nonexistent", "Hi"], "Model folder not found"),
        (["chat", "--model", "{model}", "--device", "NPU", "Hi"], "Device 'NPU' is not available"),
        (["chat", "--model", "{model}", "  "], "the prompt is empty"),
        (["chat", "--model", "{model}", "--max-new-tokens", "0", "Hi"], "Max new tokens"),
        (
            ["chat", "--model", "{model}", "--repetition-penalty", "3", "Hi"],
            "Repetition penalty must be between 0.5 and 2.",
        ),
        (["chat", "--model", "{embedding}", "Hi"], "not a chat model"),
    ],
)
def test_user_errors_exit_2_with_one_line(
    app_home: AppPaths, tmp_path: Path, args: list[str], message: str
) -> None:
    model = tmp_path / "model"
    model.mkdir()
    for name in ("openvino_model.xml", "openvino_tokenizer.xml", "openvino_detokenizer.xml"):
        (model / name).write_text("<net/>", encoding="utf-8")
    embedding = tmp_path / "embedding"
    embedding.mkdir()
    (embedding / "openvino_model.xml").write_text("<net/>", encoding="utf-8")
    (embedding / "config.json").write_text('{"architectures": ["BertModel"]}', encoding="utf-8")
    args = [a.format(model=model, embedding=embedding) for a in args]
    result = _run(args, app_home)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.e2e
@pytest.mark.integration
def test_smoke_test_runs_one_turn_in_the_window(
    gguf_home: AppPaths, smoke_chat_model: Path
) -> None:
    # The real SmolLM2 GGUF when it could be fetched, else the tiny model.
    result = _run(["--smoke-test", "--model", str(smoke_chat_model)], gguf_home)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("smoke test passed: answered with")
    [stored] = ConversationStore(gguf_home.conversations_dir).load_all()
    assert [m.role for m in stored.messages] == ["user", "assistant"]
    assert stored.messages[1].content.strip()


@pytest.mark.e2e
def test_smoke_test_without_model_opens_and_closes(app_home: AppPaths) -> None:
    result = _run(["--smoke-test"], app_home)
    assert result.returncode == 0, result.stderr


@pytest.mark.e2e
def test_smoke_test_with_bad_model_fails(app_home: AppPaths, tmp_path: Path) -> None:
    result = _run(["--smoke-test", "--model", str(tmp_path)], app_home)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("seconds", "message", "hint"),
    [
        (
            8.0,
            "No speaker encoder is installed: convert speechbrain/spkrec-xvect-voxceleb in "
            "Models… → Convert.",
            " From the command line: `python -m app models convert "
            "speechbrain/spkrec-xvect-voxceleb --task speaker-encoder`.",
        ),
        (
            600.0,
            "The clip is 600 s long; a voice uses at most 30 s: trim it to its first 30 s, or "
            "pick a shorter clip.",
            " Add --trim to use its first 30 s.",
        ),
    ],
)
def test_the_command_line_adds_its_own_command_to_a_message_worded_for_the_window(
    app_home: AppPaths, tmp_path: Path, seconds: float, message: str, hint: str
) -> None:
    from tests.audio_samples import speech_like, write_clip

    write_clip(tmp_path / "clip.wav", speech_like(seconds))
    result = _run(["voices", "add", "Alice", "--from", str(tmp_path / "clip.wav")], app_home)
    assert result.returncode == 2
    assert result.stderr == f"error: {message}{hint}\n"


# -- damaged files never stop a command (issue 12, items 8, 9, 11, 12) -----------------------

SECRET_URL = "postgresql://ana:SECRET-pw@db.example/knowledge"
NESTED = b'{"id": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"


def _damage_everything(home: AppPaths) -> str:
    """Damaged settings (UTF-16, with a password), model list, conversation and voice."""
    import numpy as np

    from app.voice.library import VoiceLibrary

    home.settings_file.write_bytes(
        json.dumps({"database_url": SECRET_URL, "voice": "Bad"}).encode("utf-16")
    )
    home.model_registry.write_bytes(NESTED)
    home.conversations_dir.mkdir(parents=True)
    (home.conversations_dir / f"{'0' * 32}.json").write_bytes(NESTED)
    clip = home.data / "clip.wav"
    clip.write_bytes(b"RIFF stand-in")
    vector = np.random.default_rng(1).standard_normal(512).astype(np.float32)
    voice = VoiceLibrary(home.voices_dir).add("Bad", vector, clip, 6.0)
    np.save(voice.folder / "embedding.npy", vector.astype(np.float64))  # the wrong dtype
    return voice.id


def test_damaged_files_are_said_once_and_every_command_runs(app_home: AppPaths) -> None:
    _damage_everything(app_home)
    first = _run(["voices", "list"], app_home)
    assert first.returncode == 0, first.stderr
    assert "Traceback" not in first.stderr
    warnings = first.stderr.splitlines()
    assert [line.split(" (")[0] for line in warnings] == [
        "WARNING: The settings file was damaged and has been reset",
        f"WARNING: Conversation file {'0' * 32}.json was damaged",
        "WARNING: The model list was damaged",
    ]
    assert first.stdout == (
        "Bad  damaged: embedding.npy holds float64 values of shape (512,), not 512 float32 values\n"
    )
    [backup] = app_home.config.glob("settings.json.broken-*")
    assert "SECRET" not in backup.read_text(encoding="utf-8")
    # Repaired and set aside: the next commands say nothing more, and all of them run.
    for args in (["voices", "list", "--json"], ["models", "list"], ["devices"]):
        again = _run(args, app_home)
        assert again.returncode == 0 and again.stderr == "", (args, again.stderr)
    listed = json.loads(_run(["voices", "list", "--json"], app_home).stdout)
    assert [(row["name"], row["damaged"][:14]) for row in listed] == [("Bad", "embedding.npy ")]


def test_a_damaged_voice_is_one_error_on_say_and_can_be_removed(
    app_home: AppPaths, tmp_path: Path
) -> None:
    _damage_everything(app_home)
    _run(["voices", "list"], app_home)  # the repairs are said (and done) here
    out = tmp_path / "out.wav"
    said = _run(["say", "Hello.", "--voice", "bad", "-o", str(out)], app_home)
    assert said.returncode == 2
    assert said.stderr == (
        "error: The voice “Bad” is damaged (embedding.npy holds float64 values of shape "
        "(512,), not 512 float32 values). Delete it and create it again from its clip.\n"
    )
    assert not out.exists()
    removed = _run(["voices", "remove", "Bad"], app_home)
    assert removed.returncode == 0 and removed.stderr == "", removed.stderr
    assert _run(["voices", "list"], app_home).stdout.startswith("no voices yet")
    assert list(app_home.voices_dir.iterdir()) == []


@pytest.mark.e2e
def test_the_window_starts_with_damaged_files(app_home: AppPaths) -> None:
    _damage_everything(app_home)
    result = _run(["--smoke-test"], app_home)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("The settings file was damaged and has been reset") == 1


# -- the environment (issue 12) ----------------------------------------------------------------


def _run_with(args: list[str], environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run_app(args, environ=environ)


@pytest.mark.parametrize(
    ("variable", "value"),
    [("OV_STUDIO_CHUNK_TOKENS", "abc"), ("OV_STUDIO_MODELS", "{")],
)
def test_an_invalid_environment_variable_is_one_line_and_ignored(
    app_home: AppPaths, variable: str, value: str
) -> None:
    home = {"OV_STUDIO_HOME": str(app_home.config.parent), variable: value}
    for args in (["devices"], ["voices", "list"]):  # without and with the app's services
        result = _run_with(args, home)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        [line] = result.stderr.splitlines()
        assert line.startswith(f"warning: The environment variable {variable} is ignored (")
        assert line.endswith("the saved or default value of that setting is used.")
    assert "CPU" in _run_with(["devices"], home).stdout


@pytest.mark.parametrize("where", ["under a file", "unknown user", "symlink loop"])
@pytest.mark.parametrize("args", [["voices", "list"], ["models", "list"], ["setup"]])
def test_an_unusable_home_is_one_sentence_and_exit_2(
    tmp_path: Path, where: str, args: list[str]
) -> None:
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    home = {
        "under a file": str(tmp_path / "file" / "home"),
        "unknown user": "~no-such-user-ov/home",
        "symlink loop": str(tmp_path / "loop" / "home"),
    }[where]
    result = _run_with(args, {"OV_STUDIO_HOME": home})
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and "OV_STUDIO_HOME" in line
    assert not (tmp_path / "file").is_dir()
