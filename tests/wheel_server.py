"""Local package sources for the conversion-tools installer: a folder of real wheels, and an
HTTP ``--find-links`` page over it that can stall mid-download (so a test can cancel or kill
an install while uv is really downloading)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

SMALL_SET = ("six==1.17.0", "idna==3.20")
"""Small real packages (pure Python wheels) the installer tests install."""


def download_wheels(folder: Path, requirements: tuple[str, ...] = SMALL_SET) -> Path:
    """``requirements`` as wheels in ``folder``, from pip's configured sources (local ones here)."""
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:"]
    subprocess.run(
        [*command, "--dest", str(folder), *requirements],
        check=True,
        timeout=300,
        stderr=subprocess.DEVNULL,  # pip warns about configured sources that are absent
    )
    return folder


@pytest.fixture(scope="session", name="wheels")
def wheel_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Fixture ``wheels``: the small set as wheels in a local folder (downloaded once per
    session)."""
    return download_wheels(tmp_path_factory.mktemp("wheels"))


@pytest.fixture(autouse=True)
def uv_sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fixture (automatic where imported): a fresh uv cache per test, so every package really
    comes from the test's source and nothing from another test; retries off, so an
    unreachable index fails fast."""
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "uv-cache"))
    monkeypatch.setenv("UV_HTTP_RETRIES", "0")


class StallingWheelServer:
    """Serves ``folder``'s wheels as a flat link page; a wheel's download sends half its bytes,
    sets :attr:`stalled` and waits until :meth:`release`, then sends the rest (once released,
    downloads go straight through).

    With ``ranges`` it also answers byte-range requests at once: uv then reads each wheel's
    metadata that way, resolves, says so, and stalls in the download proper (what a progress
    test wants to see); without, uv downloads whole wheels to resolve and stalls before.
    """

    def __init__(self, folder: Path, *, ranges: bool = False) -> None:
        self.folder = folder
        self.ranges = ranges
        self.stalled = threading.Event()
        self._release = threading.Event()
        handler = type("Handler", (_Handler,), {"server_side": self})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="wheel-server")

    def release(self) -> None:
        """Let stalled downloads finish."""
        self._release.set()


class _Handler(BaseHTTPRequestHandler):
    server_side: StallingWheelServer

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test output is not the place for an access log."""

    def do_HEAD(self) -> None:
        """Size, and ``Accept-Ranges`` only when the server takes ranges (without it uv reads a
        wheel by downloading it)."""
        wheel = self.server_side.folder / self.path.strip("/")
        if not wheel.is_file():
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(wheel.stat().st_size))
        if self.server_side.ranges:
            self.send_header("Accept-Ranges", "bytes")
        self.end_headers()

    def do_GET(self) -> None:
        side = self.server_side
        name = self.path.strip("/").split("#")[0]
        if not name:
            links = "".join(f'<a href="{w.name}">{w.name}</a>\n' for w in side.folder.glob("*.whl"))
            self._send(f"<html><body>{links}</body></html>".encode(), "text/html")
            return
        wheel = side.folder / name
        if not wheel.is_file():
            self.send_error(404)
            return
        data = wheel.read_bytes()
        wanted = self.headers.get("Range", "")
        if side.ranges and wanted.startswith("bytes="):
            self._send_range(data, wanted.removeprefix("bytes="))
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        half = len(data) // 2
        self.wfile.write(data[:half])
        self.wfile.flush()
        side.stalled.set()
        side._release.wait(120)
        with contextlib.suppress(OSError):  # the client (a cancelled uv) may be gone
            self.wfile.write(data[half:])
        self.close_connection = True

    def _send_range(self, data: bytes, spec: str) -> None:
        """One ``start-end`` or ``-suffix`` range of ``data``, at once."""
        first, _, last = spec.split(",")[0].strip().partition("-")
        if first:
            start, end = int(first), min(int(last) if last else len(data) - 1, len(data) - 1)
        else:
            start, end = max(len(data) - int(last), 0), len(data) - 1
        self.send_response(206)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        self.wfile.write(data[start : end + 1])

    def _send(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def stalling_server(folder: Path, *, ranges: bool = False) -> Iterator[StallingWheelServer]:
    """A running :class:`StallingWheelServer`, stopped after the block."""
    server = StallingWheelServer(folder, ranges=ranges)
    server._thread.start()
    try:
        yield server
    finally:
        server.release()
        server.httpd.shutdown()
        server.httpd.server_close()
        server._thread.join()
