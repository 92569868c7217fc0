"""The user's settings: one typed schema with defaults, bounds and descriptions.

Saved atomically as JSON in the user config folder. A broken file is never fatal: it is
backed up, the keys that fail validation are reset to their defaults, and a notice says so.
Pipelines never see this object; services turn it into frozen pipeline configs.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.atomic import write_text_atomic
from app.errors import StorageError
from pipelines.chat import GenerationSettings

log = logging.getLogger(__name__)

PIPELINES = ("chat", "knowledge", "tts", "lipsync")
"""Pipelines that have a device choice; later panels add theirs here."""


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
        env_prefix="OV_STUDIO_", env_nested_delimiter="__", extra="ignore"
    )

    chat_model: Path | None = Field(None, description="Folder of the chat model to load.")
    recent_models: list[Path] = Field(default_factory=list, description="Recently used models.")
    devices: dict[str, str] = Field(
        default_factory=lambda: {name: "AUTO" for name in PIPELINES},
        description="Device per pipeline: CPU, GPU, NPU or AUTO.",
    )
    chat: ChatDefaults = Field(default_factory=ChatDefaults)
    overlay_visible: bool = Field(False, description="Show the performance overlay.")
    embedding_model: Path | None = Field(
        None, description="Embedding model folder; empty = the bundled all-MiniLM-L6-v2."
    )
    reranker_model: Path | None = Field(
        None,
        description="Cross-encoder reranker folder (e.g. bge-reranker-base); empty = no reranking.",
    )
    tts_model: Path | None = Field(
        None, description="Text-to-speech model folder (SpeechT5); empty = the first installed."
    )
    speaker_encoder: Path | None = Field(
        None, description="Speaker encoder folder (x-vector); empty = the first installed."
    )
    voice: str = Field("", max_length=60, description="The voice chat answers are spoken in.")
    lipsync_model: Path | None = Field(
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
    face_image: Path | None = Field(None, description="The face the avatar speaks with.")
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
        """Read the settings file; a missing file gives defaults, a broken one is repaired."""
        if not self.path.exists():
            return LoadedSettings(Settings())
        try:
            raw = self.path.read_text(encoding="utf-8")
        except OSError as error:
            log.warning("cannot read settings %s: %s", self.path, error)
            return LoadedSettings(Settings(), f"Could not read settings ({error.strerror}).")
        try:
            data = json.loads(raw)
            if not isinstance(data, dict):
                raise ValueError("settings must be a JSON object")
        except ValueError:
            backup = self._backup(raw)
            return LoadedSettings(
                Settings(),
                f"The settings file was damaged and has been reset. A copy was kept at {backup}.",
            )
        settings, reset = _validate_repairing(data)
        if not reset:
            return LoadedSettings(settings)
        backup = self._backup(raw)
        self._save_quietly(settings)
        return LoadedSettings(
            settings,
            f"Some settings were invalid and have been reset ({', '.join(reset)}). "
            f"A copy of the old file was kept at {backup}.",
        )

    def save(self, settings: Settings) -> None:
        """Write atomically.

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

    def _backup(self, raw: str) -> Path:
        backup = self.path.with_name(f"{self.path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            write_text_atomic(backup, raw)
        except OSError as error:
            log.warning("cannot back up broken settings to %s: %s", backup, error)
        log.warning("settings file %s was invalid; backup at %s", self.path, backup)
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
