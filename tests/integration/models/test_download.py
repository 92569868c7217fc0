"""Real huggingface_hub downloads from a local stand-in hub: verify, resume, refuse, install."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.cli import exits
from app.cli.progress import STOPPING
from app.core.errors import BusyError, UserError
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.models.download import Downloader, staging_dir
from app.models.download_meter import DownloadProgress
from app.models.registry import ModelRegistry
from pipelines.core import Cancelled, CancelToken
from tests.app_process import interrupt_app, run_app
from tests.hub_server import HubServer, running_hub

pytestmark = pytest.mark.integration
REPO = "OpenVINO/tiny-chat-int8-ov"
BIG = "OpenVINO/minilm-int8-ov"  # a 23 MB weights file: several 10 MB download chunks


@pytest.fixture
def hub(chat_model_dir: Path, embedding_model_dir: Path) -> Iterator[HubServer]:
    repos = {REPO: chat_model_dir, BIG: embedding_model_dir}
    with running_hub(repos) as server:
        yield server


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModelRegistry:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))  # never the user's hub cache
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    return ModelRegistry(tmp_path / "models.json", tmp_path / "models")


def test_a_full_download_is_verified_and_registered(
    hub: HubServer, registry: ModelRegistry, chat_model_dir: Path
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
        copy = model.folder / original.relative_to(chat_model_dir)
        assert copy.read_bytes() == original.read_bytes()
    assert seen[-1].done == seen[-1].total == sum(p.stat().st_size for p in hub.files(REPO))
    assert not staging_dir(registry.models_dir, model.id).exists()
    assert [m.id for m in registry.models()] == [model.id]
    assert registry.deletes_files(model)  # marked as the app's: Remove deletes it
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


def test_no_network_is_one_sentence_naming_the_hub_never_an_errno(
    registry: ModelRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    with pytest.raises(UserError) as refused:
        Downloader(registry, "http://127.0.0.1:9").download(REPO)
    assert str(refused.value) == (
        "Can't reach the model hub at http://127.0.0.1:9 — check your connection or proxy; "
        "HF_ENDPOINT is not set."
    )


def test_the_hub_going_away_between_files_is_said_as_unreachable(
    hub: HubServer, registry: ModelRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    stopped: list[str] = []

    def stop_the_hub_after_the_first_file(progress: DownloadProgress) -> None:
        if progress.file_done == progress.file_total and not stopped:
            stopped.append(progress.file)
            hub.stop()

    with pytest.raises(UserError) as refused:
        Downloader(registry, hub.url).download(REPO, on_progress=stop_the_hub_after_the_first_file)
    assert str(refused.value) == (
        f"Can't reach the model hub at {hub.url} — check your connection or proxy; HF_ENDPOINT "
        "is not set. What arrived is kept: download again to resume."
    )
    assert stopped and registry.models() == []


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
        "app.models.download_checks.shutil.disk_usage",
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
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    first = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert first.stdout is not None and first.stdout.readline().strip() == "started"
        lock = registry.models_dir / ".tiny-chat-int8-ov.lock"
        deadline = time.monotonic() + 60
        while not lock.exists():
            assert time.monotonic() < deadline and first.poll() is None, "no lock was taken"
            time.sleep(0.01)  # polling another process's progress
        with pytest.raises(BusyError, match="already being downloaded"):
            Downloader(registry, hub.url).download(REPO)
    finally:
        first.kill()
        first.wait()
    # The killed holder's lock is stale: the next download takes it over and finishes.
    hub.faults.delay_per_chunk_s = 0.0
    assert Downloader(registry, hub.url).download(REPO).usable


def test_a_lock_whose_holder_has_not_written_its_pid_yet_is_held(
    hub: HubServer, registry: ModelRegistry
) -> None:
    registry.models_dir.mkdir(parents=True)
    lock = registry.models_dir / ".tiny-chat-int8-ov.lock"
    lock.touch()  # another process has just made it (O_EXCL) and is about to write its pid
    with pytest.raises(BusyError, match="already being downloaded"):
        Downloader(registry, hub.url).download(REPO)
    old = time.time() - 60
    os.utime(lock, (old, old))  # still empty a minute later: its holder was killed
    assert Downloader(registry, hub.url).download(REPO).usable


def test_cli_pull(hub: HubServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.cli.main import main

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


# -- a hostile file list ------------------------------------------------------------------

STAGING = ".staging-tiny-chat-int8-ov"


def _outside(tmp_path: Path) -> Path:
    """Where a hostile name aims: outside the models folder, inside the test's tmp folder."""
    return tmp_path / "outside" / "planted.txt"


def _climbing(tmp_path: Path, models_dir: Path) -> str:
    """``sub/../../..`` from the staging folder to :func:`_outside`."""
    return "sub/../" + os.path.relpath(_outside(tmp_path), models_dir / STAGING)


