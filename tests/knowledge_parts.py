"""The knowledge service's collaborators wired by hand, to test each one without the service."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.devices import DeviceInfo
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.core.settings_store import SettingsStore
from app.core.storage.secrets import SecretStore
from app.engines.host import EngineHost
from app.engines.slots import BusyLock
from app.knowledge.collections import Collections
from app.knowledge.database.knowledge_db import KnowledgeDatabase
from app.knowledge.ingest import Ingest
from app.knowledge.knowledge_models import KnowledgeModels
from app.knowledge.search import Search
from app.knowledge.service import SECRETS_FILE

CPU = DeviceInfo("CPU", "Test CPU")


@dataclass
class KnowledgeParts:
    """Each collaborator, the busy lock they share, and what they publish to and load with."""

    settings: SettingsStore
    metrics: MetricsBus
    engines: EngineHost
    busy: BusyLock
    database: KnowledgeDatabase
    models: KnowledgeModels
    collections: Collections
    ingest: Ingest
    search: Search


def knowledge_parts(
    paths: AppPaths, *, database_url: str | None = None, embedder: Path | None = None
) -> KnowledgeParts:
    """The collaborators on ``database_url`` (None: the embedded one) embedding with the model
    in ``embedder`` (None: the bundled one), on the CPU."""
    settings = SettingsStore(paths.settings_file, Settings(database_url=database_url))
    if embedder is not None:
        settings.settings.models = settings.settings.models.with_folder(
            ModelTask.EMBEDDING, embedder
        )
    metrics = MetricsBus()
    engines = EngineHost([CPU], metrics, paths.compiled_cache)
    busy = BusyLock()
    database = KnowledgeDatabase(paths, settings, SecretStore(paths.config / SECRETS_FILE))
    models = KnowledgeModels(paths, settings, engines, busy)
    collections = Collections(database, models, busy)
    return KnowledgeParts(
        settings,
        metrics,
        engines,
        busy,
        database,
        models,
        collections,
        Ingest(database, collections, models, busy, metrics),
        Search(database, collections, models),
    )
