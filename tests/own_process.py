"""Runs a test module in a pytest of its own, so a native crash fails one test, not the run.

The lost-device tests kill a PulseAudio daemon under a live PortAudio stream. That path goes
through ALSA's pulse plugin and PortAudio's re-initialisation, native code which once crashed
the whole test run with a segmentation fault after ~350 tests (order-dependent, never alone).
Their modules are named ``lost_device_*.py`` so the normal collection skips them; a wrapper
test runs each one here and fails with the child's output if it fails or dies.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_S = 300


def run_module_alone(module: Path) -> None:
    """``pytest MODULE`` in a child process; raises AssertionError with its output on failure."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(module)]
    try:
        result = subprocess.run(
            command,
            cwd=ROOT,
            env={**os.environ},
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired as expired:
        raise AssertionError(f"{module.name} did not finish in {TIMEOUT_S} s") from expired
    if result.returncode == 0:
        return
    died = ""
    if result.returncode < 0:
        died = f" (killed by {signal.Signals(-result.returncode).name})"
    raise AssertionError(
        f"{module.name} failed in its own process, exit {result.returncode}{died}:\n"
        f"{result.stdout[-6000:]}\n{result.stderr[-3000:]}"
    )
