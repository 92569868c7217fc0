"""A local stand-in for the Hugging Face hub's HTTP API, serving model folders from disk.

It answers what ``huggingface_hub`` asks for a model download — ``/api/models/{id}/revision/
{rev}`` (with per-file sizes and LFS sha256), and ``HEAD``/``GET`` on ``/{id}/resolve/{rev}/
{file}`` with ETag, X-Repo-Commit, Content-Length and Range — so the app's real download code
runs in tests with ``HF_ENDPOINT`` pointed here. Faults are injected per test: a corrupt file,
a connection dropped after N bytes, a slow trickle, a gone server, or a hostile file list (names
like ``/abs/path`` or ``sub/../../x`` listed and served as if they were in the repository).
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class Faults:
    """What goes wrong; tests set these between steps."""

    corrupt: set[str] = field(default_factory=set)
    """Files served with one byte flipped (the metadata still describes the original)."""
    served: dict[str, bytes] = field(default_factory=dict)
    """Files served as these bytes instead (the listing's size and sha256 still describe the
    original): a hub whose listing does not match what it sends."""
    drop_after: dict[str, int] = field(default_factory=dict)
    """Close the connection after this many bytes of a file (every time)."""
    delay_per_chunk_s: float = 0.0
    """Sleep between 64 KiB chunks: a slow network, so a test can act mid-download."""
    gets: list[str] = field(default_factory=list)
    """Every GET of a file, with its Range header, for assertions."""
    listed: dict[str, bytes] = field(default_factory=dict)
    """Extra names every repository's file list shows, served with these bytes: a hostile
    repository (or endpoint) naming files outside the model's folder."""
    raw_siblings: list[object] = field(default_factory=list)
    """Entries added to the file list as they are (malformed ones: no name, a number...)."""


class HubServer:
    """Serves ``repos`` (hub id → folder) on 127.0.0.1; use :func:`running_hub`."""

    def __init__(self, repos: dict[str, Path]) -> None:
        self.repos = repos
        self.faults = Faults()
        handler = type("Handler", (_Handler,), {"hub": self})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="hub-server")

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(5)

    def files(self, repo: str) -> list[Path]:
        root = self.repos[repo]
        return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith("."))


