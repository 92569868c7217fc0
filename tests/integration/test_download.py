"""Real huggingface_hub downloads from a local stand-in hub: verify, resume, refuse, install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.errors import BusyError, UserError
from app.models.download import Downloader, DownloadProgress, staging_dir
from app.models.inspect import ModelTask
from app.models.registry import ModelRegistry
from pipelines.core import Cancelled, CancelToken
from tests.hub_server import HubServer, running_hub

pytestmark = pytest.mark.integration
REPO = "OpenVINO/tiny-chat-int8-ov"
BIG = "OpenVINO/minilm-int8-ov"  # a 23 MB weights file: several 10 MB download chunks


@pytest.fixture
def hub(fixture_models: Path) -> Iterator[HubServer]:
    repos = {REPO: fixture_models / "llm-int8", BIG: fixture_models / "embedding"}
    with running_hub(repos) as server:
        yield server


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModelRegistry:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))  # never the user's hub cache
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    return ModelRegistry(tmp_path / "models.json", tmp_path / "models")


def test_a_full_download_is_verified_and_registered(
    hub: HubServer, registry: ModelRegistry, fixture_models: Path
) -> None:
    seen: list[DownloadProgress] = []
    model = Downloader(registry, hub.url).download(REPO, on_progress=seen.append, licence="MIT")
    assert (model.id, model.task, model.source, model.owned) == (
        "tiny-chat-int8-ov",
        ModelTask.CHAT,
        "catalog",
        True,
    )
    assert model.usable and model.hub_id == REPO and model.precision == "int8"
    for original in hub.files(REPO):
        copy = model.folder / original.relative_to(fixture_models / "llm-int8")
        assert copy.read_bytes() == original.read_bytes()
    assert seen[-1].done == seen[-1].total == sum(p.stat().st_size for p in hub.files(REPO))
    assert not staging_dir(registry.models_dir, model.id).exists()
    assert [m.id for m in registry.models()] == [model.id]
    with pytest.raises(UserError, match="already installed"):
        Downloader(registry, hub.url).download(REPO)


def test_a_stopped_download_resumes_where_it_stopped(
    hub: HubServer, registry: ModelRegistry
) -> None:
    cancel = CancelToken()
    biggest = max(hub.files(BIG), key=lambda p: p.stat().st_size)
    seen: list[DownloadProgress] = []

    def stop_inside_the_biggest(progress: DownloadProgress) -> None:
        seen.append(progress)
        if progress.file == biggest.name and 0 < progress.file_done < progress.file_total:
            cancel.cancel()

    with pytest.raises(Cancelled):
        Downloader(registry, hub.url).download(BIG, cancel, stop_inside_the_biggest)
    assert registry.models() == []  # never shown as installed
    stopped_at = seen[-1].file_done
    hub.faults.gets.clear()
    model = Downloader(registry, hub.url).download(BIG)
    assert model.usable and model.task == ModelTask.EMBEDDING
    [resumed] = [g for g in hub.faults.gets if g.startswith(biggest.name)]
    assert resumed == f"{biggest.name} bytes={stopped_at}-"  # asked for the rest only


def test_a_corrupt_file_is_refused_and_nothing_installed(
    hub: HubServer, registry: ModelRegistry
) -> None:
    hub.faults.corrupt.add("openvino_model.bin")
    with pytest.raises(UserError, match=r"download is damaged: openvino_model\.bin does not match"):
        Downloader(registry, hub.url).download(REPO)
    assert registry.models() == [] and not (registry.models_dir / "tiny-chat-int8-ov").exists()
    hub.faults.corrupt.clear()
    assert Downloader(registry, hub.url).download(REPO).usable  # only the bad file is fetched


def test_unknown_id_and_bad_ids(hub: HubServer, registry: ModelRegistry) -> None:
    with pytest.raises(UserError, match="There is no model “OpenVINO/nope” on the hub"):
        Downloader(registry, hub.url).download("OpenVINO/nope")
    with pytest.raises(UserError, match="is not a hub id"):
        Downloader(registry, hub.url).download("just-a-name")


def test_no_network_says_so_and_offers_the_local_route(registry: ModelRegistry) -> None:
    with pytest.raises(UserError, match=r"Cannot reach the model hub.*models add PATH"):
        Downloader(registry, "http://127.0.0.1:9").download(REPO)


def test_the_server_going_away_mid_download_keeps_what_arrived(
    hub: HubServer, registry: ModelRegistry
) -> None:
    biggest = max(hub.files(BIG), key=lambda p: p.stat().st_size)
    hub.faults.drop_after[biggest.name] = 15 * 2**20  # past the first 10 MB chunk
    with pytest.raises(UserError, match="What arrived is kept: download again to resume"):
        Downloader(registry, hub.url).download(BIG)
    assert registry.models() == []
    hub.faults.drop_after.clear()
    assert Downloader(registry, hub.url).download(BIG).usable


def test_not_enough_disk_space(
    hub: HubServer, registry: ModelRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = shutil.disk_usage
    monkeypatch.setattr(
        "app.models.download.shutil.disk_usage",
        lambda path: real(path)._replace(free=1000),
    )
    with pytest.raises(UserError, match="Not enough disk space"):
        Downloader(registry, hub.url).download(REPO)
    assert not staging_dir(registry.models_dir, "tiny-chat-int8-ov").exists()


def test_two_downloads_of_one_model_at_once(
    hub: HubServer, registry: ModelRegistry, tmp_path: Path
) -> None:
    hub.faults.delay_per_chunk_s = 0.05  # the first one is still running when the second asks
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from app.models.download import Downloader
        from app.models.registry import ModelRegistry
        registry = ModelRegistry(Path({str(registry.file)!r}), Path({str(registry.models_dir)!r}))
        print("started", flush=True)
        Downloader(registry, {hub.url!r}).download({REPO!r})
        """
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    first = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert first.stdout is not None and first.stdout.readline().strip() == "started"
        lock = registry.models_dir / ".tiny-chat-int8-ov.lock"
        deadline_hits = 0
        while not lock.exists() and deadline_hits < 2000:
            deadline_hits += 1
            os.sched_yield()
        with pytest.raises(BusyError, match="already being downloaded"):
            Downloader(registry, hub.url).download(REPO)
    finally:
        first.kill()
        first.wait()
    # The killed holder's lock is stale: the next download takes it over and finishes.
    hub.faults.delay_per_chunk_s = 0.0
    assert Downloader(registry, hub.url).download(REPO).usable


def test_cli_pull(hub: HubServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.cli import main

    monkeypatch.setenv("OV_STUDIO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    assert main(["models", "pull", REPO]) == 0
    assert main(["models", "pull", "OpenVINO/nope"]) == 2
    assert main(["models", "pull", BIG, "--task", "chat"]) == 2  # an embedding model
    registry = ModelRegistry(tmp_path / "home" / "data" / "models.json", tmp_path)
    assert [m.id for m in registry.models()] == ["tiny-chat-int8-ov"]


def test_a_model_of_another_task_is_refused_before_its_weights_arrive(
    hub: HubServer, registry: ModelRegistry
) -> None:
    with pytest.raises(UserError, match="is an embedding model, not a chat model"):
        Downloader(registry, hub.url).download(BIG, task=ModelTask.CHAT)
    assert [g.split()[0] for g in hub.faults.gets] == ["config.json"]
    assert registry.models() == []
