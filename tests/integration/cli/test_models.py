"""``models pull`` on the command line: a hub that cannot be resolved is one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import exits
from tests.app_process import run_app
from tests.integration.models.test_download import REPO

pytestmark = pytest.mark.integration


def test_an_unresolvable_hub_is_one_line_and_exit_2_on_the_command_line(tmp_path: Path) -> None:
    env = {"OV_STUDIO_HOME": str(tmp_path / "home"), "HF_ENDPOINT": "http://nonexistent.invalid"}
    env["HF_HOME"] = str(tmp_path / "hf-home")
    for args in (["models", "pull", REPO], ["models", "pull", REPO + "-gguf", "--file", "a.gguf"]):
        failed = run_app(args, environ=env, timeout=120)
        assert failed.returncode == exits.USAGE
        assert failed.stderr == (
            "error: Can't reach the model hub at http://nonexistent.invalid — check your "
            "connection or proxy; HF_ENDPOINT is http://nonexistent.invalid.\n"
        )
