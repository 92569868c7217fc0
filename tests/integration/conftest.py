"""A real embedded PostgreSQL for the session; a fresh database per test, from a template;
an app context whose knowledge service uses it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from app.avatar.service import AvatarService
from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.model_choices import ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.knowledge.database.embedded import EmbeddedDatabase
from app.knowledge.database.migrations import apply_migrations
from app.models.registry import ModelRegistry
from app.voice.service import VoiceService

TEMPLATE = "ov_studio_template"
CPU = DeviceInfo("CPU", "Test CPU")


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedDatabase]:
    database = EmbeddedDatabase(tmp_path_factory.mktemp("pg") / "data")
    uri = database.start()
    with psycopg.connect(uri, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {TEMPLATE}")
    with psycopg.connect(_with_db(uri, TEMPLATE), autocommit=True) as connection:
        apply_migrations(connection)
    yield database
    database.stop()


@pytest.fixture
def fresh_db(pg_server: EmbeddedDatabase) -> Iterator[str]:
    """URI of a new database with the current schema, dropped after the test."""
    yield from _scratch_database(pg_server, "t", f" TEMPLATE {TEMPLATE}")


@pytest.fixture
def latin1_db(pg_server: EmbeddedDatabase) -> Iterator[str]:
    """URI of a new, empty database whose text is LATIN1 (as some shared servers are)."""
    yield from _scratch_database(
        pg_server, "l", " ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"
    )


@pytest.fixture
def empty_db(pg_server: EmbeddedDatabase) -> Iterator[str]:
    """URI of a new database with no schema at all."""
    yield from _scratch_database(pg_server, "e", "")


def _scratch_database(server: EmbeddedDatabase, prefix: str, options: str) -> Iterator[str]:
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    uri = server.start()
    with psycopg.connect(uri, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}{options}")
    yield _with_db(uri, name)
    with psycopg.connect(uri, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _with_db(uri: str, name: str) -> str:
    # Embedded URIs look like postgresql://postgres:@/postgres?host=/path/to/socket
    head, _, query = uri.partition("?")
    base = head.rsplit("/", 1)[0]
    return f"{base}/{name}?{query}" if query else f"{base}/{name}"


@pytest.fixture
def knowledge_context(
    app_home: AppPaths, fresh_db: str, embedding_model_dir: Path
) -> Iterator[AppContext]:
    """An app context (CPU only) on a fresh database with the real MiniLM embedder; closed after."""
    context = AppContext.create(app_home, [CPU])
    context.settings.database_url = fresh_db
    context.settings.models = context.settings.models.with_folder(
        ModelTask.EMBEDDING, embedding_model_dir
    )
    yield context
    context.close()


@pytest.fixture
def media(tmp_path: Path) -> Path:
    """A folder with the astronaut (512×512 png) and 2.3 s of speech-like audio."""
    import cv2
    from skimage import data

    from tests.audio_samples import speech_like, write_clip

    folder = tmp_path / "media"
    folder.mkdir()
    cv2.imwrite(str(folder / "astronaut.png"), data.astronaut()[:, :, ::-1])
    write_clip(folder / "speech.wav", speech_like(2.3, seed=1))
    return folder


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    """An empty folder for results (nothing else may appear in it)."""
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


@pytest.fixture
def metrics() -> MetricsBus:
    """The metrics bus the services of one test publish to."""
    return MetricsBus()


@pytest.fixture
def voice_service(
    app_home: AppPaths, tts_model_dir: Path, speaker_encoder_dir: Path, metrics: MetricsBus
) -> VoiceService:
    """A voice service (CPU only) on the fixture speaker encoder and text-to-speech models."""
    folders = {ModelTask.TTS: tts_model_dir, ModelTask.SPEAKER_ENCODER: speaker_encoder_dir}
    settings = Settings(models=ModelChoices().with_folders(folders))
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    return VoiceService(app_home.voices_dir, settings, metrics, [CPU], registry)


@pytest.fixture
def kokoro_voice_service(
    app_home: AppPaths, converted_kokoro: Path, metrics: MetricsBus
) -> VoiceService:
    """A voice service (CPU only) whose text-to-speech model is the real Kokoro, converted."""
    settings = Settings(models=ModelChoices().with_folders({ModelTask.TTS: converted_kokoro}))
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    return VoiceService(app_home.voices_dir, settings, metrics, [CPU], registry)


@pytest.fixture
def avatar(app_home: AppPaths, lipsync_model_dir: Path, metrics: MetricsBus) -> AvatarService:
    """An avatar service (CPU only) on the fixture lip-sync model (and the bundled face
    detector), publishing to the test's :func:`metrics` as :func:`voice_service` does."""
    settings = Settings(models=ModelChoices().with_folder(ModelTask.LIPSYNC, lipsync_model_dir))
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    return AvatarService(app_home.avatar_dir, settings, metrics, [CPU], registry)


@pytest.fixture(scope="session")
def real_model_folder(real_chat_model: Path, converted_gguf_cache: Path) -> Path:
    """The real SmolLM2-135M converted to OpenVINO IR (its tokenizer: a 49k vocabulary), in
    the session's converted-GGUF cache."""
    from pipelines.chat import make_llm_pipeline
    from pipelines.gguf_cache import open_gguf

    opened = open_gguf(
        real_chat_model,
        converted_gguf_cache,
        lambda path, extra: make_llm_pipeline(path, "CPU", extra),
    )
    assert opened.folder is not None
    return opened.folder