@contextmanager
def running_hub(repos: dict[str, Path]) -> Iterator[HubServer]:
    """A hub serving ``repos`` for the duration of the block."""
    hub = HubServer(repos)
    hub.start()
    try:
        yield hub
    finally:
        hub.stop()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class _Handler(BaseHTTPRequestHandler):
    hub: HubServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass  # tests stay quiet

    def do_GET(self) -> None:
        self._serve(body=True)

    def do_HEAD(self) -> None:
        self._serve(body=False)

    def _serve(self, *, body: bool) -> None:
        # One request per connection: no keep-alive thread outlives the test.
        self.close_connection = True
        path = unquote(urlsplit(self.path).path)
        hostile = self._listed_by_url(path)
        if hostile is not None:
            self._file(*hostile, body=body)
        elif path.startswith("/api/models/") and "/tree/" in path:
            self._tree(path[len("/api/models/") :].split("/tree/")[0])
        elif path.startswith("/api/models/"):
            self._model_info(path[len("/api/models/") :])
        elif "/resolve/" in path:
            repo, _, rest = path.lstrip("/").partition("/resolve/")
            _, _, filename = rest.partition("/")
            self._file(repo, filename, body=body)
        else:
            self._error(404, "not found")

    def _listed_by_url(self, path: str) -> tuple[str, str] | None:
        """(repo, listed name) a hostile name's URL stands for. HTTP clients resolve ``..`` in
        a URL before sending it (``sub/../../x`` arrives as ``x``); a hostile server answers
        whatever arrives, so this one does too."""
        for repo in self.hub.repos:
            for name in self.hub.faults.listed:
                if path == posixpath.normpath(f"/{repo}/resolve/{COMMIT}/{name}"):
                    return repo, name
        return None

    def _model_info(self, rest: str) -> None:
        repo = rest.split("/revision/")[0]
        if repo not in self.hub.repos:
            self._error(404, "Repository not found", error_code="RepoNotFound")
            return
        root = self.hub.repos[repo]
        siblings = [
            {
                "rfilename": str(p.relative_to(root)),
                "size": p.stat().st_size,
                "blobId": hashlib.sha1(p.read_bytes()).hexdigest(),
                "lfs": {"sha256": _sha256(p), "size": p.stat().st_size, "pointerSize": 134},
            }
            for p in self.hub.files(repo)
        ]
        siblings += [
            {
                "rfilename": name,
                "size": len(data),
                "blobId": hashlib.sha1(data).hexdigest(),
                "lfs": {
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "size": len(data),
                    "pointerSize": 134,
                },
            }
            for name, data in self.hub.faults.listed.items()
        ]
        siblings += self.hub.faults.raw_siblings
        self._json({"id": repo, "modelId": repo, "sha": COMMIT, "siblings": siblings})

    def _tree(self, repo: str) -> None:
        """``list_repo_tree`` (optimum-intel lists a hub checkpoint's files before export)."""
        if repo not in self.hub.repos:
            self._error(404, "Repository not found", error_code="RepoNotFound")
            return
        root = self.hub.repos[repo]
        entries = [
            {
                "type": "file",
                "path": str(p.relative_to(root)),
                "size": p.stat().st_size,
                "oid": hashlib.sha1(p.read_bytes()).hexdigest(),
                "lfs": {"oid": _sha256(p), "size": p.stat().st_size, "pointerSize": 134},
            }
            for p in self.hub.files(repo)
        ]
        self._json(entries)

    def _file(self, repo: str, filename: str, *, body: bool) -> None:
        if repo not in self.hub.repos:  # what the hub answers for an unknown repo
            self._error(404, "Repository not found", error_code="RepoNotFound")
            return
        root = self.hub.repos[repo]
        if filename in self.hub.faults.listed:
            data = self.hub.faults.listed[filename]
        elif (root / filename).is_file():
            data = (root / filename).read_bytes()
        else:
            self._error(404, "Entry not found", error_code="EntryNotFound")
            return
        etag = hashlib.sha256(data).hexdigest()  # of the original: a corrupt copy differs
        data = self.hub.faults.served.get(filename, data)
        if filename in self.hub.faults.corrupt and data:
            data = bytes([data[0] ^ 0xFF]) + data[1:]
        start = 0
        header = self.headers.get("Range", "")
        if header.startswith("bytes="):
            start = int(header[len("bytes=") :].split("-")[0] or 0)
        if body:
            self.hub.faults.gets.append(f"{filename} {header}".strip())
        status = 206 if start else 200
        self.send_response(status)
        self.send_header("ETag", f'"{etag}"')
        self.send_header("X-Repo-Commit", COMMIT)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Connection", "close")
        self.send_header("Content-Length", str(len(data) - start))
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.end_headers()
        if not body:
            return
        limit = self.hub.faults.drop_after.get(filename)
        sent = start
        for offset in range(start, len(data), 65536):
            chunk = data[offset : offset + 65536]
            if limit is not None and sent + len(chunk) > limit:
                self.wfile.write(chunk[: max(limit - sent, 0)])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if self.hub.faults.delay_per_chunk_s:
                time.sleep(self.hub.faults.delay_per_chunk_s)
            self.wfile.write(chunk)
            sent += len(chunk)

    def _json(self, payload: object) -> None:
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Connection", "close")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str, error_code: str = "") -> None:
        data = json.dumps({"error": message}).encode()
        self.send_response(status)
        self.send_header("Connection", "close")
        if error_code:
            self.send_header("X-Error-Code", error_code)
        self.send_header("X-Error-Message", message)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
