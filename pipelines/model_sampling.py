"""The sampling a model's makers recommend: from an OpenVINO folder's ``generation_config.json``
(Hugging Face's file, which optimum-intel copies next to the model) or a GGUF file's
``general.sampling.*`` metadata (written by llama.cpp's converter since 2025).

Only values that mean the same under OpenVINO GenAI are taken: GenAI applies
``repetition_penalty`` to every token of the prompt and the answer, as Hugging Face does, so
``generation_config.json``'s value is kept; llama.cpp applies its ``penalty_repeat`` to the last
``penalty_last_n`` tokens only (64 unless the file says otherwise), so a GGUF's value is kept only
when it covers the whole context (``penalty_last_n`` −1). Values outside the app's bounds are
dropped, never clamped: a clamped value is one nobody recommended.

REPL use::

    sampling_from_folder(Path("models/Qwen3-4B-int4-ov")).values()
    # {'temperature': 0.6, 'top_p': 0.95, 'top_k': 20}
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

GENERATION_CONFIG = "generation_config.json"
MAX_CONFIG_BYTES = 1024 * 1024
"""A generation config is a few hundred bytes; a bigger file is not one (never read whole)."""

_BOUNDS: dict[str, tuple[float, float]] = {
    "temperature": (0.0, 2.0),
    "top_p": (1e-6, 1.0),
    "top_k": (0, 1000),
    "repetition_penalty": (0.5, 2.0),
}
"""What :class:`pipelines.generation.GenerationSettings` accepts (top_p must be above 0)."""

_GGUF_KEYS = {
    "temperature": "general.sampling.temp",
    "top_p": "general.sampling.top_p",
    "top_k": "general.sampling.top_k",
    "repetition_penalty": "general.sampling.penalty_repeat",
}
_GGUF_PENALTY_WINDOW = "general.sampling.penalty_last_n"
_WHOLE_CONTEXT = -1
"""llama.cpp's ``penalty_last_n`` for "every token of the context" (GenAI's only way)."""


@dataclass(frozen=True)
class ModelSampling:
    """Sampling values a model recommends; None where it recommends nothing."""

    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    repetition_penalty: float | None = None

    def values(self) -> dict[str, float | int]:
        """The recommended values by setting name (only those the model gives)."""
        given = {f.name: getattr(self, f.name) for f in fields(self)}
        return {name: value for name, value in given.items() if value is not None}

    def to_dict(self) -> dict[str, float | int]:
        """JSON-ready (the GGUF metadata cache keeps it)."""
        return self.values()

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> ModelSampling:
        """The recommendation in ``values`` (setting name → number); names it does not know,
        values that are not numbers or lie outside the app's bounds are left out."""
        kept: dict[str, Any] = {}
        for name, (low, high) in _BOUNDS.items():
            value = values.get(name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            if not math.isfinite(value) or not low <= value <= high:
                log.info("recommended %s %r is outside %s–%s: not used", name, value, low, high)
                continue
            if name == "top_k":
                if value != int(value):
                    continue
                kept[name] = int(value)
            else:
                kept[name] = round(float(value), 4)  # GGUF stores f32: 0.6 reads 0.6000000238
        return cls(**kept)


def sampling_from_generation_config(config: Mapping[str, Any]) -> ModelSampling:
    """The recommendation of a parsed ``generation_config.json``.

    ``do_sample: false`` is the makers saying "greedy" (Hugging Face then ignores the
    temperature): it reads as temperature 0. An absent ``do_sample`` says nothing; the values
    given are taken as they are.
    """
    values = {name: config.get(name) for name in _BOUNDS}
    if config.get("do_sample") is False:
        values["temperature"] = 0.0
    return ModelSampling.from_values(values)


def sampling_from_folder(folder: Path) -> ModelSampling:
    """The recommendation of the OpenVINO model folder ``folder`` (none without a readable
    ``generation_config.json``: a model without one is normal, never an error)."""
    path = folder / GENERATION_CONFIG
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_CONFIG_BYTES + 1)
    except OSError:
        return ModelSampling()
    if len(raw) > MAX_CONFIG_BYTES:
        log.info("%s is over %d bytes: not read", path, MAX_CONFIG_BYTES)
        return ModelSampling()
    try:
        config = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as error:
        log.info("%s is not JSON (%s): no recommended sampling", path, error)
        return ModelSampling()
    return sampling_from_generation_config(config) if isinstance(config, dict) else ModelSampling()


def sampling_from_gguf(fields_: Mapping[str, Any]) -> ModelSampling:
    """The recommendation in a GGUF file's metadata (``gguf.GGUFReader.fields``)."""
    values: dict[str, Any] = {}
    for name, key in _GGUF_KEYS.items():
        field = fields_.get(key)
        if field is not None:
            values[name] = _scalar(field)
    window = fields_.get(_GGUF_PENALTY_WINDOW)
    if "repetition_penalty" in values and (window is None or _scalar(window) != _WHOLE_CONTEXT):
        # llama.cpp penalises the last n tokens (64 by default); GenAI would penalise every
        # token of prompt and answer, which breaks long answers of small models into glued
        # words: not the same recommendation, so not taken.
        del values["repetition_penalty"]
    return ModelSampling.from_values(values)


def _scalar(field: Any) -> Any:
    """A GGUF field's single value (None for arrays and strings)."""
    try:
        value = field.contents()
    except (IndexError, ValueError, TypeError):
        return None
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None
