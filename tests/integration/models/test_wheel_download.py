"""The speaker-similarity model's one-click download: a wheel from a stand-in for PyPI's file
host (``OV_STUDIO_PYPI_FILES_URL``), checked against its pinned SHA-256, converted in-process.

The wheel holds random weights in resemblyzer's layout (saved by torch as resemblyzer's own
file was); the real wheel's address and hash are what the shipped catalog pins.
"""

from __future__ import annotations

import hashlib
import io
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.catalog import CatalogEntry, load_catalog
from app.models.catalog_download import download_entry, installed_copy
from app.models.download import staging_dir
from app.models.download_meter import DownloadProgress
from app.models.inspect import detect_task
from app.models.package_files import FILES_URL_ENV, PYPI_FILES
from app.models.registry import ModelRegistry
from app.models.resemblyzer_convert import WEIGHTS_MEMBER
from app.models.wheel_download import CONVERTING, MODEL_ID, convert_wheel_file
from pipelines.core import Cancelled, CancelToken

pytestmark = pytest.mark.integration
WHEEL_PATH = "/packages/d9/b5/0123/Resemblyzer-0.1.4-py3-none-any.whl"


@dataclass
class FileHost:
    """Serves one file at :data:`WHEEL_PATH` with Range support; records every request."""

    body: bytes
    url: str = ""
    requests: list[str] = field(default_factory=list)
    chunk_pause: threading.Event | None = None


def _handler(host: FileHost) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

        def do_GET(self) -> None:
            host.requests.append(f"{self.path} {self.headers.get('Range', '')}".strip())
            if self.path != WHEEL_PATH:
                self.send_error(404)
                return
            start = 0
            ranged = self.headers.get("Range", "")
            if ranged.startswith("bytes="):
                start = int(ranged[6:].split("-")[0])
            body = host.body[start:]
            self.send_response(206 if start else 200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except ConnectionError:  # the client stopped reading (a cancelled download)
                return

    return Handler


@pytest.fixture
def file_host(monkeypatch: pytest.MonkeyPatch, resemblyzer_wheel: bytes) -> Iterator[FileHost]:
    host = FileHost(resemblyzer_wheel)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(host))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host.url = f"http://127.0.0.1:{server.server_address[1]}"
    monkeypatch.setenv(FILES_URL_ENV, host.url)
    try:
        yield host
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def resemblyzer_wheel() -> bytes:
    torch = pytest.importorskip("torch", reason="the conversion extra is not installed")
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(40, 256, 3, batch_first=True)
    linear = torch.nn.Linear(256, 256)
    state = {f"lstm.{key}": value for key, value in lstm.state_dict().items()}
    state |= {f"linear.{key}": value for key, value in linear.state_dict().items()}
    weights = io.BytesIO()
    torch.save({"model_state": state}, weights, _use_new_zipfile_serialization=False)
    return _zip({WEIGHTS_MEMBER: weights.getvalue(), "resemblyzer/__init__.py": b""})


def _zip(members: dict[str, bytes]) -> bytes:
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in members.items():
            wheel.writestr(name, data)
    return archive.getvalue()


def _entry(body: bytes) -> CatalogEntry:
    shipped = next(entry for entry in load_catalog() if entry.task is ModelTask.SPEAKER_SIMILARITY)
    return replace(
        shipped,
        url=PYPI_FILES + WHEEL_PATH,
        size_bytes=len(body),
        sha256=hashlib.sha256(body).hexdigest(),
    )


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "models.json", tmp_path / "models")


def test_the_catalog_pins_the_real_wheel_on_pypi() -> None:
    (entry,) = [entry for entry in load_catalog() if entry.task is ModelTask.SPEAKER_SIMILARITY]
    assert entry.is_wheel and not entry.convert and entry.licence == "Apache-2.0"
    assert entry.url.startswith(PYPI_FILES + "/packages/")
    assert entry.url.endswith("/Resemblyzer-0.1.4-py3-none-any.whl")
    assert entry.sha256 == "8f12eb2f1a9982d32e8db7856de754709b59c93a77bcf0ff536584b619a9dd1f"
    assert entry.size_bytes == 15_747_704


