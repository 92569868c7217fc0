"""Runs the real ``python -m app`` in a subprocess, as a user's shell would."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from app.core.paths import AppPaths

MODEL_SETTINGS = {
    role: f"OV_STUDIO_MODELS__{role.upper()}__FOLDER"
    for role in (
        "embedding",
        "tts",
        "speaker_encoder",
        "lipsync",
        "speech_to_text",
        "image_generation",
    )
}


def models_env(**folders: Path) -> dict[str, str]:
    """The environment pointing the app's model settings (keys of MODEL_SETTINGS) at folders."""
    return {MODEL_SETTINGS[role]: str(folder) for role, folder in folders.items()}


def _environ(home: AppPaths | None, environ: Mapping[str, str] | None) -> dict[str, str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    if home is not None:
        env["OV_STUDIO_HOME"] = str(home.config.parent)
    env.update(environ or {})
    return env


def run_app(
    args: Sequence[str],
    home: AppPaths | None = None,
    environ: Mapping[str, str] | None = None,
    stdin: str = "",
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """``python -m app ARGS`` with ``home`` as OV_STUDIO_HOME and ``environ`` added."""
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        env=_environ(home, environ),
        input=stdin,
        timeout=timeout,
        check=False,
    )


def interrupt_app(
    args: Sequence[str],
    home: AppPaths | None = None,
    environ: Mapping[str, str] | None = None,
    *,
    once: str,
    stream: str = "stderr",
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """``python -m app ARGS``, pressing Ctrl+C (a real SIGINT) once ``once`` has appeared on
    ``stream`` ("stdout" or "stderr"): the job is running then. Returns what it printed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "app", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_environ(home, environ),
    )
    pipe = process.stdout if stream == "stdout" else process.stderr
    assert pipe is not None
    seen = b""
    deadline = time.monotonic() + timeout
    try:
        while once.encode() not in seen:
            # Read what is there (a progress line has no newline to wait for).
            ready, _, _ = select.select([pipe], [], [], max(deadline - time.monotonic(), 0))
            chunk = os.read(pipe.fileno(), 65536) if ready else b""
            if not chunk:
                out, err = process.communicate(timeout=timeout)
                raise AssertionError(f"{once!r} never appeared on {stream}: {seen + out + err!r}")
            seen += chunk
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    if stream == "stdout":
        out = seen + out
    else:
        err = seen + err
    return subprocess.CompletedProcess(process.args, process.returncode, out.decode(), err.decode())


class RunningApp:
    """``python -m app ARGS`` left running (a server): read what it prints, signal it, wait."""

    def __init__(
        self,
        args: Sequence[str],
        home: AppPaths | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_environ(home, environ),
        )
        self.seen = b""

    def wait_for(self, text: str, timeout: float = 300) -> str:
        """Everything printed on stdout once ``text`` has appeared (fails if the app exits)."""
        pipe = self.process.stdout
        assert pipe is not None
        deadline = time.monotonic() + timeout
        while text.encode() not in self.seen:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([pipe], [], [], max(left, 0))
            chunk = os.read(pipe.fileno(), 65536) if ready else b""
            if not chunk:
                self.stop(signal.SIGKILL)
                raise AssertionError(f"{text!r} never appeared: {self.seen!r}")
            self.seen += chunk
        return self.seen.decode()

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60) -> tuple[int, str, str]:
        """Send ``sig``, wait up to ``timeout`` (then kill); the exit status, stdout, stderr."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            out, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, err = self.process.communicate()
            raise AssertionError(f"still running {timeout} s after signal {sig}") from None
        return self.process.returncode, (self.seen + out).decode(), err.decode()

    def __enter__(self) -> RunningApp:
        return self

    def __exit__(self, *_: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()
