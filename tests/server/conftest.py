"""A running server for the API tests: the real ``ServerRunner`` (uvicorn on a loopback port
of its own) over a real ``AppContext`` in a fresh home, serving the real SmolLM2-135M GGUF.

Module-scoped: a module's tests share one server (loading the batching engine takes seconds);
clients are the official ``openai`` and ``ollama`` packages, or ``httpx`` for hostile bodies.
"""

from __future__ import annotations

import io
import json
import socket
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
import pytest
from PIL import Image

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.paths import HOME_ENV, AppPaths
from app.server.build import build_server
from app.server.connections import ConnectionLimits
from app.server.runner import ServerRunner
from app.server.state import ServerState
from pipelines.serving_requests import BatchRequest, ChatPrompt
from tests.waiting import wait_until

CPU = DeviceInfo(name="CPU", full_name="CPU (tests)")


@dataclass
class RunningServer:
    """A server answering on loopback, and what a client needs to reach it."""

    url: str
    """``http://127.0.0.1:PORT`` (OpenAI's API is under ``/v1``, Ollama's under ``/api``)."""
    token: str
    state: ServerState
    ctx: AppContext

    @property
    def openai_url(self) -> str:
        """The base URL an OpenAI client takes."""
        return f"{self.url}/v1"

    @property
    def auth(self) -> dict[str, str]:
        """The header every request needs."""
        return {"Authorization": f"Bearer {self.token}"}


def start_server(
    home: Path,
    model: Path | None,
    converted_cache: Path | None,
    environ: Mapping[str, str] | None = None,
    limits: ConnectionLimits | None = None,
) -> Iterator[RunningServer]:
    """Serve ``model`` (None: no chat model) from an app home at ``home``, with ``environ``
    set and the connection ``limits`` (None: the product's), until the generator is closed."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(HOME_ENV, str(home))
        for name, value in (environ or {}).items():
            patch.setenv(name, value)
        paths = AppPaths.from_environment()
        paths.ensure()
        if converted_cache is not None:
            paths.converted_cache.parent.mkdir(parents=True, exist_ok=True)
            paths.converted_cache.symlink_to(converted_cache, target_is_directory=True)
        with AppContext.create(paths, devices=[CPU]) as ctx:
            app, state = build_server(ctx, model)
            runner = ServerRunner(app, "127.0.0.1", 0, limits=limits)
            address = runner.start()
            try:
                yield RunningServer(address.url, state.token, state, ctx)
            finally:
                runner.stop()
                state.served.close()


def serve_loaded(
    home: Path, model: Path, converted_cache: Path, environ: Mapping[str, str] | None = None
) -> Iterator[RunningServer]:
    """As :func:`start_server` with ``environ`` set, the model loaded before the first yield
    (on the fixture's thread, not a test's) until the generator is closed."""
    running = start_server(home, model, converted_cache, environ)
    server = next(running)
    try:
        server.state.served.engine_for(server.state.served.resolve(None))
        yield server
    finally:
        running.close()


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, real_chat_model: Path, converted_gguf_cache: Path
) -> Iterator[RunningServer]:
    """The server of this module, serving the real SmolLM2-135M (loaded before the tests)."""
    yield from serve_loaded(
        tmp_path_factory.mktemp("served-home"), real_chat_model, converted_gguf_cache
    )


@pytest.fixture(scope="module")
def vision_server(
    tmp_path_factory: pytest.TempPathFactory, vision_model_dir: Path, converted_gguf_cache: Path
) -> Iterator[RunningServer]:
    """The server of this module, serving the tiny random LLaVA (``vlm-tiny``), loaded."""
    yield from serve_loaded(
        tmp_path_factory.mktemp("vision-home"), vision_model_dir, converted_gguf_cache
    )


def spy_on_submit(server: RunningServer, monkeypatch: pytest.MonkeyPatch) -> list[BatchRequest]:
    """The requests the real engine is given from now on."""
    engine = server.state.served.engine
    assert engine is not None
    submitted: list[BatchRequest] = []
    real: Callable[..., BatchRequest] = engine.submit

    def submit(*args: Any, **kwargs: Any) -> BatchRequest:
        request = real(*args, **kwargs)
        submitted.append(request)
        return request

    monkeypatch.setattr(engine, "submit", submit)
    return submitted


def spy_on_prompts(server: RunningServer, monkeypatch: pytest.MonkeyPatch) -> list[ChatPrompt]:
    """The prompts the real engine is given from now on."""
    engine = server.state.served.engine
    assert engine is not None
    prompts: list[ChatPrompt] = []
    real: Callable[..., Any] = engine.submit

    def submit(prompt: ChatPrompt, *args: Any, **kwargs: Any) -> Any:
        prompts.append(prompt)
        return real(prompt, *args, **kwargs)

    monkeypatch.setattr(engine, "submit", submit)
    return prompts


def post_and_hang_up(
    server: RunningServer, path: str, body: dict[str, Any], submitted: list[BatchRequest]
) -> BatchRequest:
    """POST ``body`` as JSON, wait until the engine has the request (``submitted`` is a
    :func:`spy_on_submit` list), then close the connection without reading the answer."""
    address = urlsplit(server.url)
    data = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {address.netloc}\r\n"
        f"Authorization: Bearer {server.token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    )
    with socket.create_connection((address.hostname, address.port), timeout=60) as sock:
        sock.sendall(head.encode() + data)
        wait_until(lambda: bool(submitted), "the engine to be given the request", timeout=120)
    return submitted[0]


def image_bytes(fmt: str = "PNG", size: tuple[int, int] = (64, 48)) -> bytes:
    """A small picture of random pixels, encoded as ``fmt``."""
    pixels = np.random.default_rng(1).integers(0, 255, (size[1], size[0], 3), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(buffer, format=fmt)
    return buffer.getvalue()


def bomb_png() -> bytes:
    """A PNG of 400 megapixels in a few kilobytes (a decompression bomb)."""
    buffer = io.BytesIO()
    Image.new("1", (20_000, 20_000)).save(buffer, format="PNG")
    return buffer.getvalue()
