"""Runs the real ``python -m app`` in a subprocess, as a user's shell would."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence

from app.paths import AppPaths


def run_app(
    args: Sequence[str],
    home: AppPaths | None = None,
    environ: Mapping[str, str] | None = None,
    stdin: str = "",
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """``python -m app ARGS`` with ``home`` as OV_STUDIO_HOME and ``environ`` added."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    if home is not None:
        env["OV_STUDIO_HOME"] = str(home.config.parent)
    env.update(environ or {})
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        timeout=timeout,
        check=False,
    )
