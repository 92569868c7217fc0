"""What ChatService hands back: the model it loaded and the answers it gave."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from app.chat.messages import ChatMessage, Conversation
from app.models.inspect import DEFAULT_CONTEXT_TOKENS
from pipelines.engine_options import EngineOptions
from pipelines.gguf import GgufInfo
from pipelines.gguf_relayout import LayoutDecision
from pipelines.model_sampling import ModelSampling


@dataclass(frozen=True)
class LoadedModel:
    """What is loaded, where it was asked to run, and where it runs."""

    model_path: Path
    """The model's folder, or its ``.gguf`` file."""
    requested_device: str
    device: str
    load_ms: float
    context_tokens: int = DEFAULT_CONTEXT_TOKENS
    gguf: GgufInfo | None = None
    """A GGUF model's metadata (architecture, quantization …); None for an OpenVINO folder."""
    notes: tuple[str, ...] = ()
    """What the user should be told about the load that did not stop it."""
    vision: bool = False
    """Whether the model reads images (a ``vision-chat`` model on ``VLMPipeline``)."""
    remote_model: str = ""
    """The model's id on a remote endpoint ("" for a local model); ``device`` is then
    “Remote: name” and ``model_path`` only holds the id."""
    engine: EngineOptions = field(default_factory=EngineOptions)
    """The engine options the model runs with (always the defaults on a remote endpoint)."""
    converted: Path | None = None
    """A GGUF file's converted model's folder in the cache (None: not a converted GGUF)."""
    layout: LayoutDecision | None = None
    """A converted GGUF's weight layout decision (None: not made yet, or not a GGUF)."""
    sampling: ModelSampling = field(default_factory=ModelSampling)
    """The sampling the model recommends (its ``generation_config.json`` or GGUF metadata;
    none for a remote model): its values replace the global defaults until it has a preset."""

    @property
    def model_name(self) -> str:
        """What the user calls the model: its remote id, or its file or folder name."""
        return self.remote_model or self.model_path.name

    @property
    def device_label(self) -> str:
        """``CPU`` or ``AUTO → CPU``: what the user chose and what it resolved to."""
        if self.requested_device.upper() == "AUTO":
            return f"AUTO → {self.device}"
        return self.device


@dataclass(frozen=True)
class Answer:
    """A finished (or stopped) answer and whether it reached the disk."""

    conversation: Conversation
    message: ChatMessage
    saved: bool
    save_error: str = ""
    json_problem: str = ""
    """A JSON answer (``json_schema`` set) that is cut by the length limit, not JSON or not
    following its schema: one sentence; "" when it parsed and follows it (or is free text)."""

    @property
    def cut(self) -> bool:
        """The answer stopped at its length limit (``max_new_tokens``): it can be continued."""
        return self.message.cut