def test_one_click_fetches_checks_converts_and_registers(
    file_host: FileHost, registry: ModelRegistry
) -> None:
    seen: list[DownloadProgress] = []
    entry = _entry(file_host.body)
    model = download_entry(registry, entry, on_progress=seen.append)
    assert (model.id, model.task, model.source, model.owned) == (
        MODEL_ID,
        ModelTask.SPEAKER_SIMILARITY,
        "catalog",
        True,
    )
    assert model.usable and detect_task(model.folder) is ModelTask.SPEAKER_SIMILARITY
    assert installed_copy(registry.models(), entry) == model
    assert file_host.requests == [WHEEL_PATH]  # the pinned path, on the stand-in host
    assert seen[-1].file == CONVERTING and seen[-1].done == len(file_host.body)
    assert not staging_dir(registry.models_dir, MODEL_ID).exists()  # nor the wheel in it
    from pipelines.voice.speaker_similarity import SpeakerSimilarity

    tone = np.sin(np.arange(32_000) * 0.05).astype(np.float32) * 0.3
    with SpeakerSimilarity(model.folder) as measure:
        assert measure.embed(tone, 16_000).shape == (256,)
    with pytest.raises(UserError, match="already installed"):
        download_entry(registry, entry)


def test_a_substituted_file_is_refused_in_one_sentence_and_nothing_is_installed(
    file_host: FileHost, registry: ModelRegistry
) -> None:
    entry = _entry(file_host.body)
    file_host.body = file_host.body[:-1] + bytes([file_host.body[-1] ^ 1])  # same size
    with pytest.raises(UserError, match="does not match its checksum") as caught:
        download_entry(registry, entry)
    assert "\n" not in str(caught.value)
    assert registry.models() == [] and not (registry.models_dir / MODEL_ID).exists()


def test_a_stopped_download_resumes_with_a_range_request(
    file_host: FileHost, registry: ModelRegistry
) -> None:
    entry = _entry(file_host.body)
    cancel = CancelToken()

    def stop_midway(progress: DownloadProgress) -> None:
        if 0 < progress.file_done < progress.file_total:
            cancel.cancel()

    with pytest.raises(Cancelled):
        download_entry(registry, entry, cancel, stop_midway)
    assert registry.models() == []
    model = download_entry(registry, entry)
    assert model.usable
    assert file_host.requests[-1].startswith(f"{WHEEL_PATH} bytes=")


def test_an_unreachable_host_is_one_sentence(
    registry: ModelRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FILES_URL_ENV, "http://127.0.0.1:9")  # discard port: refused
    with pytest.raises(UserError, match="PyPI cannot be reached"):
        download_entry(registry, _entry(b"x" * 100))


def _hostile_wheels(folder: Path, good: bytes) -> dict[str, Path]:
    folder.mkdir()
    not_zip = folder / "Resemblyzer-0.1.4-py3-none-any.whl"
    not_zip.write_bytes(b"#!/bin/sh\necho this is no wheel\n")
    traversal = folder / "traversal.whl"
    traversal.write_bytes(_zip({"../../escaped.txt": b"owned", "/abs/escaped.txt": b"owned"}))
    bomb = folder / "bomb.whl"
    with (
        zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive,  # 300 MB → ~300 KB
        archive.open(WEIGHTS_MEMBER, "w", force_zip64=True) as member,
    ):
        for _ in range(300):
            member.write(bytes(1 << 20))
    damaged = folder / "damaged.whl"
    info = zipfile.ZipFile(io.BytesIO(good)).getinfo(WEIGHTS_MEMBER)
    middle = info.header_offset + 30 + len(WEIGHTS_MEMBER) + info.compress_size // 2
    damaged.write_bytes(good[:middle] + bytes([good[middle] ^ 0xFF]) + good[middle + 1 :])
    return {
        "not a zip archive": not_zip,
        "not a resemblyzer wheel": traversal,
        "implausibly large": bomb,
        "damaged or not a real wheel": damaged,
    }


def test_hostile_files_picked_for_convert_are_one_sentence_and_write_nothing(
    tmp_path: Path, registry: ModelRegistry, resemblyzer_wheel: bytes
) -> None:
    for words, source in _hostile_wheels(tmp_path / "in", resemblyzer_wheel).items():
        with pytest.raises(UserError, match=words) as caught:
            convert_wheel_file(registry, source)
        assert "\n" not in str(caught.value)
        assert registry.models() == [] and not (registry.models_dir / MODEL_ID).exists()
    assert not list(tmp_path.rglob("escaped.txt"))
    assert not Path("/abs/escaped.txt").exists()


def test_a_local_wheel_or_pt_converts_without_a_download(
    tmp_path: Path, registry: ModelRegistry, resemblyzer_wheel: bytes
) -> None:
    pt = tmp_path / "pretrained.pt"
    pt.write_bytes(zipfile.ZipFile(io.BytesIO(resemblyzer_wheel)).read(WEIGHTS_MEMBER))
    model = convert_wheel_file(registry, pt)
    assert (model.task, model.source, model.usable) == (
        ModelTask.SPEAKER_SIMILARITY,
        "converted",
        True,
    )
