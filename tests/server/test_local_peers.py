"""The opt-in "apps on this computer need no token": off by default; on, it lets in programs
on this computer over a loopback-only server — the real ``ollama`` and ``openai`` packages
without the token — and nobody else: not another machine (a peer address the ASGI client
makes up), not a server listening on every address, not a web page (DNS rebinding's ``Host``,
a cross-site ``Origin``), whatever ``X-Forwarded-For`` claims."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator

import httpx
import ollama
import openai
import pytest

from app.server.app import create_app
from app.server.local_peers import host_name
from app.server.runner import ServerRunner
from app.server.state import ServerState
from tests.server.conftest import RunningServer, start_server

pytestmark = [pytest.mark.integration]

ALLOWED_PAGE = "http://localhost:3000"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A server without a chat model (the guard answers before any route would need one),
    the no-token option off, as by default."""
    yield from start_server(tmp_path_factory.mktemp("local-peers-home"), None, None)


@pytest.fixture
def opted_in(server: RunningServer) -> Iterator[str]:
    """The URL of the same server's app with the option on, on a loopback port of its own."""
    state = dataclasses.replace(server.state, no_token_on_loopback=True)
    runner = ServerRunner(create_app(state, cors_origins=[ALLOWED_PAGE]), "127.0.0.1", 0)
    url = runner.start().url
    try:
        yield url
    finally:
        runner.stop()


def test_by_default_the_ollama_package_without_a_token_is_refused(server: RunningServer) -> None:
    assert not server.ctx.settings.server.no_token_on_loopback
    assert server.state.bound_to_loopback  # so only the option is missing
    with pytest.raises(ollama.ResponseError) as refused:
        ollama.Client(host=server.url).list()
    assert refused.value.status_code == 401


def test_opted_in_the_ollama_and_openai_packages_need_no_token(opted_in: str) -> None:
    assert ollama.Client(host=opted_in).list().models == []
    assert ollama.Client(host=opted_in).ps().models == []
    # OpenAI clients must send some key: whatever it is, it is not checked.
    models = openai.OpenAI(base_url=f"{opted_in}/v1", api_key="none", max_retries=0).models
    assert list(models.list()) == []


def test_a_request_naming_another_host_is_refused_dns_rebinding(opted_in: str) -> None:
    # A page on evil.example whose name now points at 127.0.0.1 sends Host: evil.example.
    reply = httpx.get(f"{opted_in}/api/tags", headers={"Host": "evil.example:11434"})
    assert reply.status_code == 401
    for host in ("localhost:1", "127.0.0.1", "[::1]:8765"):
        assert httpx.get(f"{opted_in}/api/tags", headers={"Host": host}).status_code == 200


def test_a_web_page_not_allowed_is_refused(opted_in: str) -> None:
    # A browser names the page calling: a form post from any site needs no preflight.
    refused = httpx.post(
        f"{opted_in}/api/show",
        content='{"model": "x"}',
        headers={"Origin": "http://evil.example", "Content-Type": "text/plain"},
    )
    assert refused.status_code == 401
    allowed = httpx.get(f"{opted_in}/api/tags", headers={"Origin": ALLOWED_PAGE})
    assert allowed.status_code == 200


def test_only_the_socket_peer_counts_not_forwarded_headers(opted_in: str) -> None:
    # A loopback peer is let in whatever address a header claims: it is never read (with
    # uvicorn's proxy headers on, the claimed address would replace the peer's).
    reply = httpx.get(f"{opted_in}/api/tags", headers={"X-Forwarded-For": "203.0.113.9"})
    assert reply.status_code == 200


def asgi_status(state: ServerState, peer: str, headers: dict[str, str] | None = None) -> int:
    """The status of ``GET /api/tags`` from ``peer`` through the ASGI app (no socket)."""

    async def get() -> int:
        transport = httpx.ASGITransport(create_app(state), client=(peer, 50_000))
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
            return (await http.get("/api/tags", headers=headers)).status_code

    return asyncio.run(get())


def test_another_machine_still_needs_the_token(server: RunningServer) -> None:
    state = dataclasses.replace(server.state, no_token_on_loopback=True, bound_to_loopback=True)
    assert asgi_status(state, "127.0.0.1") == 200
    assert asgi_status(state, "::1") == 200
    assert asgi_status(state, "192.168.1.20") == 401
    assert asgi_status(state, "192.168.1.20", {"X-Forwarded-For": "127.0.0.1"}) == 401
    token = {"Authorization": f"Bearer {server.token}"}
    assert asgi_status(state, "192.168.1.20", token) == 200


def test_a_server_listening_on_every_address_needs_the_token_from_everyone(
    server: RunningServer,
) -> None:
    state = dataclasses.replace(server.state, no_token_on_loopback=True)
    runner = ServerRunner(create_app(state), "0.0.0.0", 0, allow_lan=True)
    port = runner.start().port
    try:
        assert not state.bound_to_loopback
        reply = httpx.get(f"http://127.0.0.1:{port}/api/tags")
        assert reply.status_code == 401
    finally:
        runner.stop()


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("localhost:8765", "localhost"),
        ("127.0.0.1", "127.0.0.1"),
        ("[::1]:8765", "::1"),
        ("[::1]", "::1"),
        ("evil.example:80", "evil.example"),
        ("", ""),
    ],
)
def test_the_name_in_a_host_header(header: str, name: str) -> None:
    assert host_name(header) == name
