"""Install the conversion toolchain into the app's private environment, with uv.

``uv venv`` then ``uv pip install`` (the static ``uv`` binary ships in its wheel) build the
environment in a hidden work folder ``<tools>/.installing-<pid>-<random>``; only when uv has
finished is the marker written and the folder renamed to ``<tools>/env``. So Cancel (which kills
uv's whole process group), a failure, or the app being killed leaves no half-made environment
where :mod:`app.models.toolchain_env` looks. A work folder whose app process is gone is removed by
the next install — after killing a uv it left running, found by the folder in its command line.

The environment is made ``--relocatable`` so its console scripts survive the rename.

uv reports on stderr, one line per step ("Resolved 64 packages", "Downloading torch
(183.2MiB)", " Downloaded torch", "Installed 64 packages"): those lines drive the progress.
Its failures become one sentence (offline, disk full, a damaged package…); the full output
goes to the log.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import psutil
from packaging.requirements import Requirement

from app.core.errors import UserError
from app.core.runtime import bundle_root
from app.core.texts import tr
from app.models.process_tree import kill_tree, own_group
from app.models.toolchain_env import ENV_FOLDER, MARKER, env_python
from app.models.toolchain_requirements import (
    DISK_BYTES,
    index_arguments,
    size_text,
    tool_requirements,
)
from pipelines.core import Cancelled, CancelToken

log = logging.getLogger(__name__)

WORK_PREFIX = ".installing-"
OLD_PREFIX = ".removing-"
_SIZE = re.compile(r"^Downloading (\S+) \(([\d.]+)\s*([KMG]i?B)\)")
_UNITS = {"KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "KB": 1000, "MB": 1000**2, "GB": 1000**3}


@dataclass(frozen=True)
class InstallProgress:
    """A step of the install: ``phase`` is environment / resolve / download / install / done.

    ``done_bytes`` of ``total_bytes`` counts the large downloads uv announces (0 of 0 before
    it has resolved); ``packages`` is how many it resolved.
    """

    phase: str
    message: str
    done_bytes: int = 0
    total_bytes: int = 0
    packages: int = 0


@dataclass(frozen=True)
class InstallOptions:
    """What to install and from where (the product's defaults; tests pass their own).

    Attributes:
        requirements: requirement strings for ``uv pip install``.
        python: the interpreter request for ``uv venv --python`` (a version such as "3.11",
            or a path); the default is this app's own Python version.
        index_args: uv's source options; None: :func:`index_arguments` (PyPI and PyTorch's
            CPU index, or whatever uv's environment variables say).
    """

    requirements: tuple[str, ...] = ()
    python: str = ""
    index_args: tuple[str, ...] | None = None

    def resolved(self) -> InstallOptions:
        """The options with every default filled in."""
        return InstallOptions(
            self.requirements or tool_requirements(),
            self.python or f"{sys.version_info.major}.{sys.version_info.minor}",
            index_arguments() if self.index_args is None else self.index_args,
        )


def uv_binary() -> Path:
    """The uv executable: inside a frozen app's bundle (``bin/``), else the one its wheel
    installed next to this interpreter."""
    bundle = bundle_root()
    if bundle is not None:
        return bundle / "bin" / ("uv.exe" if sys.platform == "win32" else "uv")
    import uv

    return Path(uv.find_uv_bin())


def install_toolchain(
    toolchain_dir: Path,
    options: InstallOptions | None = None,
    *,
    on_progress: Callable[[InstallProgress], None] | None = None,
    cancel: CancelToken | None = None,
) -> Path:
    """Build the private environment; returns its interpreter. Replaces an existing one.

    Raises:
        UserError: another install runs, or uv failed (one sentence; uv's output is logged).
        Cancelled: ``cancel`` was set; uv was killed and the work folder removed.
    """
    options = (options or InstallOptions()).resolved()
    cancel = cancel or CancelToken()
    toolchain_dir.mkdir(parents=True, exist_ok=True)
    remove_abandoned(toolchain_dir)
    _refuse_if_busy(toolchain_dir)
    work = Path(tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{os.getpid()}-", dir=toolchain_dir))
    report = on_progress or (lambda progress: None)
    try:
        report(InstallProgress("environment", "Creating the tools' Python environment"))
        venv = ["venv", "--relocatable", "--python", options.python, str(work / ENV_FOLDER)]
        _run_uv(venv, cancel, lambda line: None)
        env = work / ENV_FOLDER
        install = [
            *("pip", "install", "--python", str(env_python(env)), *(options.index_args or ())),
            *options.requirements,
        ]
        _run_uv(install, cancel, _ProgressReader(report).feed)
        verify_installed(env_python(env), options.requirements)
        marker = {"requirements": list(options.requirements), "installed": time.time()}
        (env / MARKER).write_text(json.dumps(marker, indent=1), encoding="utf-8")
        _swap_into_place(env, toolchain_dir)
        report(InstallProgress("done", "The conversion toolchain is installed"))
        return env_python(toolchain_dir / ENV_FOLDER)
    finally:
        shutil.rmtree(work, ignore_errors=True)


_VERSIONS = (
    "import importlib.metadata as m, json, sys\n"
    "def version(name):\n"
    "    try:\n"
    "        return m.version(name)\n"
    "    except m.PackageNotFoundError:\n"
    "        return None\n"
    "print(json.dumps({name: version(name) for name in sys.argv[1:]}))\n"
)
"""Run in the new environment's Python: the installed version of each named distribution."""


def verify_installed(python: Path, requirements: Sequence[str]) -> None:
    """Check, in the environment's own Python, that each requirement is installed at a version
    it allows (uv's exit code alone is not proof: a run that installs nothing can end in 0).

    Raises:
        UserError: something is missing or at another version (one sentence).
    """
    wanted = [Requirement(text) for text in requirements]
    wanted = [r for r in wanted if r.marker is None or r.marker.evaluate()]
    command = [str(python), "-I", "-c", _VERSIONS, *(r.name for r in wanted)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
        found: dict[str, str | None] = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError) as error:
        log.error("could not list the tools' packages with %s: %s", python, error)
        raise UserError(
            tr("The conversion toolchain was not installed completely: its Python does not start.")
        ) from error
    problems = []
    for requirement in wanted:
        version = found.get(requirement.name)
        if version is None:
            problems.append(f"{requirement.name} is missing")
        elif not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{requirement.name} is {version}, not {requirement.specifier}")
    if problems:
        log.error("the tools' environment lacks: %s", "; ".join(problems))
        raise UserError(
            tr("The conversion toolchain was not installed completely: {problems}.").format(
                problems=", ".join(problems)
            )
        )


def remove_toolchain(toolchain_dir: Path) -> bool:
    """Delete the private environment (renamed away first: no half-deleted one stays where
    it is looked for). False when there was none."""
    env = toolchain_dir / ENV_FOLDER
    if not env.exists():
        return False
    _refuse_if_busy(toolchain_dir)
    old = Path(tempfile.mkdtemp(prefix=f"{OLD_PREFIX}{os.getpid()}-", dir=toolchain_dir))
    env.rename(old / ENV_FOLDER)
    shutil.rmtree(old, ignore_errors=True)
    return True


def remove_abandoned(toolchain_dir: Path) -> None:
    """Delete work folders whose app process is gone, killing a uv that still writes there."""
    for folder in [*toolchain_dir.glob(f"{WORK_PREFIX}*"), *toolchain_dir.glob(f"{OLD_PREFIX}*")]:
        if _owner_alive(folder):
            continue
        for process in _processes_using(folder):
            log.info("stopping uv left running by a killed install (pid %s)", process.pid)
            with contextlib.suppress(psutil.Error):
                process.kill()
                process.wait(10)
        log.info("removing abandoned tools folder %s", folder)
        shutil.rmtree(folder, ignore_errors=True)


def _owner_alive(folder: Path) -> bool:
    pid = folder.name.removeprefix(WORK_PREFIX).removeprefix(OLD_PREFIX).split("-")[0]
    return pid.isdigit() and psutil.pid_exists(int(pid))


def _processes_using(folder: Path) -> list[psutil.Process]:
    """Processes whose command line names ``folder`` (the uv an install started)."""
    found = []
    for process in psutil.process_iter(["cmdline"]):
        cmdline = process.info.get("cmdline") or []
        if any(str(folder) in part for part in cmdline):
            found.append(process)
    return found


def _refuse_if_busy(toolchain_dir: Path) -> None:
    if any(_owner_alive(f) for f in toolchain_dir.glob(f"{WORK_PREFIX}*")):
        raise UserError(
            tr("The conversion toolchain is being installed already (by another window).")
        )


def _swap_into_place(env: Path, toolchain_dir: Path) -> None:
    """Rename the finished ``env`` to ``<tools>/env``, moving an older one away first."""
    target = toolchain_dir / ENV_FOLDER
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f"{OLD_PREFIX}{os.getpid()}-", dir=toolchain_dir))
        target.rename(old / ENV_FOLDER)
        env.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        env.rename(target)


