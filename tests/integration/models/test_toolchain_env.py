"""The conversion toolchain's private environment: real uv, real interpreters, local wheels.

The installer takes its requirement list and sources as parameters, so these tests install a
small real set (six, idna) from a local wheel folder, or from a local HTTP page that stalls
mid-download when a test needs uv caught in the act. The full torch stack is not installed
here (see test_product_list_is_the_convert_extra for the list itself).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from uv import find_uv_bin

from app.cli.main import main
from app.core.errors import UserError
from app.core.paths import AppPaths
from app.core.runtime import source_root
from app.models.toolchain_env import (
    MISSING,
    PRIVATE,
    SOURCE,
    TOOL_MODULES,
    env_python,
    toolchain_status,
)
from app.models.toolchain_install import (
    WORK_PREFIX,
    InstallOptions,
    InstallProgress,
    install_toolchain,
    remove_abandoned,
    remove_toolchain,
    uv_binary,
    verify_installed,
)
from app.models.toolchain_requirements import CONVERT_EXTRA, tool_requirements
from pipelines.core import Cancelled, CancelToken
from tests.wheel_server import SMALL_SET, stalling_server, uv_sandbox, wheel_folder  # noqa: F401  (fixtures: uv, wheels)

pytestmark = pytest.mark.integration


def local(folder: Path | str) -> InstallOptions:
    """Install the small set from ``folder`` only, into an env on this interpreter's Python."""
    return InstallOptions(SMALL_SET, sys.executable, ("--no-index", "--find-links", str(folder)))


def leftovers(tools: Path) -> list[str]:
    return sorted(p.name for p in tools.iterdir() if p.name.startswith("."))


def test_installs_a_real_set_and_the_status_finds_it(tmp_path: Path, wheels: Path) -> None:
    tools = tmp_path / "tools"
    seen: list[InstallProgress] = []
    python = install_toolchain(tools, local(wheels), on_progress=seen.append)
    assert python == env_python(tools / "env")
    done = subprocess.run(
        [str(python), "-c", "import six, idna; print(six.__version__)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "1.17.0"
    phases = [p.phase for p in seen]
    assert phases[0] == "environment" and phases[-1] == "done"
    assert "download" in phases and "install" in phases
    assert max(p.packages for p in seen) == 2
    assert leftovers(tools) == []
    status = toolchain_status(tools, frozen=True)  # a frozen app: only the private env counts
    assert (status.where, status.python, status.requirements) == (PRIVATE, python, SMALL_SET)
    assert status.outdated  # not the product's list: what an update of the app would offer
    assert not toolchain_status(tools, frozen=True, expected=tuple(reversed(SMALL_SET))).outdated
    assert remove_toolchain(tools) and not (tools / "env").exists() and leftovers(tools) == []
    assert toolchain_status(tools, frozen=True).where == MISSING


def test_status_decisions_with_real_interpreters(tmp_path: Path, wheels: Path) -> None:
    """This venv has the tools (source); a venv without them and a frozen app do not."""
    tools = tmp_path / "tools"
    here = toolchain_status(tools, frozen=False)
    assert (here.where, here.python, here.missing) == (SOURCE, Path(sys.executable), ())

    def decided(python: Path, frozen: bool) -> dict[str, object]:
        code = (
            "import json, sys\n"
            f"sys.frozen = {frozen}\n"  # what PyInstaller's bootloader sets
            "from app.models.toolchain_env import toolchain_status\n"
            f"print(json.dumps(toolchain_status(__import__('pathlib').Path({str(tools)!r})).to_dict()))"
        )
        env = {**os.environ, "PYTHONPATH": str(source_root())}
        done = subprocess.run(
            [str(python), "-c", code], capture_output=True, text=True, env=env, check=True
        )
        result: dict[str, object] = json.loads(done.stdout)
        return result

    frozen = decided(Path(sys.executable), frozen=True)
    assert (frozen["where"], frozen["python"]) == (MISSING, None)
    assert frozen["missing"] == list(TOOL_MODULES)
    bare = install_toolchain(tools, local(wheels))  # a real interpreter without the tools
    without = decided(bare, frozen=False)
    assert without["where"] == PRIVATE  # falls back to the complete private environment
    assert set(TOOL_MODULES) == set(without["missing"])  # type: ignore[arg-type]
    assert decided(Path(sys.executable), frozen=True)["python"] == str(bare)
    (tools / "env" / "ov-studio-tools.json").unlink()  # no marker: not complete, not used
    assert decided(bare, frozen=False)["where"] == MISSING


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


def test_product_list_is_the_convert_extra_plus_runtime_pins() -> None:
    pyproject = tomllib.loads((source_root() / "pyproject.toml").read_text(encoding="utf-8"))
    extra = pyproject["project"]["optional-dependencies"]["convert"]
    assert list(CONVERT_EXTRA) == extra
    requirements = tool_requirements()
    assert requirements[: len(extra)] == tuple(extra)
    import importlib.metadata

    for name in ("openvino", "openvino-tokenizers", "numpy", "huggingface_hub"):
        assert f"{name}=={importlib.metadata.version(name)}" in requirements


def main_json(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["models", "tools", "--json"]) == 0
    return capsys.readouterr().out


def test_cli_status_remove_and_convert_without_tools(
    tmp_path: Path,
    wheels: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("OV_STUDIO_HOME", str(tmp_path / "home"))
    # A frozen app (no tools yet), laid out as the build does: uv's binary in the bundle's bin/.
    bundle = tmp_path / "bundle"
    (bundle / "bin").mkdir(parents=True)
    (bundle / "bin" / "uv").symlink_to(find_uv_bin())
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    assert uv_binary() == bundle / "bin" / "uv"
    assert json.loads(main_json(capsys))["where"] == MISSING
    assert main(["models", "tools"]) == 0
    assert "`models tools --install` installs it" in capsys.readouterr().out
    assert main(["models", "tools", "--remove"]) == 2
    assert "no private conversion toolchain" in capsys.readouterr().err
    install_toolchain(
        AppPaths.from_environment().toolchain_dir, local(wheels)
    )  # not the product's list
    assert main(["models", "tools"]) == 0
    assert (
        capsys.readouterr()
        .out.strip()
        .endswith("with the versions of an earlier release; `models tools --install` updates them")
    )
    assert json.loads(main_json(capsys))["outdated"] is True
    assert main(["models", "tools", "--remove"]) == 0
    capsys.readouterr()
    checkpoint = tmp_path / "ckpt"
    checkpoint.mkdir()
    (checkpoint / "config.json").write_text('{"architectures": ["LlamaForCausalLM"]}')
    (checkpoint / "model.safetensors").write_bytes(b"")
    (checkpoint / "tokenizer.json").write_text("{}")
    assert main(["models", "convert", str(checkpoint), "--weights", "int8"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "run `models tools --install` first" in err[0]
