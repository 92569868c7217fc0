"""Builds the app's long-lived objects once: paths, settings, devices, metrics, services.

The CLI and the GUI both start here, so they share one behaviour. Nothing heavy happens at
import time; :meth:`AppContext.create` is where OpenVINO is first asked about devices.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from app.avatar.service import AvatarService
from app.chat.images import catalog_vision_models
from app.chat.picture_text import PictureText
from app.chat.picture_tool import PictureTool
from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.chat.structured_guard import grammar_guard
from app.core.devices import DeviceInfo, discover_devices
from app.core.errors import StorageError, UserError
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings, environment_problems
from app.core.settings_store import SettingsStore
from app.core.storage.secrets import SecretStore
from app.engines.host import EngineHost
from app.engines.remote.config import read_key, remote_chat_factory, remote_embedder_factory
from app.images.remote_factory import remote_images_factory
from app.images.service import ImageService
from app.knowledge.database.config import remember_password
from app.knowledge.service import SECRETS_FILE, KnowledgeService
from app.mcp.service import MCP_WORKDIR, ToolService
from app.models.registry import ModelRegistry
from app.speech.service import SpeechInputService
from app.voice.service import VoiceService
from pipelines.core import Closing

log = logging.getLogger(__name__)


@dataclass
class AppContext(Closing):
    """Everything a front end (GUI or CLI) needs."""

    paths: AppPaths
    settings_store: SettingsStore
    """Where every settings change goes (:meth:`SettingsStore.update`)."""
    settings: Settings
    """The live settings (``settings_store.settings``): read here, changed through the store."""
    notices: list[str]
    """Things the user should be told once at start (repaired settings, damaged files)."""
    metrics: MetricsBus
    devices: list[DeviceInfo]
    engines: EngineHost
    """Every loaded model: each service asks it for its engine, and the server shares the
    chat window's."""
    chat: ChatService
    knowledge: KnowledgeService
    """Started lazily: the database and embedder load on first use, not at app start."""
    models: ModelRegistry
    """Installed models: every model picker lists those of its task."""
    voice: VoiceService
    """Voices and speech; models load on first use."""
    avatar: AvatarService
    """Lip-synced videos and spoken answers; models load on first use."""
    speech_input: SpeechInputService
    """Speech to text (dictation, files, spoken turns); Whisper loads on first use."""
    tools: ToolService
    """The MCP servers' tools (settings' ``mcp_servers``); nothing starts until one is used."""
    images: ImageService
    """Image generation and the gallery; the model loads on first use."""
    picture_text: PictureText
    """The text in a chat attachment (OCR); the reader loads at the first picture."""

    @classmethod
    def create(
        cls, paths: AppPaths | None = None, devices: Sequence[DeviceInfo] | None = None
    ) -> AppContext:
        """Set up folders, settings and services (logging is the front end's: see
        :func:`app.core.logging_setup.configure_logging`). Close it, or use it in a ``with``.

        Raises:
            UserError: ``OV_STUDIO_HOME`` is not a usable path.
            StorageError: the app's folders cannot be created (e.g. a read-only home).
        """
        paths = paths or AppPaths.from_environment()
        paths.ensure()
        store, notice = SettingsStore.open(paths.settings_file)
        settings = store.settings
        found = list(devices) if devices is not None else discover_devices()
        log.info("started with devices %s", [d.name for d in found])
        metrics = MetricsBus()
        engines = EngineHost(found, metrics, paths.compiled_cache)
        notices = [notice] if notice else []
        secrets = SecretStore(paths.config / SECRETS_FILE)
        notices.extend(secrets.check_file())  # a damaged file is set aside before any write
        notices.extend(_move_password_out_of_settings(store, secrets))
        knowledge = KnowledgeService(
            paths,
            store,
            metrics,
            found,
            secrets,
            remote_factory=remote_embedder_factory(
                lambda: store.settings.remote_endpoints, lambda name: read_key(secrets, name)
            ),
            engines=engines,
        )
        conversations = ConversationStore(paths.conversations_dir)
        # Servers are read from the live settings at each use; stdio servers run in a folder
        # of their own, never the user's working directory.
        models = ModelRegistry(paths.model_registry, paths.models_dir)
        images = ImageService(
            settings,
            metrics,
            found,
            models,
            paths.gallery_dir,
            compiled_cache=paths.compiled_cache,
            engines=engines,
            remote_factory=remote_images_factory(
                lambda: store.settings.remote_endpoints, lambda name: read_key(secrets, name)
            ),
        )
        tools = ToolService(
            lambda: store.settings.mcp_servers,
            paths.data / MCP_WORKDIR,
            listings=paths.tool_listings,
            builtins=[PictureTool(images)],
        )
        chat = ChatService(
            conversations,
            metrics,
            found,
            compiled_cache=paths.compiled_cache,
            retriever=knowledge,
            converted_cache=paths.converted_cache,
            vision_models=catalog_vision_models,
            remote_factory=remote_chat_factory(
                lambda: store.settings.remote_endpoints, lambda name: read_key(secrets, name)
            ),
            tools=tools,
            grammar_guard=grammar_guard(paths, lambda: store.settings.json_grammar),
            engines=engines,
        )
        notices.extend(chat.storage_problems)
        notices.extend(models.check_file())
        for notice in notices:
            # Repairs (settings reset, files set aside) are said here, once: the window shows
            # them in its banner, the console handler puts each on one stderr line for the
            # command line, and the next start finds the repaired files and says nothing.
            log.warning("%s", notice)
        voice = VoiceService(
            paths.voices_dir,
            settings,
            metrics,
            found,
            models,
            compiled_cache=paths.compiled_cache,
            engines=engines,
        )
        voice.library.voices()  # reads every voice once, noting damaged ones
        # A damaged voice stays until the user deletes it, so it is not repeated on stderr by
        # every command: the window's banner says it, and the voice commands list it.
        notices.extend(voice.library.problems)
        # Ignored environment variables: the command line said them before any command ran
        # (app.cli.main), so here they go to the window's banner and the log file only.
        for problem in environment_problems():
            log.info("%s", problem)
            notices.append(problem)
        avatar = AvatarService(
            paths.avatar_dir,
            settings,
            metrics,
            found,
            models,
            scratch_dir=paths.scratch_dir,
            compiled_cache=paths.compiled_cache,
            engines=engines,
        )
        speech_input = SpeechInputService(
            settings, metrics, found, models, compiled_cache=paths.compiled_cache, engines=engines
        )
        picture_text = PictureText(paths, store, found)
        services = (chat, knowledge, models, voice, avatar, speech_input, tools, images)
        return cls(
            paths, store, settings, notices, metrics, found, engines, *services, picture_text
        )

    def close(self) -> None:
        """Release what the services hold (database connections, the embedded server)."""
        self.knowledge.close()
        self.tools.close()
        self.picture_text.close()


def _move_password_out_of_settings(store: SettingsStore, secrets: SecretStore) -> list[str]:
    """A connection string typed into the settings file (or the environment) with its password
    in it: the password moves to the secret store and the file is rewritten without it."""
    url = store.settings.database_url
    if not url:
        return []
    try:
        bare = remember_password(secrets, url)
    except StorageError as error:
        return [f"The database password could not be moved out of the settings file: {error}"]
    except UserError as error:
        return [f"The database connection string in the settings is not valid: {error}"]
    if bare == url.strip():
        return []
    try:
        store.update(database_url=bare)
    except StorageError as error:
        return [f"The database password could not be moved out of the settings file: {error}"]
    log.info("moved the database password from the settings file to %s", secrets.backend)
    return []