class _ProgressReader:
    """Turns uv's stderr lines into :class:`InstallProgress` reports."""

    def __init__(self, report: Callable[[InstallProgress], None]) -> None:
        self.report = report
        self.sizes: dict[str, int] = {}
        self.done = 0
        self.packages = 0

    def feed(self, line: str) -> None:
        text = line.strip()
        if match := re.match(r"Resolved (\d+) packages?", text):
            self.packages = int(match.group(1))
            self._say("download", f"Downloading {self.packages} packages")
        elif match := _SIZE.match(text):
            name, amount, unit = match.groups()
            self.sizes[name] = int(float(amount) * _UNITS.get(unit, 1))
            self._say("download", f"Downloading {name}")
        elif match := re.match(r"Downloaded (\S+)", text):
            self.done += self.sizes.get(match.group(1), 0)
            self._say("download", f"Downloaded {match.group(1)}")
        elif text.startswith("Prepared"):
            self._say("install", f"Installing {self.packages} packages")

    def _say(self, phase: str, message: str) -> None:
        total = sum(self.sizes.values())
        self.report(InstallProgress(phase, message, self.done, total, self.packages))


def _run_uv(args: Sequence[str], cancel: CancelToken, on_line: Callable[[str], None]) -> None:
    """Run uv with ``args``; its stderr lines go to ``on_line`` and the log.

    Raises:
        Cancelled: ``cancel`` was set (uv's process group was killed).
        UserError: uv failed (its output explained in one sentence).
    """
    command = [str(uv_binary()), *args]
    log.info("installing the conversion toolchain: %s", " ".join(command))
    env = {**os.environ, "NO_COLOR": "1"}
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        **own_group(),
    )
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_read_lines, args=(process.stderr, lines), name="uv-output")
    reader.start()
    output: list[str] = []
    try:
        while (line := _next_line(lines, cancel)) is not None:
            output.append(line)
            on_line(line)
        # uv closed its output and is exiting: wait for its real exit code (killing it now
        # would turn a failure into a kill).
        while not _exited(process, 0.1):
            if cancel.cancelled:
                raise Cancelled("install cancelled")
    except BaseException:
        kill_tree(process.pid)
        raise
    finally:
        process.wait()
        reader.join()
    if process.returncode != 0:
        text = "".join(output)
        log.error("uv %s failed (exit %s):\n%s", args[0], process.returncode, text)
        raise UserError(explain_failure(text, process.returncode))


