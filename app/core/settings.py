"""The user's settings: one typed schema with defaults, bounds and descriptions.

Saved, repaired and changed through :class:`app.core.settings_store.SettingsStore`; a file an
older release wrote is moved into this shape first (:mod:`app.core.settings_migration`). The
types of the values it holds for the features (a model choice, a remote endpoint, an MCP tool
server) are core modules of their own, so the schema depends on no feature.

An ``OV_STUDIO_*`` environment variable with a value that is not valid is never fatal either:
it is ignored (the file's or the default value is used) and :func:`environment_problems` says
which, once per start. Pipelines never see this object; services turn it into frozen pipeline
configs.
"""

from __future__ import annotations

import functools
import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

from app.core.mcp_servers import McpServer, unique_names
from app.core.model_choices import ModelChoice, ModelChoices
from app.core.model_tasks import ModelTask
from app.core.remote_endpoints import RemoteEndpoint
from app.core.settings_migration import DEFAULTS_VERSION
from app.core.texts import Text, tr
from pipelines.engine_options import (
    MAX_EVICTION_CACHE_TOKENS,
    MIN_EVICTION_CACHE_TOKENS,
    EngineOptions,
    KvCachePrecision,
    Parallelism,
)
from pipelines.generation import GenerationSettings
from pipelines.model_sampling import ModelSampling

log = logging.getLogger(__name__)

ENV_PREFIX = "OV_STUDIO_"


def _no_nul(path: Path) -> Path:
    # A NUL cannot be in a file name; such a path makes every later os call raise ValueError.
    if "\x00" in str(path):
        raise ValueError("a path cannot contain a NUL character")
    return path


FilePath = Annotated[Path, AfterValidator(_no_nul)]
"""A path setting (a file or folder; whether it exists is checked where it is used)."""


class PerformanceSettings(BaseModel):
    """How the engine runs one chat model (load-time options: changing one reloads the model).

    The defaults are the measured safe choices (benchmarks/bench_engine_features.py).
    """

    kv_cache_precision: KvCachePrecision = Field(
        "default", description="KV-cache precision: the device's default, f16, u8 or u4."
    )
    prefix_caching: bool = Field(
        True, description="Reuse the cache of earlier turns (faster first token in long chats)."
    )
    cache_eviction: bool = Field(
        False, description="Bound the cache of long conversations by evicting old tokens."
    )
    eviction_cache_tokens: int = Field(
        2048,
        ge=MIN_EVICTION_CACHE_TOKENS,
        le=MAX_EVICTION_CACHE_TOKENS,
        description="Tokens the evicting cache keeps per conversation.",
    )
    prompt_lookup: bool = Field(
        False, description="Propose tokens from the prompt (faster answers that quote sources)."
    )
    draft_model: FilePath | None = Field(
        None, description="A smaller model with the same tokenizer (speculative decoding)."
    )
    sparse_attention: bool = Field(
        False, description="Sparse attention while reading long prompts (faster first token)."
    )
    weight_sparsity: bool = Field(
        False, description="Decompress sparse weights on the fly (CPUs with AMX only)."
    )
    parallelism: Parallelism = Field(
        "off",
        description="Split the model across CPU sockets or GPUs (machines with two only).",
    )

    def engine(self) -> EngineOptions:
        """The frozen pipeline options these settings describe (field for field: a setting
        without its option, or the reverse, fails here at once)."""
        return EngineOptions(**{name: getattr(self, name) for name in type(self).model_fields})


DEFAULT_SYSTEM_PROMPT: Text = tr("You are a helpful assistant.")
"""New chats' system prompt until the user writes one. Stored in English (the CLI and server's);
the window shows and sends it in the user's language (``ui.chat.chat_presets``)."""


class ChatDefaults(BaseModel):
    """Generation settings used for new answers."""

    max_new_tokens: int = Field(512, ge=1, le=32_768, description="Longest answer, in tokens.")
    temperature: float = Field(0.7, ge=0.0, le=2.0, description="0 = greedy, higher = varied.")
    top_p: float = Field(0.9, gt=0.0, le=1.0, description="Nucleus sampling mass.")
    top_k: int = Field(50, ge=0, le=1000, description="Sample among the k likeliest; 0 = off.")
    repetition_penalty: float = Field(
        1.0,
        ge=0.5,
        le=2.0,
        description="1 = off. Above 1 penalises every word already in the chat, prompt "
        "included: long answers of small models then break into glued words.",
    )
    seed: int | None = Field(None, ge=0, lt=2**32, description="Fixed seed for repeatable runs.")
    system_prompt: str = Field(
        DEFAULT_SYSTEM_PROMPT,
        max_length=20_000,
        description="System prompt for new conversations.",
    )
    answer_format: Literal["text", "json"] = Field(
        "text", description="Answer in free text, or in JSON (following json_schema if set)."
    )
    json_schema: str = Field(
        "", max_length=100_000, description="JSON schema of JSON answers (empty: any JSON)."
    )
    performance: PerformanceSettings = Field(default_factory=PerformanceSettings)

    def generation(self) -> GenerationSettings:
        """The frozen pipeline settings these defaults describe."""
        return GenerationSettings(
            max_new_tokens=self.max_new_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            top_k=self.top_k,
            repetition_penalty=self.repetition_penalty,
            seed=self.seed,
            json_schema=(self.json_schema or "{}") if self.answer_format == "json" else None,
        )


