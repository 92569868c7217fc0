"""The conversion tools' private environment: real uv, real interpreters, local wheels; the status
the app reads from it.

These tests install a small real set (six, idna) from a local wheel folder. The full torch
stack is not installed here (see tests/integration/models/test_toolchain_requirements.py for
the list itself)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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
    InstallOptions,
    InstallProgress,
    install_toolchain,
    remove_toolchain,
)
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
