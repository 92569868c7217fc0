"""The bundled embedder set up on first use by the embedding routes (a fresh profile): one
set-up for every request that comes meanwhile, its progress in the log, a 503 with
``Retry-After`` past the wait, and one sentence with what to do when it cannot be done.

The conversion itself (minutes on a busy machine, tested with the Knowledge panel's set-up) is
stood in for by an installer the test releases: it puts the real MiniLM fixture in place."""

from __future__ import annotations

import asyncio
import errno
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import httpx
import ollama
import openai
import pytest

from app.core.paths import AppPaths
from app.models import bundled
from app.models.bundled import DEFAULT_EMBEDDER, SetupProgress, default_embedder_dir
from app.models.toolchain_env import toolchain_status
from app.server.embedder_setup import RETRY_AFTER_S, EmbedderSetup
from pipelines.core import Cancelled, CancelToken
from tests.server.conftest import RunningServer, start_server
from tests.waiting import wait_until

pytestmark = [pytest.mark.integration]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    """A server on a fresh profile (no embedder set up, no chat model)."""
    yield from start_server(tmp_path / "home", None, None)


class HeldInstaller:
    """Puts the real MiniLM fixture where the set-up would, once the test releases it."""

    def __init__(self, model: Path) -> None:
        self.model = model
        self.calls = 0
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(
        self, paths: AppPaths, cancel: CancelToken, report: Callable[[SetupProgress], None]
    ) -> Path:
        self.calls += 1
        report(SetupProgress("export", 1, 0.0))
        self.started.set()
        while not self.release.wait(0.05):
            if cancel.cancelled:
                raise Cancelled("cancelled")
        report(SetupProgress("quantize", 2, 20.0))
        target = default_embedder_dir(paths)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(self.model, target_is_directory=True)
        return target


def use_installer(server: RunningServer, install: object, wait_s: float = 600) -> None:
    server.state.embedder_setup = EmbedderSetup(
        server.ctx.knowledge,
        server.ctx.paths,
        install=install,
        wait_s=wait_s,  # type: ignore[arg-type]
    )


def openai_vectors(server: RunningServer) -> list[float]:
    client = openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=600
    )
    return client.embeddings.create(model="", input="a first text").data[0].embedding


def ollama_vectors(server: RunningServer) -> list[float]:
    client = ollama.Client(host=server.url, headers=server.auth)
    reply = client.embed(DEFAULT_EMBEDDER, "a first text")
    return list(reply.embeddings[0])


def test_the_first_requests_wait_for_one_set_up_and_get_vectors(
    server: RunningServer, embedding_model_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert server.ctx.knowledge.needs_setup()
    installer = HeldInstaller(embedding_model_dir)
    use_installer(server, installer)
    with caplog.at_level(logging.INFO, "app.server.embedder_setup"), ThreadPoolExecutor(3) as pool:
        asked = [
            pool.submit(openai_vectors, server),
            pool.submit(ollama_vectors, server),
            pool.submit(openai_vectors, server),
        ]
        try:
            assert installer.started.wait(120)
            early = [future.result() for future in asked if future.done()]
            assert early == []  # they wait, not fail
        finally:
            installer.release.set()
        vectors = [future.result(timeout=300) for future in asked]
    assert installer.calls == 1
    assert all(len(vector) == 384 for vector in vectors)
    lines = [record.getMessage() for record in caplog.records]
    assert any("step 1 of 2, export" in line for line in lines)
    assert any("step 2 of 2, quantize" in line for line in lines)
    assert any(line.startswith("the embedding model is set up") for line in lines)
    assert not server.ctx.knowledge.needs_setup()
    assert len(openai_vectors(server)) == 384 and installer.calls == 1  # not again


def test_past_the_wait_a_503_says_when_to_ask_again(
    server: RunningServer, embedding_model_dir: Path
) -> None:
    installer = HeldInstaller(embedding_model_dir)
    use_installer(server, installer, wait_s=0.2)
    body = {"input": "a text"}
    reply = httpx.post(f"{server.openai_url}/embeddings", json=body, headers=server.auth)
    assert reply.status_code == 503
    assert reply.headers["Retry-After"] == str(RETRY_AFTER_S)
    message = reply.json()["error"]["message"]
    assert message.startswith("The embedding model is being set up") and "step 1 of 2" in message
    installer.release.set()
    wait_until(lambda: not server.ctx.knowledge.needs_setup(), "the set-up to end", timeout=120)
    again = httpx.post(f"{server.openai_url}/embeddings", json=body, headers=server.auth)
    assert again.status_code == 200 and installer.calls == 1


def test_without_the_conversion_toolchain_the_answer_names_what_to_do(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real set-up, looking for its tools as a frozen app does (none here).
    monkeypatch.setattr(bundled, "toolchain_status", partial(toolchain_status, frozen=True))
    reply = httpx.post(f"{server.openai_url}/embeddings", json={"input": "x"}, headers=server.auth)
    assert reply.status_code == 503
    message = reply.json()["error"]["message"]
    assert "conversion toolchain is missing" in message
    assert "Models… → Convert" in message and "python -m app models tools --install" in message
    with pytest.raises(ollama.ResponseError) as refused:
        ollama.Client(host=server.url, headers=server.auth).embed(DEFAULT_EMBEDDER, "x")
    assert refused.value.status_code == 503 and "models tools --install" in refused.value.error
    assert not default_embedder_dir(server.ctx.paths).exists()


def test_a_full_disk_is_one_sentence_naming_the_folder(server: RunningServer) -> None:
    def no_room(*_: object) -> Path:
        raise OSError(errno.ENOSPC, "No space left on device")

    use_installer(server, no_room)
    reply = httpx.post(f"{server.openai_url}/embeddings", json={"input": "x"}, headers=server.auth)
    assert reply.status_code == 503
    message = reply.json()["error"]["message"]
    assert "no space left on device" in message
    assert str(default_embedder_dir(server.ctx.paths).parent) in message
    assert "python -m app setup" in message


def test_a_request_that_looked_before_a_set_up_ended_does_not_start_another(
    server: RunningServer, embedding_model_dir: Path
) -> None:
    # The full run's failure on a busy machine: a request saw no model, then the first set-up
    # ended before it asked for one, and a second set-up wrote over the model ("file exists").
    installer = HeldInstaller(embedding_model_dir)
    installer.release.set()
    use_installer(server, installer)
    installer(server.ctx.paths, CancelToken(), lambda _: None)  # the set-up that just ended
    knowledge = server.ctx.knowledge
    looks = iter([True])  # the request's own look saw no model; every later look sees it
    setup = EmbedderSetup(
        knowledge,
        server.ctx.paths,
        install=installer,
        wait_s=60,
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(knowledge, "needs_setup", lambda: next(looks, False))
        asyncio.run(setup.ready())
    assert installer.calls == 1
    assert not knowledge.needs_setup()
