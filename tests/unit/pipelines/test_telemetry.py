"""OpenVINO's usage telemetry stays off in the app's processes: nothing is written or sent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def _run(code: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(REPO)}
    env.pop("CI", None)  # OpenVINO's own CI check would hide the telemetry this test looks for
    return subprocess.run(
        [sys.executable, *code], capture_output=True, text=True, env=env, timeout=300, check=False
    )


def test_importing_openvino_through_the_app_sends_and_writes_nothing(tmp_path: Path) -> None:
    probe = (
        "import app.core.devices, openvino, openvino_genai\n"
        "import openvino.tools.ovc.telemetry_utils as t\n"
        "print(t.tm.__name__)\n"
    )
    done = _run(["-c", probe], tmp_path)
    assert done.returncode == 0, done.stderr
    # The no-op stub OpenVINO uses without the telemetry package: no event is sent.
    assert done.stdout.strip() == "openvino.tools.ovc.telemetry_stub"
    assert not (tmp_path / "intel").exists()  # no client id written under the home folder


def test_the_conversion_tools_run_optimum_cli_through_the_app(tmp_path: Path) -> None:
    done = _run(["-m", "app.models.optimum_cli", "export", "openvino", "--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "--weight-format" in done.stdout
    assert not (tmp_path / "intel").exists()
