"""What every request passes first, over real HTTP (no chat model is needed): without the
token every route — known or not, by any method, a CORS preflight included — gets the same
401, so none can be told from another; a body over the cap is a 413 whether it announces its
length or arrives in chunks, and the connection it was sent on is closed."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.server.app import create_app
from app.server.guard import MAX_BODY_BYTES
from app.server.runner import ServerRunner
from tests.server.conftest import RunningServer, start_server

pytestmark = [pytest.mark.integration]

KNOWN = [
    "/v1/models",
    "/v1/chat/completions",
    "/v1/audio/transcriptions",
    "/api/chat",
    "/v1/messages",
    "/v1/messages/count_tokens",
]
UNKNOWN = ["/v1/nothing", "/api/nothing", "/admin", "/", "/v1/messages/nothing"]
PREFLIGHT = {"Origin": "http://site.example", "Access-Control-Request-Method": "POST"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A server without a chat model (the guard answers before any route would need one)."""
    yield from start_server(tmp_path_factory.mktemp("guard-home"), None, None)


def answer_without_token(
    url: str, method: str, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    reply = httpx.request(method, url, headers=headers, timeout=60)
    error = reply.json()["error"]
    return reply.status_code, error if isinstance(error, str) else error["message"]


def api_of(path: str) -> str:
    """Which API's error shape a path gets."""
    if path.startswith("/api/"):
        return "ollama"
    return "anthropic" if path.startswith("/v1/messages") else "openai"


@pytest.mark.parametrize(
    ("method", "headers"),
    [
        ("GET", None),
        ("POST", None),
        ("PUT", None),
        ("DELETE", None),
        ("OPTIONS", None),
        ("OPTIONS", PREFLIGHT),
    ],
    ids=["get", "post", "put", "delete", "options", "cors-preflight"],
)
def test_without_the_token_known_and_unknown_routes_answer_alike(
    server: RunningServer, method: str, headers: dict[str, str] | None
) -> None:
    # Each API answers in its own shape (its path says which), alike for all its paths.
    answers: dict[str, set[tuple[int, str]]] = {}
    for path in KNOWN + UNKNOWN:
        found = answer_without_token(server.url + path, method, headers)
        answers.setdefault(api_of(path), set()).add(found)
    assert all(len(found) == 1 for found in answers.values()), answers
    assert {status for found in answers.values() for status, _ in found} == {401}


def test_with_cors_a_preflight_is_answered_alike_for_any_route(server: RunningServer) -> None:
    app = create_app(server.state, cors_origins=["http://site.example"])
    runner = ServerRunner(app, "127.0.0.1", 0)
    url = runner.start().url
    try:
        for origin, status in (("http://site.example", 200), ("http://other.example", 400)):
            answers = set()
            for path in KNOWN + UNKNOWN:
                reply = httpx.options(url + path, headers={**PREFLIGHT, "Origin": origin})
                allowed = reply.headers.get("access-control-allow-origin")
                answers.add((reply.status_code, allowed, reply.text))
            assert len(answers) == 1, answers
            assert next(iter(answers))[0] == status
    finally:
        runner.stop()


def chunks(total: int, start: bytes, piece: int = 1024 * 1024) -> Iterator[bytes]:
    """``start``, then bytes up to ``total`` in pieces: a body sent chunked, announcing no
    length."""
    yield start
    for sent in range(len(start), total, piece):
        yield b"x" * min(piece, total - sent)


UPLOAD_START = (
    b'--x\r\nContent-Disposition: form-data; name="file"; filename="long.wav"\r\n'
    b"Content-Type: audio/wav\r\n\r\n"
)


@pytest.mark.parametrize(
    ("path", "content_type", "start"),
    [
        ("/v1/chat/completions", "application/json", b'{"messages": "'),
        ("/v1/audio/transcriptions", "multipart/form-data; boundary=x", UPLOAD_START),
        ("/api/chat", "application/json", b'{"messages": "'),
    ],
    ids=["openai-chat", "openai-upload", "ollama-chat"],
)
def test_a_chunked_body_over_the_cap_is_a_413(
    server: RunningServer, path: str, content_type: str, start: bytes
) -> None:
    headers = {**server.auth, "Content-Type": content_type}
    body = chunks(MAX_BODY_BYTES + 1, start)
    with httpx.Client(timeout=120) as client:
        reply = client.post(server.url + path, content=body, headers=headers)
    assert reply.status_code == 413, reply.text
    error = reply.json()["error"]
    message = error if path.startswith("/api/") else error["message"]
    assert message == "The request body is over the 32 MB limit."
    assert reply.headers["connection"] == "close"  # the rest of the body is not read
    assert httpx.get(f"{server.url}/v1/models", headers=server.auth).status_code == 200


def test_a_body_announced_over_the_cap_is_a_413_that_closes_the_connection(
    server: RunningServer,
) -> None:
    headers = {**server.auth, "Content-Type": "application/json"}
    with httpx.Client(timeout=120) as client:
        body = b"x" * (MAX_BODY_BYTES + 1)
        reply = client.post(f"{server.url}/v1/chat/completions", content=body, headers=headers)
    assert reply.status_code == 413
    assert reply.headers["connection"] == "close"


def test_a_body_under_the_cap_in_chunks_reaches_the_route(server: RunningServer) -> None:
    headers = {**server.auth, "Content-Type": "application/json"}
    body = iter([b'{"messages": ', b"[]}"])
    reply = httpx.post(f"{server.url}/v1/chat/completions", content=body, headers=headers)
    assert reply.status_code == 400 and "messages" in reply.json()["error"]["message"]


def test_a_wrong_token_is_refused_and_the_connection_closed(server: RunningServer) -> None:
    reply = httpx.post(
        f"{server.url}/v1/chat/completions",
        json={"messages": []},
        headers={"Authorization": "Bearer not-the-token"},
    )
    assert reply.status_code == 401
    assert reply.json()["error"]["message"] == "The token is not valid for this server."
    assert reply.headers["connection"] == "close"  # its body is never read


def test_the_token_as_x_api_key_is_taken_as_anthropics_clients_send_it(
    server: RunningServer,
) -> None:
    assert httpx.get(f"{server.url}/v1/models", headers={"x-api-key": server.token}).is_success
    refused = httpx.get(f"{server.url}/v1/models", headers={"x-api-key": "not-the-token"})
    assert refused.status_code == 401
    assert refused.json()["error"]["message"] == "The token is not valid for this server."
