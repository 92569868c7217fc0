"""Runs a test module in a pytest of its own, so a native crash fails one test, not the run.

The lost-device tests kill a PulseAudio daemon under a live PortAudio stream. That path goes
through ALSA's pulse plugin and PortAudio's re-initialisation, native code which once crashed
the whole test run with a segmentation fault after ~350 tests (order-dependent, never alone).
Their modules are named ``lost_device_*.py`` so the normal collection skips them; a wrapper
test runs each one here and fails with the child's output if it fails or dies.

**Time limits.** A child takes ~13 s on a quiet machine and ~25–50 s with every core busy
(``stress-ng --cpu 2`` on two cores). A child that once did not finish in 300 s was most
likely stuck in native code (PortAudio stopping a stream whose sound server had died), where
a signal never reaches Python: so its own pytest ends it after :data:`CHILD_LIMIT_S` from a
watchdog thread (pytest-timeout's thread method), printing every thread's stack first — where
it hung, not only that it did. This side gives up :data:`MARGIN_S` later in case even that
fails. Either way the child's whole process group goes (its PulseAudio daemon too), and its
output so far is in the failure.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD_LIMIT_S = 420
"""The child's own limit: eight times its time on a busy machine."""
MARGIN_S = 60
"""How much longer this side waits: the child's report of a hang takes a moment to write."""


def run_module_alone(module: Path) -> None:
    """``pytest MODULE`` in a child process; raises AssertionError with its output on failure."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        f"--timeout={CHILD_LIMIT_S}",
        "--timeout-method=thread",  # works even when the main thread is stuck in native code
        str(module),
    ]
    child = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: what it started goes with it
    )
    try:
        stdout, stderr = child.communicate(timeout=CHILD_LIMIT_S + MARGIN_S)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        stdout, stderr = child.communicate()
        raise AssertionError(
            f"{module.name} did not finish in {CHILD_LIMIT_S + MARGIN_S} s:\n"
            f"{stdout[-6000:]}\n{stderr[-3000:]}"
        ) from None
    finally:
        _end_group(child.pid)
    if child.returncode == 0:
        return
    died = ""
    if child.returncode < 0:
        died = f" (killed by {signal.Signals(-child.returncode).name})"
    raise AssertionError(
        f"{module.name} failed in its own process, exit {child.returncode}{died}:\n"
        f"{stdout[-6000:]}\n{stderr[-3000:]}"
    )


def _end_group(group: int) -> None:
    """Kill whatever the child left running in its process group (nothing, normally)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)
