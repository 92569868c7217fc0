"""The user's settings: one typed schema with defaults, bounds and descriptions.

Saved atomically as JSON in the user config folder. A broken file is never fatal: it is
backed up, the keys that fail validation are reset to their defaults, and a notice says so.
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
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

from app.errors import StorageError
from app.storage.atomic import write_text_atomic
from app.storage.json_files import Damaged, parse_json_object
from app.storage.redaction import redacted_copy
from pipelines.chat import GenerationSettings

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 4 * 1024 * 1024
"""A settings file is a few KB; a bigger one is damage (its first 4 MB are kept aside)."""

ENV_PREFIX = "OV_STUDIO_"
PIPELINES = ("chat", "knowledge", "tts", "lipsync")
"""Pipelines that have a device choice; later panels add theirs here."""


def _no_nul(path: Path) -> Path:
    # A NUL cannot be in a file name; such a path makes every later os call raise ValueError.
    if "\x00" in str(path):
        raise ValueError("a path cannot contain a NUL character")
    return path


FilePath = Annotated[Path, AfterValidator(_no_nul)]
"""A path setting (a file or folder; whether it exists is checked where it is used)."""


class ChatDefaults(BaseModel):
    """Generation settings used for new answers."""

    max_new_tokens: int = Field(512, ge=1, le=32_768, description="Longest answer, in tokens.")
    temperature: float = Field(0.7, ge=0.0, le=2.0, description="0 = greedy, higher = varied.")
    top_p: float = Field(0.9, gt=0.0, le=1.0, description="Nucleus sampling mass.")
    top_k: int = Field(50, ge=0, le=1000, description="Sample among the k likeliest; 0 = off.")
    repetition_penalty: float = Field(1.1, ge=0.5, le=2.0, description="Above 1 avoids loops.")
    seed: int | None = Field(None, ge=0, lt=2**32, description="Fixed seed for repeatable runs.")
    system_prompt: str = Field(
        "You are a helpful assistant.",
        max_length=20_000,
        description="System prompt for new conversations.",
    )

    def generation(self) -> GenerationSettings:
        """The frozen pipeline settings these defaults describe."""
        return GenerationSettings(
            max_new_tokens=self.max_new_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            top_k=self.top_k,
            repetition_penalty=self.repetition_penalty,
            seed=self.seed,
        )


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

    chat_model: FilePath | None = Field(None, description="Folder of the chat model to load.")
    recent_models: list[FilePath] = Field(default_factory=list, description="Recently used models.")
    devices: dict[str, str] = Field(
        default_factory=lambda: {name: "AUTO" for name in PIPELINES},
        description="Device per pipeline: CPU, GPU, NPU or AUTO.",
    )
    chat: ChatDefaults = Field(default_factory=ChatDefaults)
    overlay_visible: bool = Field(False, description="Show the performance overlay.")
    embedding_model: FilePath | None = Field(
        None, description="Embedding model folder; empty = the bundled all-MiniLM-L6-v2."
    )
    reranker_model: FilePath | None = Field(
        None,
        description="Cross-encoder reranker folder (e.g. bge-reranker-base); empty = no reranking.",
    )
    tts_model: FilePath | None = Field(
        None, description="Text-to-speech model folder (SpeechT5); empty = the first installed."
    )
    speaker_encoder: FilePath | None = Field(
        None, description="Speaker encoder folder (x-vector); empty = the first installed."
    )
    voice: str = Field("", max_length=60, description="The voice chat answers are spoken in.")
    lipsync_model: FilePath | None = Field(
        None, description="Lip-sync model folder (Wav2Lip contract); empty = the first installed."
    )
    # Its own field, not a ``devices`` entry: that map starts every pipeline at AUTO (a GPU
    # when there is one), while BlazeFace's 128×128 input takes ~1 ms on CPU — too little
    # work to gain from a round trip to an accelerator, and CPU always compiles it.
    face_detector_device: str = Field(
        "CPU",
        min_length=1,
        max_length=40,
        description="Device of the lip-sync face detector: CPU, GPU, NPU or AUTO. CPU by "
        "default: the detector needs ~1 ms a frame there, less than a trip to an accelerator.",
    )
    face_image: FilePath | None = Field(None, description="The face the avatar speaks with.")
    database_url: str | None = Field(
        None,
        description="PostgreSQL connection string of a shared server; empty = embedded.",
    )
    # all-MiniLM-L6-v2 was trained on inputs of at most 128 tokens: longer chunks blur its
    # vectors and cost quadratically more attention.
    chunk_tokens: int = Field(128, ge=32, le=2048, description="Tokens per knowledge chunk.")
    chunk_overlap: int = Field(16, ge=0, le=512, description="Tokens shared by neighbours.")

    def device_for(self, pipeline: str) -> str:
        """The device chosen for ``pipeline`` (AUTO when none was chosen)."""
        return self.devices.get(pipeline, "AUTO")


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
        _values_only().model_validate(values)
    except ValidationError as error:
        message = str(error.errors(include_input=False)[0]["msg"]).removeprefix("Value error, ")
        return message[:1].lower() + message[1:]
    return ""


@functools.cache
def _values_only() -> type[BaseModel]:
    """:class:`Settings`' fields in a plain model: it validates the values it is given and
    reads no environment (``Settings.model_validate`` would, through ``__init__``)."""
    fields: dict[str, Any] = {
        name: (info.annotation, info) for name, info in Settings.model_fields.items()
    }
    return create_model("SettingsValues", __config__=ConfigDict(extra="ignore"), **fields)


@dataclass(frozen=True)
class LoadedSettings:
    """Settings plus a notice for the user when the file had to be repaired."""

    settings: Settings
    notice: str = ""


class SettingsStore:
    """Loads and saves :class:`Settings` at one path."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> LoadedSettings:
        """Read the settings file; a missing file gives defaults, a damaged one is repaired.

        Never raises for the file's content: whatever is in it (not UTF-8, not JSON, nested
        too deeply, wrong types), the app starts. The old file is kept beside it with its
        secrets removed, the repaired settings are saved (so the notice is given once), and
        the notice says where the copy is.
        """
        try:
            with self.path.open("rb") as handle:
                raw = handle.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            return LoadedSettings(Settings())
        except OSError as error:
            log.info("cannot read settings %s: %s", self.path, error)  # the notice says it
            return LoadedSettings(Settings(), f"Could not read settings ({error.strerror}).")
        too_large = Damaged(f"larger than {MAX_FILE_BYTES // 1024 // 1024} MB")
        data = too_large if len(raw) > MAX_FILE_BYTES else parse_json_object(raw)
        if isinstance(data, Damaged):
            backup = self._set_aside(raw, data.reason)
            settings = Settings()
            self._save_quietly(settings)
            return LoadedSettings(
                settings,
                f"The settings file was damaged and has been reset ({data.reason}). "
                f"A copy was kept at {backup}.",
            )
        # Underscore keys are pydantic-settings' own arguments (``_env_file``,
        # ``_cli_parse_args`` …), never settings: from a file they would steer the loader.
        data = {key: value for key, value in data.items() if not key.startswith("_")}
        settings, reset = _validate_repairing(data)
        if not reset:
            return LoadedSettings(settings)
        backup = self._set_aside(raw, f"invalid {', '.join(reset)}")
        self._save_quietly(settings)
        return LoadedSettings(
            settings,
            f"Some settings were invalid and have been reset ({', '.join(reset)}). "
            f"A copy of the old file was kept at {backup}.",
        )

    def save(self, settings: Settings) -> None:
        """Write atomically (readable by the user only).

        Raises:
            StorageError: the config folder is not writable; the old file is unchanged.
        """
        try:
            write_text_atomic(self.path, settings.model_dump_json(indent=2))
        except OSError as error:
            raise StorageError(
                f"Could not save settings to {self.path.parent}: {error.strerror or error}"
            ) from error

    def _save_quietly(self, settings: Settings) -> None:
        try:
            self.save(settings)
        except StorageError as error:
            log.warning("%s", error)

    def _set_aside(self, raw: bytes, reason: str) -> Path:
        """Keep the old content beside the file, without its passwords (0600, like the file)."""
        backup = self.path.with_name(f"{self.path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            write_text_atomic(backup, redacted_copy(raw))
        except OSError as error:
            log.warning("cannot back up broken settings to %s: %s", backup, error)
        # Info, not warning: the user is told once through the notice.
        log.info("settings file %s was %s; a copy is at %s", self.path, reason, backup)
        return backup


def _validate_repairing(data: dict[str, Any]) -> tuple[Settings, list[str]]:
    """Validate, dropping each invalid key (nested keys one level deep) until it passes."""
    reset: list[str] = []
    for _ in range(50):  # each round removes at least one key, so this always ends
        try:
            return Settings(**data), reset
        except ValidationError as error:
            for issue in error.errors():
                location = [str(part) for part in issue["loc"]]
                if not location:
                    continue
                _drop_key(data, location)
                reset.append(".".join(location[:2]))
    return Settings(), reset or ["all"]


def _drop_key(data: dict[str, Any], location: list[str]) -> None:
    top = location[0]
    nested = data.get(top)
    if len(location) > 1 and isinstance(nested, dict) and location[1] in nested:
        del nested[location[1]]
    else:
        data.pop(top, None)
