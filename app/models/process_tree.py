"""Child processes the app starts for long jobs (a conversion, uv): their own process group,
and killing them with everything they started."""

from __future__ import annotations

import contextlib
import os
import signal
import sys

import psutil

from pipelines.processes import own_group

__all__ = ["kill_tree", "own_group"]


def kill_tree(pid: int) -> None:
    """Kill a process and everything it started (a converter or uv may spawn helpers).

    Waits for the helpers only: the root is the caller's ``Popen`` child, which the caller
    waits for. (psutil reaping it here left ``Popen.wait`` with no status to collect, and
    Python then reports exit code 0: a uv killed as it ended looked like a success.)
    """
    try:
        root = psutil.Process(pid)
        helpers = root.children(recursive=True)
    except psutil.NoSuchProcess:
        return
    if sys.platform != "win32":
        # Its own process group (own_group): the group also holds helpers whose parent has
        # already exited (re-parented, so no longer in the tree).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGKILL)
    for process in [*helpers, root]:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()
    psutil.wait_procs(helpers, timeout=10)