def preset_key(model: Path | str) -> str:
    """The key of a model's chat preset: its folder or ``.gguf`` file (a remote model: its
    id), as the loaded model names it."""
    return str(model)


class JsonGrammarLimits(BaseModel):
    """What the first compile of a JSON answer's grammar may cost: it is tried in a separate
    process first (:mod:`pipelines.grammar_guard`), and refused past these limits."""

    memory_mb: int = Field(
        1024, ge=16, le=65_536, description="Memory the grammar's compile may take, in MB."
    )
    cpu_seconds: int = Field(
        120, ge=1, le=3_600, description="CPU time the grammar's compile may take, in seconds."
    )


class ServerSettings(BaseModel):
    """The local OpenAI- and Ollama-compatible server."""

    host: str = Field(
        "127.0.0.1",
        max_length=255,
        description="Address to listen on; anything but loopback needs allow_lan.",
    )
    port: int = Field(8765, ge=1, le=65_535, description="TCP port of the local server.")
    allow_lan: bool = Field(
        False, description="Let other machines reach the server (an explicit opt-in)."
    )
    cors_origins: list[str] = Field(
        default_factory=list, description="Web origins allowed to call the server (none: no CORS)."
    )
    model: FilePath | None = Field(
        None, description="Chat model served when a request names none (default: the chat's)."
    )
    start_with_app: bool = Field(False, description="Start the server when the app opens.")
    no_token_on_loopback: bool = Field(False, description="Local apps need no token (loopback).")


class Settings(BaseSettings):
    """Everything the user can set. Environment variables ``OV_STUDIO_<NAME>`` override."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", extra="ignore"
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The usual sources, but only the environment variables whose values are valid."""
        usable, _ = _split_environment(os.environ)
        checked = _EnvironmentSource(settings_cls, usable)
        return init_settings, checked, dotenv_settings, file_secret_settings

    models: ModelChoices = Field(
        default_factory=ModelChoices,
        description="The model of each task (folder; empty = the task's default: the bundled "
        "embedder, no reranker, the first installed otherwise) and where it runs: on a local "
        "device (CPU, GPU, NPU or AUTO; the face detector on CPU by default) or on a remote "
        "endpoint.",
    )
    recent_models: list[FilePath] = Field(default_factory=list, description="Recently used models.")
    chat: ChatDefaults = Field(default_factory=ChatDefaults)
    chat_presets: dict[str, ChatDefaults] = Field(
        default_factory=dict,
        description="Chat defaults of one model, keyed by its folder or .gguf file "
        "(preset_key); a model without one uses chat.",
    )
    server: ServerSettings = Field(default_factory=ServerSettings)
    json_grammar: JsonGrammarLimits = Field(
        default_factory=JsonGrammarLimits,
        description="Limits of a new JSON schema's trial compile (window, CLI, server).",
    )
    remote_endpoints: list[RemoteEndpoint] = Field(
        default_factory=list,
        description="OpenAI-compatible servers chat can run on, chosen like a device "
        "(their API keys are kept in the system keyring, not here).",
    )
    mcp_servers: Annotated[list[McpServer], AfterValidator(unique_names)] = Field(
        default_factory=list,
        description="MCP tool servers chat can call (stdio programs or HTTP endpoints).",
    )
    overlay_visible: bool = Field(False, description="Show the performance overlay.")
    theme: Literal["system", "light", "dark"] = Field(
        "system", description="Colour scheme: follow the system, or always light or dark."
    )
    language: Literal["system", "en", "de", "zh_CN"] = Field(
        "system", description="Language of the window: the system's, English, German or Chinese."
    )
    voice: str = Field("", max_length=60, description="The voice chat answers are spoken in.")
    voice_speed: float = Field(
        1.0,
        ge=0.5,
        le=2.0,
        description="How fast voices speak, 0.5–2 (1: their own pace). Kokoro voices only: "
        "SpeechT5 has one pace.",
    )
    face_image: FilePath | None = Field(None, description="The face the avatar speaks with.")
    image_stages: str = Field(
        "",
        max_length=100,
        description="Each stage of the image model on its own device, e.g. "
        "text=CPU,denoise=GPU,vae=GPU (a stage left out: as AUTO places it). Empty: every "
        "stage on the image device.",
    )
    avatar_subtitles: bool = Field(
        False, description="The Avatar panel writes <video>.srt subtitles next to each video."
    )
    speech_language: str = Field(
        "auto",
        pattern=r"^(auto|[a-z]{2,3})$",
        description="Language spoken to the microphone: auto (the model detects it) or a code "
        "such as en or de. English-only models (*.en) hear English whatever is set.",
    )
    microphone: str = Field(
        "",
        max_length=200,
        description="The input device dictation listens on, by name (PortAudio's numbers "
        "change when devices come and go); empty = the system's default input.",
    )
    # 700 ms: a comma pause drops silero-vad's probability for ~130 ms, and a thinking pause
    # mid-sentence for several hundred; shorter cuts people off, longer feels slow to answer.
    end_of_turn_ms: int = Field(
        700, ge=300, le=3000, description="Silence (ms) that ends a spoken turn."
    )
    conversation_barge_in: bool = Field(
        True,
        description="In a spoken conversation, speaking during an answer interrupts it (use "
        "headphones: on loudspeakers the answer's echo would interrupt it).",
    )
    database_url: str | None = Field(
        None,
        description="PostgreSQL connection string of a shared server; empty = embedded.",
    )
    # all-MiniLM-L6-v2 was trained on inputs of at most 128 tokens: longer chunks blur its
    # vectors and cost quadratically more attention.
    chunk_tokens: int = Field(128, ge=32, le=2048, description="Tokens per knowledge chunk.")
    chunk_overlap: int = Field(16, ge=0, le=512, description="Tokens shared by neighbours.")
    # On the match people are shown (cosine; a reranker's probability), not the fused rank
    # score, which is the same for the best hit of any question. 0.3: benchmarks/
    # bench_grounding.py (off-topic best hits matched 0.14-0.23, answering passages 0.35-0.79).
    relevance_floor: float = Field(
        0.3, ge=0.0, le=1.0, description="Least match (0-1) of a passage given to the model."
    )
    ocr_device: str = Field(
        "AUTO",
        max_length=40,
        description="Where text in pictures and scanned pages is read: CPU, GPU or AUTO.",
    )
    collections_without_ocr: list[str] = Field(
        default_factory=list,
        description="Collections whose pictures and scanned pages are not read (their "
        "'Read text in images' switch is off).",
    )
    defaults_version: int = Field(
        DEFAULTS_VERSION,
        ge=1,
        description="The app's defaults and settings shape these settings were saved under "
        "(older files are updated once when read).",
    )

    def model_choice(self, task: ModelTask) -> ModelChoice:
        """The model chosen for ``task`` and where it runs: the one answer to "which model
        for task X" that every loader asks (a vision-chat model is the chat task's choice).

        Raises:
            ValueError: ``task`` is not one the settings choose a model for.
        """
        return self.models.for_task(task)

    def chat_for(
        self, model: Path | str | None, recommended: ModelSampling | None = None
    ) -> ChatDefaults:
        """The chat defaults of ``model``: its preset (the user's choices), else the global
        :attr:`chat` with the sampling the model recommends (``recommended``: its
        ``generation_config.json`` or GGUF metadata) in place of the global values."""
        if model is None:
            return self.chat
        preset = self.chat_presets.get(preset_key(model))
        if preset is not None:
            return preset
        advice = recommended.values() if recommended is not None else {}
        return self.chat.model_copy(update=advice) if advice else self.chat


