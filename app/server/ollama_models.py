"""Ollama's model routes: ``/api/version``, ``/api/tags``, ``/api/show``, ``/api/ps``, and a
clear refusal for the routes that manage models (pull, push, create, copy, delete, blobs).

Fields follow https://github.com/ollama/ollama/blob/main/docs/api.md. Models are named with
Ollama's tag (``smollm2-135m-instruct:latest``); the tag is ignored when a request names one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
from fastapi import APIRouter, Request

from app.chat import Completion, is_gguf_path, is_vision_folder, read_gguf_info
from app.core import app_version
from app.models import folder_size
from app.server.errors import ApiError
from app.server.ollama_schema import ShowRequest
from app.server.schema import TextRoute
from app.server.served_models import ServedModel
from app.server.state import state_of
from pipelines.core import InvalidInputError

router = APIRouter(prefix="/api", route_class=TextRoute)

#: What a request for a route that manages models is told.
MANAGED_ELSEWHERE = "Models are added in OV Studio's model manager."


@dataclass(frozen=True)
class ModelFacts:
    """What Ollama's model lists say about a model, read once per file version."""

    format: str
    """``gguf`` or ``openvino``."""
    family: str
    parameter_size: str
    """``134.52M``, as Ollama writes it; empty when the file does not say."""
    parameters: int
    quantization_level: str
    size: int
    context_length: int


def ollama_name(model: ServedModel) -> str:
    """The model's name with Ollama's tag."""
    return f"{model.id}:latest"


def digest(model: ServedModel) -> str:
    """A stable digest for the model. Ollama's is the sha256 of its manifest; we have none,
    so this is the sha256 of the model's id (stable across restarts, unique per model)."""
    return hashlib.sha256(model.id.encode()).hexdigest()


def iso(timestamp: float) -> str:
    """A Unix time as the ISO 8601 Ollama's clients parse (UTC)."""
    return datetime.fromtimestamp(timestamp, UTC).isoformat().replace("+00:00", "Z")


def now_iso() -> str:
    """The current time as Ollama's ``created_at``."""
    return iso(time.time())


def facts(model: ServedModel) -> ModelFacts:
    """The model's format, family, size and quantization (cached per file and mtime)."""
    try:
        stamp = model.path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    found = _facts(model.path, stamp)
    return ModelFacts(
        found.format,
        found.family or model.family,
        found.parameter_size,
        found.parameters,
        found.quantization_level or model.quantization,
        found.size or model.size_bytes,
        found.context_length,
    )


@functools.lru_cache(maxsize=64)
def _facts(path: Path, _stamp: int) -> ModelFacts:
    if is_gguf_path(path):
        try:
            info = read_gguf_info(path)
        except InvalidInputError:  # a damaged file: listed with what we know
            return ModelFacts("gguf", "", "", 0, "", 0, 0)
        return ModelFacts(
            "gguf",
            info.architecture,
            parameter_size(info.parameters),
            info.parameters,
            info.quantization,
            info.size_bytes,
            info.context_length,
        )
    config: dict[str, Any] = {}
    try:
        loaded = json.loads((path / "config.json").read_text(encoding="utf-8"))
        config = loaded if isinstance(loaded, dict) else {}
    except (OSError, ValueError):
        pass
    context = config.get("max_position_embeddings")
    return ModelFacts(
        "openvino",
        str(config.get("model_type") or ""),
        "",
        0,
        "",
        folder_size(path) if path.is_dir() else 0,
        context if isinstance(context, int) else 0,
    )


