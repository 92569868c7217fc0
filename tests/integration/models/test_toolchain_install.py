"""Installing the conversion tools with real uv from local wheels: cancel mid-download, a killed
install, a bad index, an install that installs nothing.

The installer takes its requirement list and sources as parameters, so these tests install a
small real set (six, idna) from a local wheel folder, or from a local HTTP page that stalls
mid-download when a test needs uv caught in the act."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from app.core.errors import UserError
from app.models.toolchain_env import MISSING, toolchain_status
from app.models.toolchain_install import (
    WORK_PREFIX,
    InstallOptions,
    install_toolchain,
    remove_abandoned,
    verify_installed,
)
from pipelines.core import Cancelled, CancelToken
from tests.integration.models.test_toolchain_env import leftovers, local
from tests.wheel_server import SMALL_SET, stalling_server, uv_sandbox, wheel_folder  # noqa: F401  (fixtures: uv, wheels)

pytestmark = pytest.mark.integration


def test_cancel_mid_download_leaves_nothing(tmp_path: Path, wheels: Path) -> None:
    tools = tmp_path / "tools"
    cancel = CancelToken()
    outcome: list[BaseException] = []
    with stalling_server(wheels) as server:

        def run() -> None:
            try:
                install_toolchain(tools, local(server.url), cancel=cancel)
            except BaseException as error:  # noqa: BLE001 - handed to the test thread
                outcome.append(error)

        worker = threading.Thread(target=run)
        worker.start()
        assert server.stalled.wait(60), "uv never started downloading"
        work = next(tools.glob(f"{WORK_PREFIX}*"))
        cancel.cancel()
        worker.join(60)
    assert outcome and isinstance(outcome[0], Cancelled)
    assert not (tools / "env").exists() and leftovers(tools) == []
    assert not uv_processes_in(work)


def uv_processes_in(folder: Path) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if any(str(folder) in part for part in process.info.get("cmdline") or []):
            found.append(process)
    return found


@pytest.fixture
def killed_install(tmp_path: Path, wheels: Path) -> Iterator[tuple[Path, Path]]:
    """An install whose app process was killed (-9) while uv was downloading: uv, in its own
    process group, is still running. Yields (tools folder, the abandoned work folder)."""
    tools = tmp_path / "tools"
    with stalling_server(wheels) as server:
        code = (
            "import sys, pathlib\n"
            "from app.models.toolchain_install import install_toolchain, InstallOptions\n"
            f"install_toolchain(pathlib.Path({str(tools)!r}), InstallOptions({SMALL_SET!r}, "
            f"sys.executable, ('--no-index', '--find-links', {server.url!r})))\n"
        )
        app = subprocess.Popen([sys.executable, "-c", code])
        try:
            assert server.stalled.wait(60), "uv never started downloading"
            work = next(tools.glob(f"{WORK_PREFIX}*"))
            os.kill(app.pid, signal.SIGKILL)
        finally:
            app.wait()
        yield tools, work


def test_a_killed_install_leaves_nothing_usable_and_is_cleaned(
    killed_install: tuple[Path, Path], wheels: Path
) -> None:
    tools, work = killed_install
    assert uv_processes_in(work), "uv should outlive the killed app (its own process group)"
    assert toolchain_status(tools, frozen=True).where == MISSING  # the half env is never used
    remove_abandoned(tools)
    assert not work.exists() and not uv_processes_in(work)
    python = install_toolchain(tools, local(wheels))  # the next install starts clean
    assert python.exists() and leftovers(tools) == []


@pytest.mark.parametrize(
    ("source", "sentence"),
    [
        ("corrupt", "A package file from the package index is damaged"),
        ("empty", "The package index does not offer the packages the conversion toolchain need"),
        ("unreachable", "Can't reach the package index: check your connection or proxy"),
    ],
)
@pytest.mark.logs_error(r"^uv pip failed")
def test_a_bad_index_is_one_sentence(tmp_path: Path, source: str, sentence: str) -> None:
    tools = tmp_path / "tools"
    folder = tmp_path / source
    args: tuple[str, ...] = ("--no-index", "--find-links", str(folder))
    if source == "corrupt":
        folder.mkdir()
        (folder / "six-1.17.0-py2.py3-none-any.whl").write_bytes(b"not a zip file")
    if source == "empty":
        folder.mkdir()
    if source == "unreachable":
        with socket_closed_port() as port:
            args = ("--index-url", f"http://127.0.0.1:{port}/simple")
    with pytest.raises(UserError) as failed:
        install_toolchain(tools, InstallOptions(SMALL_SET, sys.executable, args))
    message = str(failed.value)
    assert message.startswith(sentence)
    assert "\n" not in message and "error" not in message.lower()
    assert not (tools / "env").exists() and leftovers(tools) == []


@pytest.mark.logs_error(r"^the tools' environment lacks")
def test_an_install_that_installs_nothing_is_not_marked(tmp_path: Path, wheels: Path) -> None:
    """uv ends with 0 (a dry run here) yet installs nothing: the check in the environment's own
    Python catches it, and nothing is marked complete."""
    tools = tmp_path / "tools"
    dry = InstallOptions(
        SMALL_SET, sys.executable, ("--no-index", "--find-links", str(wheels), "--dry-run")
    )
    with pytest.raises(UserError) as failed:
        install_toolchain(tools, dry)
    assert str(failed.value) == (
        "The conversion toolchain was not installed completely: six is missing, idna is missing."
    )
    assert toolchain_status(tools, frozen=True).where == MISSING
    assert not (tools / "env").exists() and leftovers(tools) == []
    python = install_toolchain(tools, local(wheels))
    with pytest.raises(UserError, match=re.escape("six is 1.17.0, not ==1.16.0")):
        verify_installed(python, ("six==1.16.0", "idna>=3"))
    verify_installed(python, (*SMALL_SET, "torch; python_version < '3'"))  # marker: skipped


class socket_closed_port:  # noqa: N801 - used as a context manager, like a function
    """A local port nothing listens on (bound, then closed)."""

    def __enter__(self) -> int:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port: int = sock.getsockname()[1]
        return port

    def __exit__(self, *exc: object) -> None:
        return None