def _next_line(lines: queue.Queue[str | None], cancel: CancelToken) -> str | None:
    """uv's next output line; None once it has closed its output.

    Raises:
        Cancelled: ``cancel`` was set while waiting.
    """
    while True:
        if cancel.cancelled:
            raise Cancelled("install cancelled")
        with contextlib.suppress(queue.Empty):
            return lines.get(timeout=0.1)


def _exited(process: subprocess.Popen[bytes], timeout: float) -> bool:
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        return False
    return True


def _read_lines(stream: IO[bytes] | None, lines: queue.Queue[str | None]) -> None:
    if stream is not None:
        with stream:
            for raw in stream:
                lines.put(raw.decode("utf-8", errors="replace"))
    lines.put(None)


_FAILURES: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("No space left on device", "os error 28", "There is not enough space"),
        f"The disk is full: the conversion toolchain needs about {size_text(DISK_BYTES)} free.",
    ),
    (
        ("dns error", "tcp connect error", "error sending request", "Failed to fetch"),
        "Can't reach the package index: check your connection or proxy, then try again.",
    ),
    (
        ("invalid package format", "Failed to read from zip", "was invalid"),
        "A package file from the package index is damaged; try again, or point "
        "UV_FIND_LINKS at a folder of good wheels.",
    ),
    (
        ("Failed to read `--find-links`", "find-links directory"),
        "The package folder (UV_FIND_LINKS) cannot be read: check that it exists.",
    ),
    (
        ("No interpreter found", "Invalid version request", "No download found"),
        "No suitable Python was found for the tools' environment, and none could be downloaded.",
    ),
    (
        ("No solution found", "not found in the package registry"),
        "The package index does not offer the packages the conversion toolchain needs for this "
        "system.",
    ),
)


def explain_failure(output: str, code: int | None) -> str:
    """uv's failure output as one sentence a person can act on."""
    for needles, sentence in _FAILURES:
        if any(needle in output for needle in needles):
            return sentence
    return (
        f"Installing the conversion toolchain failed (uv exit code {code}); details are in the log."
    )