@pytest.mark.parametrize(
    ("make_name", "reason"),
    [
        (lambda tmp, models: str(_outside(tmp)), "it is an absolute path"),
        (_climbing, "it climbs out with “..”"),
        (lambda tmp, models: "..\\planted.txt", "it contains a backslash"),
        (lambda tmp, models: "C:planted.txt", "drive letter"),
        (lambda tmp, models: "C:\\planted.txt", "it contains a backslash"),
        (lambda tmp, models: "sub\x00.txt", "it contains a control character"),
        (lambda tmp, models: "sub//planted.txt", "it has an empty or “.” part"),
        (lambda tmp, models: "./planted.txt", "it has an empty or “.” part"),
        (lambda tmp, models: "", "it is empty"),
    ],
    ids=[
        "absolute",
        "climbing",
        "backslash-dotdot",
        "drive",
        "drive-backslash",
        "nul",
        "empty-part",
        "dot-part",
        "empty",
    ],
)
def test_a_file_list_naming_files_outside_the_model_is_refused_before_any_fetch(
    hub: HubServer,
    registry: ModelRegistry,
    tmp_path: Path,
    make_name: Callable[[Path, Path], str],
    reason: str,
) -> None:
    name = make_name(tmp_path, registry.models_dir)
    _outside(tmp_path).parent.mkdir()
    hub.faults.listed[name] = b"planted by a hostile hub\n"
    with pytest.raises(UserError) as refused:
        Downloader(registry, hub.url).download(REPO)
    message = str(refused.value)
    assert message.startswith(f"The model {REPO} was refused: its file list names “")
    assert reason in message and "\n" not in message and "\x00" not in message
    assert hub.faults.gets == []  # not one byte fetched, config.json included
    assert not _outside(tmp_path).exists() and registry.models() == []
    assert not (registry.models_dir / STAGING).exists()
    assert not (registry.models_dir / "tiny-chat-int8-ov").exists()


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("w" * 300 + ".bin", "a part of it is 304 bytes long; a file name may have 250"),
        # 251 bytes fit a file system, but not with the “.part” the download writes first.
        ("w" * 247 + ".bin", "a part of it is 251 bytes long; a file name may have 250"),
        ("é" * 130 + ".bin", "a part of it is 264 bytes long; a file name may have 250"),
        ("/".join(["d" * 200] * 21) + "/w.bin", " bytes long while it downloads; this system"),
    ],
    ids=["300-bytes", "251-bytes", "non-ascii", "too-deep"],
)
def test_a_name_longer_than_a_file_system_allows_is_refused_before_any_fetch(
    hub: HubServer, registry: ModelRegistry, name: str, reason: str
) -> None:
    hub.faults.listed[name] = b"a name no file system takes\n"
    with pytest.raises(UserError) as refused:
        Downloader(registry, hub.url).download(REPO)
    message = str(refused.value)
    assert message.startswith(f"The model {REPO} was refused: its file list names “")
    assert reason in message and len(message) < 400
    assert hub.faults.gets == [] and registry.models() == []
    assert not (registry.models_dir / STAGING).exists()


def test_a_file_also_listed_as_a_folder_is_refused(hub: HubServer, registry: ModelRegistry) -> None:
    hub.faults.listed["config.json/inner.txt"] = b"x"
    with pytest.raises(UserError, match=r"names “config\.json” both as a file and as a folder"):
        Downloader(registry, hub.url).download(REPO)
    assert hub.faults.gets == [] and registry.models() == []


def test_an_earlier_staging_folder_is_removed_when_the_list_turns_hostile(
    hub: HubServer, registry: ModelRegistry, tmp_path: Path
) -> None:
    staging = registry.models_dir / STAGING
    (staging / "sub").mkdir(parents=True)
    (staging / "sub" / "kept.bin.part").write_bytes(b"half")
    hub.faults.listed[str(_outside(tmp_path))] = b"x"
    with pytest.raises(UserError, match="was refused"):
        Downloader(registry, hub.url).download(REPO)
    assert not staging.exists()


@pytest.mark.parametrize(
    "raw",
    [
        {"size": 3},  # no name at all
        {"rfilename": 7, "size": 3},
        {"rfilename": "weights.bin", "size": -5},
        {"rfilename": "weights.bin", "size": "lots"},
    ],
    ids=["no-name", "number-name", "negative-size", "text-size"],
)
def test_a_malformed_file_list_is_refused_in_words(
    hub: HubServer, registry: ModelRegistry, raw: dict[str, object]
) -> None:
    hub.faults.raw_siblings.append(raw)
    with pytest.raises(UserError, match=f"(answer about {REPO} is not|The model {REPO} was ref)"):
        Downloader(registry, hub.url).download(REPO)
    assert hub.faults.gets == [] and registry.models() == []


@pytest.mark.parametrize("hub_id", ["OpenVINO/..", "OpenVINO/.", "../tiny", "a/b/c", "a/.x", "/"])
def test_a_hub_id_cannot_name_a_folder_outside_the_models_folder(
    hub: HubServer, registry: ModelRegistry, tmp_path: Path, hub_id: str
) -> None:
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(UserError, match="is not a hub id like"):
        Downloader(registry, hub.url).download(hub_id)
    assert sorted(tmp_path.rglob("*")) == before and registry.models() == []


