"""Child processes the app starts for long jobs (a conversion, uv): their own process group,
and killing them with everything they started."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from typing import Any

import psutil


def own_group() -> dict[str, Any]:
    """``Popen`` keywords starting the child in its own process group: Ctrl+C in a terminal
    reaches only the app, which decides what to stop."""
    if sys.platform == "win32":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


def kill_tree(pid: int) -> None:
    """Kill a process and everything it started (a converter or uv may spawn helpers)."""
    try:
        root = psutil.Process(pid)
        family = [*root.children(recursive=True), root]
    except psutil.NoSuchProcess:
        return
    for process in family:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()
    psutil.wait_procs(family, timeout=10)
