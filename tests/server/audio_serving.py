"""A server for the embeddings and audio API tests: the real ``ServerRunner`` over a real
``AppContext`` whose settings (through their ``OV_STUDIO_*`` variables) point at the fixture
embedder, SpeechT5, speaker encoder and Whisper. No chat model is loaded."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import openai
import pytest

from app.context import AppContext
from app.paths import HOME_ENV, AppPaths
from app.server.build import build_server
from app.server.runner import ServerRunner
from tests.server.conftest import CPU, RunningServer


def serve_models(home: Path, environ: Mapping[str, str]) -> Iterator[RunningServer]:
    """Serve from an app home at ``home`` with ``environ`` set until the generator is closed."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(HOME_ENV, str(home))
        for name, value in environ.items():
            patch.setenv(name, value)
        paths = AppPaths.from_environment()
        paths.ensure()
        with AppContext.create(paths, devices=[CPU]) as ctx:
            app, state = build_server(ctx)
            runner = ServerRunner(app, "127.0.0.1", 0)
            address = runner.start()
            try:
                yield RunningServer(address.url, state.token, state, ctx)
            finally:
                runner.stop()
                state.served.close()


def client(server: RunningServer) -> openai.OpenAI:
    """The official client, without retries (a 429 must be seen, not waited out)."""
    return openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=120
    )
