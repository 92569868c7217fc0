"""A server for the embeddings and audio API tests: the real ``ServerRunner`` over a real
``AppContext`` whose settings (through their ``OV_STUDIO_*`` variables) point at the fixture
embedder, SpeechT5, speaker encoder and Whisper. No chat model is loaded."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import openai

from tests.server.conftest import RunningServer, start_server


def serve_models(home: Path, environ: Mapping[str, str]) -> Iterator[RunningServer]:
    """Serve from an app home at ``home`` with ``environ`` set until the generator is closed."""
    return start_server(home, None, None, environ)


def client(server: RunningServer) -> openai.OpenAI:
    """The official client, without retries (a 429 must be seen, not waited out)."""
    return openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=120
    )