def test_links_left_in_an_earlier_staging_folder_are_not_followed(
    hub: HubServer, registry: ModelRegistry, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"mine")  # shorter than config.json: a resume would append to it
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    staging = registry.models_dir / STAGING
    staging.mkdir(parents=True)
    (staging / "config.json.part").symlink_to(victim)
    (staging / "openvino_tokenizer.xml").symlink_to(victim)  # a "finished" file that is a link
    model = Downloader(registry, hub.url).download(REPO)
    assert victim.read_bytes() == b"mine" and list(elsewhere.iterdir()) == []
    assert model.usable
    assert not any(p.is_symlink() for p in model.folder.rglob("*"))


def test_a_staging_folder_that_is_a_link_is_not_followed(
    hub: HubServer, registry: ModelRegistry, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    registry.models_dir.mkdir(parents=True)
    (registry.models_dir / STAGING).symlink_to(elsewhere, target_is_directory=True)
    model = Downloader(registry, hub.url).download(REPO)
    assert list(elsewhere.iterdir()) == []
    assert model.usable and not model.folder.is_symlink()


def test_cli_pull_refuses_a_hostile_list_with_one_line(hub: HubServer, tmp_path: Path) -> None:
    home = tmp_path / "home"
    models_dir = home / "data" / "models"
    _outside(tmp_path).parent.mkdir()
    hub.faults.listed[_climbing(tmp_path, models_dir)] = b"planted\n"
    hub.faults.listed[str(_outside(tmp_path).with_name("absolute.txt"))] = b"planted\n"
    env = _cli_env(hub, tmp_path)

    def pull(hub_id: str) -> subprocess.CompletedProcess[str]:
        return run_app(["models", "pull", hub_id], environ=env, timeout=120)

    refused = pull(REPO)
    assert refused.returncode == 2, refused.stderr
    [line] = refused.stderr.splitlines()
    assert line.startswith(f"error: The model {REPO} was refused: its file list names “sub/../")
    assert refused.stdout == "" and hub.faults.gets == []
    assert list(_outside(tmp_path).parent.iterdir()) == []
    bad_id = pull("OpenVINO/..")
    assert bad_id.returncode == 2
    assert bad_id.stderr == "error: “OpenVINO/..” is not a hub id like OpenVINO/Qwen3-4B-int4-ov.\n"
    listed = run_app(["models", "list", "--json"], environ=env, timeout=120)
    assert json.loads(listed.stdout) == []
    assert sorted(p.name for p in models_dir.iterdir()) == []


# -- the command line: Ctrl+C, and what a failure shows where ---------------------------------


def _cli_env(hub: HubServer, tmp_path: Path) -> dict[str, str]:
    """The app's home in ``tmp_path``, the stand-in hub, and a hub cache of the test's own."""
    home = str(tmp_path / "home")
    return {"OV_STUDIO_HOME": home, "HF_ENDPOINT": hub.url, "HF_HOME": str(tmp_path / "hf-home")}


def test_ctrl_c_stops_a_pull_keeps_what_arrived_and_exits_1(hub: HubServer, tmp_path: Path) -> None:
    hub.faults.delay_per_chunk_s = 0.05  # a slow network: the download is still running
    env = _cli_env(hub, tmp_path)
    stopped = interrupt_app(["models", "pull", BIG], environ=env, once=" of ", timeout=120)
    assert stopped.returncode == exits.PARTIAL, stopped.stderr
    assert stopped.stderr.endswith(
        f"\n{STOPPING}\nstopped; what arrived is kept — pull again to resume\n"
    )
    assert staging_dir(tmp_path / "home" / "data" / "models", "minilm-int8-ov").is_dir()
    hub.faults.delay_per_chunk_s = 0.0
    resumed = run_app(["models", "pull", BIG], environ=env, timeout=120)
    assert resumed.returncode == exits.OK, resumed.stderr


def test_a_failed_download_is_one_line_on_the_terminal_and_a_traceback_in_the_log(
    hub: HubServer, tmp_path: Path
) -> None:
    hub.faults.drop_after["openvino_model.bin"] = 100_000  # the connection drops every time
    env = _cli_env(hub, tmp_path)
    failed = run_app(["models", "pull", REPO], environ=env, timeout=120)
    assert failed.returncode == exits.USAGE, failed.stderr
    # The progress line (its \r read as line ends), the warning logged with exc_info in one
    # line of its own, and the error.
    *progress, warning, error = failed.stderr.splitlines()
    assert progress and all(" of " in line for line in progress if line)
    assert warning == f"WARNING: download of {REPO}/openvino_model.bin failed"
    assert error.startswith("error: Downloading openvino_model.bin failed (")
    log = AppPaths.from_environment({"OV_STUDIO_HOME": env["OV_STUDIO_HOME"]}).log_file
    logged = log.read_text(encoding="utf-8")
    assert f"download of {REPO}/openvino_model.bin failed\nTraceback (most recent call" in logged
