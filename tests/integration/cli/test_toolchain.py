"""``models tools`` on the command line: status, remove, and convert without the tools, with real
uv and local wheels."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from uv import find_uv_bin

from app.cli.main import main
from app.core.paths import AppPaths
from app.models.toolchain_env import MISSING
from app.models.toolchain_install import install_toolchain, uv_binary
from tests.integration.models.test_toolchain_env import local
from tests.wheel_server import uv_sandbox, wheel_folder  # noqa: F401  (fixtures: uv, wheels)

pytestmark = pytest.mark.integration


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
