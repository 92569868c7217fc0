"""Remote engines against the app's own server on loopback: the model list, a streamed answer
through ChatService on a ``REMOTE:<name>`` device, cancelling mid-answer, and one sentence for
a wrong key, an unknown model, a closed port and a server that never answers."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.errors import UserError
from app.core.performance.metrics import MetricsBus
from app.core.remote_endpoints import RemoteEndpoint, device_value
from app.engines.remote import endpoints
from app.engines.remote.config import remote_chat_factory
from app.engines.remote.endpoints import explain, list_models, make_client, test_connection
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings
from tests.server.conftest import CPU, RunningServer
from tests.waiting import wait_until

pytestmark = [pytest.mark.integration]

GREEDY = GenerationSettings(max_new_tokens=24, temperature=0.0)


def endpoint_of(server: RunningServer, name: str = "loop") -> RemoteEndpoint:
    return RemoteEndpoint(name=name, base_url=server.openai_url)


def served_id(server: RunningServer) -> str:
    return server.state.served.resolve(None).id


def chat_service(tmp_path: Path, endpoint: RemoteEndpoint, key: str) -> ChatService:
    return ChatService(
        ConversationStore(tmp_path / "conversations"),
        MetricsBus(),
        [CPU],
        remote_factory=remote_chat_factory(lambda: [endpoint], lambda name: key),
    )


@pytest.fixture
def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port  # closed: connecting is refused


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port whose socket accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield sock.getsockname()[1]


def test_the_model_list_names_the_served_model(server: RunningServer) -> None:
    models = list_models(endpoint_of(server), server.token)
    assert [model.id for model in models] == [served_id(server)]
    sentence = test_connection(endpoint_of(server), server.token)
    assert sentence.startswith("Connected") and served_id(server) in sentence


def test_a_streamed_answer_through_chat_service(server: RunningServer, tmp_path: Path) -> None:
    service = chat_service(tmp_path, endpoint_of(server), server.token)
    loaded = service.load_model(served_id(server), device_value("loop"))
    assert loaded.device == "Remote: loop" and loaded.remote_model == served_id(server)
    conversation = service.new_conversation("")
    pieces: list[str] = []
    answer = service.ask(
        conversation.id, "What is the capital of France?", GREEDY, CancelToken(), pieces.append
    )
    assert "Paris" in answer.message.content
    assert "".join(pieces) == answer.message.content
    assert answer.message.device == "Remote: loop"
    figures = answer.message.metrics
    assert figures["ttft_ms"] > 0 and figures["tokens_per_s"] > 0
    assert 1 <= figures["output_tokens"] <= GREEDY.max_new_tokens  # the server's usage count
    assert figures["input_tokens"] > 5
    assert answer.saved and not answer.message.stopped


def test_a_remote_answer_cut_at_its_limit_says_so_but_cannot_go_on(
    server: RunningServer, tmp_path: Path
) -> None:
    service = chat_service(tmp_path, endpoint_of(server), server.token)
    service.load_model(served_id(server), device_value("loop"))
    conversation = service.new_conversation("")
    short = GenerationSettings(max_new_tokens=4, temperature=0.0)
    answer = service.ask(
        conversation.id, "Write a long story about a dragon.", short, CancelToken(), len
    )
    assert answer.cut  # the server's finish reason "length"
    assert not service.can_continue()
    with pytest.raises(UserError, match="cannot go on from where an answer stopped"):
        service.continue_answer(conversation.id, short, CancelToken(), lambda _: None)


def test_cancelling_mid_answer_frees_the_remote_slot(server: RunningServer, tmp_path: Path) -> None:
    service = chat_service(tmp_path, endpoint_of(server), server.token)
    service.load_model(served_id(server), device_value("loop"))
    conversation = service.new_conversation("")
    cancel = CancelToken()
    pieces: list[str] = []

    def on_text(text: str) -> None:
        pieces.append(text)
        if len(pieces) == 2:
            cancel.cancel()

    long = GenerationSettings(max_new_tokens=400, temperature=0.0, ignore_eos=True)
    answer = service.ask(conversation.id, "Count from one to a thousand.", long, cancel, on_text)
    assert answer.message.stopped
    assert len(pieces) == 2 and answer.message.content == "".join(pieces)
    engine = server.state.served.engine_for(server.state.served.resolve(None))
    wait_until(lambda: engine.active == 0, timeout=30, what="the server to end the request")


def test_a_wrong_key_says_so(server: RunningServer, tmp_path: Path) -> None:
    sentence = test_connection(endpoint_of(server), "not-the-token")
    assert "refused the API key (401)" in sentence
    service = chat_service(tmp_path, endpoint_of(server), "not-the-token")
    with pytest.raises(UserError, match=r"refused the API key \(401\)") as raised:
        service.load_model(served_id(server), device_value("loop"))
    assert raised.value.field == "device"
    assert service.loaded_model is None


def test_an_unknown_model_says_so(server: RunningServer, tmp_path: Path) -> None:
    service = chat_service(tmp_path, endpoint_of(server), server.token)
    with pytest.raises(UserError, match="has no model called “no-such-model”") as raised:
        service.load_model("no-such-model", device_value("loop"))
    assert raised.value.field == "model" and served_id(server) in str(raised.value)
    # A model that vanished after loading: the server's own 404 gets the same kind of sentence.
    with make_client(endpoint_of(server), server.token) as client:
        try:
            client.chat.completions.create(
                model="no-such-model", messages=[{"role": "user", "content": "Hi"}]
            )
        except Exception as error:  # noqa: BLE001 - the sentence is what is checked
            sentence = explain(error, endpoint_of(server), "no-such-model")
        else:
            pytest.fail("the server answered for a model it does not have")
    assert sentence.endswith("has no model called “no-such-model”: choose one from its model list.")


def test_a_wrong_path_is_not_an_openai_api(server: RunningServer) -> None:
    wrong = RemoteEndpoint(name="loop", base_url=server.url + "/nothing-here")
    assert "does not answer as an OpenAI-compatible API" in test_connection(wrong, server.token)


def test_a_closed_port_is_unreachable(closed_port: int, tmp_path: Path) -> None:
    endpoint = RemoteEndpoint(name="gone", base_url=f"http://127.0.0.1:{closed_port}/v1")
    sentence = test_connection(endpoint, "")
    assert sentence == (
        f"Cannot reach 127.0.0.1:{closed_port}: is the endpoint running, and is the address right?"
    )
    service = chat_service(tmp_path, endpoint, "")
    with pytest.raises(UserError, match="Cannot reach"):
        service.load_model("any", device_value("gone"))


def test_a_server_that_never_answers_times_out(
    silent_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(endpoints, "READ_TIMEOUT_S", 0.5)  # the real 60 s, shortened
    endpoint = RemoteEndpoint(name="stuck", base_url=f"http://127.0.0.1:{silent_port}/v1")
    sentence = test_connection(endpoint, "")
    assert sentence.startswith(f"127.0.0.1:{silent_port} did not answer in time")


def test_an_unknown_endpoint_name_is_refused(server: RunningServer, tmp_path: Path) -> None:
    service = chat_service(tmp_path, endpoint_of(server), server.token)
    with pytest.raises(UserError, match="no remote endpoint called “elsewhere”") as raised:
        service.load_model(served_id(server), device_value("elsewhere"))
    assert raised.value.field == "device"
