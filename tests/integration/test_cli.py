"""The CLI as a user runs it: a real subprocess, real exit codes, no tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.paths import AppPaths


def _run(args: list[str], home: AppPaths, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OV_STUDIO_HOME": str(home.config.parent), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        timeout=300,
        check=False,
    )


def test_help_lists_commands(app_home: AppPaths) -> None:
    result = _run(["--help"], app_home)
    assert result.returncode == 0
    for word in ("devices", "chat", "--smoke-test", "OV_STUDIO_HOME"):
        assert word in result.stdout


def test_devices_json(app_home: AppPaths) -> None:
    result = _run(["devices", "--json"], app_home)
    assert result.returncode == 0
    rows = json.loads(result.stdout)["devices"]
    assert {"device": "AUTO", "label": "AUTO (uses CPU)", "available": True} in rows
    assert [r["available"] for r in rows if r["device"] == "CPU"] == [True]


@pytest.mark.integration
def test_chat_streams_and_ends_with_json(app_home: AppPaths, chat_model_dir: Path) -> None:
    result = _run(
        ["chat", "--model", str(chat_model_dir), "--max-new-tokens", "8", "--json", "Hi"],
        app_home,
    )
    assert result.returncode == 0, result.stderr
    *streamed, last = result.stdout.rstrip("\n").split("\n")
    payload = json.loads(last)
    assert payload["device"] == "CPU"
    assert payload["requested_device"] == "AUTO"
    assert payload["metrics"]["output_tokens"] <= 8
    assert payload["metrics"]["tokens_per_s"] > 0
    assert "\n".join(streamed) == payload["text"]
    assert not list(app_home.conversations_dir.glob("*.json"))  # one-shot: nothing stored


@pytest.mark.integration
def test_chat_reads_stdin(app_home: AppPaths, chat_model_dir: Path) -> None:
    result = _run(
        ["chat", "--model", str(chat_model_dir), "--max-new-tokens", "4", "--json", "-"],
        app_home,
        stdin="Hello from a pipe",
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chat", "--model", "/nonexistent", "Hi"], "Model folder not found"),
        (["chat", "--model", "{model}", "--device", "NPU", "Hi"], "Device 'NPU' is not available"),
        (["chat", "--model", "{model}", "  "], "the prompt is empty"),
        (["chat", "--model", "{model}", "--max-new-tokens", "0", "Hi"], "Max new tokens"),
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
def test_smoke_test_runs_one_turn_in_the_window(app_home: AppPaths, chat_model_dir: Path) -> None:
    result = _run(["--smoke-test", "--model", str(chat_model_dir)], app_home)
    assert result.returncode == 0, result.stderr


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
    ("clip", "message"),
    [
        ("empty.mp3", "empty.mp3 is empty (0 bytes)."),
        ("folder", "{folder} is a folder, not an audio file."),
        ("tone.wav", "The clip is a steady tone (a beep, a hum or a held note), not someone "),
    ],
)
def test_voices_add_says_what_is_wrong_with_a_clip(
    app_home: AppPaths, tmp_path: Path, clip: str, message: str
) -> None:
    import numpy as np

    from tests.audio_samples import write_clip

    (tmp_path / "empty.mp3").write_bytes(b"")
    (tmp_path / "folder").mkdir()
    seconds = np.arange(8 * 16_000) / 16_000
    write_clip(tmp_path / "tone.wav", (0.3 * np.sin(2 * np.pi * 440 * seconds)).astype(np.float32))
    result = _run(["voices", "add", "Beep", "--from", str(tmp_path / clip)], app_home)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {message.format(folder=tmp_path / 'folder')}")
    assert result.stderr.count("\n") == 1 and "pipe" not in result.stderr
    assert "noisy" not in result.stderr and "does not exist" not in result.stderr