def parameter_size(count: int) -> str:
    """A parameter count as Ollama writes it (``134.52M``, ``7.62B``)."""
    if count <= 0:
        return ""
    for unit, scale in (("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if count >= scale:
            return f"{count / scale:.2f}{unit}"
    return str(count)


def details(found: ModelFacts) -> dict[str, Any]:
    """Ollama's ``details`` object."""
    return {
        "parent_model": "",
        "format": found.format,
        "family": found.family,
        "families": [found.family] if found.family else None,
        "parameter_size": found.parameter_size,
        "quantization_level": found.quantization_level,
    }


def tag_entry(model: ServedModel) -> dict[str, Any]:
    """One model of ``/api/tags``."""
    found = facts(model)
    return {
        "name": ollama_name(model),
        "model": ollama_name(model),
        "modified_at": iso(model.created),
        "size": found.size,
        "digest": digest(model),
        "details": details(found),
    }


# ----- routes ------------------------------------------------------------------------------


@router.get("/version")
async def version() -> dict[str, str]:
    """This server's version (OV Studio's)."""
    return {"version": app_version()}


@router.get("/tags")
async def tags(request: Request) -> dict[str, Any]:
    """The installed chat models."""
    state = state_of(request)

    def listed() -> list[dict[str, Any]]:
        return [tag_entry(model) for model in state.served.models()]

    return {"models": await anyio.to_thread.run_sync(listed)}


@router.post("/show")
async def show(request: Request, body: ShowRequest) -> dict[str, Any]:
    """One model's details, parameters and capabilities (tools; images for a vision model)."""
    state = state_of(request)
    name = body.model or body.name
    if not name.strip():
        raise ApiError(400, "'model' is required.", param="model")
    model = state.served.resolve(name)
    found = await anyio.to_thread.run_sync(facts, model)
    defaults = state.defaults(model)
    parameters = (
        f"temperature {defaults.temperature}\ntop_p {defaults.top_p}\n"
        f"top_k {defaults.top_k}\nrepeat_penalty {defaults.repetition_penalty}"
    )
    family = found.family or "unknown"
    return {
        "modelfile": f"# Served by OV Studio from {model.path.name}\nFROM {model.path.name}\n",
        "parameters": parameters,
        "license": "",
        "details": details(found),
        "model_info": {
            "general.architecture": family,
            "general.parameter_count": found.parameters,
            f"{family}.context_length": found.context_length,
        },
        # Every model calls tools: through its template's format, or the constrained choice.
        "capabilities": ["completion", "tools", "vision"]
        if is_vision_folder(model.path)
        else ["completion", "tools"],
        "modified_at": iso(model.created),
    }


@router.get("/ps")
async def running(request: Request) -> dict[str, Any]:
    """The model loaded now (one at a time; it stays loaded until another is asked for)."""
    state = state_of(request)
    model, engine = state.served.served, state.served.engine
    if model is None or engine is None:
        return {"models": []}
    found = await anyio.to_thread.run_sync(facts, model)
    on_gpu = not engine.config.device.upper().startswith("CPU")
    return {
        "models": [
            {
                "name": ollama_name(model),
                "model": ollama_name(model),
                "size": found.size,
                "size_vram": found.size if on_gpu else 0,
                "digest": digest(model),
                "details": details(found),
                "context_length": state.served.context_tokens,
            }
        ]
    }


# Model management is the model manager's: these answer in Ollama's shape, never a bare 404.
@router.post("/pull")
@router.post("/push")
@router.post("/create")
@router.post("/copy")
@router.delete("/delete")
@router.post("/blobs/{digest}")
@router.head("/blobs/{digest}")
async def managed_elsewhere() -> None:
    """Refuse a model-management route: 501 with where models are managed."""
    raise ApiError(501, MANAGED_ELSEWHERE)


NS_PER_MS = 1_000_000


def ns(seconds: float) -> int:
    """``seconds`` in nanoseconds, Ollama's unit of time."""
    return int(seconds * 1e9)


def timings(completion: Completion, started: float, load_s: float) -> dict[str, Any]:
    """The last line's reason, counts and durations (``started``: ``perf_counter`` when the
    request came; ``load_s``: the model's load)."""
    return {
        "done_reason": "length" if completion.finish_reason == "length" else "stop",
        "total_duration": ns(time.perf_counter() - started),
        "load_duration": ns(load_s),
        "prompt_eval_count": completion.prompt_tokens,
        "prompt_eval_duration": int(completion.ttft_ms * NS_PER_MS),
        "eval_count": completion.completion_tokens,
        "eval_duration": int(max(0.0, completion.duration_ms - completion.ttft_ms) * NS_PER_MS),
    }
