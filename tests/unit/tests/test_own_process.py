"""A test module run in a pytest of its own (tests/own_process.py): a hang ends with the
stack of where it hung, and nothing the child started is left running."""

from __future__ import annotations

import textwrap
from pathlib import Path

import psutil
import pytest

from tests import own_process
from tests.waiting import wait_until

HANGS = """
import subprocess
import time
from pathlib import Path


def test_that_hangs():
    helper = subprocess.Popen(["sleep", "600"])  # a daemon of the test's, as PulseAudio is
    Path({pid_file!r}).write_text(str(helper.pid))
    time.sleep(600)
"""


def test_a_hanging_child_is_stopped_with_its_stack_and_its_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(own_process, "CHILD_LIMIT_S", 3)
    pid_file = tmp_path / "helper.pid"
    module = tmp_path / "hangs_alone.py"
    module.write_text(textwrap.dedent(HANGS.format(pid_file=str(pid_file))), encoding="utf-8")
    with pytest.raises(AssertionError) as failed:
        own_process.run_module_alone(module)
    report = str(failed.value)
    assert "hangs_alone.py failed in its own process" in report
    assert "Timeout" in report and "time.sleep(600)" in report  # where it hung
    helper = int(pid_file.read_text())
    wait_until(lambda: gone(helper), "the child's own process to be killed")


def gone(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie has: only its exit status is left)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
