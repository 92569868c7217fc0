"""`python -m app models convert …`: a hub id through the stand-in hub, errors, Ctrl+C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from app.cli.main import main
from tests.hub_server import HubServer, running_hub

pytestmark = pytest.mark.integration
REPO = "tiny/llm-tiny-hf"
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OV_STUDIO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))  # never the user's hub cache
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    return tmp_path / "home"


@pytest.fixture
def hub(tiny_checkpoint: Path) -> Iterator[HubServer]:
    with running_hub({REPO: tiny_checkpoint}) as server:
        yield server


def test_convert_a_hub_id(
    home: Path, hub: HubServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    assert main(["models", "convert", REPO, "--task", "chat", "--weights", "int8"]) == 0
    shown = capsys.readouterr()
    assert "installed llm-tiny-hf-int8-ov (chat, int8)" in shown.out
    assert "[1/5] Loading the checkpoint" in shown.err and "[5/5] Installed" in shown.err
    assert main(["models", "list", "--json"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert (listed["id"], listed["source"], listed["hub_id"]) == (
        "llm-tiny-hf-int8-ov",
        "converted",
        REPO,
    )
    assert listed["status"] == "ok" and listed["owned"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["/no/such/checkpoint", "--weights", "int4"], "There is no folder"),
        (["{models}/llm-tiny-hf", "--weights", "int8", "--group-size", "32"], "int4 weights only"),
        (["{models}/llm-int8", "--weights", "int4"], "already an OpenVINO model"),
        (["{models}/llm-tiny-hf", "--weights", "npu", "--sym"], "NPU preset fixes"),
        (["{models}/llm-tiny-hf", "--weights", "int4", "--ratio", "2"], "at most 1"),
    ],
)
def test_user_errors_exit_2_with_one_line(
    home: Path,
    tiny_checkpoint: Path,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
) -> None:
    models = str(tiny_checkpoint.parent)
    argv = ["models", "convert", *(a.replace("{models}", models) for a in arguments)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_unknown_hub_id_exits_2(
    home: Path, hub: HubServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    assert main(["models", "convert", "tiny/nope", "--task", "chat", "--weights", "int8"]) == 2
    assert "There is no model “tiny/nope” on the hub" in capsys.readouterr().err


def test_ctrl_c_stops_the_job_and_removes_its_output(tmp_path: Path, tiny_checkpoint: Path) -> None:
    env = {**os.environ, "OV_STUDIO_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "app", "models", "convert", str(tiny_checkpoint)]
    cli = subprocess.Popen(
        [*command, "--weights", "fp16"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert cli.stderr is not None
    try:
        for line in cli.stderr:  # stage lines; the export stage means the job is working
            if "Loading the checkpoint" in line:
                break
        job = psutil.Process(cli.pid).children(recursive=True)
        assert job
        cli.send_signal(signal.SIGINT)
        assert "stopped; the partial output was removed" in cli.stderr.read()
        assert cli.wait(timeout=60) == 1
    finally:
        cli.kill()
        cli.wait()
        cli.stderr.close()
    assert not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in job)
    models = tmp_path / "home" / "data" / "models"
    assert not models.exists() or list(models.iterdir()) == []
