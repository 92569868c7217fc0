"""Knowledge on a remote embedder: the app's own server on loopback answers ``/v1/embeddings``
with the real all-MiniLM-L6-v2, and a KnowledgeService whose knowledge device is
``REMOTE:<name>`` ingests into and searches a real embedded PostgreSQL through it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from app.core.errors import RemoteError, UserError
from app.core.model_choices import placement_of
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.remote_endpoints import RemoteEndpoint, device_value
from app.core.settings_store import SettingsStore
from app.engines.remote.config import remote_embedder_factory
from app.engines.remote.embeddings import MAX_BATCH, RemoteEmbedder
from app.knowledge.service import KnowledgeService
from pipelines.embeddings import model_id
from tests.app_process import models_env
from tests.integration.conftest import fresh_db, pg_server
from tests.server.audio_serving import serve_models
from tests.server.conftest import CPU, RunningServer

pytestmark = [pytest.mark.integration]
__all__ = ["fresh_db", "pg_server"]  # the real embedded PostgreSQL, a fresh database a test


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, embedding_model_dir: Path
) -> Iterator[RunningServer]:
    running = serve_models(
        tmp_path_factory.mktemp("remote-embed-home"), models_env(embedding=embedding_model_dir)
    )
    yield next(running)
    running.close()


def endpoint_of(server: RunningServer, model: str = "") -> RemoteEndpoint:
    served = model_id(server.ctx.knowledge.embedder_folder())
    return RemoteEndpoint(name="loop", base_url=server.openai_url, model=model or served)


def knowledge(
    home: AppPaths, database: str, folder: Path, endpoint: RemoteEndpoint, key: str
) -> tuple[KnowledgeService, SettingsStore]:
    """A service on ``database`` whose knowledge device is the remote ``endpoint``; ``folder``
    is the local embedder (its tokenizer chunks, and it embeds when the device is local)."""
    store = SettingsStore(home.settings_file)
    store.settings.database_url = database
    store.settings.models = store.settings.models.with_folder(ModelTask.EMBEDDING, folder)
    store.settings.models = store.settings.models.with_placement(
        ModelTask.EMBEDDING, placement_of(device_value(endpoint.name))
    )
    factory = remote_embedder_factory(lambda: [endpoint], lambda name: key)
    return KnowledgeService(home, store, MetricsBus(), [CPU], remote_factory=factory), store


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "trams.txt").write_text("Lisbon's yellow trams climb steep hills.", encoding="utf-8")
    (folder / "bread.md").write_text("# Baking\n\nSourdough bread needs a starter and time.")
    return folder


def test_remote_vectors_equal_the_local_embedders(server: RunningServer) -> None:
    remote = RemoteEmbedder(endpoint_of(server), server.token, endpoint_of(server).model)
    remote.load()
    texts = ["A cat sits on the mat.", "Stock markets fell today.", "Über Brücken gehen."]
    local = server.ctx.knowledge.embedder()
    assert remote.dim == local.dim == 384
    np.testing.assert_allclose(
        remote.embed_documents(texts), local.embed_documents(texts), atol=1e-5
    )
    np.testing.assert_allclose(
        remote.embed_query("trams in Lisbon"), local.embed_query("trams in Lisbon"), atol=1e-5
    )
    assert remote.identity == f"remote:{server.openai_url}#{remote.model}"
    remote.close()


def test_more_texts_than_a_batch_go_in_several_requests(server: RunningServer) -> None:
    remote = RemoteEmbedder(endpoint_of(server), server.token, endpoint_of(server).model)
    remote.load()
    before = server.state.requests
    vectors = remote.embed_documents([f"note {i}" for i in range(MAX_BATCH + 3)])
    assert server.state.requests - before == 2
    assert vectors.shape == (MAX_BATCH + 3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    remote.close()


def test_ingest_and_search_through_the_remote_embedder(
    server: RunningServer,
    app_home: AppPaths,
    fresh_db: str,
    embedding_model_dir: Path,
    corpus: Path,
) -> None:
    endpoint = endpoint_of(server)
    service, _ = knowledge(app_home, fresh_db, embedding_model_dir, endpoint, server.token)
    try:
        before = server.state.requests
        report = service.ingest("Docs", [corpus])
        assert sorted(Path(p).name for p in report.added) == ["bread.md", "trams.txt"]
        assert server.state.requests > before  # the vectors came from the server
        [collection] = service.collections()
        assert collection.embedding_model == f"remote:{server.openai_url}#{endpoint.model}"
        assert collection.dim == 384
        [hit] = service.search("Docs", "how do I bake bread?", k=1)
        assert Path(hit.path).name == "bread.md"
        assert service.active_embedder().device == "Remote: loop"
    finally:
        service.close()


def test_a_wrong_key_is_the_401_sentence(server: RunningServer, app_home: AppPaths) -> None:
    endpoint = endpoint_of(server)
    service, _ = knowledge(app_home, "", Path("unused"), endpoint, "wrong-key")
    with pytest.raises(RemoteError) as raised:
        service.active_embedder()
    host = server.openai_url.split("//", 1)[1].split("/", 1)[0]
    assert str(raised.value) == (
        f"{host} refused the API key (401): enter the key the endpoint expects."
    )
    assert raised.value.field == "device"


def test_an_unknown_model_is_the_404_sentence(server: RunningServer) -> None:
    remote = RemoteEmbedder(endpoint_of(server, "no-such-model"), server.token, "no-such-model")
    with pytest.raises(RemoteError, match="has no model called “no-such-model”"):
        remote.load()


def test_a_locally_made_collection_refuses_the_remote_embedder(
    server: RunningServer,
    app_home: AppPaths,
    fresh_db: str,
    embedding_model_dir: Path,
    corpus: Path,
) -> None:
    endpoint = endpoint_of(server)
    service, store = knowledge(app_home, fresh_db, embedding_model_dir, endpoint, server.token)
    try:
        store.settings.models = store.settings.models.with_placement(
            ModelTask.EMBEDDING, placement_of("AUTO")
        )  # the local embedder makes it
        service.ingest("Local", [corpus])
        local_id = model_id(embedding_model_dir)
        store.settings.models = store.settings.models.with_placement(
            ModelTask.EMBEDDING, placement_of(device_value("loop"))
        )
        expected = (
            f"“Local” was indexed with {local_id} (384-d) but the embedding model is now "
            f"remote:{server.openai_url}#{endpoint.model}. "
            "Re-index the collection to search it with this model."
        )
        with pytest.raises(UserError) as searching:
            service.search("Local", "bread", k=1)
        assert str(searching.value) == expected
        with pytest.raises(UserError) as adding:
            service.ingest("Local", [corpus])
        assert str(adding.value) == expected
    finally:
        service.close()
