"""One GGUF file pulled from a local stand-in hub: the real SmolLM2 file, verified, installed,
and answering; every hostile name, listing or file refused in one sentence, nothing left."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.cli import exits
from app.cli.main import main
from app.cli.progress import STOPPING
from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.download import Downloader, staging_dir
from app.models.download_meter import DownloadProgress
from app.models.gguf_download import download_gguf
from app.models.ownership import MARKER
from app.models.registry import ModelRegistry
from pipelines.core import Cancelled, CancelToken
from tests import gguf_variants
from tests.app_process import interrupt_app, run_app
from tests.hub_server import HubServer, running_hub

pytestmark = pytest.mark.integration

REPO = "HuggingFaceTB/SmolLM2-135M-Instruct-GGUF"
NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ID = "SmolLM2-135M-Instruct.Q4_1"
BAD = "Local/bad-GGUF"
"""A repository serving one damaged or unusable file (its listing matches its bytes)."""


@pytest.fixture(scope="module")
def real_gguf(fixture_role: Callable[[str], Path]) -> Path:
    return fixture_role("llm-real") / NAME


@pytest.fixture
def repo(tmp_path: Path, real_gguf: Path) -> Path:
    """The GGUF repository as the hub holds it: the file (a link to the fixture) and a card."""
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / NAME).symlink_to(real_gguf)
    (folder / "README.md").write_text("SmolLM2 135M instruct, Q4_1\n")
    return folder


@pytest.fixture
def hub(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[HubServer]:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))  # never the user's hub cache
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    bad = tmp_path / "bad-repo"
    bad.mkdir()
    with running_hub({REPO: repo, BAD: bad}) as server:
        yield server


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "models.json", tmp_path / "models")


def _left_behind(registry: ModelRegistry) -> list[str]:
    """What the models folder holds besides empty staging folders (nothing, after a refusal)."""
    if not registry.models_dir.exists():
        return []
    return sorted(
        str(p.relative_to(registry.models_dir))
        for p in registry.models_dir.rglob("*")
        if not (p.is_dir() and p.name.startswith(".staging-") and not any(p.iterdir()))
    )


def test_a_pulled_file_is_verified_registered_and_answers(
    hub: HubServer, tmp_path: Path, real_gguf: Path
) -> None:
    home = tmp_path / "home"
    env = {"OV_STUDIO_HOME": str(home), "HF_ENDPOINT": hub.url, "HF_HOME": str(tmp_path / "hf")}
    pulled = run_app(["models", "pull", REPO, "--file", NAME], environ=env, timeout=300)
    assert pulled.returncode == exits.OK, pulled.stderr
    models_dir = home / "data" / "models"
    file = models_dir / MODEL_ID / NAME
    assert pulled.stdout == f"installed {MODEL_ID} (chat, Q4_1) in {file}\n"
    assert file.read_bytes() == real_gguf.read_bytes()
    assert sorted(p.name for p in models_dir.iterdir()) == [MODEL_ID]  # no staging, no lock
    assert [g.split()[0] for g in hub.faults.gets] == [NAME]  # the one file, not the card
    listed = run_app(["models", "list", "--json"], environ=env, timeout=120)
    [entry] = json.loads(listed.stdout)
    assert (entry["id"], entry["format"], entry["source"], entry["hub_id"]) == (
        MODEL_ID,
        "gguf",
        "catalog",
        REPO,
    )
    assert entry["owned"] and entry["status"] == "ok" and entry["precision"] == "Q4_1"
    assert entry["gguf"]["architecture"] == "llama" and entry["gguf"]["has_tokenizer"]
    question = "What is the capital of France?"
    args = ["chat", "--model", entry["folder"], "--max-new-tokens", "16", "--temperature", "0"]
    answer = run_app([*args, question], environ=env, timeout=300)
    assert answer.returncode == exits.OK, answer.stderr
    assert "Paris" in answer.stdout


def test_the_same_file_twice_is_already_installed(hub: HubServer, registry: ModelRegistry) -> None:
    model = download_gguf(Downloader(registry, hub.url), REPO, NAME, licence="Apache-2.0")
    assert model.task == ModelTask.CHAT and model.gguf is not None and model.owned
    assert model.folder == registry.models_dir / MODEL_ID / NAME and model.licence == "Apache-2.0"
    hub.faults.gets.clear()
    with pytest.raises(UserError, match=f"^{MODEL_ID} is already installed.$"):
        download_gguf(Downloader(registry, hub.url), REPO, NAME)
    assert hub.faults.gets == [] and [m.id for m in registry.models()] == [MODEL_ID]
    assert registry.remove(MODEL_ID).deleted  # the app's copy goes with its folder
    assert _left_behind(registry) == []


def test_a_file_in_a_sub_folder_of_the_repository_is_stored_flat(
    hub: HubServer, registry: ModelRegistry, repo: Path
) -> None:
    (repo / "sub" / "dir").mkdir(parents=True)
    (repo / NAME).rename(repo / "sub" / "dir" / NAME)
    model = download_gguf(Downloader(registry, hub.url), REPO, f"sub/dir/{NAME}")
    assert model.folder == registry.models_dir / MODEL_ID / NAME
    assert model.usable and _left_behind(registry) == [
        MODEL_ID,
        f"{MODEL_ID}/{MARKER}",
        f"{MODEL_ID}/{NAME}",
    ]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("../../x.gguf", f"“../../x.gguf” is not a file of {REPO} (it climbs out with “..”)."),
        ("/etc/passwd", f"“/etc/passwd” is not a file of {REPO} (it is an absolute path)."),
        ("sub\\..\\x.gguf", f"“sub\\..\\x.gguf” is not a file of {REPO} (it contains a back"),
        ("README.md", f"“README.md” is not a GGUF file: pick a file of {REPO} whose name ends"),
        ("other.gguf", f"{REPO} has no file “other.gguf”: its GGUF files are {NAME} (98 MB)."),
        (f"sub/{NAME}", f"{REPO} has no file “sub/{NAME}”: its GGUF files are {NAME} (98 MB)."),
        ("q" * 300 + ".gguf", f"“{'q' * 119}…” is not a file of {REPO} (a part of it is 305 "),
    ],
    ids=[
        *("climbing", "absolute", "backslash", "not-gguf", "not-listed", "not-listed-there"),
        "too-long",
    ],
)
def test_a_bad_file_name_is_one_line_and_exit_2_with_nothing_fetched(
    hub: HubServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    said: str,
) -> None:
    monkeypatch.setenv("OV_STUDIO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    assert main(["models", "pull", REPO, "--file", name]) == exits.USAGE
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"error: {said}")
    models_dir = tmp_path / "home" / "data" / "models"
    assert hub.faults.gets == []
    assert not models_dir.exists() or [p for p in models_dir.rglob("*") if p.is_file()] == []
    assert not (tmp_path / "x.gguf").exists() and not Path("/x.gguf").exists()


def test_a_gguf_repository_without_file_lists_its_files_and_exits_2(
    hub: HubServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("OV_STUDIO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    assert main(["models", "pull", REPO]) == exits.USAGE
    assert capsys.readouterr().err == (
        f"error: {REPO} holds GGUF files, one model each: {NAME} (98 MB); pick one of them. "
        "Name one with --file NAME.\n"
    )
    assert hub.faults.gets == []
    assert main(["models", "pull", REPO, "--file", NAME, "--task", "embedding"]) == exits.USAGE
    assert "holds a chat model, not a embedding" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("served", "said"),
    [
        (lambda data: data[:-1000], "has 98,361,432 bytes instead of 98,362,432"),
        (lambda data: data[:500] + b"\0" + data[501:], "does not match its checksum"),
    ],
    ids=["size", "sha256"],
)
def test_bytes_that_do_not_match_the_listing_are_refused(
    hub: HubServer,
    registry: ModelRegistry,
    real_gguf: Path,
    served: Callable[[bytes], bytes],
    said: str,
) -> None:
    hub.faults.served[NAME] = served(real_gguf.read_bytes())
    with pytest.raises(UserError, match=f"The download is damaged: {NAME} {said}"):
        download_gguf(Downloader(registry, hub.url), REPO, NAME)
    assert registry.models() == [] and _left_behind(registry) == []
    hub.faults.served.clear()
    assert download_gguf(Downloader(registry, hub.url), REPO, NAME).usable


def _no_tokenizer(source: Path, target: Path) -> Path:
    drop = ("tokenizer.ggml.tokens", "tokenizer.ggml.model")
    return gguf_variants.rewrite(source, target, keys=lambda k: None if k in drop else k)


def _not_gguf(source: Path, target: Path) -> Path:
    target.write_bytes(b"<html>rate limited</html>\n" * 100)
    return target


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (gguf_variants.truncated, "cut short"),
        (_not_gguf, "is not a GGUF model file"),
        (_no_tokenizer, "has no tokenizer inside"),
        (lambda s, t: gguf_variants.rewrite(s, t, architecture="gpt2"), "is a “gpt2” model"),
    ],
    ids=["truncated", "not-gguf", "no-tokenizer", "architecture"],
)
def test_a_served_file_that_is_not_a_usable_gguf_is_refused_and_removed(
    hub: HubServer,
    registry: ModelRegistry,
    real_gguf: Path,
    tmp_path: Path,
    make: Callable[[Path, Path], Path],
    said: str,
) -> None:
    make(real_gguf, tmp_path / "bad-repo" / "model.gguf")
    with pytest.raises(UserError, match=said) as refused:
        download_gguf(Downloader(registry, hub.url), BAD, "model.gguf")
    assert "\n" not in str(refused.value)
    assert registry.models() == [] and _left_behind(registry) == []


def test_a_stopped_pull_resumes_where_it_stopped(hub: HubServer, registry: ModelRegistry) -> None:
    cancel = CancelToken()
    seen: list[DownloadProgress] = []

    def stop_midway(progress: DownloadProgress) -> None:
        seen.append(progress)
        if 10 * 2**20 < progress.file_done < progress.file_total:
            cancel.cancel()

    with pytest.raises(Cancelled):
        download_gguf(Downloader(registry, hub.url), REPO, NAME, cancel, stop_midway)
    assert registry.models() == []
    stopped_at = seen[-1].file_done
    part = staging_dir(registry.models_dir, MODEL_ID) / f"{NAME}.part"
    assert part.stat().st_size == stopped_at
    hub.faults.gets.clear()
    model = download_gguf(Downloader(registry, hub.url), REPO, NAME)
    assert model.usable and hub.faults.gets == [f"{NAME} bytes={stopped_at}-"]


def test_ctrl_c_stops_a_gguf_pull_and_the_next_pull_resumes(hub: HubServer, tmp_path: Path) -> None:
    hub.faults.delay_per_chunk_s = 0.01  # a slow network: the download is still running
    env = {"OV_STUDIO_HOME": str(tmp_path / "home"), "HF_ENDPOINT": hub.url}
    args = ["models", "pull", REPO, "--file", NAME]
    # "MB of": a megabyte or more has arrived (the first line shows "0 B of").
    stopped = interrupt_app(args, environ=env, once="MB of ", timeout=120)
    assert stopped.returncode == exits.PARTIAL, stopped.stderr
    assert stopped.stderr.endswith(
        f"\n{STOPPING}\nstopped; what arrived is kept — pull again to resume\n"
    )
    hub.faults.delay_per_chunk_s = 0.0
    hub.faults.gets.clear()
    resumed = run_app(args, environ=env, timeout=300)
    assert resumed.returncode == exits.OK, resumed.stderr
    [get] = hub.faults.gets
    assert get.startswith(f"{NAME} bytes=") and not get.endswith("bytes=0-")