def environment_problems(environ: Mapping[str, str] | None = None) -> list[str]:
    """One sentence per ``OV_STUDIO_*`` variable that is ignored because its value is invalid.

    Args:
        environ: The environment to check (default: this process's).
    """
    return _split_environment(os.environ if environ is None else environ)[1]


class _EnvironmentSource(EnvSettingsSource):
    """pydantic-settings' environment source, over the given variables instead of os.environ."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._environ = dict(environ)
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # What pydantic-settings does to os.environ, with this class's options.
        return {
            name if self.case_sensitive else name.lower(): (
                None if value == self.env_parse_none_str else value
            )
            for name, value in self._environ.items()
            if value or not self.env_ignore_empty
        }


def _split_environment(environ: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The ``OV_STUDIO_*`` variables that can be used together, and a sentence for each other.

    Variables are taken one by one (in name order), each checked together with those already
    taken, so the ones kept are always valid as a whole.
    """
    usable: dict[str, str] = {}
    problems: list[str] = []
    for name in sorted(environ):
        if not name.upper().startswith(ENV_PREFIX):
            continue
        reason = _invalid_because({**usable, name: environ[name]})
        if reason:
            problems.append(
                f"The environment variable {name} is ignored ({reason}); the saved or default "
                "value of that setting is used."
            )
        else:
            usable[name] = environ[name]
    return usable, problems


def _invalid_because(environ: Mapping[str, str]) -> str:
    """Why these variables do not make valid settings ("" when they do); never their values,
    which may be secret."""
    try:
        values = _EnvironmentSource(Settings, environ)()
    except SettingsError as error:
        if isinstance(error.__cause__, json.JSONDecodeError):
            return "its value is not valid JSON"
        return str(error)
    try:
        values_model().model_validate(values)
    except ValidationError as error:
        message = str(error.errors(include_input=False)[0]["msg"]).removeprefix("Value error, ")
        return message[:1].lower() + message[1:]
    return ""


@functools.cache
def values_model() -> type[BaseModel]:
    """:class:`Settings`' fields in a plain model: it validates the values it is given and
    reads no environment (``Settings.model_validate`` would, through ``__init__``)."""
    fields: dict[str, Any] = {
        name: (info.annotation, info) for name, info in Settings.model_fields.items()
    }
    return create_model("SettingsValues", __config__=ConfigDict(extra="ignore"), **fields)
