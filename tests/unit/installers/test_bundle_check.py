"""installers/bundle_check.py from the source tree: the same checks the frozen app runs with
``--bundle-check`` (jsonschema, real MCP stdio and streamable-HTTP round trips, OpenCV with
PyAV), and how a failing check is reported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "installers"))

import bundle_check  # noqa: E402


def test_the_entry_script_runs_every_check_and_passes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "installers" / "ov_studio_main.py"), "--bundle-check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=180,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip()
    assert line.startswith("bundle check passed: ")
    for part in ("OpenCV", "Draft202012Validator", "MCP stdio", "MCP streamable HTTP"):
        assert part in line


def test_a_failing_check_is_one_line_on_stderr_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken() -> str:
        raise ExceptionGroup("task group", [RuntimeError("the server\nsaid no")])

    monkeypatch.setattr(bundle_check, "CHECKS", (broken, bundle_check.check_jsonschema))
    assert bundle_check.main(["--bundle-check"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "bundle check: broken: RuntimeError: the server said no\n"


def test_the_app_arguments_are_left_to_the_app() -> None:
    assert bundle_check.main(["chat", "--bundle-check"]) is None
    assert bundle_check.main([]) is None
