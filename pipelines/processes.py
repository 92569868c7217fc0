"""Child processes started by the app and its pipelines (conversions, uv, the grammar probe)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any


def own_group() -> dict[str, Any]:
    """``Popen`` keywords starting the child in its own process group: Ctrl+C in a terminal
    reaches only the app, which decides what to stop."""
    if sys.platform == "win32":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}
