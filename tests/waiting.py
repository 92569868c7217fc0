"""Waiting for something another thread, process or server does: poll with a deadline."""

from __future__ import annotations

import time
from collections.abc import Callable

POLL_S = 0.02
TIMEOUT_S = 120.0
"""The default limit: generous, since it costs nothing when the thing happens. Another process
starting is what usually waits here, and a busy machine slows that several times (the HTTP MCP
server answered after 2 s on a quiet machine, 7.7 s with ``stress-ng --cpu 2`` on two cores)."""


def wait_until(condition: Callable[[], bool], what: str, timeout: float = TIMEOUT_S) -> None:
    """Return once ``condition()`` is true; fail the test naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(POLL_S)
